// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Xenomai testsuite logs (latency, klatency, switch) and rtlat's own text
 * output, which speaks the same line protocol:
 *
 *   == Sampling period: 100 us          == All results in microseconds
 *   RTT|  00:00:01  (periodic user-mode task, 100 us period, priority 99)
 *   RTH|----lat min|----lat avg|----lat max|-overrun|---msw|---lat best|...
 *   RTD|      1.393|      2.908|     21.765|       0|     0|      1.393|...
 *   HSD|    avg| 12 - 13 |      1234      (histogram, 1 us buckets)
 *   HSS|    avg|    599943|      2.200|      1.460
 *   RTS|      1.175|      2.955|    374.075|      40|     0|    00:01:00/00:01:00
 *   RTP| p50 | ... and values (rtlat)
 *
 * RTS lines are positional (min, avg, max, then the overrun or lost count
 * if there is one before the time field); rtlat's --trace columns after
 * the time field are skipped, a label may follow them.
 *
 * Figures with a decimal point are microseconds (Xenomai >= 2.1, rtlat);
 * integers are nanoseconds (Xenomai 2.0) unless the log says "All results
 * in microseconds" or --input-unit says otherwise. Columns are taken by
 * name from the RTH header. The overrun (or lost) column is cumulative.
 * Hand-edited logs may end data lines with a label ("... 0 iPipe 1.0-00")
 * and carry section headings ("LATENCY with load:"); a change of label
 * starts a new run, an RTS line ends one (unless labelled "cpu N": rtlat's
 * per-sampler summary). A data line that cannot be read (console noise) is
 * skipped with a warning; a number out of range is an error.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "report/import/import.h"

#define XN_MAXCOL 16

enum xcol { XC_OTHER, XC_MIN, XC_AVG, XC_MAX, XC_MISS };

struct xstate {
	struct imp_ctx *c;
	unsigned line;
	int64_t unit;		/* ns per unit-less figure */
	char kind[32];		/* from a heading or the test mode */
	char load[64];		/* from a heading; "" = not recorded */
	const char *tool;
	int64_t period;
	int64_t interval;
	enum xcol col[XN_MAXCOL];
	int ncol;
	enum rep_miss miss;
	struct rep_run *run;	/* open run */
	struct rep_run *last;	/* last closed run (for RTP lines) */
	uint64_t cum;		/* last cumulative miss count */
	bool have_cum;
	size_t nrtd;
	bool rtt;		/* an RTT line was seen for the open run */
	/* rtlat's Xenomai layout (latency link, latency --xenomai): "==
	 * Histograms: signed latencies, in cells of X us": HSD rows are
	 * cell indices of @cell ns, not folded */
	int64_t cell;
	char pct_names[RTLAT_NPCT][24];
	int npct;
	/* latency -g's gnuplot dump: "# hh:mm:ss (...)" title, "# ----lat
	 * min|..." header, "#  0.343|..." figures, "x count" rows */
	bool gp_header;		/* the header seen, its figures not yet */
	bool gp_rows_said;	/* the note on its histogram rows given */
	int64_t gp_dur;		/* the title's run time, or -1 */
};

static void set_header(struct xstate *x, const char *line)
{
	char names[XN_MAXCOL][24];
	int i;

	x->ncol = rth_names(line, names, XN_MAXCOL);
	for (i = 0; i < x->ncol; i++) {
		const char *n = names[i];

		if (!strcmp(n, "lat min") || !strcmp(n, "min"))
			x->col[i] = XC_MIN;
		else if (!strcmp(n, "lat avg") || !strcmp(n, "avg"))
			x->col[i] = XC_AVG;
		else if (!strcmp(n, "lat max") || !strcmp(n, "max"))
			x->col[i] = XC_MAX;
		else if (starts_with(n, "overrun")) {
			x->col[i] = XC_MISS;
			x->miss = MISS_OVERRUNS;
		} else if (!strcmp(n, "lost")) {
			x->col[i] = XC_MISS;
			x->miss = MISS_LOST;
		} else {
			x->col[i] = XC_OTHER;
		}
	}
}

