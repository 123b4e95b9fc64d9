// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Summary tables in the style users mail around (and that rtlat report
 * prints):
 *
 *   Board : Processor CPU-Clk Bus-Clk ...          (optional description)
 *   Ocotea : AMCC 440GX 533 MHz 152 MHz ...
 *   Linux : DENX linux-2.6.14-rc3-g4c234921
 *   LATENCY with load:                              (heading: test, load,
 *   |-----lat min|-----lat avg|-----lat max|-overrun|---test-time  unit)
 *   Ocotea | 3575| 7438| 24474| 0| 00:10:50
 *
 * Columns are taken by name: lat min, lat avg, lat max, overrun, lost,
 * p99.9, test-time, samples, ideal computation time. Unit-less figures are
 * in the heading's unit ("(us)") or ns; a figure may carry its own unit
 * ("368 us"). "?" and "n/a" are unknown values. A "note" column (rtlat
 * report) or a trailing "(interrupted)" (rtlat suite) gives the status;
 * "\|" and "\\" in a row name are '|' and '\'. "NAME : text" lines
 * before the tables describe the board NAME (rows with that label) or the
 * whole system (Linux, iPipe, Xenomai, ...).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report/import/import.h"

#define TB_MAXCOL 16
#define TB_MAXDESC 64

enum tcol {
	TC_OTHER, TC_MIN, TC_AVG, TC_MAX, TC_OVERRUN, TC_LOST, TC_P999,
	TC_TIME, TC_SAMPLES, TC_IDEAL, TC_NOTE,
};

/*
 * Column @n of a header whose figures are those of the series with column
 * word @prefix ("lat", "dev", "a->b", ...; "" until a min, avg or max
 * column sets it): "dev min" is the minimum of the cruncher's deviation,
 * "rtt max" the maximum round trip; the min/avg/max of another series in
 * the same header ("sleep max" after "dev max") are other columns.
 */
static enum tcol tcol_prefixed(const char *n, char prefix[16])
{
	static const char *const stat[] = { " min", " avg", " max", " p99.9" };
	static const enum tcol sc[] = { TC_MIN, TC_AVG, TC_MAX, TC_P999 };
	size_t len = strlen(n), k;

	for (k = 0; k < sizeof(stat) / sizeof(stat[0]); k++) {
		size_t sl = strlen(stat[k]), w;
		char word[16];

		if (len <= sl || strcmp(n + len - sl, stat[k]) != 0)
			continue;
		w = len - sl;
		if (w >= sizeof(word))
			return TC_OTHER;
		memcpy(word, n, w);
		word[w] = '\0';
		if (strcmp(word, "lat") != 0 && !series_of_prefix(word))
			return TC_OTHER;
		if (!prefix[0] && k < 3)
			memcpy(prefix, word, w + 1);
		return !strcmp(prefix, word) ? sc[k] : TC_OTHER;
	}
	return TC_OTHER;
}

static enum tcol tcol_of(const char *n)
{
	static const struct {
		const char *name;
		enum tcol c;
	} m[] = {
		{ "overrun", TC_OVERRUN }, { "overruns", TC_OVERRUN },
		{ "lost", TC_LOST }, { "p99.9", TC_P999 },
		{ "test-time", TC_TIME }, { "samples", TC_SAMPLES },
		{ "ideal computation time", TC_IDEAL }, { "ideal", TC_IDEAL },
		{ "note", TC_NOTE },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(n, m[i].name))
			return m[i].c;
	return TC_OTHER;
}

struct desc {
	char *key, *val;
};

#define TB_MAXSEEN 64

/* A table heading seen, and the titled part of the file it was in. */
struct seen {
	char kind[32], load[64];
	char *title;			/* "" before any title */
};

struct tstate {
	struct imp_ctx *c;
	struct heading hd;
	bool have_heading;
	char title[192];		/* the last underlined title, or "" */
	const char *section;		/* of the current table, or NULL */
	struct seen seen[TB_MAXSEEN];
	int nseen;
	enum tcol col[TB_MAXCOL];
	int ncol;		/* data columns after the label */
	const char *series;	/* of the figures: "deviation" for "dev min",
				 * ...; NULL for "lat min" (latency) */
	struct desc d[TB_MAXDESC];
	int nd;
	bool tables_started;
};

