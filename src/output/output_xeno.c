// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output in the line protocol of Xenomai's latency test, so that habits and
 * parsers carry over:
 *
 *   == banner lines (configuration as in force)
 *   RTT|  hh:mm:ss  (title)                        every -l data lines
 *   RTH|----lat min|----lat avg|----lat max|-overrun|---lat best|--lat worst
 *   RTD|      1.393|      2.908|     21.765|       0|      1.393|     21.765
 *   ---|-----------|-----------|-----------|--------|-----------------------
 *   RTS|      1.175|      2.955|    374.075|       0|      00:01:00/00:01:00
 *   RTP| percentiles of all samples (rtlat addition)
 *   HSH/HSD histogram lines (-h), HSH/HSS statistics lines (-s)
 *
 * Every line lines up with its header: each '|' of a data line is where
 * its header has one (a trailing label aside). RTS lines (min, avg, max,
 * the RTD line's overrun or lost column if it has one, measured/requested
 * time) have the "---|" line above them as their header: dashes, as in
 * Xenomai, when the RTS columns are the first columns of the RTH line
 * (latency, switch); else it names them in the words of the RTH line
 * ("---|---a->b min|..."). The measured/requested column is as wide as
 * RTH's "lat best|lat worst", so that both lines are as wide.
 *
 * With --trace, RTH/RTD, the "---|" line and RTS lines carry four more
 * columns: the parts (irq latency, handler to wake-up, wake-up to running,
 * return to user) of the sample that is the line's maximum, "n/a" when
 * that sample could not be broken down; trace_summary() adds RTK and RTW
 * lines (trace.c). The output knows them only as a companion's columns
 * (companion_ops.cols, col_values) and banner line (.banner).
 *
 * All values in microseconds with three decimals (exact: 1 ns = 0.001 us).
 * The overrun column is cumulative, as in Xenomai. With several samplers the
 * RTD lines aggregate all of them (min of minima, max of maxima, mean over
 * all samples) and the summary adds one RTS line per sampler with a trailing
 * "cpu N" label. The first series of the test is the one shown;
 * tests with other columns (e.g. "lost" instead of "overrun", or several
 * series on one line) list them in output_ops.cols. With several
 * series, the RTS, RTP and HSS lines of the summary end with the series
 * name (HSD lines have it in their first column). A label always comes
 * last, after the --trace columns.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "util/outfile.h"
#include "output/figures.h"
#include "output/output.h"
#include "engine/cobalt.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

bool xeno_compat_layout;

/* Xenomai layout (-h, -s, -g): the histograms of the interval minima and
 * maxima (Xenomai's "min" and "max"), kept by the display thread; the
 * "avg" one is the run's linear histogram of every sample */
static struct histogram xh_min, xh_max;

static bool xeno_need_histo(const struct engine_opts *o)
{
	return o->print_hist || o->print_stats || o->gnuplot_file;
}

static void us_field(char *out, size_t len, int64_t ns, bool valid)
{
	char b[32];

	if (valid)
		snprintf(out, len, "%11s", fmt_us3(b, ns));
	else
		snprintf(out, len, "%11s", "n/a");
}

/* Mean in ns, rounded to the nearest ns, of a window. */
static int64_t window_avg(const struct window *w)
{
	int64_t half = (int64_t)(w->n / 2);

	return (w->sum + (w->sum >= 0 ? half : -half)) / (int64_t)w->n;
}

