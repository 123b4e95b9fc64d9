// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary of a large history (rtlat report --db over more than
 * RDB_SUMMARY_RUNS runs): one row per board, kernel, test, series and load,
 * as rdb_summary() computed it in the database, in text, Markdown or CSV
 * (docs/report.md, "History").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"

enum { C_BOARD, C_KERNEL, C_TEST, C_LOAD, C_RUNS, C_WORST, C_WORST_AT,
       C_MEDIAN, C_Q1, C_Q3, C_P999, C_MISS, C_LAST, C_TREND, NCOLS };

static const char *const heads[NCOLS] = {
	"board", "kernel", "test", "load", "runs", "worst max", "worst at",
	"max median", "max q1", "max q3", "p99.9", "overrun/lost", "last run",
	"trend",
};

/* the numeric columns, right-aligned */
static bool numeric(int c)
{
	return c == C_RUNS || c == C_WORST || c == C_MEDIAN || c == C_Q1 ||
	       c == C_Q3 || c == C_P999 || c == C_MISS;
}

/* A text of a table cell: '|' and '\' written "\|" and "\\", as the
 * report's tables write them; NULL is "n/a". */
static char *cell_text(const char *s)
{
	char *out, *o;

	if (!s)
		return xstrdup("n/a");
	out = o = xmalloc(2 * strlen(s) + 1);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			*o++ = '\\';
		*o++ = (unsigned char)*s < 0x20 ? ' ' : *s;
	}
	*o = '\0';
	return out;
}

/* The test of @r, with its series when that is not the test's only one
 * ("handshake a->b"). */
static void test_name(const struct rdb_sum_row *r, char *buf, size_t len)
{
	if (r->series && r->test && strcmp(r->series, r->test) != 0 &&
	    strcmp(r->series, "latency") != 0)
		snprintf(buf, len, "%s %s", r->test, r->series);
	else
		snprintf(buf, len, "%s", r->test ? r->test : "n/a");
}

/* The cells of row @r (malloc'ed) in @unit_ns. */
static void row_cells(const struct rdb_sum_row *r, int64_t unit_ns,
		      char *cell[NCOLS])
{
	char b[128];

	cell[C_BOARD] = cell_text(r->board);
	cell[C_KERNEL] = cell_text(r->kernel);
	test_name(r, b, sizeof(b));
	cell[C_TEST] = cell_text(b);
	cell[C_LOAD] = cell_text(r->load);
	snprintf(b, sizeof(b), "%lld", (long long)r->runs);
	cell[C_RUNS] = xstrdup(b);
	fmt_fig(b, sizeof(b), r->worst_ns >= 0, (double)r->worst_ns, unit_ns);
	cell[C_WORST] = xstrdup(b);
	cell[C_WORST_AT] = cell_text(r->worst_at);
	fmt_fig(b, sizeof(b), r->median_ns >= 0, r->median_ns, unit_ns);
	cell[C_MEDIAN] = xstrdup(b);
	fmt_fig(b, sizeof(b), r->q1_ns >= 0, (double)r->q1_ns, unit_ns);
	cell[C_Q1] = xstrdup(b);
	fmt_fig(b, sizeof(b), r->q3_ns >= 0, (double)r->q3_ns, unit_ns);
	cell[C_Q3] = xstrdup(b);
	fmt_fig(b, sizeof(b), r->p99_9_ns >= 0, (double)r->p99_9_ns, unit_ns);
	cell[C_P999] = xstrdup(b);
	if (r->misses >= 0)
		snprintf(b, sizeof(b), "%lld", (long long)r->misses);
	else
		snprintf(b, sizeof(b), "n/a");
	cell[C_MISS] = xstrdup(b);
	cell[C_LAST] = cell_text(r->last_at);
	cell[C_TREND] = xstrdup(r->trend);
}

