/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host-side reporting on normalized runs: grouping into tables, text /
 * markdown / CSV / HTML output, plots, comparison, filters and the SQLite
 * history. Everything here reads struct rep_run (model.h) only.
 */
#ifndef RTLAT_REPORT_REPORT_H
#define RTLAT_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/model/model.h"

/* ---- grouping: one table per test kind, series and load ---- */

struct group {
	const char *test, *series, *load;	/* of the first run */
	const char *section;			/* of the first run */
	/* runs of several loads (groups_make_kinds()): the table has a
	 * load column, the title names the loads, plots name each run's */
	bool loads;
	size_t n;
	struct rep_run **v;
};

/* Group @rs in order of first appearance. Returns the number of groups;
 * free with groups_free(). */
size_t groups_make(const struct rep_runs *rs, struct group **out);
/* The same by test kind, series and section only: the runs of a test
 * without and with load in one group (HTML: side by side), loads in the
 * order first seen. */
size_t groups_make_kinds(const struct rep_runs *rs, struct group **out);
void groups_free(struct group *g, size_t n);
/* Same table? (test, series, load and section equal; NULL load = not
 * recorded) */
bool same_table(const struct rep_run *a, const struct rep_run *b);

/* "LATENCY with load hell", with the section (if any) in brackets:
 * "KLATENCY with load [Xenomai 2.0 vs. RTAI 3.0r5 on TQM860L]"; a group
 * of several loads "LATENCY without load and with load hell". */
void group_title(char *buf, size_t len, const struct group *g);

/* ---- tables ---- */

struct out_opts {
	int64_t unit_ns;	/* 1000 (us, 3 decimals, default) or 1 (ns) */
	bool threads;		/* a row per thread under each run */
	/* --html: plots of a run (histogram, latency over time) only for
	 * the latest @html_runs runs of each table, -1 for every run */
	long html_runs;
	bool html_longterm;	/* --html: only the long-term view (its
				 * plots, no table's bars and tails) */
	/* the table spec of test @test (its rtlat suite table: columns,
	 * units, what a sample is), or NULL (none known): a table whose
	 * columns show figures besides its series (noise: noise %, on CPU,
	 * events, the time measured) takes them from it; NULL: every
	 * table has the latency columns */
	const struct suite_spec *(*spec_of)(const char *test);
};

/*
 * The columns of test @test's rtlat suite table (@spec_of's, see
 * out_opts) when they show figures besides the series (SUITE_FIGURE and
 * the like, a SUITE_TIME of a figure) and every series column is of
 * @series: the columns of its report table and the metrics of its
 * comparison (noise: max gap, noise %, on CPU, events, p99.9). NULL: the
 * latency columns.
 */
const struct suite_spec *table_spec(const char *test, const char *series,
				    const struct suite_spec *(*spec_of)(const char *));

#define TB_COLS 9
#define TB_CELL 40

/* One table, formatted: the same cells feed text, markdown and HTML. */
struct rtable {
	char title[384];		/* group_title() */
	char heading[192];		/* the title without the section */
	char section[192];		/* the group's section or "" */
	const char *unit;		/* "ns" or "us" */
	int ncol;
	char col[TB_COLS][24];		/* column names after "run" */
	bool wide[TB_COLS];		/* a figure column (at least 12 wide) */
	size_t nrow;
	char **label;			/* per row */
	bool *sub;			/* per row: a thread under its run */
	char (*cell)[TB_COLS][TB_CELL];	/* per row */
	/* Lines after the table saying what its cells mean: the words of
	 * the "note" column (runs that did not complete), a p99.9 that is
	 * a lower bound or n/a for too few samples; "" when none. */
	char legend[768];
};

/* The note of a run that did not complete ("checkpoint" for a result
 * that is a checkpoint of a run that never ended, "interrupted", "break",
 * "error", ...), or NULL for a complete run or an unknown status. */
const char *run_note(const struct rep_run *r);

/* Was @r cut short by a signal (status "interrupted")? The release gate
 * leaves such runs out unless asked (gate_opts.with_interrupted). */
