// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report: one self-contained page (no external file, script or
 * style sheet) with the tables and the gnuplot plots inlined as SVG. One
 * table per test kind and series with the runs of every load in it (a
 * test without and with load side by side, the comparison users make
 * first); per table a bar chart of max and p99.9 per run, a tail
 * (percentile) plot and, with several loads, their histograms in one
 * plot; per run a histogram with log-scale counts and the latency over
 * time from the interval series. The system description comes once.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/outfile.h"
#include "util/timeutil.h"
#include "report/render/plot.h"
#include "report/report.h"

static const char css[] =
	"body{font-family:sans-serif;margin:1.5em;color:#222;max-width:1100px}"
	"table{border-collapse:collapse;margin:.5em 0 1em}"
	"th,td{border:1px solid #bbb;padding:.2em .6em}"
	"td{text-align:right;font-family:monospace}"
	"td:first-child{text-align:left;font-family:sans-serif}"
	"tr.sub td:first-child{padding-left:1.5em;color:#555}"
	"th{background:#eee}"
	"figure.plot{margin:.5em 0 1.5em;max-width:800px}"
	"figure.plot svg{width:100%;height:auto;border:1px solid #ddd}"
	"figcaption{font-size:.85em;color:#555}"
	".warn{background:#fff3cd;border:1px solid #e0c060;padding:.5em}"
	"dl{font-size:.9em}dt{font-weight:bold;margin-top:.4em}";

struct run_plots {
	int hist, time;
};


/* Are @a and @b series of one run (a handshake's three, a cruncher's
 * two)? */
static bool same_run(const struct rep_run *a, const struct rep_run *b)
{
	return str_same(a->file, b->file) && a->line == b->line &&
	       str_same(a->label, b->label) && str_same(a->test, b->test) &&
	       str_same(a->load, b->load) && str_same(a->section, b->section) &&
	       str_same(a->start_time, b->start_time);
}

size_t runs_count(const struct rep_runs *rs)
{
	size_t i, k, n = 0;

	for (i = 0; i < rs->n; i++) {
		for (k = 0; k < i && !same_run(rs->v[k], rs->v[i]); k++)
			;
		n += k == i;
	}
	return n;
}

/* The distinct system descriptions of @rs into @sys (at most @max);
 * returns how many. */
static size_t systems(const struct rep_runs *rs, const char **sys, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < rs->n; i++) {
		const char *s = rs->v[i]->system;

		if (!s || !*s)
			continue;
		for (k = 0; k < n && strcmp(sys[k], s) != 0; k++)
			;
		if (k == n && n < max)
			sys[n++] = s;
	}
	return n;
}

static void figure(FILE *f, const struct plots *p, int i, int *count)
{
	if (i < 0 || !p->svg || !p->svg[i])
		return;
	fprintf(f, "<figure class=\"plot\" data-kind=\"%s\">\n%s\n<figcaption>",
		p->caption[i], p->svg[i]);
	html_escape(f, p->caption[i]);
	fprintf(f, "</figcaption></figure>\n");
	(*count)++;
}

#define MAX_SYSTEMS 32

/* The system descriptions, each once: "System" with one, else numbered
 * (the runs refer to them). */
static void system_list(FILE *f, const char **sys, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(f, "<h2>System%s</h2>\n", n > 1 ? "s" : "");
	if (n == 1) {
		fprintf(f, "<p class=\"system\">");
		html_escape(f, sys[0]);
		fprintf(f, "</p>\n");
		return;
	}
	fprintf(f, "<ol class=\"system\">\n");
	for (i = 0; i < n; i++) {
		fprintf(f, "<li>");
		html_escape(f, sys[i]);
		fprintf(f, "</li>\n");
	}
	fprintf(f, "</ol>\n");
}

static void escape_n(FILE *f, const char *s, int n)
{
	char *t = xasprintf("%.*s", n, s);

	html_escape(f, t);
	free(t);
}