void xeno_banner(struct run *r)
{
	const struct engine_opts *o = r->o;
	char buf[32], dur[32], iv[32], mode[192], hk[192];
	int i;

	if (xeno_compat_layout && xeno_need_histo(o) &&
	    (hist_init_linear(&xh_min, 0, o->hist_bucket_ns,
			      (size_t)o->hist_buckets) < 0 ||
	     hist_init_linear(&xh_max, 0, o->hist_bucket_ns,
			      (size_t)o->hist_buckets) < 0))
		engine_warn(r, "out of memory: no histograms of the interval minima and maxima");
	if (o->quiet && !xeno_compat_layout)
		return;	/* Xenomai's -q keeps the banner */
	if (o->period_ns)
		printf("== Sampling period: %s\n", fmt_time(buf, o->period_ns));
	printf("== Test mode: %s", cobalt_mode(run_mode(r), mode, sizeof(mode)));
	if (o->period_ns)
		printf(" (%s, CLOCK_%s)", wait_backend_desc(o->wait),
		       o->clock == CLOCK_REALTIME ? "REALTIME" : "MONOTONIC");
	printf("\n");
	figures_lines(r, LINE_BANNER);
	if (cobalt_build())
		printf("== Co-kernel: %s: the samplers are Cobalt threads; msw = their switches to secondary mode (Linux) so far%s\n",
		       cobalt_system(), r->msw_known ? "" : " (not known: the Cobalt core's thread statistics (/proc/xenomai/sched/stat) do not list the samplers)");
	for (i = 0; i < r->nsamplers; i++) {
		const struct sampler *s = &r->s[i];

		printf("== Sampler %d: %s priority %d, CPU %d (allowed %s), tid %d\n",
		       s->id, policy_name(s->policy_now), s->prio_now,
		       s->cpu_now, s->allowed_now, (int)s->tid);
	}
	if (o->duration_ns)
		fmt_hms(dur, o->duration_ns);
	else
		snprintf(dur, sizeof(dur), "until interrupted");
	printf("== Duration: %s, warm-up %s, interval %s%s%s\n", dur,
	       o->warmup_ns ? fmt_time(buf, o->warmup_ns) : "none",
	       fmt_time(iv, o->interval_ns),
	       o->mlock ? ", memory locked" : ", memory NOT locked",
	       r->dma_held ? ", cpu_dma_latency 0" : "");
	printf("== Housekeeping: %s\n", hk_describe(&o->hk, hk, sizeof(hk)));
	for (i = 0; i < r->ncomp; i++) {
		const char *b = r->comp[i].ops->banner ?
			r->comp[i].ops->banner(&r->comp[i], r) : NULL;

		if (b)
			printf("== %s\n", b);
	}
	if (xeno_compat_layout && xeno_need_histo(o))
		printf("== Histograms: signed latencies, in cells of %s us, overflow apart (Xenomai: |latency|, overflow in the last cell)\n",
		       fmt_us3(buf, o->hist_bucket_ns));
	printf("== All results in microseconds\n");
	if (xeno_compat_layout) {
		printf("warming up...\n");
		if (o->quiet)
			fprintf(stderr, "running quietly for %lld seconds\n",
				(long long)(o->duration_ns / NSEC_PER_SEC));
	}
	stdout_flush();
	figures_lines(r, LINE_START);
}

void xeno_title(struct run *r, uint64_t k, const char *head)
{
	char t[32], p[32];

	if (r->o->quiet)
		return;
	if (xeno_compat_layout && r->o->lines_per_header == 0) {
		/* Xenomai's -l 0: no headers at all */
		r->lines_printed++;
		return;
	}
	if (r->o->lines_per_header == 0 ? r->lines_printed == 0 :
	    r->lines_printed % r->o->lines_per_header == 0) {
		fmt_hms(t, (int64_t)(k + 1) * r->o->interval_ns);
		if (r->o->period_ns)
			printf("RTT|  %s  (%s, %s period, priority %d)\n", t,
			       run_mode(r), fmt_time(p, r->o->period_ns),
			       r->s[0].prio_now);
		else
			printf("RTT|  %s  (%s, priority %d)\n", t,
			       run_mode(r), r->s[0].prio_now);
		printf("%s\n", head);
	}
	r->lines_printed++;
}

/* @head right-aligned in @width, padded on the left with '-'; cut to
 * @width if longer (a head never shifts the columns after it). */
static void col_head(char *out, size_t len, const char *head, int width)
{
	int pad = width - (int)strlen(head), i;

	for (i = 0; i < pad && (size_t)i + 1 < len; i++)
		out[i] = '-';
	snprintf(out + i, len - (size_t)i, "%.*s", width - i, head);
}

/* Append "|@f" to @buf (@len bytes) at *@n. */
static void add_field(char *buf, size_t len, size_t *n, const char *f)
{
	if (*n + 1 >= len)
		return;
	*n += (size_t)snprintf(buf + *n, len - *n, "|%s", f);
	if (*n >= len)
		*n = len - 1;
}

/* The companions' columns of series 0 (--trace: the parts of the line's
 * largest sample, "|irq|handler|sched|return"), 11 wide in us: their
 * heads into @head (may be NULL) and, with @line (may be NULL), the
 * values for the maximum @max of interval @k (@sampler < -1) or of the
 * run of @sampler (-1: all); each buffer @len bytes. */
