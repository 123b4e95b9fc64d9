// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: cruncher calibration arithmetic and deviation statistics. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "measure/lib/crunch.h"
#include "engine/histogram.h"
#include "util/stats.h"
#include "util/timeutil.h"

static void test_scale(void **state)
{
	(void)state;
	/* n * ideal / took, rounded */
	assert_int_equal(crunch_scale(1000, 5 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC), 2000);
	assert_int_equal(crunch_scale(1000, 20 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC), 500);
	assert_int_equal(crunch_scale(3, 2, 3), 5);		/* 4.5 rounds up */
	assert_int_equal(crunch_scale(1000, 10 * NSEC_PER_MSEC, 10 * NSEC_PER_MSEC), 1000);
	/* at most x16 and /16 per step */
	assert_int_equal(crunch_scale(1000, NSEC_PER_MSEC, 100 * NSEC_PER_MSEC), 16000);
	assert_int_equal(crunch_scale(1000, 100 * NSEC_PER_MSEC, NSEC_PER_MSEC), 63);
	/* an unmeasurably short run */
	assert_int_equal(crunch_scale(1000, 0, NSEC_PER_MSEC), 16000);
	assert_int_equal(crunch_scale(1000, -5, NSEC_PER_MSEC), 16000);
	/* limits */
	assert_int_equal(crunch_scale(1, NSEC_PER_SEC, NSEC_PER_MSEC), 1);
	assert_true(crunch_scale(CRUNCH_MAX_ITER, 1, 10) == CRUNCH_MAX_ITER);
	assert_true(crunch_scale(CRUNCH_MAX_ITER / 2, 1000, 4000) == CRUNCH_MAX_ITER);
}

static void test_ppm_and_tolerance(void **state)
{
	const int64_t ideal = 10 * NSEC_PER_MSEC;

	(void)state;
	assert_int_equal(crunch_ppm(100 * NSEC_PER_USEC, ideal), 10000);
	assert_int_equal(crunch_ppm(-100 * NSEC_PER_USEC, ideal), -10000);
	assert_int_equal(crunch_ppm(0, ideal), 0);
	assert_int_equal(crunch_ppm(1, 3), 333333);
	assert_int_equal(crunch_ppm(2, 3), 666667);
	assert_int_equal(crunch_ppm(-2, 3), -666667);
	/* saturates instead of overflowing */
	assert_true(crunch_ppm(INT64_MAX, 1) > 0);
	assert_true(crunch_ppm(INT64_MIN + 1, 1) < 0);

	/* no reference (--sleep 0): no ratio, no division by zero */
	assert_int_equal(crunch_ppm(5000, 0), 0);
	assert_int_equal(crunch_ppm(-5000, 0), 0);
	assert_int_equal(crunch_ppm(INT64_MAX, 0), 0);
	assert_int_equal(crunch_ppm(5000, -1), 0);
	assert_true(crunch_within(0, 0, 50000));
	assert_false(crunch_within(1, 0, 50000));

	assert_true(crunch_within(ideal, ideal, 50000));
	assert_true(crunch_within(ideal + ideal / 20, ideal, 50000));	/* +5 % */
	assert_true(crunch_within(ideal - ideal / 20, ideal, 50000));	/* -5 % */
	assert_false(crunch_within(ideal + ideal / 20 + 1000, ideal, 50000));
	assert_false(crunch_within(ideal - ideal / 20 - 1000, ideal, 50000));
}

static void test_fmt_pct(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(crunch_fmt_pct(b, 12345), "+1.23 %");
	assert_string_equal(crunch_fmt_pct(b, 12355), "+1.24 %");
	assert_string_equal(crunch_fmt_pct(b, -500), "-0.05 %");
	assert_string_equal(crunch_fmt_pct(b, 0), "0.00 %");
	assert_string_equal(crunch_fmt_pct(b, -49), "0.00 %");
	assert_string_equal(crunch_fmt_pct(b, 2987100), "+298.71 %");
}

/* Deviations of runs faster and slower than ideal stay signed: nothing
 * is folded, the mean is exact, every sample is in the histogram. */
