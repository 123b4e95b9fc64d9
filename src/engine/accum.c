// SPDX-License-Identifier: GPL-2.0-or-later
/* Accumulators and per-interval stores; see engine.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static int accum_init_as(struct accum *a, const struct engine_opts *o,
			 bool handover)
{
	int r;

	memset(a, 0, sizeof(*a));
	stats_init(&a->st);
	r = handover ? hist_init_loglin32(&a->hist) : hist_init_loglin(&a->hist);
	if (r)
		return r;
	if (o->linear_hist) {
		r = hist_init_linear(&a->lin, 0, o->hist_bucket_ns,
				     (size_t)o->hist_buckets);
		if (r) {
			hist_free(&a->hist);
			return r;
		}
	}
	return 0;
}

int accum_init(struct accum *a, const struct engine_opts *o)
{
	return accum_init_as(a, o, false);
}

int accum_init_handover(struct accum *a, const struct engine_opts *o)
{
	return accum_init_as(a, o, true);
}

void accum_free(struct accum *a)
{
	hist_free(&a->hist);
	if (a->lin.count)
		hist_free(&a->lin);
}

/*
 * An accumulator's histograms hold exactly the samples of its statistics
 * (accum_add() feeds both, merges and resets keep them together): their
 * buckets outside the span of [st.min, st.max] are empty. Merging and
 * clearing touch that span only: the display thread hands an interval's
 * accumulator over and back with a few hundred buckets, not all 7 800.
 */
static void hist_clear(struct histogram *h, const struct stats *st)
{
	size_t a, b;

	if (st->n && hist_span(h, st->min, st->max, &a, &b))
		hist_reset_span(h, a, b);
	else
		hist_reset_span(h, 1, 0);	/* under- and overflow */
}

static void hist_add_from(struct histogram *dst, const struct histogram *src,
			  const struct stats *st)
{
	size_t a, b;

	if (st->n && hist_span(src, st->min, st->max, &a, &b))
		hist_merge_span(dst, src, a, b);
	else
		hist_merge_span(dst, src, 1, 0);
}

void accum_reset(struct accum *a)
{
	hist_clear(&a->hist, &a->st);
	if (a->lin.count)
		hist_clear(&a->lin, &a->st);
	stats_init(&a->st);
	a->overruns = 0;
	a->max_t = 0;
	a->max_cycle = 0;
}

void accum_merge(struct accum *dst, const struct accum *src)
{
	if (src->st.n && (dst->st.n == 0 || src->st.max > dst->st.max)) {
		dst->max_t = src->max_t;
		dst->max_cycle = src->max_cycle;
	}
	stats_merge(&dst->st, &src->st);
	hist_add_from(&dst->hist, &src->hist, &src->st);
	if (dst->lin.count && src->lin.count)
		hist_add_from(&dst->lin, &src->lin, &src->st);
	dst->overruns += src->overruns;
}

void window_merge(struct window *dst, const struct window *src)
{
	if (src->n) {
		if (dst->n == 0 || src->min < dst->min)
			dst->min = src->min;
		if (dst->n == 0 || src->max > dst->max)
			dst->max = src->max;
		dst->n += src->n;
		dst->sum += src->sum;
		dst->last = src->last;
	}
	dst->overruns += src->overruns;
}

int ivstore_init(struct ivstore *v, size_t cap)
{
	memset(v, 0, sizeof(*v));
	if (cap < 2)
		cap = 2;
	v->index = calloc(cap, sizeof(*v->index));
	v->w = calloc(cap, sizeof(*v->w));
	if (!v->index || !v->w) {
		ivstore_free(v);
		return -ENOMEM;
	}
	v->cap = cap;
	v->span = 1;
	return 0;
}

void ivstore_free(struct ivstore *v)
{
	free(v->index);
	free(v->w);
	v->index = NULL;
	v->w = NULL;
	v->n = v->cap = 0;
}

/* Halve the resolution: merge entries pairwise into spans twice as long. */
static void ivstore_compact(struct ivstore *v)
{
	size_t i, o = 0;

	v->span *= 2;
	for (i = 0; i < v->n; i++) {
		uint64_t start = v->index[i] / v->span * v->span;

		if (o > 0 && v->index[o - 1] == start) {
			window_merge(&v->w[o - 1], &v->w[i]);
		} else {
			v->index[o] = start;
			v->w[o] = v->w[i];
			o++;
		}
	}
	v->n = o;
}

void ivstore_add(struct ivstore *v, uint64_t k, const struct window *w)
{
	uint64_t start;

	if (!v->cap)
		return;
	start = k / v->span * v->span;
	if (v->n && v->index[v->n - 1] == start) {
		window_merge(&v->w[v->n - 1], w);
		return;
	}
	while (v->n == v->cap) {
		ivstore_compact(v);
		start = k / v->span * v->span;
		if (v->n && v->index[v->n - 1] == start) {
			window_merge(&v->w[v->n - 1], w);
			return;
		}
	}
	v->index[v->n] = start;
	v->w[v->n] = *w;
	v->n++;
}
