// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Report tables in the style of the summaries users mail around: one table
 * per test kind and load, one row per run, units stated in the heading.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_view.h"
#include "util/label.h"
#include "engine/suitecol.h"
#include "util/timeutil.h"
#include "report/report.h"

/* Same test kind, series and section (any load)? */
static bool same_kind(const struct rep_run *a, const struct rep_run *b)
{
	return str_same(a->test, b->test) && str_same(a->series, b->series) &&
	       str_same(a->section, b->section);
}

/* The runs of @g ordered by load, loads in the order first seen (stable:
 * runs of one load keep their order). */
static void group_by_load(struct group *g)
{
	struct rep_run **v = xcalloc(g->n, sizeof(struct rep_run *));
	size_t i, k, n = 0;

	for (i = 0; i < g->n; i++) {
		for (k = 0; k < i; k++)
			if (str_same(g->v[k]->load, g->v[i]->load))
				break;
		if (k < i)
			continue;	/* its load came before */
		for (k = i; k < g->n; k++)
			if (str_same(g->v[k]->load, g->v[i]->load))
				v[n++] = g->v[k];
	}
	memcpy(g->v, v, g->n * sizeof(struct rep_run *));
	free(v);
}

static size_t groups_by(const struct rep_runs *rs, bool kinds,
			struct group **out)
{
	struct group *g = NULL;
	size_t n = 0, i, k;

	for (i = 0; i < rs->n; i++) {
		struct rep_run *r = rs->v[i];

		for (k = 0; k < n; k++)
			if (kinds ? same_kind(g[k].v[0], r) :
			    same_table(g[k].v[0], r))
				break;
		if (k == n) {
			g = xrealloc(g, (n + 1) * sizeof(*g));
			memset(&g[n], 0, sizeof(g[n]));
			g[n].test = r->test;
			g[n].series = r->series;
			g[n].load = r->load;
			g[n].section = r->section;
			n++;
		}
		g[k].loads |= !str_same(g[k].load, r->load);
		g[k].v = xrealloc(g[k].v,
				  (g[k].n + 1) * sizeof(struct rep_run *));
		g[k].v[g[k].n++] = r;
	}
	for (k = 0; kinds && k < n; k++)
		if (g[k].loads)
			group_by_load(&g[k]);
	*out = g;
	return n;
}

size_t groups_make(const struct rep_runs *rs, struct group **out)
{
	return groups_by(rs, false, out);
}

size_t groups_make_kinds(const struct rep_runs *rs, struct group **out)
{
	return groups_by(rs, true, out);
}

void groups_free(struct group *g, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(g[i].v);
	free(g);
}

/* The title of @g without its section; several loads: "LATENCY without
 * load and with load hell", "..., with load cpu and with load hell". */
static void group_heading(char *buf, size_t len, const struct group *g)
{
	char t[96], l[96];
	size_t i, k, n;

	test_title(t, sizeof(t), g->v[0]);
	load_title(l, sizeof(l), g->load);
	n = (size_t)snprintf(buf, len, "%s%s%s", t, g->load ? " " : ", ", l);
	for (i = 1; g->loads && i < g->n && n < len; i++) {
		bool last = true;

		if (str_same(g->v[i]->load, g->v[i - 1]->load))
			continue;
		for (k = i + 1; k < g->n; k++)
			if (!str_same(g->v[k]->load, g->v[i]->load))
				last = false;
		load_title(l, sizeof(l), g->v[i]->load);
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      last ? " and " : ", ", l);
	}
}

void group_title(char *buf, size_t len, const struct group *g)
{
	char h[192];

	group_heading(h, sizeof(h), g);
	if (g->section)
		snprintf(buf, len, "%s [%s]", h, g->section);
	else
		snprintf(buf, len, "%s", h);
}

void fmt_fig(char *buf, size_t len, bool known, double ns, int64_t unit_ns)
{
	int64_t v;

	if (!known || !isfinite(ns)) {
		snprintf(buf, len, "n/a");
		return;
	}
	v = (int64_t)llround(ns);
	if (unit_ns == 1000) {
		char b[32];

		snprintf(buf, len, "%s", fmt_us3(b, v));
	} else {
		snprintf(buf, len, "%" PRId64, v);
	}
}