static struct rep_run *open_run(struct xstate *x)
{
	struct rep_run *r;

	if (x->run)
		return x->run;
	r = imp_new_run(x->c, &imp_xenomai, x->line);
	str_set(&r->test, x->kind[0] ? x->kind : "latency");
	str_set(&r->load, x->load[0] ? x->load : NULL);
	r->tool = xstrdup(x->tool);
	r->period_ns = x->period;
	r->interval_ns = x->interval;
	r->miss = x->miss;
	r->resolution_ns = 1;
	x->run = r;
	x->have_cum = false;
	x->cum = 0;
	x->nrtd = 0;
	x->rtt = false;
	return r;
}

static void close_run(struct xstate *x, bool summary_seen)
{
	if (!x->run)
		return;
	if (!summary_seen && x->rtt && x->nrtd > 1)
		imp_warn(x->c, 0, "run from line %u has no RTS summary (log cut short?): figures come from its %zu RTD lines",
			 x->run->line, x->nrtd);
	x->last = x->run;
	x->run = NULL;
}

/* A figure refused and said (imp_figure()): bad_fig() says no more. */
#define XN_SAID	(-EIO)

/*
 * Parse a figure at *p through imp_figure() (Xenomai prints early
 * wake-ups: signed), named "@tag column @col" in a refusal. Times: a
 * decimal point means microseconds, else x->unit (@unit_ns when not 0).
 * Returns 0, -EINVAL (no number) or XN_SAID.
 */
static int fig(struct xstate *x, const char *tag, int col, const char **p,
	       int64_t unit_ns, int64_t *v)
{
	const char *s = skip_blank(*p);
	const char *q = s;
	char w[32];
	bool dot;
	int e;

	if (*q == '-' || *q == '+')
		q++;
	while (isdigit((unsigned char)*q))
		q++;
	dot = *q == '.' && isdigit((unsigned char)q[1]);
	snprintf(w, sizeof(w), "%s column %d", tag, col + 1);
	e = imp_figure(x->c, x->line, w, p,
		       unit_ns ? unit_ns : dot ? 1000 : x->unit,
		       IMP_FIG_SIGNED, v);
	return e < 0 ? XN_SAID : e ? -EINVAL : 0;
}

/* A count through imp_figure_count(); returns as fig(). */
static int cnt(struct xstate *x, const char *tag, int col, const char **p,
	       uint64_t *v)
{
	char w[32];
	int e;

	snprintf(w, sizeof(w), "%s column %d", tag, col + 1);
	e = imp_figure_count(x->c, x->line, w, p, v);
	return e < 0 ? XN_SAID : e ? -EINVAL : 0;
}

/* The label after the last figure of a data line, or NULL. */
static const char *tail_label(const char *p)
{
	p = skip_blank(p);
	return *p ? p : NULL;
}

/* Past the figure (or "n/a") at the start of @p. */
static const char *skip_figure(const char *p)
{
	p = skip_blank(p);
	while (*p && !isspace((unsigned char)*p))
		p++;
	return p;
}

static bool is_cpu_label(const char *l, int *cpu)
{
	const char *p;
	uint64_t v;

	if (!l || strncmp(l, "cpu ", 4) != 0)
		return false;
	p = l + 4;
	if (imp_count(&p, &v) || *skip_blank(p) || v > 100000)
		return false;
	*cpu = (int)v;
	return true;
}

/* Report a bad figure: out of range is an error, anything else skips the
 * line with a warning. Returns -1 for an error, 0 for a skip. */
