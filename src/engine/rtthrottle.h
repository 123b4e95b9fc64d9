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

/* kernel.sched_rt_runtime_us into *@us; false when it cannot be read. */
bool rt_runtime_read(long long *us);

/*
 * Gaps a real-time task saw (a busy loop's, a timer's late wake-ups), told
 * apart: those of at least budget / 50 starting within two budgets of the
 * first are one episode; an episode adding up to 4/5 to 5/4 of the budget
 * and ending within two budgets of its start is a throttled period, its
 * gaps RT throttling's (a longer stall is another task's). Written by one
 * thread (the sampler); no system call, no I/O.
 */
struct rt_throttle_seen {
	int64_t budget_ns;		/* 0: not throttled, nothing attributed */
	int64_t piece_ns;		/* budget / 50: shorter gaps are not
					 * throttling's (0 with the budget) */
	int64_t ep_start, ep_end, ep_sum, ep_max;	/* the episode being
							 * seen */
	uint64_t ep_n, ep_misses;
	uint64_t periods, gaps, misses;	/* attributed to RT throttling */
	int64_t time_ns;
	int64_t last, spacing;		/* last throttled period's start; the
					 * shortest time between two (0: none) */
	int64_t other_max;		/* the longest gap not attributed */
};

/* Attribute to @t the throttling of @budget_ns per period (0: none). */
void rt_throttle_seen_init(struct rt_throttle_seen *t, int64_t budget_ns);

/* A gap of @len ns from @start (test clock) that cost @misses periods. */
void rt_throttle_see(struct rt_throttle_seen *t, int64_t start, int64_t len,
		     uint64_t misses);

/* The episode being seen ends (the measurement's end). */
void rt_throttle_close(struct rt_throttle_seen *t);

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