void fmt_pct(char *buf, size_t len, const struct rep_series *s, int i,
	     int64_t unit_ns)
{
	char b[TB_CELL];

	fmt_fig(b, sizeof(b), s->has_pct[i], (double)s->pct[i], unit_ns);
	snprintf(buf, len, "%s%s", s->has_pct[i] && s->pct_bound[i] ? ">=" : "",
		 b);
}

/* Table columns. */
enum { C_LOAD, C_MIN, C_AVG, C_MAX, C_MISS, C_P999, C_TIME, C_IDEAL, C_NOTE,
       C_FIG };

static void row_cells(const struct rep_run *r, const struct rep_series *s,
		      const struct out_opts *o, char cell[C_NOTE + 1][TB_CELL])
{
	char b[32];

	/* as --load matches it */
	snprintf(cell[C_LOAD], TB_CELL, "%s",
		 s->id >= 0 ? "" : r->load ? r->load : "unknown");
	fmt_fig(cell[C_MIN], TB_CELL, s->has_stats, (double)s->min, o->unit_ns);
	fmt_fig(cell[C_AVG], TB_CELL, s->has_stats, s->avg, o->unit_ns);
	fmt_fig(cell[C_MAX], TB_CELL, s->has_stats, (double)s->max, o->unit_ns);
	if (s->has_misses)
		snprintf(cell[C_MISS], TB_CELL, "%" PRIu64, s->misses);
	else
		snprintf(cell[C_MISS], TB_CELL, "n/a");
	fmt_pct(cell[C_P999], TB_CELL, s, PCT_P999, o->unit_ns);
	/* to the nearest second: a 5 s cyclictest run of 4999 cycles of
	 * 1 ms, an oslat "Duration: 2.998 (sec)" were 00:00:04, 00:00:02 */
	if (s->id < 0 && r->duration_ns >= 0)
		snprintf(cell[C_TIME], TB_CELL, "%s",
			 fmt_hms(b, r->duration_ns + NSEC_PER_SEC / 2));
	else
		snprintf(cell[C_TIME], TB_CELL, s->id < 0 ? "n/a" : "");
	fmt_fig(cell[C_IDEAL], TB_CELL, r->has_ideal && s->id < 0,
		(double)r->ideal_ns, o->unit_ns);
	snprintf(cell[C_NOTE], TB_CELL, "%s",
		 s->id < 0 && run_note(r) ? run_note(r) : "");
}

static void add_row(struct rtable *t, char *label, bool sub)
{
	t->label = xrealloc(t->label, (t->nrow + 1) * sizeof(*t->label));
	t->sub = xrealloc(t->sub, (t->nrow + 1) * sizeof(*t->sub));
	t->cell = xrealloc(t->cell, (t->nrow + 1) * sizeof(*t->cell));
	t->label[t->nrow] = label;
	t->sub[t->nrow] = sub;
	memset(t->cell[t->nrow], 0, sizeof(t->cell[t->nrow]));
	t->nrow++;
}

const char *run_note(const struct rep_run *r)
{
	if (!r->status || !strcmp(r->status, "complete"))
		return NULL;
	if (!strcmp(r->status, "running"))
		return "checkpoint";
	return r->status;
}

bool run_interrupted(const struct rep_run *r)
{
	return r->status && !strcmp(r->status, "interrupted");
}

bool run_no_samples(const struct rep_run *r)
{
	return r->sum.has_samples && !r->sum.samples;
}

bool run_no_figures(const struct rep_run *r)
{
	int i;

	if (run_no_samples(r) || r->sum.has_stats || r->sum.hist.n)
		return false;
	for (i = 0; i < RTLAT_NPCT; i++)
		if (r->sum.has_pct[i])
			return false;
	return true;
}

static const struct {
	const char *note, *meaning;
} notes[] = {
	{ "checkpoint", "the run did not end, these are the figures of its last checkpoint" },
	{ "interrupted", "stopped by a signal before its duration" },
	{ "break", "stopped by --break" },
	{ "error", "the run failed" },
};