static void print_text(FILE *f, const struct rdb_summary *s, int64_t unit_ns,
		       bool md)
{
	char *(*cells)[NCOLS] = xcalloc(s->n + 1, sizeof(*cells));
	size_t w[NCOLS], i, k;
	int c;

	for (c = 0; c < NCOLS; c++)
		w[c] = strlen(heads[c]);
	for (i = 0; i < s->n; i++) {
		row_cells(&s->v[i], unit_ns, cells[i]);
		for (c = 0; c < NCOLS; c++)
			if (strlen(cells[i][c]) > w[c])
				w[c] = strlen(cells[i][c]);
	}
	if (md) {
		fprintf(f, "### History: %lld runs, %zu groups (values in %s)\n\n|",
			(long long)s->runs, s->n, unit_ns == 1 ? "ns" : "us");
		for (c = 0; c < NCOLS; c++)
			fprintf(f, " %s |", heads[c]);
		fputs("\n|", f);
		for (c = 0; c < NCOLS; c++)
			fputs(numeric(c) ? " ---: |" : " --- |", f);
		fputc('\n', f);
	} else {
		fprintf(f, "HISTORY: %lld runs, %zu groups (%s):\n",
			(long long)s->runs, s->n, unit_ns == 1 ? "ns" : "us");
		for (c = 0; c < NCOLS; c++) {
			size_t pad = w[c] - strlen(heads[c]);

			if (c)
				fputc('|', f);
			if (numeric(c))
				for (k = 0; k < pad; k++)
					fputc('-', f);
			fputs(heads[c], f);
			if (!numeric(c) && c < NCOLS - 1)
				for (k = 0; k < pad; k++)
					fputc(' ', f);
		}
		fputc('\n', f);
	}
	for (i = 0; i < s->n; i++) {
		if (md)
			fputc('|', f);
		for (c = 0; c < NCOLS; c++) {
			const char *t = cells[i][c];

			if (md)
				fprintf(f, " %s |", t);
			else if (c == NCOLS - 1)
				fprintf(f, "|%s", t);
			else
				fprintf(f, numeric(c) ? "%s%*s" : "%s%-*s",
					c ? "|" : "", (int)w[c], t);
			free(cells[i][c]);
		}
		fputc('\n', f);
	}
	free(cells);
	fprintf(f, "%s# max: each run's whole-run lat max; worst at: the first run with\n"
		"# the worst; q1, q3: quartiles of the maxima; p99.9: the highest;\n"
		"# trend: the newer half of the runs against the older by compare's\n"
		"# rule for repeated runs; the runs themselves: --runs, --limit N\n",
		md ? "\n" : "");
}

static void csv_num(FILE *f, bool known, int64_t v)
{
	if (known)
		fprintf(f, ",%lld", (long long)v);
	else
		fputc(',', f);
}

static void print_csv(FILE *f, const struct rdb_summary *s)
{
	size_t i;

	fputs("board,kernel,test,series,load,runs,runs_with_max,worst_max_ns,"
	      "worst_at,worst_id,max_median_ns,max_q1_ns,max_q3_ns,p99_9_ns,"
	      "misses,miss_kind,last_run,trend\n", f);
	for (i = 0; i < s->n; i++) {
		const struct rdb_sum_row *r = &s->v[i];

		csv_field(f, r->board);
		fputc(',', f);
		csv_field(f, r->kernel);
		fputc(',', f);
		csv_field(f, r->test);
		fputc(',', f);
		csv_field(f, r->series);
		fputc(',', f);
		csv_field(f, r->load);
		csv_num(f, true, r->runs);
		csv_num(f, true, r->nmax);
		csv_num(f, r->worst_ns >= 0, r->worst_ns);
		fputc(',', f);
		csv_field(f, r->worst_at);
		csv_num(f, r->worst_id >= 0, r->worst_id);
		if (r->median_ns >= 0)
			fprintf(f, ",%.1f", r->median_ns);
		else
			fputc(',', f);
		csv_num(f, r->q1_ns >= 0, r->q1_ns);
		csv_num(f, r->q3_ns >= 0, r->q3_ns);
		csv_num(f, r->p99_9_ns >= 0, r->p99_9_ns);
		csv_num(f, r->misses >= 0, r->misses);
		fputc(',', f);
		csv_field(f, r->miss_kind);
		fputc(',', f);
		csv_field(f, r->last_at);
		fputc(',', f);
		csv_field(f, r->trend);
		fputc('\n', f);
	}
}

void summary_print(FILE *f, const struct rdb_summary *s, const char *format,
		   const struct out_opts *o)
{
	if (!strcmp(format, "csv"))
		print_csv(f, s);
	else
		print_text(f, s, o->unit_ns, !strcmp(format, "markdown"));
}

void summary_print_html(FILE *f, const struct rdb_summary *s,
			const struct out_opts *o)
{
	size_t i;
	int c;

	fprintf(f, "<table class=\"summary\">\n<caption>%lld runs, %zu groups (%s)</caption>\n<tr>",
		(long long)s->runs, s->n, o->unit_ns == 1 ? "ns" : "&micro;s");
	for (c = 0; c < NCOLS; c++)
		fprintf(f, "<th>%s</th>", heads[c]);
	fprintf(f, "</tr>\n");
	for (i = 0; i < s->n; i++) {
		char *cell[NCOLS];

		row_cells(&s->v[i], o->unit_ns, cell);
		fprintf(f, "<tr>");
		for (c = 0; c < NCOLS; c++) {
			fprintf(f, "<td>");
			html_escape(f, cell[c]);
			fprintf(f, "</td>");
			free(cell[c]);
		}
		fprintf(f, "</tr>\n");
	}
	fprintf(f, "</table>\n");
}
