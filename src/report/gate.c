// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The release gate (rtlat compare --gate, rtlat suite --gate): side A is
 * a board's baseline, side B the new runs; documented in docs/report.md
 * ("Release gate"). Per table and gated metric:
 *
 *  - the limit: how much worse B may be. For a time, the noise the
 *    baseline's repeated runs show (the range of the metric over its
 *    runs) when it has two runs or more, and never less than the margin
 *    (a fraction of the baseline value, default 10 %); the new runs' own
 *    spread never widens it (a regression that makes runs erratic must
 *    not pass). With a baseline of one run the noise is unknown and the
 *    margin alone is the limit (the reason says so). For overruns/lost:
 *    any where the baseline's runs had none fails; else the counts are
 *    compared as rates with the noise of bursts (see gate_count()). Never
 *    below the figures' resolution.
 *  - tails: a max depends on how many samples the run took. A B with more
 *    than twice the baseline's samples is compared by its quantile at the
 *    baseline's sample count, 1 - 1/N (from its histogram; without one
 *    the verdict is weak); a B with less than half is weak unless it is
 *    worse anyway. A p99.9 of fewer than 10000 samples (fewer than 10
 *    beyond it) is weak.
 *  - the verdict: worse (GATE_FAIL) when B - A exceeds the limit, cannot
 *    tell (GATE_WEAK; fails only with --cannot-tell fail), same
 *    (GATE_PASS), n/a when the metric is not known on both sides.
 *  - lat max, lat avg and p99.9 of runs with interval series and
 *    histograms: the noise model of verdict.c from the baseline alone
 *    (gate_model()), at least the margin; the rules above otherwise.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/label.h"
#include "util/log.h"
#include "report/report.h"
#include "report/verdict.h"

#define TAIL_MIN_BEYOND	10	/* samples beyond a percentile to trust it */
#define SAMPLES_RATIO	2.0	/* "like for like" sample counts */

/* --gate-metrics words, by metric */
static const char *const keys[CMP_METRICS] = {
	"min", "avg", "max", "p99.9", "misses",
};

void gate_opts_init(struct gate_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->metric[CMP_AVG] = o->metric[CMP_MAX] = true;
	o->metric[CMP_P999] = o->metric[CMP_MISS] = true;
	o->margin = 0.10;
	o->unit_ns = 1000;
}

const char *gate_metrics_parse(struct gate_opts *o, const char *list)
{
	static const char *const allowed =
		"a comma-separated list of min, avg, max, p99.9, misses (or overruns, lost)";
	char *copy = xstrdup(list), *tok, *save = NULL;
	bool m[CMP_METRICS] = { false };
	size_t len = strlen(list);
	int k, n = 0;

	/* an empty word ("max,", ",max", "max,,avg") is a mistake, not nothing */
	if (!len || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")) {
		free(copy);
		return allowed;
	}
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "overruns") || !strcmp(tok, "lost"))
			tok = "misses";
		for (k = 0; k < CMP_METRICS; k++)
			if (!strcmp(tok, keys[k]))
				break;
		if (k == CMP_METRICS) {
			free(copy);
			return allowed;
		}
		m[k] = true;
		n++;
	}
	free(copy);
	if (!n)
		return allowed;
	memcpy(o->metric, m, sizeof(m));
	return NULL;
}

const char *gate_margin_parse(struct gate_opts *o, const char *arg)
{
	size_t digits = strspn(arg, "0123456789.");
	char *end;
	double v;

	/* decimal only: strtod() also takes "0x10" and "1e3" */
	if (!digits || (arg[digits] && strcmp(arg + digits, "%") != 0) ||
	    strchr(arg, '.') != strrchr(arg, '.'))
		return "a relative margin in percent from 0 to 1000, e.g. 10%";
	v = strtod(arg, &end);
	if (end == arg || (*end && strcmp(end, "%") != 0) || !isfinite(v) ||
	    v < 0 || v > 1000)
		return "a relative margin in percent from 0 to 1000, e.g. 10%";
	o->margin = v / 100;
	return NULL;
}

const char *gate_cannot_tell_parse(struct gate_opts *o, const char *arg)
{
	if (!strcmp(arg, "pass") || !strcmp(arg, "fail")) {
		o->cannot_tell_fails = !strcmp(arg, "fail");
		return NULL;
	}
	return "pass (a metric the data cannot tell does not fail the gate) or fail";
}

const char *gate_verdict_name(enum gate_verdict v)
{
	switch (v) {
	case GATE_PASS:
		return "same";
	case GATE_WEAK:
		return "cannot tell";
	case GATE_FAIL:
		return "worse";
	default:
		return "n/a";
	}
}

static double median(double *x, size_t k)
{
	size_t i, j;

	for (i = 1; i < k; i++)	/* a handful of runs: insertion sort */
		for (j = i; j > 0 && x[j - 1] > x[j]; j--) {
			double t = x[j];

			x[j] = x[j - 1];
			x[j - 1] = t;
		}
	return k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
}

