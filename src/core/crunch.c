// SPDX-License-Identifier: GPL-2.0-or-later
/* The cruncher's floating-point computation; see crunch.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/crunch.h"
#include "core/timeutil.h"

#define CAL_START	1024
#define CAL_RUNS	5
#define CAL_STEPS	12

/* cos and sin of 1e-5 rad; volatile so that no run is folded at build time */
static volatile double rot_c = 0.99999999995;
static volatile double rot_s = 0.0000099999999998333;

double crunch_run(uint64_t n)
{
	double c = rot_c, s = rot_s;
	double x = 1.0, y = 0.0, acc = 0.0;
	uint64_t i;

	for (i = 0; i < n; i++) {
		double nx = x * c - y * s;

		y = x * s + y * c;
		x = nx;
		acc += x * y;
	}
	return acc + x - y;
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
	const int64_t lim = INT64_MAX / 1000000;
	int64_t half = ideal_ns / 2;

	if (ideal_ns <= 0)
		return 0;	/* no reference (--sleep 0): no ratio */
	if (dev_ns > lim)
		dev_ns = lim;
	if (dev_ns < -lim)
		dev_ns = -lim;
	if (dev_ns >= 0)
		return (dev_ns * 1000000 + half) / ideal_ns;
	return -((-dev_ns * 1000000 + half) / ideal_ns);
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
	/* hundredths of a percent, rounded to nearest: 100 ppm each */
	int64_t h = ppm >= 0 ? (ppm + 50) / 100 : -((-ppm + 50) / 100);
	uint64_t m = h < 0 ? (uint64_t)0 - (uint64_t)h : (uint64_t)h;

	snprintf(buf, 32, "%s%llu.%02llu %%", h > 0 ? "+" : h < 0 ? "-" : "",
		 (unsigned long long)(m / 100), (unsigned long long)(m % 100));
	return buf;
}

static int64_t timed_run(uint64_t n, double *res)
{
	int64_t t0 = clock_now_ns(CLOCK_MONOTONIC);

	*res = crunch_run(n);
	return clock_now_ns(CLOCK_MONOTONIC) - t0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Median time of CAL_RUNS runs of @n; false when their results differ. */
static bool median_run(uint64_t n, int64_t *median, double *res)
{
	int64_t t[CAL_RUNS];
	double r;
	int i;

	for (i = 0; i < CAL_RUNS; i++) {
		t[i] = timed_run(n, &r);
		if (i && !crunch_same(r, *res))
			return false;
		*res = r;
	}
	qsort(t, CAL_RUNS, sizeof(t[0]), cmp_i64);
	*median = t[CAL_RUNS / 2];
	return true;
}

int crunch_calibrate(struct crunch_cal *cal, int64_t ideal_ns,
		     int64_t tol_ppm)
{
	uint64_t n = CAL_START, n2;
	int64_t t;
	double res;

	memset(cal, 0, sizeof(*cal));
	/* coarse: double until one run is long enough to time well */
	while ((t = timed_run(n, &res)) < ideal_ns / CRUNCH_MAX_STEP &&
	       n < CRUNCH_MAX_ITER / 2)
		n *= 2;
	n = crunch_scale(n, t, ideal_ns);
	for (;;) {
		if (!median_run(n, &t, &res))
			return -EIO;
		cal->iterations = n;
		cal->reached_ns = t;
		cal->reference = res;
		cal->within = crunch_within(t, ideal_ns, tol_ppm);
		if (cal->within || cal->steps >= CAL_STEPS)
			break;
		n2 = crunch_scale(n, t, ideal_ns);
		if (n2 == n)
			break;		/* cannot get closer */
		n = n2;
		cal->steps++;
	}
	return 0;
}