bool run_interrupted(const struct rep_run *r);

/* A run that says it has no sample (interrupted before its first): its
 * figures are no data, not zeros (its overrun count is not compared). */
bool run_no_samples(const struct rep_run *r);
/* A run that is not run_no_samples() but has no latency figure at all:
 * its min/avg/max are unknown (NaN, null or missing in its source), and
 * it has neither a percentile nor a histogram. */
bool run_no_figures(const struct rep_run *r);

void table_build(const struct group *g, const struct out_opts *o,
		 struct rtable *t);
void table_free(struct rtable *t);

/* Seed-style text: heading "LATENCY with load (ns):", "|"-separated. In
 * labels, '\' and '|' are written "\\" and "\|" (the table importer reads
 * them back) and control characters as blanks. */
void table_print_text(FILE *f, const struct rtable *t);

/* "System check": the findings of rtlat check the runs of @rs carry
 * (rep_run.check), each distinct set once with the runs that carry it:
 * its counts, then its warnings and bads. Nothing when no run has one. */
void checks_print_text(FILE *f, const struct rep_runs *rs);
void checks_print_html(FILE *f, const struct rep_runs *rs);
void table_print_markdown(FILE *f, const struct rtable *t);
void table_print_html(FILE *f, const struct rtable *t);

/* Format a time in the table unit ("12345", "12.345") or "n/a". */
void fmt_fig(char *buf, size_t len, bool known, double ns, int64_t unit_ns);

/* Format percentile @i of @s in @unit_ns (1 or 1000): "12345", "12.345",
 * ">=60000" for a lower bound (pct_bound), or "n/a". */
void fmt_pct(char *buf, size_t len, const struct rep_series *s, int i,
	     int64_t unit_ns);

/* One CSV field, quoted when needed (RFC 4180); NULL is empty. A field
 * starting with '=', '+', '-' or '@' is written "'..." (a spreadsheet
 * reads it as text, not a formula: OWASP's CSV injection advice); control
 * characters as blanks (util/label.h). */
void csv_field(FILE *f, const char *s);

/* All runs as CSV (RFC 4180), values in ns. */
void csv_print(FILE *f, const struct rep_runs *rs, bool threads);

/* Write @s with HTML special characters escaped, control characters as
 * blanks (util/label.h). */
void html_escape(FILE *f, const char *s);

/* ---- filters (report, compare, db) ---- */

struct filter {
	const char *label, *board, *kernel, *test, *load;	/* globs */
	const char *since, *until;	/* ISO dates, inclusive prefixes */
	/* "yes": only runs marked as their board's baseline in the history
	 * (rtlat db baseline set), "no": only the others; NULL: any */
	const char *baseline;
};

/* Does @r pass @f? Globs are fnmatch(3) patterns, case-sensitive. Dates
 * compare with the run's start time, else the time it was added to the
 * history database; a run with neither fails a date filter. */
bool filter_match(const struct filter *f, const struct rep_run *r);
/* Does text @s (NULL: never) match glob @pat (NULL: always) as a filter
 * matches (both cleaned to UTF-8 first)? */
bool filter_glob(const char *pat, const char *s);
bool filter_empty(const struct filter *f);
/* Keep only the runs that pass (frees the others). */
void runs_filter(struct rep_runs *rs, const struct filter *f);

/* ---- HTML report with gnuplot plots (html.c, plot.c) ---- */

/* The runs behind @rs, each counted once whatever its series (the three
 * of a handshake run are one run). */
size_t runs_count(const struct rep_runs *rs);

/* Write the whole report page to @path. Plots need gnuplot (found in PATH,
 * or $GNUPLOT); without it the page has the tables and says why the plots
 * are missing. Returns 0, -1 (error reported), or the number of a signal
 * (SIGINT, SIGTERM, SIGHUP) that stopped it: gnuplot is killed and reaped,
 * the temporary directory and a partial page removed, and the caller is
 * to die of that signal. *@nplots receives the number of plots embedded. */