static int bad_fig(struct xstate *x, const char *tag, int col, int err)
{
	if (err == XN_SAID)
		return -1;
	if (err == -ERANGE || err == -EDOM) {
		imp_error(x->c, x->line, "%s column %d: %s", tag, col + 1,
			  imp_num_err(err));
		return -1;
	}
	imp_warn(x->c, x->line, "unreadable %s line skipped (column %d)", tag,
		 col + 1);
	return 0;
}

static int do_rtd(struct xstate *x, char *line)
{
	char *f[XN_MAXCOL + 1];
	int n = split_fields(line, '|', f, XN_MAXCOL + 1), i;
	int64_t v[XN_MAXCOL] = { 0 };
	bool got[XN_MAXCOL] = { false };
	const char *label = NULL;
	int64_t mn = 0, av = 0, mx = 0;
	uint64_t miss = 0;
	bool hmin = false, havg = false, hmax = false, hmiss = false;
	struct rep_interval *iv;
	struct rep_run *r;

	n--;			/* f[0] is "RTD" */
	if (n > XN_MAXCOL)
		n = XN_MAXCOL;
	if (!x->ncol) {		/* no header yet: Xenomai's column order */
		static const enum xcol def[] = { XC_MIN, XC_AVG, XC_MAX, XC_MISS };

		x->ncol = 4;
		memcpy(x->col, def, sizeof(def));
		if (!x->miss)
			x->miss = MISS_OVERRUNS;
	}
	for (i = 0; i < n && i < x->ncol; i++) {
		const char *p = f[i + 1];
		int e;

		if (x->col[i] == XC_OTHER)
			continue;
		if (x->col[i] == XC_MISS) {
			uint64_t c;

			e = cnt(x, "RTD", i, &p, &c);
			v[i] = (int64_t)c;
		} else {
			e = fig(x, "RTD", i, &p, 0, &v[i]);
		}
		if (e)
			return bad_fig(x, "RTD", i, e);
		if (i == n - 1)
			label = tail_label(p);
		else if (*skip_blank(p))
			return bad_fig(x, "RTD", i, -EINVAL);
		got[i] = true;
	}
	for (i = 0; i < x->ncol && i < n; i++) {
		if (!got[i])
			continue;
		switch (x->col[i]) {
		case XC_MIN: mn = v[i]; hmin = true; break;
		case XC_AVG: av = v[i]; havg = true; break;
		case XC_MAX: mx = v[i]; hmax = true; break;
		case XC_MISS: miss = (uint64_t)v[i]; hmiss = true; break;
		default: break;
		}
	}
	if (!hmin || !havg || !hmax) {
		imp_warn(x->c, x->line, "RTD line without lat min/avg/max skipped");
		return 0;
	}
	if (imp_check_stats(x->c, x->line, "RTD line", mn, (double)av, mx))
		return -1;
	/* a new label on a data line starts a new run */
	if (x->run && label && x->run->label && strcmp(label, x->run->label) != 0)
		close_run(x, false);
	if (x->run && label && !x->run->label && x->nrtd)
		close_run(x, false);
	r = open_run(x);
	if (label && !r->label) {
		r->label = xstrdup(label);
		/* a hand-edited log: a line per run, not a time series */
		r->interval_ns = 0;
	}
	iv = series_add_interval(&r->sum);
	iv->start_ns = (int64_t)x->nrtd * x->interval;
	iv->len_ns = x->interval;
	iv->has_stats = true;
	iv->min = mn;
	iv->max = mx;
	iv->avg = (double)av;
	if (hmiss) {
		iv->has_misses = true;
		iv->misses = x->have_cum && miss >= x->cum ? miss - x->cum : miss;
		if (x->have_cum && miss < x->cum)
			imp_warn(x->c, x->line, "cumulative %s count went down (%llu after %llu)",
				 miss_name(x->miss), (unsigned long long)miss,
				 (unsigned long long)x->cum);
		x->cum = miss;
		x->have_cum = true;
	}
	x->nrtd++;
	return 0;
}

