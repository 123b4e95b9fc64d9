/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsing of numbers and times given on the command line or in suite files. */
#ifndef RTLAT_PARSE_H
#define RTLAT_PARSE_H

#include <stdint.h>

/*
 * Parse a time such as "100", "2.5ms", "30s", "10m", "2h", "1d" into ns.
 * Units: ns, us, ms, s, m (minutes), h, d; a bare number is in @unit_ns
 * (e.g. NSEC_PER_USEC for a period, NSEC_PER_SEC for a duration). Up to 9
 * fraction digits are exact. Negative values are rejected.
 * Returns 0, -EINVAL (syntax) or -ERANGE (does not fit in int64 ns, or a
 * non-zero value below 1 ns).
 */
int parse_time_ns(const char *s, int64_t unit_ns, int64_t *out);

/*
 * The one cap of every run duration rtlat takes (-T of every test, the
 * suite and `rtlat load`, cyclic's -D): 3650 days. Deadlines and watchdogs
 * computed from a duration (now + warm-up + duration, either clock) stay far
 * below INT64_MAX ns with it. A warm-up is capped at one day.
 */
#define DURATION_MAX_NS (INT64_C(3650) * 86400 * INT64_C(1000000000))
#define WARMUP_MAX_NS (INT64_C(86400) * INT64_C(1000000000))
/* The words every command uses for a duration outside 0..DURATION_MAX_NS. */
#define DURATION_HINT \
	"expected a duration such as 30, 30s, 10m, 2h, 1d, at most 3650d"

/*
 * A duration (bare number: seconds) in 0..@max_ns, @max_ns at most
 * DURATION_MAX_NS. Returns 0, -EINVAL (syntax) or -ERANGE (above @max_ns).
 */
int parse_duration_ns(const char *s, int64_t max_ns, int64_t *out);

/* Parse a decimal integer in [min, max]. Returns 0, -EINVAL or -ERANGE. */
int parse_int(const char *s, long long min, long long max, long long *out);

#endif
