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
 * Calibration finds the iteration count whose run takes the ideal time.
 * It works on a probe time, the ideal time up to CRUNCH_PROBE_NS: counts
 * double until a run takes 1/16 of it, then are scaled by probe / measured
 * (at most x16 or /16 per step) on the median of 5 runs, until the median
 * is within the tolerance or 12 steps are done. A longer ideal time is
 * then extrapolated (the time is linear in the count) and checked by at
 * most 2 single full runs. So calibration takes about 10 probe times, and
 * 2 ideal times at most beyond that for long ones (a few seconds in the
 * worst case + 2 ideal times); it stops at once when asked to.
 */
#ifndef RTLAT_CRUNCH_H
#define RTLAT_CRUNCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define CRUNCH_MAX_ITER		(UINT64_C(1) << 40)
#define CRUNCH_MAX_STEP		16	/* largest scaling factor per step */
#define CRUNCH_PROBE_NS		((int64_t)50000000)	/* see above */
#define CRUNCH_PAUSE_NS		((int64_t)1000000)	/* most sleep between
							 * calibration runs */
#define CRUNCH_CHUNK		(UINT64_C(1) << 16)	/* iterations between
							 * checks of the stop flag */

/* Run the kernel for @n iterations; returns its result. */
double crunch_run(uint64_t n);

/* The same, checking @stop (may be NULL) every CRUNCH_CHUNK iterations:
 * returns false as soon as it is set (*@res untouched), else true with the
 * result in *@res - the same bits as crunch_run(@n). */
bool crunch_run_until(uint64_t n, const _Atomic int *stop, double *res);

/* Same bits (NaN-safe, -0.0 != 0.0): the verification of a run. */
bool crunch_same(double a, double b);

/* Iterations expected to take @ideal_ns when @n took @took_ns: n * ideal
 * / took rounded, the factor limited to [1/16, 16], the result to
 * [1, CRUNCH_MAX_ITER]; took_ns <= 0 gives n * 16. */
uint64_t crunch_scale(uint64_t n, int64_t took_ns, int64_t ideal_ns);

/* Iterations expected to take @target_ns when @n took @took_ns, without
 * crunch_scale()'s limit per step (linear extrapolation), within
 * [1, CRUNCH_MAX_ITER]. */
uint64_t crunch_extrapolate(uint64_t n, int64_t took_ns, int64_t target_ns);

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
	bool done;		/* calibrated (else stopped first) */
	uint64_t iterations;	/* calibrated count */
	int64_t reached_ns;	/* median run time with it */
	double reference;	/* its result, the verification value */
	bool within;		/* reached within the tolerance */
	int steps;		/* refinement steps taken */
	int full_runs;		/* timed runs of the whole ideal time (an
				 * ideal above CRUNCH_PROBE_NS; else 0) */
};

/*
 * Calibrate in the calling thread (pinned and at its real-time priority)
 * for @ideal_ns within @tol_ppm. Each timed run follows a sleep of @gap_ns
 * (the test's sleep between computations) up to CRUNCH_PAUSE_NS. Returns
 * 0 (cal->done; check cal->within), -EIO when identical runs gave
 * different results (FPU corruption), -ENOTRECOVERABLE when the clock did not advance across a sleep
 * (a clock fault), or -EINTR as soon as @stop (may be
 * NULL) is set.
 */
int crunch_calibrate(struct crunch_cal *cal, int64_t ideal_ns,
		     int64_t tol_ppm, int64_t gap_ns,
		     const _Atomic int *stop);

/* About how long crunch_calibrate() takes for @ideal_ns, @gap_ns (ns):
 * the usual case, for messages. */
int64_t crunch_calibration_estimate(int64_t ideal_ns, int64_t gap_ns);

#endif
