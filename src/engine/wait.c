// SPDX-License-Identifier: GPL-2.0-or-later
/* Periodic wait backends; see wait.h. */
#include <errno.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "engine/wait.h"

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

int waiter_wait(struct waiter *w, struct wake *wk)
{
	struct timespec ts;
	int64_t lat, before;
	uint64_t exp;
	siginfo_t si;
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
		lat = wk->now - w->next;
		grid_advance(w, wk, lat >= w->period ? (uint64_t)(lat / w->period) : 0);
		return 0;
	case WAIT_BUSY:
		while ((wk->now = clock_now_ns(w->clock)) < w->next) {
			if (atomic_load_explicit(w->stop, memory_order_relaxed))
				return WAIT_INTERRUPTED;
		}
		lat = wk->now - w->next;
		grid_advance(w, wk, lat >= w->period ? (uint64_t)(lat / w->period) : 0);
		return 0;
	case WAIT_TIMERFD:
		if (read(w->fd, &exp, sizeof(exp)) != (ssize_t)sizeof(exp)) {
			if (errno == EINTR)
				return WAIT_INTERRUPTED;
			return -errno;
		}
		wk->now = clock_now_ns(w->clock);
		grid_advance(w, wk, exp ? exp - 1 : 0);
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
		grid_advance(w, wk, r > 0 ? (uint64_t)r : 0);
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
		wk->deadline = before + w->period;
		wk->missed = 0;
		w->next = wk->now + w->period;
		return 0;
	}
	return -EINVAL;
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