/* Append a line to the legend of @t. */
static void legend_add(struct rtable *t, const char *line)
{
	size_t n = strlen(t->legend);

	snprintf(t->legend + n, sizeof(t->legend) - n, "%s%s", n ? "\n" : "",
		 line);
}

/* The legend of the notes in column @c of @t. */
static void note_legend(struct rtable *t, int c)
{
	char line[512];
	size_t i, k, n = 0;

	line[0] = '\0';
	for (k = 0; k < sizeof(notes) / sizeof(notes[0]); k++) {
		for (i = 0; i < t->nrow; i++)
			if (!strcmp(t->cell[i][c], notes[k].note))
				break;
		if (i == t->nrow)
			continue;
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      "%s%s: %s", n ? "; " : "note: ",
				      notes[k].note, notes[k].meaning);
		if (n >= sizeof(line))
			break;
	}
	if (line[0])
		legend_add(t, line);
}

/* Add column @name (prefixed with @prefix and a blank when not NULL). */
static void add_col(struct rtable *t, const char *prefix, const char *name,
		    bool wide)
{
	snprintf(t->col[t->ncol], sizeof(t->col[0]), "%s%s%s",
		 prefix ? prefix : "", prefix ? " " : "", name);
	t->wide[t->ncol] = wide;
	t->ncol++;
}

const struct suite_spec *table_spec(const char *test, const char *series,
				    const struct suite_spec *(*spec_of)(const char *))
{
	const struct suite_spec *sp = spec_of && test ? spec_of(test) : NULL;
	const struct suite_col *c;

	if (!sp || !suite_spec_figures(sp))
		return NULL;
	for (c = sp->cols; c->stat != SUITE_END; c++)
		if (!suite_col_figure(c) && c->stat != SUITE_TIME && c->name &&
		    !str_same(c->name, series))
			return NULL;
	return sp;
}

/* A figure cell of @r's row for series @s: SUITE_FIGURE @c or its
 * SUITE_TIME; a thread's row (a CPU's) shows its CPU's figure, blank when
 * it has none. */
static void fig_cell(const struct rep_run *r, const struct rep_series *s,
		     const struct suite_col *c, char *cell)
{
	const char *v = c && c->name ? run_figure(r, c->name, s->id < 0 ? -1 :
						  s->cpu) : NULL;

	if (!c)
		snprintf(cell, TB_CELL, "%s", "n/a");	/* no such column */
	else if (s->id >= 0 && (!v || s->cpu < 0))
		snprintf(cell, TB_CELL, "%s", "");
	else if (c->stat == SUITE_TIME)
		suite_time_text(v, s->id < 0 ? r->duration_ns : -1, cell,
				TB_CELL);
	else
		suite_col_text(c, v, cell, TB_CELL);
}

/* The columns of @sp into @t (after the load's): @kind and @col as
 * table_build() keeps them. */
static void spec_columns(struct rtable *t, const struct suite_spec *sp,
			 const char *miss, int *kind,
			 const struct suite_col **col)
{
	static const int of[] = {
		[SUITE_MIN] = C_MIN, [SUITE_AVG] = C_AVG, [SUITE_MAX] = C_MAX,
		[SUITE_MISSES] = C_MISS, [SUITE_P999] = C_P999,
		[SUITE_TIME] = C_TIME, [SUITE_FIGURE] = C_FIG,
		[SUITE_PERCENT] = C_FIG, [SUITE_CPU] = C_FIG,
	};
	const struct suite_col *c;

	for (c = sp->cols; c->stat != SUITE_END && t->ncol < TB_COLS - 1; c++) {
		col[t->ncol] = c;
		kind[t->ncol] = c->stat == SUITE_TIME && c->name ? C_FIG :
				of[c->stat];
		add_col(t, NULL, c->head ? c->head : miss,
			c->stat != SUITE_MISSES);
	}
}

/* The rows of @t: one per run of @g, and one per thread of it with
 * --threads; @kind and @col say what each column holds. *@bound, *@few:
 * a p99.9 was a lower bound, or not known for too few samples. */
