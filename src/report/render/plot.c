// SPDX-License-Identifier: GPL-2.0-or-later
/* gnuplot plots as SVG; see plot.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/label.h"
#include "util/timeutil.h"
#include "report/render/plot.h"

extern char **environ;

/* Largest SVG read back (a histogram of many buckets is a few 100 KB). */
#define PLOT_MAX_SVG (32u << 20)

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NCOLORS (sizeof(palette) / sizeof(palette[0]))

/*
 * A SIGINT, SIGTERM or SIGHUP while plots are made: the handler notes it
 * and kills gnuplot; the report then stops, plots_end() removes the
 * temporary directory and restores the actions, and the caller dies of
 * the signal (plots_stopped()). Nothing is left behind, nothing goes on.
 */
static const int plot_sigs[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGS (sizeof(plot_sigs) / sizeof(plot_sigs[0]))
static volatile sig_atomic_t plot_signal;
static volatile pid_t plot_child;
static struct sigaction plot_old[NSIGS];

static void plot_on_signal(int sig)
{
	int e = errno;

	if (!plot_signal)
		plot_signal = sig;
	if (plot_child > 0)
		kill(plot_child, SIGKILL);
	errno = e;
}

int plots_stopped(const struct plots *p)
{
	return plot_signal;
}

int plots_begin(struct plots *p)
{
	const char *tmp = getenv("TMPDIR");
	struct sigaction sa;
	size_t i;

	memset(p, 0, sizeof(*p));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = plot_on_signal;	/* no SA_RESTART: waitpid() returns */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&sa.sa_mask, plot_sigs[i]);
	plot_signal = 0;
	plot_child = 0;
	/* a signal ignored (nohup) stays ignored */
	for (i = 0; i < NSIGS; i++)
		if (!sigaction(plot_sigs[i], NULL, &plot_old[i]) &&
		    plot_old[i].sa_handler != SIG_IGN)
			sigaction(plot_sigs[i], &sa, NULL);
	p->handlers = true;
	snprintf(p->dir, sizeof(p->dir), "%s/rtlat-plot.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(p->dir)) {
		p->dir[0] = '\0';
		return -1;
	}
	return 0;
}

/* A string for a gnuplot single-quoted string ('' is a quote), control
 * characters as blanks (util/label.h). */
static void gp_str_put(FILE *f, char c)
{
	if (c == '\'')
		fputc('\'', f);
	fputc(c, f);
}

static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	text_write(f, s, gp_str_put);
	fputc('\'', f);
}

/* A label inside a data block: double-quoted, no quotes or control
 * characters. */
static void gp_label_put(FILE *f, char c)
{
	fputc(c == '"' ? '\'' : c, f);
}

static void gp_label(FILE *f, const char *s)
{
	fputc('"', f);
	text_write(f, s, gp_label_put);
	fputc('"', f);
}

static double us(double ns)
{
	return ns / 1000.0;
}

/* Open the script of plot number p->n: terminal, output and title. */
static int plot_start(struct plots *p, const char *title, const char *caption)
{
	char path[96];
	FILE *f;

	snprintf(path, sizeof(path), "%s/p%d.gp", p->dir, p->n);
	f = fopen(path, "w");
	if (!f)
		return -1;
	p->script = f;
	fprintf(f, "set encoding utf8\nset datafile missing 'NaN'\n");
	fprintf(f, "reset\nset terminal svg size 760,380 dynamic font 'sans,11' background '#ffffff'\n");
	fprintf(f, "set output '%s/p%d.svg'\nset title ", p->dir, p->n);
	gp_str(f, title);
	fprintf(f, " noenhanced\nset key noenhanced\nset grid ytics\n");
	p->caption = xrealloc(p->caption, (size_t)(p->n + 1) * sizeof(*p->caption));
	p->caption[p->n] = xstrdup(caption);
	return p->n++;
}

static void plot_close(struct plots *p)
{
	fprintf(p->script, "unset output\n");
	if (fclose(p->script))
		p->svg_failed = true;
	p->script = NULL;
}

/* Open a plot of group @g titled "<group title>: @what". */
static int group_plot_start(struct plots *p, const struct group *g,
			    const char *what, const char *caption)
{
	char title[320], gt[192];

	group_title(gt, sizeof(gt), g);
	snprintf(title, sizeof(title), "%s: %s", gt, what);
	return plot_start(p, title, caption);
}

