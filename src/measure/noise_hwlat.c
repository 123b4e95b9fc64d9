// SPDX-License-Identifier: GPL-2.0-or-later
/* noise --mode hwlat: the kernel's hwlat tracer as the reference (noise.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/guard.h"
#include "util/timeutil.h"
#include "system/tracefs.h"
#include "measure/noise.h"

/* Read @dir/@name into @buf, trailing white space removed; -1 on error. */
static int read_knob(const char *dir, const char *name, char *buf, size_t len)
{
	char p[256];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Write @val to @dir/@name; 0 or -errno. */
static int write_knob(const char *dir, const char *name, const char *val)
{
	char p[256];
	size_t len = strlen(val);
	ssize_t n;
	int fd, e = 0;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		e = -errno;
	else if ((size_t)n != len)
		e = -EIO;
	close(fd);
	return e;
}

static int write_us(const char *dir, const char *name, int64_t us)
{
	char v[32];

	snprintf(v, sizeof(v), "%" PRId64, us);
	return write_knob(dir, name, v);
}

const char *hwlat_tracefs(char *why, size_t len)
{
	const char *dir = tracefs_dir(why, len);
	char buf[1024], *tok, *save = NULL;

	if (!dir)
		return NULL;
	if (read_knob(dir, "available_tracers", buf, sizeof(buf)) < 0) {
		snprintf(why, len, "cannot read %s/available_tracers: %s", dir,
			 strerror(errno));
		return NULL;
	}
	for (tok = strtok_r(buf, " \n", &save); tok;
	     tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, "hwlat"))
			return dir;
	snprintf(why, len, "this kernel has no hwlat tracer (CONFIG_HWLAT_TRACER)");
	return NULL;
}

/* @cpus as tracing_cpumask wants it: 32-bit hex groups, commas between,
 * the highest first. */
static void cpumask_hex(const struct cpuset *cpus, char *buf, size_t len)
{
	int g, c, top = 0;
	size_t off = 0;

	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(cpus, c))
			top = c / 32;
	buf[0] = '\0';
	for (g = top; g >= 0 && off < len; g--) {
		uint32_t m = 0;

		for (c = 0; c < 32; c++)
			if (cpuset_isset(cpus, g * 32 + c))
				m |= 1u << c;
		off += (size_t)snprintf(buf + off, len - off, "%s%08x",
					g == top ? "" : ",", m);
	}
}

/* One line of the hwlat trace: "<...>-123 [001] d.... 12.3: #1 inner/outer(us): 12/11 ts:..." */
static void parse_line(struct hwlat_ref *h, const char *l)
{
	const char *io = strstr(l, "inner/outer(us):"), *p = io, *b;
	char *e;
	long long in, out;
	int64_t ns;
	int cpu = -1, i;

	if (!io)
		return;
	in = strtoll(p + 16, &e, 10);
	if (e == p + 16 || *e != '/')
		return;
	p = e + 1;
	out = strtoll(p, &e, 10);
	if (e == p)
		return;
	b = strchr(l, '[');
	if (b && b < io) {
		long v = strtol(b + 1, &e, 10);

		if (e != b + 1 && *e == ']')
			cpu = (int)v;
	}
	ns = (in > out ? in : out) * NSEC_PER_USEC;
	h->samples++;
	if (ns > h->max_ns)
		h->max_ns = ns;
	for (i = 0; i < h->ncpu; i++)
		if (h->cpu[i].cpu == cpu)
			break;
	if (i == h->ncpu) {
		if (h->ncpu == HWREF_CPUS || cpu < 0)
			return;
		h->cpu[h->ncpu++].cpu = cpu;
	}
	h->cpu[i].samples++;
	if (ns > h->cpu[i].max_ns)
		h->cpu[i].max_ns = ns;
}

