// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The noise model of compare and the release gate: see verdict.h and
 * docs/report.md ("Verdicts: worse, same, cannot tell").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "report/report.h"
#include "report/verdict.h"

#define EULER_GAMMA	0.57721566490153286
#define SE_LEVEL	0.95	/* of the standard error of a fitted law */

const char *vd_name(enum vd_verdict v)
{
	switch (v) {
	case VD_SAME:
		return "same";
	case VD_CANNOT_TELL:
		return "cannot tell";
	case VD_WORSE:
		return "worse";
	case VD_BETTER:
		return "better";
	default:
		return "n/a";
	}
}

/* ---- arithmetic ---- */

static double norm_cdf(double x)
{
	return 0.5 * erfc(-x / M_SQRT2);
}

double vd_norm_quantile(double p)
{
	double lo = -40, hi = 40;
	int i;

	if (p <= 0)
		return -INFINITY;
	if (p >= 1)
		return INFINITY;
	for (i = 0; i < 200 && hi - lo > 1e-12; i++) {
		double mid = (lo + hi) / 2;

		if (norm_cdf(mid) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Student's t: exact for 1 and 2 degrees of freedom, else the
 * Cornish-Fisher expansion in 1/dof (Abramowitz and Stegun 26.7.5). */
double vd_t_quantile(double p, double dof)
{
	double x = vd_norm_quantile(p), x2 = x * x, g1, g2, g3, g4;

	if (dof < 1)
		dof = 1;
	if (dof < 1.5)
		return tan(M_PI * (p - 0.5));
	if (dof < 2.5)
		return (2 * p - 1) / sqrt(2 * p * (1 - p));
	g1 = (x2 + 1) * x / 4;
	g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
	g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
	g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x /
	     92160;
	return x + g1 / dof + g2 / (dof * dof) + g3 / (dof * dof * dof) +
	       g4 / (dof * dof * dof * dof);
}

static void mean_sd(const double *y, size_t n, double *mean, double *sd)
{
	double s = 0, q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += y[i];
	*mean = n ? s / (double)n : 0;
	for (i = 0; i < n; i++)
		q += (y[i] - *mean) * (y[i] - *mean);
	*sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
}

bool vd_gumbel_upper(const double *y, size_t n, double k, double alpha,
		     double *upper)
{
	double mean, sd, kf, se;

	if (n < 2 || k <= 0 || alpha <= 0 || alpha >= 1)
		return false;
	mean_sd(y, n, &mean, &sd);
	/*
	 * The maximum of one block is Gumbel(mu, beta): mean mu + gamma beta,
	 * sd beta pi / sqrt(6). The maximum of k blocks is Gumbel(mu + beta
	 * ln k, beta); its quantile p is mean + K sd with the frequency
	 * factor K = -(sqrt(6) / pi) (gamma + ln(-ln p) - ln k). The standard
	 * error of that estimate by moments is sd / sqrt(n) * sqrt(1 +
	 * 1.1396 K + 1.1 K^2) (Chow, Maidment and Mays, sec. 12.3).
	 */
	kf = -(sqrt(6.0) / M_PI) * (EULER_GAMMA + log(-log1p(-alpha)) - log(k));
	se = sd / sqrt((double)n) *
	     sqrt(fmax(0, 1 + 1.1396 * kf + 1.1 * kf * kf));
	*upper = mean + kf * sd + vd_t_quantile(SE_LEVEL, (double)(n - 1)) * se;
	return true;
}

void vd_rank_bounds(uint64_t n, double q, double z, uint64_t *lo,
		    uint64_t *hi)
{
	double r = (double)n * q, h = z * sqrt((double)n * q * (1 - q));
	double l = floor(r - h), u = ceil(r + h);

	*lo = l < 1 ? 1 : l > (double)n ? n : (uint64_t)l;
	*hi = u < 1 ? 1 : u > (double)n ? n : (uint64_t)u;
}

bool vd_value_at_rank(const struct rep_series *s, uint64_t rank, double *v)
{
	const struct rep_hist *h = &s->hist;
	uint64_t seen = h->underflow;
	size_t i;

	if (!h->n || !s->has_stats || rank <= h->underflow ||
	    (h->abs_folded && s->min < 0))
		return false;
	for (i = 0; i < h->n; i++) {
		seen += h->b[i].count;
		if (seen >= rank) {
			double x = (double)(h->quantized ? h->b[i].lo :
					    h->b[i].hi);

			*v = fmin(fmax(x, (double)s->min), (double)s->max);
			return true;
		}
	}
	return false;	/* in the overflow: no value */
}

/* ---- what the runs hold ---- */

static double lg(double x)
{
	return log(x > 1 ? x : 1);
}

static bool has_data(const struct rep_run *r)
{
	return r->sum.has_stats && !(r->sum.has_samples && !r->sum.samples);
}

static int dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double median(double *x, size_t k)
{
	qsort(x, k, sizeof(*x), dbl_cmp);
	return k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
}

/* The interval maxima of @v's runs (malloc'd, *@y),
 * their number, and the mean samples of an interval (0: not told). */
static size_t blocks(struct rep_run *const *v, size_t n, double **y,
		     double *per_block)
{
	size_t i, j, k = 0, cap = 0, ks = 0;
	double ss = 0;

	*y = NULL;
	for (i = 0; i < n; i++) {
		const struct rep_series *s = &v[i]->sum;

		if (!has_data(v[i]))
			continue;
		for (j = 0; j < s->nint; j++) {
			const struct rep_interval *iv = &s->iv[j];

			if (!iv->has_stats || (iv->has_samples && !iv->samples))
				continue;
			if (k == cap) {
				cap = cap ? 2 * cap : 64;
				*y = xrealloc(*y, cap * sizeof(**y));
			}
			(*y)[k++] = (double)iv->max;
			if (iv->has_samples) {
				ss += (double)iv->samples;
				ks++;
			}
		}
	}
	*per_block = ks ? ss / (double)ks : 0;
	return k;
}

/* The exposure of a side in blocks of @per_block samples: the median run's
 * samples / @per_block, else its intervals. */
static double exposure(struct rep_run *const *v, size_t n, double per_block)
{
	double *x = xmalloc((n + 1) * sizeof(*x)), e = 0;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const struct rep_series *s = &v[i]->sum;

		if (!has_data(v[i]))
			continue;
		if (per_block > 0 && s->has_samples)
			x[k++] = (double)s->samples / per_block;
		else if (s->nint)
			x[k++] = (double)s->nint;
	}
	if (k)
		e = median(x, k);
	free(x);
	return e;
}

static const char *fig(char *buf, size_t len, double ns, int64_t unit)
{
	char d[TB_CELL];

	fmt_fig(d, sizeof(d), true, fabs(ns), unit);
	snprintf(buf, len, "%s%s %s", ns < 0 ? "-" : "", d,
		 unit == 1000 ? "us" : "ns");
	return buf;
}

/* The verdict from the limits: @enough data for the model; @runs_known:
 * the spread from one run to the next is in the limits (else a
 * difference beyond them cannot be told from a run's luck). */
static void decide(struct vd_judgement *j, const struct vd_ask *q, double va,
		   double vb, double up, double down, bool enough,
		   bool runs_known)
{
	double fl = fmax(q->floor_ns, q->margin * fabs(va)), d = vb - va;

	up = fmax(up, fl);
	down = fmax(down, fl);
	j->limit = up;
	if (!enough)	/* not higher (lower) beyond the floor: whatever
			 * the noise, not worse (better) */
		j->v = d <= fl && (q->gate || -d <= fl) ? VD_SAME :
		       VD_CANNOT_TELL;
	else if (d > up)
		j->v = runs_known ? VD_WORSE : VD_CANNOT_TELL;
	else if (!q->gate && -d > down)
		j->v = runs_known ? VD_BETTER : VD_CANNOT_TELL;
	else
		j->v = VD_SAME;
}

/* ---- max: block maxima ---- */

/* The upper limit (ns) of the max of @o's runs from the blocks of @r's;
 * *@nb: @r's blocks (too few: false); *@k: the exposure in blocks. */
static bool max_limit(struct rep_run *const *r, size_t nr,
		      struct rep_run *const *o, size_t no, double *lim,
		      size_t *nblk, double *k)
{
	double *y, per, u;
	bool ok;

	*nblk = blocks(r, nr, &y, &per);
	*k = exposure(o, no, per);
	ok = *nblk >= VD_MIN_BLOCKS && *k > 0 &&
	     vd_gumbel_upper(y, *nblk, *k, VD_ALPHA, &u);
	free(y);
	if (ok)	/* at most 2^53 ns (104 days) */
		*lim = fmin(u, (double)REP_MAX_VALUE);
	return ok;
}

bool vd_max(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, const struct vd_ask *q,
	    struct vd_judgement *j)
{
	double la = 0, lb = 0, ka = 0, kb = 0;
	size_t nba = 0, nbb = 0;
	bool oka, okb;
	char t1[48];

	memset(j, 0, sizeof(*j));
	oka = max_limit(a, na, b, nb, &la, &nba, &kb);
	okb = q->gate || max_limit(b, nb, a, na, &lb, &nbb, &ka);
	if (!nba && (q->gate || !nbb))
		return false;	/* no interval series: no model */
	snprintf(j->src, sizeof(j->src), "blocks");
	/* worse: B above A's law at B's exposure (vb > la); better: A above
	 * B's law at A's exposure (va > lb), i.e. A - B beyond lb - vb */
	decide(j, q, va, vb, oka ? la - va : 0, okb && !q->gate ? lb - vb : 0,
	       oka && okb, true);
	if (!oka)
		snprintf(j->how, sizeof(j->how),
			 "%zu interval maxima in %s, too few to fit their law (at least %d)",
			 nba, q->gate ? "the baseline" : "A", VD_MIN_BLOCKS);
	else if (!okb)
		snprintf(j->how, sizeof(j->how),
			 "%zu interval maxima in B, too few to fit their law (at least %d)",
			 nbb, VD_MIN_BLOCKS);
	else
		snprintf(j->how, sizeof(j->how),
			 "the Gumbel law of %zu %s interval maxima puts the max over %s %.1f intervals below %s (%g %%)",
			 nba, q->gate ? "baseline" : "A's",
			 q->gate ? "the new runs'" : "B's", kb,
			 fig(t1, sizeof(t1), la, q->unit_ns),
			 100 * (1 - VD_ALPHA));
	return true;
}

/* ---- avg: batch means, and the spread of runs ---- */

/* Relative standard error of a run's average from its interval averages
 * (batch means); false with fewer than VD_MIN_BATCHES. */
static bool batch_se(const struct rep_run *r, double *rel, size_t *nbat)
{
	const struct rep_series *s = &r->sum;
	double *x = xmalloc((s->nint + 1) * sizeof(*x)), mean, sd;
	size_t j, k = 0;

	for (j = 0; j < s->nint; j++)
		if (s->iv[j].has_stats &&
		    !(s->iv[j].has_samples && !s->iv[j].samples))
			x[k++] = s->iv[j].avg;
	*nbat = k;
	mean_sd(x, k, &mean, &sd);
	free(x);
	if (k < VD_MIN_BATCHES || mean <= 0)
		return false;
	*rel = sd / sqrt((double)k) / mean;
	return true;
}

/* The side's relative standard error: its runs' batch means together
 * (each run's, over the number of runs); false when a run has too few. */
static bool side_batch_se(struct rep_run *const *v, size_t n, double *rel,
			  size_t *nbat)
{
	double q = 0, r;
	size_t i, k = 0, nb, least = SIZE_MAX;

	for (i = 0; i < n; i++) {
		if (!has_data(v[i]))
			continue;
		if (!batch_se(v[i], &r, &nb))
			return false;
		q += r * r;
		least = nb < least ? nb : least;
		k++;
	}
	if (!k)
		return false;
	*rel = sqrt(q) / (double)k;
	*nbat = least;
	return true;
}

/* Sum of squares of the logs of @val over @v's runs about their mean,
 * and the runs; @val of a run, false when it has none. */
static size_t log_spread(struct rep_run *const *v, size_t n,
			 bool (*val)(const struct rep_run *, uint64_t, double *),
			 uint64_t den, double *ss)
{
	double *x = xmalloc((n + 1) * sizeof(*x)), mean, sd;
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		double t;

		if (has_data(v[i]) && val(v[i], den, &t))
			x[k++] = lg(t);
	}
	mean_sd(x, k, &mean, &sd);
	free(x);
	*ss = k > 1 ? sd * sd * (double)(k - 1) : 0;
	return k;
}

/* The spread of runs, on the log scale: its sd and degrees of freedom
 * from A (the gate) or both sides (sides of 2 runs or more); false
 * unless a side has VD_MIN_RUNS runs. */
static bool runs_spread(struct rep_run *const *a, size_t na,
			struct rep_run *const *b, size_t nb, bool gate,
			bool (*val)(const struct rep_run *, uint64_t, double *),
			uint64_t den, double *sd, double *dof, size_t *ka,
			size_t *kb)
{
	double ssa, ssb, ss = 0, df = 0;

	*ka = log_spread(a, na, val, den, &ssa);
	*kb = log_spread(b, nb, val, den, &ssb);
	if (*ka >= 2) {
		ss += ssa;
		df += (double)(*ka - 1);
	}
	if (!gate && *kb >= 2) {
		ss += ssb;
		df += (double)(*kb - 1);
	}
	if (*ka < VD_MIN_RUNS && (gate || *kb < VD_MIN_RUNS))
		return false;
	*sd = sqrt(ss / df);
	*dof = df;
	return true;
}

static bool run_avg(const struct rep_run *r, uint64_t den, double *v)
{
	(void)den;
	*v = r->sum.avg;
	return r->sum.has_stats;
}

/* Limits (up, down) of B - A for a spread @sd of the logs over @ka and
 * @kb runs at @dof degrees of freedom. */
static void spread_limits(double va, double sd, double dof, size_t ka,
			  size_t kb, double *up, double *down)
{
	double l = vd_t_quantile(1 - VD_ALPHA, dof) * sd *
		   sqrt(1.0 / (double)(ka ? ka : 1) + 1.0 / (double)(kb ? kb : 1));

	*up = fabs(va) * expm1(l);
	*down = fabs(va) * -expm1(-l);
}

bool vd_avg(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, const struct vd_ask *q,
	    struct vd_judgement *j)
{
	double sd, dof, up, down, ra, rb, l;
	size_t ka, kb, ba, bb;

	memset(j, 0, sizeof(*j));
	if (runs_spread(a, na, b, nb, q->gate, run_avg, 0, &sd, &dof, &ka,
			&kb)) {
		spread_limits(va, sd, dof, ka, kb, &up, &down);
		snprintf(j->src, sizeof(j->src), "runs");
		decide(j, q, va, vb, up, down, true, true);
		snprintf(j->how, sizeof(j->how),
			 "the spread of %s runs' averages: sd %.1f %%, t(%g %%, %.0f dof) for %zu against %zu run%s",
			 q->gate ? "the baseline" : "the", 100 * expm1(sd),
			 100 * (1 - VD_ALPHA), dof, kb, ka, ka == 1 ? "" : "s");
		return true;
	}
	if (!side_batch_se(a, na, &ra, &ba) || !side_batch_se(b, nb, &rb, &bb))
		return false;
	l = vd_t_quantile(1 - VD_ALPHA, (double)((ba < bb ? ba : bb) - 1)) *
	    sqrt(ra * ra + rb * rb);
	snprintf(j->src, sizeof(j->src), "batches");
	decide(j, q, va, vb, fabs(va) * expm1(l), fabs(va) * -expm1(-l), true,
	       false);
	snprintf(j->how, sizeof(j->how),
		 "batch means of %zu and %zu intervals: standard error %.2f %% and %.2f %%%s",
		 ba, bb, 100 * ra, 100 * rb,
		 j->v == VD_CANNOT_TELL ?
		 "; the runs differ beyond their own noise, and fewer than 3 runs a side cannot tell a run's luck from a change" :
		 "");
	return true;
}

/* ---- percentiles: the rank's confidence interval ---- */

static bool run_pct_at(const struct rep_run *r, uint64_t den, double *v)
{
	int64_t x;
	bool bound;

	if (!series_quantile(&r->sum, den, &x, &bound) || bound)
		return false;
	*v = (double)x;
	return true;
}

/* The medians over @v's runs of the values at the lower and upper rank
 * bound of quantile 1 - 1/@den; *@least: the fewest samples of a run.
 * 0: no histogram; -1: a run with too few samples beyond it or a rank
 * beyond the histogram; 1: done. */
static int pct_bounds(struct rep_run *const *v, size_t n, uint64_t den,
		      double *lo, double *hi, uint64_t *least)
{
	double *xl = xmalloc((n + 1) * sizeof(*xl)), *xh = xmalloc((n + 1) * sizeof(*xh));
	double z = vd_norm_quantile(1 - VD_ALPHA);
	size_t i, k = 0;
	int ret = 1;

	*least = 0;
	for (i = 0; i < n && ret == 1; i++) {
		const struct rep_series *s = &v[i]->sum;
		uint64_t rl, rh, cnt;

		if (!has_data(v[i]))
			continue;
		if (!s->hist.n) {
			ret = 0;
			break;
		}
		cnt = rep_hist_total(&s->hist);
		if (!*least || cnt < *least)
			*least = cnt;
		if (cnt / den < VD_MIN_BEYOND) {
			ret = -1;
			break;
		}
		vd_rank_bounds(cnt, 1 - 1.0 / (double)den, z, &rl, &rh);
		if (!vd_value_at_rank(s, rl, &xl[k]) ||
		    !vd_value_at_rank(s, rh, &xh[k]))
			ret = -1;
		else
			k++;
	}
	if (ret == 1 && !k)
		ret = 0;
	if (ret == 1) {
		*lo = median(xl, k);
		*hi = median(xh, k);
	}
	free(xl);
	free(xh);
	return ret;
}

bool vd_pct(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, uint64_t den,
	    const struct vd_ask *q, struct vd_judgement *j)
{
	double loa = 0, hia = 0, lob = 0, hib = 0, up, down, sd, dof;
	uint64_t la, lb;
	int pa, pb;
	size_t ka, kb;
	bool spread;
	char t1[48], t2[48];

	memset(j, 0, sizeof(*j));
	pa = pct_bounds(a, na, den, &loa, &hia, &la);
	pb = pct_bounds(b, nb, den, &lob, &hib, &lb);
	if (!pa || !pb)
		return false;
	snprintf(j->src, sizeof(j->src), "ranks");
	if (pa < 0 || pb < 0) {
		uint64_t least = pa < 0 ? la : lb;

		decide(j, q, va, vb, 0, 0, false, false);
		snprintf(j->how, sizeof(j->how),
			 "a percentile 1 - 1/%llu of %llu samples rests on %llu beyond it (fewer than %d), or its rank's confidence interval leaves the histogram",
			 (unsigned long long)den, (unsigned long long)least,
			 (unsigned long long)(least / den), VD_MIN_BEYOND);
		return true;
	}
	/* the rank's interval: B's lower bound against A's upper one */
	up = (hia - va) + (vb - lob);
	down = (va - loa) + (hib - vb);
	spread = runs_spread(a, na, b, nb, q->gate, run_pct_at, den, &sd, &dof,
			     &ka, &kb);
	if (spread) {
		double su, sdn;

		spread_limits(va, sd, dof, ka, kb, &su, &sdn);
		up = fmax(up, su);
		down = fmax(down, sdn);
	}
	decide(j, q, va, vb, up, down, true, spread);
	snprintf(j->how, sizeof(j->how),
		 "rank intervals at %g %%: %s at most %s, %s at least %s%s%s",
		 100 * (1 - VD_ALPHA), q->gate ? "the baseline's" : "A's",
		 fig(t1, sizeof(t1), hia, q->unit_ns),
		 q->gate ? "the new runs'" : "B's",
		 fig(t2, sizeof(t2), lob, q->unit_ns),
		 spread ? "; and the spread of runs" : "",
		 j->v == VD_CANNOT_TELL ?
		 "; the runs differ beyond their own noise, and fewer than 3 runs a side cannot tell a run's luck from a change" :
		 "");
	return true;
}
