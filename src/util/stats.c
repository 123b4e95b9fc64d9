// SPDX-License-Identifier: GPL-2.0-or-later
/* Running statistics; see stats.h. */
#include <math.h>
#include <string.h>

#include "util/stats.h"

void stats_init(struct stats *s)
{
	memset(s, 0, sizeof(*s));
}

/* 128-bit add of (hi, lo) += (bhi, blo). */
static void sum_add(struct stats *s, uint64_t blo, int64_t bhi)
{
	uint64_t old = s->sum_lo;

	s->sum_lo = old + blo;
	s->sum_hi += bhi + (s->sum_lo < old);
}

/* Signed 64 x unsigned 64 -> 128-bit product, as (lo, hi). */
static void mul_s64_u64(int64_t a, uint64_t b, uint64_t *lo, int64_t *hi)
{
	uint64_t mag = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
	uint64_t a0 = mag & 0xffffffffu, a1 = mag >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
	uint64_t rlo = (p00 & 0xffffffffu) | (mid << 32);
	uint64_t rhi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);

	if (a < 0) {		/* two's complement negate of (rhi, rlo) */
		rlo = ~rlo + 1;
		rhi = ~rhi + (rlo == 0);
	}
	*lo = rlo;
	*hi = (int64_t)rhi;
}

void stats_add_n(struct stats *s, int64_t v, uint64_t count)
{
	struct stats o;

	if (count == 0)
		return;
	memset(&o, 0, sizeof(o));
	o.n = count;
	o.min = o.max = v;
	mul_s64_u64(v, count, &o.sum_lo, &o.sum_hi);
	o.mean = (double)v;
	o.m2 = 0.0;
	stats_merge(s, &o);
}

void stats_merge(struct stats *dst, const struct stats *src)
{
	double n1, n2, n, d;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	sum_add(dst, src->sum_lo, src->sum_hi);
	n1 = (double)dst->n;
	n2 = (double)src->n;
	n = n1 + n2;
	d = src->mean - dst->mean;
	dst->mean += d * n2 / n;
	dst->m2 += src->m2 + d * d * n1 * n2 / n;
	dst->n += src->n;
}

long double stats_sum(const struct stats *s)
{
	uint64_t lo = s->sum_lo, hi = (uint64_t)s->sum_hi;
	bool neg = s->sum_hi < 0;

	/* fits in int64: convert exactly (long double may be only a double,
	 * as on ARM, where hi * 2^64 + lo would lose the low bits) */
	if ((s->sum_hi == 0 && !(lo >> 63)) || (s->sum_hi == -1 && (lo >> 63)))
		return (long double)(int64_t)lo;
	if (neg) {		/* magnitude of the two's complement value */
		lo = ~lo + 1;
		hi = ~hi + (lo == 0);
	}
	return (neg ? -1.0L : 1.0L) *
	       ((long double)hi * 18446744073709551616.0L + (long double)lo);
}

bool stats_mean(const struct stats *s, double *mean)
{
	if (s->n == 0) {
		*mean = 0.0;
		return false;
	}
	*mean = (double)(stats_sum(s) / (long double)s->n);
	/* Rounding can never put the mean outside [min, max]. */
	if (*mean < (double)s->min)
		*mean = (double)s->min;
	if (*mean > (double)s->max)
		*mean = (double)s->max;
	return true;
}

bool stats_stddev(const struct stats *s, double *sd)
{
	if (s->n == 0) {
		*sd = 0.0;
		return false;
	}
	if (s->n == 1 || s->m2 <= 0.0) {
		*sd = 0.0;
		return true;
	}
	*sd = sqrt(s->m2 / (double)(s->n - 1));
	return true;
}
