/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Histograms of signed ns samples that account for every sample:
 *
 *	sum(buckets) + underflow + overflow == samples
 *
 * Two bucket layouts share one implementation:
 *
 *  - HIST_LOGLIN (the default, used for percentiles): log-linear buckets in
 *    the manner of HdrHistogram. Values with |v| < 128 ns get 1 ns buckets;
 *    each power-of-two range [2^e, 2^(e+1)) above is split into 128 equal
 *    buckets, up to |v| < 2^36 ns (68.7 s). Negative values mirror the
 *    positive layout (they are never folded into positive buckets). A bucket
 *    is at most 1/128 (0.79 %) of its lower bound wide.
 *
 *  - HIST_LINEAR: @nbuckets buckets of @width ns starting at @lo ns (e.g.
 *    cyclictest's and Xenomai's 1 us buckets). Values below @lo are
 *    underflow, values at or above lo + nbuckets * width are overflow.
 *
 * Percentiles (hist_percentile()) are the upper edge of the bucket holding the
 * sample of rank ceil(q * n), clamped to the observed [min, max]. The result
 * is therefore never below the exact percentile, and above it by less than
 * one bucket width: for HIST_LOGLIN at most 1 ns below 128 ns and at most
 * 0.79 % of the value above; for HIST_LINEAR at most @width. A percentile that
 * lands in the overflow is reported as the observed max (an upper bound).
 *
 * hist_add() runs in the sampler: no allocation, no locks, O(1).
 *
 * A hand-over histogram (hist_init_loglin32(): a sampler's two interval
 * accumulators, which the display thread merges into the run's totals and
 * clears) has 32-bit counters, half the memory mlockall() locks. A bucket
 * holds at most what one hand-over holds, which stays far below 2^32 while
 * the display thread keeps up (one interval's samples). Should the display
 * be held off for 2^32 - 1 samples of one bucket (71 minutes at a period of
 * 1 us, 10 days at 200 us), the bucket saturates: its further samples are
 * counted in the overflow (and in @saturated), so the identity above still
 * holds and the percentiles stay upper bounds (one that lands there is the
 * observed max); nothing wraps. Read its counters with hist_count().
 */
#ifndef RTLAT_HISTOGRAM_H
#define RTLAT_HISTOGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hist_layout {
	HIST_LOGLIN = 0,
	HIST_LINEAR = 1,
};

#define HIST_LL_SUB_BITS	7
#define HIST_LL_SUB		(1 << HIST_LL_SUB_BITS)	/* 128 */
#define HIST_LL_MAX_EXP		36			/* |v| < 2^36 ns */
/* buckets per sign: 128 linear + 128 per octave from 2^7 to 2^35 */
#define HIST_LL_HALF		(HIST_LL_SUB * (HIST_LL_MAX_EXP - HIST_LL_SUB_BITS + 1))
/* negative side has no bucket for 0 */
#define HIST_LL_BUCKETS		(2 * HIST_LL_HALF - 1)
#define HIST_LL_LIMIT		(INT64_C(1) << HIST_LL_MAX_EXP)

struct histogram {
	enum hist_layout layout;
	int64_t lo;		/* HIST_LINEAR: lower edge of bucket 0, ns */
	int64_t width;		/* HIST_LINEAR: bucket width, ns */
	size_t nbuckets;
	uint64_t *count;	/* nbuckets counters, or NULL when 32-bit: */
	uint32_t *count32;	/* hist_init_loglin32(): nbuckets counters */
	uint64_t underflow;
	uint64_t overflow;
	uint64_t saturated;	/* 32-bit: samples of a full bucket, counted
				 * in the overflow */
};

/* Counter of bucket @i. */
static inline uint64_t hist_count(const struct histogram *h, size_t i)
{
	return h->count32 ? h->count32[i] : h->count[i];
}

/* Initialise a log-linear histogram. Allocates and touches its buckets.
 * Returns 0 or -ENOMEM. */
int hist_init_loglin(struct histogram *h);
/* The same with 32-bit counters (a hand-over histogram, see above): only
 * added to, merged into a 64-bit one, reset and read with hist_count(). */
int hist_init_loglin32(struct histogram *h);