/* What the figures of @series are, for axis labels: "latency", or the
 * cruncher's "deviation" (computation time - ideal). */
static const char *quantity(const char *series)
{
	return series && !strcmp(series, "deviation") ? "deviation" : "latency";
}

/* The name of run @r of @g in a legend or on an axis: its label, and in
 * a group of several loads the load: "vm (without load)". */
static void run_name(char *buf, size_t len, const struct group *g,
		     const struct rep_run *r)
{
	char l[96];

	if (!g->loads) {
		snprintf(buf, len, "%s", r->label);
		return;
	}
	load_title(l, sizeof(l), r->load);
	snprintf(buf, len, "%s (%s)", r->label, l);
}

/* Plot data block $@tag@n_@i (run @i of @g) with @style in the run's
 * colour, named after the run; @first: the first of the plot command. */
static void run_line(FILE *f, bool first, char tag, int n, size_t i,
		     const char *style, const struct group *g)
{
	char name[256];

	fprintf(f, "%s$%c%d_%zu using 1:2 with %s lc rgb '%s' title ",
		first ? "" : ", ", tag, n, i, style, palette[i % NCOLORS]);
	run_name(name, sizeof(name), g, g->v[i]);
	gp_str(f, name);
}

int plot_histogram(struct plots *p, const struct rep_run *r)
{
	const struct rep_series *s = &r->sum;
	const struct rep_hist *h = &s->hist;
	char title[256], mx[32], extra[96] = "";
	size_t i;
	FILE *f;
	int n;

	if (!h->n || !s->has_stats)
		return -1;
	if (h->overflow || h->underflow)
		snprintf(extra, sizeof(extra), " (%" PRIu64 " below, %" PRIu64 " beyond the histogram)",
			 h->underflow, h->overflow);
	snprintf(title, sizeof(title), "%s: %s histogram, max %s µs%s", r->label,
		 r->test, fmt_us3(mx, s->max), extra);
	n = plot_start(p, title, "histogram");
	if (n < 0)
		return -1;
	f = p->script;
	fprintf(f, "$h%d << EOD\n", n);
	for (i = 0; i < h->n; i++) {
		double lo = (double)h->b[i].lo, hi = (double)h->b[i].hi + 1;

		fprintf(f, "%.4f %" PRIu64 " %.4f\n", us((lo + hi) / 2),
			h->b[i].count, us(hi - lo));
	}
	fprintf(f, "EOD\n");
	/* long tails: a log time axis keeps the body of the histogram visible */
	if (h->b[0].lo > 0 && h->b[h->n - 1].hi > 50 * h->b[0].lo)
		fprintf(f, "set logscale x\n");
	fprintf(f, "set logscale y\nset yrange [0.8:*]\nset xlabel '%s (µs)'\n"
		"set ylabel 'samples (log scale)'\nset style fill solid 0.7 noborder\n"
		"set arrow 1 from %.4f, graph 0 to %.4f, graph 1 nohead lc rgb '#d62728' dt 2\n"
		"plot $h%d using 1:2:3 with boxes lc rgb '%s' title 'samples'\n",
		quantity(r->series), us((double)s->max), us((double)s->max), n,
		palette[0]);
	plot_close(p);
	return n;
}

