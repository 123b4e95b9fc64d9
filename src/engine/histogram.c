// SPDX-License-Identifier: GPL-2.0-or-later
/* Histograms that account every sample; see histogram.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/histogram.h"

const struct pct_def rtlat_percentiles[RTLAT_NPCT] = {
	{ "p50", 2 },
	{ "p90", 10 },
	{ "p99", 100 },
	{ "p99.9", 1000 },
	{ "p99.99", 10000 },
	{ "p99.999", 100000 },
	{ "p99.9999", 1000000 },
};

/* Bytes of one counter of @h. */
static size_t csize(const struct histogram *h)
{
	return h->count32 ? sizeof(*h->count32) : sizeof(*h->count);
}

/* Start of @h's counters. */
static void *counters(const struct histogram *h)
{
	return h->count32 ? (void *)h->count32 : (void *)h->count;
}

static int hist_alloc(struct histogram *h, bool narrow)
{
	size_t sz = narrow ? sizeof(*h->count32) : sizeof(*h->count);
	void *p = calloc(h->nbuckets, sz);

	if (!p)
		return -ENOMEM;
	/* calloc may hand out untouched zero pages: fault them in now. */
	memset(p, 0, h->nbuckets * sz);
	if (narrow)
		h->count32 = p;
	else
		h->count = p;
	h->underflow = h->overflow = h->saturated = 0;
	return 0;
}

int hist_init_loglin(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->layout = HIST_LOGLIN;
	h->nbuckets = HIST_LL_BUCKETS;
	return hist_alloc(h, false);
}

int hist_init_loglin32(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->layout = HIST_LOGLIN;
	h->nbuckets = HIST_LL_BUCKETS;
	return hist_alloc(h, true);
}

int hist_init_linear(struct histogram *h, int64_t lo, int64_t width,
		     size_t nbuckets)
{
	memset(h, 0, sizeof(*h));
	if (width < 1 || nbuckets < 1 ||
	    nbuckets > (size_t)(INT64_MAX / width))
		return -EINVAL;
	h->layout = HIST_LINEAR;
	h->lo = lo;
	h->width = width;
	h->nbuckets = nbuckets;
	return hist_alloc(h, false);
}

void hist_free(struct histogram *h)
{
	free(h->count);
	free(h->count32);
	h->count = NULL;
	h->count32 = NULL;
	h->nbuckets = 0;
}

void hist_reset(struct histogram *h)
{
	hist_reset_span(h, 0, h->nbuckets ? h->nbuckets - 1 : 0);
}

void hist_copy(struct histogram *dst, const struct histogram *src)
{
	if (csize(dst) != csize(src))
		return;
	memcpy(counters(dst), counters(src), src->nbuckets * csize(src));
	dst->underflow = src->underflow;
	dst->overflow = src->overflow;
	dst->saturated = src->saturated;
}

int hist_merge(struct histogram *dst, const struct histogram *src)
{
	return hist_merge_span(dst, src, 0,
			       src->nbuckets ? src->nbuckets - 1 : 0);
}

bool hist_span(const struct histogram *h, int64_t min, int64_t max,
	       size_t *a, size_t *b)
{
	long i = hist_index(h, min), j = hist_index(h, max);

	if (!h->nbuckets || i == -2 || j == -1 || min > max)
		return false;
	*a = i < 0 ? 0 : (size_t)i;
	*b = j < 0 ? h->nbuckets - 1 : (size_t)j;
	return true;
}

int hist_merge_span(struct histogram *dst, const struct histogram *src,
		    size_t a, size_t b)
{
	size_t i;

	if (dst->layout != src->layout || dst->nbuckets != src->nbuckets ||
	    dst->lo != src->lo || dst->width != src->width || !dst->count)
		return -EINVAL;
	if (src->count32)
		for (i = a; i <= b && i < src->nbuckets; i++)
			dst->count[i] += src->count32[i];
	else
		for (i = a; i <= b && i < src->nbuckets; i++)
			dst->count[i] += src->count[i];
	dst->underflow += src->underflow;
	dst->overflow += src->overflow;
	dst->saturated += src->saturated;
	return 0;
}

void hist_reset_span(struct histogram *h, size_t a, size_t b)
{
	if (a <= b && b < h->nbuckets)
		memset((char *)counters(h) + a * csize(h), 0,
		       (b - a + 1) * csize(h));
	h->underflow = h->overflow = h->saturated = 0;
}

void hist_add_n(struct histogram *h, int64_t v, uint64_t n)
{
	long i = hist_index(h, v);

	if (i >= 0 && h->count32) {
		uint64_t room = UINT32_MAX - h->count32[i];
		uint64_t in = n < room ? n : room;

		h->count32[i] += (uint32_t)in;
		h->saturated += n - in;
		h->overflow += n - in;
	} else if (i >= 0)
		h->count[i] += n;
	else if (i == -1)
		h->underflow += n;
	else
		h->overflow += n;
}

/* Magnitude range [lo, hi] of log-linear magnitude index @idx. */
static void loglin_mag_range(long idx, int64_t *lo, int64_t *hi)
{
	long shift;
	int64_t sub;

	if (idx < HIST_LL_SUB) {
		*lo = *hi = idx;
		return;
	}
	shift = idx / HIST_LL_SUB - 1;
	sub = idx % HIST_LL_SUB;
	*lo = (HIST_LL_SUB + sub) << shift;
	*hi = *lo + (INT64_C(1) << shift) - 1;
}

void hist_bucket_range(const struct histogram *h, size_t i, int64_t *lo,
		       int64_t *hi)
{
	if (h->layout == HIST_LINEAR) {
		*lo = h->lo + (int64_t)i * h->width;
		*hi = *lo + h->width - 1;
	} else if ((long)i >= HIST_LL_HALF - 1) {
		loglin_mag_range((long)i - (HIST_LL_HALF - 1), lo, hi);
	} else {
		int64_t mlo, mhi;

		loglin_mag_range(HIST_LL_HALF - 1 - (long)i, &mlo, &mhi);
		*lo = -mhi;
		*hi = -mlo;
	}
}

uint64_t hist_total(const struct histogram *h)
{
	uint64_t t = h->underflow + h->overflow;
	size_t i;

	for (i = 0; i < h->nbuckets; i++)
		t += hist_count(h, i);
	return t;
}

bool hist_percentile(const struct histogram *h, uint64_t den_inv,
		     int64_t min, int64_t max, int64_t *value)
{
	uint64_t n = hist_total(h), rank, cum;
	int64_t lo, hi, v;
	size_t i;

	*value = 0;
	if (n == 0 || den_inv < 2)
		return false;
	rank = n - n / den_inv;		/* ceil(n * q), q = 1 - 1/den_inv */
	cum = h->underflow;
	if (cum >= rank) {
		/* upper edge of the underflow region */
		if (h->layout == HIST_LINEAR)
			v = h->lo - 1;
		else
			v = -HIST_LL_LIMIT;
		goto clamp;
	}
	for (i = 0; i < h->nbuckets; i++) {
		cum += hist_count(h, i);
		if (cum >= rank) {
			hist_bucket_range(h, i, &lo, &hi);
			v = hi;
			goto clamp;
		}
	}
	v = max;	/* in the overflow */
clamp:
	if (v > max)
		v = max;
	if (v < min)
		v = min;
	*value = v;
	return true;
}