static void test_deviation_statistics(void **state)
{
	const int64_t ideal = 10 * NSEC_PER_MSEC;
	const int64_t took[] = {
		9900 * NSEC_PER_USEC, 10200 * NSEC_PER_USEC,
		9950 * NSEC_PER_USEC, 10500 * NSEC_PER_USEC,
		10000 * NSEC_PER_USEC,
	};
	struct histogram h;
	struct stats st;
	double mean, sd;
	int64_t p;
	size_t i;

	(void)state;
	stats_init(&st);
	assert_int_equal(hist_init_loglin(&h), 0);
	for (i = 0; i < sizeof(took) / sizeof(took[0]); i++) {
		stats_add(&st, took[i] - ideal);
		hist_add(&h, took[i] - ideal);
	}
	assert_int_equal(st.n, 5);
	assert_int_equal(st.min, -100 * NSEC_PER_USEC);
	assert_int_equal(st.max, 500 * NSEC_PER_USEC);
	assert_true(stats_mean(&st, &mean));
	assert_true(mean == 110 * NSEC_PER_USEC);	/* (-100+200-50+500+0)/5 */
	assert_true(stats_stddev(&st, &sd));
	assert_true(fabs(sd - 245967.5) < 1.0);
	assert_int_equal(hist_total(&h), 5);
	/* the median is the 0 deviation, p90 the slowest run */
	assert_true(hist_percentile(&h, 2, st.min, st.max, &p));
	assert_true(p >= 0 && p <= 1);
	assert_true(hist_percentile(&h, 10, st.min, st.max, &p));
	assert_int_equal(p, 500 * NSEC_PER_USEC);
	/* faster runs have buckets of their own, below zero */
	assert_int_equal(h.underflow, 0);
	assert_int_equal(h.count[hist_index(&h, -100 * NSEC_PER_USEC)], 1);
	assert_int_equal(h.count[hist_index(&h, 100 * NSEC_PER_USEC)], 0);
	assert_true(hist_index(&h, -50 * NSEC_PER_USEC) < hist_index(&h, 0));
	/* in percent of the ideal time */
	assert_int_equal(crunch_ppm(st.min, ideal), -10000);
	assert_int_equal(crunch_ppm(st.max, ideal), 50000);
	assert_int_equal(crunch_ppm((int64_t)mean, ideal), 11000);
	hist_free(&h);
}

static void test_kernel_verifiable(void **state)
{
	double a, b, c;

	(void)state;
	a = crunch_run(100000);
	b = crunch_run(100000);
	c = crunch_run(100001);
	assert_true(isfinite(a));
	assert_true(crunch_same(a, b));
	assert_false(crunch_same(a, c));
	assert_false(crunch_same(0.0, -0.0));
	assert_true(crunch_same(NAN, NAN) || !crunch_same(NAN, 1.0));
}

static void test_calibrate_runs(void **state)
{
	struct crunch_cal cal;

	(void)state;
	/* a short ideal time; whether 5 % is reached depends on the machine */
	assert_int_equal(crunch_calibrate(&cal, 2 * NSEC_PER_MSEC, 50000,
					  NSEC_PER_MSEC, NULL), 0);
	assert_true(cal.done);
	assert_true(cal.iterations > 0);
	assert_true(cal.reached_ns > 0);
	assert_true(crunch_same(crunch_run(cal.iterations), cal.reference));
}

/* Chunked runs give the same bits; a stop flag ends them. */
static void test_run_until(void **state)
{
	const uint64_t n = 3 * CRUNCH_CHUNK + 17;
	_Atomic int stop = 0;
	double r = 0.0;

	(void)state;
	assert_true(crunch_run_until(n, &stop, &r));
	assert_true(crunch_same(r, crunch_run(n)));
	assert_true(crunch_run_until(5, &stop, &r));
	assert_true(crunch_same(r, crunch_run(5)));
	assert_true(crunch_run_until(0, NULL, &r));
	assert_true(crunch_same(r, crunch_run(0)));
	stop = 1;
	r = 42.0;
	assert_false(crunch_run_until(n, &stop, &r));
	assert_true(r == 42.0);
}