/* Median sample count of the runs of a side (per run); 0 when unknown. */
static double side_samples(struct rep_run *const *v, size_t n, double *least)
{
	double *x = xmalloc(n * sizeof(*x)), m = 0;
	size_t i, k = 0;

	*least = 0;
	for (i = 0; i < n; i++)
		if (v[i]->sum.has_samples && v[i]->sum.samples)
			x[k++] = (double)v[i]->sum.samples;
	if (k) {
		m = median(x, k);
		*least = x[0];	/* sorted by median() */
	}
	free(x);
	return m;
}

/* B's max at @den samples: the median over B's runs of their quantile
 * 1 - 1/@den; false when a run has no histogram to tell. */
static bool max_at(struct rep_run *const *v, size_t n, uint64_t den,
		   double *out, bool *bound)
{
	double *x = xmalloc(n * sizeof(*x));
	size_t i, k = 0;

	*bound = false;
	for (i = 0; i < n; i++) {
		int64_t q;
		bool b;

		if (!v[i]->sum.has_stats)
			continue;
		if (!series_quantile(&v[i]->sum, den, &q, &b)) {
			free(x);
			return false;
		}
		*bound |= b;
		x[k++] = (double)q;
	}
	if (k)
		*out = median(x, k);
	free(x);
	return k > 0;
}

static int64_t resolution(struct rep_run *const *v, size_t n, int64_t r)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->resolution_ns > r)
			r = v[i]->resolution_ns;
	return r;
}

/* "12.345 us" or "12345 ns" */
/* "100 us", "12.5 us" */
static const char *period_text(char *buf, size_t len, int64_t ns)
{
	if (ns % 1000 == 0)
		snprintf(buf, len, "%lld us", (long long)(ns / 1000));
	else
		snprintf(buf, len, "%.3f us", (double)ns / 1000);
	return buf;
}

/* "10 %", "5.5 %": the margin as given */
static const char *pct_text(char *buf, size_t len, double fraction)
{
	snprintf(buf, len, "%g %%", fraction * 100);
	return buf;
}

static const char *fig(char *buf, size_t len, double ns, int64_t unit)
{
	char d[TB_CELL];

	fmt_fig(d, sizeof(d), true, fabs(ns), unit);
	snprintf(buf, len, "%s%s %s", ns < 0 ? "-" : "", d,
		 unit == 1000 ? "us" : "ns");
	return buf;
}

/* Misses and periods (samples + misses: the run's length) summed over
 * the runs of a side, and the range of the runs' rates; false when a run
 * with a miss count has no sample count (its length is not known). */
static bool side_periods(struct rep_run *const *v, size_t n, double *miss,
			 double *periods, double *rate_range)
{
	double lo = 0, hi = 0;
	size_t i, k = 0;

	*miss = *periods = *rate_range = 0;
	for (i = 0; i < n; i++) {
		const struct rep_series *x = &v[i]->sum;
		double p, r;

		if (!x->has_misses || run_no_samples(v[i]))
			continue;
		if (!x->has_samples)
			return false;
		p = (double)x->samples + (double)x->misses;
		if (p <= 0)
			continue;
		r = (double)x->misses / p;
		lo = k ? fmin(lo, r) : r;
		hi = k ? fmax(hi, r) : r;
		k++;
		*miss += (double)x->misses;
		*periods += p;
	}
	*rate_range = hi - lo;
	return k > 0;
}

/*
 * Overruns/lost: any in the new runs where the baseline's runs had none
 * fails ("appearing where the baseline had none"). Else a count grows
 * with the run's length, so the sides are compared as rates over periods
 * (samples + misses): the baseline's rate (its misses over its periods,
 * all its runs together) gives the count expected in the new runs'
 * periods, E = A * Pb / Pa. B fails when it exceeds E by more than the
 * limit. Misses come in bursts, not one by one: one stall of L costs
 * about L / period misses at once, so the counts are compound Poisson
 * (bursts of size s: the variance of a count N is s * N). The burst size
 * is taken as s = the baseline's max latency / the period (its worst
 * stall's misses; at least 1), and the noise of B - E is
 * 2 * sqrt(s * (B + A * (Pb / Pa)^2)) (2 * sqrt(A + B) for s = 1 at equal
 * lengths); the limit is at least the spread of the baseline runs' rates
 * and the margin, both at the new runs' length. Without the run lengths,
 * counts as they are.
 */
static void gate_count(struct gate_metric *g, const struct cmp_row *c,
		       double margin, struct rep_run *const *a, size_t na,
		       struct rep_run *const *b, size_t nb)
{
	const struct cmp_metric *x = &c->m[CMP_MISS];
	const struct cmp_metric *mx = &c->m[CMP_MAX];
	double ma, pa, ra, mb, pb, rb, f, e, poisson, d, sp, burst = 1;
	char spread[112] = "", marg[64] = "", bursts[128] = "", t[24];
	bool rates;

