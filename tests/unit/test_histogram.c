// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: histograms, accounting and percentile error (core/histogram). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/histogram.h"

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Buckets tile the value range: contiguous, increasing, each value maps to
 * the bucket whose range holds it. */
static void test_loglin_layout(void **state)
{
	struct histogram h;
	int64_t lo, hi, prev_hi;
	size_t i;

	(void)state;
	assert_int_equal(hist_init_loglin(&h), 0);
	hist_bucket_range(&h, 0, &lo, &prev_hi);
	assert_int_equal(lo, -(HIST_LL_LIMIT - 1));
	for (i = 1; i < h.nbuckets; i++) {
		hist_bucket_range(&h, i, &lo, &hi);
		assert_int_equal(lo, prev_hi + 1);
		assert_true(hi >= lo);
		/* width at most 1/128 of the magnitude (1 ns below 128) */
		if (lo >= 128)
			assert_true((hi - lo + 1) * 128 <= lo);
		if (hi <= -128)
			assert_true((hi - lo + 1) * 128 <= -hi);
		assert_int_equal(hist_index(&h, lo), (long)i);
		assert_int_equal(hist_index(&h, hi), (long)i);
		prev_hi = hi;
	}
	assert_int_equal(prev_hi, HIST_LL_LIMIT - 1);
	assert_int_equal(hist_index(&h, 0), HIST_LL_HALF - 1);
	assert_int_equal(hist_index(&h, -1), HIST_LL_HALF - 2);
	assert_int_equal(hist_index(&h, HIST_LL_LIMIT), -2);
	assert_int_equal(hist_index(&h, -HIST_LL_LIMIT), -1);
	assert_int_equal(hist_index(&h, INT64_MIN), -1);
	assert_int_equal(hist_index(&h, INT64_MAX), -2);
	hist_free(&h);
}

/* Every sample is accounted exactly once, also at the extremes. */
static void test_accounting(void **state)
{
	static const int64_t v[] = {
		0, 1, -1, 127, 128, -128, 255, 256, 1000000, -35125,
		HIST_LL_LIMIT - 1, HIST_LL_LIMIT, -HIST_LL_LIMIT, INT64_MAX,
		INT64_MIN, -(HIST_LL_LIMIT - 1),
	};
	struct histogram h, l;
	size_t i;

	(void)state;
	assert_int_equal(hist_init_loglin(&h), 0);
	assert_int_equal(hist_init_linear(&l, 0, 1000, 100), 0);
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hist_add(&h, v[i]);
		hist_add(&l, v[i]);
	}
	assert_int_equal(hist_total(&h), sizeof(v) / sizeof(v[0]));
	assert_int_equal(h.overflow, 2);
	assert_int_equal(h.underflow, 2);
	assert_int_equal(hist_total(&l), sizeof(v) / sizeof(v[0]));
	/* linear [0, 100 us): negatives underflow, >= 100 us overflow */
	assert_int_equal(l.underflow, 6);
	assert_int_equal(l.overflow, 4);
	assert_int_equal(l.count[0], 6);	/* 0, 1, 127, 128, 255, 256 */
	hist_free(&h);
	hist_free(&l);
}

static void test_linear_layout(void **state)
{
	struct histogram l;
	int64_t lo, hi;

	(void)state;
	assert_int_equal(hist_init_linear(&l, -5000, 1000, 10), 0);
	assert_int_equal(hist_index(&l, -5001), -1);
	assert_int_equal(hist_index(&l, -5000), 0);
	assert_int_equal(hist_index(&l, -4001), 0);
	assert_int_equal(hist_index(&l, -4000), 1);
	assert_int_equal(hist_index(&l, 4999), 9);
	assert_int_equal(hist_index(&l, 5000), -2);
	hist_bucket_range(&l, 9, &lo, &hi);
	assert_int_equal(lo, 4000);
	assert_int_equal(hi, 4999);
	hist_free(&l);
	assert_int_equal(hist_init_linear(&l, 0, 0, 10), -EINVAL);
	assert_int_equal(hist_init_linear(&l, 0, 1, 0), -EINVAL);
}

/* Percentiles from the histogram against an exact sort: never below, and
 * above by at most the documented bound. */
static void check_percentiles(const int64_t *v, size_t n)
{
	struct histogram h;
	int64_t *s = malloc(n * sizeof(*s)), mn, mx, got;
	size_t i;
	int p;

	assert_non_null(s);
	assert_int_equal(hist_init_loglin(&h), 0);
	for (i = 0; i < n; i++) {
		hist_add(&h, v[i]);
		s[i] = v[i];
	}
	qsort(s, n, sizeof(*s), cmp64);
	mn = s[0];
	mx = s[n - 1];
	for (p = 0; p < RTLAT_NPCT; p++) {
		uint64_t d = rtlat_percentiles[p].den_inv;
		uint64_t rank = n - n / d;	/* ceil(n * (1 - 1/d)) */
		int64_t exact = s[rank - 1];
		int64_t mag = exact < 0 ? -exact : exact;

		assert_true(hist_percentile(&h, d, mn, mx, &got));
		assert_true(got >= exact);
		if (mag < 128)
			assert_true(got - exact <= 1);
		else
			assert_true((got - exact) * 128 <= mag + 128);
		assert_true(got <= mx && got >= mn);
	}
	hist_free(&h);
	free(s);
}

static void test_percentile_error(void **state)
{
	size_t n = 200000, i;
	int64_t *v = malloc(n * sizeof(*v));

	(void)state;
	assert_non_null(v);
	srand(12345);
	/* long-tailed latency-like data, including negatives */
	for (i = 0; i < n; i++) {
		int64_t base = 2000 + rand() % 20000;

		if (rand() % 1000 == 0)
			base += rand() % 5000000;
		if (rand() % 50 == 0)
			base = -(rand() % 40000);
		v[i] = base;
	}
	check_percentiles(v, n);
	/* tiny sets: one sample, two samples */
	v[0] = 777;
	check_percentiles(v, 1);
	v[1] = -3;
	check_percentiles(v, 2);
	free(v);
}