int html_report(const char *path, const struct rep_runs *rs,
		const struct out_opts *o, int *nplots);

/* ---- comparison (compare.c) ---- */

enum noise_source {
	NOISE_NONE = 0,
	NOISE_REPEATS,		/* spread of repeated runs in a group */
	NOISE_INTERVALS,	/* spread of the interval series */
	NOISE_RULE,		/* the fixed rule: no data to estimate it */
	NOISE_BLOCKS,		/* interval maxima (verdict.h) */
	NOISE_BATCHES,		/* interval averages as batch means */
	NOISE_RANKS,		/* a percentile's rank interval */
	NOISE_RUNS,		/* the spread of 3 runs or more (verdict.h) */
};

/* What a metric of a comparison is. */
enum cmp_kind {
	CMP_TIME = 0,		/* a time (ns) */
	CMP_COUNT,		/* a count: overruns, lost, noise's events */
	CMP_PERCENT,		/* a % (noise's noise %), 4 decimals */
	CMP_WHERE,		/* a CPU number (noise's on CPU): shown,
				 * not compared */
};

struct cmp_metric {
	char name[24];		/* "lat min", "dev max", "max gap", "noise
				 * %", ...; "" when the test has no such
				 * metric (misses of the cruncher, avg of
				 * noise): no row */
	enum cmp_kind kind;
	/* a figure of the runs' test_data (the column of the test's table
	 * that shows it: "noise_pct"), or NULL: of the series */
	const char *fig;
	bool known;		/* known on both sides: compared */
	bool has_a, has_b;	/* known on side A, on side B */
	/* a side's value is only a lower bound (a p99.9 beyond a run's
	 * histogram): shown as ">=N", not compared */
	bool bound_a, bound_b;
	double a, b;		/* ns (counts for the miss metric) */
	double delta, pct;	/* b - a; % of a (pct_known false if a == 0) */
	bool pct_known;
	double noise;		/* absolute, same unit */
	enum noise_source src;
	bool beyond;		/* |delta| > noise */
	int verdict;		/* enum vd_verdict (verdict.h): worse,
				 * better, same, cannot tell */
	size_t ka, kb;		/* runs of each side that have the metric */
	double range_a, range_b;	/* max - min of it over those runs */
};

/* The metrics of a comparison, in the order of struct cmp_row.m: of the
 * series (CMP_METRICS; the gate's), then the figures of a test's table
 * (CMP_FIGS at most, from CMP_METRICS on). */
enum { CMP_MIN, CMP_AVG, CMP_MAX, CMP_P999, CMP_MISS, CMP_METRICS };
#define CMP_FIGS 6
#define CMP_ALL (CMP_METRICS + CMP_FIGS)

struct cmp_row {
	const struct rep_run *a, *b;	/* representative runs */
	size_t na, nb;			/* runs behind each side */
	/* group_title(), or with loads that differ "LATENCY: without load
	 * (A) vs with load hell (B)" */
	char title[448];
	bool nothing;			/* no metric known on both sides */
	bool empty_a, empty_b;		/* no run of the side has a sample:
					 * nothing of it is compared */
	char a_name[128], b_name[128];
	struct cmp_metric m[CMP_ALL];
	/* the rows, in order: indices into m (the series' metrics, or the
	 * columns of the test's table: table_spec()) */
	int row[CMP_ALL];
	int nrow;
	/* interrupted runs left out of each side (cmp_sides()) */
	size_t left_a, left_b;
};

/* The table spec of a test (its rtlat suite table), as out_opts.spec_of:
 * a test whose report table has its own columns (table_spec(): noise's
 * max gap, noise %, on CPU, events, p99.9) is compared on them, in their
 * words. NULL (the default): every table on the latency metrics. */
void cmp_set_spec_of(const struct suite_spec *(*spec_of)(const char *));

/* Compare the summary of side A against side B (each one or more runs of
 * the same table). */
void cmp_runs(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	      size_t nb, struct cmp_row *out);

