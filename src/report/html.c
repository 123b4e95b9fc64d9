// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report: one self-contained page (no external file, script or
 * style sheet) with the tables and the gnuplot plots inlined as SVG:
 * per table a bar chart of max and p99.9 per run and a tail (percentile)
 * plot, per run a histogram with log-scale counts and the latency over
 * time from the interval series.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/log.h"
#include "core/outfile.h"
#include "core/timeutil.h"
#include "report/plot.h"
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

static void sources(FILE *f, const struct rep_runs *rs)
{
	size_t i;

	fprintf(f, "<h2>Runs</h2>\n<dl>\n");
	for (i = 0; i < rs->n; i++) {
		const struct rep_run *r = rs->v[i];
		char b[32];

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
			fprintf(f, ", %s", fmt_hms(b, r->duration_ns));
		if (r->sum.has_samples)
			fprintf(f, ", %" PRIu64 " samples", r->sum.samples);
		if (r->system && *r->system) {
			fprintf(f, "<br>");
			html_escape(f, r->system);
		}
		fprintf(f, "</dd>\n");
	}
	fprintf(f, "</dl>\n");
}

int html_report(const char *path, const struct rep_runs *rs,
		const struct out_opts *o, int *nplots)
{
	struct run_plots *rp = xcalloc(rs->n + 1, sizeof(*rp));
	int *bars, *tail, count = 0, ret = -1;
	char err[512], why[512] = "", now[32];
	struct atomic_file af;
	struct plots p;
	struct group *g;
	size_t ng, i, k, j;
	bool have_plots;
	FILE *f;

	*nplots = 0;
	ng = groups_make(rs, &g);
	bars = xcalloc(ng + 1, sizeof(*bars));
	tail = xcalloc(ng + 1, sizeof(*tail));
	have_plots = plots_begin(&p) == 0;
	if (!have_plots)
		snprintf(why, sizeof(why), "no temporary directory for gnuplot");
	for (i = 0; i < ng && have_plots; i++) {
		bars[i] = plot_bars(&p, &g[i]);
		tail[i] = plot_tail(&p, &g[i]);
		for (k = 0; k < g[i].n; k++) {
			for (j = 0; j < rs->n && rs->v[j] != g[i].v[k]; j++)
				;
			rp[j].hist = plot_histogram(&p, g[i].v[k]);
			rp[j].time = plot_timeline(&p, g[i].v[k]);
		}
	}
	if (have_plots && plots_draw(&p, why, sizeof(why)))
		log_warn("%s: plots left out: %s; the tables are written", path, why);

	f = atomic_open(&af, path, err, sizeof(err));
	if (!f) {
		log_error("%s", err);
		goto out;
	}
	{
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		fmt_utc(now, ts_to_ns(&ts));
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>rtlat report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>rtlat report</h1>\n<p>%zu run%s in %zu table%s, generated %s by rtlat %s. "
		"Latencies in %s; plots in &micro;s.</p>\n",
		css, rs->n, rs->n == 1 ? "" : "s", ng, ng == 1 ? "" : "s", now,
		RTLAT_VERSION, o->unit_ns == 1000 ? "&micro;s" : "ns");
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
			for (k = 0; k < g[i].n; k++) {
				for (j = 0; j < rs->n && rs->v[j] != g[i].v[k]; j++)
					;
				figure(f, &p, rp[j].hist, &count);
				figure(f, &p, rp[j].time, &count);
			}
		}
	}
	sources(f, rs);
	fprintf(f, "</body>\n</html>\n");
	if (atomic_commit(&af, err, sizeof(err))) {
		log_error("%s", err);
		goto out;
	}
	*nplots = count;
	ret = 0;
out:
	if (have_plots)
		plots_end(&p);
	free(rp);
	free(bars);
	free(tail);
	groups_free(g, ng);
	return ret;
}