	g->noise_known = true;
	rates = side_periods(a, na, &ma, &pa, &ra) &&
		side_periods(b, nb, &mb, &pb, &rb) && pa > 0 && pb > 0;
	if (!rates) {
		ma = x->a;
		mb = x->b;
		pa = pb = 1;
	}
	/* the spread of the baseline runs at the new runs' length */
	sp = rates ? ra * pb : x->range_a;
	f = pb / pa;
	e = ma * f;
	d = mb - e;
	g->value = mb;
	g->expected = e;
	g->has_expected = true;
	if (ma == 0) {
		g->limit = 0;
		g->v = mb > 0 ? GATE_FAIL : GATE_PASS;
		snprintf(g->reason, sizeof(g->reason),
			 mb > 0 ? "%.0f where the %zu baseline run%s had none: they appeared" :
			 "%.0f, as in the %zu baseline run%s",
			 mb, x->ka, x->ka == 1 ? "" : "s");
		return;
	}
	if (mx->has_a && a[0]->period_ns > 0 &&
	    mx->a > (double)a[0]->period_ns) {
		burst = mx->a / (double)a[0]->period_ns;
		snprintf(bursts, sizeof(bursts),
			 " in bursts of up to %.0f (the baseline's max / its period of %s)",
			 burst, period_text(t, sizeof(t), a[0]->period_ns));
	}
	poisson = 2 * sqrt(burst * (mb + ma * f * f));
	g->limit = poisson;
	if (x->ka >= 2) {
		snprintf(spread, sizeof(spread), ", the spread of the %zu baseline runs %.1f",
			 x->ka, sp);
		g->limit = fmax(g->limit, sp);
	}
	if (margin > 0 && e > 0) {
		snprintf(marg, sizeof(marg), ", the margin %s %.1f",
			 pct_text(t, sizeof(t), margin), margin * e);
		g->limit = fmax(g->limit, margin * e);
	}
	g->v = d > g->limit ? GATE_FAIL : GATE_PASS;
	if (rates)
		snprintf(g->reason, sizeof(g->reason),
			 "%.0f in %.0f periods against %.0f in %.0f periods of the baseline (%zu run%s): at the baseline's rate %.1f expected, %+.1f: %s the limit %.1f (the larger of the Poisson noise%s %.1f%s%s)",
			 mb, pb, ma, pa, x->ka, x->ka == 1 ? "" : "s", e, d,
			 d > g->limit ? "more than" : "within", g->limit,
			 bursts, poisson, spread, marg);
	else
		snprintf(g->reason, sizeof(g->reason),
			 "%.0f against %.0f (%+.0f; run lengths unknown: counts compared as they are): %s the limit %.1f (the larger of the Poisson noise%s %.1f%s%s)",
			 mb, ma, d, d > g->limit ? "more than" : "within",
			 g->limit, bursts, poisson, spread, marg);
}

/*
 * Metric max, avg or p99.9 by the noise model of verdict.c, from the
 * runs' interval series and histograms: worse, same or cannot tell, at
 * least the margin and the resolution; the spread of the baseline's runs
 * still counts for the max when it has VD_MIN_RUNS or more. False when
 * the model has no data (no interval series, no histogram): the rule of
 * gate_metric() then.
 */
static bool gate_model(struct gate_metric *g, const struct cmp_row *c, int m,
		       struct rep_run *const *a, size_t na,
		       struct rep_run *const *b, size_t nb,
		       const struct gate_opts *o, double res)
{
	const struct cmp_metric *x = &c->m[m];
	struct vd_ask q = { .gate = true, .unit_ns = o->unit_ns,
			    .floor_ns = res, .margin = o->margin };
	struct vd_judgement j = { .v = VD_NA };
	char t1[48], t2[48], t3[48], spread[96] = "";
	double d = x->b - x->a;
	bool ok;

	ok = m == CMP_MAX ? vd_max(a, na, b, nb, x->a, x->b, &q, &j) :
	     m == CMP_AVG ? vd_avg(a, na, b, nb, x->a, x->b, &q, &j) :
	     m == CMP_P999 ? vd_pct(a, na, b, nb, x->a, x->b, 1000, &q, &j) :
	     false;
	if (!ok)
		return false;
	if (m == CMP_MAX && x->ka >= VD_MIN_RUNS && x->range_a > j.limit) {
		j.limit = x->range_a;
		if (j.v == VD_WORSE && d <= j.limit)
			j.v = VD_SAME;
		snprintf(spread, sizeof(spread), "; the spread of the %zu baseline runs %s",
			 x->ka, fig(t1, sizeof(t1), x->range_a, o->unit_ns));
	}
	g->v = j.v == VD_WORSE ? GATE_FAIL : j.v == VD_SAME ? GATE_PASS :
	       GATE_WEAK;
	g->limit = j.limit;
	g->value = x->b;
	g->noise_known = true;
	if (fabs(d) < 1.0) {	/* below 1 ns, the figures' precision */
		snprintf(g->reason, sizeof(g->reason),
			 "the same: within the limit %s (noise: %s%s; margin %s)",
			 fig(t2, sizeof(t2), j.limit, o->unit_ns), j.how, spread,
			 pct_text(t3, sizeof(t3), o->margin));
		return true;
	}
	snprintf(g->reason, sizeof(g->reason),
		 "%s by %s (%s%+.1f %%): %s the limit %s (noise: %s%s; margin %s)",
		 d > 0 ? "higher" : "lower", fig(t1, sizeof(t1), fabs(d), o->unit_ns),
		 x->a != 0 ? "" : "n/a ", x->a != 0 ? 100 * d / fabs(x->a) : 0.0,
		 d > j.limit ? "beyond" : "within",
		 fig(t2, sizeof(t2), j.limit, o->unit_ns), j.how, spread,
		 pct_text(t3, sizeof(t3), o->margin));
	return true;
}

