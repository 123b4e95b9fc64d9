/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A test's registration descriptor and the types it is made of: part of
 * the test interface (engine/test.h), and what every reader of a run
 * (engine/run_view.h) renders.
 *
 * Who includes it: through engine/test.h (src/measure/, the tests) or
 * engine/run_view.h (src/output/, src/metrics/, src/loads/, src/trace/,
 * the report's renderers), never for itself.
 *
 * What its users may do:
 *  - a test fills one const struct test_desc (the registration: name,
 *    help, options with defaults, its series, hooks, declared figures
 *    with the fig_*() calls, "==" lines, suite table) and lays out its
 *    samplers; its per-sampler state lives in sampler.priv, its per-run
 *    state in run.priv (test_desc.priv_size bytes, zeroed);
 *  - everyone else only reads what a descriptor and a sampler declare.
 * What they may not do: write a field of struct sampler, struct series or
 * struct accum other than through the sampler_*() calls of engine/test.h
 * (the engine's display thread reads them concurrently), nor keep a
 * pointer to the run past its end.
 *
 * Units: every time is int64_t ns (names end in _ns or say so), on the
 * test clock (engine_opts.clock, CLOCK_MONOTONIC by default) unless said
 * CLOCK_REALTIME; counts are uint64_t.
 */
#ifndef RTLAT_TEST_DESC_H
#define RTLAT_TEST_DESC_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "system/cpulist.h"
#include "engine/housekeeping.h"
#include "engine/histogram.h"
#include "util/opt.h"
#include "engine/ring.h"
#include "util/stats.h"
#include "engine/wait.h"
#include "engine/rtthrottle.h"

#define RTLAT_MAX_SERIES 4
#define RTLAT_MAX_WARNINGS 16

struct jw;

/* Options common to all tests (see engine_common_opts / engine_timer_opts). */
struct engine_opts {
	int64_t period_ns;		/* timer tests: sampling period */
	int64_t duration_ns;		/* 0 = until interrupted */
	int64_t warmup_ns;		/* excluded from everything */
	int64_t interval_ns;		/* RTD line / interval window */
	int policy;
	int prio;
	struct cpuset cpus;
	bool cpus_given;
	bool prio_given;	/* -P given (refused with --policy other) */
	char cpus_arg[128];	/* -c as written (its order counts for the
				 * two-sided tests); "" when not given */
	enum wait_backend wait;
	clockid_t clock;
	bool mlock;
	bool dma_latency;
	bool quiet;
	int lines_per_header;
	bool print_hist;		/* -h: linear histogram on stdout */
	bool print_stats;		/* -s: HSS statistics */
	int64_t hist_bucket_ns;		/* linear histogram bucket width */
	long hist_buckets;		/* linear histogram bucket count */
	bool linear_hist;		/* keep the linear histogram */
	const char *gnuplot_file;
	const char *json_file;
	int64_t max_latency_ns;		/* < 0: no threshold */
	int64_t max_msw;		/* --max-msw (Cobalt build); < 0: none */
	int64_t break_ns;		/* < 0: no break */
	int64_t checkpoint_ns;		/* result file rewrite period */
	bool raw_samples;		/* stream every sample (cyclic -v) */
	uint64_t max_cycles;		/* stop each sampler after N samples+overruns (0 = no limit) */
	uint64_t max_wakeups;		/* timer tests: stop each sampler after N
					 * measured wake-ups, the periods they
					 * missed counted as overruns on top
					 * (cyclictest's -l: C: ends at N;
					 * 0 = no limit) */
	int headline_fd;		/* --headline-fd (rtlat suite), or -1 */
	size_t interval_rows;		/* per-interval rows kept for the result
					 * (0 = none: the test does not use them) */
	size_t overflow_cycles;		/* keep the cycle numbers of the first N
					 * samples that overflowed the linear
					 * histogram, per series (cyclic -h) */
	struct housekeeping hk;		/* --housekeeping; planned at set-up */
};

/* One interval of one series. */
struct window {
	uint64_t n;		/* samples */
	int64_t min, max;	/* ns; valid when n > 0 */
	int64_t sum;		/* ns */
	uint64_t overruns;	/* missed periods (or lost events) */
	int64_t last;		/* the last sample, ns */
};

/* Record pushed by a sampler when an interval closes. Intervals without a
 * record from a sampler had nothing in them. A record holds the windows of
 * the sampler's series only: w[0 .. nseries - 1]. */
struct winrec {
	uint64_t index;		/* interval number since t_measure */
	uint64_t cycles;	/* sampler's samples + overruns so far */
	int delta;		/* accumulator handed over (0/1), or -1 */
	struct window w[RTLAT_MAX_SERIES];
};

/* A raw sample (cyclic -v, --trace). */
struct rawrec {
	uint64_t cycle;
	int64_t value;		/* ns */
	int64_t t;		/* time it is accounted at: the deadline for
				 * timer tests (wake-up = t + value) */
	int series;
};

/* What a series measures. */
struct series_desc {
	const char *name;	/* "latency"; JSON key and report name */
	const char *miss_name;	/* "overruns" or "lost" */
	bool threshold;		/* --max-latency / --break apply to it */
	/* it has no deadline to miss (a computation): its misses are
	 * always 0 and say nothing; the result says "counts_misses": false
	 * and the report shows no miss column or row for it */
	bool no_misses;
	/* the figure of test_data (ns) its values deviate from, or NULL:
	 * the result's "reference" ("ideal_ns": the cruncher's deviation is
	 * the computation time - the ideal), shown beside it by the report */
	const char *reference;
};

/* Whole-run (or partial) accumulation of one series. */
struct accum {
	struct stats st;
	struct histogram hist;		/* log-linear: percentiles */
	struct histogram lin;		/* linear (-h, -g); count == NULL if off */
	uint64_t overruns;
	int64_t max_t;			/* when the maximum happened (test clock) */
	uint64_t max_cycle;		/* at which cycle */
};

/*
 * A series as the sampler accumulates it: into one of two accumulators.
 * When an interval closes, the sampler hands the active one to the display
 * thread (through the interval record) and switches to the other, if the
 * display has given that one back (merged into its totals and zeroed). If
 * not, or if the ring is full, the sampler keeps accumulating where it is:
 * nothing is lost, the display merely gets it later. The display's totals
 * are therefore consistent at every interval boundary, which is what
 * checkpoints write.
 */
struct series {
	const struct series_desc *desc;
	struct accum delta[2];
	/* cycle numbers of the first o->overflow_cycles samples that fell in
	 * the linear histogram's overflow (NULL when off); @novf stored.
	 * Read by the display side only after the sampler is joined. */
	uint64_t *ovf_cycles;
	size_t novf;
};

struct run;

enum sampler_state {
	SAMPLER_INIT,
	SAMPLER_READY,
	SAMPLER_DONE,
};

/* Cobalt build: the mode switches of one watched thread (a sampler, or a
 * thread a test adds: test_desc.msw_tids), from the Cobalt core's
 * statistics; written by the display and the main thread. */
struct msw_count {
	uint64_t base;			/* its count when the gate opened */
	_Atomic uint64_t n;		/* switches since then */
	_Atomic int64_t seen_ns;	/* when the first was seen, from the
					 * measurement's start (< 0: in the
					 * warm-up); valid when n > 0 */
	char name[64];			/* for the warning (extra threads) */
};
#define RTLAT_MSW_EXTRA 4

struct sampler {
	struct run *run;
	int id;
	int cpu;			/* requested CPU, -1 = any */
	int policy, prio;		/* requested */
	int64_t period_ns;		/* timer tests: this sampler's period;
					 * engine_add_sampler() sets o->period_ns */
	/* in force, read back by the thread itself after set-up */
	int policy_now, prio_now, cpu_now;
	char allowed_now[64];
	pid_t tid;
	pthread_t thread;
	bool created;
	/* Cobalt build: mode switches (MSW) in the measurement, from the
	 * Cobalt core's statistics (display and main thread) */
	struct msw_count msw;
	int nseries;
	struct series series[RTLAT_MAX_SERIES];
	int name_idx[RTLAT_MAX_SERIES];	/* series -> run name index */
	int active;			/* accumulator in use */
	_Atomic int delta_busy[2];	/* handed to the display, not back yet */
	struct ring ring;		/* struct winrec */
	struct ring raw;		/* struct rawrec, when raw_samples */
	struct winrec cur;
	bool cur_open;
	int64_t cur_end;		/* end of the open interval, test clock */
	/*
	 * Every record of an interval below the watermark has been pushed:
	 * the display need not wait for this sampler to close such an
	 * interval. Timer samplers raise it when they close an interval
	 * before their next wait (sampler_timer_wake()), so a sampler with a
	 * long period does not hold back the others' intervals.
	 */
	_Atomic unsigned long watermark;	/* low bits: a native word is
						 * lock-free on every target */
	uint64_t watermark_full;		/* the sampler's own copy */
	uint64_t cycles;		/* samples + overruns accounted */
	uint64_t wakeups;		/* timer tests: measured wake-ups
					 * (sampler_timer_wake() samples) */
	/* --clock realtime: the steps of CLOCK_REALTIME the sampler's wait
	 * saw (engine/wait.h), the largest by size (signed ns), and the
	 * deadlines of the measurement left out because a step made their
	 * wake-up late (no sample, no overrun) */
	uint64_t clock_steps;
	int64_t clock_step_max;
	uint64_t step_left_out;
	/* timer tests: the late wake-ups (and their overruns) RT throttling
	 * made (engine/rtthrottle.h); budget 0: not throttled */
	struct rt_throttle_seen thr;
	/* a pinned sampler whose affinity is no longer its CPU (the CPU went
	 * offline, or someone moved it): when the main thread saw it (test
	 * clock, from the start of the measurement; negative: in the
	 * warm-up) and the CPUs it was then allowed; cpu_lost false: not */
	bool cpu_lost;
	int64_t cpu_lost_at;
	char allowed_at_loss[64];
	/* a timer sampler that woke on another CPU than its own (even after
	 * a move of a few ms between two of the main thread's looks): that
	 * CPU + 1 (0: never), and the deadline it was seen at (test clock) */
	_Atomic int moved_to;
	int64_t moved_at;
	/* spinning tests: the end of what the sampler accounted (test
	 * clock; 0: not said). A spinning sampler notices a stop at its
	 * next check, after the main thread took the end: the run's actual
	 * duration reaches to it, so that what was measured lies within */
	int64_t measured_end;
	_Atomic int state;
	int err;			/* -errno from the body or set-up */
	char errmsg[192];
	void *priv;			/* the test's per-sampler state */
};


/*
 * A figure of a run that is not a series, declared by its test
 * (test_desc.figures) and written from that one place by every writer:
 * the result's test_data (numbers as numbers), the headline's
 * "param.NAME VALUE" lines (rtlat suite's SUITE_FIGURE columns,
 * docs/suite.md) and the "==" lines of the text output (test_desc.lines).
 * Figures "OBJ.KEY" one after the other are the members KEY of an object
 * OBJ in test_data ("OBJ.SUB.KEY": nested objects). A list (fig_list(),
 * fig_end()) is an array of test_data: of values (figures without a
 * name) or of objects (fig_item() starts each; the figures after it are
 * its members, named within it), such as one per CPU; a line may be said
 * once per item of a list (test_line.each). The headline carries the
 * run's figures, outside lists, that the test names for it
 * (fig_headline()).
 */
enum fig_kind {
	FIG_AUTO,		/* a number when @value is one, else a string */
	FIG_STRING,
	FIG_BOOL,		/* @value "true" or "false" */
	FIG_NULL,		/* not known: null, no headline line, "n/a" */
	FIG_LIST,		/* an array: the figures up to fig_end() */
	FIG_ITEM,		/* an object of the list it is in */
	FIG_JSON,		/* written by @json (test_data only): a list too
				 * long to be figures (noise's events) */
};

struct run;
struct jw;

struct test_param {
	char name[48];		/* unit in the name: "calibrated_ns" (a time in
				 * ns, said in us), "dev_max_pct"; no blank;
				 * "" for a value of a list */
	char *value;		/* "10150431", "2.77"; "" for FIG_LIST and
				 * FIG_ITEM */
	char *text;		/* how a sentence says it ("+0.01 %"); NULL:
				 * from the value (a NAME_ns in us) */
	enum fig_kind kind;
	int parent;		/* index of the FIG_LIST or FIG_ITEM it is in,
				 * -1: of the run */
	bool headline;		/* a param.NAME line of the headline (the
				 * suite's), after fig_headline() */
	bool one_line;		/* FIG_LIST: written on one line */
	bool said;		/* for the "==" lines only: not in test_data */
	/* FIG_JSON: writes the member @key (jw_*(w, key, ...)) */
	void (*json)(const struct run *r, struct jw *w, const char *key,
		     const void *ctx);
	const void *ctx;
};

/* The figures of a run, as test_desc.figures() declares them: each fig_*
 * call adds one to the innermost open list or item (the run's when none),
 * a NULL @name is a value of a list; fig_text() sets the sentence form of
 * the last one. Out of memory, the figures from there on are left out
 * (@oom). */
struct test_figs {
	struct test_param *p;
	int n, cap;
	int open;		/* innermost open FIG_LIST or FIG_ITEM, -1 */
	bool oom;
};

void fig_num(struct test_figs *f, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void fig_str(struct test_figs *f, const char *name, const char *v);
void fig_bool(struct test_figs *f, const char *name, bool v);
void fig_null(struct test_figs *f, const char *name);
void fig_text(struct test_figs *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The last figure (of the run) is a param.NAME line of the headline. */
void fig_headline(struct test_figs *f);
/* The last figure is said by the "==" lines only, not in test_data (the
 * banner's sentences). */
void fig_said(struct test_figs *f);
/* Start a list @name (an array of test_data; @one_line: on one line);
 * its values or items follow, up to fig_end() (or the end of the
 * figures). */
void fig_list(struct test_figs *f, const char *name, bool one_line);
/* Start the next item (an object) of the innermost open list. */
void fig_item(struct test_figs *f);
/* End the innermost open list (and its open item). */
void fig_end(struct test_figs *f);
/* A member @name of test_data written by @json(r, w, name, @ctx), which
 * the lines and the headline do not say ("n/a"): a list too long to be
 * figures. @ctx must outlive the figures. */
void fig_json(struct test_figs *f, const char *name,
	      void (*json)(const struct run *r, struct jw *w, const char *key,
			   const void *ctx),
	      const void *ctx);
void figs_free(struct test_figs *f);
#define TEST_FIGS_INIT { .open = -1 }

/*
 * A "==" line of the text output, declared by its test (test_desc.lines):
 * @text with {NAME} for a figure (of the line's item first, then of the
 * run): its sentence form, a NAME_ns in us, "n/a" when null or missing, a
 * list's values one after the other (", "); {series.S.samples},
 * {series.S.misses} of series S; {series.S.rel:NAME}
 * "min X us (+P %), avg ..., max ..." of series S against the figure NAME
 * (ns); {sum.NAME} the sum of an item figure NAME over the items;
 * [?NAME:TEXT] TEXT when the figure is known and not false, [!NAME:TEXT]
 * when it is not; [?NAME=VALUE:TEXT] when its value is VALUE. A "\n" in
 * @text starts the next "==" line; a line that says nothing is not
 * written.
 */
enum test_line_at {
	LINE_BANNER,		/* in the banner, after "== Test mode" */
	LINE_START,		/* after the banner */
	LINE_SUMMARY,		/* after the series' summary lines */
};

struct test_line {
	enum test_line_at at;
	/* NULL: once; else the name of a list of the run: once per item of
	 * it, in order ("cpus") */
	const char *each;
	const char *text;
};

/* What a column of a suite table shows, from a run's headline. */
enum suite_stat {
	SUITE_MIN,		/* min of the series, us */
	SUITE_AVG,		/* mean, us */
	SUITE_MAX,		/* max, us */
	SUITE_MISSES,		/* overruns / lost, a count */
	SUITE_P999,		/* 99.9th percentile, us */
	SUITE_TIME,		/* measured time, hh:mm:ss: the run's, or
				 * the figure the column names (NAME_ns,
				 * fig_headline()) when the run has it */
	SUITE_FIGURE,		/* a declared figure of the run named for the
				 * headline (fig_headline(): its param.NAME
				 * line): NAME_ns in us, anything else as
				 * written */
	SUITE_PERCENT,		/* such a figure, a %, with 4 decimals (as
				 * the headline writes it; read back from a
				 * result's JSON, 6.2760 is 6.276) */
	SUITE_CPU,		/* such a figure that says where, not how
				 * much: a CPU number (noise's noise_cpu,
				 * the noisiest); shown as written, rtlat
				 * compare shows it without comparing, --lava
				 * has no case of it */
	SUITE_END,		/* ends a column list */
};

struct suite_col {
	const char *head;	/* "lat min"; NULL for SUITE_MISSES: the
				 * series' miss name ("overrun", "lost") */
	const char *name;	/* series name (NULL = the test's first), or
				 * for SUITE_FIGURE the figure's: "calibrated_ns" */
	enum suite_stat stat;
};

/*
 * How a test joins "rtlat suite": a test with a non-NULL .suite is in
 * the default matrix. The minimum is a title:
 *
 *   .suite = &(const struct suite_spec){ .title = "SWITCH" },
 */
struct suite_spec {
	const char *title;		/* table title: "LATENCY" */
	/* units of the table, after the title; NULL: "latencies in us" */
	const char *units;
	/* extra arguments of every suite run, NULL-terminated (may be NULL) */
	const char *const *args;
	/* table columns up to one with .stat = SUITE_END; NULL: lat min |
	 * lat avg | lat max | overrun (or lost) | p99.9 | test-time of the
	 * first series */
	const struct suite_col *cols;
	/* miss name of its series (series_desc.miss_name, "lost"): header of
	 * a SUITE_MISSES column when no run's headline gives it (not run,
	 * failed); NULL: "overruns" */
	const char *miss_name;
	/* what a sample of its series is, in the line under each row
	 * ("events above the threshold"), for a series that never misses:
	 * "gap: N events above the threshold", no misses; NULL: "N samples +
	 * M overruns (x % of the periods)" */
	const char *sample_name;
	/* an option of the test that rtlat suite takes as its own,
	 * --TEST-LONG with the help @forward_help (irq's "source": the
	 * suite's --irq-source), and passes to each run of the test as
	 * --LONG VALUE; the test runs, also in the default matrix, only
	 * when it is given. NULL: none, the test always runs */
	const char *forward;
	const char *forward_help;
	/* the forwarded value usable, checked before the suite's first run
	 * on the state its option parser filled: the test's own checks at
	 * start (the source there, not busy, permitted), without measuring.
	 * 0, or -1 with @err. NULL: the option parser's check alone */
	int (*check_forward)(void *priv, struct engine_opts *o, char *err,
			     size_t len);
};

/* tests with a suite_spec.forward option, at most */
#define SUITE_MAX_FORWARD OPT_SUITE_MAX_FORWARD

struct opt_help;

/*
 * A test, described once: what the command line, the help, the engine, the
 * output and rtlat suite need of it. A new test is one file with one of
 * these and one line in the registry (cmd/registry.c).
 */
struct test_desc {
	const char *name;		/* "latency" */
	const char *mode;		/* "periodic user-mode task" */
	/* the mode actually run, when options change it (may be NULL:
	 * @mode); called once the test is set up */
	const char *(*mode_of)(const struct run *r);
	const char *summary;		/* one line for "rtlat --help" */
	const char *about;		/* the text of --help */
	/* defaults of the shared options: period (0: none), priority */
	int64_t period_ns;
	int prio;
	/* option tables, NULL-terminated (engine_timer_opts,
	 * engine_common_opts, its own); the companions' come after them */
	const struct optdesc *const *opts;
	/* help of shared options as they apply to this test (-c and -P of
	 * a two-sided test), or NULL */
	const struct opt_help *help;
	/* private state of a run, r->priv: @priv_size bytes, zeroed,
	 * allocated before the options; @init sets its defaults (may be
	 * NULL) */
	size_t priv_size;
	void (*init)(void *priv, struct engine_opts *o, int argc,
		     char **argv);
	/* its own options, before the shared ones see them: 0, -1 after an
	 * error (reported), 1 when not its option (may be NULL) */
	int (*opt)(void *priv, struct engine_opts *o, const struct optdesc *d,
		   const char *arg);
	/* after the options, before the run (may be NULL): 0, or -1 after
	 * an error (reported) */
	int (*configure)(void *priv, struct engine_opts *o);
	/* its tables are the whole command line (cyclic: cyclictest's), with
	 * no option of the companions */
	bool own_options;
	const struct suite_spec *suite;	/* in rtlat suite (NULL: not) */
	/* Lay out samplers: call engine_add_sampler(); may set r->priv. */
	int (*setup)(struct run *r);
	/* May be NULL. In each sampler's thread, pinned and at its priority,
	 * before the start (cruncher's calibration): may take long, but must
	 * return soon once sampler_stopping() (a signal meanwhile ends the run
	 * cleanly: summary, result "interrupted"). Like the body: no I/O, no
	 * locks. Returns 0 or -errno with s->errmsg set (the run fails). */
	int (*prepare)(struct sampler *s);
	/* Sampler body, in the RT thread after set-up and start. Returns 0 or
	 * -errno with s->errmsg set. */
	int (*body)(struct sampler *s);
	/* After all samplers are joined (also on errors). */
	void (*teardown)(struct run *r);
	/* Its declared figures (may be NULL), of any kind, in lists and
	 * objects: test_data, the headline's param.NAME lines and the "=="
	 * lines take them from here (struct test_figs). Called whenever a
	 * writer needs them (the banner, the summary, the files), also
	 * after errors (before teardown()): figures not reached are null or
	 * left out. */
	void (*figures)(struct run *r, struct test_figs *f);
	/* its "==" lines, up to one with .text NULL (may be NULL) */
	const struct test_line *lines;
	const struct output_ops *out;
	/* series 0 is a timer grid accounted with sampler_timer_wake(): a
	 * companion may break its samples down (--trace) */
	bool timer_wake;
	/* Cobalt build (may be NULL): threads besides the samplers whose mode
	 * switches count (a forked partner): fill at most @max of @tids and
	 * name each in r->msw_extra[i].name; called when the samplers wait
	 * at the gate and at every read. Returns how many. */
	int (*msw_tids)(struct run *r, pid_t *tids, int max);
	/* the samplers never leave their CPUs (they spin: noise): a
	 * --housekeeping policy that lets the display and main threads
	 * onto a measured CPU is warned about (auto keeps them off where
	 * there are other CPUs) */
	bool spins;
	/* series 0 are gaps of a busy loop, accounted at their start with
	 * their length: a companion may say what ran in each (--trace) */
	bool gap_series;
	/* series 0 of sampler *@sampler are events from a stimulus to the
	 * task that serves it, accounted at the stimulus with their latency
	 * (the span [t, t + value]): a companion may break them down at the
	 * kernel's events (--trace), at interrupt *@irq (-1: none known;
	 * *@first: its line carries only the events' interrupts, so an
	 * event's is the first after the stimulus, else the last before the
	 * task's wake-up). Called with the samplers set up; 0, or -1 with
	 * @err (no events to break down in this mode). NULL: not such a
	 * test. */
	int (*event_trace)(const struct run *r, int *irq, bool *first,
			   int *sampler, char *err, size_t len);
};


/* Accumulators (accum.c). accum_init() allocates the histograms the options
 * ask for; returns 0 or -ENOMEM. */
int accum_init(struct accum *a, const struct engine_opts *o);
/* A sampler's hand-over accumulator: its log-linear histogram has 32-bit
 * counters (engine/histogram.h: hist_init_loglin32()); it is only added to,
 * merged into a total and reset. */
int accum_init_handover(struct accum *a, const struct engine_opts *o);
void accum_free(struct accum *a);
void accum_reset(struct accum *a);
void accum_merge(struct accum *dst, const struct accum *src);

/* Account sample @v (ns) taken at @t in cycle @cycle. No allocation, O(1):
 * usable in a sampler. */
static inline void accum_add(struct accum *a, int64_t v, int64_t t,
			     uint64_t cycle)
{
	if (a->st.n == 0 || v > a->st.max) {
		a->max_t = t;
		a->max_cycle = cycle;
	}
	stats_add(&a->st, v);
	hist_add(&a->hist, v);
	if (a->lin.count)
		hist_add(&a->lin, v);
}
void window_merge(struct window *dst, const struct window *src);

#endif