void checks_print_html(FILE *f, const struct rep_runs *rs)
{
	const char *chk[MAX_SYSTEMS], *pos;
	size_t n = runs_checks(rs, chk, MAX_SYSTEMS), i;
	struct check_line l;

	if (!n)
		return;
	fprintf(f, "<h2>System check</h2>\n<p>rtlat check as the runs started: warnings and bads.</p>\n");
	for (i = 0; i < n; i++) {
		char *labels = runs_with_check(rs, chk[i]);

		fprintf(f, "<table class=\"check\">\n");
		for (pos = chk[i]; check_next(chk[i], &pos, &l);) {
			if (!l.id) {
				fprintf(f, "<caption>");
				html_escape(f, labels);
				fprintf(f, ": ");
				escape_n(f, l.text, l.text_len);
				fprintf(f, "</caption>\n");
				continue;
			}
			fprintf(f, "<tr><td>");
			escape_n(f, l.id, l.id_len);
			fprintf(f, "</td><td class=\"%s\">",
				l.verdict_len == 3 && !strncmp(l.verdict, "bad", 3) ?
				"bad" : "warning");
			escape_n(f, l.verdict, l.verdict_len);
			fprintf(f, "</td><td>");
			escape_n(f, l.text, l.text_len);
			fprintf(f, "</td></tr>\n");
		}
		fprintf(f, "</table>\n");
		free(labels);
	}
}

static void sources(FILE *f, const struct rep_runs *rs, const char **sys,
		    size_t nsys)
{
	size_t i, k;

	fprintf(f, "<h2>Runs</h2>\n<dl>\n");
	for (i = 0; i < rs->n; i++) {
		const struct rep_run *r = rs->v[i];
		char b[32];

		/* one entry per run, not per series */
		for (k = 0; k < i && !same_run(rs->v[k], r); k++)
			;
		if (k < i)
			continue;

		fprintf(f, "<dt>");
		html_escape(f, r->label);
		fprintf(f, " &mdash; ");
		html_escape(f, r->test);
		fprintf(f, "</dt><dd>");
		html_escape(f, r->tool ? r->tool : r->format);
		if (r->file) {
			fprintf(f, ", ");
			html_escape(f, r->file);
			if (r->line)
				fprintf(f, ":%u", r->line);
		}
		if (r->start_time) {
			fprintf(f, ", started ");
			html_escape(f, r->start_time);
		}
		if (r->duration_ns >= 0)
			fprintf(f, ", %s",
				fmt_hms(b, r->duration_ns + NSEC_PER_SEC / 2));
		if (r->sum.has_samples)
			fprintf(f, ", %" PRIu64 " samples", r->sum.samples);
		for (k = 0; r->system && *r->system && k < nsys; k++)
			if (!strcmp(sys[k], r->system))
				break;
		if (k < nsys && nsys > 1) {
			fprintf(f, ", system %zu", k + 1);
		} else if (k == nsys && r->system && *r->system) {
			/* beyond the MAX_SYSTEMS listed */
			fprintf(f, "<br>");
			html_escape(f, r->system);
		}
		fprintf(f, "</dd>\n");
	}
	fprintf(f, "</dl>\n");
}

/* A long-term plot of group @group. */
struct lt_plot {
	size_t group;
	int plot;
};

/* The long-term view of group @gi (@g): per board with several runs over
 * time, interval maxima over time and max/p99.9 over runs (plot.h). */
static void longterm_plots(struct plots *p, const struct group *g, size_t gi,
			   struct lt_plot **lt, size_t *nlt)
{
	size_t i, j;

	for (i = 0; i < g->n; i++) {
		const char *b = g->v[i]->board;
		int n[2];

		for (j = 0; j < i && !str_same(g->v[j]->board, b); j++)
			;
		if (j < i)
			continue;	/* board done */
		n[0] = plot_longterm(p, g, b);
		n[1] = plot_over_runs(p, g, b);
		for (j = 0; j < 2; j++) {
			if (n[j] < 0)
				continue;
			*lt = xrealloc(*lt, (*nlt + 1) * sizeof(**lt));
			(*lt)[*nlt].group = gi;
			(*lt)[(*nlt)++].plot = n[j];
		}
	}
}

/* Does run @k of @g get its own plots (--html-runs N: one of the N
 * latest of its table; --longterm: none)? */
static bool run_plotted(const struct out_opts *o, const struct group *g,
			size_t k)
{
	const char *t = g->v[k]->start_time;
	long later = 0;
	size_t i;

	if (o->html_longterm)
		return false;
	if (o->html_runs < 0)
		return true;
	for (i = 0; i < g->n && later < o->html_runs; i++) {
		const char *u = g->v[i]->start_time;
		int c = !u ? -1 : !t ? 1 : strcmp(u, t);

		later += c > 0 || (c == 0 && i > k);
	}
	return later < o->html_runs;
}

/* The page's head and its first lines: how many runs, tables and
 * systems, the checks the runs carry. */