static void table_rows(const struct group *g, const struct out_opts *o,
		       struct rtable *t, const int *kind,
		       const struct suite_col *const *col, bool stats,
		       bool *bound, bool *few)
{
	size_t i, k;
	int c;

	for (i = 0; i < g->n; i++) {
		const struct rep_run *r = g->v[i];

		for (k = 0; k <= r->nthr; k++) {
			const struct rep_series *s = k ? &r->thr[k - 1] : &r->sum;
			char cell[C_NOTE + 1][TB_CELL];

			if (k && (!o->threads || r->nthr < 2))
				break;
			if (!k)
				add_row(t, xstrdup(r->label), false);
			else
				add_row(t, s->cpu >= 0 ?
					xasprintf("%s cpu %d", r->label, s->cpu) :
					xasprintf("%s thread %d", r->label, s->id),
					true);
			row_cells(r, s, o, cell);
			for (c = 0; c < t->ncol; c++) {
				if (kind[c] == C_FIG)
					fig_cell(r, s, col[c],
						 t->cell[t->nrow - 1][c]);
				else
					memcpy(t->cell[t->nrow - 1][c],
					       cell[kind[c]], TB_CELL);
			}
			if (stats && s->has_pct[PCT_P999] && s->pct_bound[PCT_P999])
				*bound = true;
			if (stats && !s->has_pct[PCT_P999] && s->has_samples &&
			    s->samples &&
			    s->samples < rtlat_percentiles[PCT_P999].den_inv)
				*few = true;
		}
	}
}

void table_build(const struct group *g, const struct out_opts *o,
		 struct rtable *t)
{
	const struct suite_spec *sp = table_spec(g->test, g->series, o->spec_of);
	const struct suite_col *col[TB_COLS] = { NULL };
	const char *prefix = series_prefix(g->series);
	enum rep_miss miss = MISS_NONE;
	bool mixed = false, ideal = false, stats = false, note = false;
	bool bound = false, few = false;
	int kind[TB_COLS], c;
	size_t i;

	memset(t, 0, sizeof(*t));
	group_title(t->title, sizeof(t->title), g);
	group_heading(t->heading, sizeof(t->heading), g);
	snprintf(t->section, sizeof(t->section), "%s",
		 g->section ? g->section : "");
	t->unit = o->unit_ns == 1000 ? "us" : "ns";
	for (i = 0; i < g->n; i++) {
		if (g->v[i]->miss && miss && g->v[i]->miss != miss)
			mixed = true;
		if (g->v[i]->miss)
			miss = g->v[i]->miss;
		ideal |= g->v[i]->has_ideal;
		stats |= g->v[i]->sum.has_stats || g->v[i]->sum.has_samples ||
			 (g->v[i]->nthr && g->v[i]->thr[0].has_stats);
		note |= run_note(g->v[i]) != NULL;
	}
	/* runs of several loads: which one each row is */
	if (g->loads) {
		kind[t->ncol] = C_LOAD;
		add_col(t, NULL, "load", false);
	}
	/* the test's own columns (noise: max gap, noise %, on CPU, events,
	 * p99.9, the time measured) */
	if (sp) {
		char line[384];

		spec_columns(t, sp, miss_name(mixed ? MISS_NONE : miss), kind,
			     col);
		/* what its samples are, and its units when they are the
		 * table's (they are stated in us) */
		snprintf(line, sizeof(line), "%s%s%s%s%s",
			 sp->sample_name ? g->series : "",
			 sp->sample_name ? ": " : "",
			 sp->sample_name ? sp->sample_name : "",
			 sp->sample_name && sp->units && o->unit_ns == 1000 ?
			 "; " : "",
			 sp->units && o->unit_ns == 1000 ? sp->units : "");
		if (line[0])
			legend_add(t, line);
	}
	/* a table of reference (ideal) times only: no empty latency
	 * columns; no miss column for a test that has nothing to miss */
	if (sp) {
		/* its columns are the spec's */
	} else if (stats) {
		kind[t->ncol] = C_MIN;
		add_col(t, prefix, "min", true);
		kind[t->ncol] = C_AVG;
		add_col(t, prefix, "avg", true);
		kind[t->ncol] = C_MAX;
		add_col(t, prefix, "max", true);
		if (!g->v[0]->no_misses) {
			kind[t->ncol] = C_MISS;
			add_col(t, NULL, miss_name(mixed ? MISS_NONE : miss), false);
		}
		kind[t->ncol] = C_P999;
		add_col(t, NULL, rtlat_percentiles[PCT_P999].name, true);
	}
	if (!sp) {
		kind[t->ncol] = C_TIME;
		add_col(t, NULL, "test-time", true);
	}
	if (ideal && !sp) {
		kind[t->ncol] = C_IDEAL;
		add_col(t, NULL, "ideal", true);
	}
	/* runs that did not complete say so: a checkpoint is no result */
	if (note) {
		kind[t->ncol] = C_NOTE;
		add_col(t, NULL, "note", false);
	}
	table_rows(g, o, t, kind, col, stats, &bound, &few);
	for (c = 0; c < t->ncol; c++)
		if (kind[c] == C_NOTE)
			note_legend(t, c);
	if (bound)
		legend_add(t, "p99.9 >=N: its rank is in the histogram's overflow: at least N (the histogram's upper limit), not known above");
	if (few)
		legend_add(t, "p99.9 n/a: fewer than 1000 samples (p99.9 would be the maximum)");
}