static void comp_cols(struct run *r, int64_t k, int sampler, int64_t max,
		      bool valid, char *head, char *line, size_t len)
{
	int64_t v[XENO_MAX_COLS];
	const char *const *heads;
	size_t hn = 0, ln = 0;
	char f[32];
	bool ok;
	int i, j, n;

	if (head)
		head[0] = '\0';
	if (line)
		line[0] = '\0';
	for (i = 0; i < r->ncomp; i++) {
		struct companion *c = &r->comp[i];

		if (!c->ops->cols)
			continue;
		heads = NULL;
		n = c->ops->cols(c, r, &heads);
		if (n <= 0 || !heads)
			continue;
		if (n > XENO_MAX_COLS)
			n = XENO_MAX_COLS;
		ok = line && valid && c->ops->col_values &&
		     c->ops->col_values(c, r, k, sampler, max, v);
		for (j = 0; j < n; j++) {
			if (head) {
				col_head(f, sizeof(f), heads[j], 11);
				add_field(head, len, &hn, f);
			}
			if (line) {
				us_field(f, sizeof(f), ok ? v[j] : 0, ok);
				add_field(line, len, &ln, f);
			}
		}
	}
}

static void columns(struct run *r, uint64_t k, const struct window *agg,
		    const struct xeno_col *cols, int ncols, bool empty_too);

void xeno_columns(struct run *r, uint64_t k, const struct window *agg,
		  const struct xeno_col *cols, int ncols)
{
	columns(r, k, agg, cols, ncols, false);
}

static void columns(struct run *r, uint64_t k, const struct window *agg,
		    const struct xeno_col *cols, int ncols, bool empty_too)
{
	char head[16 * XENO_MAX_COLS] = "RTH", line[16 * XENO_MAX_COLS] = "RTD";
	char f[32];
	bool any = false, missed = false;
	size_t hn = 3, ln = 3;
	int i;

	if (r->o->quiet || ncols > XENO_MAX_COLS)
		return;
	for (i = 0; i < ncols; i++) {
		any |= agg[cols[i].name].n || agg[cols[i].name].overruns;
		missed |= cols[i].field == XENO_MISSED;
	}
	if (!any && !empty_too)
		return;
	for (i = 0; i < ncols; i++) {
		const struct xeno_col *c = &cols[i];
		const struct window *w = &agg[c->name];
		const struct series_name *nm = &r->names[c->name];
		int width = c->field == XENO_MISSED ? 8 : 11;

		col_head(f, sizeof(f), c->head, width);
		hn += (size_t)snprintf(head + hn, sizeof(head) - hn, "|%s", f);
		switch (c->field) {
		case XENO_MIN:
			us_field(f, sizeof(f), w->min, w->n > 0);
			break;
		case XENO_AVG:
			us_field(f, sizeof(f), w->n ? window_avg(w) : 0, w->n > 0);
			break;
		case XENO_MAX:
			us_field(f, sizeof(f), w->max, w->n > 0);
			break;
		case XENO_MISSED:
			snprintf(f, sizeof(f), "%8" PRIu64, nm->overruns);
			break;
		case XENO_BEST:
			us_field(f, sizeof(f), nm->best, nm->any);
			break;
		case XENO_WORST:
			us_field(f, sizeof(f), nm->worst, nm->any);
			break;
		}
		ln += (size_t)snprintf(line + ln, sizeof(line) - ln, "|%s", f);
		if ((cobalt_build() || xeno_compat_layout) &&
		    (c->field == XENO_MISSED || (i == ncols - 1 && !missed))) {
			/* Xenomai's latency: "|---msw" after the overruns
			 * (at the end when there are none: cruncher);
			 * "-" while not known */
			col_head(f, sizeof(f), "msw", 6);
			hn += (size_t)snprintf(head + hn, sizeof(head) - hn,
					       "|%s", f);
			if (!cobalt_build())	/* Linux threads: none */
				ln += (size_t)snprintf(line + ln, sizeof(line) - ln,
						       "|%6d", 0);
			else if (r->msw_known && !r->msw_lost)
				ln += (size_t)snprintf(line + ln, sizeof(line) - ln,
						       "|%6" PRIu64,
						       engine_msw_total(r));
			else
				ln += (size_t)snprintf(line + ln, sizeof(line) - ln,
						       "|%6s", "-");
		}
	}
	/* the companions' (--trace: the parts of the interval's largest
	 * sample), the last fields: no length to keep */
	comp_cols(r, (int64_t)k, -2, agg[0].max, agg[0].n > 0, head + hn,
		  line + ln, sizeof(head) - hn < sizeof(line) - ln ?
		  sizeof(head) - hn : sizeof(line) - ln);
	xeno_title(r, k, head);
	printf("%s\n", line);
	stdout_flush();
}

