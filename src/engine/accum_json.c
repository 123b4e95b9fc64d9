// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON form of an accumulated series; see accum_json.h. */
#include <stddef.h>

#include "engine/accum_json.h"
#include "util/jsonw.h"

static void hist_json(struct jw *w, const char *key, const struct histogram *h)
{
	int64_t lo, hi;
	size_t i;

	jw_obj_begin(w, key);
	if (h->layout == HIST_LOGLIN) {
		jw_str(w, "layout", "log-linear");
		jw_str(w, "unit", "ns");
		jw_int(w, "sub_buckets", HIST_LL_SUB);
		jw_int(w, "range_min_ns", -HIST_LL_LIMIT + 1);
		jw_int(w, "range_max_ns", HIST_LL_LIMIT - 1);
	} else {
		jw_str(w, "layout", "linear");
		jw_str(w, "unit", "ns");
		jw_int(w, "lo_ns", h->lo);
		jw_int(w, "width_ns", h->width);
		jw_uint(w, "nbuckets", h->nbuckets);
	}
	jw_uint(w, "underflow", h->underflow);
	jw_uint(w, "overflow", h->overflow);
	jw_arr_begin(w, "buckets");
	for (i = 0; i < h->nbuckets; i++) {
		if (!h->count[i])
			continue;
		hist_bucket_range(h, i, &lo, &hi);
		jw_arr_begin_inline(w, NULL);
		jw_int(w, NULL, lo);
		jw_int(w, NULL, hi);
		jw_uint(w, NULL, h->count[i]);
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void intervals_json(struct jw *w, const struct ivstore *iv,
			   int64_t interval_ns)
{
	size_t i;

	jw_obj_begin(w, "intervals");
	jw_int(w, "interval_ns", interval_ns * (int64_t)iv->span);
	jw_arr_begin_inline(w, "columns");
	jw_str(w, NULL, "index");
	jw_str(w, NULL, "samples");
	jw_str(w, NULL, "min_ns");
	jw_str(w, NULL, "avg_ns");
	jw_str(w, NULL, "max_ns");
	jw_str(w, NULL, "overruns");
	jw_arr_end(w);
	jw_arr_begin(w, "data");
	for (i = 0; i < iv->n; i++) {
		const struct window *x = &iv->w[i];

		jw_arr_begin_inline(w, NULL);
		jw_uint(w, NULL, iv->index[i] / iv->span);
		jw_uint(w, NULL, x->n);
		if (x->n) {
			jw_int(w, NULL, x->min);
			jw_int(w, NULL, (x->sum + (x->sum >= 0 ? 1 : -1) *
					 (int64_t)(x->n / 2)) / (int64_t)x->n);
			jw_int(w, NULL, x->max);
		} else {
			jw_null(w, NULL);
			jw_null(w, NULL);
			jw_null(w, NULL);
		}
		jw_uint(w, NULL, x->overruns);
		jw_arr_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

void accum_json(struct jw *w, const char *key, const struct accum *a,
		const struct series_desc *d, const struct ivstore *iv,
		int64_t interval_ns)
{
	double mean, sd;
	int64_t v;
	int i;

	jw_obj_begin(w, key);
	jw_uint(w, "samples", a->st.n);
	jw_uint(w, d->miss_name, a->overruns);
	if (d->no_misses)
		jw_bool(w, "counts_misses", false);
	if (d->reference)
		jw_str(w, "reference", d->reference);
	if (a->st.n) {
		jw_int(w, "min_ns", a->st.min);
		stats_mean(&a->st, &mean);
		jw_double(w, "avg_ns", mean, 1);
		jw_int(w, "max_ns", a->st.max);
		stats_stddev(&a->st, &sd);
		jw_double(w, "stddev_ns", sd, 1);
		jw_uint(w, "max_cycle", a->max_cycle);
	} else {
		jw_null(w, "min_ns");
		jw_null(w, "avg_ns");
		jw_null(w, "max_ns");
		jw_null(w, "stddev_ns");
		jw_null(w, "max_cycle");
	}
	jw_obj_begin(w, "percentiles_ns");
	for (i = 0; i < RTLAT_NPCT; i++) {
		if (hist_percentile(&a->hist, rtlat_percentiles[i].den_inv,
				    a->st.min, a->st.max, &v))
			jw_int(w, rtlat_percentiles[i].name, v);
		else
			jw_null(w, rtlat_percentiles[i].name);
	}
	jw_obj_end(w);
	hist_json(w, "histogram", &a->hist);
	if (a->lin.count)
		hist_json(w, "histogram_linear", &a->lin);
	if (iv)
		intervals_json(w, iv, interval_ns);
	jw_obj_end(w);
}