int plot_timeline(struct plots *p, const struct rep_run *r)
{
	const struct rep_series *s = &r->sum;
	char title[256], len[32];
	size_t i, k = 0, k2 = 0;
	bool positive = true;
	int64_t top = 0;
	double bottom = 0;
	FILE *f;
	int n;

	for (i = 0; i < s->nint; i++)
		k += s->iv[i].has_stats;
	if (k < 2)
		return -1;
	snprintf(title, sizeof(title), "%s: %s over time (per %s interval)",
		 r->label, r->test,
		 s->iv[0].len_ns > 0 ? fmt_time(len, s->iv[0].len_ns) : "reported");
	n = plot_start(p, title, "latency over time");
	if (n < 0)
		return -1;
	f = p->script;
	fprintf(f, "$t%d << EOD\n", n);
	for (i = 0; i < s->nint; i++) {
		const struct rep_interval *iv = &s->iv[i];
		double t0 = (double)iv->start_ns / 1e9;
		double t1 = (double)(iv->start_ns + (iv->len_ns > 0 ? iv->len_ns : 0)) / 1e9;

		if (!iv->has_stats) {
			fprintf(f, "\n");	/* a gap */
			continue;
		}
		if (iv->min <= 0)
			positive = false;
		if (!k2++ || iv->max > top)
			top = iv->max;
		if (k2 == 1 || iv->avg < bottom)
			bottom = iv->avg;
		/* each interval as a level from its start to its end */
		fprintf(f, "%.3f %.3f %.3f %.3f\n%.3f %.3f %.3f %.3f\n",
			t0, us((double)iv->min), us(iv->avg), us((double)iv->max),
			t1, us((double)iv->min), us(iv->avg), us((double)iv->max));
	}
	fprintf(f, "EOD\n");
	if (positive && bottom > 0 && (double)top > 20 * bottom)
		fprintf(f, "set logscale y\n");
	/* the legend below the plot, never over the lines */
	fprintf(f, "set xlabel 'time (s)'\nset ylabel '%s (µs)'\n"
		"set key below horizontal\n"
		"plot $t%d using 1:4 with lines lc rgb '%s' title 'max', "
		"'' using 1:3 with lines lc rgb '%s' title 'avg', "
		"'' using 1:2 with lines lc rgb '%s' title 'min'\n",
		quantity(r->series), n, palette[1], palette[0], palette[2]);
	plot_close(p);
	return n;
}

/* Percentile @k of @s is a value to draw (known, not a lower bound). */
static bool pct_point(const struct rep_series *s, int k)
{
	return s->has_pct[k] && !s->pct_bound[k];
}

int plot_tail(struct plots *p, const struct group *g)
{
	char what[64];
	size_t i, used = 0;
	bool positive = true;
	FILE *f;
	int n, k;

	/* a percentile that is only a lower bound (its rank is in the
	 * histogram's overflow) is no point of the curve */
	for (i = 0; i < g->n; i++) {
		for (k = 0; k < RTLAT_NPCT; k++)
			if (pct_point(&g->v[i]->sum, k) && g->v[i]->sum.pct[k] <= 0)
				positive = false;
		for (k = 1; k < RTLAT_NPCT; k++)
			if (pct_point(&g->v[i]->sum, k)) {
				used++;
				break;
			}
	}
	if (!used)
		return -1;
	snprintf(what, sizeof(what), "%s percentiles (tail)",
		 quantity(g->series));
	n = group_plot_start(p, g, what, "tail");
	if (n < 0)
		return -1;
	f = p->script;
	for (i = 0; i < g->n; i++) {
		const struct rep_series *s = &g->v[i]->sum;

		fprintf(f, "$q%d_%zu << EOD\n", n, i);
		for (k = 0; k < RTLAT_NPCT; k++)
			if (pct_point(s, k))
				fprintf(f, "%" PRIu64 " %.4f\n",
					rtlat_percentiles[k].den_inv,
					us((double)s->pct[k]));
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set logscale x\nset xrange [1.5:2e6]\n"
		"set xtics ('p50' 2, 'p90' 10, 'p99' 100, 'p99.9' 1000, "
		"'p99.99' 10000, 'p99.999' 100000, 'p99.9999' 1000000)\n"
		"set xlabel 'percentile'\nset ylabel '%s (µs%s)'\n"
		"set key below horizontal\n%s"
		"plot ", quantity(g->series), positive ? ", log scale" : "",
		positive ? "set logscale y\n" : "");
	for (i = 0, k = 0; i < g->n; i++) {
		const struct rep_series *s = &g->v[i]->sum;
		int j, have = 0;

		for (j = 0; j < RTLAT_NPCT; j++)
			have += pct_point(s, j);
		if (!have)
			continue;
		run_line(f, !k++, 'q', n, i, "linespoints", g);
	}
	fprintf(f, "\n");
	plot_close(p);
	return n;
}

/* --- long-term view ---------------------------------------------------- */

/* "2026-12-01T13:59:52.740Z" (rtlat's start_time: ISO 8601 UTC) as
 * seconds since the epoch; false when it is not one. */