static void html_head(FILE *f, const struct rep_runs *rs, size_t ng,
		      const struct out_opts *o, const char **sys, size_t nsys)
{
	struct timespec ts;
	char now[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	fmt_utc(now, ts_to_ns(&ts));
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>rtlat report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>rtlat report</h1>\n<p>%zu run%s",
		css, runs_count(rs), runs_count(rs) == 1 ? "" : "s");
	if (runs_count(rs) != rs->n)
		fprintf(f, " (%zu series)", rs->n);
	fprintf(f, " in %zu table%s (one per test kind and series, every load in it), generated %s by rtlat %s. "
		"Tables in %s; plots in &micro;s.</p>\n",
		ng, ng == 1 ? "" : "s", now, RTLAT_VERSION,
		o->unit_ns == 1000 ? "&micro;s" : "ns");
	system_list(f, sys, nsys);
	checks_print_html(f, rs);
}

int html_report(const char *path, const struct rep_runs *rs,
		const struct out_opts *o, int *nplots)
{
	struct run_plots *rp = xcalloc(rs->n + 1, sizeof(*rp));
	int *bars, *tail, *hists, count = 0, ret = -1;
	struct lt_plot *lt = NULL;
	size_t nlt = 0;
	const char *sys[MAX_SYSTEMS];
	size_t nsys = systems(rs, sys, MAX_SYSTEMS);
	char err[512], why[512] = "";
	struct atomic_file af;
	struct plots p;
	struct group *g;
	size_t ng, i, k, j;
	bool have_plots;
	int stopped;
	FILE *f;

	*nplots = 0;
	ng = groups_make_kinds(rs, &g);
	bars = xcalloc(ng + 1, sizeof(*bars));
	tail = xcalloc(ng + 1, sizeof(*tail));
	hists = xcalloc(ng + 1, sizeof(*hists));
	have_plots = plots_begin(&p) == 0;
	if (!have_plots)
		snprintf(why, sizeof(why), "no temporary directory for gnuplot");
	for (i = 0; i < ng && have_plots && !plots_stopped(&p); i++) {
		longterm_plots(&p, &g[i], i, &lt, &nlt);
		bars[i] = tail[i] = hists[i] = -1;
		if (!o->html_longterm) {
			bars[i] = plot_bars(&p, &g[i]);
			tail[i] = plot_tail(&p, &g[i]);
			hists[i] = g[i].loads ? plot_histograms(&p, &g[i]) : -1;
		}
		for (k = 0; k < g[i].n; k++) {
			for (j = 0; j < rs->n && rs->v[j] != g[i].v[k]; j++)
				;
			rp[j].hist = rp[j].time = -1;
			if (!run_plotted(o, &g[i], k))
				continue;
			rp[j].hist = plot_histogram(&p, g[i].v[k]);
			rp[j].time = plot_timeline(&p, g[i].v[k]);
		}
	}
	if (have_plots && !plots_stopped(&p) && plots_draw(&p, why, sizeof(why)) &&
	    !plots_stopped(&p))
		log_warn("%s: plots left out: %s; the tables are written", path, why);
	if (plots_stopped(&p))
		goto out;

	f = atomic_open(&af, path, err, sizeof(err));
	if (!f) {
		log_error("%s", err);
		goto out;
	}
	html_head(f, rs, ng, o, sys, nsys);
	if (*why) {
		fprintf(f, "<p class=\"warn\">Plots left out: ");
		html_escape(f, why);
		fprintf(f, "</p>\n");
	}
	for (i = 0; i < ng; i++) {
		struct rtable t;

		table_build(&g[i], o, &t);
		table_print_html(f, &t);
		table_free(&t);
		if (have_plots) {
			figure(f, &p, bars[i], &count);
			figure(f, &p, tail[i], &count);
			figure(f, &p, hists[i], &count);
			for (k = 0; k < g[i].n; k++) {
				for (j = 0; j < rs->n && rs->v[j] != g[i].v[k]; j++)
					;
				figure(f, &p, rp[j].hist, &count);
				figure(f, &p, rp[j].time, &count);
			}
			for (k = 0; k < nlt; k++)
				if (lt[k].group == i)
					figure(f, &p, lt[k].plot, &count);
		}
	}
	sources(f, rs, sys, nsys);
	fprintf(f, "</body>\n</html>\n");
	if (plots_stopped(&p)) {
		atomic_abort(&af);
		goto out;
	}
	if (atomic_commit(&af, err, sizeof(err))) {
		log_error("%s", err);
		goto out;
	}
	*nplots = count;
	ret = 0;
out:
	stopped = plots_stopped(&p);
	plots_end(&p);		/* also after a failed plots_begin() */
	if (stopped)
		ret = stopped;
	free(rp);
	free(lt);
	free(bars);
	free(tail);
	free(hists);
	groups_free(g, ng);
	return ret;
}
