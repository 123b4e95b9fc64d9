// SPDX-License-Identifier: GPL-2.0-or-later
/* Periodic wait backends; see wait.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "engine/wait.h"
#include "system/clockcheck.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

static const struct {
	const char *name;
	const char *desc;
} backends[] = {
	[WAIT_ABS] = { "abs", "clock_nanosleep TIMER_ABSTIME" },
	[WAIT_TIMERFD] = { "timerfd", "timerfd periodic timer" },
	[WAIT_POSIX] = { "posix", "POSIX timer + sigwaitinfo" },
	[WAIT_REL] = { "rel", "relative clock_nanosleep" },
	[WAIT_BUSY] = { "busy", "busy-poll on the clock" },
};

const char *wait_backend_name(enum wait_backend b)
{
	return backends[b].name;
}

const char *wait_backend_desc(enum wait_backend b)
{
	return backends[b].desc;
}

int wait_backend_parse(const char *s, enum wait_backend *b)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (strcmp(s, backends[i].name) == 0) {
			*b = (enum wait_backend)i;
			return 0;
		}
	}
	return -EINVAL;
}

int wait_timer_signal(void)
{
	return SIGRTMIN + 2;
}

int waiter_init(struct waiter *w, enum wait_backend b, clockid_t clock,
		int64_t period, int64_t first, const _Atomic int *stop,
		int stop_sig)
{
	memset(w, 0, sizeof(*w));
	w->backend = b;
	w->clock = clock;
	w->period = period;
	w->next = first;
	w->fd = -1;
	w->stop = stop;
	if (clock == CLOCK_REALTIME)
		w->rt_off = clock_rt_offset();

	if (b == WAIT_TIMERFD) {
		struct itimerspec its;

		w->fd = timerfd_create(clock, TFD_CLOEXEC);
		if (w->fd < 0)
			return -errno;
		its.it_value = ns_to_ts(first);
		its.it_interval = ns_to_ts(period);
		if (timerfd_settime(w->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0) {
			int e = errno;

			close(w->fd);
			w->fd = -1;
			return -e;
		}
	} else if (b == WAIT_POSIX) {
		struct sigevent sev;
		struct itimerspec its;

		memset(&sev, 0, sizeof(sev));
		w->signo = wait_timer_signal();
		sev.sigev_notify = SIGEV_THREAD_ID;
		sev.sigev_signo = w->signo;
		sev.sigev_notify_thread_id = gettid();
		if (timer_create(clock, &sev, &w->timer) < 0)
			return -errno;
		w->timer_valid = 1;
		sigemptyset(&w->sigs);
		sigaddset(&w->sigs, w->signo);
		sigaddset(&w->sigs, stop_sig);
		its.it_value = ns_to_ts(first);
		its.it_interval = ns_to_ts(period);
		if (timer_settime(w->timer, TIMER_ABSTIME, &its, NULL) < 0)
			return -errno;
	}
	return 0;
}

/* Account a wake-up against the grid: overruns are the deadlines after
 * @w->next that had passed by @now. */
static void grid_advance(struct waiter *w, struct wake *wk, uint64_t missed)
{
	wk->deadline = w->next;
	wk->missed = missed;
	w->next += (int64_t)(missed + 1) * w->period;
}

