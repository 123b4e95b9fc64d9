/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Periodic wait backends of the timer-driven samplers. Each waits for the
 * next deadline of a fixed grid (period P from a first deadline) and reports
 * the deadline it waited for, the wake-up time read right after the wait and
 * how many further deadlines had already passed (overruns):
 *
 *  abs      clock_nanosleep(TIMER_ABSTIME) to the deadline (default)
 *  timerfd  timerfd armed with an absolute first expiry and interval P;
 *           overruns = expirations read - 1
 *  posix    timer_create() signalling this thread, waited with sigwaitinfo();
 *           overruns from timer_getoverrun()
 *  rel      clock_nanosleep() relative for P after a clock read: measures
 *           oversleep (no grid, hence never an overrun)
 *  busy     spin on the clock until the deadline (the measurement floor)
 *
 * Latency = wake-up - deadline (signed ns). A wait interrupted by a signal
 * (the engine's stop kick) returns WAIT_INTERRUPTED and produces no sample.
 *
 * The clock is watched on every wake-up (clock faults, see
 * system/clockcheck.h): a wake-up read more than CLOCK_EARLY_NS before the
 * deadline it waited for, a read below the previous one, or (busy) a clock
 * that stood still for CLOCK_STILL_READS reads returns WAIT_CLOCK_FAULT with
 * what was seen in waiter.fault; no latency comes from such a wake-up.
 * On CLOCK_REALTIME a step (clock_settime, date -s, NTP's step, a leap
 * second: CLOCK_REALTIME - CLOCK_MONOTONIC moved by more than
 * CLOCK_STEP_NS) is no fault: the grid is moved by the step (the deadlines
 * keep their place in time), the wait goes on to the moved deadline when it
 * is still ahead, and the wake-up says the step (wake.step); one that came
 * late because of the step says so (wake.step_late) and is no sample.
 */
#ifndef RTLAT_WAIT_H
#define RTLAT_WAIT_H

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

enum wait_backend {
	WAIT_ABS,
	WAIT_TIMERFD,
	WAIT_POSIX,
	WAIT_REL,
	WAIT_BUSY,
};

#define WAIT_INTERRUPTED 1
/* waiter_wait(): the clock is not fit to measure with, said in w->fault */
#define WAIT_CLOCK_FAULT (-ENOTRECOVERABLE)

struct waiter {
	enum wait_backend backend;
	clockid_t clock;
	int64_t period;		/* ns */
	int64_t next;		/* next deadline, ns on @clock */
	int fd;			/* timerfd */
	timer_t timer;		/* posix */
	int timer_valid;
	int signo;		/* posix timer signal */
	sigset_t sigs;		/* posix: timer signal + stop kick */
	const _Atomic int *stop;	/* busy: spin exits when *stop != 0 */
	int64_t last_now;	/* the previous wake-up's read, ns (0: none) */
	int64_t rt_off;		/* CLOCK_REALTIME: REALTIME - MONOTONIC, ns */
	int64_t shift;		/* CLOCK_REALTIME: the steps so far, ns */
	int64_t step;		/* the largest step since the last wake-up */
	unsigned steps;		/* steps since the last wake-up */
	bool step_late;		/* the next wake-up is late by a step */
	char fault[200];	/* WAIT_CLOCK_FAULT: what was seen */
};

struct wake {
	int64_t deadline;	/* the deadline waited for, ns */
	int64_t now;		/* clock read right after the wait, ns */
	uint64_t missed;	/* further deadlines already passed (overruns) */
	unsigned steps;		/* CLOCK_REALTIME steps since the last wake-up
				 * (0: none): deadline is the moved one,
				 * deadline - shift its place before */
	int64_t step;		/* the largest of them (signed ns) */
	int64_t shift;		/* the steps since waiter_init(), ns */
	bool step_late;		/* late because of the step: no sample */
};

/* Name <-> backend ("abs", "timerfd", "posix", "rel", "busy"). */
const char *wait_backend_name(enum wait_backend b);
int wait_backend_parse(const char *s, enum wait_backend *b);
/* Human description, e.g. "clock_nanosleep TIMER_ABSTIME". */
const char *wait_backend_desc(enum wait_backend b);

/*
 * Prepare a waiter in the calling (sampler) thread; @first is the first
 * deadline, @stop the engine's stop flag, @stop_sig the signal the engine
 * uses to interrupt waits. Returns 0 or -errno.
 */
int waiter_init(struct waiter *w, enum wait_backend b, clockid_t clock,
		int64_t period, int64_t first, const _Atomic int *stop,
		int stop_sig);

/* Wait for the next deadline. Returns 0 with @wk filled, WAIT_INTERRUPTED,
 * or -errno. Only the wait itself and the clock read are system calls
 * (posix adds timer_getoverrun). */
int waiter_wait(struct waiter *w, struct wake *wk);

void waiter_destroy(struct waiter *w);

/* What a failed waiter_wait() (@e < 0) saw: w->fault for WAIT_CLOCK_FAULT,
 * else strerror(-@e). */
const char *waiter_error(const struct waiter *w, int e);

/* Of the deadlines @wk missed (deadline + i * @period, i = 1..missed),
 * how many lie in [@from, @to); @to may be INT64_MAX. 0 when @period <= 0
 * (no grid). */
uint64_t wake_missed_inside(const struct wake *wk, int64_t period,
			    int64_t from, int64_t to);

/* The signal reserved for the posix backend's timer. */
int wait_timer_signal(void);

#endif