static bool iso_seconds(const char *t, double *out)
{
	struct tm tm;
	const char *rest;
	double frac = 0;

	if (!t)
		return false;
	memset(&tm, 0, sizeof(tm));
	rest = strptime(t, "%Y-%m-%dT%H:%M:%S", &tm);
	if (!rest)
		return false;
	if (*rest == '.')
		frac = strtod(rest, NULL);
	*out = (double)timegm(&tm) + frac;
	return true;
}


/* The runs of @g on @board with a start time, in start order: their
 * indexes into g->v in @idx (g->n entries); returns how many. */
static size_t board_runs(const struct group *g, const char *board,
			 size_t *idx, double *start)
{
	size_t i, j, n = 0;

	for (i = 0; i < g->n; i++) {
		double t;

		if (!str_same(g->v[i]->board, board) ||
		    !iso_seconds(g->v[i]->start_time, &t))
			continue;
		for (j = n; j > 0 && start[j - 1] > t; j--) {
			start[j] = start[j - 1];
			idx[j] = idx[j - 1];
		}
		start[j] = t;
		idx[j] = i;
		n++;
	}
	return n;
}

/* The line a run goes on: its kernel, and its load in a group of several
 * loads: "6.1.0-rt (with load hell)". */
static void line_key(char *buf, size_t len, const struct group *g,
		     const struct rep_run *r)
{
	char l[96];

	if (!g->loads) {
		snprintf(buf, len, "%s", r->kernel ? r->kernel : "unknown kernel");
		return;
	}
	load_title(l, sizeof(l), r->load);
	snprintf(buf, len, "%s (%s)", r->kernel ? r->kernel : "unknown kernel", l);
}

/* The distinct line keys of runs @idx (@n of them), into @keys (each
 * run's key index in @of); returns how many keys. */
static size_t line_keys(const struct group *g, const size_t *idx, size_t n,
			char (*keys)[160], size_t *of)
{
	size_t i, k, nk = 0;

	for (i = 0; i < n; i++) {
		char key[160];

		line_key(key, sizeof(key), g, g->v[idx[i]]);
		for (k = 0; k < nk && strcmp(keys[k], key) != 0; k++)
			;
		if (k == nk)
			snprintf(keys[nk++], sizeof(keys[0]), "%s", key);
		of[i] = k;
	}
	return nk;
}

/* The runs of @g on one board over time, in start order, and the line
 * (kernel, load) each goes on. */
struct lt_runs {
	size_t n, nk;
	size_t *idx;		/* into g->v */
	size_t *of;		/* its line */
	double *start;		/* s since the epoch */
	char (*keys)[160];	/* the lines' names */
};

static void lt_runs_get(struct lt_runs *l, const struct group *g,
			const char *board)
{
	l->idx = xcalloc(g->n + 1, sizeof(*l->idx));
	l->of = xcalloc(g->n + 1, sizeof(*l->of));
	l->start = xcalloc(g->n + 1, sizeof(*l->start));
	l->keys = xcalloc(g->n + 1, sizeof(*l->keys));
	l->n = board_runs(g, board, l->idx, l->start);
	l->nk = line_keys(g, l->idx, l->n, l->keys, l->of);
}

static void lt_runs_free(struct lt_runs *l)
{
	free(l->idx);
	free(l->of);
	free(l->start);
	free(l->keys);
}

/*
 * Time axis of a long-term plot (UTC), its labels as fine as the span of
 * @l's runs needs, so that no two ticks read the same: a date and hours
 * over days, hours and minutes within two days (the date in the axis
 * title when it is one), with seconds within an hour.
 */
static void time_axis(FILE *f, const struct lt_runs *l, const struct group *g)
{
	double span = 0;
	const char *fmt = "%Y-%m-%d\\n%H:%M";
	char day[16] = "", title[48];
	time_t t0;
	struct tm tm;

	if (l->n) {
		const struct rep_run *last = g->v[l->idx[l->n - 1]];

		span = l->start[l->n - 1] - l->start[0] +
		       (last->duration_ns > 0 ? (double)last->duration_ns / 1e9 : 0);
		t0 = (time_t)l->start[0];
		if (gmtime_r(&t0, &tm))
			strftime(day, sizeof(day), "%Y-%m-%d", &tm);
	}
	if (span <= 3600)
		fmt = "%H:%M:%S";
	else if (span <= 2 * 86400)
		fmt = "%H:%M";
	snprintf(title, sizeof(title), "time (UTC%s%s)",
		 span <= 2 * 86400 && day[0] ? ", from " : "",
		 span <= 2 * 86400 ? day : "");
	fprintf(f, "set xdata time\nset timefmt '%%s'\nset format x \"");
	fputs(fmt, f);
	fprintf(f, "\" timedate\nset xlabel '%s'\nset key below horizontal\n",
		title);
}