/* Initialise a linear histogram of @nbuckets buckets of @width ns from @lo.
 * Returns 0, -EINVAL (width < 1 or nbuckets < 1) or -ENOMEM. */
int hist_init_linear(struct histogram *h, int64_t lo, int64_t width,
		     size_t nbuckets);

void hist_free(struct histogram *h);

/* Zero all counters (layout kept). */
void hist_reset(struct histogram *h);

/* Copy counters of @src into @dst of the same layout. */
void hist_copy(struct histogram *dst, const struct histogram *src);

/* Add the counters of @src to @dst; both must have the same layout, @dst
 * 64-bit counters (@src either). Returns 0 or -EINVAL. */
int hist_merge(struct histogram *dst, const struct histogram *src);

/* Bucket index of @v, or -1 for underflow, -2 for overflow. */
static inline long hist_index(const struct histogram *h, int64_t v)
{
	if (h->layout == HIST_LINEAR) {
		int64_t off;

		if (v < h->lo)
			return -1;
		off = (v - h->lo) / h->width;
		if ((uint64_t)off >= h->nbuckets)
			return -2;
		return (long)off;
	} else {
		uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
		long idx;

		if (m >= (uint64_t)HIST_LL_LIMIT)
			return v < 0 ? -1 : -2;
		if (m < HIST_LL_SUB) {
			idx = (long)m;
		} else {
			int e = 63 - __builtin_clzll(m);
			int shift = e - HIST_LL_SUB_BITS;

			idx = (long)HIST_LL_SUB * (shift + 1) +
			      (long)((m >> shift) - HIST_LL_SUB);
		}
		return v < 0 ? (long)HIST_LL_HALF - 1 - idx
			     : (long)HIST_LL_HALF - 1 + idx;
	}
}

/* Count one sample. */
static inline void hist_add(struct histogram *h, int64_t v)
{
	long i = hist_index(h, v);

	if (i >= 0 && !h->count32) {
		h->count[i]++;
	} else if (i >= 0) {
		if (h->count32[i] != UINT32_MAX) {
			h->count32[i]++;
		} else {
			h->saturated++;
			h->overflow++;
		}
	} else if (i == -1) {
		h->underflow++;
	} else {
		h->overflow++;
	}
}

/* Count @n samples of value @v. */
void hist_add_n(struct histogram *h, int64_t v, uint64_t n);

/*
 * The buckets [*@a, *@b] that samples in [@min, @max] fall in (the bucket
 * index grows with the value): false when they all fall in underflow or
 * overflow. With the exact extremes of what a histogram holds, merging or
 * clearing that span alone is the whole histogram's work (accum.c: a few
 * hundred buckets of an interval instead of 7 800).
 */
bool hist_span(const struct histogram *h, int64_t min, int64_t max,
	       size_t *a, size_t *b);

/* hist_merge() of the buckets [@a, @b] of @src (plus underflow and
 * overflow): the others are known to be empty. Returns 0 or -EINVAL. */
int hist_merge_span(struct histogram *dst, const struct histogram *src,
		    size_t a, size_t b);

/* hist_reset() of a histogram whose buckets outside [@a, @b] are empty. */
void hist_reset_span(struct histogram *h, size_t a, size_t b);

/* Inclusive value range [*lo, *hi] in ns of bucket @i. */
void hist_bucket_range(const struct histogram *h, size_t i, int64_t *lo,
		       int64_t *hi);

/* Total samples accounted: buckets + underflow + overflow. */
uint64_t hist_total(const struct histogram *h);

/*
 * Percentile of rank ceil(n * (1 - 1/@den_inv)) - e.g. @den_inv = 1000 for
 * p99.9 - as described above, clamped to [@min, @max] (the exact extremes
 * from the statistics). Returns false when the histogram is empty.
 */
bool hist_percentile(const struct histogram *h, uint64_t den_inv,
		     int64_t min, int64_t max, int64_t *value);

/* The standard percentile set reported by rtlat. */
struct pct_def {
	const char *name;	/* "p99.9" */
	uint64_t den_inv;	/* 1 / (1 - q) */
};
extern const struct pct_def rtlat_percentiles[];
#define RTLAT_NPCT 7

#endif