/* A figure with an optional unit word: "368 us", "12.5", "7438", read
 * through imp_figure() (a table's latencies may be negative: early
 * wake-ups), named @what in a refusal. Returns 0, 1 (no number) or -1
 * (refused, said). */
static int tfig(struct tstate *s, unsigned no, const char *what,
		const char **p, int64_t *v)
{
	const char *q = skip_blank(*p), *u;
	int64_t unit = s->hd.unit_ns ? s->hd.unit_ns :
		       s->c->o->input_unit_ns ? s->c->o->input_unit_ns : 1;
	const char *save = q;
	int e;

	/* look ahead for a unit word after the number */
	e = imp_num(&q, 1, v);
	if (e == -EINVAL)
		return 1;
	if (!e) {
		u = skip_blank(q);
		if (starts_with(u, "us") && !isalpha((unsigned char)u[2]))
			unit = 1000;
		else if (starts_with(u, "ms") && !isalpha((unsigned char)u[2]))
			unit = 1000000;
		else if (starts_with(u, "ns") && !isalpha((unsigned char)u[2]))
			unit = 1;
		else
			u = NULL;
	} else {
		u = NULL;
	}
	q = save;
	e = imp_figure(s->c, no, what, &q, unit, IMP_FIG_SIGNED, v);
	if (e)
		return e;
	*p = u ? u + 2 : q;
	return 0;
}

/* The status a note ("checkpoint", "interrupted", "failed: why") or a
 * trailing "(interrupted)" after a figure stands for; NULL for none. */
static const char *note_status(const char *p)
{
	p = skip_blank(p);
	if (*p == '(')
		p = skip_blank(p + 1);
	if (starts_with(p, "checkpoint"))
		return "running";
	if (starts_with(p, "interrupted"))
		return "interrupted";
	if (starts_with(p, "break"))
		return "break";
	if (starts_with(p, "error") || starts_with(p, "failed"))
		return "error";
	if (starts_with(p, "running"))
		return "running";
	return NULL;
}

static bool unknown_value(const char *f)
{
	return !strcmp(f, "?") || !strcmp(f, "n/a") || !strcmp(f, "-") ||
	       !*f;
}

/* Value @v (a time, ns) or @cnt (a count) of a column of kind @col into
 * @r; @bound: a p99.9 that is a lower bound. */
static void store_value(struct rep_run *r, enum tcol col, int64_t v,
			uint64_t cnt, bool bound)
{
	switch (col) {
	case TC_MIN: r->sum.min = v; break;
	case TC_AVG: r->sum.avg = (double)v; break;
	case TC_MAX: r->sum.max = v; break;
	case TC_OVERRUN:
	case TC_LOST:
		r->sum.misses = cnt;
		r->sum.has_misses = true;
		r->miss = col == TC_LOST ? MISS_LOST : MISS_OVERRUNS;
		break;
	case TC_P999:
		r->sum.pct[PCT_P999] = v;
		r->sum.has_pct[PCT_P999] = true;
		r->sum.pct_bound[PCT_P999] = bound;
		break;
	case TC_TIME: r->duration_ns = v; break;
	case TC_SAMPLES:
		r->sum.samples = cnt;
		r->sum.has_samples = true;
		break;
	case TC_IDEAL:
		r->ideal_ns = v;
		r->has_ideal = true;
		break;
	default: break;
	}
}

/* min, avg and max of row @f (@n fields) come together or not at all;
 * dropped (said) when they contradict each other. */