int plot_longterm(struct plots *p, const struct group *g, const char *board)
{
	struct lt_runs l;
	char what[320], cap[320];
	size_t i, k, npoints = 0;
	int pn = -1;
	FILE *f;

	lt_runs_get(&l, g, board);
	for (i = 0; i < l.n; i++)
		for (k = 0; k < g->v[l.idx[i]]->sum.nint; k++)
			npoints += g->v[l.idx[i]]->sum.iv[k].has_stats;
	if (l.n < 2 || !npoints)
		goto out;
	snprintf(what, sizeof(what), "interval maxima over time on %s",
		 board ? board : "an unnamed board");
	snprintf(cap, sizeof(cap), "long-term: interval maxima of %zu runs, %zu interval%s, %zu line%s",
		 l.n, npoints, npoints == 1 ? "" : "s", l.nk, l.nk == 1 ? "" : "s");
	pn = group_plot_start(p, g, what, cap);
	if (pn < 0)
		goto out;
	f = p->script;
	for (k = 0; k < l.nk; k++) {
		fprintf(f, "$L%d_%zu << EOD\n", pn, k);
		for (i = 0; i < l.n; i++) {
			const struct rep_series *s = &g->v[l.idx[i]]->sum;
			size_t j;

			if (l.of[i] != k)
				continue;
			for (j = 0; j < s->nint; j++)
				if (s->iv[j].has_stats)
					fprintf(f, "%.3f %.4f\n", l.start[i] +
						(double)s->iv[j].start_ns / 1e9,
						us((double)s->iv[j].max));
			fprintf(f, "\n");	/* runs apart */
		}
		fprintf(f, "EOD\n");
	}
	time_axis(f, &l, g);
	fprintf(f, "set ylabel 'interval max (µs)'\nplot ");
	for (k = 0; k < l.nk; k++) {
		fprintf(f, "%s$L%d_%zu using 1:2 with linespoints pt 7 ps 0.4 lc rgb '%s' title ",
			k ? ", " : "", pn, k, palette[k % NCOLORS]);
		gp_str(f, l.keys[k]);
	}
	fprintf(f, "\n");
	plot_close(p);
out:
	lt_runs_free(&l);
	return pn;
}

int plot_over_runs(struct plots *p, const struct group *g, const char *board)
{
	struct lt_runs l;
	char what[320], cap[320];
	size_t i, k, nmax = 0, np = 0;
	int pn = -1, q = -1, j;
	FILE *f;

	for (j = 0; j < RTLAT_NPCT; j++)
		if (!strcmp(rtlat_percentiles[j].name, "p99.9"))
			q = j;
	lt_runs_get(&l, g, board);
	for (i = 0; i < l.n; i++) {
		nmax += g->v[l.idx[i]]->sum.has_stats;
		np += q >= 0 && pct_point(&g->v[l.idx[i]]->sum, q);
	}
	if (l.n < 2 || !nmax)
		goto out;
	snprintf(what, sizeof(what), "max and p99.9 over runs on %s",
		 board ? board : "an unnamed board");
	snprintf(cap, sizeof(cap), "long-term: max of %zu runs, p99.9 of %zu, %zu line%s",
		 nmax, np, l.nk, l.nk == 1 ? "" : "s");
	pn = group_plot_start(p, g, what, cap);
	if (pn < 0)
		goto out;
	f = p->script;
	for (k = 0; k < l.nk; k++) {
		fprintf(f, "$R%d_%zu << EOD\n", pn, k);
		for (i = 0; i < l.n; i++) {
			const struct rep_series *s = &g->v[l.idx[i]]->sum;

			if (l.of[i] != k || !s->has_stats)
				continue;
			fprintf(f, "%.3f %.4f ", l.start[i], us((double)s->max));
			if (q >= 0 && pct_point(s, q))
				fprintf(f, "%.4f\n", us((double)s->pct[q]));
			else
				fprintf(f, "NaN\n");
		}
		fprintf(f, "EOD\n");
	}
	time_axis(f, &l, g);
	fprintf(f, "set ylabel 'latency (µs)'\nplot ");
	for (k = 0; k < l.nk; k++) {
		char t[200];

		fprintf(f, "%s$R%d_%zu using 1:2 with linespoints pt 7 lc rgb '%s' title ",
			k ? ", " : "", pn, k, palette[k % NCOLORS]);
		snprintf(t, sizeof(t), "%s max", l.keys[k]);
		gp_str(f, t);
		fprintf(f, ", $R%d_%zu using 1:3 with linespoints pt 6 dt 2 lc rgb '%s' title ",
			pn, k, palette[k % NCOLORS]);
		snprintf(t, sizeof(t), "%s p99.9", l.keys[k]);
		gp_str(f, t);
	}
	fprintf(f, "\n");
	plot_close(p);
out:
	lt_runs_free(&l);
	return pn;
}

