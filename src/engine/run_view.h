/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The read-only view of a run: what the outputs (src/output/: text lines,
 * summary, result file, headline), the metrics endpoint (src/metrics/),
 * the companions of a run (src/loads/, src/trace/) and the tests read of
 * it once it runs: its test (descriptor, engine/test_desc.h), options,
 * samplers and their whole-run totals, the per-name aggregates and
 * interval series, the timeline, the outcome (stop reason, --break,
 * threshold, warnings, error, exit code) and its companions.
 *
 * Who includes it: src/output/, src/metrics/, src/loads/, src/trace/ and
 * the report (scripts/check-layers.py refuses them engine/test.h,
 * engine/engine.h and engine/run.h); the tests get it through
 * engine/test.h.
 *
 * What its users may do: read every field of struct run, struct
 * series_name, struct ivstore and of the run's samplers; an output may
 * count its own lines in run.lines_printed; a companion keeps its state in
 * its struct companion and may report through engine_warn() and
 * engine_error(). What they may not do: write any other field of the run
 * (the engine's threads read them concurrently), call into the sampler
 * side (engine/test.h), or reach the engine's own state (run.eng,
 * engine/run.h).
 *
 * When to read what: the totals (run.total, run.names[].agg) are
 * consistent at each interval boundary the display thread processed
 * (run.next_k: intervals processed), and final once the samplers are
 * joined (the summary, the result writer, companion stop() and later).
 *
 * Units: every time is int64_t ns on the test clock unless the field says
 * CLOCK_REALTIME / CLOCK_MONOTONIC; counts are uint64_t.
 */
#ifndef RTLAT_RUN_VIEW_H
#define RTLAT_RUN_VIEW_H

#include "engine/test_desc.h"

struct xeno_col;

/* Output style of a test (Xenomai RT* lines, cyclictest T: lines, ...). */
struct output_ops {
	/* after set-up, before the first sample */
	void (*start)(struct run *r);
	/* interval @k closed: @agg per series name, @thr per sampler (NULL when
	 * the sampler had nothing in that interval) */
	void (*interval)(struct run *r, uint64_t k, const struct window *agg,
			 const struct winrec *const *thr);
	/* about every 100 ms from the display thread (live refresh), may be NULL */
	void (*tick)(struct run *r);
	/* raw sample (when raw_samples), may be NULL */
	void (*raw)(struct run *r, int sampler, const struct rawrec *rec);
	/* SIGUSR1 or SIGUSR2: the figures so far, on stderr, from the
	 * display thread (the run goes on); NULL: engine_snapshot() */
	void (*snapshot)(struct run *r);
	/* final summary, from the main thread */
	void (*summary)(struct run *r);
	/* the test's own output files, from the main thread after every line
	 * of text (a file may be the standard output) and after the
	 * measurement released cpu_dma_latency (a FIFO waits for its
	 * reader); may be NULL */
	void (*files)(struct run *r);
	/* Xenomai style: the columns of the RTD line printed by
	 * xeno_interval() (NULL: latency's); see output.h */
	const struct xeno_col *cols;
	int ncols;
	/* or the columns of this run, when its series depend on its options
	 * (irq --respond): @n set; NULL: cols */
	const struct xeno_col *(*columns)(const struct run *r, int *n);
};

/*
 * A companion of a run: something that runs beside the test without being
 * part of it - the load generators, the kernel-side trace. The command
 * layer passes the companions of a run to engine_run() (struct
 * engine_env); the engine knows them only through these hooks, called at
 * fixed points of the run, and every hook may be NULL. @c->state is the
 * companion's own, companion_init() allocates it (@state_size bytes,
 * zeroed) and calls @init; options go to @opt before the run.
 */
struct companion;