/* Verdict on metric @m of row @c (A = @a, B = @b). */
static void gate_metric(struct gate_metric *g, const struct cmp_row *c, int m,
			struct rep_run *const *a, size_t na,
			struct rep_run *const *b, size_t nb,
			const struct gate_opts *o)
{
	const struct cmp_metric *x = &c->m[m];
	int64_t u = o->unit_ns;
	char noise[160], marg[96], t1[48], t2[48], t3[48], tail[192] = "";
	double sa, sb, least_a, least_b, mabs, d, res;
	bool weak = false, shorter = false;

	g->gated = true;
	g->key = m != CMP_MISS ? keys[m] :
		 (c->a->miss ? c->a->miss : c->b->miss) == MISS_LOST ? "lost" :
		 "overruns";
	if (!x->known) {
		g->v = GATE_NA;
		snprintf(g->reason, sizeof(g->reason), "%s",
			 x->has_a && x->has_b ?
			 "a lower bound (>=N) on one side: not compared" :
			 !x->has_a ? "not known in the baseline" :
			 "not known in the new runs");
		return;
	}
	if (m == CMP_MISS) {
		gate_count(g, c, o->margin, a, na, b, nb);
		return;
	}
	res = (double)resolution(b, nb, resolution(a, na, 1));
	if (gate_model(g, c, m, a, na, b, nb, o, res))
		return;
	mabs = o->margin * fabs(x->a);
	snprintf(marg, sizeof(marg), "margin %s = %s",
		 pct_text(t2, sizeof(t2), o->margin),
		 fig(t1, sizeof(t1), mabs, u));
	g->noise_known = x->ka >= 2;
	if (g->noise_known) {
		/* the baseline's spread only: the new runs' would let a
		 * regression that makes them erratic widen its own limit */
		snprintf(noise, sizeof(noise), "noise %s: the spread of %zu baseline runs; %s",
			 fig(t1, sizeof(t1), x->range_a, u), x->ka, marg);
		g->limit = fmax(x->range_a, mabs);
	} else {
		snprintf(noise, sizeof(noise), "noise unknown: the baseline has %zu run, too few to measure it; the %s%s",
			 x->ka, marg,
			 o->margin == 0 ? " (no margin: any worsening fails)" : "");
		g->limit = mabs;
	}
	if (g->limit < res)
		g->limit = res;
	g->value = x->b;
	sa = side_samples(a, na, &least_a);
	sb = side_samples(b, nb, &least_b);
	if (m == CMP_MAX && sa > 0 && sb > SAMPLES_RATIO * sa) {
		double q;
		bool bound;

		if (max_at(b, nb, (uint64_t)sa, &q, &bound) &&
		    (!bound || q - x->a > g->limit)) {
			g->value = q;
			snprintf(tail, sizeof(tail),
				 "; the new runs took %.1fx the baseline's samples: compared at equal samples, their quantile 1 - 1/%.0f, %s",
				 sb / sa, sa, fig(t1, sizeof(t1), q, u));
		} else {
			weak = true;
			snprintf(tail, sizeof(tail),
				 "; the new runs took %.1fx the baseline's samples, and a longer run's max is higher: not like for like (no histogram to compare at equal samples)",
				 sb / sa);
		}
	} else if (m == CMP_MAX && sb > 0 && sa > SAMPLES_RATIO * sb) {
		shorter = true;
		snprintf(tail, sizeof(tail),
			 "; the new runs took %.1fx fewer samples than the baseline: a shorter run's max can miss what a longer one meets",
			 sa / sb);
	} else if (m == CMP_P999) {
		double least = least_a && least_b ? fmin(least_a, least_b) :
			       fmax(least_a, least_b);

		if (least > 0 && least < TAIL_MIN_BEYOND * 1000.0) {
			weak = true;
			snprintf(tail, sizeof(tail),
				 "; a p99.9 of %.0f samples rests on %.0f beyond it (fewer than %d): too few to tell",
				 least, floor(least / 1000), TAIL_MIN_BEYOND);
		}
	}
	d = g->value - x->a;
	if (weak)
		g->v = GATE_WEAK;
	else if (d > g->limit)
		g->v = GATE_FAIL;	/* a shorter run worse: worse anyway */
	else
		g->v = shorter ? GATE_WEAK : GATE_PASS;
	if (fabs(d) < 1.0)	/* below 1 ns, the figures' precision: not
				 * "better by 0.001 us (+0.0 %)" */
		snprintf(g->reason, sizeof(g->reason), "the same: within the limit %s (%s)%s",
			 fig(t3, sizeof(t3), g->limit, u), noise, tail);
	else
		snprintf(g->reason, sizeof(g->reason), "%s by %s (%s%+.1f %%): %s the limit %s (%s)%s",
			 d > 0 ? "worse" : "better", fig(t2, sizeof(t2), fabs(d), u),
			 x->a != 0 ? "" : "n/a ", x->a != 0 ? 100 * d / fabs(x->a) : 0.0,
			 d > g->limit ? "beyond" : "within",
			 fig(t3, sizeof(t3), g->limit, u), noise, tail);
}

