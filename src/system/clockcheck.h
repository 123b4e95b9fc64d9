/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is a clock fit to measure with? Checked before the first sample
 * (clock_verify(): it must advance across a known sleep by about that
 * sleep) and watched on every wake-up (engine/wait.h, the noise loop):
 *
 *  - a wake-up read more than CLOCK_EARLY_NS before the deadline it slept
 *    to (a kernel timer never fires early on its own clock: the clock read
 *    is wrong), or a read below the previous one (CLOCK_MONOTONIC never
 *    goes back), is a clock fault;
 *  - a clock that returns the same value for CLOCK_STILL_READS reads in a
 *    row (a spinning loop) stands still: a clock fault;
 *  - a late wake-up, or a gap of the noise loop, is confirmed by a second
 *    read: one below the first means the first was garbage: a fault;
 *  - on CLOCK_REALTIME, a change of CLOCK_REALTIME - CLOCK_MONOTONIC by more
 *    than CLOCK_STEP_NS is a step (clock_settime, date -s, NTP's step, a
 *    leap second), not a fault: the two clocks otherwise advance at the
 *    same rate (NTP's frequency correction applies to both).
 *
 * A clock fault ends the run with an error naming the clock and what was
 * seen (status "error", exit 1); no figure from the faulty wake-up is
 * reported as a latency.
 */
#ifndef RTLAT_CLOCKCHECK_H
#define RTLAT_CLOCKCHECK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef RTLAT_COBALT
/* Cobalt's timers fire early by the core's anticipation (gravity) */
#define CLOCK_EARLY_NS INT64_C(100000)
#else
#define CLOCK_EARLY_NS INT64_C(1000)
#endif
#define CLOCK_STILL_READS (1L << 22)
/* a wake-up later than this is confirmed by a second read, which must not
 * be below it (a garbage read far ahead of the clock is a clock fault) */
#define CLOCK_CONFIRM_NS INT64_C(100000)
/* clock_verify(): reads back to back, each at or above the one before */
#define CLOCK_VERIFY_READS 20000
#define CLOCK_STEP_NS INT64_C(50000)
#define CLOCK_VERIFY_SLEEP_NS INT64_C(5000000)
/* an advance across the sleep above this is no clock (or a host stall:
 * tried again) */
#define CLOCK_VERIFY_MAX_NS (INT64_C(10) * 1000000000)

/* "CLOCK_MONOTONIC", "CLOCK_REALTIME", ... ("another clock" for others:
 * rtlat measures on the first two). */
const char *clock_id_name(clockid_t c);

/*
 * Sleep CLOCK_VERIFY_SLEEP_NS (relative, on @c) between two reads of @c, up
 * to 3 times until the advance lies in [the sleep, CLOCK_VERIFY_MAX_NS],
 * both reads are above 0 and CLOCK_VERIFY_READS reads back to back never
 * go back nor pass CLOCK_VERIFY_MAX_NS. Returns 0 (advance in *@advance_ns), or -1
 * with what was seen in @msg ("CLOCK_MONOTONIC advanced 0 ns across a 5 ms
 * sleep (3 tries)"). @msg is "" on success.
 */
int clock_verify(clockid_t c, int64_t *advance_ns, char *msg, size_t len);

/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns, from reads at most 20 us apart
 * (the closest of 4 tries). */
int64_t clock_rt_offset(void);

#endif
