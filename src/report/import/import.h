/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Importers: each reads one file format into normalized runs (model.h).
 * The driver (import.c) reads a file or a directory, detects the format
 * (or takes the one forced with --format), runs the importer and checks
 * what it produced. A file either imports whole or fails with an error that
 * names it (and the line, for text formats); a failed file adds no run.
 *
 * Text importers get a private, writable, NUL-terminated copy of the file
 * and may cut it into lines in place. Every number goes through imp_num()
 * or imp_count(), which range-check it: nothing an input holds can overflow
 * or reach undefined behaviour; every figure and count of a tool's line
 * through imp_figure()/imp_figure_count(), and the figures of one line
 * together through imp_check_stats(): what the tool cannot print is
 * refused with the file and line.
 */
#ifndef RTLAT_REPORT_IMPORT_H
#define RTLAT_REPORT_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"

struct cJSON;

struct imp_opts {
	const char *format;	/* forced importer name, or NULL to detect */
	const char *label;	/* label for every run, or NULL */
	const char *load;	/* load for every run, or NULL */
	const char *test;	/* test kind for every run, or NULL */
	int64_t input_unit_ns;	/* unit of unit-less text figures; 0 = auto */
	bool quiet;		/* no diagnostics (fuzzing) */
};

struct imp_ctx {
	const char *path;	/* file name for messages */
	const struct imp_opts *o;
	struct rep_runs runs;	/* what this file produced */
	int errors;
	int warnings;
	int skipped;		/* text lines skipped with a warning */
	unsigned line0;		/* lines of the file before the part an
				 * importer reads (added to line numbers) */
};

struct importer {
	const char *name;	/* for --format */
	const char *what;	/* one line for --help and docs */
	/* How sure (0-100) that @text (the first bytes of the file,
	 * NUL-terminated) is this format. NULL for JSON formats. */
	int (*probe_text)(const char *text);
	/* Parse a whole text file; @buf is writable, NUL-terminated. Returns
	 * 0 or -1 after imp_error(). */
	int (*parse_text)(struct imp_ctx *c, char *buf, size_t len);
	/* JSON formats (need cJSON; NULL when not built in). */
	int (*probe_json)(const struct cJSON *root);
	int (*parse_json)(struct imp_ctx *c, const struct cJSON *root);
	bool json;		/* a JSON format (even when cJSON is missing) */
};

/* NULL-terminated, in detection-priority order. */
extern const struct importer *const importers[];
const struct importer *importer_find(const char *name);

/*
 * Import files and directories. A directory is read recursively (files no
 * importer recognizes and entries that are no regular file are skipped
 * with a note; an entry that cannot be read, e.g. a dangling symbolic
 * link, is an error); a suite directory (one with an rtlat-suite
 * suite.json) gives exactly the runs its index lists. Every file and
 * directory is read once, by device and inode: symbolic links that loop,
 * and files named twice or reached twice, are noted and skipped. A FIFO
 * or pipe is read when given by name (without a writer it is empty:
 * nothing waits); devices and sockets are refused. Runs are appended to
 * @out. Returns 0, or -1 when an input (or a file in it) failed; the
 * others are still read.
 */
int import_paths(char *const *paths, int n, const struct imp_opts *o,
		 struct rep_runs *out);
/* import_paths() of one path. */
int import_path(const char *path, const struct imp_opts *o,
		struct rep_runs *out);

/* Import @len bytes named @name (for messages). Used by import_path() and
 * by the fuzz targets. Returns 0 or -1. */
int import_buffer(const char *name, const char *buf, size_t len,
		  const struct imp_opts *o, struct rep_runs *out);