static int do_rts(struct xstate *x, char *line)
{
	char *f[XN_MAXCOL + 1];
	int n = split_fields(line, '|', f, XN_MAXCOL + 1), i, nfig = 0, cpu;
	int64_t v[4] = { 0 }, dur = -1;
	const char *label = NULL;
	struct rep_series *s;
	struct rep_run *r;

	if (n > XN_MAXCOL + 1)
		n = XN_MAXCOL + 1;
	for (i = 1; i < n; i++) {
		const char *p = f[i];
		int e;

		if (strchr(p, ':')) {	/* the time field: hh:mm:ss[/hh:mm:ss] */
			e = parse_hms(p, &dur, &p);
			if (e)
				return bad_fig(x, "RTS", i - 1, e);
			if (*p == '/') {
				int64_t req;

				p++;
				if (parse_hms(p, &req, &p) &&
				    !starts_with(p, "--:--:--"))
					return bad_fig(x, "RTS", i - 1, -EINVAL);
				if (starts_with(p, "--:--:--"))
					p += 8;
			}
			label = tail_label(p);
			/* rtlat --trace: columns follow, the label ends the
			 * line ("|    214.256 cpu 1") */
			if (!label && i < n - 1)
				label = tail_label(skip_figure(f[n - 1]));
			break;
		}
		if (nfig >= 4)
			continue;	/* msw and the like */
		if (nfig == 3) {
			uint64_t c;

			e = cnt(x, "RTS", i - 1, &p, &c);
			v[3] = (int64_t)c;
		} else {
			e = fig(x, "RTS", i - 1, &p, 0, &v[nfig]);
		}
		if (e)
			return bad_fig(x, "RTS", i - 1, e);
		if (i == n - 1)
			label = tail_label(p);
		else if (*skip_blank(p))
			return bad_fig(x, "RTS", i - 1, -EINVAL);
		nfig++;
	}
	if (nfig < 3) {
		imp_warn(x->c, x->line, "RTS line without lat min/avg/max skipped");
		return 0;
	}
	if (imp_check_stats(x->c, x->line, "RTS line", v[0], (double)v[1],
			    v[2]))
		return -1;
	r = open_run(x);
	if (is_cpu_label(label, &cpu)) {
		s = run_add_thread(r, (int)r->nthr);
		s->cpu = cpu;
	} else {
		s = &r->sum;
		if (label)
			str_set(&r->label, label);
		if (dur >= 0)
			r->duration_ns = dur;
	}
	s->min = v[0];
	s->avg = (double)v[1];
	s->max = v[2];
	s->has_stats = true;
	if (nfig >= 4) {
		s->misses = (uint64_t)v[3];
		s->has_misses = true;
		if (!r->miss)
			r->miss = x->miss ? x->miss : MISS_OVERRUNS;
	}
	if (s == &r->sum)
		close_run(x, true);
	return 0;
}

static int do_rtp(struct xstate *x, char *line)
{
	char *f[RTLAT_NPCT + 2];
	int n = split_fields(line, '|', f, RTLAT_NPCT + 2), i, j;
	struct rep_run *r = x->run ? x->run : x->last;

	if (n > RTLAT_NPCT + 1)
		n = RTLAT_NPCT + 1;
	if (n > 1 && f[1][0] == 'p') {		/* header */
		x->npct = 0;
		for (i = 1; i < n; i++)
			snprintf(x->pct_names[x->npct++], 24, "%s", f[i]);
		return 0;
	}
	if (!r || !x->npct) {
		imp_warn(x->c, x->line, "RTP line without header or run skipped");
		return 0;
	}
	for (i = 1; i < n && i - 1 < x->npct; i++) {
		const char *p = f[i];
		int64_t v;
		int e;

		if (!strncmp(skip_blank(p), "n/a", 3))
			continue;
		e = fig(x, "RTP", i - 1, &p, 0, &v);
		if (e)
			return bad_fig(x, "RTP", i - 1, e);
		for (j = 0; j < RTLAT_NPCT; j++) {
			if (strcmp(x->pct_names[i - 1], rtlat_percentiles[j].name) != 0)
				continue;
			r->sum.pct[j] = v;
			r->sum.has_pct[j] = true;
		}
	}
	return 0;
}

