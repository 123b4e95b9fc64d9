// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * compare --html: the comparison (and the gate's verdicts) as one
 * self-contained HTML page: what changed in the system, a table per
 * comparison with its verdict column, the gate's line per metric and its
 * last line (docs/report.md, "Comparison", "Release gate").
 */
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "report/render/cmp_html.h"
#include "report/render/sysdiff.h"

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			/* control characters as blanks (labels, util/label.h) */
			fputc((unsigned char)*s < ' ' && *s != '\n' ? ' ' : *s, f);
		}
	}
}

/* The class of a verdict's cell: "worse", "better", "same", "cannot"
 * (cannot tell), "na". */
static const char *vclass(const char *v)
{
	return !strcmp(v, "worse") ? "worse" : !strcmp(v, "better") ? "better" :
	       !strcmp(v, "same") ? "same" : !strcmp(v, "cannot tell") ?
	       "cannot" : "na";
}

/* What @print writes into a string (malloc'd). */
static char *captured(void (*print)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return xstrdup("");
	print(m, arg);
	fclose(m);
	return buf;
}

struct sides {
	const struct rep_runs *a, *b;
};

static void print_sys(FILE *f, const void *arg)
{
	const struct sides *s = arg;

	sysdiff_print(f, s->a, s->b, "");
}

struct summary {
	const struct gate_row *rows;
	size_t n, nref;
};

static void print_summary(FILE *f, const void *arg)
{
	const struct summary *s = arg;

	gate_print_summary(f, s->rows, s->n, s->nref);
}

static void table(FILE *f, const struct cmp_row *c, const struct gate_row *g,
		  int64_t unit)
{
	char cell[8][TB_CELL], why[128];
	int j, k, m;

	fputs("<h2>", f);
	esc(f, c->title);
	fprintf(f, " (%s)</h2>\n<p>A = ", unit == 1000 ? "us" : "ns");
	esc(f, c->a_name);
	fputs(", B = ", f);
	esc(f, c->b_name);
	if (c->nothing) {
		fputs(": ", f);
		esc(f, cmp_nothing_why(c, why, sizeof(why)));
		fputs("</p>\n", f);
		return;
	}
	fputs("</p>\n<table>\n<tr><th>metric</th>", f);
	for (k = 0; k < 8; k++)
		fprintf(f, "<th>%s</th>", cmp_cols[k]);
	fputs("</tr>\n", f);
	for (j = 0; j < c->nrow; j++) {
		int i = c->row[j];

		cmp_cells(c, i, unit, cell);
		fputs("<tr><td>", f);
		esc(f, c->m[i].name);
		fputs("</td>", f);
		for (k = 0; k < 7; k++) {
			fputs("<td class=\"n\">", f);
			esc(f, cell[k]);
			fputs("</td>", f);
		}
		fprintf(f, "<td class=\"v %s\">", vclass(cell[7]));
		esc(f, cell[7]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	if (!g)
		return;
	fputs("<ul class=\"gate\">\n", f);
	for (m = 0; m < CMP_METRICS; m++) {
		const char *v;

		if (!g->g[m].gated)
			continue;
		v = gate_verdict_name(g->g[m].v);
		fputs("<li>gate ", f);
		esc(f, c->m[m].name);
		fprintf(f, ": <span class=\"v %s\">%s</span>: ", vclass(v), v);
		esc(f, g->g[m].reason);
		fputs("</li>\n", f);
	}
	if (g->note[0]) {
		fputs("<li>note: ", f);
		esc(f, g->note);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

int cmp_html_write(const char *path, const struct cmp_row *rows, size_t n,
		   const struct gate_row *gates, size_t nref,
		   const struct rep_runs *a, const struct rep_runs *b,
		   int64_t unit_ns)
{
	struct sides sd = { a, b };
	struct summary sm = { gates, n, nref };
	char *sys = a && b && a->n && b->n ? captured(print_sys, &sd) :
		    xstrdup("");
	FILE *f = fopen(path, "w");
	size_t i;
	int bad;

	if (!f) {
		log_error("cannot write %s: %m", path);
		free(sys);
		return 1;
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>rtlat compare</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1em 2em}\n"
	      "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px}\n"
	      "td.n{text-align:right;font-family:monospace}\n"
	      ".v.worse{background:#f4c7c3;font-weight:bold}.v.better{background:#c9e7c3}\n"
	      ".v.same{background:#eee}.v.cannot{background:#fce8b2}\n"
	      "</style></head><body>\n", f);
	fprintf(f, "<h1>rtlat compare%s</h1>\n", gates ? " --gate" : "");
	fputs("<h2>What changed in the system</h2>\n", f);
	if (sys[0]) {
		char *line = sys, *nl;

		fputs("<ul class=\"system\">\n", f);
		for (; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				nl = line + strlen(line) - 1;
			fputs("<li>", f);
			*nl = '\0';
			esc(f, line);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>Nothing that matters to latency differs (or a side does not describe its system).</p>\n",
		      f);
	}
	free(sys);
	for (i = 0; i < n; i++)
		table(f, &rows[i], gates ? &gates[i] : NULL, unit_ns);
	if (gates) {
		char *s = captured(print_summary, &sm);

		fputs("<p class=\"summary\"><b>", f);
		esc(f, s);
		fputs("</b></p>\n", f);
		free(s);
	}
	fputs("</body></html>\n", f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		log_error("cannot write %s", path);
		return 1;
	}
	return 0;
}