void table_free(struct rtable *t)
{
	size_t i;

	for (i = 0; i < t->nrow; i++)
		free(t->label[i]);
	free(t->label);
	free(t->sub);
	free(t->cell);
	memset(t, 0, sizeof(*t));
}

/* Width of a column: its name with at least one dash, or its cells. */
static int col_width(const struct rtable *t, int c)
{
	size_t w = strlen(t->col[c]) + 1, i;

	if (w < 8)
		w = 8;
	if (t->wide[c])
		w = w < 12 ? 12 : w;
	for (i = 0; i < t->nrow; i++)
		if (strlen(t->cell[i][c]) > w)
			w = strlen(t->cell[i][c]);
	return (int)w;
}

/* @s for a text table: '\' and '|' escaped, control characters and (in
 * a heading, @heading) "|" as blanks. Returns a new string. */
static char *text_cell(const char *s, bool heading)
{
	char *o = xmalloc(2 * strlen(s) + 1), *w = o;

	for (; *s; s++) {
		size_t k = text_ctrl_len(s);

		if (k || (heading && *s == '|')) {
			*w++ = ' ';
			s += k ? k - 1 : 0;
			continue;
		}
		if (*s == '\\' || *s == '|')
			*w++ = '\\';
		*w++ = *s;
	}
	*w = '\0';
	return o;
}

/* Each line of the legend of @t between @pre and @post, escaped with @esc
 * (NULL: as it is). */
static void legend_print(FILE *f, const struct rtable *t, const char *pre,
			 const char *post, void (*esc)(FILE *, const char *))
{
	const char *p = t->legend;

	while (*p) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		if (!line)
			return;
		fputs(pre, f);
		if (esc)
			esc(f, line);
		else
			fputs(line, f);
		fputs(post, f);
		free(line);
		p += n;
		if (*p)
			p++;
	}
}

#define MAX_CHECKS 32

void checks_print_text(FILE *f, const struct rep_runs *rs)
{
	const char *chk[MAX_CHECKS], *pos;
	size_t n = runs_checks(rs, chk, MAX_CHECKS), i;
	struct check_line l;

	if (!n)
		return;
	fprintf(f, "\nSystem check (rtlat check as the runs started: warnings and bads):\n");
	for (i = 0; i < n; i++) {
		char *labels = runs_with_check(rs, chk[i]);

		for (pos = chk[i]; check_next(chk[i], &pos, &l);)
			if (!l.id)
				fprintf(f, "%s: %.*s\n", labels, l.text_len, l.text);
			else
				fprintf(f, "  %-16.*s %-8.*s %.*s\n", l.id_len, l.id,
					l.verdict_len, l.verdict, l.text_len, l.text);
		free(labels);
	}
}