/* An HSD edge read as us (in ns) into ns: a cell index of rtlat's
 * Xenomai layout times its cell */
static int64_t hsd_edge(const struct xstate *x, int64_t v)
{
	return x->cell > 0 ? v / 1000 * x->cell : v;
}

/* HSD|  kind|  lo - hi | count   (also "< hi" underflow, ">= lo" overflow) */
static int do_hsd(struct xstate *x, char *line)
{
	char *f[5];
	int n = split_fields(line, '|', f, 5), e;
	const char *p;
	int64_t lo, hi;
	uint64_t count;
	struct rep_hist *h;
	struct rep_run *r;

	if (n != 4) {
		imp_warn(x->c, x->line, "unreadable HSD line skipped");
		return 0;
	}
	if (strcmp(f[1], "avg") != 0 && strcmp(f[1], "lat") != 0)
		return 0;	/* histograms of interval minima/maxima */
	p = f[3];
	e = cnt(x, "HSD", 2, &p, &count);
	if (e)
		return bad_fig(x, "HSD", 2, e);
	r = open_run(x);
	h = &r->sum.hist;
	if (h->layout == REP_HIST_NONE) {
		h->layout = REP_HIST_LINEAR;
		h->lo = 0;
		h->width = 0;
		/* Xenomai: |latency|; rtlat's Xenomai layout: signed */
		h->abs_folded = !strcmp(f[1], "avg") && !x->cell;
	}
	p = skip_blank(f[2]);
	if (*p == '<') {	/* underflow below the layout's lo */
		p++;
		e = fig(x, "HSD", 1, &p, 1000, &lo);
		if (e)
			return bad_fig(x, "HSD", 1, e);
		h->lo = hsd_edge(x, lo);
		h->underflow = count;
		return 0;
	}
	if (*p == '>' && p[1] == '=') {
		p += 2;
		e = fig(x, "HSD", 1, &p, 1000, &lo);
		if (e)
			return bad_fig(x, "HSD", 1, e);
		lo = hsd_edge(x, lo);
		h->overflow = count;
		if (h->width > 0 && lo > h->lo)
			h->nbuckets = (uint64_t)((lo - h->lo) / h->width);
		return 0;
	}
	e = fig(x, "HSD", 1, &p, 1000, &lo);
	if (!e) {
		p = skip_blank(p);
		if (*p != '-')
			e = -EINVAL;
		else
			p++;
	}
	if (!e)
		e = fig(x, "HSD", 1, &p, 1000, &hi);
	if (e)
		return bad_fig(x, "HSD", 1, e);
	lo = hsd_edge(x, lo);
	hi = hsd_edge(x, hi);
	if (hi <= lo) {
		imp_warn(x->c, x->line, "HSD bucket with hi <= lo skipped");
		return 0;
	}
	if (!h->width)
		h->width = hi - lo;
	if (hi - lo != h->width || (lo - h->lo) % h->width) {
		imp_warn(x->c, x->line, "HSD bucket does not fit the layout: skipped");
		return 0;
	}
	switch (hist_push(h, lo, hi - 1, count)) {
	case 0:
		break;
	case -ERANGE:
		imp_error(x->c, x->line, "HSD counts add up beyond range");
		return -1;
	default:
		imp_warn(x->c, x->line, "HSD bucket out of order skipped");
		return 0;
	}
	if ((uint64_t)((hi - h->lo) / h->width) > h->nbuckets)
		h->nbuckets = (uint64_t)((hi - h->lo) / h->width);
	return 0;
}

