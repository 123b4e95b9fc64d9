// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: running statistics (core/stats). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/stats.h"

static void test_empty_and_one(void **state)
{
	struct stats s;
	double m, sd;

	(void)state;
	stats_init(&s);
	assert_false(stats_mean(&s, &m));
	assert_false(stats_stddev(&s, &sd));
	assert_int_equal(s.n, 0);
	stats_add(&s, -42);
	assert_true(stats_mean(&s, &m));
	assert_true(m == -42.0);
	assert_true(stats_stddev(&s, &sd));
	assert_true(sd == 0.0);
	assert_int_equal(s.min, -42);
	assert_int_equal(s.max, -42);
}

static void test_negative_samples(void **state)
{
	static const int64_t v[] = { -35125, -10767, 19762, -35087, 24400, -5 };
	struct stats s;
	double m, sd, exact = 0, var = 0;
	size_t i, n = sizeof(v) / sizeof(v[0]);

	(void)state;
	stats_init(&s);
	for (i = 0; i < n; i++) {
		stats_add(&s, v[i]);
		exact += (double)v[i];
	}
	exact /= (double)n;
	for (i = 0; i < n; i++)
		var += ((double)v[i] - exact) * ((double)v[i] - exact);
	var /= (double)(n - 1);
	assert_int_equal(s.min, -35125);
	assert_int_equal(s.max, 24400);
	assert_true(stats_mean(&s, &m));
	assert_true(fabs(m - exact) < 1e-9);
	assert_true(stats_stddev(&s, &sd));
	assert_true(fabs(sd - sqrt(var)) < 1e-6);
	assert_true(s.min <= m && m <= s.max);
	assert_int_equal((int64_t)stats_sum(&s), -36822);
}

/* min <= mean <= max for random signed data of any size. */
static void test_mean_bounded(void **state)
{
	struct stats s;
	double m;
	int round, i;

	(void)state;
	srand(7);
	for (round = 0; round < 200; round++) {
		int n = 1 + rand() % 50;

		stats_init(&s);
		for (i = 0; i < n; i++)
			stats_add(&s, (int64_t)(rand() % 2000001) - 1000000);
		assert_true(stats_mean(&s, &m));
		assert_true((double)s.min <= m && m <= (double)s.max);
	}
	/* all equal: mean exactly that value */
	stats_init(&s);
	for (i = 0; i < 1000; i++)
		stats_add(&s, 123456789);
	stats_mean(&s, &m);
	assert_true(m == 123456789.0);
}

static void test_merge_equals_sequential(void **state)
{
	struct stats a, b, all;
	double ma, mall, sda, sdall;
	int i;

	(void)state;
	stats_init(&a);
	stats_init(&b);
	stats_init(&all);
	for (i = 0; i < 1000; i++) {
		int64_t v = (int64_t)(i * 7919 % 10007) - 5000;

		stats_add(i < 300 ? &a : &b, v);
		stats_add(&all, v);
	}
	stats_merge(&a, &b);
	assert_int_equal(a.n, all.n);
	assert_int_equal(a.min, all.min);
	assert_int_equal(a.max, all.max);
	assert_int_equal(a.sum_lo, all.sum_lo);
	assert_int_equal(a.sum_hi, all.sum_hi);
	stats_mean(&a, &ma);
	stats_mean(&all, &mall);
	stats_stddev(&a, &sda);
	stats_stddev(&all, &sdall);
	assert_true(fabs(ma - mall) < 1e-9);
	assert_true(fabs(sda - sdall) < 1e-6);
	/* merging an empty set changes nothing */
	stats_init(&b);
	stats_merge(&a, &b);
	assert_int_equal(a.n, 1000);
}

/* 10^10 samples (as in a weekend at 100 us x 4 CPUs) stay exact: the sum
 * crosses 2^64 and the counts do not wrap. */
static void test_long_run_exact(void **state)
{
	struct stats s;
	double m, sd;
	uint64_t n = UINT64_C(10000000000);

	(void)state;
	stats_init(&s);
	stats_add_n(&s, 2000000000, n);		/* 2 s each: sum 2e19 > 2^64 */
	stats_add_n(&s, -1, 1);
	assert_int_equal(s.n, n + 1);
	/* 2e19 - 1 = 1 * 2^64 + 1553255926290448383 */
	assert_int_equal(s.sum_hi, 1);
	assert_int_equal(s.sum_lo, UINT64_C(1553255926290448383));
	assert_int_equal(s.min, -1);
	assert_int_equal(s.max, 2000000000);
	stats_mean(&s, &m);
	assert_true(fabs(m - 2e9) < 1.0);
	stats_stddev(&s, &sd);
	/* one outlier 2e9 away among 1e10: sd = 2e9 / sqrt(1e10) = 2e4 */
	assert_true(fabs(sd - 20000.0) < 1.0);
	/* negative sums carry the sign in the high word */
	stats_init(&s);
	stats_add_n(&s, -3000000000LL, n);	/* -3e19 */
	assert_int_equal(s.sum_hi, -2);
	assert_int_equal(s.sum_lo, UINT64_C(6893488147419103232));
	stats_mean(&s, &m);
	assert_true(fabs(m + 3e9) < 1.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_and_one),
		cmocka_unit_test(test_negative_samples),
		cmocka_unit_test(test_mean_bounded),
		cmocka_unit_test(test_merge_equals_sequential),
		cmocka_unit_test(test_long_run_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
