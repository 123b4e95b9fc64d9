/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The normalized run: what every importer produces and every output reads.
 * One struct rep_run is one measured series of one run of one tool (a row
 * of a report table). All times are int64_t ns; every figure that a source
 * may not provide has a has_* flag: a missing value is "n/a", never 0, NaN
 * or a sentinel.
 */
#ifndef RTLAT_REPORT_MODEL_H
#define RTLAT_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/histogram.h"

/* Largest magnitude accepted for any imported time (ns) or count: 2^53,
 * exact in a double (JSON, SQLite REAL) - 104 days in ns. */
#define REP_MAX_VALUE	(INT64_C(1) << 53)

/* Length of a run identity (run_identity()): 32 hex digits and a NUL. */
#define REP_IDENT_LEN 33

/* What a "miss" column counts: Xenomai's overrun vs switch's lost. */
enum rep_miss {
	MISS_NONE = 0,		/* the source has no such column */
	MISS_OVERRUNS,
	MISS_LOST,
};

enum rep_hist_layout {
	REP_HIST_NONE = 0,
	REP_HIST_LINEAR,	/* nbuckets of width from lo (1 us for most tools) */
	REP_HIST_LOGLIN,	/* rtlat's log-linear layout (engine/histogram.h) */
};

/* One non-empty bucket, bounds inclusive. */
struct rep_bucket {
	int64_t lo, hi;
	uint64_t count;
};

struct rep_hist {
	enum rep_hist_layout layout;
	int64_t lo, width;	/* REP_HIST_LINEAR */
	uint64_t nbuckets;	/* REP_HIST_LINEAR: buckets in the layout */
	/* Samples were recorded as whole bucket units by the tool (cyclictest,
	 * jitterdebugger, oslat store truncated us): a sample in a bucket has
	 * the value of its lower edge. */
	bool quantized;
	/* Histogram of |latency| (Xenomai's HSD): no percentiles when min < 0 */
	bool abs_folded;
	uint64_t underflow, overflow;
	uint64_t bucket_total;	/* sum of bucket counts (<= REP_MAX_VALUE) */
	size_t n, cap;
	struct rep_bucket *b;	/* ascending, non-overlapping */
};

/* One interval of the interval series (Xenomai's RTD line). */
struct rep_interval {
	int64_t start_ns;	/* from the start of the measurement */
	int64_t len_ns;
	bool has_samples;
	uint64_t samples;
	bool has_stats;		/* min/avg/max known */
	int64_t min, max;
	double avg;
	bool has_misses;
	uint64_t misses;	/* in this interval (not cumulative) */
};

struct rep_series {
	int id;			/* thread number; -1 for the whole run */
	int cpu;		/* -1 when unknown */
	bool has_samples;
	uint64_t samples;
	bool has_stats;		/* min, max and avg known */
	int64_t min, max;
	double avg;
	bool has_stddev;
	double stddev;
	bool has_misses;
	uint64_t misses;	/* overruns or lost, see rep_run.miss */
	bool has_pct[RTLAT_NPCT];	/* rtlat_percentiles[] order */
	int64_t pct[RTLAT_NPCT];
	/* pct[i] is only a lower bound: the percentile's rank lies in the
	 * histogram's overflow (beyond its last bucket), so the percentile
	 * is at least pct[i], the overflow's lower edge, and unknown above
	 * (never the max). */
	bool pct_bound[RTLAT_NPCT];
	struct rep_hist hist;
	size_t nint;
	struct rep_interval *iv;
};

/* A figure of a run besides its series (an rtlat result's test_data:
 * noise's noise_pct, events, measured_ns), of the whole run or of one
 * CPU's sampler. */
struct rep_fig {
	int cpu;		/* -1: the whole run's */
	char name[32];
	char value[40];		/* as written in the source */
};