/* HSS|  kind| samples| average| stddev */
static int do_hss(struct xstate *x, char *line)
{
	char *f[6];
	int n = split_fields(line, '|', f, 6), e;
	const char *p;
	uint64_t count;
	int64_t sd;
	struct rep_run *r;

	if (n != 5) {
		imp_warn(x->c, x->line, "unreadable HSS line skipped");
		return 0;
	}
	if (strcmp(f[1], "avg") != 0 && strcmp(f[1], "lat") != 0)
		return 0;
	p = f[2];
	e = cnt(x, "HSS", 1, &p, &count);
	if (e)
		return bad_fig(x, "HSS", 1, e);
	r = open_run(x);
	r->sum.samples = count;
	r->sum.has_samples = true;
	p = f[4];
	if (strncmp(skip_blank(p), "n/a", 3) != 0) {
		/* a deviation is never negative */
		e = imp_figure(x->c, x->line, "HSS column 4", &p, 1000, 0,
			       &sd);
		if (e)
			return e < 0 ? -1 : bad_fig(x, "HSS", 3, -EINVAL);
		r->sum.stddev = (double)sd;
		r->sum.has_stddev = true;
	}
	return 0;
}

/* "== ..." banner lines of Xenomai and rtlat */
static void do_banner(struct xstate *x, const char *line)
{
	const char *p;
	int64_t v;

	if ((p = strstr(line, "Sampling period:")) &&
	    !parse_time_words(p + 16, &v, NULL) && v > 0)
		x->period = v;
	else if (strstr(line, "All results in microseconds"))
		x->unit = x->c->o->input_unit_ns ? x->c->o->input_unit_ns : 1000;
	else if ((p = strstr(line, "Test mode:")) && kind_from_text(p))
		snprintf(x->kind, sizeof(x->kind), "%s", kind_from_text(p));
	else if ((p = strstr(line, ", interval ")) &&
		 !parse_time_words(p + 11, &v, NULL) && v > 0)
		x->interval = v;
	if ((p = strstr(line, "== Histograms: signed latencies, in cells of ")) &&
	    !parse_time_words(p + 45, &v, NULL) && v > 0)
		x->cell = v;
	if (strstr(line, "== Sampler ") || strstr(line, "== Duration:"))
		x->tool = "rtlat (text output)";
}

/* RTT|  00:00:01  (periodic user-mode task, 100 us period, priority 99) */
static void do_rtt(struct xstate *x, const char *line)
{
	const char *m = strchr(line, '('), *p;
	int64_t v;

	if (x->run && x->nrtd)
		;		/* a repeated title inside the run */
	else
		open_run(x);
	x->rtt = true;
	if (!m)
		return;
	if (kind_from_text(m))
		str_set(&x->run->test, kind_from_text(m));
	p = strstr(m, " period");
	if (p) {
		const char *q = p;

		while (q > m && q[-1] != ',' && q[-1] != '(')
			q--;
		if (!parse_time_words(q, &v, NULL) && v > 0)
			x->run->period_ns = v;
	}
}

/*
 * A line of Xenomai latency -g's gnuplot dump ("# 211:04:55 (periodic
 * user-mode task, 100 us period, priority 99)", "# ----lat min|----lat
 * avg|----lat max|-overrun|---msw|", "#       0.343|      1.078|
 * 23.110|       0|     0|"): read as RTT, RTH and RTS lines, the run
 * time the title's. Returns 1 when @line is none of them, else as do_rts().
 */
static int do_gnuplot(struct xstate *x, const char *line)
{
	const char *p = skip_blank(line + 1), *e;
	int64_t d;
	char *t;
	int r;

	if (p[0] == '-' && strstr(p, "lat min|")) {
		t = xasprintf("RTH|%s", p);
		set_header(x, t);
		free(t);
		x->gp_header = true;
		return 0;
	}
	if (x->gp_header && (isdigit((unsigned char)*p) || *p == '-') &&
	    strchr(p, '|')) {
		x->gp_header = false;
		t = xasprintf("RTS|%s", p);
		r = do_rts(x, t);
		free(t);
		if (!r && x->last && x->gp_dur >= 0 && x->last->duration_ns < 0)
			x->last->duration_ns = x->gp_dur;
		return r;
	}
	if (isdigit((unsigned char)*p) && !parse_hms(p, &d, &e) &&
	    starts_with(e, " (") && strchr(e, ')')) {
		close_run(x, false);
		do_rtt(x, e);
		x->gp_dur = d;
		return 0;
	}
	return 1;
}

