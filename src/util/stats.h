/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running statistics of signed ns samples: count, min, max, exact sum and
 * Welford's mean/variance (B. P. Welford, Technometrics 4(3), 1962; merge by
 * Chan, Golub & LeVeque, 1979). Nothing here allocates or blocks: stats_add()
 * runs in the sampler.
 *
 * The sum is kept as a 128-bit two's-complement integer built from two 64-bit
 * words, so it stays exact for any count (10^10 samples of several seconds
 * each) on 32- and 64-bit targets alike.
 */
#ifndef RTLAT_STATS_H
#define RTLAT_STATS_H

#include <stdbool.h>
#include <stdint.h>

struct stats {
	uint64_t n;		/* samples */
	int64_t min;		/* ns; meaningless while n == 0 */
	int64_t max;		/* ns; meaningless while n == 0 */
	uint64_t sum_lo;	/* exact sum of samples, low word */
	int64_t sum_hi;		/* high word (sign carries here) */
	double mean;		/* Welford running mean, ns */
	double m2;		/* Welford sum of squared deviations, ns^2 */
};

void stats_init(struct stats *s);

/* Add one sample @v (ns). */
static inline void stats_add(struct stats *s, int64_t v)
{
	uint64_t old = s->sum_lo;
	double d;

	if (s->n == 0 || v < s->min)
		s->min = v;
	if (s->n == 0 || v > s->max)
		s->max = v;
	s->n++;
	s->sum_lo = old + (uint64_t)v;
	s->sum_hi += (s->sum_lo < old) + (v < 0 ? -1 : 0);
	d = (double)v - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * ((double)v - s->mean);
}

/* Add @count samples all equal to @v (for merging and long-run tests). */
void stats_add_n(struct stats *s, int64_t v, uint64_t count);

/* Merge @src into @dst (parallel Welford). */
void stats_merge(struct stats *dst, const struct stats *src);

/* Mean in ns from the exact sum. Returns false (and 0) when n == 0. */
bool stats_mean(const struct stats *s, double *mean);

/* Sample standard deviation (n - 1 divisor) in ns; 0 for n == 1. Returns
 * false when n == 0. */
bool stats_stddev(const struct stats *s, double *sd);

/* The exact sum as a long double (exact up to 2^64 in magnitude). */
long double stats_sum(const struct stats *s);

#endif
