/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time arithmetic. Every time inside rtlat is a signed 64-bit count of
 * nanoseconds (int64_t); struct timespec only appears at the system-call edge.
 * Conversions multiply in 64 bits before adding, so they are exact on 32-bit
 * targets whatever the width of time_t.
 */
#ifndef RTLAT_TIMEUTIL_H
#define RTLAT_TIMEUTIL_H

#include <stdint.h>
#include <time.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_MSEC	1000000LL
#define NSEC_PER_SEC	1000000000LL

/* timespec -> ns. Exact for any valid timespec (tv_nsec in [0, 1e9)). */
static inline int64_t ts_to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NSEC_PER_SEC + (int64_t)ts->tv_nsec;
}

/* ns -> timespec, with tv_nsec always in [0, 1e9), also for negative ns. */
static inline struct timespec ns_to_ts(int64_t ns)
{
	struct timespec ts;
	int64_t sec = ns / NSEC_PER_SEC;
	int64_t rem = ns % NSEC_PER_SEC;

	if (rem < 0) {
		rem += NSEC_PER_SEC;
		sec -= 1;
	}
	ts.tv_sec = (time_t)sec;
	ts.tv_nsec = (long)rem;
	return ts;
}

/* a - b in ns (borrow across seconds handled by the 64-bit arithmetic). */
static inline int64_t ts_sub_ns(const struct timespec *a,
				const struct timespec *b)
{
	return ((int64_t)a->tv_sec - (int64_t)b->tv_sec) * NSEC_PER_SEC +
	       ((int64_t)a->tv_nsec - (int64_t)b->tv_nsec);
}

/* Current time of @clock in ns; the only clock read used by samplers. */
static inline int64_t clock_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts_to_ns(&ts);
}

/* Sleep @ns (relative, CLOCK_MONOTONIC); a signal may end it early. Not
 * for samplers' measurements: they wait with their backend. (In a Cobalt
 * build, clock_nanosleep() is Cobalt's in the measuring objects and
 * Linux's elsewhere: see engine/cobalt.h.) */
static inline void sleep_ns(int64_t ns)
{
	struct timespec ts = ns_to_ts(ns);

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

/*
 * Format @ns as microseconds with exactly three decimals ("-12.345"), by
 * integer arithmetic (no rounding: 1 ns is 0.001 us). @buf needs 32 bytes.
 * Returns @buf.
 */
char *fmt_us3(char *buf, int64_t ns);

/* Format a duration in ns as "hh:mm:ss" (hours may exceed 99). 32 bytes. */
char *fmt_hms(char *buf, int64_t ns);

/* Format a time in the largest unit that divides it exactly: "100 us",
 * "1 s", "10 min", "2.500 us"; "0 ns" for 0. 32 bytes. */
char *fmt_time(char *buf, int64_t ns);
/* @dev_ns in parts per million of @ref_ns, rounded to nearest, signed;
 * saturates for |dev| above ~9000 s. @ref_ns <= 0 (no reference) gives
 * 0: callers print such a ratio as n/a. */
int64_t ppm_of(int64_t dev_ns, int64_t ref_ns);
/* @ppm as a signed percentage with two decimals: "+1.23 %", "-0.05 %",
 * "0.00 %". @buf needs 32 bytes. Returns @buf. */
char *fmt_pct_ppm(char *buf, int64_t ppm);

/* Format a wall-clock time (CLOCK_REALTIME ns) as ISO 8601 UTC with ms:
 * "2026-11-29T20:04:08.123Z". 32 bytes. */
char *fmt_utc(char *buf, int64_t realtime_ns);

#endif
