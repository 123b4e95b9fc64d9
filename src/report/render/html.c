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

/* ---- the long-term page of a large history (rtlat report --db
 * --longterm --html) ---- */

static int env_text_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* test, series, board (a plot), then kernel, load (a line), then day */
static int env_cmp(const void *x, const void *y)
{
	const struct rdb_env_row *a = x, *b = y;
	int c;

	if ((c = env_text_cmp(a->test, b->test)) ||
	    (c = env_text_cmp(a->series, b->series)) ||
	    (c = env_text_cmp(a->board, b->board)) ||
	    (c = env_text_cmp(a->kernel, b->kernel)) ||
	    (c = env_text_cmp(a->load, b->load)))
		return c;
	return strcmp(a->day, b->day);
}

/* "2026-11-01" as seconds since the epoch (its 00:00 UTC), -1 if none */
static double day_seconds(const char *day)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!strptime(day, "%Y-%m-%d", &tm))
		return -1;
	return (double)timegm(&tm);
}

/* the start (Monday 00:00 UTC) of the week of @t */
static double week_start(double t)
{
	time_t s = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&s, &tm))
		return t;
	return t - 86400.0 * ((tm.tm_wday + 6) % 7);
}

/* Rows @r[0..n) (one plot's, sorted) as lines, merged per week with
 * @week: the number of lines in @l (n entries), of points in *@npts. */
static size_t env_lines(const struct rdb_env_row *r, size_t n, bool week,
			bool loads, struct env_line *l, size_t *npts)
{
	size_t i, nl = 0;

	*npts = 0;
	for (i = 0; i < n; i++) {
		struct env_line *e;
		double t = day_seconds(r[i].day);

		if (t < 0)
			continue;
		if (week)
			t = week_start(t);
		if (!nl || env_text_cmp(r[i].kernel, r[i - 1].kernel) ||
		    env_text_cmp(r[i].load, r[i - 1].load)) {
			e = &l[nl++];
			memset(e, 0, sizeof(*e));
			snprintf(e->name, sizeof(e->name), "%s%s%s",
				 r[i].kernel ? r[i].kernel : "kernel n/a",
				 loads ? ", load " : "", loads ? r[i].load : "");
			e->t = xcalloc(n - i, sizeof(*e->t));
			e->lo = xcalloc(n - i, sizeof(*e->lo));
			e->hi = xcalloc(n - i, sizeof(*e->hi));
			e->p999 = xcalloc(n - i, sizeof(*e->p999));
		}
		e = &l[nl - 1];
		if (e->n && e->t[e->n - 1] == t) {
			size_t k = e->n - 1;

			if (r[i].lo_ns < e->lo[k])
				e->lo[k] = r[i].lo_ns;
			if (r[i].hi_ns > e->hi[k])
				e->hi[k] = r[i].hi_ns;
			if (r[i].p99_9_ns > e->p999[k])
				e->p999[k] = r[i].p99_9_ns;
			continue;
		}
		e->t[e->n] = t;
		e->lo[e->n] = r[i].lo_ns;
		e->hi[e->n] = r[i].hi_ns;
		e->p999[e->n] = r[i].p99_9_ns;
		e->n++;
		(*npts)++;
	}
	return nl;
}

static void env_lines_free(struct env_line *l, size_t nl)
{
	size_t i;

	for (i = 0; i < nl; i++) {
		free(l[i].t);
		free(l[i].lo);
		free(l[i].hi);
		free(l[i].p999);
	}
}

/* The long-term page's text: its head, the summary, the plots @plot
 * (@nblk of them) of @p; the figures written in *@count. */