static void test_percentile_empty_and_overflow(void **state)
{
	struct histogram h;
	int64_t got;

	(void)state;
	assert_int_equal(hist_init_loglin(&h), 0);
	assert_false(hist_percentile(&h, 1000, 0, 0, &got));
	hist_add(&h, 5);
	hist_add(&h, INT64_C(100000000000));	/* 100 s: overflow */
	/* p99.9 of {5, 100 s} falls in the overflow: the exact max */
	assert_true(hist_percentile(&h, 1000, 5, INT64_C(100000000000), &got));
	assert_int_equal(got, INT64_C(100000000000));
	assert_true(hist_percentile(&h, 2, 5, INT64_C(100000000000), &got));
	assert_int_equal(got, 5);
	hist_free(&h);
}

static void test_merge_and_bulk(void **state)
{
	struct histogram a, b, l;

	(void)state;
	assert_int_equal(hist_init_loglin(&a), 0);
	assert_int_equal(hist_init_loglin(&b), 0);
	assert_int_equal(hist_init_linear(&l, 0, 1000, 10), 0);
	hist_add_n(&a, 15000, UINT64_C(10000000000));
	hist_add_n(&b, 15000, UINT64_C(5000000000));
	hist_add_n(&b, -1, 3);
	assert_int_equal(hist_merge(&a, &b), 0);
	assert_int_equal(hist_total(&a), UINT64_C(15000000003));
	assert_int_equal(a.count[hist_index(&a, 15000)], UINT64_C(15000000000));
	assert_int_equal(hist_merge(&a, &l), -EINVAL);
	hist_free(&a);
	hist_free(&b);
	hist_free(&l);
}

/* A hand-over histogram's 32-bit counters: the same buckets and
 * percentiles as a 64-bit one for the same samples, merged exactly into a
 * 64-bit total, cleared by span; a full bucket saturates into the overflow
 * (identity kept, percentile an upper bound: the max), never wraps. */
static void test_handover32(void **state)
{
	struct histogram h, w, t;
	int64_t v, p32, p64;
	long i;
	int k;

	(void)state;
	assert_int_equal(hist_init_loglin32(&h), 0);
	assert_int_equal(hist_init_loglin(&w), 0);
	assert_int_equal(hist_init_loglin(&t), 0);
	assert_null(h.count);
	assert_non_null(h.count32);
	for (k = 0; k < 5000; k++) {
		v = (int64_t)((k * 7919) % 200000) - 100;
		hist_add(&h, v);
		hist_add(&w, v);
	}
	hist_add(&h, INT64_C(100000000000));	/* 100 s: overflow */
	hist_add(&w, INT64_C(100000000000));
	hist_add_n(&h, 15000, 40);
	hist_add_n(&w, 15000, 40);
	assert_int_equal(hist_total(&h), 5041);
	for (i = 0; i < (long)h.nbuckets; i++)
		assert_int_equal(hist_count(&h, (size_t)i),
				 hist_count(&w, (size_t)i));
	assert_true(hist_percentile(&h, 1000, -100, 199899, &p32));
	assert_true(hist_percentile(&w, 1000, -100, 199899, &p64));
	assert_int_equal(p32, p64);
	/* a 64-bit histogram does not take a 32-bit one's place */
	assert_int_equal(hist_merge(&h, &w), -EINVAL);
	assert_int_equal(hist_merge(&t, &h), 0);
	assert_int_equal(hist_merge(&t, &h), 0);
	assert_int_equal(hist_total(&t), 2 * 5041);
	assert_int_equal(t.count[hist_index(&t, 15000)],
			 2 * w.count[hist_index(&w, 15000)]);
	assert_int_equal(t.overflow, 2);
	hist_reset(&h);
	assert_int_equal(hist_total(&h), 0);

	/* one bucket filled to 2^32 - 1: the next samples go to overflow */
	i = hist_index(&h, 1000);
	h.count32[i] = UINT32_MAX - 1;
	hist_add(&h, 1000);
	assert_int_equal(h.count32[i], UINT32_MAX);
	assert_int_equal(h.saturated, 0);
	hist_add(&h, 1000);
	hist_add_n(&h, 1000, 5);
	assert_int_equal(h.count32[i], UINT32_MAX);
	assert_int_equal(h.saturated, 6);
	assert_int_equal(h.overflow, 6);
	assert_int_equal(hist_total(&h), UINT64_C(4294967295) + 6);
	/* the top percentiles land in the overflow: the max, an upper bound */
	assert_true(hist_percentile(&h, 1000000, 1000, 1003, &v));
	assert_int_equal(v, 1003);
	hist_reset(&t);
	assert_int_equal(hist_merge(&t, &h), 0);
	assert_int_equal(t.count[i], UINT32_MAX);
	assert_int_equal(t.saturated, 6);
	assert_int_equal(hist_total(&t), UINT64_C(4294967295) + 6);
	hist_reset_span(&h, (size_t)i, (size_t)i);
	assert_int_equal(hist_total(&h), 0);
	assert_int_equal(h.saturated, 0);
	hist_free(&h);
	hist_free(&w);
	hist_free(&t);
	assert_null(h.count32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loglin_layout),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_linear_layout),
		cmocka_unit_test(test_percentile_error),
		cmocka_unit_test(test_percentile_empty_and_overflow),
		cmocka_unit_test(test_merge_and_bulk),
		cmocka_unit_test(test_handover32),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