/* Same test kind and series (any load, any section)? */
bool cmp_same_kind(const struct rep_run *x, const struct rep_run *y);
/* The same table, or the same kind and section with a load recorded on
 * one side only (a load not recorded matches any)? */
bool cmp_same_table(const struct rep_run *x, const struct rep_run *y);

/* Compare each table of @a with the same table (test, series, load,
 * section) of @b, without the interrupted runs of a side that has
 * complete ones too (unless @with_interrupted: their smaller max would
 * widen the noise; a side of interrupted runs only is compared as is); a table whose load is not recorded on one side matches
 * the other's; a test kind (and series) whose tables share no load on the
 * two sides is compared across loads (the title names both). Tables found
 * on one side only are noted. Returns the number of rows in *@out (free
 * it). */
size_t cmp_sides(const struct rep_runs *a, const struct rep_runs *b,
		 bool with_interrupted, struct cmp_row **out);
/* @g without its runs cut short by a signal (status interrupted; all of
 * its runs when @keep), in @out (its runs array malloc'ed: free it); the
 * number left out. */
size_t group_uninterrupted(const struct group *g, bool keep,
			   struct group *out);
/* "left out, cut short by a signal: ..." when cmp_sides() left runs of
 * @c out, in @buf; else NULL. */
const char *cmp_left_out(const struct cmp_row *c, char *buf, size_t len);
/* Within each table of @rs: its first run against each later one. */
size_t cmp_within(const struct rep_runs *rs, struct cmp_row **out);

/* Why @c has nothing to compare: "nothing to compare (B has no samples:
 * interrupted)", else "nothing to compare (no figure known on both
 * sides)"; in @buf or a constant. */
const char *cmp_nothing_why(const struct cmp_row *c, char *buf, size_t len);

/* Print one comparison as a seed-style table. */
void cmp_print_text(FILE *f, const struct cmp_row *c, int64_t unit_ns);
/* The cells of metric @i of @c (a, b, delta, change, noise, from, beyond
 * noise, verdict; "" where none) in @unit_ns, and their headings. */
void cmp_cells(const struct cmp_row *c, int i, int64_t unit_ns,
	       char cell[8][TB_CELL]);
extern const char *const cmp_cols[8];
void cmp_print_markdown(FILE *f, const struct cmp_row *c, int64_t unit_ns);
struct gate_row;
/* CSV of comparisons; with @g (a gate, else NULL) two more columns:
 * gate (pass, FAIL, weak, n/a or empty for a metric not gated) and
 * gate_reason. */
void cmp_print_csv_header(FILE *f, bool gate);
void cmp_print_csv(FILE *f, const struct cmp_row *c, const struct gate_row *g);

/* ---- release gate (gate.c): a baseline A against new runs B ---- */

struct gate_opts {
	bool metric[CMP_METRICS];	/* gated metrics */
	double margin;			/* fraction of the baseline value */
	int64_t unit_ns;		/* of the reasons: 1 or 1000 */
	/* gate runs cut short by a signal (status "interrupted") too; by
	 * default they are left out of either side (fewer samples, a
	 * smaller max: they would lower the baseline and widen its noise) */
	bool with_interrupted;
	/* --cannot-tell fail: a metric the data cannot tell fails the
	 * gate too (default: it is said, and passes) */
	bool cannot_tell_fails;
};

enum gate_verdict {
	GATE_NA = 0,	/* not known on both sides: not compared */
	GATE_PASS,	/* "same": not worse beyond the limit */
	GATE_WEAK,	/* "cannot tell" (too few intervals, samples or runs;
			 * not like for like): said, fails the gate only
			 * with --cannot-tell fail */
	GATE_FAIL,	/* "worse" than the baseline beyond the limit */
};

struct gate_metric {
	bool gated;
	enum gate_verdict v;
	const char *key;	/* "max", "p99.9", ... (lab case ids) */
	bool noise_known;	/* from the spread of baseline runs (counts:
				 * always, Poisson) */
	double value;		/* B's value compared: its max at the
				 * baseline's sample count for a longer B */
	double limit;		/* how much worse B may be (ns or count) */
	/* overruns/lost: the count the baseline's rate gives over the new
	 * runs' periods (what value is compared with) */
	bool has_expected;
	double expected;
	char reason[400];
};

