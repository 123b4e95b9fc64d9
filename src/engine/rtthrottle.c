// SPDX-License-Identifier: GPL-2.0-or-later
/* RT throttling: what it takes, and turning it off for a run (rtthrottle.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine/rtthrottle.h"
#include "util/timeutil.h"

#define RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"
#define RT_PERIOD	"/proc/sys/kernel/sched_rt_period_us"
#define FAIR_SERVER	"/sys/kernel/debug/sched/fair_server"
/* Linux's fair server by default: 50 ms of every 1 s */
#define FAIR_RUNTIME_NS	(50 * NSEC_PER_MSEC)
#define FAIR_PERIOD_NS	NSEC_PER_SEC

/* The first number of @path into *@v; false when it cannot be read. */
static bool read_num(const char *path, long long *v)
{
	char buf[64], *end;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return end != buf && errno == 0;
}

/* Whether the running kernel is 6.12 or later (it has the fair server). */
static bool has_fair_server(void)
{
	struct utsname u;
	char *end;
	long major, minor;

	if (uname(&u) < 0)
		return false;
	major = strtol(u.release, &end, 10);
	if (*end != '.')
		return false;
	minor = strtol(end + 1, NULL, 10);
	return major > 6 || (major == 6 && minor >= 12);
}

/* The fair server of @cpu: runtime and period (ns) into *@run, *@per;
 * true when the kernel has one, *@known whether it was read. */
static bool fair_server(int cpu, long long *run, long long *per, bool *known)
{
	char p[96];

	snprintf(p, sizeof(p), FAIR_SERVER "/cpu%d/runtime", cpu);
	*known = read_num(p, run);
	if (*known) {
		snprintf(p, sizeof(p), FAIR_SERVER "/cpu%d/period", cpu);
		if (!read_num(p, per) || *per <= 0)
			*per = FAIR_PERIOD_NS;
		return *run > 0;
	}
	if (!has_fair_server())
		return false;
	*run = FAIR_RUNTIME_NS;
	*per = FAIR_PERIOD_NS;
	return true;
}

bool rt_runtime_read(long long *us)
{
	return read_num(RT_RUNTIME, us);
}

void rt_throttle_read(struct rt_throttle *t, int cpu)
{
	long long rt, per, frun, fper;
	bool known;
	char a[32], b[32];
	size_t n;

	memset(t, 0, sizeof(*t));
	if (read_num(RT_RUNTIME, &rt) && read_num(RT_PERIOD, &per) &&
	    rt >= 0 && per > 0 && rt < per) {
		t->budget_ns = (per - rt) * NSEC_PER_USEC;
		t->period_ns = per * NSEC_PER_USEC;
		snprintf(t->source, sizeof(t->source),
			 "kernel.sched_rt_runtime_us %lld of sched_rt_period_us %lld",
			 rt, per);
	}
	if (!fair_server(cpu, &frun, &fper, &known))
		return;
	n = strlen(t->source);
	snprintf(t->source + n, sizeof(t->source) - n,
		 "%sthe fair server (Linux 6.12+: %s of every %s for normal tasks waiting%s)",
		 n ? "; " : "", fmt_time(a, frun), fmt_time(b, fper),
		 known ? "" : "; the default: debugfs not readable");
	if (frun > t->budget_ns) {
		t->budget_ns = frun;
		t->period_ns = fper;
	}
}

#define THR_PIECE	50	/* a gap of an episode: >= budget / 50 */
#define THR_SHARE_NUM	4	/* a throttled period: >= 4/5 of the budget */
#define THR_SHARE_DEN	5
#define THR_MAX_NUM	5	/* and <= 5/4 of it, within 2 budgets: a */
#define THR_MAX_DEN	4	/* longer stall is another task's */

void rt_throttle_seen_init(struct rt_throttle_seen *t, int64_t budget_ns)
{
	memset(t, 0, sizeof(*t));
	t->budget_ns = budget_ns > 0 ? budget_ns : 0;
	t->piece_ns = t->budget_ns / THR_PIECE;
}

void rt_throttle_close(struct rt_throttle_seen *t)
{
	if (!t->ep_n)
		return;
	if (t->ep_sum * THR_SHARE_DEN >= t->budget_ns * THR_SHARE_NUM &&
	    t->ep_sum * THR_MAX_DEN <= t->budget_ns * THR_MAX_NUM &&
	    t->ep_end - t->ep_start <= 2 * t->budget_ns) {
		t->periods++;
		t->gaps += t->ep_n;
		t->misses += t->ep_misses;
		t->time_ns += t->ep_sum;
		if (t->periods > 1 &&
		    (!t->spacing || t->ep_start - t->last < t->spacing))
			t->spacing = t->ep_start - t->last;
		t->last = t->ep_start;
	} else if (t->ep_max > t->other_max) {
		t->other_max = t->ep_max;
	}
	t->ep_n = t->ep_misses = 0;
	t->ep_sum = t->ep_max = 0;
}

void rt_throttle_see(struct rt_throttle_seen *t, int64_t start, int64_t len,
		     uint64_t misses)
{
	if (!t->budget_ns || len < t->piece_ns) {
		if (len > t->other_max)
			t->other_max = len;
		return;
	}
	if (t->ep_n && start - t->ep_start > 2 * t->budget_ns)
		rt_throttle_close(t);
	if (!t->ep_n)
		t->ep_start = start;
	t->ep_n++;
	t->ep_end = start + len;
	t->ep_misses += misses;
	t->ep_sum += len;
	if (len > t->ep_max)
		t->ep_max = len;
}

/* Write @v to sched_rt_runtime_us: 0 or an errno. Async-signal-safe. */
static int write_runtime(const char *v)
{
	int fd = open(RT_RUNTIME, O_WRONLY | O_CLOEXEC), e = 0;
	size_t n = strlen(v);

	if (fd < 0)
		return errno;
	if (write(fd, v, n) != (ssize_t)n)
		e = errno ? errno : EIO;
	close(fd);
	return e;
}

/* The guard's restore (engine/guard.h): in the forked child. */
static void guard_restore(void *ctx)
{
	const struct rt_throttle_off *o = ctx;

	write_runtime(o->saved);
}

int rt_throttle_disable(struct rt_throttle_off *o, char *err, size_t len)
{
	long long v;
	int e;

	o->changed = false;
	guard_init(&o->guard);
	if (!read_num(RT_RUNTIME, &v)) {
		snprintf(err, len, "--no-rt-throttling: cannot read %s: %s",
			 RT_RUNTIME, strerror(errno ? errno : EIO));
		return -1;
	}
	if (v < 0)
		return 0;	/* off already */
	snprintf(o->saved, sizeof(o->saved), "%lld\n", v);
	e = guard_start(&o->guard, guard_restore, o, NULL, 0);
	if (e) {
		snprintf(err, len, "--no-rt-throttling: cannot start the guard that restores %s: %s",
			 RT_RUNTIME, strerror(-e));
		return -1;
	}
	e = write_runtime("-1\n");
	if (e) {
		guard_end(&o->guard);
		snprintf(err, len, "--no-rt-throttling: cannot write -1 to %s: %s%s",
			 RT_RUNTIME, strerror(e),
			 e == EACCES || e == EPERM ? " (run as root)" : "");
		return -1;
	}
	o->changed = true;
	return 0;
}

void rt_throttle_restore(struct rt_throttle_off *o)
{
	if (!o->changed)
		return;
	write_runtime(o->saved);	/* the guard restores should this fail */
	guard_end(&o->guard);
	o->changed = false;
}
