// SPDX-License-Identifier: GPL-2.0-or-later
/* The cruncher's floating-point computation; see crunch.h. */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/lib/crunch.h"
#include "system/clockcheck.h"
#include "util/timeutil.h"

#define CAL_START	1024
#define CAL_RUNS	5
#define CAL_STEPS	12
#define CAL_FULL_RUNS	2	/* runs of a long ideal time at most */

/* cos and sin of 1e-5 rad; volatile so that no run is folded at build time */
static volatile double rot_c = 0.99999999995;
static volatile double rot_s = 0.0000099999999998333;

bool crunch_run_until(uint64_t n, const _Atomic int *stop, double *res)
{
	double c = rot_c, s = rot_s;
	double x = 1.0, y = 0.0, acc = 0.0;
	uint64_t i, k;

	/* in chunks, so that @stop is seen within a fraction of a
	 * millisecond; the same operations in the same order as one loop,
	 * hence the same result bits */
	while (n) {
		if (stop && atomic_load_explicit(stop, memory_order_relaxed))
			return false;
		k = n < CRUNCH_CHUNK ? n : CRUNCH_CHUNK;
		for (i = 0; i < k; i++) {
			double nx = x * c - y * s;

			y = x * s + y * c;
			x = nx;
			acc += x * y;
		}
		n -= k;
	}
	*res = acc + x - y;
	return true;
}

double crunch_run(uint64_t n)
{
	double res = 0.0;

	crunch_run_until(n, NULL, &res);
	return res;
}

bool crunch_same(double a, double b)
{
	uint64_t x, y;

	_Static_assert(sizeof(double) == sizeof(uint64_t), "64-bit double");
	memcpy(&x, &a, sizeof(x));	/* the bits, not the values */
	memcpy(&y, &b, sizeof(y));
	return x == y;
}

uint64_t crunch_scale(uint64_t n, int64_t took_ns, int64_t ideal_ns)
{
	double f, v;

	if (took_ns <= 0)
		f = CRUNCH_MAX_STEP;
	else
		f = (double)ideal_ns / (double)took_ns;
	if (f > CRUNCH_MAX_STEP)
		f = CRUNCH_MAX_STEP;
	if (f < 1.0 / CRUNCH_MAX_STEP)
		f = 1.0 / CRUNCH_MAX_STEP;
	v = (double)n * f + 0.5;
	if (v < 1.0)
		return 1;
	if (v >= (double)CRUNCH_MAX_ITER)
		return CRUNCH_MAX_ITER;
	return (uint64_t)v;
}

int64_t crunch_ppm(int64_t dev_ns, int64_t ideal_ns)
{
	return ppm_of(dev_ns, ideal_ns);
}

bool crunch_within(int64_t took_ns, int64_t ideal_ns, int64_t tol_ppm)
{
	int64_t p;

	if (ideal_ns <= 0)
		return took_ns == ideal_ns;
	p = crunch_ppm(took_ns - ideal_ns, ideal_ns);
	return p <= tol_ppm && p >= -tol_ppm;
}

char *crunch_fmt_pct(char *buf, int64_t ppm)
{
	return fmt_pct_ppm(buf, ppm);
}

uint64_t crunch_extrapolate(uint64_t n, int64_t took_ns, int64_t target_ns)
{
	double v;

	if (took_ns <= 0)
		return crunch_scale(n, took_ns, target_ns);
	v = (double)n * ((double)target_ns / (double)took_ns) + 0.5;
	if (v < 1.0)
		return 1;
	if (v >= (double)CRUNCH_MAX_ITER)
		return CRUNCH_MAX_ITER;
	return (uint64_t)v;
}

int64_t crunch_calibration_estimate(int64_t ideal_ns, int64_t gap_ns)
{
	int64_t probe = ideal_ns < CRUNCH_PROBE_NS ? ideal_ns : CRUNCH_PROBE_NS;
	int64_t pause = gap_ns < CRUNCH_PAUSE_NS ? gap_ns : CRUNCH_PAUSE_NS;

	/* the coarse runs, two medians of the probe time, one full run */
	return probe / 8 + (int64_t)2 * CAL_RUNS * (probe + pause) +
	       (ideal_ns > probe ? ideal_ns + pause : 0);
}