struct gate_row {
	struct cmp_row c;	/* A = baseline, B = new */
	struct gate_metric g[CMP_METRICS];
	bool fail;		/* a gated metric failed */
	bool weak_fails;	/* --cannot-tell fail: a "cannot tell" fails */
	/* what the verdicts are read with (another CPU placement, a new run
	 * that is in the baseline), or "" */
	char note[400];
};

/* A table of the new runs the gate did not compare, and why. */
struct gate_refusal {
	char title[448];
	char reason[512];
};

/* Gate max, p99.9, avg and misses, margin 10 %, reasons in us. */
void gate_opts_init(struct gate_opts *o);
/* --gate-metrics LIST (min, avg, max, p99.9, misses or overruns or lost,
 * comma-separated) and --margin PCT ("10%", "10", "0"). NULL, or what is
 * allowed. */
const char *gate_metrics_parse(struct gate_opts *o, const char *list);
const char *gate_margin_parse(struct gate_opts *o, const char *arg);
/* --cannot-tell pass|fail. NULL, or what is allowed. */
const char *gate_cannot_tell_parse(struct gate_opts *o, const char *arg);

/*
 * Gate the tables of @b (new runs) against those of the baseline @a: each
 * table of @b is compared with the baseline table of the same test kind,
 * series and load (a load not recorded matches), sampled at the same
 * period. A table without one is refused, not compared: said with the
 * reason, and kept in *@ref (*@nref of them; free it); the others are
 * gated all the same. Returns the number of rows in *@out (free it);
 * baseline tables without new runs are noted. A row's note says what
 * its verdicts are read with (gate_notes()).
 */
size_t gate_sides(const struct rep_runs *a, const struct rep_runs *b,
		  const struct gate_opts *o, struct gate_row **out,
		  struct gate_refusal **ref, size_t *nref);
/* Did any row fail? */
bool gate_failed(const struct gate_row *rows, size_t n);
/* "worse", "same", "cannot tell", "n/a" */
const char *gate_verdict_name(enum gate_verdict v);
/* "gate: lat max: FAIL: worse by ..." per gated metric of @g. */
void gate_print_text(FILE *f, const struct gate_row *g, bool markdown);
/* The last line: "gate: FAIL: ..." or "gate: pass: ...". */
void gate_print_summary(FILE *f, const struct gate_row *rows, size_t n,
			size_t nref);
/* "fail" (a gated metric failed), "refused" (else a table was refused),
 * "pass". */
const char *gate_overall(const struct gate_row *rows, size_t n, size_t nref);
/* The whole gate as a JSON document (schema rtlat-gate, times in ns). */
void gate_print_json(FILE *f, const struct gate_row *rows, size_t n,
		     const struct gate_refusal *ref, size_t nref,
		     const struct gate_opts *o);

/* ---- history database (db.c) ---- */

#define RDB_SCHEMA_VERSION 9

struct rdb;

/* Default database: $RTLAT_DB_URL (a PostgreSQL URL), else
 * $XDG_DATA_HOME/rtlat/history.db, else ~/.local/share/rtlat/history.db.
 * Returns a static buffer, the environment's string, or NULL. */
const char *rdb_default_path(void);

/* Is there a history at @path to open (a file that exists, a URL: the
 * server says), or a name rdb_open() refuses (said then)? False for
 * NULL and a file that does not exist: no history yet. */
bool rdb_exists(const char *path);

/* @path for messages: a URL without its password (a static buffer), else
 * @path itself. */
const char *rdb_shown(const char *path);

/* Why @path cannot name a history (a static text), or NULL when it can:
 * empty, ":memory:" or an SQLite URI (keeps nothing), a URL of another
 * scheme ("postgresq://...", "mysql://..."). rdb_open() refuses these
 * too. */
const char *rdb_name_check(const char *path);