static const struct xeno_col latency_cols[] = {
	{ "lat min", 0, XENO_MIN },
	{ "lat avg", 0, XENO_AVG },
	{ "lat max", 0, XENO_MAX },
	{ "overrun", 0, XENO_MISSED },
	{ "lat best", 0, XENO_BEST },
	{ "lat worst", 0, XENO_WORST },
};

/* The RTD columns of @r's test. */
static const struct xeno_col *rtd_cols(const struct run *r, int *n)
{
	const struct output_ops *out = r->test->out;

	if (out && out->columns)
		return out->columns(r, n);
	if (out && out->cols) {
		*n = out->ncols;
		return out->cols;
	}
	*n = (int)(sizeof(latency_cols) / sizeof(latency_cols[0]));
	return latency_cols;
}

void xeno_interval(struct run *r, uint64_t k, const struct window *agg,
		   const struct winrec *const *thr)
{
	const struct xeno_col *cols;
	int n;

	(void)thr;
	if (xeno_compat_layout && agg[0].n) {
		if (xh_min.count)
			hist_add(&xh_min, agg[0].min);
		if (xh_max.count)
			hist_add(&xh_max, agg[0].max);
	}
	cols = rtd_cols(r, &n);
	xeno_columns(r, k, agg, cols, n);
}

void xeno_interval_all(struct run *r, uint64_t k, const struct window *agg,
		       const struct winrec *const *thr)
{
	const struct xeno_col *cols;
	bool handed = false;
	int i, n;

	for (i = 0; i < r->nsamplers; i++)
		handed |= thr[i] != NULL;
	cols = rtd_cols(r, &n);
	columns(r, k, agg, cols, n, handed);
}

/* The measured/requested column of RTS lines: as wide as RTH's
 * "lat best|lat worst", so that --trace columns line up. */
#define RTS_TIME_W 23

void xeno_rts_layout(const struct run *r, int name, struct xeno_rts_layout *l)
{
	static const enum xeno_field first[] = { XENO_MIN, XENO_AVG, XENO_MAX };
	const struct xeno_col *c;
	int i, n;

	memset(l, 0, sizeof(*l));
	c = rtd_cols(r, &n);
	snprintf(l->what, sizeof(l->what), "%s", r->names[name].desc->name);
	for (i = 0; i < n; i++)
		if (c[i].field == XENO_MISSED) {
			l->miss = c[i].head;
			break;
		}
	for (i = 0; i < n; i++) {
		const char *sp = strrchr(c[i].head, ' ');

		if (c[i].name == name && c[i].field != XENO_MISSED && sp) {
			snprintf(l->what, sizeof(l->what), "%.*s",
				 (int)(sp - c[i].head), c[i].head);
			break;
		}
	}
	/* dashes only for a single series whose RTS columns are the RTH
	 * line's first ones, as in Xenomai (latency, switch) */
	l->named = r->nnames > 1;
	for (i = 0; i < 3; i++)
		if (i >= n || c[i].name != name || c[i].field != first[i])
			l->named = true;
	if (l->miss && (n < 4 || c[3].field != XENO_MISSED))
		l->named = true;
}

/* The "---|" line heading the RTS lines of layout @l (+ with @cols the
 * companions' heads: --trace). */
static void rts_head(struct run *r, const struct xeno_rts_layout *l,
		     bool cols)
{
	static const char *const stat[] = { "min", "avg", "max" };
	char h[40], f[40], ch[16 * XENO_MAX_COLS] = "";
	int i;

	printf("---");
	for (i = 0; i < 3; i++) {
		snprintf(h, sizeof(h), "%s %s", l->what, stat[i]);
		col_head(f, sizeof(f), l->named ? h : "", 11);
		printf("|%s", f);
	}
	if (l->miss) {
		col_head(f, sizeof(f), l->named ? l->miss : "", 8);
		printf("|%s", f);
	}
	col_head(f, sizeof(f), l->named ? "measured/requested" : "", RTS_TIME_W);
	if (cols)
		comp_cols(r, 0, -1, 0, false, ch, NULL, sizeof(ch));
	printf("|%s%s\n", f, ch);
}