static int row_stats(struct tstate *s, struct rep_run *r, char **f, int n,
		     unsigned no)
{
	int i;
	bool mn = false, av = false, mx = false;

	for (i = 0; i < n - 1; i++) {
		if (unknown_value(f[i + 1]))
			continue;
		mn |= s->col[i] == TC_MIN;
		av |= s->col[i] == TC_AVG;
		mx |= s->col[i] == TC_MAX;
	}
	r->sum.has_stats = mn && av && mx;
	if (r->sum.has_stats &&
	    imp_check_stats(s->c, no, "the row", r->sum.min, r->sum.avg,
			    r->sum.max))
		return -1;
	return 0;
}

static int do_row(struct tstate *s, char **f, int n, unsigned no)
{
	struct rep_run *r;
	int i;

	if (n - 1 != s->ncol && n - 1 != s->ncol - 1) {
		/* rtlat suite's rows of runs without figures ("not run (the
		 * suite was interrupted)", "failed: why", "interrupted
		 * (killed ...)"): nothing to read, nothing to warn of */
		if (n == 2 && (starts_with(f[1], "not run") ||
			       starts_with(f[1], "failed") ||
			       starts_with(f[1], "interrupted")))
			return 0;
		imp_warn(s->c, no, "row with %d values for %d columns skipped",
			 n - 1, s->ncol);
		return 0;
	}
	r = imp_new_run(s->c, &imp_table, no);
	r->tool = xstrdup("summary table");
	r->label = xstrdup(f[0]);
	str_set(&r->section, s->section);
	str_set(&r->series, s->series);
	str_set(&r->test, s->hd.kind[0] ? s->hd.kind : "latency");
	str_set(&r->load, s->hd.load[0] ? s->hd.load : NULL);
	for (i = 0; i < n - 1; i++) {
		const char *p = f[i + 1];
		int64_t v = 0;
		uint64_t cnt = 0;
		bool bound = false;
		char w[32];
		int e;

		snprintf(w, sizeof(w), "column %d", i + 2);
		if (s->col[i] == TC_NOTE) {
			if (note_status(p))
				str_set(&r->status, note_status(p));
			continue;
		}
		if (s->col[i] == TC_OTHER || unknown_value(p))
			continue;
		switch (s->col[i]) {
		case TC_TIME:
			e = parse_hms(p, &v, &p);
			break;
		case TC_OVERRUN:
		case TC_LOST:
		case TC_SAMPLES:
			e = imp_figure_count(s->c, no, w, &p, &cnt);
			break;
		case TC_P999:
			/* a lower bound: ">=N" (rtlat report) */
			bound = starts_with(skip_blank(p), ">=");
			if (bound)
				p = skip_blank(p) + 2;
			e = tfig(s, no, w, &p, &v);
			break;
		default:
			e = tfig(s, no, w, &p, &v);
			break;
		}
		if (e < 0)
			return -1;
		if (e) {
			imp_warn(s->c, no, "unreadable value '%s' in column %d: read as unknown",
				 f[i + 1], i + 2);
			continue;
		}
		/* rtlat suite: "00:10:50  (interrupted)" */
		if (i == n - 2 && !r->status && note_status(p) &&
		    *skip_blank(p) == '(')
			str_set(&r->status, note_status(p));
		store_value(r, s->col[i], v, cnt, bound);
	}
	if (row_stats(s, r, f, n, no))
		return -1;
	if (!r->sum.has_stats && !r->has_ideal) {
		/* nothing to show: drop the row again; quietly when the row
		 * says why (rtlat suite: "n/a ...  (interrupted)",
		 * "(failed: ...)") */
		const char *why;
		bool told = false;

		for (why = strchr(f[n - 1], '('); why && !told;
		     why = strchr(why + 1, '('))
			told = note_status(why) != NULL;

		s->c->runs.n--;
		run_free(r);
		if (told)
			return 0;
		imp_warn(s->c, no, "row without figures skipped");
	}
	return 0;
}

static void add_desc(struct tstate *s, const char *line)
{
	const char *colon = strchr(line, ':');
	size_t k;

	if (!colon || s->nd >= TB_MAXDESC || s->tables_started)
		return;
	k = (size_t)(colon - line);
	while (k && isspace((unsigned char)line[k - 1]))
		k--;
	if (!k || k > 40)
		return;
	s->d[s->nd].key = strndup(line, k);
	s->d[s->nd].val = xstrdup(skip_blank(colon + 1));
	if (!s->d[s->nd].key) {
		free(s->d[s->nd].val);
		return;
	}
	s->nd++;
}