static void read_trace(struct hwlat_ref *h, const char *inst)
{
	char p[256], line[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/trace", inst);
	f = fopen(p, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			parse_line(h, line);
	fclose(f);
}

/* Wait @ns; a stop signal (blocked in the run: SIGINT, SIGTERM, SIGHUP)
 * ends the wait and is queued again for the engine. */
static void wait_or_signal(int64_t ns, int64_t *waited)
{
	int64_t t0 = clock_now_ns(CLOCK_MONOTONIC), left;
	struct timespec ts;
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	for (;;) {
		left = t0 + ns - clock_now_ns(CLOCK_MONOTONIC);
		if (left <= 0)
			break;
		ts.tv_sec = (time_t)(left / NSEC_PER_SEC);
		ts.tv_nsec = (long)(left % NSEC_PER_SEC);
		sig = sigtimedwait(&set, NULL, &ts);
		if (sig > 0) {
			kill(getpid(), sig);	/* the run ends on it */
			break;
		}
	}
	*waited = clock_now_ns(CLOCK_MONOTONIC) - t0;
}

/* Width and window, in an order the kernel accepts (width < window at
 * every step). */
static int set_width_window(const char *dir, int64_t width_us,
			    int64_t window_us, int64_t old_window_us)
{
	int e;

	if (width_us < old_window_us) {
		e = write_us(dir, "hwlat_detector/width", width_us);
		if (!e)
			e = write_us(dir, "hwlat_detector/window", window_us);
	} else {
		e = write_us(dir, "hwlat_detector/window", window_us);
		if (!e)
			e = write_us(dir, "hwlat_detector/width", width_us);
	}
	return e;
}

int hwlat_knobs_save(struct hwlat_knobs *k, const char *dir, char *why,
		     size_t len)
{
	char width[32], window[32];

	memset(k, 0, sizeof(*k));
	guard_init(&k->guard);
	snprintf(k->dir, sizeof(k->dir), "%s", dir);
	if (read_knob(dir, "tracing_thresh", k->thresh, sizeof(k->thresh)) < 0 ||
	    read_knob(dir, "hwlat_detector/width", width, sizeof(width)) < 0 ||
	    read_knob(dir, "hwlat_detector/window", window, sizeof(window)) < 0) {
		snprintf(why, len, "cannot read %s/tracing_thresh and hwlat_detector/: %s",
			 dir, strerror(errno));
		return -1;
	}
	k->width_us = strtoll(width, NULL, 10);
	k->window_us = strtoll(window, NULL, 10);
	snprintf(k->inst, sizeof(k->inst), "%s/instances/rtlat-hwlat-%d", dir,
		 (int)getpid());
	return 0;
}

/* Put @k's knobs back and remove the instance: 0 or the errno of its
 * rmdir. Async-signal-safe enough for the guard (no stdio, no malloc). */
static int knobs_put_back(const struct hwlat_knobs *k)
{
	char window[32];
	int64_t cur = k->window_us;

	write_knob(k->inst, "tracing_on", "0");
	write_knob(k->inst, "current_tracer", "nop");
	write_knob(k->dir, "tracing_thresh", k->thresh);
	if (read_knob(k->dir, "hwlat_detector/window", window, sizeof(window)) == 0)
		cur = strtoll(window, NULL, 10);
	set_width_window(k->dir, k->width_us, k->window_us, cur);
	return rmdir(k->inst) < 0 && errno != ENOENT ? errno : 0;
}

/* The guard's restore (engine/guard.h): in the forked child. */
static void guard_restore(void *ctx)
{
	knobs_put_back(ctx);
}

int hwlat_guard_start(struct hwlat_knobs *k, char *why, size_t len)
{
	int e = guard_start(&k->guard, guard_restore, k, NULL, 0);

	if (e)
		snprintf(why, len, "cannot start the guard that restores the hwlat knobs: %s",
			 strerror(-e));
	return e ? -1 : 0;
}

int hwlat_knobs_restore(struct hwlat_knobs *k)
{
	int e = knobs_put_back(k);

	guard_end(&k->guard);
	return e;
}

void hwlat_ref_run(struct hwlat_ref *h, const struct cpuset *cpus,
		   int64_t thr_ns, int64_t width_ns, int64_t window_ns,
		   int64_t duration_ns)
{
	struct hwlat_knobs k;
	char mask[160];
	const char *inst, *dir;
	int64_t thr_us;
	int e;

	memset(h, 0, sizeof(*h));
	dir = hwlat_tracefs(h->why, sizeof(h->why));
	if (!dir)
		return;
	if (hwlat_knobs_save(&k, dir, h->why, sizeof(h->why)) ||
	    hwlat_guard_start(&k, h->why, sizeof(h->why)))
		return;
	inst = k.inst;
	if (mkdir(inst, 0700) < 0) {
		snprintf(h->why, sizeof(h->why), "cannot create the tracefs instance %s: %s",
			 inst, strerror(errno));
		guard_end(&k.guard);	/* nothing changed yet */
		return;
	}
	thr_us = (thr_ns + NSEC_PER_USEC - 1) / NSEC_PER_USEC;
	cpumask_hex(cpus, mask, sizeof(mask));
	e = write_knob(inst, "tracing_cpumask", mask);
	if (!e)
		e = write_us(k.dir, "tracing_thresh", thr_us < 1 ? 1 : thr_us);
	if (!e)
		e = set_width_window(k.dir, width_ns / NSEC_PER_USEC,
				     window_ns / NSEC_PER_USEC, k.window_us);
	if (e) {
		snprintf(h->why, sizeof(h->why), "cannot set the hwlat tracer up (tracing_cpumask, tracing_thresh, hwlat_detector/): %s",
			 strerror(-e));
		goto restore;
	}
	e = write_knob(inst, "current_tracer", "hwlat");
	if (e) {
		snprintf(h->why, sizeof(h->why), "cannot start the hwlat tracer%s: %s",
			 e == -EBUSY ? " (it runs already elsewhere)" : "",
			 strerror(-e));
		goto restore;
	}
	write_knob(inst, "tracing_on", "1");
	wait_or_signal(duration_ns, &h->duration_ns);
	write_knob(inst, "tracing_on", "0");
	read_trace(h, inst);
	write_knob(inst, "current_tracer", "nop");
	h->ran = true;
	snprintf(h->why, sizeof(h->why), "the kernel's hwlat tracer in tracefs instance %s",
		 strrchr(inst, '/') + 1);
restore:
	/* the global knobs as they were; the instance removed */
	e = hwlat_knobs_restore(&k);
	if (e)
		snprintf(h->why + strlen(h->why), sizeof(h->why) - strlen(h->why),
			 "; the instance %s is left (%s)", inst, strerror(e));
}