static void gate_row(struct gate_row *r, struct rep_run *const *a, size_t na,
		     struct rep_run *const *b, size_t nb,
		     const struct gate_opts *o)
{
	int m;

	memset(r, 0, sizeof(*r));
	r->weak_fails = o->cannot_tell_fails;
	cmp_runs(a, na, b, nb, &r->c);
	for (m = 0; m < CMP_METRICS; m++) {
		if (!o->metric[m] || !r->c.m[m].name[0])
			continue;
		gate_metric(&r->g[m], &r->c, m, a, na, b, nb, o);
		r->fail |= r->g[m].v == GATE_FAIL ||
			   (o->cannot_tell_fails && r->g[m].v == GATE_WEAK);
	}
}

/* How many runs of @b (by identity) are also @a's; @label: the first
 * one's label (or NULL). */
static size_t in_baseline(const struct group *a, const struct group *b,
			  const char **label)
{
	char x[REP_IDENT_LEN], y[REP_IDENT_LEN];
	size_t i, j, n = 0;
	bool in;

	*label = NULL;
	for (j = 0; j < b->n; j++) {
		rdb_identity(b->v[j], y);
		for (i = 0, in = false; i < a->n && !in; i++) {
			rdb_identity(a->v[i], x);
			in = !strcmp(x, y);
		}
		if (in && !n++)
			*label = b->v[j]->label;
	}
	return n;
}

/* The CPUs a run's threads sampled on ("0-1", "1"; "" when not told) and
 * their number. */
static size_t run_cpus(const struct rep_run *r, char *buf, size_t len)
{
	uint64_t set = 0;
	size_t i, k = 0;
	int c, lo = -1;

	buf[0] = '\0';
	for (i = 0; i < r->nthr; i++)
		if (r->thr[i].cpu >= 0 && r->thr[i].cpu < 64)
			set |= UINT64_C(1) << r->thr[i].cpu;
	for (c = 0; c <= 64 && k < len; c++) {
		bool on = c < 64 && (set >> c & 1);

		if (on && lo < 0)
			lo = c;
		if (!on && lo >= 0) {
			k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", lo);
			if (c - 1 > lo && k < len)
				k += (size_t)snprintf(buf + k, len - k, "-%d", c - 1);
			lo = -1;
		}
	}
	return r->nthr;
}

/* The boards of @g's runs: how many, the first two (NULL: not told). */
static size_t boards_of(const struct group *g, const char **first,
			const char **second)
{
	size_t i, n = 0;

	*first = *second = NULL;
	for (i = 0; i < g->n; i++) {
		const char *b = g->v[i]->board;

		if (!b || (n >= 1 && str_same(b, *first)) ||
		    (n >= 2 && str_same(b, *second)))
			continue;
		if (n == 0)
			*first = b;
		else if (n == 1)
			*second = b;
		n++;
	}
	return n;
}

/* A baseline of several boards (its noise is the spread between them), or
 * new runs of another board than the baseline's: said after @n bytes of
 * @r's note. */