/* Board descriptions to the runs of that label, the rest to all runs. */
static void apply_desc(struct tstate *s)
{
	char *global = NULL, *kernel = NULL;
	size_t i;
	int k;

	for (k = 0; k < s->nd; k++) {
		bool board = !strcmp(s->d[k].key, "Board");
		char *t;

		/* a run without a label (none in the text before the
		 * table) names no board */
		for (i = 0; i < s->c->runs.n && !board; i++)
			board = s->c->runs.v[i]->label &&
				!strcmp(s->c->runs.v[i]->label, s->d[k].key);
		if (board)
			continue;
		t = xasprintf("%s%s%s %s", global ? global : "",
			      global ? "; " : "", s->d[k].key, s->d[k].val);
		free(global);
		global = t;
		if (!strcmp(s->d[k].key, "Linux"))
			kernel = s->d[k].val;
	}
	for (i = 0; i < s->c->runs.n; i++) {
		struct rep_run *r = s->c->runs.v[i];
		const char *bd = NULL;

		for (k = 0; k < s->nd && r->label; k++)
			if (!strcmp(s->d[k].key, r->label))
				bd = s->d[k].val;
		if (bd) {
			str_set(&r->board, r->label);
			free(r->system);
			r->system = xasprintf("%s%s%s", bd, global ? "; " : "",
					      global ? global : "");
		} else if (global) {
			str_set(&r->system, global);
		}
		if (kernel)
			str_set(&r->kernel, kernel);
	}
	free(global);
}

/*
 * Split a table row at '|' into at most @max trimmed fields, in place;
 * "\|" is a '|' and "\\" a '\' of a field (rtlat report escapes labels
 * so). Returns the number of fields (may exceed @max).
 */
static int split_row(char *line, char **f, int max)
{
	char *r = line, *w = line, *start = line;
	int n = 0;

	for (;;) {
		if (*r == '\\' && (r[1] == '|' || r[1] == '\\')) {
			*w++ = r[1];
			r += 2;
			continue;
		}
		if (*r == '|' || !*r) {
			bool end = !*r;
			char *t = w;

			*w = '\0';
			while (t > start && isspace((unsigned char)t[-1]))
				*--t = '\0';
			if (n < max)
				f[n] = (char *)skip_blank(start);
			n++;
			if (end)
				break;
			r++;
			w++;
			start = w;
			continue;
		}
		*w++ = *r++;
	}
	return n;
}

/* A line of dashes (or '='), at least 3: it underlines the line above. */
static bool underline(const char *line)
{
	size_t n = strspn(line, "-");

	if (!n)
		n = strspn(line, "=");
	return n >= 3 && !line[n];
}

/* An underlined line above the tables titles a part of the file. */
static void set_title(struct tstate *s, const char *prev)
{
	size_t n = strlen(prev);

	while (n && (prev[n - 1] == ':' || isspace((unsigned char)prev[n - 1])))
		n--;
	if (n >= sizeof(s->title))
		n = sizeof(s->title) - 1;
	memcpy(s->title, prev, n);
	s->title[n] = '\0';
}

/*
 * A table heading: its rows belong to the section of the current title
 * when a table of the same test and load came before under another title
 * (the Xenomai summary's "KLATENCY comparison Xenomai 2.0 vs. RTAI/RTHAL
 * 3.0r5 on TQM860L" part has its own "KLATENCY with load" table): the
 * author set it apart, it is not more rows of the first one.
 */
static void new_table(struct tstate *s, const struct heading *hd)
{
	int k;

	s->section = NULL;
	for (k = 0; k < s->nseen; k++)
		if (!strcmp(s->seen[k].kind, hd->kind) &&
		    !strcmp(s->seen[k].load, hd->load) &&
		    strcmp(s->seen[k].title, s->title) != 0 && s->title[0])
			s->section = s->title;
	if (s->nseen == TB_MAXSEEN)
		return;
	snprintf(s->seen[s->nseen].kind, sizeof(s->seen[0].kind), "%s", hd->kind);
	snprintf(s->seen[s->nseen].load, sizeof(s->seen[0].load), "%s", hd->load);
	s->seen[s->nseen].title = xstrdup(s->title);
	s->nseen++;
}

