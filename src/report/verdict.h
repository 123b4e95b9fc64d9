/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The noise model of compare and the release gate (docs/report.md,
 * "Verdicts"): per metric, from what each run holds, whether side B is
 * worse than side A, the same, or whether the data cannot tell.
 *
 *  - max: the interval maxima of the reference side are block maxima; a
 *    Gumbel law fitted to them (method of moments) gives the
 *    maximum over the other side's exposure (its samples, in blocks of
 *    the reference's size) at level 1 - VD_ALPHA, plus the standard error
 *    of that estimate (the frequency-factor method of hydrology: Gumbel,
 *    Statistics of Extremes, 1958; Chow, Maidment and Mays, Applied
 *    Hydrology, 1988, sec. 12.3). A longer run is so compared at equal
 *    exposure.
 *  - avg: the interval averages are batch means (the standard error of a
 *    run's average); the spread of repeated runs (3 or more on a side)
 *    says how far one run's average lies from the next's.
 *  - percentiles: the confidence interval of the percentile's rank from
 *    the sample count (binomial, normal approximation), read in each
 *    run's histogram; with repeated runs, their spread too.
 *
 * With one run a side, avg and percentiles can only tell "the same" (the
 * runs agree within their own noise) or "cannot tell" (they differ, but
 * one run cannot tell a run's luck from the system's change).
 */
#ifndef RTLAT_REPORT_VERDICT_H
#define RTLAT_REPORT_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"

/* one-sided level of each metric's verdict: the chance that noise alone
 * says "worse" */
#define VD_ALPHA	0.01
#define VD_MIN_BLOCKS	8	/* interval maxima to fit their law */
#define VD_MIN_BATCHES	3	/* interval averages for a batch mean */
#define VD_MIN_RUNS	3	/* runs a side to measure their spread */
#define VD_MIN_BEYOND	10	/* samples beyond a percentile to trust it */

enum vd_verdict {
	VD_NA = 0,		/* not known on both sides */
	VD_SAME,		/* within the noise the data shows */
	VD_CANNOT_TELL,		/* too few intervals, samples or runs */
	VD_WORSE,		/* B above A beyond the noise */
	VD_BETTER,		/* B below A beyond the noise (compare) */
};

/* "same", "cannot tell", "worse", "better", "n/a" */
const char *vd_name(enum vd_verdict v);

struct vd_judgement {
	enum vd_verdict v;
	double limit;		/* how much above A the value of B may be
				 * from noise alone (ns) */
	char src[12];		/* "blocks", "batches", "ranks" */
	char how[320];		/* the numbers behind the verdict */
};

/* What the judges are asked: the gate takes the noise from A alone (the
 * new runs' spread never widens it) and never says "better". */
struct vd_ask {
	bool gate;
	int64_t unit_ns;	/* of the numbers in how: 1 or 1000 */
	double floor_ns;	/* the least limit: the figures' resolution */
	double margin;		/* the least limit, a fraction of A's value
				 * (the gate's --margin; 0 for compare) */
};

/*
 * Judge metric max, avg or p99.9 of A (@a, @na runs) against B (@b, @nb):
 * @va, @vb the values compared (the sides' medians). False when the model
 * has no data for it (no interval series, no histogram): the caller keeps
 * its rule.
 */
bool vd_max(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, const struct vd_ask *q,
	    struct vd_judgement *j);
bool vd_avg(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, const struct vd_ask *q,
	    struct vd_judgement *j);
bool vd_pct(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	    size_t nb, double va, double vb, uint64_t den,
	    const struct vd_ask *q, struct vd_judgement *j);

/* ---- the arithmetic, for the unit tests ---- */

/* Quantile @p (0 < p < 1) of the standard normal law. */
double vd_norm_quantile(double p);
/* Quantile @p of Student's t with @dof >= 1 degrees of freedom. */
double vd_t_quantile(double p, double dof);
/*
 * Upper limit of the maximum of @k blocks (k > 0, may be fractional) from
 * @n >= 2 block maxima @y: the
 * Gumbel law's quantile 1 - @alpha of that maximum, fitted by moments,
 * plus t(0.95) standard errors of the estimate. False for n < 2.
 */
bool vd_gumbel_upper(const double *y, size_t n, double k, double alpha,
		     double *upper);
/* Ranks (1-based, within [1, n]) of the confidence interval of quantile
 * @q of @n samples at @z standard deviations of the binomial rank. */
void vd_rank_bounds(uint64_t n, double q, double z, uint64_t *lo,
		    uint64_t *hi);
/* The value at rank @rank (1-based) of @s's histogram (a bucket's upper
 * edge, a quantized bucket's value, within [min, max]); false when the
 * rank is in the underflow or overflow or there is no histogram. */
bool vd_value_at_rank(const struct rep_series *s, uint64_t rank,
		      double *v);

#endif