struct companion_ops {
	const char *name;		/* "loads", "trace" */
	size_t state_size;
	void (*init)(struct companion *c);
	/* its options (help, man page) and their handler: 0, -1 after an
	 * error (reported), 1 when @d is not one of them */
	const struct optdesc *opts;
	int (*opt)(struct companion *c, const struct optdesc *d,
		   const char *arg);
	/* validate: options against the run's, before anything is touched;
	 * 0 or -1 with @err */
	int (*check)(struct companion *c, const struct run *r, char *err,
		     size_t len);
	/* wants the raw samples (raw(), from the display thread) */
	bool (*wants_raw)(const struct companion *c);
	/* prepare: before the memory lock, while rtlat has one thread (loads
	 * fork here); 0 or -1 with @err (the run fails) */
	int (*start_early)(struct companion *c, struct run *r, char *err,
			   size_t len);
	/* start: samplers set up (thread ids known), nothing measured yet;
	 * 0 or -1 with @err */
	int (*start)(struct companion *c, struct run *r, char *err,
		     size_t len);
	/* display thread: a raw sample of sampler @i; then poll() (@final:
	 * the samplers are joined); may hold interval @k back while
	 * interval_ready() says no */
	void (*raw)(struct companion *c, struct run *r, int i,
		    const struct rawrec *rec);
	void (*poll)(struct companion *c, struct run *r, bool final);
	bool (*interval_ready)(struct companion *c, struct run *r,
			       uint64_t k);
	/* main thread, every 50 ms while measuring */
	void (*tick)(struct companion *c, struct run *r);
	/* the measurement is over: stop; a problem is a warning
	 * (engine_warn()) or an error of the run (engine_error()) */
	void (*stop)(struct companion *c, struct run *r);
	/* after the stop, before the summary: its own files; 0 or -1 with
	 * @err (exit status 1) */
	int (*finish)(struct companion *c, struct run *r, char *err,
		      size_t len);
	/* stdout, after the test's summary */
	void (*summary)(struct companion *c, struct run *r);
	/* its members of the result file and lines of the headline (always
	 * called: a companion with nothing to say writes its empty value) */
	void (*json)(struct companion *c, const struct run *r, struct jw *w);
	void (*headline)(struct companion *c, const struct run *r, FILE *f);
	/* What the output layer shows of it (may be NULL). @banner: a line
	 * of the banner ("== TEXT") while it runs, or NULL. @cols: how many
	 * columns it adds now to the interval and summary lines of series 0
	 * (0: none), their heads in @heads; @col_values: those columns for
	 * the largest sample @max of interval @k (@sampler < -1), or of the
	 * run of sampler @sampler (-1: all samplers), true with @v filled
	 * when they are known ("n/a" else). */
	const char *(*banner)(struct companion *c, const struct run *r);
	int (*cols)(struct companion *c, const struct run *r,
		    const char *const **heads);
	bool (*col_values)(struct companion *c, struct run *r, int64_t k,
			   int sampler, int64_t max, int64_t *v);
	/* every exit path, idempotent */
	void (*release)(struct companion *c, struct run *r);
};

struct companion {
	const struct companion_ops *ops;
	void *state;
};

/* The state of the companion @ops of @r, or NULL when it is not there. */
void *engine_companion(const struct run *r, const struct companion_ops *ops);

/*
 * The result files of a run, rendered by the output layer (output/result.h)
 * and passed in by the command layer: @write the JSON result (also each
 * checkpoint), @gnuplot the histogram file, @headline the headline lines.
 * Each returns 0 or -1 with @err.
 */
struct result_ops {
	int (*write)(struct run *r, const char *path, const char *status,
		     char *err, size_t len);
	int (*gnuplot)(struct run *r, const char *path, char *err,
		       size_t len);
	void (*headline)(struct run *r, int fd, const char *status);
};

/* A "KEY VALUE" line of the headline (docs/suite.md), line breaks in @v
 * made blanks. */
void headline_put(FILE *f, const char *key, const char *v);

/* Cobalt build: the samplers' mode switches so far in the measurement
 * (0 elsewhere). */
uint64_t engine_msw_total(const struct run *r);