static int parse(struct imp_ctx *c, char *buf, size_t len)
{
	struct tstate s;
	struct lines l;
	char *line;
	const char *prev = NULL;
	int ret = 0, k;

	memset(&s, 0, sizeof(s));
	s.c = c;
	lines_init(&l, buf, len);
	for (; !ret && (line = lines_next(&l)); prev = line) {
		char names[TB_MAXCOL + 1][24];
		char *f[TB_MAXCOL + 2];
		struct heading hd;
		int n, i;

		strip_ansi(line);
		line = (char *)skip_blank(line);
		if (underline(line) && prev && *prev && !strchr(prev, '|') &&
		    !parse_heading(prev, &hd)) {
			set_title(&s, prev);
			continue;
		}
		if (parse_heading(line, &hd)) {
			s.hd = hd;
			s.have_heading = true;
			s.tables_started = true;
			s.ncol = 0;
			new_table(&s, &hd);
			continue;
		}
		if (!strchr(line, '|')) {
			add_desc(&s, line);
			continue;
		}
		/* a header: the fields after the first name known columns */
		n = rth_names(line, names, TB_MAXCOL);
		{
			enum tcol col[TB_MAXCOL];
			char prefix[16] = "";
			bool known = false;

			for (i = 0; i < n; i++) {
				col[i] = tcol_of(names[i]);
				if (col[i] == TC_OTHER)
					col[i] = tcol_prefixed(names[i], prefix);
				known |= col[i] != TC_OTHER;
			}
			if (n && known) {
				memcpy(s.col, col, sizeof(col[0]) * (size_t)n);
				s.ncol = n;
				s.series = prefix[0] ? series_of_prefix(prefix) : NULL;
				s.tables_started = true;
				continue;
			}
		}
		if (!s.ncol)
			continue;
		n = split_row(line, f, TB_MAXCOL + 2);
		if (n > TB_MAXCOL + 1 || !*f[0]) {
			imp_warn(c, l.no, "unreadable table row skipped");
			continue;
		}
		ret = do_row(&s, f, n, l.no);
	}
	if (!ret)
		apply_desc(&s);
	for (k = 0; k < s.nd; k++) {
		free(s.d[k].key);
		free(s.d[k].val);
	}
	for (k = 0; k < s.nseen; k++)
		free(s.seen[k].title);
	return ret;
}

/* Does the line @p (@n bytes) name a min column ("lat min", "dev min")? */
static bool min_column(const char *p, size_t n)
{
	static const char *const names[] = {
		"lat min", "dev min", "sleep min", "a->b min", "b->a min",
		"rtt min",
	};
	size_t k;

	for (k = 0; k < sizeof(names) / sizeof(names[0]); k++)
		if (memmem(p, n, names[k], strlen(names[k])))
			return true;
	return false;
}

static int probe(const char *text)
{
	const char *p = text;
	bool header = false;
	int rows = 0;

	while (p && *p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *bar = memchr(p, '|', n);
		const char *s = skip_blank(p);

		/* the line from its first non-blank byte: n bytes no more */
		n -= (size_t)(s - p);
		p = s;
		if (bar && (starts_with(p, "RT") || starts_with(p, "HS")) &&
		    bar - p == 3)
			return 0;	/* Xenomai/RTAI lines */
		if (bar && min_column(p, n))
			header = true;
		else if (bar && header && bar > p)
			rows++;
		p = e ? e + 1 : NULL;
	}
	return header && rows ? 70 : 0;
}

const struct importer imp_table = {
	.name = "table",
	.what = "summary tables in the style users mail (and rtlat report's text output)",
	.probe_text = probe,
	.parse_text = parse,
};