int plot_bars(struct plots *p, const struct group *g)
{
	size_t i, known = 0, p999 = 0;
	FILE *f;
	int n;

	for (i = 0; i < g->n; i++) {
		known += g->v[i]->sum.has_stats;
		p999 += pct_point(&g->v[i]->sum, PCT_P999);
	}
	if (!known)
		return -1;
	n = group_plot_start(p, g, p999 ? "max and p99.9 per run" : "max per run",
			     p999 ? "max and p99.9" : "max");
	if (n < 0)
		return -1;
	f = p->script;
	fprintf(f, "$b%d << EOD\n", n);
	for (i = 0; i < g->n; i++) {
		const struct rep_series *s = &g->v[i]->sum;
		char name[256];

		run_name(name, sizeof(name), g, g->v[i]);
		gp_label(f, name);
		if (s->has_stats)
			fprintf(f, " %.4f", us((double)s->max));
		else
			fprintf(f, " NaN");
		if (pct_point(s, PCT_P999))
			fprintf(f, " %.4f\n", us((double)s->pct[PCT_P999]));
		else
			fprintf(f, " NaN\n");
	}
	fprintf(f, "EOD\n");
	fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
		"set style fill solid 0.8 noborder\nset boxwidth 0.9\n"
		"set xtics rotate by -25 noenhanced\nset ylabel '%s (µs)'\n"
		"set yrange [0:*]\nset key below horizontal\n"
		"plot $b%d using 2:xtic(1) lc rgb '%s' title 'max'",
		quantity(g->series), n, palette[1]);
	if (p999)
		fprintf(f, ", '' using 3 lc rgb '%s' title 'p99.9'", palette[0]);
	fprintf(f, "\n");
	plot_close(p);
	return n;
}

int plot_histograms(struct plots *p, const struct group *g)
{
	char what[64];
	size_t i, k = 0, used = 0;
	int64_t lo = 0, hi = 0;
	FILE *f;
	int n;

	for (i = 0; i < g->n; i++) {
		const struct rep_series *s = &g->v[i]->sum;

		if (!s->hist.n || !s->has_stats)
			continue;
		if (!used++ || s->hist.b[0].lo < lo)
			lo = s->hist.b[0].lo;
		if (s->hist.b[s->hist.n - 1].hi > hi)
			hi = s->hist.b[s->hist.n - 1].hi;
	}
	if (used < 2)
		return -1;
	snprintf(what, sizeof(what), "%s histograms", quantity(g->series));
	n = group_plot_start(p, g, what, "histograms by load");
	if (n < 0)
		return -1;
	f = p->script;
	for (i = 0; i < g->n; i++) {
		const struct rep_hist *h = &g->v[i]->sum.hist;
		size_t j;

		if (!h->n || !g->v[i]->sum.has_stats)
			continue;
		fprintf(f, "$o%d_%zu << EOD\n", n, i);
		for (j = 0; j < h->n; j++) {
			double a = (double)h->b[j].lo, b = (double)h->b[j].hi + 1;

			fprintf(f, "%.4f %" PRIu64 "\n", us((a + b) / 2),
				h->b[j].count);
		}
		fprintf(f, "EOD\n");
	}
	if (lo > 0 && hi > 50 * lo)
		fprintf(f, "set logscale x\n");
	fprintf(f, "set logscale y\nset yrange [0.8:*]\nset xlabel '%s (µs)'\n"
		"set ylabel 'samples (log scale)'\nset key below horizontal\nplot ",
		quantity(g->series));
	for (i = 0; i < g->n; i++) {
		if (!g->v[i]->sum.hist.n || !g->v[i]->sum.has_stats)
			continue;
		run_line(f, !k++, 'o', n, i, "steps lw 1.5", g);
	}
	fprintf(f, "\n");
	plot_close(p);
	return n;
}

