// SPDX-License-Identifier: GPL-2.0-or-later
/* Clock checks; see clockcheck.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "system/clockcheck.h"
#include "util/timeutil.h"

const char *clock_id_name(clockid_t c)
{
	switch (c) {
	case CLOCK_MONOTONIC:
		return "CLOCK_MONOTONIC";
	case CLOCK_REALTIME:
		return "CLOCK_REALTIME";
	case CLOCK_MONOTONIC_RAW:
		return "CLOCK_MONOTONIC_RAW";
	case CLOCK_BOOTTIME:
		return "CLOCK_BOOTTIME";
	case CLOCK_TAI:
		return "CLOCK_TAI";
	}
	return "another clock";
}

/* CLOCK_VERIFY_READS reads from @from on: true at the first that goes back
 * or jumps beyond CLOCK_VERIFY_MAX_NS (the pair in *@x, *@y). */
static bool burst_bad(clockid_t c, int64_t from, int64_t *x, int64_t *y)
{
	int64_t prev = from, t;
	int i;

	for (i = 0; i < CLOCK_VERIFY_READS; i++) {
		t = clock_now_ns(c);
		if (t < prev || t - prev > CLOCK_VERIFY_MAX_NS) {
			*x = prev;
			*y = t;
			return true;
		}
		prev = t;
	}
	return false;
}

int clock_verify(clockid_t c, int64_t *advance_ns, char *msg, size_t len)
{
	struct timespec ts = ns_to_ts(CLOCK_VERIFY_SLEEP_NS);
	int64_t a = 0, b = 0, adv = 0, bad_a = 0, bad_b = 0;
	bool burst = false;
	int i, e;

	msg[0] = '\0';
	for (i = 0; i < 3; i++) {
		a = clock_now_ns(c);
		e = clock_nanosleep(c, 0, &ts, NULL);
		b = clock_now_ns(c);
		if (e && e != EINTR) {
			snprintf(msg, len, "%s: a %" PRId64 " ms sleep failed: %s",
				 clock_id_name(c),
				 (int64_t)(CLOCK_VERIFY_SLEEP_NS / NSEC_PER_MSEC),
				 strerror(e));
			return -1;
		}
		adv = b - a;
		if (!e && a > 0 && b > 0 && adv >= CLOCK_VERIFY_SLEEP_NS &&
		    adv <= CLOCK_VERIFY_MAX_NS) {
			*advance_ns = adv;
			if (!burst_bad(c, b, &bad_a, &bad_b))
				return 0;
			burst = true;
		}
	}
	if (burst) {
		snprintf(msg, len,
			 "%s read %" PRId64 " ns then %" PRId64
			 " ns right after, in %d reads back to back (3 tries)",
			 clock_id_name(c), bad_a, bad_b, CLOCK_VERIFY_READS);
		return -1;
	}
	*advance_ns = adv;
	if (a <= 0 || b <= 0)
		snprintf(msg, len,
			 "%s reads %" PRId64 " ns then %" PRId64
			 " ns around a %" PRId64 " ms sleep (3 tries): not a clock",
			 clock_id_name(c), a, b,
			 (int64_t)(CLOCK_VERIFY_SLEEP_NS / NSEC_PER_MSEC));
	else
		snprintf(msg, len,
			 "%s advanced %" PRId64 " ns across a %" PRId64
			 " ms sleep (3 tries)", clock_id_name(c), adv,
			 (int64_t)(CLOCK_VERIFY_SLEEP_NS / NSEC_PER_MSEC));
	return -1;
}

int64_t clock_rt_offset(void)
{
	int64_t m1, rt, m2, best = INT64_MAX, off = 0;
	int i;

	for (i = 0; i < 4; i++) {
		m1 = clock_now_ns(CLOCK_MONOTONIC);
		rt = clock_now_ns(CLOCK_REALTIME);
		m2 = clock_now_ns(CLOCK_MONOTONIC);
		if (m2 - m1 < best) {
			best = m2 - m1;
			off = rt - (m1 + (m2 - m1) / 2);
		}
		if (best <= 20000)
			break;
	}
	return off;
}