struct rep_run {
	/* where it came from */
	char *file;		/* path as given */
	unsigned line;		/* first line of the run in a text file, or 0 */
	const char *format;	/* importer name: "cyclictest", ... (static) */
	char *tool;		/* "cyclictest 2.40", "Xenomai latency", ... */
	/* what it is */
	char *label;		/* row name */
	char *board;		/* board or host name */
	char *system;		/* free-text system description */
	char *check;		/* rtlat check's findings when the run
				 * started (the result file's "check"): a
				 * first line of counts ("1 bad, 4 warnings,
				 * 7 ok, 5 n/a"), then one line per warning
				 * or bad, "id\tverdict\tfound"; NULL when
				 * the source has none */
	char *kernel;		/* kernel release */
	char *arch;		/* machine */
	char *test;		/* test kind: latency, klatency, switch, ... */
	char *series;		/* measured quantity: "latency", ... */
	char *section;		/* the titled part of the source the run's
				 * table is in, when the source sets it apart
				 * from a table of the same test and load
				 * (series_title()); NULL otherwise */
	char *load;		/* "none", a load name or REP_LOAD_UNNAMED;
				 * NULL = not recorded */
	char *start_time;	/* ISO 8601 UTC, or NULL */
	char *status;		/* complete, interrupted, ...; or NULL */
	int64_t duration_ns;	/* -1 when unknown */
	int64_t period_ns;	/* -1 when unknown */
	int64_t resolution_ns;	/* smallest step of the source's figures */
	enum rep_miss miss;
	/* its test declares that it has nothing to miss (the result's
	 * "counts_misses": false, a computation: the cruncher's): no miss
	 * column or row */
	bool no_misses;
	/* the reference its values deviate from is known (the result's
	 * "reference": test_data's "ideal_ns", the ideal computation
	 * time) */
	bool has_ideal;
	int64_t ideal_ns;
	int64_t interval_ns;	/* length of one interval of the series, or 0 */
	int64_t db_id;		/* row id in the history database, or 0 */
	char ident[REP_IDENT_LEN];	/* run_identity() as imported, "" =
					 * unknown */
	char *added_at;		/* when it entered the database (ISO UTC) */
	bool baseline;		/* marked as its board's baseline in the
				 * database (rtlat db baseline set) */
	struct rep_series sum;	/* the whole run (all threads) */
	size_t nthr;
	struct rep_series *thr;	/* per thread, may be empty */
	size_t nfig;
	struct rep_fig *fig;	/* figures of test_data, may be empty */
};

/* Figure @name of @r (of CPU @cpu's sampler, or -1: the whole run's), as
 * written; NULL when @r has none. */
const char *run_figure(const struct rep_run *r, const char *name, int cpu);
/* Add it (a name or value too long for rep_fig is left out). */
void run_add_figure(struct rep_run *r, const char *name, int cpu,
		    const char *value);

/* Are @a and @b the same text, or both NULL? */
bool str_same(const char *a, const char *b);

/* Load of a run said to be "with load" without naming it. */
#define REP_LOAD_UNNAMED "unnamed"

struct rep_runs {
	size_t n, cap;
	struct rep_run **v;
};

/*
 * The distinct check findings (rep_run.check) of @rs into @chk (at most
 * @max), in the order of the runs; returns how many.
 */
size_t runs_checks(const struct rep_runs *rs, const char **chk, size_t max);

/* One line of a rep_run.check text: its counts (@id NULL), or a
 * finding; each field @..._len bytes long (not NUL-terminated). */
struct check_line {
	const char *id, *verdict, *text;
	int id_len, verdict_len, text_len;
};

/* The line of @chk at *@pos (start at @chk itself: the counts), moving
 * *@pos to the next; false at the end. */
bool check_next(const char *chk, const char **pos, struct check_line *l);

/* The labels of the runs of @rs whose findings are @chk, each once,
 * ", " between them (malloc'd). */
char *runs_with_check(const struct rep_runs *rs, const char *chk);

/* Allocate a run with every figure unknown. Aborts on out of memory (host
 * side: there is nothing sensible to do without memory). */
struct rep_run *run_new(void);
void run_free(struct rep_run *r);
/* Deep copy. */
struct rep_run *run_dup(const struct rep_run *r);

/* Replace *@dst with a copy of @s (NULL allowed). */
void str_set(char **dst, const char *s);

/* Initialise a series with every figure unknown. */
void series_init(struct rep_series *s, int id);
void series_free(struct rep_series *s);
void series_copy(struct rep_series *dst, const struct rep_series *src);

/* Append a thread to @r; returns it (initialised, id = @id). @r->thr may
 * move: pointers to its earlier threads are invalid afterwards. */
struct rep_series *run_add_thread(struct rep_run *r, int id);
/* The thread @id of @r, appended when it has none (run_add_thread()). */
struct rep_series *run_thread(struct rep_run *r, int id);

/* Append a bucket to @h. Buckets must come in ascending order, lo <= hi,
 * all within +-REP_MAX_VALUE, and the total stay <= REP_MAX_VALUE.
 * Returns 0, -EINVAL (order or bounds) or -ERANGE (count too large). A
 * bucket with count 0 is accepted and not stored. */
int hist_push(struct rep_hist *h, int64_t lo, int64_t hi, uint64_t count);
/* Sum of bucket counts + underflow + overflow. */
uint64_t rep_hist_total(const struct rep_hist *h);

/* Largest linear layout accepted (buckets), to bound memory. */
#define REP_MAX_LINEAR_BUCKETS	(1u << 20)