static void board_notes(struct gate_row *r, const struct group *a,
			const struct group *b, size_t n)
{
	const char *a1, *a2, *b1, *b2;
	size_t na = boards_of(a, &a1, &a2), nb = boards_of(b, &b1, &b2);

	if (na > 1 && n < sizeof(r->note))
		n += (size_t)snprintf(r->note + n, sizeof(r->note) - n,
				      "%sthe baseline pools %zu boards (%s, %s%s): its noise is the spread between boards; select one (board=NAME,baseline=yes)",
				      n ? "; " : "", na, a1, a2, na > 2 ? ", ..." : "");
	if (na == 1 && nb >= 1 && (nb > 1 || !str_same(a1, b1)) &&
	    n < sizeof(r->note))
		snprintf(r->note + n, sizeof(r->note) - n,
			 "%sthe new runs are of board %s%s, the baseline of board %s: not like for like",
			 n ? "; " : "", b1, nb > 1 ? " and others" : "", a1);
}

/* What the verdicts of @r should be read with: the new runs sampled on
 * other CPUs or with another number of samplers than the baseline; a new
 * run that is one of the baseline's. */
static void gate_notes(struct gate_row *r, const struct group *a,
		       const struct group *b)
{
	char ca[96], cb[96];
	size_t ta = run_cpus(a->v[0], ca, sizeof(ca));
	size_t tb = run_cpus(b->v[0], cb, sizeof(cb));
	const char *self;
	size_t nself = in_baseline(a, b, &self), n = 0;

	r->note[0] = '\0';
	if (ta && tb && (ta != tb || strcmp(ca, cb) != 0))
		n += (size_t)snprintf(r->note, sizeof(r->note),
				      "the new runs sampled with %zu thread%s on CPU %s, the baseline with %zu on CPU %s: not the same placement",
				      tb, tb == 1 ? "" : "s", cb[0] ? cb : "?",
				      ta, ca[0] ? ca : "?");
	if (nself == 1 && b->n == 1 && n < sizeof(r->note))
		n += (size_t)snprintf(r->note + n, sizeof(r->note) - n,
				      "%sthe new run %s is itself in the baseline: it is compared with itself",
				      n ? "; " : "", self ? self : "");
	else if (nself && n < sizeof(r->note))
		n += (size_t)snprintf(r->note + n, sizeof(r->note) - n,
				      "%s%zu of the %zu new runs (%s%s) are in the baseline themselves: they are compared with themselves",
				      n ? "; " : "", nself, b->n, self ? self : "",
				      nself > 1 ? ", ..." : "");
	board_notes(r, a, b, n);
}