/* A warning of the run (on stderr now, in the result and headline). */
void engine_warn(struct run *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An error of the run @msg: the run ends as an error (a second one becomes
 * a warning). */
void engine_error(struct run *r, const char *msg);

/* Per-interval series kept for the result: bounded, compacted by merging
 * neighbours (the span doubles) so memory stays constant over any run. */
struct ivstore {
	size_t n, cap;
	uint64_t span;			/* intervals per entry */
	uint64_t *index;		/* first interval of each entry */
	struct window *w;
};

/* A series name over all samplers (aggregation, interval display). */
struct series_name {
	const struct series_desc *desc;
	struct stats min_st, max_st;	/* stats of interval minima and maxima */
	int64_t best, worst;		/* lowest interval min, highest max */
	uint64_t overruns;		/* running total */
	bool any;
	struct accum agg;		/* all samplers merged (for summaries) */
	/* the one sampler series of this name, when it has one: agg is then
	 * a copy of its total sharing the histograms (none allocated), so
	 * agg is made by engine_aggregate() only, never merged into */
	const struct accum *agg_of;
	struct ivstore iv;		/* aggregated interval series */
};

enum stop_reason {
	STOP_NONE,
	STOP_END,		/* duration reached */
	STOP_SIGNAL,		/* SIGINT / SIGTERM / SIGHUP */
	STOP_BREAK,		/* --break */
	STOP_ERROR,
};

/*
 * A run: what the tests, the outputs, the metrics and the companions may
 * read of it (and, for a test, its private state, its samplers and its
 * exit code). The engine's own machinery (the phase reached, the start
 * gate, the display thread, the result files, the mode-switch baseline)
 * is in struct run_engine, engine/run.h, which only src/engine/ includes
 * (scripts/check-layers.py).
 */
struct run_engine;

struct run {
	struct run_engine *eng;		/* the engine's own (engine/run.h) */
	const struct test_desc *test;
	struct engine_opts *o;
	int argc;
	char **argv;
	void *priv;

	int nsamplers;
	struct sampler *s;
	int nnames;
	struct series_name names[RTLAT_MAX_SERIES];

	_Atomic int stop;
	int stop_reason;
	int stop_signal;
	int64_t t0;			/* first deadline, test clock */
	int64_t t_measure;		/* end of warm-up */
	int64_t t_end;			/* INT64_MAX when unbounded */
	int64_t wall_start_ns, wall_end_ns;	/* CLOCK_REALTIME */
	int64_t mono_start_ns, mono_end_ns;	/* CLOCK_MONOTONIC */

	/* --break */
	_Atomic int brk_hit;
	int brk_sampler, brk_series;
	int64_t brk_value;
	uint64_t brk_cycle;

	bool dma_held;			/* cpu_dma_latency was held at 0 */
	long long clock_res_ns;
	char warnings[RTLAT_MAX_WARNINGS][320];
	int nwarnings;
	char error[256];

	/* display thread */
	uint64_t next_k;
	struct accum (*total)[RTLAT_MAX_SERIES];	/* per sampler, per series */
	struct ivstore (*iv)[RTLAT_MAX_SERIES];		/* per sampler, per series */
	int lines_printed;

	struct companion *comp;		/* running beside the test (engine_env) */
	int ncomp;

	bool threshold_exceeded;
	/* Cobalt build: the mode-switch counts (cobalt.h) are known */
	bool msw_known;
	bool msw_lost;			/* not readable at the end */
	struct msw_count msw_extra[RTLAT_MSW_EXTRA];	/* test_desc.msw_tids */
	int msw_nextra;
	int exit_code;
	bool no_host;			/* leave the host identity out (selftest) */

	struct sysdesc *sys;		/* the system, for the result (or NULL) */
	struct check_report *check;	/* rtlat check's findings (one reading
					 * of the interrupts), for the result
					 * (or NULL) */
};

/* Measured time so far (or of the whole run once it ended), ns. */
int64_t run_actual_ns(const struct run *r);
/* stderr, after the summary: a --break, an exceeded --max-latency, the
 * signal that stopped the run. */
void run_report_outcome(struct run *r);

/* Display side: hand the raw samples pushed so far to the output's raw()
 * (cyclic -v) and to --trace. */
void engine_drain_raw(struct run *r);

/* The mode of @r's test as run (test_desc.mode_of, else .mode). */
static inline const char *run_mode(const struct run *r)
{
	return r->test->mode_of ? r->test->mode_of(r) : r->test->mode;
}

#endif