void table_print_text(FILE *f, const struct rtable *t)
{
	size_t lw = 3, i;
	int c, w[TB_COLS];
	char **lab = xcalloc(t->nrow + 1, sizeof(*lab)), *title;

	for (i = 0; i < t->nrow; i++) {
		lab[i] = text_cell(t->label[i], false);
		if (strlen(lab[i]) + (t->sub[i] ? 2 : 0) > lw)
			lw = strlen(lab[i]) + (t->sub[i] ? 2 : 0);
	}
	/* a section as its author wrote it: a title underlined with dashes
	 * (the table importer reads it back) */
	if (t->section[0]) {
		title = text_cell(t->section, true);
		fprintf(f, "%s\n", title);
		for (i = 0; title[i]; i++)
			fputc('-', f);
		fputc('\n', f);
		free(title);
	}
	title = text_cell(t->heading, true);
	fprintf(f, "%s (%s):\n", title, t->unit);
	free(title);
	fprintf(f, "%-*s", (int)lw, "run");
	for (c = 0; c < t->ncol; c++) {
		int dashes;

		w[c] = col_width(t, c);
		dashes = w[c] - (int)strlen(t->col[c]);
		fputc('|', f);
		while (dashes-- > 0)
			fputc('-', f);
		fputs(t->col[c], f);
	}
	fputc('\n', f);
	for (i = 0; i < t->nrow; i++) {
		fprintf(f, "%s%-*s", t->sub[i] ? "  " : "",
			(int)lw - (t->sub[i] ? 2 : 0), lab[i]);
		for (c = 0; c < t->ncol; c++)
			fprintf(f, "|%*s", w[c], t->cell[i][c]);
		fputc('\n', f);
		free(lab[i]);
	}
	free(lab);
	legend_print(f, t, "# ", "\n", NULL);
}

static void md_put(FILE *f, char c)
{
	if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' ||
	    c == '<' || c == '[')
		fputc('\\', f);
	fputc(c, f);
}

/* Markdown: its special characters escaped, control characters (the
 * label rule, util/label.h) as blanks. */
static void md_escape(FILE *f, const char *s)
{
	text_write(f, s, md_put);
}