static void refuse(struct gate_refusal **ref, size_t *nref, const char *t,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Refuse table @t (said on stderr, and kept for the JSON). */
static void refuse(struct gate_refusal **ref, size_t *nref, const char *t,
		   const char *fmt, ...)
{
	struct gate_refusal *x;
	va_list ap;

	*ref = xrealloc(*ref, (*nref + 1) * sizeof(**ref));
	x = &(*ref)[(*nref)++];
	snprintf(x->title, sizeof(x->title), "%s", t);
	va_start(ap, fmt);
	vsnprintf(x->reason, sizeof(x->reason), fmt, ap);
	va_end(ap);
	log_error("gate refused: %s %s", t, x->reason);
}

/* Has @r a gated metric with a verdict (not n/a)? */
static bool gated_any(const struct gate_row *r)
{
	int m;

	for (m = 0; m < CMP_METRICS; m++)
		if (r->g[m].gated && r->g[m].v != GATE_NA)
			return true;
	return false;
}

/* Say in @r's note how many interrupted runs of each side were left out. */
static void interrupted_note(struct gate_row *r, size_t xa, size_t xb)
{
	size_t n = strlen(r->note);

	if ((xa || xb) && n < sizeof(r->note))
		snprintf(r->note + n, sizeof(r->note) - n,
			 "%sleft out, cut short by a signal: %zu interrupted run%s of the baseline, %zu of the new runs (compare --with-interrupted gates them)",
			 n ? "; " : "", xa, xa == 1 ? "" : "s", xb);
}

size_t gate_sides(const struct rep_runs *a, const struct rep_runs *b,
		  const struct gate_opts *o, struct gate_row **out,
		  struct gate_refusal **ref, size_t *nref)
{
	struct group *ga, *gb;
	size_t na = groups_make(a, &ga), nb = groups_make(b, &gb), i, k, n = 0;
	bool *used = xcalloc(na + 1, sizeof(*used));
	char t[448], t2[448], p1[48], p2[48];

	*out = xcalloc(nb + 1, sizeof(**out));
	*ref = NULL;
	*nref = 0;
	for (k = 0; k < nb; k++) {
		const struct rep_run *y = gb[k].v[0];
		size_t hit = na, kind = na;

		for (i = 0; i < na && hit == na; i++) {
			if (cmp_same_table(ga[i].v[0], y))
				hit = i;
			else if (kind == na && cmp_same_kind(ga[i].v[0], y))
				kind = i;
		}
		group_title(t, sizeof(t), &gb[k]);
		if (hit == na && kind < na) {
			size_t m = 0;

			/* every load the baseline has this test under */
			for (i = kind; i < na && m < sizeof(t2); i++) {
				if (!cmp_same_kind(ga[i].v[0], y))
					continue;
				if (m)
					m += (size_t)snprintf(t2 + m, sizeof(t2) - m, "; ");
				if (m < sizeof(t2))
					group_title(t2 + m, sizeof(t2) - m, &ga[i]);
				m = strlen(t2);
			}
			refuse(ref, nref, t, "has no baseline of the same load (the baseline has %s): runs under another load are not compared",
			       t2);
			continue;
		}
		if (hit == na) {
			refuse(ref, nref, t, "has no baseline of the same test kind: runs of another test are not compared");
			continue;
		}
		/* a checkpoint, a --break, a failed run: never gated; an
		 * interrupted one is left out below (--with-interrupted) */
		for (i = 0; i < gb[k].n && (!run_note(gb[k].v[i]) ||
					    run_interrupted(gb[k].v[i])); i++)
			;
		if (i < gb[k].n) {
			used[hit] = true;
			refuse(ref, nref, t, "has a new run that did not complete (%s: %s): a partial run is never gated",
			       run_note(gb[k].v[i]),
			       gb[k].v[i]->file ? gb[k].v[i]->file : "?");
			continue;
		}
		if (ga[hit].v[0]->period_ns > 0 && y->period_ns > 0 &&
		    ga[hit].v[0]->period_ns != y->period_ns) {
			used[hit] = true;
			refuse(ref, nref, t, "was sampled every %s, its baseline every %s: not compared",
			       period_text(p1, sizeof(p1), y->period_ns),
			       period_text(p2, sizeof(p2), ga[hit].v[0]->period_ns));
			continue;
		}
		used[hit] = true;
		{
			struct group ua, ub;
			size_t xa = group_uninterrupted(&ga[hit], o->with_interrupted, &ua);
			size_t xb = group_uninterrupted(&gb[k], o->with_interrupted, &ub);

			size_t nf;

			for (i = 0; i < ub.n && !run_no_samples(ub.v[i]); i++)
				;
			for (nf = 0; nf < ub.n && !run_no_figures(ub.v[nf]); nf++)
				;
			if (!ua.n || !ub.n) {
				refuse(ref, nref, t, "has only interrupted runs %s (cut short by a signal: not gated; compare --with-interrupted gates them)",
				       ua.n ? "among the new runs" : "in its baseline");
			} else if (i < ub.n) {
				/* a sampler that never took a sample (starved,
				 * every period missed) is no pass */
				refuse(ref, nref, t, "has a new run without a sample (%s): nothing measured is never gated",
				       ub.v[i]->file ? ub.v[i]->file : "?");
			} else if (nf < ub.n) {
				/* samples, but not one latency figure (NaN,
				 * null or missing min/avg/max): as little
				 * measured as no sample */
				refuse(ref, nref, t, "has a new run without latency figures (%s: %llu samples, no min/avg/max): nothing measured is never gated",
				       ub.v[nf]->file ? ub.v[nf]->file : "?",
				       (unsigned long long)ub.v[nf]->sum.samples);
			} else {
				gate_row(&(*out)[n], ua.v, ua.n, ub.v, ub.n, o);
				gate_notes(&(*out)[n], &ua, &ub);
				interrupted_note(&(*out)[n], xa, xb);
				if (!gated_any(&(*out)[n]))
					refuse(ref, nref, t, "has no gated metric known on both sides: nothing compared is never a pass");
				else
					n++;
			}
			free(ua.v);
			free(ub.v);
		}
	}
	for (i = 0; i < na; i++) {
		if (used[i])
			continue;
		group_title(t, sizeof(t), &ga[i]);
		log_note("baseline only (no new run of it): %s", t);
	}
	free(used);
	groups_free(ga, na);
	groups_free(gb, nb);
	return n;
}

bool gate_failed(const struct gate_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].fail)
			return true;
	return false;
}

void gate_print_text(FILE *f, const struct gate_row *g, bool markdown)
{
	int m;

	if (markdown)
		fputc('\n', f);
	for (m = 0; m < CMP_METRICS; m++)
		if (g->g[m].gated)
			fprintf(f, "%sgate %s: %s: %s\n", markdown ? "- " : "",
				g->c.m[m].name, gate_verdict_name(g->g[m].v),
				g->g[m].reason);
	if (g->note[0])
		fprintf(f, "%snote: %s\n", markdown ? "- " : "", g->note);
}