/* Append an interval to @s. */
struct rep_interval *series_add_interval(struct rep_series *s);

/*
 * Fill the percentiles of @s that are not known from its histogram (needs
 * has_stats). Uses hist_percentile() of the core: the upper edge of the
 * bucket holding the rank, or for a quantized histogram the bucket's value;
 * then series_check_percentiles(). Returns the number of percentiles
 * filled.
 */
int series_fill_percentiles(struct rep_series *s);

/*
 * Settle the known percentiles of @s (after series_fill_percentiles(), and
 * for figures read from a source or the history):
 *  - with fewer samples than a percentile needs to differ from the maximum
 *    (1000 for p99.9: its rank would be the last sample), it is unknown;
 *  - when its rank lies in the histogram's overflow, it is a lower bound
 *    (pct_bound): the overflow's lower edge (rep_hist_limit()).
 * Underflow is left as the histogram gives it (an upper bound, as every
 * percentile from a histogram).
 */
void series_check_percentiles(struct rep_series *s);

/*
 * The quantile 1 - 1/@den (@den >= 2) of @s from its histogram, as
 * series_fill_percentiles() computes a percentile (e.g. @den = the
 * sample count of a shorter run: what its max would be at equal
 * samples). *@bound: its rank is in the overflow, the value is the
 * overflow's edge and a lower bound. False without a histogram.
 */
bool series_quantile(const struct rep_series *s, uint64_t den, int64_t *v,
		     bool *bound);

/* Lower edge of the overflow of @h (the first value beyond its last
 * bucket) into *@edge; false when @h has no known layout. */
bool rep_hist_limit(const struct rep_hist *h, int64_t *edge);

/*
 * Make r->sum from the threads when the source has no whole-run figures:
 * samples and misses add up, min/max are the extremes, avg is weighted by
 * samples, histograms of the same layout are merged, percentiles come from
 * the merged histogram. A single thread is copied whole.
 */
void run_summarize(struct rep_run *r);

/*
 * Fill what can be derived: percentiles from histograms, interval stats
 * into the summary of a single-thread run, duration from the interval
 * series. Called by the import driver after each importer.
 */
void run_finish(struct rep_run *r);

/*
 * The identity of a run, for the history's duplicate check: a hash of what
 * the run is, not of where it was read or what it was called there: format,
 * tool, board, kernel, test, series, load, start time, duration, period and
 * every figure (summary and threads: counts, statistics, percentiles,
 * histogram buckets, interval maxima). @label (the label the source itself
 * gives, NULL when it was derived from the file name or set by the user)
 * counts only for a run without a start time.
 */
void run_identity(const struct rep_run *r, const char *label,
		  char out[REP_IDENT_LEN]);

void runs_init(struct rep_runs *rs);
void runs_push(struct rep_runs *rs, struct rep_run *r);
/* Free every run and the list. */
void runs_free(struct rep_runs *rs);
/* Move the runs of @src to the end of @dst (src becomes empty). */
void runs_move(struct rep_runs *dst, struct rep_runs *src);

/* Index into rtlat_percentiles[] of "p99.9". */
#define PCT_P999 3

/* Name of the miss column: "overrun", "lost" or "overrun/lost". */
const char *miss_name(enum rep_miss m);

/* Upper-case test title for tables: "LATENCY", "KLATENCY",
 * "HANDSHAKE A->B", "CRUNCHER DEVIATION". */
void test_title(char *buf, size_t len, const struct rep_run *r);

/* The name of a series for people: "latency", "a->b", "b->a",
 * "round trip", "sleep", "deviation"; other names with '_' as blanks. */
void series_title(char *buf, size_t len, const char *series);

/* The word before min/avg/max in the columns of a series: "lat" (latency
 * and unknown series), "dev" (cruncher deviation), "sleep", "a->b",
 * "b->a", "rtt" (round trip). */
const char *series_prefix(const char *series);

/* The series whose columns start with @prefix (series_prefix()):
 * "deviation" for "dev", ...; NULL for "lat" and unknown words. */
const char *series_of_prefix(const char *prefix);

/* "without load", "with load hell", "load not recorded". */
void load_title(char *buf, size_t len, const char *load);

/* malloc/calloc/realloc/strdup that abort on out of memory. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* @s with each byte that is not part of a valid UTF-8 sequence as
 * U+FFFD (malloc'ed), or NULL when @s is valid UTF-8 (or NULL): how a
 * PostgreSQL history stores a text, and how selectors and stored texts
 * are matched on either store. */
char *utf8_cleaned(const char *s);
/* asprintf that aborts on out of memory. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
