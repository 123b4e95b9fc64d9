/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RT throttling as a run sees it: how much CPU time the kernel takes from
 * a real-time task in each period (kernel.sched_rt_runtime_us of
 * sched_rt_period_us; on Linux 6.12+ the fair server, which gives the
 * normal tasks waiting on a CPU their runtime of every period before the
 * real-time ones), so that gaps of that pattern are named; and turning
 * sched_rt_runtime_us off for a run (--no-rt-throttling), restored on
 * every exit path, SIGKILL included (a guard process, engine/guard.h).
 *
 * libc only.
 */
#ifndef RTLAT_RTTHROTTLE_H
#define RTLAT_RTTHROTTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/guard.h"

struct rt_throttle {
	int64_t budget_ns;	/* taken from a real-time task per period, ns
				 * (0: no throttling known) */
	int64_t period_ns;	/* the period, ns */
	char source[256];	/* what takes it, in words */
};

/*
 * What throttles a real-time task on @cpu into @t: sched_rt_runtime_us of
 * sched_rt_period_us when set (0 <= runtime < period), the fair server of
 * @cpu (debugfs sched/fair_server/cpuN; Linux's default 50 ms of every 1 s
 * on 6.12+ when it cannot be read), whichever takes more.
 */
void rt_throttle_read(struct rt_throttle *t, int cpu);

struct rt_throttle_off {
	bool changed;		/* sched_rt_runtime_us was set to -1 */
	char saved[32];		/* its value before ("950000\n") */
	struct guard guard;
};

/*
 * Set kernel.sched_rt_runtime_us to -1 (no RT throttling) until
 * rt_throttle_restore(); a guard puts the value back should rtlat die
 * first. Nothing is changed when it is -1 already. Returns 0, or -1 with
 * a message in @err (the file cannot be read or written, the guard cannot
 * start).
 */
int rt_throttle_disable(struct rt_throttle_off *o, char *err, size_t len);

/* Put sched_rt_runtime_us back as it was and end the guard; idempotent. */
void rt_throttle_restore(struct rt_throttle_off *o);

#endif
