// SPDX-License-Identifier: GPL-2.0-or-later
/* Number and time parsing; see parse.h. */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"
#include "util/timeutil.h"

static const struct {
	const char *name;
	int64_t ns;
} time_units[] = {
	{ "ns", 1 },
	{ "us", NSEC_PER_USEC },
	{ "ms", NSEC_PER_MSEC },
	{ "s", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC },
	{ "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC },
};

int parse_time_ns(const char *s, int64_t unit_ns, int64_t *out)
{
	uint64_t ip = 0, frac = 0, frac_scale = 1;
	int digits = 0;
	bool nonzero = false;
	const char *p = s;
	size_t i;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -EINVAL;
	for (; isdigit((unsigned char)*p); p++, digits++) {
		if (ip > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		ip = ip * 10 + (uint64_t)(*p - '0');
		nonzero |= *p != '0';
	}
	if (*p == '.') {
		p++;
		for (; isdigit((unsigned char)*p); p++, digits++) {
			if (frac_scale < 1000000000ULL) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				frac_scale *= 10;
			}
			nonzero |= *p != '0';
		}
	}
	if (digits == 0)
		return -EINVAL;
	if (*p) {
		for (i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++)
			if (strcmp(p, time_units[i].name) == 0)
				break;
		if (i == sizeof(time_units) / sizeof(time_units[0]))
			return -EINVAL;
		unit_ns = time_units[i].ns;
	}
	if (ip > (uint64_t)INT64_MAX / (uint64_t)unit_ns)
		return -ERANGE;
	ip *= (uint64_t)unit_ns;
	/* frac / frac_scale * unit_ns, split so that nothing overflows */
	frac = (uint64_t)unit_ns / frac_scale * frac +
	       (uint64_t)unit_ns % frac_scale * frac / frac_scale;
	if (ip > (uint64_t)INT64_MAX - frac)
		return -ERANGE;
	/* "0.5ns" is not 0 (which often means "forever") */
	if (nonzero && ip + frac == 0)
		return -ERANGE;
	*out = (int64_t)(ip + frac);
	return 0;
}

int parse_duration_ns(const char *s, int64_t max_ns, int64_t *out)
{
	int64_t v;
	int e = parse_time_ns(s, NSEC_PER_SEC, &v);

	if (e)
		return e;
	if (v > max_ns || v > DURATION_MAX_NS)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_int(const char *s, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