void gate_print_summary(FILE *f, const struct gate_row *rows, size_t n,
			size_t nref)
{
	size_t i, nfail = 0, nweak = 0, k = 0;
	char refused[96] = "";
	bool weak_fails = false;
	int m;

	for (i = 0; i < n; i++)
		for (m = 0; m < CMP_METRICS; m++) {
			nfail += rows[i].g[m].v == GATE_FAIL;
			nweak += rows[i].g[m].v == GATE_WEAK;
			weak_fails |= rows[i].g[m].v == GATE_WEAK &&
				      rows[i].weak_fails;
		}
	if (nref)
		snprintf(refused, sizeof(refused), "; %zu table%s refused, not compared (see above)",
			 nref, nref == 1 ? "" : "s");
	if (!nfail && !weak_fails) {
		fprintf(f, "gate: %s: no gated metric is worse than the baseline beyond its limit (%zu table%s, %zu cannot tell)%s\n",
			nref ? "refused" : "pass", n, n == 1 ? "" : "s", nweak,
			refused);
		return;
	}
	fprintf(f, "gate: fail: %s:", nfail ? "worse than the baseline beyond the limit" :
		"the data cannot tell (--cannot-tell fail)");
	for (i = 0; i < n; i++)
		for (m = 0; m < CMP_METRICS; m++)
			if (rows[i].g[m].v == GATE_FAIL ||
			    (rows[i].g[m].v == GATE_WEAK && rows[i].weak_fails))
				fprintf(f, "%s %s%s (%s)", k++ ? ";" : "",
					rows[i].c.m[m].name,
					rows[i].g[m].v == GATE_WEAK ?
					" cannot tell" : "",
					rows[i].c.title);
	fprintf(f, "%s\n", refused);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, const char *key, bool known, double v)
{
	fprintf(f, ", \"%s\": ", key);
	if (known)
		fprintf(f, "%.1f", v);
	else
		fputs("null", f);
}

const char *gate_overall(const struct gate_row *rows, size_t n, size_t nref)
{
	return gate_failed(rows, n) ? "fail" : nref ? "refused" : "pass";
}

void gate_print_json(FILE *f, const struct gate_row *rows, size_t n,
		     const struct gate_refusal *ref, size_t nref,
		     const struct gate_opts *o)
{
	size_t i;
	int m, k = 0;

	fprintf(f, "{\"schema\": \"rtlat-gate\", \"schema_version\": 1, \"verdict\": \"%s\", \"margin_pct\": %.1f, \"cannot_tell\": \"%s\", \"metrics\": [",
		gate_overall(rows, n, nref), o->margin * 100,
		o->cannot_tell_fails ? "fail" : "pass");
	for (m = 0; m < CMP_METRICS; m++)
		if (o->metric[m])
			fprintf(f, "%s\"%s\"", k++ ? ", " : "", keys[m]);
	fputs("],\n \"tables\": [", f);
	for (i = 0; i < n; i++) {
		const struct gate_row *r = &rows[i];

		fprintf(f, "%s\n  {\"title\": ", i ? "," : "");
		json_str(f, r->c.title);
		fputs(", \"baseline\": ", f);
		json_str(f, r->c.a_name);
		fputs(", \"new\": ", f);
		json_str(f, r->c.b_name);
		fprintf(f, ", \"baseline_runs\": %zu, \"new_runs\": %zu, \"verdict\": \"%s\"",
			r->c.na, r->c.nb, r->fail ? "fail" : "pass");
		if (r->note[0]) {
			fputs(", \"note\": ", f);
			json_str(f, r->note);
		}
		fputs(", \"metrics\": [", f);
		for (m = 0, k = 0; m < CMP_METRICS; m++) {
			const struct gate_metric *g = &r->g[m];
			const struct cmp_metric *x = &r->c.m[m];

			if (!g->gated)
				continue;
			fprintf(f, "%s\n    {\"metric\": ", k++ ? "," : "");
			json_str(f, x->name);
			fprintf(f, ", \"key\": ");
			json_str(f, g->key);
			fprintf(f, ", \"verdict\": \"%s\", \"unit\": \"%s\"",
				gate_verdict_name(g->v),
				m == CMP_MISS ? "count" : "ns");
			json_num(f, "baseline", x->has_a && !x->bound_a, x->a);
			json_num(f, "new", x->has_b && !x->bound_b, x->b);
			json_num(f, "compared", x->known, g->value);
			if (g->has_expected)
				json_num(f, "expected", x->known, g->expected);
			json_num(f, "limit", x->known, g->limit);
			fprintf(f, ", \"noise_known\": %s, \"reason\": ",
				g->noise_known ? "true" : "false");
			json_str(f, g->reason);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputs("],\n \"refused\": [", f);
	for (i = 0; i < nref; i++) {
		fprintf(f, "%s\n  {\"title\": ", i ? "," : "");
		json_str(f, ref[i].title);
		fputs(", \"reason\": ", f);
		json_str(f, ref[i].reason);
		fputc('}', f);
	}
	fputs("]}\n", f);
}