static void test_extrapolate_and_estimate(void **state)
{
	(void)state;
	/* linear, no limit per step */
	assert_int_equal(crunch_extrapolate(1000, 50 * NSEC_PER_MSEC,
					    2 * NSEC_PER_SEC), 40000);
	assert_int_equal(crunch_extrapolate(1000, 2 * NSEC_PER_SEC,
					    50 * NSEC_PER_MSEC), 25);
	assert_int_equal(crunch_extrapolate(10, NSEC_PER_SEC, 1), 1);
	assert_true(crunch_extrapolate(1 << 30, 1, NSEC_PER_SEC) ==
		    CRUNCH_MAX_ITER);
	assert_int_equal(crunch_extrapolate(1000, 0, NSEC_PER_MSEC), 16000);
	/* calibration: about 10 probe times, + one run of a long ideal */
	assert_true(crunch_calibration_estimate(10 * NSEC_PER_MSEC, 0) <
		    200 * NSEC_PER_MSEC);
	assert_true(crunch_calibration_estimate(10 * NSEC_PER_SEC,
						NSEC_PER_MSEC) >= 10 * NSEC_PER_SEC);
	assert_true(crunch_calibration_estimate(10 * NSEC_PER_SEC,
						10 * NSEC_PER_SEC) < 11 * NSEC_PER_SEC);
}

/* A long ideal time is extrapolated from the probe time and checked with
 * at most two full runs: calibration no longer takes 5 runs per step. */
static void test_calibrate_long_ideal(void **state)
{
	const int64_t ideal = 300 * NSEC_PER_MSEC;
	struct crunch_cal cal;

	(void)state;
	assert_int_equal(crunch_calibrate(&cal, ideal, 50000, 0, NULL), 0);
	assert_true(cal.done);
	assert_true(cal.reached_ns > 0);
	assert_true(crunch_same(crunch_run(cal.iterations), cal.reference));
	/* the old scheme: 5 runs of 300 ms per step; now one or two (the
	 * count, not the time: this machine is noisy) */
	assert_true(cal.full_runs >= 1 && cal.full_runs <= 2);
}

struct stopper {
	_Atomic int flag;
	int64_t after_ns;
};

static void *stopper_main(void *arg)
{
	struct stopper *st = arg;

	sleep_ns(st->after_ns);
	atomic_store(&st->flag, 1);
	return NULL;
}

/* Stopped during calibration: returns at once with -EINTR, not
 * calibrated; already stopped: does not start. */
static void test_calibrate_stops(void **state)
{
	struct stopper st = { 0, 100 * NSEC_PER_MSEC };
	struct crunch_cal cal;
	pthread_t th;
	int64_t t0, took;

	(void)state;
	st.flag = 1;
	assert_int_equal(crunch_calibrate(&cal, 10 * NSEC_PER_MSEC, 50000, 0,
					  &st.flag), -EINTR);
	assert_false(cal.done);
	st.flag = 0;
	t0 = clock_now_ns(CLOCK_MONOTONIC);
	assert_int_equal(pthread_create(&th, NULL, stopper_main, &st), 0);
	/* a 5 s ideal time: several seconds of calibration if not stopped */
	assert_int_equal(crunch_calibrate(&cal, 5 * NSEC_PER_SEC, 50000, 0,
					  &st.flag), -EINTR);
	took = clock_now_ns(CLOCK_MONOTONIC) - t0;
	pthread_join(th, NULL);
	assert_false(cal.done);
	assert_true(took < 3 * NSEC_PER_SEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_ppm_and_tolerance),
		cmocka_unit_test(test_fmt_pct),
		cmocka_unit_test(test_deviation_statistics),
		cmocka_unit_test(test_kernel_verifiable),
		cmocka_unit_test(test_calibrate_runs),
		cmocka_unit_test(test_run_until),
		cmocka_unit_test(test_extrapolate_and_estimate),
		cmocka_unit_test(test_calibrate_long_ideal),
		cmocka_unit_test(test_calibrate_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