/* One run of @n after the pause, timed; false when stopped. */
static bool timed_run(uint64_t n, int64_t pause_ns, const _Atomic int *stop,
		      int64_t *took, double *res)
{
	int64_t t0 = clock_now_ns(CLOCK_MONOTONIC), ta = t0;

	if (pause_ns > 0) {
		sleep_ns(pause_ns);
		t0 = clock_now_ns(CLOCK_MONOTONIC);
		/* a sleep cannot end before its time: a clock fault
		 * (system/clockcheck.h) */
		if (t0 - ta < pause_ns - CLOCK_EARLY_NS) {
			*took = -1;
			return true;
		}
	}
	if (!crunch_run_until(n, stop, res))
		return false;
	*took = clock_now_ns(CLOCK_MONOTONIC) - t0;
	return true;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Median time of CAL_RUNS runs of @n: 0, -EIO when their results differ,
 * -EINTR when stopped. */
static int median_run(uint64_t n, int64_t pause_ns, const _Atomic int *stop,
		      int64_t *median, double *res)
{
	int64_t t[CAL_RUNS];
	double r;
	int i;

	for (i = 0; i < CAL_RUNS; i++) {
		if (!timed_run(n, pause_ns, stop, &t[i], &r))
			return -EINTR;
		if (t[i] < 0)
			return -ENOTRECOVERABLE;
		if (i && !crunch_same(r, *res))
			return -EIO;
		*res = r;
	}
	qsort(t, CAL_RUNS, sizeof(t[0]), cmp_i64);
	*median = t[CAL_RUNS / 2];
	return 0;
}

int crunch_calibrate(struct crunch_cal *cal, int64_t ideal_ns,
		     int64_t tol_ppm, int64_t gap_ns,
		     const _Atomic int *stop)
{
	int64_t probe = ideal_ns < CRUNCH_PROBE_NS ? ideal_ns : CRUNCH_PROBE_NS;
	int64_t pause = gap_ns < CRUNCH_PAUSE_NS ? gap_ns : CRUNCH_PAUSE_NS;
	uint64_t n = CAL_START, n2;
	int64_t t;
	double res;
	int e, k;

	memset(cal, 0, sizeof(*cal));
	/* coarse: double until one run is long enough to time well */
	for (;;) {
		if (!timed_run(n, pause, stop, &t, &res))
			return -EINTR;
		if (t < 0)
			return -ENOTRECOVERABLE;
		if (t >= probe / CRUNCH_MAX_STEP || n >= CRUNCH_MAX_ITER / 2)
			break;
		n *= 2;
	}
	/* the probe time (the ideal time when short) on medians */
	n = crunch_scale(n, t, probe);
	for (;;) {
		e = median_run(n, pause, stop, &t, &res);
		if (e)
			return e;
		cal->iterations = n;
		cal->reached_ns = t;
		cal->reference = res;
		cal->within = crunch_within(t, probe, tol_ppm);
		if (cal->within || cal->steps >= CAL_STEPS)
			break;
		n2 = crunch_scale(n, t, probe);
		if (n2 == n)
			break;		/* cannot get closer */
		n = n2;
		cal->steps++;
	}
	if (probe == ideal_ns) {
		cal->done = true;
		return 0;
	}
	/* a longer ideal time: the time is linear in the count; a full run
	 * or two check it and give the reference result */
	for (k = 0; k < CAL_FULL_RUNS; k++) {
		n = crunch_extrapolate(cal->iterations, cal->reached_ns,
				       ideal_ns);
		if (!timed_run(n, pause, stop, &t, &res))
			return -EINTR;
		if (t < 0)
			return -ENOTRECOVERABLE;
		cal->full_runs++;
		cal->iterations = n;
		cal->reached_ns = t;
		cal->reference = res;
		cal->within = crunch_within(t, ideal_ns, tol_ppm);
		cal->steps++;
		if (cal->within)
			break;
	}
	cal->done = true;
	return 0;
}