/* Read @path into a string, prefixing the SVG's ids with "p@n_". */
static char *read_svg(const char *path, int n)
{
	static const char *const pat[] = {
		"id='", "id=\"", "href='#", "href=\"#", "url(#",
	};
	char *buf, *svg, *out, *w, pfx[16];
	size_t len = 0, cap, i, k, plen;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	buf = xmalloc(PLOT_MAX_SVG + 1);
	len = fread(buf, 1, PLOT_MAX_SVG, f);
	fclose(f);
	buf[len] = '\0';
	svg = strstr(buf, "<svg");
	if (!svg || !strstr(svg, "</svg>")) {
		free(buf);
		return NULL;
	}
	plen = (size_t)snprintf(pfx, sizeof(pfx), "p%d_", n);
	cap = 2 * len + 64;
	out = w = xmalloc(cap);
	for (i = 0; svg[i];) {
		for (k = 0; k < sizeof(pat) / sizeof(pat[0]); k++) {
			size_t pl = strlen(pat[k]);

			if (!strncmp(svg + i, pat[k], pl) &&
			    (size_t)(w - out) + pl + plen < cap) {
				memcpy(w, pat[k], pl);
				w += pl;
				memcpy(w, pfx, plen);
				w += plen;
				i += pl;
				break;
			}
		}
		if (k < sizeof(pat) / sizeof(pat[0]))
			continue;
		if ((size_t)(w - out) + 1 >= cap)
			break;
		*w++ = svg[i++];
	}
	*w = '\0';
	free(buf);
	return out;
}

/* Run gnuplot on @script. Returns its exit status, 127 when it could not
 * be started (errno-like code in *@err), -1 when killed. */
static int run_gnuplot(const char *gp, const char *script, const char *log,
		       int *err)
{
	posix_spawn_file_actions_t fa;
	char *argv[3];
	int status, rc;
	pid_t pid;

	argv[0] = (char *)gp;
	argv[1] = (char *)script;
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	/* gnuplot's chatter goes to a log shown only when it fails */
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, log, O_WRONLY | O_CREAT | O_TRUNC,
					 0600);
	if (plot_signal)
		return -1;
	rc = posix_spawnp(&pid, gp, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	*err = rc;
	if (rc)
		return 127;
	plot_child = pid;
	if (plot_signal)		/* came before plot_child was set */
		kill(pid, SIGKILL);
	/* reaped in every case: after a signal, the handler killed it */
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			*err = errno;
			plot_child = 0;
			return -1;
		}
	}
	plot_child = 0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* First line of @path into @buf. */
static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