/* One RTS line for @a in layout @l; @label NULL or " cpu N", " NAME". */
void xeno_rts(struct run *r, const struct xeno_rts_layout *l,
	      const struct accum *a, const char *label)
{
	char mn[16], av[16], mx[16], act[32], req[32], tm[80];
	char tc[16 * XENO_MAX_COLS];
	double mean = 0;
	int i, sampler = -1;

	/* the companions' (--trace): columns for the series 0 of a sampler
	 * or of all */
	tc[0] = '\0';
	for (i = 0; i < r->nsamplers; i++)
		if (a == &r->total[i][0])
			sampler = i;
	if (sampler >= 0 || a == &r->names[0].agg)
		comp_cols(r, 0, sampler, a->st.max, a->st.n > 0, NULL, tc,
			  sizeof(tc));

	stats_mean(&a->st, &mean);
	us_field(mn, sizeof(mn), a->st.min, a->st.n > 0);
	if (a->st.n) {
		int64_t m = (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5);

		us_field(av, sizeof(av), m, true);
	} else {
		us_field(av, sizeof(av), 0, false);
	}
	us_field(mx, sizeof(mx), a->st.max, a->st.n > 0);
	fmt_hms(act, run_actual_ns(r));
	if (r->o->duration_ns)
		fmt_hms(req, r->o->duration_ns);
	else
		snprintf(req, sizeof(req), "--:--:--");
	snprintf(tm, sizeof(tm), "%s/%s", act, req);
	printf("RTS|%s|%s|%s", mn, av, mx);
	if (l->miss)
		printf("|%8" PRIu64, a->overruns);
	printf("|%*s%s%s\n", RTS_TIME_W, tm, tc, label ? label : "");
}

/* Percentile lines of @a. */
void xeno_rtp(const struct accum *a, const char *label)
{
	char b[32];
	int64_t v;
	int i;

	printf("RTP|");
	for (i = 0; i < RTLAT_NPCT; i++)
		printf("%s%11s", i ? "|" : "", rtlat_percentiles[i].name);
	printf("\n");
	printf("RTP|");
	for (i = 0; i < RTLAT_NPCT; i++) {
		if (hist_percentile(&a->hist, rtlat_percentiles[i].den_inv,
				    a->st.min, a->st.max, &v))
			printf("%s%11s", i ? "|" : "", fmt_us3(b, v));
		else
			printf("%s%11s", i ? "|" : "", "n/a");
	}
	printf("%s\n", label ? label : "");
}

/* Width of the first column of HSD lines: "--param", or the series name
 * when longer ("round_trip"). */
static int kind_width(const char *kind)
{
	int n = (int)strlen(kind);

	return n > 7 ? n : 7;
}

void xeno_histogram(const struct accum *a, const char *kind)
{
	const struct histogram *h = &a->lin;
	char lo[32], hi[32], ph[40];
	int kw = kind_width(kind);
	int64_t l, u;
	size_t i;

	if (!h->count)
		return;
	col_head(ph, sizeof(ph), "param", kw);
	/* the range column: "%11s - %11s " */
	printf("HSH|%s|--------range (us)--------|---samples\n", ph);
	if (h->underflow)
		printf("HSD|%*s|%11s < %11s |%10" PRIu64 "\n", kw, kind, "",
		       fmt_us3(lo, h->lo), h->underflow);
	for (i = 0; i < h->nbuckets; i++) {
		if (!h->count[i])
			continue;
		hist_bucket_range(h, i, &l, &u);
		printf("HSD|%*s|%11s - %11s |%10" PRIu64 "\n", kw, kind,
		       fmt_us3(lo, l), fmt_us3(hi, u + 1), h->count[i]);
	}
	if (h->overflow)
		printf("HSD|%*s|%11s >=%11s |%10" PRIu64 "\n", kw, kind, "",
		       fmt_us3(hi, h->lo + (int64_t)h->nbuckets * h->width),
		       h->overflow);
}