void table_print_markdown(FILE *f, const struct rtable *t)
{
	size_t i;
	int c;

	fprintf(f, "### ");
	md_escape(f, t->title);
	fprintf(f, " (values in %s)\n\n| run |", t->unit);
	for (c = 0; c < t->ncol; c++)
		fprintf(f, " %s |", t->col[c]);
	fprintf(f, "\n|:---|");
	for (c = 0; c < t->ncol; c++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (i = 0; i < t->nrow; i++) {
		fprintf(f, "| %s", t->sub[i] ? "&nbsp;&nbsp;" : "");
		md_escape(f, t->label[i]);
		fprintf(f, " |");
		for (c = 0; c < t->ncol; c++)
			fprintf(f, " %s |", t->cell[i][c]);
		fputc('\n', f);
	}
	if (t->legend[0]) {
		fputs("\n", f);
		legend_print(f, t, "", "  \n", md_escape);
	}
}

static void html_put(FILE *f, char c)
{
	switch (c) {
	case '<': fputs("&lt;", f); break;
	case '>': fputs("&gt;", f); break;
	case '&': fputs("&amp;", f); break;
	case '"': fputs("&quot;", f); break;
	case '\'': fputs("&#39;", f); break;
	default: fputc(c, f); break;
	}
}

void html_escape(FILE *f, const char *s)
{
	text_write(f, s, html_put);
}

void table_print_html(FILE *f, const struct rtable *t)
{
	size_t i;
	int c;

	fprintf(f, "<h2>");
	html_escape(f, t->title);
	fprintf(f, " <small>(values in %s)</small></h2>\n<table>\n<tr><th>run</th>",
		!strcmp(t->unit, "us") ? "&micro;s" : "ns");
	for (c = 0; c < t->ncol; c++) {
		fprintf(f, "<th>");
		html_escape(f, t->col[c]);
		fprintf(f, "</th>");
	}
	fprintf(f, "</tr>\n");
	for (i = 0; i < t->nrow; i++) {
		fprintf(f, "<tr%s><td>", t->sub[i] ? " class=\"sub\"" : "");
		html_escape(f, t->label[i]);
		fprintf(f, "</td>");
		for (c = 0; c < t->ncol; c++) {
			fprintf(f, "<td>");
			html_escape(f, t->cell[i][c]);
			fprintf(f, "</td>");
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
	legend_print(f, t, "<p class=\"legend\">", "</p>\n", html_escape);
}

/* ---- CSV ---- */

static void csv_put(FILE *f, char c)
{
	if (c == '"')
		fputc('"', f);
	fputc(c, f);
}

void csv_field(FILE *f, const char *s)
{
	/* a spreadsheet takes a cell starting with one of these for a
	 * formula (OWASP, CSV injection): a quote makes it text */
	bool formula = s && *s && strchr("=+-@", *s);
	bool quote = formula || (s && strpbrk(s, ",\""));

	if (!s)
		return;
	if (quote)
		fputc('"', f);
	if (formula)
		fputc('\'', f);
	text_write(f, s, csv_put);
	if (quote)
		fputc('"', f);
}

static void csv_int(FILE *f, bool known, int64_t v)
{
	fputc(',', f);
	if (known)
		fprintf(f, "%" PRId64, v);
}

/* ",field" */
static void csv_next(FILE *f, const char *s)
{
	fputc(',', f);
	csv_field(f, s);
}

static void csv_row(FILE *f, const struct rep_run *r,
		    const struct rep_series *s)
{
	int i;

	csv_field(f, r->test);
	csv_next(f, r->series);
	csv_next(f, r->load);
	csv_next(f, r->label);
	if (s->id < 0)
		fputs(",all", f);
	else
		fprintf(f, ",%d", s->id);
	csv_int(f, s->cpu >= 0, s->cpu);
	csv_int(f, s->has_samples, (int64_t)s->samples);
	csv_int(f, s->has_stats, s->min);
	fputc(',', f);
	if (s->has_stats)
		fprintf(f, "%.1f", s->avg);
	csv_int(f, s->has_stats, s->max);
	csv_next(f, r->miss == MISS_NONE ? NULL :
		 r->miss == MISS_LOST ? "lost" : "overruns");
	csv_int(f, s->has_misses, (int64_t)s->misses);
	/* a lower bound is written ">=N": no number, on purpose */
	for (i = 0; i < RTLAT_NPCT; i++) {
		if (s->has_pct[i] && s->pct_bound[i])
			fputs(",>=", f);
		else
			fputc(',', f);
		if (s->has_pct[i])
			fprintf(f, "%" PRId64, s->pct[i]);
	}
	csv_int(f, r->duration_ns >= 0, r->duration_ns);
	csv_int(f, r->has_ideal, r->ideal_ns);
	csv_next(f, r->tool);
	csv_next(f, r->board);
	csv_next(f, r->kernel);
	csv_next(f, r->start_time);
	csv_next(f, r->file);
	csv_next(f, r->status);
	csv_next(f, r->section);
	fputc('\n', f);
}

void csv_print(FILE *f, const struct rep_runs *rs, bool threads)
{
	size_t i, k;
	int p;

	fputs("test,series,load,label,thread,cpu,samples,min_ns,avg_ns,max_ns,miss_kind,misses", f);
	for (p = 0; p < RTLAT_NPCT; p++)
		fprintf(f, ",%s_ns", rtlat_percentiles[p].name);
	fputs(",duration_ns,ideal_ns,tool,board,kernel,start_time,file,status,section\n", f);
	for (i = 0; i < rs->n; i++) {
		csv_row(f, rs->v[i], &rs->v[i]->sum);
		if (!threads || !rs->v[i]->nthr)
			continue;
		for (k = 0; k < rs->v[i]->nthr; k++)
			csv_row(f, rs->v[i], &rs->v[i]->thr[k]);
	}
}
