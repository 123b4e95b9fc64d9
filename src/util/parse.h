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

/* Parse a decimal integer in [min, max]. Returns 0, -EINVAL or -ERANGE. */
int parse_int(const char *s, long long min, long long max, long long *out);

#endif