static void hss_line(const char *kind, const struct stats *st,
		     const char *label)
{
	double mean, sd;
	char m[32], s[32];

	if (!label)
		label = "";
	if (!st->n) {
		printf("HSS|%7s|%10" PRIu64 "|%11s|%11s%s\n", kind, st->n, "n/a",
		       "n/a", label);
		return;
	}
	stats_mean(st, &mean);
	stats_stddev(st, &sd);
	fmt_us3(m, (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5));
	fmt_us3(s, (int64_t)(sd + 0.5));
	printf("HSS|%7s|%10" PRIu64 "|%11s|%11s%s\n", kind, st->n, m, s, label);
}

void xeno_stats(const struct series_name *nm, const char *label)
{
	printf("HSH|--param|--samples-|--average--|---stddev--\n");
	hss_line("min", &nm->min_st, label);
	hss_line("avg", &nm->agg.st, label);
	hss_line("max", &nm->max_st, label);
}

void xeno_summary_series(struct run *r, int name)
{
	const struct series_name *nm = &r->names[name];
	/* with several series, each line names its series */
	const char *sname = r->nnames > 1 ? nm->desc->name : NULL;
	char suffix[40] = "", label[48], kind[32];
	struct xeno_rts_layout l;
	int i, j, measuring = 0;

	if (sname)
		snprintf(suffix, sizeof(suffix), " %s", sname);
	snprintf(kind, sizeof(kind), "%s", sname ? sname : "lat");
	if (r->o->print_hist)
		xeno_histogram(&nm->agg, kind);
	if (r->o->print_stats)
		xeno_stats(nm, sname ? suffix : NULL);
	xeno_rts_layout(r, name, &l);
	/* the --trace columns are those of series 0 */
	rts_head(r, &l, name == 0);
	for (i = 0; i < r->nsamplers; i++)
		for (j = 0; j < r->s[i].nseries; j++)
			measuring += r->s[i].name_idx[j] == name;
	for (i = 0; i < r->nsamplers && measuring > 1; i++)
		for (j = 0; j < r->s[i].nseries; j++) {
			if (r->s[i].name_idx[j] != name)
				continue;
			snprintf(label, sizeof(label), " cpu %d%s",
				 r->s[i].cpu_now, suffix);
			xeno_rts(r, &l, &r->total[i][j], label);
		}
	xeno_rts(r, &l, &nm->agg, sname ? suffix : NULL);
	xeno_rtp(&nm->agg, sname ? suffix : NULL);
}

void xeno_summary_all(struct run *r)
{
	int i;

	for (i = 0; i < r->nnames; i++)
		xeno_summary_series(r, i);
	figures_lines(r, LINE_SUMMARY);
	run_report_outcome(r);
}

/* One of Xenomai's -h histograms, "min", "avg" or "max": its cells by
 * index (bucket size units, us with -B 1000) as Xenomai prints them;
 * rtlat's own figures: the samples below 0 in a "<" row, those beyond the
 * last cell in a ">=" row (Xenomai folds |latency| and adds the overflow
 * to the last cell). */
static void xeno3_hsd(const struct histogram *h, const char *kind)
{
	size_t i;

	printf("---|--param|----range-|--samples\n");
	if (!h->count)
		return;
	if (h->underflow)
		printf("HSD|    %s|   <  0  | %8" PRIu64 "\n", kind,
		       h->underflow);
	for (i = 0; i < h->nbuckets; i++)
		if (h->count[i])
			printf("HSD|    %s| %3zu -%3zu | %8" PRIu64 "\n", kind,
			       i, i + 1, h->count[i]);
	if (h->overflow)
		printf("HSD|    %s|  >=%3zu  | %8" PRIu64 "\n", kind,
		       h->nbuckets, h->overflow);
}

/* The msw field of the RTS line and the gnuplot header: the samplers'
 * switches (Cobalt build; "-" when not known), 0 on Linux */
static void msw_field(struct run *r, char *buf, size_t len)
{
	if (!cobalt_build())
		snprintf(buf, len, "%6d", 0);
	else if (r->msw_known && !r->msw_lost)
		snprintf(buf, len, "%6" PRIu64, engine_msw_total(r));
	else
		snprintf(buf, len, "%6s", "-");
}

/* The summary in Xenomai 3's layout (one sampler): -h, -s (with any of
 * -h, -s, -g, as Xenomai), rtlat's RTP lines, Xenomai's RTS line. */