/*
 * How long a writer waits for another one that holds the history (SQLite's
 * write lock, PostgreSQL's add or schema lock) before it gives up with an
 * error, nothing written: @ns >= 0 (0: not at all). Unset, the default is
 * $RTLAT_DB_LOCK_TIMEOUT (seconds, or a time with a unit: 90s, 5m), else
 * 60 s. After 1 s of waiting a note says who holds it, when known.
 */
void rdb_set_lock_timeout(int64_t ns);

/* Is @s a PostgreSQL URL ("postgresql://..." or "postgres://...") rather
 * than a file name? */
bool rdb_is_url(const char *s);

/* The identity of @r (run_identity()): as imported, or for a run read
 * from the history as db add stored it. */
void rdb_identity(const struct rep_run *r, char out[REP_IDENT_LEN]);

/*
 * Open @path, an SQLite file or a PostgreSQL URL (rdb_is_url(): libpq's
 * connection URI, docs/db-schema.md); with @create, create the file (and
 * its directory) when missing, or the schema in a database without tables.
 * The schema is created or migrated to RDB_SCHEMA_VERSION on open; a
 * database newer than this rtlat is refused. NULL after an error message
 * (also when SQLite, or libpq for a URL, is not built in).
 */
struct rdb *rdb_open(const char *path, bool create);
void rdb_close(struct rdb *db);

/* Store a run (with its threads, percentiles, histograms and intervals).
 * A run already stored (same identity: run_identity(), whatever its file
 * name, path or label) is not stored again: *@dup = true, *@id = the
 * existing row. Returns 0 or -1. */
int rdb_add(struct rdb *db, const struct rep_run *r, bool *dup, int64_t *id);
/* One transaction around many rdb_add() (one commit, not one per run):
 * rdb_begin(), the adds, rdb_commit() (which keeps the runs added before
 * an add that failed; rdb_add_all() keeps none). Return 0 or -1 after an error message. */
int rdb_begin(struct rdb *db);
int rdb_commit(struct rdb *db);

/*
 * Store every run of @rs in one transaction, all or none: *@ids and
 * *@dups (@rs->n each) as rdb_add()'s for each run, in @rs's order. Adds
 * at once (several boards, one server) take turns: SQLite's write lock,
 * PostgreSQL's advisory lock of rdb_begin(); a deadlock or serialization
 * failure of the server is tried again, five times in all. Returns 0, or
 * -1 after an error message: nothing of @rs stored.
 */
int rdb_add_all(struct rdb *db, const struct rep_runs *rs, int64_t *ids,
		bool *dups);

/* Append the stored runs that pass @f, in the order they were added. */
int rdb_load(struct rdb *db, const struct filter *f, struct rep_runs *out);
/* The same, only the @limit latest (by start time, else the time added;
 * 0: all) of them, in the order they were added. */
int rdb_load_latest(struct rdb *db, const struct filter *f, long limit,
		    struct rep_runs *out);
/* How many stored runs pass @f (the rows of rdb_load()): 0 or -1. */
int rdb_count(struct rdb *db, const struct filter *f, int64_t *n);

/* A history of more runs than this is summarised by rtlat report (one row
 * per board, kernel, test, series and load) unless the runs are asked
 * for (--runs, --limit, --threads). */
#define RDB_SUMMARY_RUNS 200

/* One row of the history's summary (rdb_summary(), docs/report.md
 * "History"): the runs of one board, kernel, test, series and load; the
 * maxima are the runs' whole-run lat max. Times in ns, -1: not known. */