/* "0.5 1599357037": a histogram row of a gnuplot dump. */
static bool gnuplot_row(const char *line)
{
	const char *p = line;
	int64_t v;
	uint64_t n;

	return !imp_num(&p, 1000, &v) && *p == ' ' && !imp_count(&p, &n) &&
	       !*skip_blank(p);
}

static int parse(struct imp_ctx *c, char *buf, size_t len)
{
	struct xstate x;
	struct lines l;
	char *line;
	int ret = 0;

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.unit = c->o->input_unit_ns ? c->o->input_unit_ns : 1;
	x.period = -1;
	x.interval = 1000000000;
	x.tool = "Xenomai";
	x.gp_dur = -1;
	lines_init(&l, buf, len);
	while (!ret && (line = lines_next(&l))) {
		struct heading hd;

		strip_ansi(line);
		line = (char *)skip_blank(line);
		x.line = l.no;
		if (starts_with(line, "RTD|")) {
			ret = do_rtd(&x, line);
		} else if (starts_with(line, "RTS|")) {
			ret = do_rts(&x, line);
		} else if (starts_with(line, "RTH|")) {
			set_header(&x, line);
			if (x.run)
				x.run->miss = x.miss;
		} else if (starts_with(line, "RTT|")) {
			do_rtt(&x, line);
		} else if (starts_with(line, "RTP|")) {
			ret = do_rtp(&x, line);
		} else if (starts_with(line, "HSD|")) {
			ret = do_hsd(&x, line);
		} else if (starts_with(line, "HSS|")) {
			ret = do_hss(&x, line);
		} else if (line[0] == '#' && line[1] == ' ' &&
			   (ret = do_gnuplot(&x, line)) != 1) {
			;
		} else if (starts_with(line, "==")) {
			do_banner(&x, line);
		} else if (parse_heading(line, &hd)) {
			close_run(&x, false);
			memcpy(x.kind, hd.kind, sizeof(x.kind));
			snprintf(x.load, sizeof(x.load), "%s", hd.load);
			x.ncol = 0;
			x.miss = MISS_NONE;
		} else if (x.gp_dur >= 0 && !x.gp_rows_said &&
			   gnuplot_row(line)) {
			/* said once: what is in the file and not read */
			imp_warn(c, l.no, "the histogram rows of this latency -g dump are not read (it does not state their bucket size)");
			x.gp_rows_said = true;
		}
		if (ret == 1)
			ret = 0;
	}
	close_run(&x, false);
	if (!ret && strcmp(x.tool, "Xenomai") != 0) {
		size_t i;

		for (i = 0; i < c->runs.n; i++)
			str_set(&c->runs.v[i]->tool, x.tool);
	}
	return ret;
}

static int probe(const char *text)
{
	const char *p = text;
	int n = 0;

	while (p && *p) {
		p = (const char *)skip_blank(p);
		if (starts_with(p, "RTD|") || starts_with(p, "RTS|") ||
		    starts_with(p, "RTH|") || starts_with(p, "HSS|") ||
		    starts_with(p, "# ----lat min|"))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n ? 80 : 0;
}

const struct importer imp_xenomai = {
	.name = "xenomai",
	.what = "Xenomai latency/klatency/switch logs (RTT/RTH/RTD/RTS, HSH/HSD/HSS), rtlat text output",
	.probe_text = probe,
	.parse_text = parse,
};