static void xeno3_summary(struct run *r)
{
	const struct series_name *nm = &r->names[0];
	const struct accum *a = &nm->agg;
	char mn[16], av[16], mx[16], act[32], req[32], msw[16];
	double mean = 0;

	if (r->o->print_hist) {
		xeno3_hsd(&xh_min, "min");
		xeno3_hsd(&a->lin, "avg");
		xeno3_hsd(&xh_max, "max");
	}
	if (xeno_need_histo(r->o))
		xeno_stats(nm, NULL);
	xeno_rtp(a, NULL);
	stats_mean(&a->st, &mean);
	us_field(mn, sizeof(mn), a->st.min, a->st.n > 0);
	us_field(av, sizeof(av),
		 (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5), a->st.n > 0);
	us_field(mx, sizeof(mx), a->st.max, a->st.n > 0);
	msw_field(r, msw, sizeof(msw));
	fmt_hms(act, run_actual_ns(r));
	/* Xenomai: the measured time when no duration was asked for */
	fmt_hms(req, r->o->duration_ns ? r->o->duration_ns : run_actual_ns(r));
	printf("---|-----------|-----------|-----------|--------|------|-------------------------\n");
	printf("RTS|%s|%s|%s|%8" PRIu64 "|%s|    %s/%s\n", mn, av, mx,
	       a->overruns, msw, act, req);
	hist_free(&xh_min);
	hist_free(&xh_max);
	figures_lines(r, LINE_SUMMARY);
	run_report_outcome(r);
}

int xeno_gnuplot(struct run *r, FILE *f)
{
	const struct series_name *nm = &r->names[0];
	const struct accum *a = &nm->agg;
	const struct histogram *h = &a->lin;
	double b = (double)r->o->hist_bucket_ns / 1000.0, mean = 0;
	char t[32], p[32], mn[16], av[16], mx[16], msw[16];
	size_t i, start, stop;
	struct utsname u;

	fmt_hms(t, run_actual_ns(r));
	fprintf(f, "# %s (%s, %s period, priority %d)\n", t, run_mode(r),
		fmt_time(p, r->o->period_ns), r->s[0].prio_now);
	fprintf(f, "# %11s|%11s|%11s|%8s|%6s|\n", "----lat min",
		"----lat avg", "----lat max", "-overrun", "---msw");
	stats_mean(&a->st, &mean);
	us_field(mn, sizeof(mn), a->st.min, a->st.n > 0);
	us_field(av, sizeof(av),
		 (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5), a->st.n > 0);
	us_field(mx, sizeof(mx), a->st.max, a->st.n > 0);
	msw_field(r, msw, sizeof(msw));
	fprintf(f, "# %s|%s|%s|%8" PRIu64 "|%s|\n", mn, av, mx, a->overruns,
		msw);
	/* where Xenomai has xeno-config --info */
	if (cobalt_build())
		fprintf(f, "# rtlat %s (built for %s)\n", RTLAT_VERSION,
			cobalt_system());
	else
		fprintf(f, "# rtlat %s\n", RTLAT_VERSION);
	if (uname(&u) == 0)
		fprintf(f, "# %s %s %s %s\n", u.sysname, u.release, u.version,
			u.machine);
	if (!h->count)
		return 0;
	if (h->underflow || h->overflow)
		fprintf(f, "# rtlat: %" PRIu64 " samples below 0 us and %" PRIu64 " at or above %g us are not in the cells below (Xenomai folds the former into them and adds the latter to the last cell)\n",
			h->underflow, h->overflow, (double)h->nbuckets * b);
	for (start = 0; start < h->nbuckets && !h->count[start]; start++)
		;
	if (start == h->nbuckets)
		return 0;
	for (stop = h->nbuckets - 1; !h->count[stop]; stop--)
		;
	/* Xenomai's: a 1 at both ends, each count + 1 (log scale) */
	fprintf(f, "%g 1\n", (double)start * b);
	for (i = start; i <= stop; i++)
		fprintf(f, "%g %" PRIu64 "\n", ((double)i + 0.5) * b,
			h->count[i] + 1);
	fprintf(f, "%g 1\n", (double)(stop + 1) * b);
	return 0;
}

static void xeno_summary(struct run *r)
{
	if (xeno_compat_layout) {
		xeno3_summary(r);
		return;
	}
	xeno_summary_series(r, 0);
	figures_lines(r, LINE_SUMMARY);
	run_report_outcome(r);
}

const struct output_ops xeno_output = {
	.start = xeno_banner,
	.interval = xeno_interval,
	.summary = xeno_summary,
};