int plots_draw(struct plots *p, char *why, size_t len)
{
	const char *gp = getenv("GNUPLOT");
	char all[96], log[96], msg[200];
	int i, rc, err = 0, failed = 0;
	FILE *f;

	if (!gp || !*gp)
		gp = "gnuplot";
	p->svg = xcalloc((size_t)p->n + 1, sizeof(*p->svg));
	if (!p->n)
		return 0;
	if (p->svg_failed) {
		snprintf(why, len, "cannot write the gnuplot scripts");
		return -1;
	}
	/* one gnuplot for all plots */
	snprintf(all, sizeof(all), "%s/all.gp", p->dir);
	snprintf(log, sizeof(log), "%s/gnuplot.log", p->dir);
	f = fopen(all, "w");
	if (!f) {
		snprintf(why, len, "cannot write the gnuplot script");
		return -1;
	}
	for (i = 0; i < p->n; i++)
		fprintf(f, "load '%s/p%d.gp'\n", p->dir, i);
	if (fclose(f)) {
		snprintf(why, len, "cannot write the gnuplot script");
		return -1;
	}
	rc = run_gnuplot(gp, all, log, &err);
	if (plot_signal) {
		snprintf(why, len, "interrupted by a signal");
		return -1;
	}
	if (rc == 127) {
		snprintf(why, len, "%s: %s (install gnuplot-nox, or set GNUPLOT to its path)",
			 gp, err ? strerror(err) : "not found");
		return -1;
	}
	for (i = 0; i < p->n; i++) {
		char path[96], script[96];

		snprintf(path, sizeof(path), "%s/p%d.svg", p->dir, i);
		p->svg[i] = read_svg(path, i);
		if (p->svg[i] || !rc)
			goto check;
		/* a plot gnuplot refused stopped the rest: draw each missing
		 * plot on its own */
		snprintf(script, sizeof(script), "%s/p%d.gp", p->dir, i);
		if (!plot_signal && run_gnuplot(gp, script, log, &err) == 0)
			p->svg[i] = read_svg(path, i);
check:
		if (!p->svg[i] && !failed++) {
			first_line(log, msg, sizeof(msg));
			snprintf(why, len, "gnuplot could not draw the %s plot (%s)",
				 p->caption[i], *msg ? msg : "no SVG written");
		}
	}
	return failed ? -1 : 0;
}

void plots_end(struct plots *p)
{
	DIR *d;
	struct dirent *de;
	size_t k;
	int i;

	if (p->script)
		fclose(p->script);
	d = p->dir[0] ? opendir(p->dir) : NULL;
	if (d) {
		while ((de = readdir(d))) {
			char path[400];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", p->dir, de->d_name);
			unlink(path);
		}
		closedir(d);
		rmdir(p->dir);
	}
	for (i = 0; p->svg && i < p->n; i++)
		free(p->svg[i]);
	for (i = 0; p->caption && i < p->n; i++)
		free(p->caption[i]);
	free(p->svg);
	free(p->caption);
	if (p->handlers)
		for (k = 0; k < NSIGS; k++)
			sigaction(plot_sigs[k], &plot_old[k], NULL);
	memset(p, 0, sizeof(*p));
}

int plot_envelope(struct plots *p, const char *title, const char *caption,
		  const struct env_line *l, size_t nl, bool week)
{
	size_t k, i, npts = 0;
	FILE *f;
	int pn;

	for (k = 0; k < nl; k++)
		npts += l[k].n;
	if (!npts)
		return -1;
	pn = plot_start(p, title, caption);
	if (pn < 0)
		return -1;
	f = p->script;
	for (k = 0; k < nl; k++) {
		fprintf(f, "$E%d_%zu << EOD\n", pn, k);
		for (i = 0; i < l[k].n; i++) {
			fprintf(f, "%.0f %.4f %.4f ", l[k].t[i], us((double)l[k].lo[i]),
				us((double)l[k].hi[i]));
			if (l[k].p999[i] >= 0)
				fprintf(f, "%.4f\n", us((double)l[k].p999[i]));
			else
				fprintf(f, "NaN\n");
		}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set xdata time\nset timefmt '%%s'\nset format x \"%%Y-%%m-%%d\" timedate\n"
		"set xlabel 'time (UTC, a point per %s)'\nset key below horizontal\n"
		"set ylabel 'latency (µs)'\nplot ", week ? "week from Monday" : "day");
	for (k = 0; k < nl; k++) {
		char t[260];

		fprintf(f, "%s$E%d_%zu using 1:2:3 with filledcurves fs transparent solid 0.25 noborder lc rgb '%s' title ",
			k ? ", " : "", pn, k, palette[k % NCOLORS]);
		snprintf(t, sizeof(t), "%s interval max (least..highest)", l[k].name);
		gp_str(f, t);
		fprintf(f, ", $E%d_%zu using 1:3 with lines lw 1 lc rgb '%s' notitle",
			pn, k, palette[k % NCOLORS]);
		fprintf(f, ", $E%d_%zu using 1:4 with lines dt 2 lc rgb '%s' title ",
			pn, k, palette[k % NCOLORS]);
		snprintf(t, sizeof(t), "%s p99.9 (highest)", l[k].name);
		gp_str(f, t);
	}
	fprintf(f, "\n");
	plot_close(p);
	return pn;
}
