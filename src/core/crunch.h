/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The calibrated floating-point computation of 'cruncher' (after Xenomai
 * 2.0's cruncher). The kernel is a chain of dependent double-precision
 * multiply-adds (a plane rotation by a small angle, and a running sum):
 * its time grows linearly with the iteration count, and its result for a
 * given count is fixed by IEEE 754 arithmetic, so it is compared bit for
 * bit after every run - a different result means the FPU state was
 * corrupted (e.g. not restored across a context switch or an interrupt).
 *
 * Calibration finds the iteration count whose run takes the ideal time:
 * counts double until a run takes 1/16 of it, then are scaled by
 * ideal / measured (at most x16 or /16 per step) on the median of 5 runs,
 * until the median is within the tolerance or 12 steps are done.
 */
#ifndef RTLAT_CRUNCH_H
#define RTLAT_CRUNCH_H

#include <stdbool.h>
#include <stdint.h>

#define CRUNCH_MAX_ITER		(UINT64_C(1) << 40)
#define CRUNCH_MAX_STEP		16	/* largest scaling factor per step */

/* Run the kernel for @n iterations; returns its result. */
double crunch_run(uint64_t n);

/* Same bits (NaN-safe, -0.0 != 0.0): the verification of a run. */
bool crunch_same(double a, double b);

/* Iterations expected to take @ideal_ns when @n took @took_ns: n * ideal
 * / took rounded, the factor limited to [1/16, 16], the result to
 * [1, CRUNCH_MAX_ITER]; took_ns <= 0 gives n * 16. */
uint64_t crunch_scale(uint64_t n, int64_t took_ns, int64_t ideal_ns);

/* @dev_ns in parts per million of @ideal_ns, rounded to nearest, signed;
 * saturates for |dev| above ~9000 s. @ideal_ns <= 0 (no reference, e.g.
 * a zero --sleep) gives 0: callers print such a ratio as n/a. */
int64_t crunch_ppm(int64_t dev_ns, int64_t ideal_ns);

/* |took - ideal| within @tol_ppm of ideal (@ideal_ns <= 0: took == ideal). */
bool crunch_within(int64_t took_ns, int64_t ideal_ns, int64_t tol_ppm);

/* @ppm as a signed percentage with two decimals: "+1.23 %", "-0.05 %",
 * "0.00 %". @buf needs 32 bytes. Returns @buf. */
char *crunch_fmt_pct(char *buf, int64_t ppm);

struct crunch_cal {
	uint64_t iterations;	/* calibrated count */
	int64_t reached_ns;	/* median run time with it */
	double reference;	/* its result, the verification value */
	bool within;		/* reached within the tolerance */
	int steps;		/* refinement steps taken */
};

/*
 * Calibrate in the calling thread (pinned and at its real-time priority)
 * for @ideal_ns within @tol_ppm. Returns 0 (check cal->within), or -EIO
 * when identical runs gave different results (FPU corruption).
 */
int crunch_calibrate(struct crunch_cal *cal, int64_t ideal_ns,
		     int64_t tol_ppm);

#endif