static void longterm_page(FILE *out, const struct rdb_summary *sum,
			  const struct out_opts *o, struct plots *p,
			  const int *plot, size_t nblk, bool week,
			  size_t points, const char *why, int *count)
{
	struct timespec ts;
	char now[32];
	size_t i;

	clock_gettime(CLOCK_REALTIME, &ts);
	fmt_utc(now, ts_to_ns(&ts));
	fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<title>rtlat long-term report</title>\n<style>%s</style>\n</head>\n<body>\n"
		"<h1>rtlat long-term report</h1>\n<p>%lld runs of the history in %zu groups, generated %s by rtlat %s. "
		"Aggregated by the database, never a point per run: per test and board, a plot with a line per kernel "
		"(and load), a point per %s (%zu points): the band is the least and the highest interval max of the "
		"%s's runs (a run without intervals counts its max), the dashed line their highest p99.9. "
		"Table in %s; plots in &micro;s.</p>\n",
		css, (long long)sum->runs, sum->n, now, RTLAT_VERSION,
		week ? "week (from Monday, UTC)" : "day (UTC)", points,
		week ? "week" : "day", o->unit_ns == 1000 ? "&micro;s" : "ns");
	if (*why) {
		fprintf(out, "<p class=\"warn\">Plots left out: ");
		html_escape(out, why);
		fprintf(out, "</p>\n");
	}
	fprintf(out, "<h2>Summary</h2>\n");
	summary_print_html(out, sum, o);
	fprintf(out, "<p>worst at: the first run with the worst max; max q1, q3: quartiles of the runs' maxima; "
		"p99.9: the highest; trend: the newer half of the runs against the older by compare's rule for "
		"repeated runs.</p>\n<h2>Over time</h2>\n");
	for (i = 0; i < nblk; i++)
		figure(out, p, plot[i], count);
	fprintf(out, "</body>\n</html>\n");
}

int html_longterm_db(const char *path, struct rdb_env_row *rows, size_t n,
		     const struct rdb_summary *sum, const struct out_opts *o,
		     int *nplots)
{
	struct atomic_file af;
	struct plots p;
	size_t i, j, k, nblk = 0, points = 0;
	int *plot = NULL, count = 0, ret = -1, stopped;
	char err[512], why[512] = "";
	bool have_plots, week;
	double first = -1, last = -1;
	FILE *out;

	*nplots = 0;
	qsort(rows, n, sizeof(*rows), env_cmp);
	for (i = 0; i < n; i++) {
		double t = day_seconds(rows[i].day);

		if (t >= 0 && (first < 0 || t < first))
			first = t;
		if (t > last)
			last = t;
	}
	/* over a quarter, a point per week: at most 53 a line a year */
	week = last - first > 92 * 86400.0;
	plot = xcalloc(n + 1, sizeof(*plot));
	have_plots = plots_begin(&p) == 0;
	if (!have_plots)
		snprintf(why, sizeof(why), "no temporary directory for gnuplot");
	for (i = 0; i < n && !plots_stopped(&p); i = j) {
		struct env_line *l;
		size_t nl, np, nr = 0;
		bool loads = false, ser;
		char title[400], cap[400];

		for (j = i + 1; j < n && !env_text_cmp(rows[j].test, rows[i].test) &&
		     !env_text_cmp(rows[j].series, rows[i].series) &&
		     !env_text_cmp(rows[j].board, rows[i].board); j++)
			;
		for (k = i; k < j; k++) {
			loads |= env_text_cmp(rows[k].load, rows[i].load) != 0;
			nr += (size_t)rows[k].runs;
		}
		plot[nblk] = -1;
		if (have_plots) {
			l = xcalloc(j - i, sizeof(*l));
			nl = env_lines(rows + i, j - i, week, loads, l, &np);
			/* the series when not the test's only one */
			ser = rows[i].series && rows[i].test &&
			      strcmp(rows[i].series, rows[i].test) != 0 &&
			      strcmp(rows[i].series, "latency") != 0;
			snprintf(title, sizeof(title), "%s%s%s%s%s on %s: interval maxima per %s",
				 rows[i].test ? rows[i].test : "n/a",
				 ser ? " " : "", ser ? rows[i].series : "",
				 loads ? "" : ", load ", loads ? "" : rows[i].load,
				 rows[i].board ? rows[i].board : "an unnamed board",
				 week ? "week" : "day");
			snprintf(cap, sizeof(cap), "long-term: %zu runs in %zu points (a %s each, %zu line%s), aggregated by the database",
				 nr, np, week ? "week" : "day", nl, nl == 1 ? "" : "s");
			plot[nblk] = plot_envelope(&p, title, cap, l, nl, week);
			env_lines_free(l, nl);
			free(l);
			points += np;
		}
		nblk++;
	}
	if (have_plots && !plots_stopped(&p) && plots_draw(&p, why, sizeof(why)) &&
	    !plots_stopped(&p))
		log_warn("%s: plots left out: %s; the tables are written", path, why);
	if (plots_stopped(&p))
		goto out;
	out = atomic_open(&af, path, err, sizeof(err));
	if (!out) {
		log_error("%s", err);
		goto out;
	}
	longterm_page(out, sum, o, &p, plot, have_plots ? nblk : 0, week,
		      points, why, &count);
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
	plots_end(&p);
	if (stopped)
		ret = stopped;
	free(plot);
	return ret;
}