/* Diagnostics naming the file and, if @line > 0, the line. */
void imp_error(struct imp_ctx *c, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void imp_warn(struct imp_ctx *c, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A new run for this file, already appended to c->runs, with file, format
 * and line filled in. */
struct rep_run *imp_new_run(struct imp_ctx *c, const struct importer *imp,
			    unsigned line);

/* ---- text helpers ---- */

/* Line cursor over a writable buffer: lines are cut in place, "\r" and
 * trailing blanks removed. */
struct lines {
	char *p, *end;
	unsigned no;		/* number of the line last returned (1-based) */
};

void lines_init(struct lines *l, char *buf, size_t len);
/* Next line or NULL at the end. */
char *lines_next(struct lines *l);

/* Remove terminal escape sequences (ESC [ ... final byte) in place. */
void strip_ansi(char *s);

/*
 * The text of a pasted file without its framing (import_frame.c): CRLF
 * and trailing blanks, ANSI escape sequences, mail quoting ("> ", ">> "),
 * LAVA's "| " prefix and <LAVA_...> marker lines, shell prompts (a
 * command line becomes "$ command"; "set -x" traces "+ cmd" too), lines
 * that a mail client broke in two ("Max:" / "192") or that the author
 * wrapped with a shell continuation (" \\") joined; the "# " of Xenomai
 * latency -g's commented RTH/RTS lines dropped. Line i of the
 * result is line i of @buf (a joined line leaves an empty one). Returns a
 * malloc'ed NUL-terminated copy, its length in *@out_len.
 */
char *frame_clean(const char *buf, size_t len, size_t *out_len);

/* Is the first line of @buf (@len bytes, no NUL needed) a shell prompt,
 * with or without a command ("[root@localhost ~]# ./oslat ...",
 * "root@board:~# ", "$ cyclictest ...")? Such a paste is text, never JSON,
 * whatever follows. */
bool frame_prompt_line(const char *buf, size_t len);

/* Is @buf a mail body still in quoted-printable: soft line breaks ("="
 * at a line's end) or "=20"/"=09"/"=3D" at least twice, and no '=' that
 * is neither? */
bool frame_is_qp(const char *buf, size_t len);

/* @buf decoded from quoted-printable: "=XX" is the byte, a soft line break
 * joins the lines, and an empty line follows the joined one (line i of the
 * result is line i of @buf). A malloc'ed NUL-terminated copy, its length
 * in *@out_len. */
char *frame_qp_decode(const char *buf, size_t len, size_t *out_len);

/* The command of a command line of frame_clean()'s output ("$ cmd", or
 * "# tool ..." for a known tool), or NULL. */
const char *frame_command(const char *line);

/* Does the line @line (of frame_clean()'s output) start the output of a
 * run: a command line, a tool's command line without a prompt
 * ("cyclictest -p 80 ..."), a tool's banner ("cyclictest V 2.40",
 * "stress-ng, version 0.15.02", "oslat V 2.40")? */
bool frame_starts_run(const char *line);

/* Is the first word of @s a real-time test tool (or sudo, taskset...)? */
bool frame_is_tool(const char *s);

/* Does a line of @text that holds @anchor also hold every string of @all
 * (NULL-terminated) and not @none (NULL: no such condition)? */
bool text_line_with(const char *text, const char *anchor,
		    const char *const *all, const char *none);

/* Skip blanks. */
const char *skip_blank(const char *s);

/* Does @s start with @prefix? */
bool starts_with(const char *s, const char *prefix);

/*
 * Parse a decimal number at *@p (leading blanks skipped): an optional sign,
 * digits, optionally "." and more digits (no exponent), scaled to ns by
 * @unit_ns (1 for ns, 1000 for us). Fraction digits below 1 ns are
 * truncated. On success *@p points after the number.
 * Returns 0, -EINVAL (no number here), -EDOM (nan/inf, or an exponent:
 * "1e23" is no 1, no tool prints one) or -ERANGE (the value exceeds
 * REP_MAX_VALUE in magnitude).
 */
int imp_num(const char **p, int64_t unit_ns, int64_t *out);

/* A count: digits only, <= REP_MAX_VALUE. Same returns as imp_num(). */
int imp_count(const char **p, uint64_t *out);

/* Message for an imp_num() error code. */
const char *imp_num_err(int err);

/*
 * The one check of every figure and count an importer reads from a text
 * line: what the tool can print, or the file is refused. imp_figure()
 * reads a time at *@p as imp_num() does; imp_figure_count() a count as
 * imp_count() does. Refused, with imp_error() naming the file, @line,
 * @what and the text: NaN or infinity, an exponent ("1e23"), a magnitude
 * beyond REP_MAX_VALUE (2^53; counts of 2^63 or 2^64-1 among them), a
 * negative time unless @flags has IMP_FIG_SIGNED (the tool prints early
 * wake-ups), a negative count. Returns 0 (*@p after the number), 1 (no
 * number at *@p: nothing said, *@p unchanged) or -1 (refused, said).
 */
#define IMP_FIG_SIGNED	1u
int imp_figure(struct imp_ctx *c, unsigned line, const char *what,
	       const char **p, int64_t unit_ns, unsigned flags, int64_t *out);
int imp_figure_count(struct imp_ctx *c, unsigned line, const char *what,
		     const char **p, uint64_t *out);
/*
 * The figures of one series read together: min <= avg <= max (@avg NaN:
 * not known, only min <= max). Returns 0, or -1 after imp_error() naming
 * @line and @what.
 */
int imp_check_stats(struct imp_ctx *c, unsigned line, const char *what,
		    int64_t min, double avg, int64_t max);

/*
 * Split @line in place at @sep into at most @max trimmed fields.
 * Returns the number of fields found (may exceed @max; the extra ones are
 * not stored).
 */
int split_fields(char *line, char sep, char **f, int max);

/* A table or section heading: "LATENCY with load:", "SWITCH without load",
 * "LATENCY with load hell (ns):", "CYCLIC, load not recorded (us):", and
 * rtlat suite's "LATENCY with load (hell), latencies in us, test-time
 * hh:mm:ss:" (clauses after ", ": a unit statement "latencies|values|
 * figures|times|results in ns|us|ms", "test-time ...", "load not
 * recorded", a definition "dev = computation time - ideal"; any other
 * clause makes it no heading). */
struct heading {
	char kind[32];		/* "latency", ...; a one-word title otherwise */
	char load[64];		/* "none", REP_LOAD_UNNAMED, a name; "" = not
				 * recorded */
	int64_t unit_ns;	/* from "(ns)"/"(us)" or a unit clause; 0 when
				 * not stated */
};

/* Returns false when @line is no such heading. */
bool parse_heading(const char *line, struct heading *h);

/* Parse "hh:mm:ss" (hours may exceed 99) into ns. 0 or -EINVAL/-ERANGE. */
int parse_hms(const char *s, int64_t *ns, const char **end);

/* Parse "100 us", "1 s", "2.5 ms", "1000000 (ns)" (number, blanks, unit
 * ns/us/ms/s/min, optionally in parentheses) into ns; end after the unit.
 * Returns 0, -EINVAL or -ERANGE. */
int parse_time_words(const char *s, int64_t *ns, const char **end);

/*
 * Column names of a Xenomai/RTAI header line "RTH|----lat min|-overrun|...":
 * the fields after the tag, dashes and blanks stripped, lower case, stored
 * into @names (each up to 23 characters). Returns the number of columns
 * (at most @max).
 */
int rth_names(const char *line, char names[][24], int max);

/* Test kind from a heading or mode text: "latency", "klatency", "irq",
 * "switch", "cruncher", or NULL when not recognized. */
const char *kind_from_text(const char *s);

/*
 * Legacy fallback: what a test declares in its result since rtlat wrote
 * it (a series' "counts_misses": false and "reference"), for runs that
 * do not say - rtlat result files written before, the other tools'
 * formats and pasted tables (which name the test only), the history's
 * rows (which keep no such column). The tests that declared it then:
 * the cruncher (no misses; its "deviation" against test_data's
 * "ideal_ns"). Only the importers and the history call these.
 */
/* Mark @r as counting no misses when its test did not count them. */
void imp_legacy_no_misses(struct rep_run *r);
/* The figure of test_data the series @series of a result of @test that
 * says no "reference" deviates from, or NULL. */
const char *imp_legacy_reference(const char *test, const char *series);

#ifdef HAVE_CJSON
/* ---- JSON helpers (json_read.c) ---- */

/*
 * Look up member @key of object @obj and check it is a finite, integral
 * number within [@min, @max]. Absent or null: *present = false, returns 0.
 * Wrong type or out of range: error naming @where.@key, returns -1.
 * @scale multiplies the value first (e.g. 1000 for us -> ns); the product
 * is range-checked too.
 */
int jr_int(struct imp_ctx *c, const struct cJSON *obj, const char *where,
	   const char *key, int64_t scale, int64_t min, int64_t max,
	   int64_t *out, bool *present);

/*
 * cJSON_ParseWithOpts() into an arena: the tree is freed at once, by
 * jr_delete() (never by cJSON_Delete()). NULL on a syntax error
 * (cJSON_GetErrorPtr() tells where).
 */
struct cJSON *jr_parse(const char *s, const char **end, bool require_end);
void jr_delete(struct cJSON *root);

/* Array element @v (named @where) as an integer in [@min, @max]. */
int jr_elem_int(struct imp_ctx *c, const struct cJSON *v, const char *where,
		int64_t min, int64_t max, int64_t *out);

/* Same for a finite number (any fraction), scaled, |v| <= REP_MAX_VALUE. */
int jr_double(struct imp_ctx *c, const struct cJSON *obj, const char *where,
	      const char *key, double scale, double *out, bool *present);

/* String member or NULL (wrong type: NULL and a warning). */
const char *jr_str(struct imp_ctx *c, const struct cJSON *obj,
		   const char *where, const char *key);

/* Object/array member or NULL; a present member of the wrong type is an
 * error (returns NULL and sets *bad). */
const struct cJSON *jr_obj(struct imp_ctx *c, const struct cJSON *obj,
			   const char *where, const char *key, bool *bad);
const struct cJSON *jr_arr(struct imp_ctx *c, const struct cJSON *obj,
			   const char *where, const char *key, bool *bad);

/*
 * A copy of @buf in which bare NaN/Infinity tokens outside strings (as
 * written by printf("%f") in C tools: nan, -nan, inf, -inf, NaN) are
 * replaced by null. *@count receives the number replaced.
 */
char *json_sanitize(const char *buf, size_t len, int *count);

/*
 * The "histogram" object of rt-tests style JSON ({"12": 168, ...}, keys in
 * us) into @h as a quantized 1 us linear layout. Returns 0 or -1.
 */
int jr_us_histogram(struct imp_ctx *c, const struct cJSON *obj,
		    const char *where, struct rep_hist *h);

/* Member @key of an rt-tests JSON file, which spells some keys with a
 * colon ("cmdline:", "rt_test_version:"): either spelling, or NULL. */
const struct cJSON *rt_member(const struct cJSON *root, const char *key);

/*
 * One thread (or CPU) object of rt-tests style JSON: "min", "max", "avg"
 * in @unit_ns, the sample count under @count_key (NULL: none) and
 * "histogram" ({"us": count}) into @s; "cpu" when present. Min <= avg <=
 * max is checked (within one unit: averages are rounded). Statistics are
 * set only when the count is unknown or not 0. Returns 0 or -1.
 */
int jr_us_thread(struct imp_ctx *c, const struct cJSON *e, const char *where,
		 const char *count_key, int64_t unit_ns, struct rep_series *s);

/*
 * One series object of an rtlat result ("summary.latency", a thread's
 * series, the "latency" object of a cyclic --json thread): samples,
 * overruns or lost, min_ns/avg_ns/max_ns, stddev_ns, percentiles_ns,
 * histogram and intervals into @s; *@miss says which miss column it has.
 * Returns 0 or -1.
 */
int rtlat_read_series(struct imp_ctx *c, const struct cJSON *o,
		      const char *where, struct rep_series *s,
		      enum rep_miss *miss, int64_t *interval_ns);

/* uname-like "sysinfo" object (rt-tests, jitterdebugger) into @r. */
void jr_sysinfo(struct imp_ctx *c, const struct cJSON *sys,
		struct rep_run *r);
#endif

extern const struct importer imp_rtlat;
extern const struct importer imp_cyclictest;
extern const struct importer imp_xenomai;
extern const struct importer imp_rtai;
extern const struct importer imp_jitterdebugger;
extern const struct importer imp_oslat;
extern const struct importer imp_rttests;
extern const struct importer imp_rtla;
extern const struct importer imp_stressng;
extern const struct importer imp_table;

/* The load generators of this rtlat, NULL-terminated: a run with all of
 * them is "hell" (import_rtlat.c). Set by the command layer, which knows
 * the loads; until then (NULL) no run is folded into "hell". */
void import_set_load_names(const char *const *names);
const char *const *import_load_names(void);

#endif