struct rdb_sum_row {
	char *board, *kernel, *test, *series, *load;	/* NULL: not known */
	int64_t runs;		/* rows of rdb_load() */
	int64_t nmax;		/* of them with a max */
	int64_t worst_ns;	/* the highest max */
	char *worst_at;		/* that run's start (else added) time */
	int64_t worst_id;	/* its id, -1 */
	double median_ns;	/* of the maxima, -1 */
	int64_t q1_ns, q3_ns;	/* their quartiles (nearest rank): the spread */
	int64_t p99_9_ns;	/* the highest p99.9 */
	int64_t misses;		/* overruns or lost, summed; -1: none counted */
	char *miss_kind;	/* "overruns", "lost", or NULL */
	char *last_at;		/* the latest run's start (else added) time */
	int64_t resolution_ns;	/* the coarsest of the runs */
	/* the trend: the older half of the runs (A) against the newer (B),
	 * by compare's rule for repeated runs (their maxima's medians, the
	 * noise the larger range of either side's maxima) */
	int64_t a_n, b_n;	/* maxima a side */
	double a_med, b_med;	/* their medians */
	int64_t a_range, b_range;	/* max - min */
	const char *trend;	/* "worse", "better", "same", "cannot tell" */
};

struct rdb_summary {
	struct rdb_sum_row *v;
	size_t n;
	int64_t runs;		/* in all */
};

/* The summary of the stored runs that pass @f, computed by the database
 * (docs/db-schema.md, "Queries"): 0, or -1 after an error message. */
int rdb_summary(struct rdb *db, const struct filter *f, struct rdb_summary *out);
void rdb_summary_free(struct rdb_summary *s);
/* A day of the runs of one board, kernel, test, series and load
 * (rdb_envelope()): how many, the least of their interval maxima (of a
 * run without intervals its max), the highest max, the highest p99.9 (ns,
 * -1: none). */
struct rdb_env_row {
	char *board, *kernel, *test, *series, *load;
	char day[16];		/* "2026-11-01" (start, else added, UTC) */
	int64_t runs, lo_ns, hi_ns, p99_9_ns;
};

/* The days of the stored runs with a max that pass @f, aggregated by the
 * database (docs/db-schema.md, "Queries"), in *@rows (malloc'ed, *@n):
 * 0, or -1 after an error message. rdb_envelope_free() frees them. */
int rdb_envelope(struct rdb *db, const struct filter *f,
		 struct rdb_env_row **rows, size_t *n);
void rdb_envelope_free(struct rdb_env_row *rows, size_t n);

/*
 * rtlat report --db --longterm --html @path: the long-term page of a
 * history from the database's aggregates: @sum its summary
 * (rdb_summary(), at least a run), @rows its days (rdb_envelope(), @n of
 * them, sorted here), per test and board the envelope of interval maxima
 * and the highest p99.9 per day, or per week over more than 92 days;
 * never a point per run.
 * Returns 0, -1 (said), or a signal's number as html_report(); *@nplots
 * the plots written.
 */
int html_longterm_db(const char *path, struct rdb_env_row *rows, size_t n,
		     const struct rdb_summary *sum, const struct out_opts *o,
		     int *nplots);

/* Print @s as a table in @format ("text", "markdown" or "csv"; CSV in
 * ns), @o's unit (render/summary.c). */
void summary_print(FILE *f, const struct rdb_summary *s, const char *format,
		   const struct out_opts *o);
/* The same as an HTML table (its cells escaped, as in text). */
void summary_print_html(FILE *f, const struct rdb_summary *s,
			const struct out_opts *o);

/* Delete run @id. Returns 0, 1 when there is no such run, -1 on error. */
int rdb_remove(struct rdb *db, int64_t id);

/*
 * Mark the runs of @rs (stored: db_id set) as the baseline of their
 * board, for their table: the runs of the same board, test, series, load
 * and section marked before are unmarked first (*@unmarked counts them).
 * Runs without a board are passed over (the caller refuses them). One
 * transaction. Returns 0, 1 when a run of @rs is no longer stored (a db
 * remove beside it; *@gone is its id, nothing marked, nothing said: pick
 * the runs again), or -1 after an error message.
 */
int rdb_baseline_set(struct rdb *db, const struct rep_runs *rs,
		     size_t *unmarked, int64_t *gone);
/* Unmark the runs of @rs; *@n: how many were marked. 0 or -1. */
int rdb_baseline_clear(struct rdb *db, const struct rep_runs *rs, size_t *n);

/* Schema version of an open database. */
int rdb_version(struct rdb *db);

#endif