/* Re-arm the kernel timer of timerfd/posix on the moved grid. */
static int rearm(struct waiter *w)
{
	struct itimerspec its = {
		.it_value = ns_to_ts(w->next),
		.it_interval = ns_to_ts(w->period),
	};

	if (w->backend == WAIT_TIMERFD &&
	    timerfd_settime(w->fd, TFD_TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	if (w->backend == WAIT_POSIX &&
	    timer_settime(w->timer, TIMER_ABSTIME, &its, NULL) < 0)
		return -errno;
	return 0;
}

/* CLOCK_REALTIME read @now: has it been stepped since the last check? The
 * grid moves with a step (true). One extra clock read per wake-up, and a
 * closer look only when that read says the offset moved. */
static bool stepped(struct waiter *w, int64_t now)
{
	int64_t off = now - clock_now_ns(CLOCK_MONOTONIC), d = off - w->rt_off;

	if (d <= CLOCK_STEP_NS && d >= -CLOCK_STEP_NS)
		return false;
	/* preempted between the two reads, or a step: read them closely */
	off = clock_rt_offset();
	d = off - w->rt_off;
	if (d <= CLOCK_STEP_NS && d >= -CLOCK_STEP_NS)
		return false;
	w->rt_off = off;
	w->next += d;
	w->shift += d;
	w->steps++;
	if (llabs(d) > llabs(w->step))
		w->step = d;
	w->last_now = 0;	/* the previous read was on the old scale */
	return true;
}

static __attribute__((format(printf, 2, 3))) int
fault(struct waiter *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->fault, sizeof(w->fault), fmt, ap);
	va_end(ap);
	return WAIT_CLOCK_FAULT;
}


/* The wake-up read wk->now against the deadline waited for (@deadline)
 * and the previous read: 0 or WAIT_CLOCK_FAULT. */
static int watch(struct waiter *w, const struct wake *wk, int64_t deadline)
{
	/* a CLOCK_REALTIME step below CLOCK_STEP_NS is not seen as one */
	int64_t early = CLOCK_EARLY_NS +
			(w->clock == CLOCK_REALTIME ? CLOCK_STEP_NS : 0);

	if (deadline - wk->now > early)
		return fault(w, "clock fault: %s read %" PRId64
			     " ns on a wake-up due at %" PRId64
			     " ns (before its deadline: the clock is wrong)",
			     clock_id_name(w->clock), wk->now, deadline);
	if (w->last_now && wk->now < w->last_now)
		return fault(w, "clock fault: %s went back from %" PRId64
			     " ns to %" PRId64 " ns", clock_id_name(w->clock),
			     w->last_now, wk->now);
	/* a late wake-up: is its read the clock's, or one far ahead of it
	 * (garbage)? A second read is never below it. One more read on late
	 * wake-ups only. */
	if (wk->now - deadline > CLOCK_CONFIRM_NS) {
		int64_t again = clock_now_ns(w->clock);

		if (again < wk->now)
			return fault(w, "clock fault: %s read %" PRId64
				     " ns on a wake-up and %" PRId64
				     " ns right after (a read ahead of the clock)",
				     clock_id_name(w->clock), wk->now, again);
	}
	w->last_now = wk->now;
	return 0;
}

static int wait_once(struct waiter *w, struct wake *wk)
{
	struct timespec ts;
	int64_t before, prev;
	uint64_t exp;
	siginfo_t si;
	long still = 0;
	int r;

	switch (w->backend) {
	case WAIT_ABS:
		ts = ns_to_ts(w->next);
		r = clock_nanosleep(w->clock, TIMER_ABSTIME, &ts, NULL);
		if (r == EINTR)
			return WAIT_INTERRUPTED;
		if (r)
			return -r;
		wk->now = clock_now_ns(w->clock);
		return 0;
	case WAIT_BUSY:
		prev = clock_now_ns(w->clock);
		while ((wk->now = clock_now_ns(w->clock)) < w->next) {
			if (atomic_load_explicit(w->stop, memory_order_relaxed))
				return WAIT_INTERRUPTED;
			if (__builtin_expect(wk->now <= prev, 0)) {
				if (wk->now < prev) {
					/* watched by the caller (a step,
					 * or a fault) */
					w->last_now = prev;
					return 0;
				}
				if (++still >= CLOCK_STILL_READS)
					return fault(w, "clock fault: %s stood still at %" PRId64
						     " ns for %" PRId64 " reads in a row",
						     clock_id_name(w->clock),
						     wk->now, (int64_t)still);
			} else {
				still = 0;
			}
			prev = wk->now;
		}
		return 0;
	case WAIT_TIMERFD:
		if (read(w->fd, &exp, sizeof(exp)) != (ssize_t)sizeof(exp)) {
			if (errno == EINTR)
				return WAIT_INTERRUPTED;
			return -errno;
		}
		wk->now = clock_now_ns(w->clock);
		wk->missed = exp ? exp - 1 : 0;
		return 0;
	case WAIT_POSIX:
		r = sigwaitinfo(&w->sigs, &si);
		if (r < 0) {
			if (errno == EINTR)
				return WAIT_INTERRUPTED;
			return -errno;
		}
		if (r != w->signo || si.si_code != SI_TIMER)
			return WAIT_INTERRUPTED;
		wk->now = clock_now_ns(w->clock);
		r = timer_getoverrun(w->timer);
		wk->missed = r > 0 ? (uint64_t)r : 0;
		return 0;
	case WAIT_REL:
		before = clock_now_ns(w->clock);
		ts = ns_to_ts(w->period);
		r = clock_nanosleep(w->clock, 0, &ts, NULL);
		if (r == EINTR)
			return WAIT_INTERRUPTED;
		if (r)
			return -r;
		wk->now = clock_now_ns(w->clock);
		w->next = before + w->period;
		return 0;
	}
	return -EINVAL;
}

int waiter_wait(struct waiter *w, struct wake *wk)
{
	int64_t lat;
	int r;

	for (;;) {
		wk->missed = 0;
		r = wait_once(w, wk);
		if (w->clock == CLOCK_REALTIME &&
		    (r == 0 || r == WAIT_INTERRUPTED)) {
			int64_t now = r == 0 ? wk->now :
				      clock_now_ns(CLOCK_REALTIME);

			if (stepped(w, now)) {
				int e;

				/* the moved deadline has passed: the wake-up
				 * for it is late because of the step (a
				 * backward one, woken by the engine's kick) */
				w->step_late = now >= w->next;
				if (r == 0 && w->step_late)
					break;	/* re-armed on the moved grid */
				e = w->backend != WAIT_REL ? rearm(w) : 0;
				if (e < 0)
					return e;
				if (r == WAIT_INTERRUPTED)
					return r;	/* waited again */
				continue;	/* still ahead */
			}
		}
		if (r)
			return r;
		break;
	}
	wk->step_late = w->step_late;
	w->step_late = false;
	wk->step = w->step;
	wk->steps = w->steps;
	wk->shift = w->shift;
	w->step = 0;
	w->steps = 0;
	if (w->backend == WAIT_REL) {
		r = watch(w, wk, w->next);
		wk->deadline = w->next;
		wk->missed = 0;
		w->next = wk->now + w->period;
		return r;
	}
	r = watch(w, wk, w->next);
	if (r)
		return r;
	/* after a step, the kernel's count of expirations (timerfd, posix)
	 * holds the step's: the overruns are those of the moved grid */
	if (w->backend == WAIT_ABS || w->backend == WAIT_BUSY || wk->steps) {
		lat = wk->now - w->next;
		wk->missed = lat >= w->period ? (uint64_t)(lat / w->period) : 0;
	}
	grid_advance(w, wk, wk->missed);
	/* a late wake-up after a step: the kernel's timer from the grid's
	 * next deadline on (timerfd, posix) */
	if (wk->step_late && w->backend != WAIT_REL &&
	    w->backend != WAIT_ABS && w->backend != WAIT_BUSY)
		return rearm(w);
	return 0;
}

const char *waiter_error(const struct waiter *w, int e)
{
	return e == WAIT_CLOCK_FAULT ? w->fault : strerror(-e);
}

void waiter_destroy(struct waiter *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (w->timer_valid)
		timer_delete(w->timer);
	w->timer_valid = 0;
}

uint64_t wake_missed_inside(const struct wake *wk, int64_t period,
			    int64_t from, int64_t to)
{
	int64_t d = wk->deadline;
	uint64_t lo = 1, hi = wk->missed;

	if (!wk->missed || period <= 0)
		return 0;
	if (d + period < from)
		lo = (uint64_t)((from - d + period - 1) / period);
	if (to != INT64_MAX) {
		uint64_t imax = to > d ?
				(uint64_t)((to - d + period - 1) / period) - 1 : 0;

		if (hi > imax)
			hi = imax;
	}
	return hi >= lo ? hi - lo + 1 : 0;
}
