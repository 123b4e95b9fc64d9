// SPDX-License-Identifier: GPL-2.0-or-later
/* Time formatting at the output edge. */
#include <stdio.h>
#include <inttypes.h>
#include <string.h>

#include "util/timeutil.h"

char *fmt_us3(char *buf, int64_t ns)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, 32, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "",
		 mag / 1000, mag % 1000);
	return buf;
}

char *fmt_hms(char *buf, int64_t ns)
{
	int64_t s = ns < 0 ? 0 : ns / NSEC_PER_SEC;

	snprintf(buf, 32, "%02" PRId64 ":%02" PRId64 ":%02" PRId64,
		 s / 3600, (s / 60) % 60, s % 60);
	return buf;
}

char *fmt_utc(char *buf, int64_t realtime_ns)
{
	struct timespec ts = ns_to_ts(realtime_ns);
	struct tm tm;
	time_t t = ts.tv_sec;

	gmtime_r(&t, &tm);
	snprintf(buf, 32, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000L);
	return buf;
}

char *fmt_time(char *buf, int64_t ns)
{
	static const struct {
		int64_t ns;
		const char *unit;
	} u[] = {
		{ 86400 * NSEC_PER_SEC, "d" }, { 3600 * NSEC_PER_SEC, "h" },
		{ 60 * NSEC_PER_SEC, "min" }, { NSEC_PER_SEC, "s" },
		{ NSEC_PER_MSEC, "ms" }, { NSEC_PER_USEC, "us" },
	};
	size_t i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (ns != 0 && ns % u[i].ns == 0) {
			snprintf(buf, 32, "%" PRId64 " %s", ns / u[i].ns, u[i].unit);
			return buf;
		}
	}
	if (ns >= NSEC_PER_USEC || ns <= -NSEC_PER_USEC) {
		fmt_us3(buf, ns);
		strcat(buf, " us");
	} else {
		snprintf(buf, 32, "%" PRId64 " ns", ns);
	}
	return buf;
}

int64_t ppm_of(int64_t dev_ns, int64_t ideal_ns)
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

char *fmt_pct_ppm(char *buf, int64_t ppm)
{
	/* hundredths of a percent, rounded to nearest: 100 ppm each */
	int64_t h = ppm >= 0 ? (ppm + 50) / 100 : -((-ppm + 50) / 100);
	uint64_t m = h < 0 ? (uint64_t)0 - (uint64_t)h : (uint64_t)h;

	snprintf(buf, 32, "%s%llu.%02llu %%", h > 0 ? "+" : h < 0 ? "-" : "",
		 (unsigned long long)(m / 100), (unsigned long long)(m % 100));
	return buf;
}
