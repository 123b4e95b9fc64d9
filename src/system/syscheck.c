// SPDX-License-Identifier: GPL-2.0-or-later
/* Is this system set up for real time? See syscheck.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "system/cpulist.h"
#include "util/jsonw.h"
#include "system/kinfo.h"
#include "util/log.h"
#include "system/rtsetup.h"
#include "system/syscheck.h"
#include "system/clockcheck.h"
#include "system/sysinfo.h"
#include "system/tracefs.h"
#include "util/timeutil.h"

#define ISO_MAX 16		/* isolated CPUs whose interrupts are counted */
#define QOS_NONE 2000000000	/* /dev/cpu_dma_latency: no request (us) */

struct ctx {
	const char *root;
	bool self;			/* root "/": this system */
	struct sysdesc d;
	struct cpuset online, isolated, nohz, nocbs;
	char isolcpus_flags[64];	/* "managed_irq,domain" */
	int niso;			/* CPUs in isolated */
	char iso_list[64], hk_list[64];	/* isolated, housekeeping cpulists */
	char iso_why[300];		/* the isolated or nohz_full list
					 * cannot be read: why ("": read) */
	char cmd_why[200];		/* /proc/cmdline cannot be read: why
					 * (its parameters unknown; "": read) */
	bool nohz_read;			/* sysfs nohz_full read */
};

/* The CPUs of @set as a regular expression's alternatives ("2|3"). */
static char *cpu_alternatives(const struct cpuset *set, char *buf, size_t len)
{
	size_t off = 0;
	int cpu;

	buf[0] = '\0';
	for (cpu = cpuset_next(set, 0); cpu >= 0 && off < len;
	     cpu = cpuset_next(set, cpu + 1))
		off += (size_t)snprintf(buf + off, len - off, "%s%d",
					off ? "|" : "", cpu);
	return buf;
}

static struct check_item *add(struct check_report *r, const char *id,
			      const char *title)
{
	struct check_item *it = &r->item[r->n < CHECK_MAX ? r->n++ : CHECK_MAX - 1];

	memset(it, 0, sizeof(*it));
	it->id = id;
	it->title = title;
	return it;
}

static void __attribute__((format(printf, 3, 4)))
appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 3, 4)))
found(struct check_item *it, enum check_verdict v, const char *fmt, ...)
{
	va_list ap;

	it->verdict = v;
	va_start(ap, fmt);
	vsnprintf(it->found, sizeof(it->found), fmt, ap);
	va_end(ap);
}

static void __attribute__((format(printf, 2, 3)))
fix(struct check_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->fix, sizeof(it->fix), fmt, ap);
	va_end(ap);
}

/*
 * Read @path below the root (sys_read_file()): its length, or -1 when it
 * cannot be read. Then @why is "" when it is not there (ENOENT: a
 * conclusion of its absence holds), else "PATH cannot be read: REASON"
 * with the real reason (sys_read_why(): a directory, a FIFO, a loop of
 * symbolic links, refused; a NUL byte inside the text), never a
 * conclusion drawn from it.
 */
static int read_why(const struct ctx *c, const char *path, char *buf,
		    size_t len, char *why, size_t wlen)
{
	char r[128];
	long nul;
	int n = sys_read_file_nul(c->root, path, buf, len, &nul), e = errno;

	why[0] = '\0';
	if (n >= 0 && nul >= 0) {
		/* none of the kernel's files read here holds one: a damaged
		 * copy, whose cut text would be taken for the whole */
		snprintf(why, wlen, "%s cannot be read: not text (a NUL byte at offset %ld)",
			 path, nul);
		errno = EILSEQ;
		return -1;
	}
	if (n >= 0)
		return n;
	if (e != ENOENT)
		snprintf(why, wlen, "%s cannot be read: %s", path,
			 sys_read_why(c->root, path, e, r, sizeof(r)));
	errno = e;
	return -1;
}

/* Whether the @n bytes at @s are one word of a kernel file: lower-case
 * letters, digits, '_' and '-' ("tsc", "refined-jiffies", "madvise"). */
static bool word_of(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    s[i] != '_' && s[i] != '-')
			return false;
	return n > 0;
}

/* Whether @s is as the kernel writes transparent_hugepage/enabled: words
 * between single spaces, exactly one of them in brackets ("always
 * [madvise] never"). */
static bool thp_format(const char *s)
{
	int bracketed = 0;
	size_t n;

	while (*s) {
		bool br = *s == '[';

		n = strcspn(s + br, br ? "]" : " ");
		if (!word_of(s + br, n))
			return false;
		s += br + n;
		if (br) {
			if (*s != ']')
				return false;
			s++;
			bracketed++;
		}
		if (*s == ' ')
			s++;
		else if (*s)
			return false;
	}
	return bracketed == 1;
}

/* Append to @it's finding that @path below the root is larger than what
 * is read of it (sys_fopen()), when it is. */
static void note_cut(const struct ctx *c, struct check_item *it,
		     const char *path)
{
	char p[PATH_MAX];
	struct stat st;

	sys_path(p, sizeof(p), c->root, path);
	if (stat(p, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size > SYS_READ_MAX)
		appendf(it->found, sizeof(it->found),
			"; %s: larger than %u bytes, read the first %u", path,
			SYS_READ_MAX, SYS_READ_MAX);
}

/* The decimal number in the file @path below the root; false when there
 * is none, with @why as read_why() says (or "PATH holds no number"). */
static bool read_ll_why(const struct ctx *c, const char *path, long long *v,
			char *why, size_t wlen)
{
	char buf[64], *end;

	const char *d;

	if (read_why(c, path, buf, sizeof(buf), why, wlen) < 0)
		return false;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	/* one decimal number as the kernel prints one, and nothing after it
	 * (read_why() took the trailing white space off): "0x85", "133abc",
	 * an overflow, " 1", "+1", "01", "-0" are none */
	d = buf + (buf[0] == '-');
	if (end != buf && !*end && errno != ERANGE && isdigit((unsigned char)*d) &&
	    (d[0] != '0' || (!d[1] && d == buf)))
		return true;
	snprintf(why, wlen, "%s holds no number", path);
	return false;
}

static bool read_ll(const struct ctx *c, const char *path, long long *v)
{
	char why[256];

	return read_ll_why(c, path, v, why, sizeof(why));
}

/* The CPU list in @path below the root; false when it cannot be read or
 * parsed, @why as read_why() says (or "PATH: not a CPU list"). */
static bool read_cpulist_why(const struct ctx *c, const char *path,
			     struct cpuset *s, char *why, size_t wlen)
{
	char buf[1024], err[96];

	cpuset_zero(s);
	if (read_why(c, path, buf, sizeof(buf), why, wlen) < 0)
		return false;
	if (!buf[0] || !strcmp(buf, "(null)"))
		return true;
	if (cpulist_parse(buf, s, err, sizeof(err)) == 0)
		return true;
	snprintf(why, wlen, "%s: not a CPU list (%s)", path, err);
	return false;
}

/* No isolated CPU known: "no isolated CPU", or why the isolated CPUs are
 * not known (sysfs's list cannot be read). */
static void no_iso(const struct ctx *c, struct check_item *it)
{
	if (c->iso_why[0])
		found(it, CHECK_NA, "isolated CPUs unknown: %s", c->iso_why);
	else
		found(it, CHECK_NA, "no isolated CPU");
}

/* "; WHY" after @it's finding, when @why says something. */
static void also(struct check_item *it, const char *why)
{
	if (why[0])
		appendf(it->found, sizeof(it->found), "; %s", why);
}

/* The value of the kernel parameter @name in the command line: true when
 * it is there ("" for a bare "name"). */
static bool cmdline_param(const char *cmdline, const char *name, char *val,
			  size_t len)
{
	size_t n = strlen(name);
	const char *p;

	for (p = cmdline; (p = strstr(p, name)); p += n) {
		if ((p != cmdline && p[-1] != ' ') ||
		    (p[n] != '=' && p[n] != ' ' && p[n]))
			continue;
		if (p[n] == '=')
			snprintf(val, len, "%.*s", (int)strcspn(p + n + 1, " "),
				 p + n + 1);
		else
			val[0] = '\0';
		return true;
	}
	return false;
}

static void set_or(struct cpuset *dst, const struct cpuset *src)
{
	size_t i;

	for (i = 0; i < sizeof(dst->bits) / sizeof(dst->bits[0]); i++)
		dst->bits[i] |= src->bits[i];
}

static void set_andnot(struct cpuset *dst, const struct cpuset *a,
		       const struct cpuset *b)
{
	size_t i;

	for (i = 0; i < sizeof(dst->bits) / sizeof(dst->bits[0]); i++)
		dst->bits[i] = a->bits[i] & ~b->bits[i];
}

static bool set_meets(const struct cpuset *a, const struct cpuset *b)
{
	size_t i;

	for (i = 0; i < sizeof(a->bits) / sizeof(a->bits[0]); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

static void ctx_init(struct ctx *c, const char *root)
{
	char val[256], err[96], *p;
	struct cpuset s, hk;

	memset(c, 0, sizeof(*c));
	c->root = root;
	c->self = !strcmp(root, "/");
	sysdesc_read(&c->d, root);
	if (!c->d.cmdline[0]) {
		char b[2];

		read_why(c, "/proc/cmdline", b, sizeof(b), c->cmd_why,
			 sizeof(c->cmd_why));
	}
	if (!c->d.cpus_online[0] ||
	    cpulist_parse(c->d.cpus_online, &c->online, err, sizeof(err)))
		for (int i = 0; i < (c->d.ncpus ? c->d.ncpus : 1); i++)
			cpuset_set(&c->online, i);
	/* isolcpus=[nohz,domain,managed_irq,]LIST: sysfs has the domain
	 * part; the command line also the managed_irq-only form */
	read_cpulist_why(c, "/sys/devices/system/cpu/isolated", &c->isolated,
			 c->iso_why, sizeof(c->iso_why));
	if (cmdline_param(c->d.cmdline, "isolcpus", val, sizeof(val))) {
		p = val;
		while (isalpha((unsigned char)*p)) {
			size_t k = strcspn(p, ",");

			appendf(c->isolcpus_flags, sizeof(c->isolcpus_flags),
				"%s%.*s", c->isolcpus_flags[0] ? "," : "",
				(int)k, p);
			p += k + (p[k] == ',');
		}
		if (cpulist_parse(p, &s, err, sizeof(err)) == 0)
			set_or(&c->isolated, &s);
	}
	{
		char why[sizeof(c->iso_why)];

		c->nohz_read = read_cpulist_why(c, "/sys/devices/system/cpu/nohz_full",
						&c->nohz, why, sizeof(why));
		if (!c->nohz_read && !c->iso_why[0])
			snprintf(c->iso_why, sizeof(c->iso_why), "%s", why);
	}
	if (cmdline_param(c->d.cmdline, "nohz_full", val, sizeof(val)) &&
	    cpulist_parse(val, &s, err, sizeof(err)) == 0)
		set_or(&c->nohz, &s);
	if (cmdline_param(c->d.cmdline, "rcu_nocbs", val, sizeof(val))) {
		if (!val[0] || !strcmp(val, "all"))
			c->nocbs = c->online;
		else if (cpulist_parse(val, &s, err, sizeof(err)) == 0)
			c->nocbs = s;
	}
	set_or(&c->nocbs, &c->nohz);	/* nohz_full offloads RCU callbacks */
	set_or(&c->isolated, &c->nohz);
	c->niso = cpuset_count(&c->isolated);
	cpulist_format(&c->isolated, c->iso_list, sizeof(c->iso_list));
	set_andnot(&hk, &c->online, &c->isolated);
	cpulist_format(&hk, c->hk_list, sizeof(c->hk_list));
}

/* --- preemption model ------------------------------------------------ */

/*
 * Why the debugfs file @path cannot be read, into @why: debugfs not
 * mounted, the file not there, or refused (not root; the kernel's
 * lockdown closes debugfs to root too). "" when it can be read.
 */
static void debugfs_why(const struct ctx *c, const char *path, char *why,
			size_t len)
{
	char buf[128], mode[32] = "", *a, *b;
	int e;

	why[0] = '\0';
	if (sys_read_file(c->root, path, buf, sizeof(buf)) >= 0)
		return;
	e = errno;
	if (e == ENOENT) {
		char p[PATH_MAX];
		DIR *d;
		struct dirent *de;
		bool empty = true;

		sys_path(p, sizeof(p), c->root, "/sys/kernel/debug");
		d = opendir(p);
		if (!d && errno != ENOENT) {
			/* mode 700 on most systems: unknown to a user */
			e = errno;
			snprintf(why, len, "/sys/kernel/debug cannot be read: %s%s",
				 strerror(e), (e == EACCES || e == EPERM) &&
				 geteuid() ? " (not root)" : "");
			return;
		}
		while (d && empty && (de = readdir(d)))
			empty = de->d_name[0] == '.';
		if (d)
			closedir(d);
		snprintf(why, len, empty ? "debugfs not mounted" : "%s: not there",
			 path);
		return;
	}
	if (sys_read_file(c->root, "/sys/kernel/security/lockdown", buf,
			  sizeof(buf)) > 0 && (a = strchr(buf, '[')) &&
	    (b = strchr(a, ']')) && strncmp(a, "[none]", 6) != 0)
		snprintf(mode, sizeof(mode), "%.*s", (int)(b - a - 1), a + 1);
	if (mode[0])
		snprintf(why, len, "%s cannot be read: %s (the kernel is locked down, lockdown=%s: debugfs is closed to root too)",
			 path, strerror(e), mode);
	else if (e == EACCES || e == EPERM)
		snprintf(why, len, "%s cannot be read: %s (%s)", path, strerror(e),
			 geteuid() ? "not root" :
			 "refused to root: the kernel's lockdown, /sys/kernel/security/lockdown");
	else
		snprintf(why, len, "%s cannot be read: %s", path,
			 sys_read_why(c->root, path, e, buf, sizeof(buf)));
}

#define SCHED_PREEMPT "/sys/kernel/debug/sched/preempt"

/* Where the mode was read, and, when not from debugfs, why the mode in
 * force is not known (debugfs not mounted, not root, ...); when not from
 * the boot log either, why not (/dev/kmsg not the kernel log, ...). */
static const char *mode_source(const struct ctx *c, const char *src,
			       char *buf, size_t len)
{
	char why[256], log[sizeof(c->d.preempt_log_why) + 32] = "";

	if (!strcmp(src, "debugfs"))
		return "in force (" SCHED_PREEMPT ")";
	debugfs_why(c, SCHED_PREEMPT, why, sizeof(why));
	if (strcmp(src, "boot log") != 0 && c->d.preempt_log_why[0])
		snprintf(log, sizeof(log), "; boot log not used, %s",
			 c->d.preempt_log_why);
	snprintf(buf, len, "%s%s; the mode in force is in " SCHED_PREEMPT ", %s)",
		 !strcmp(src, "cmdline") ? "at boot (preempt= on the command line" :
		 !strcmp(src, "boot log") ? "at boot (kernel log \"Dynamic Preempt\"" :
		 "configured default (kernel config; preempt= may override it",
		 log, why[0] ? why : "not read");
	return buf;
}

#define RT_KERNEL_FIX "a PREEMPT_RT kernel (CONFIG_PREEMPT_RT=y; Debian: linux-image-rt-amd64 or -arm64)"

static void check_preempt(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "preempt", "preemption model");
	const struct sysdesc *d = &c->d;
	char fl[SYS_STR], src[CHECK_TEXT];

	sysdesc_flavour(d, fl, sizeof(fl));
	if (d->realtime) {
		found(it, CHECK_OK, "PREEMPT_RT, kernel %s", d->release);
	} else if (d->xenomai[0] || d->evl[0] || d->ipipe[0] || d->rtai) {
		found(it, CHECK_OK, "%s: the co-kernel runs the real-time tasks",
		      fl);
	} else if (!strcmp(d->preempt, "PREEMPT_DYNAMIC") && d->preempt_mode[0]) {
		bool low = !strcmp(d->preempt_mode, "none") ||
			   !strcmp(d->preempt_mode, "voluntary");

		found(it, low ? CHECK_BAD : CHECK_WARN,
		      "mainline PREEMPT_DYNAMIC, mode %s %s", d->preempt_mode,
		      mode_source(c, d->preempt_mode_source, src, sizeof(src)));
		if (low)
			fix(it, "a kernel task is preempted only where it allows it (mode %s): "
			    "boot with preempt=full (or echo full > /sys/kernel/debug/sched/preempt); "
			    "for bounded latencies, " RT_KERNEL_FIX, d->preempt_mode);
		else
			fix(it, "mainline preemption leaves long non-preemptible sections "
			    "(worst cases of hundreds of us under load): " RT_KERNEL_FIX);
	} else if (!strcmp(d->preempt, "PREEMPT_DYNAMIC")) {
		debugfs_why(c, SCHED_PREEMPT, src, sizeof(src));
		found(it, CHECK_WARN, "mainline PREEMPT_DYNAMIC, mode unknown (%s%s%s)",
		      src, d->preempt_log_why[0] ? "; boot log not used, " : "",
		      d->preempt_log_why);
		fix(it, "see the mode with %scat " SCHED_PREEMPT "; for bounded latencies, "
		    RT_KERNEL_FIX, strstr(src, "not mounted") ?
		    "mount -t debugfs none /sys/kernel/debug; " :
		    strstr(src, "not root") ? "sudo " : "");
	} else if (d->preempt[0]) {
		found(it, CHECK_WARN, "mainline %s", d->preempt);
		fix(it, "mainline preemption leaves long non-preemptible sections: "
		    RT_KERNEL_FIX);
	} else if (d->version[0] || d->proc_version[0]) {
		found(it, CHECK_BAD, "%s (no PREEMPT flag in the kernel version \"%s\")",
		      fl, d->version[0] ? d->version : d->proc_version);
		fix(it, "a kernel task is preempted only where it allows it: "
		    RT_KERNEL_FIX);
	} else {
		found(it, CHECK_NA, "the kernel version cannot be read");
	}
}

/* --- scheduler knobs ------------------------------------------------- */

#define FAIR_SERVER "/sys/kernel/debug/sched/fair_server"

/* Linux 6.12 and later (the fair server's release)? */
static bool release_has_fair_server(const char *release)
{
	char *end;
	long major = strtol(release, &end, 10), minor;

	if (end == release || *end != '.')
		return false;
	minor = strtol(end + 1, NULL, 10);
	return major > 6 || (major == 6 && minor >= 12);
}

/*
 * The fair server of Linux 6.12+ (a deadline server per CPU that gives
 * normal tasks runtime of every period, ns, before the real-time tasks
 * when they wait): appended to the RT throttling item @it.
 */
static void fair_server(struct ctx *c, struct check_item *it)
{
	char p[96], why[256], on_list[64];
	long long run, per = 0, run_on = 0, per_on = 0;
	struct cpuset on;
	int cpu, nread = 0;

	cpuset_zero(&on);
	for (cpu = 0; cpu < RTLAT_MAX_CPUS; cpu++) {
		if (!cpuset_isset(&c->online, cpu))
			continue;
		snprintf(p, sizeof(p), FAIR_SERVER "/cpu%d/runtime", cpu);
		if (!read_ll(c, p, &run))
			continue;
		nread++;
		if (run <= 0)
			continue;
		snprintf(p, sizeof(p), FAIR_SERVER "/cpu%d/period", cpu);
		read_ll(c, p, &per);
		if (!cpuset_count(&on)) {
			run_on = run;
			per_on = per;
		}
		cpuset_set(&on, cpu);
	}
	if (!nread) {
		if (!release_has_fair_server(c->d.release))
			return;	/* before 6.12: RT throttling alone */
		debugfs_why(c, FAIR_SERVER "/cpu0/runtime", why, sizeof(why));
		appendf(it->found, sizeof(it->found),
			"; fair server (Linux 6.12+, on by default: normal tasks get 50 ms of every 1 s before the real-time ones): unknown, %s",
			why);
		appendf(it->fix, sizeof(it->fix), "%sread the fair server's runtime as root with debugfs mounted (%s/cpu*/runtime)",
			it->fix[0] ? "; " : "", FAIR_SERVER);
		if (it->verdict < CHECK_WARN)
			it->verdict = CHECK_WARN;
		return;
	}
	if (!cpuset_count(&on)) {
		appendf(it->found, sizeof(it->found),
			"; fair server off (runtime 0 on every CPU)");
		return;
	}
	cpulist_format(&on, on_list, sizeof(on_list));
	appendf(it->found, sizeof(it->found),
		"; fair server on (Linux 6.12+) on CPUs %s: normal tasks waiting there get %lld us of every %lld us before the real-time tasks (and the tick comes back on nohz_full CPUs)",
		on_list, run_on / 1000, per_on / 1000);
	appendf(it->fix, sizeof(it->fix),
		"%sfor f in %s/cpu*/runtime; do echo 0 > $f; done (or on the real-time CPUs only; a runaway real-time task then owns its CPU)",
		it->fix[0] ? "; " : "", FAIR_SERVER);
	if (it->verdict < CHECK_WARN)
		it->verdict = CHECK_WARN;
}

static void check_rt_throttling(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "rt_throttling", "RT throttling");
	long long rt, period = 0;
	char why[300];

	if (!read_ll_why(c, "/proc/sys/kernel/sched_rt_runtime_us", &rt, why,
			 sizeof(why))) {
		found(it, CHECK_NA, "%s", why[0] ? why :
		      "/proc/sys/kernel/sched_rt_runtime_us cannot be read: not there");
		fair_server(c, it);
		return;
	}
	read_ll(c, "/proc/sys/kernel/sched_rt_period_us", &period);
	if (rt < 0) {
		found(it, CHECK_OK, "off (kernel.sched_rt_runtime_us = -1)");
	} else if (rt == 0) {
		found(it, CHECK_BAD, "kernel.sched_rt_runtime_us = 0: real-time tasks get no CPU time");
		fix(it, "sysctl -w kernel.sched_rt_runtime_us=-1 (or 950000)");
	} else {
		found(it, CHECK_WARN,
		      "on: real-time tasks get at most %lld us of every %lld us "
		      "(kernel.sched_rt_runtime_us = %lld); one that needs more is stopped for the rest of the period",
		      rt, period, rt);
		fix(it, "sysctl -w kernel.sched_rt_runtime_us=-1 (a runaway real-time task then owns its CPU)");
	}
	fair_server(c, it);
}

static void check_timer_migration(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "timer_migration", "timer migration");
	char why[300];
	long long v;

	if (!read_ll_why(c, "/proc/sys/kernel/timer_migration", &v, why,
			 sizeof(why))) {
		if (why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_NA, "no /proc/sys/kernel/timer_migration (no NO_HZ)");
	} else if (v != 0 && v != 1) {
		/* the kernel takes only 0 and 1 (proc_dointvec_minmax) */
		found(it, CHECK_NA, "/proc/sys/kernel/timer_migration holds %lld, not 0 or 1",
		      v);
	} else if (v) {
		found(it, CHECK_WARN,
		      "on (kernel.timer_migration = 1): timers of idle CPUs move to busy ones, isolated CPUs included");
		fix(it, "sysctl -w kernel.timer_migration=0");
	} else {
		found(it, CHECK_OK, "off (kernel.timer_migration = 0)");
	}
}

/* Whether the longest part of @p (a path below the root) that resolves
 * is out of the tree. */
static bool out_of_tree(const struct ctx *c, const char *p)
{
	char q[PATH_MAX], real[PATH_MAX], *slash;

	snprintf(q, sizeof(q), "%s", p);
	while ((slash = strrchr(q, '/')) && slash != q) {
		*slash = '\0';
		if (realpath(q, real))
			return !sys_below(c->root, real);
	}
	return false;
}

/* Whether @path below the root is a directory: 1, 0 when it is not
 * there, -1 with @why set when it cannot be told (refused, or it leads out
 * of the tree). */
static int is_dir(const struct ctx *c, const char *path, char *why,
		  size_t wlen)
{
	char p[PATH_MAX], real[PATH_MAX], r[128];
	struct stat st;
	int e;

	sys_path(p, sizeof(p), c->root, path);
	if (stat(p, &st) == 0 && realpath(p, real) && !sys_below(c->root, real))
		e = EXDEV;
	else if (stat(p, &st) == 0)
		return S_ISDIR(st.st_mode);
	else if ((e = errno) == ENOENT || e == ENOTDIR)
		/* not there; unless the part of it that is leads out of
		 * the tree (a link to a directory of the host's) */
		e = out_of_tree(c, p) ? EXDEV : 0;
	if (!e)
		return 0;
	snprintf(why, wlen, "%s cannot be read: %s", path,
		 sys_read_why(c->root, path, e, r, sizeof(r)));
	return -1;
}

static void check_rt_group(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "rt_group", "RT group scheduling");
	char cg[512], mnt[512], file[1100], dir[1100], why[1200];
	long long v;

	if (rt_cgroup_runtime_file(c->root, cg, sizeof(cg), mnt, sizeof(mnt),
				   file, sizeof(file), why, sizeof(why)) < 0) {
		if (why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_NA, "no cgroup v1 cpu controller (cgroup v2 has no RT group scheduling)");
		note_cut(c, it, "/proc/self/cgroup");
		note_cut(c, it, "/proc/self/mountinfo");
		return;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(file, '/') - file),
		 file);
	switch (is_dir(c, dir, why, sizeof(why))) {
	case 0:
		/* not a kernel without RT group scheduling: no such cgroup */
		found(it, CHECK_NA, "cgroup %s: no directory %s", cg, dir);
		return;
	case -1:
		found(it, CHECK_NA, "cgroup %s: %s", cg, why);
		return;
	}
	if (!read_ll_why(c, file, &v, why, sizeof(why))) {
		if (why[0])
			found(it, CHECK_NA, "cgroup %s: %s", cg, why);
		else
			found(it, CHECK_OK, "cgroup %s: no %s (kernel without CONFIG_RT_GROUP_SCHED)",
			      cg, file);
	} else if (v < -1) {
		/* the kernel's: -1 (no limit) or a runtime in us */
		found(it, CHECK_NA, "cgroup %s: %s holds %lld, not a runtime (-1 or more)",
		      cg, file, v);
	} else if (!strcmp(cg, "/")) {
		found(it, CHECK_OK, "root cgroup, cpu.rt_runtime_us = %lld", v);
	} else if (v == -1) {
		found(it, CHECK_OK, "this process's cgroup %s has cpu.rt_runtime_us = -1: no limit of its own",
		      cg);
	} else if (v == 0) {
		found(it, CHECK_BAD,
		      "this process's cgroup %s has cpu.rt_runtime_us = 0: real-time tasks cannot run there",
		      cg);
		fix(it, "give the cgroup some (echo 950000 > %s, its parents' first), "
		    "or run in the root cgroup (echo $$ > %s/cgroup.procs)", file, mnt);
	} else {
		found(it, CHECK_WARN,
		      "this process's cgroup %s has cpu.rt_runtime_us = %lld: its real-time tasks are throttled beyond it",
		      cg, v);
		fix(it, "run in the root cgroup (echo $$ > %s/cgroup.procs)", mnt);
	}
	note_cut(c, it, "/proc/self/cgroup");
	note_cut(c, it, "/proc/self/mountinfo");
}

/* --- CPU frequency and idle ------------------------------------------ */

struct govgroup {
	char name[32];
	struct cpuset cpus;
};

static void check_cpufreq(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "cpufreq", "cpufreq governor and limits");
	struct govgroup g[8];
	char p[128], buf[64], list[64], drv[32] = "", why[300] = "";
	char w[300];
	struct cpuset capped;
	long long cap = 0, hw = 0, v;
	int ng = 0, i, k, cpu;
	enum check_verdict worst = CHECK_OK;

	cpuset_zero(&capped);
	for (cpu = cpuset_next(&c->online, 0); cpu >= 0;
	     cpu = cpuset_next(&c->online, cpu + 1)) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		if (read_why(c, p, buf, sizeof(buf), w, sizeof(w)) <= 0) {
			if (w[0] && !why[0])
				snprintf(why, sizeof(why), "%s", w);
			continue;
		}
		for (k = 0; k < ng && strcmp(g[k].name, buf) != 0; k++)
			;
		if (k == ng && ng < 8) {
			snprintf(g[ng].name, sizeof(g[ng].name), "%s", buf);
			cpuset_zero(&g[ng++].cpus);
		}
		if (k < ng)
			cpuset_set(&g[k].cpus, cpu);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_max_freq", cpu);
		if (!read_ll(c, p, &v))
			continue;
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
		if (read_ll(c, p, &hw) && v < hw) {
			cpuset_set(&capped, cpu);
			cap = v;
		}
		if (!drv[0]) {
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
			sys_read_file(c->root, p, drv, sizeof(drv));
		}
	}
	if (!ng) {
		if (why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_NA, "no cpufreq driver: the CPU clock is the firmware's or the hypervisor's");
		return;
	}
	for (i = 0; i < ng; i++) {
		cpulist_format(&g[i].cpus, list, sizeof(list));
		appendf(it->found, sizeof(it->found), "%s%s on CPU %s",
			i ? ", " : "", g[i].name, list);
		if (!strcmp(g[i].name, "powersave"))
			worst = CHECK_BAD;
		else if (strcmp(g[i].name, "performance") != 0 && worst < CHECK_WARN)
			worst = CHECK_WARN;
	}
	if (drv[0])
		appendf(it->found, sizeof(it->found), " (driver %s)", drv);
	also(it, why);
	if (cpuset_count(&capped)) {
		cpulist_format(&capped, list, sizeof(list));
		appendf(it->found, sizeof(it->found),
			"; CPU %s capped at %lld MHz of %lld MHz", list,
			cap / 1000, hw / 1000);
		if (worst < CHECK_WARN)
			worst = CHECK_WARN;
	}
	it->verdict = worst;
	if (worst != CHECK_OK)
		fix(it, "the clock changes under the measurement (and powersave keeps it low): "
		    "cpupower frequency-set -g performance (or echo performance > "
		    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)%s",
		    cpuset_count(&capped) ? "; lift the cap: scaling_max_freq = cpuinfo_max_freq" : "");
}

/* The PM QoS CPU latency in us (/dev/cpu_dma_latency: a binary s32 on
 * the device, text in a fake tree); -1 when unreadable, @why the reason. */
static long long dma_latency_us(const struct ctx *c, char *why, size_t wlen)
{
	char p[PATH_MAX], *r;
	struct stat st;
	long long t;
	int32_t v;
	ssize_t n;
	int fd, e;

	sys_path(p, sizeof(p), c->root, "/dev/cpu_dma_latency");
	fd = sys_open_path(c->root, p, true);
	if (fd < 0) {
		sys_read_why(c->root, "/dev/cpu_dma_latency", errno, why, wlen);
		return -1;
	}
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if (S_ISCHR(st.st_mode) && major(st.st_rdev) != 10) {
		/* the PM QoS device is a misc device (10:N): another one
		 * (/dev/zero: 1:5) would give its bytes for a latency */
		close(fd);
		snprintf(why, wlen, "not the PM QoS device (the character device %u:%u; it is a misc device, 10:N)",
			 major(st.st_rdev), minor(st.st_rdev));
		return -1;
	}
	if (S_ISCHR(st.st_mode)) {
		/* the device: one binary s32 */
		n = read(fd, &v, sizeof(v));
		e = errno;
		close(fd);
		if (n == (ssize_t)sizeof(v))
			return v;
		snprintf(why, wlen, "%s", n < 0 ? strerror(e) : "short read");
		return -1;
	}
	close(fd);
	/* a fake tree's regular file: the value as text */
	if (read_ll_why(c, "/dev/cpu_dma_latency", &t, why, wlen) && t >= 0)
		return t;
	r = strstr(why, "cannot be read: ");
	if (r)	/* the caller says "/dev/cpu_dma_latency cannot be read:" */
		memmove(why, r + 16, strlen(r + 16) + 1);
	else
		snprintf(why, wlen, "not a latency in us (binary s32 or a number)");
	return -1;
}

static void check_cpuidle(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "cpuidle", "cpuidle states, /dev/cpu_dma_latency");
	char p[128], name[32], drv[32] = "", gov[32] = "", qwhy[128] = "";
	const char *tag;
	char why[300] = "", lwhy[300];
	long long lat, off, deepest = -1, qos = dma_latency_us(c, qwhy, sizeof(qwhy));
	int i, n = 0, unknown = 0;

	sys_read_file(c->root, "/sys/devices/system/cpu/cpuidle/current_driver",
		      drv, sizeof(drv));
	if (sys_read_file(c->root, "/sys/devices/system/cpu/cpuidle/current_governor_ro",
			  gov, sizeof(gov)) <= 0)
		sys_read_file(c->root, "/sys/devices/system/cpu/cpuidle/current_governor",
			      gov, sizeof(gov));
	for (i = 0; i < 32; i++) {
		char st[PATH_MAX], sw[300];

		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/name", i);
		if (read_why(c, p, name, sizeof(name), sw, sizeof(sw)) <= 0) {
			/* the states end at the first one not there; one
			 * there whose name cannot be read is a state not
			 * known, and the states after it still count */
			snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cpuidle/state%d", i);
			sys_path(st, sizeof(st), c->root, p);
			if (access(st, F_OK) < 0)
				break;
			if (!sw[0])
				snprintf(sw, sizeof(sw), "%s/name: empty", p);
			if (!why[0])
				snprintf(why, sizeof(why), "%s", sw);
			snprintf(name, sizeof(name), "state%d", i);
		}
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/latency", i);
		lwhy[0] = '\0';
		lat = -1;
		if (!read_ll_why(c, p, &lat, lwhy, sizeof(lwhy)) || lat < 0) {
			/* not 0 us: a state whose exit latency is not known */
			sys_path(st, sizeof(st), c->root, p);
			if (!lwhy[0])	/* read, and below 0; or not there */
				snprintf(lwhy, sizeof(lwhy), access(st, F_OK) == 0 ?
					 "%s holds no latency" : "%s: not there", p);
			if (!why[0])
				snprintf(why, sizeof(why), "%s", lwhy);
			lat = -1;
		}
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu0/cpuidle/state%d/disable", i);
		lwhy[0] = '\0';
		if (!read_ll_why(c, p, &off, lwhy, sizeof(lwhy))) {
			/* not there (kernels before 3.10): enabled */
			off = lwhy[0] ? -1 : 0;
		} else if (off < 0 || off > 1) {
			/* the kernel writes 0 or 1 */
			snprintf(lwhy, sizeof(lwhy), "%s holds %lld, not 0 or 1",
				 p, off);
			off = -1;
		}
		if (off < 0 && !why[0])	/* whether it is enabled: not known */
			snprintf(why, sizeof(why), "%s", lwhy);
		if (!n++)
			appendf(it->found, sizeof(it->found), "driver %s, governor %s; states",
				drv[0] ? drv : "n/a", gov[0] ? gov : "n/a");
		tag = off > 0 ? " (disabled)" : off < 0 ? " (disabled ?)" : "";
		if (lat < 0)
			appendf(it->found, sizeof(it->found), "%s %s ? us%s",
				i ? "," : "", name, tag);
		else
			appendf(it->found, sizeof(it->found), "%s %s %lld us%s",
				i ? "," : "", name, lat, tag);
		/* a state that may be enabled, its latency not known or
		 * beyond 10 us: no ground for ok */
		if ((!off && lat < 0) || (off < 0 && (lat < 0 || lat > 10)))
			unknown++;
		if (!off && lat > deepest)
			deepest = lat;
	}
	if (!n && why[0])
		appendf(it->found, sizeof(it->found), "cpuidle states unknown");
	else if (!n)
		appendf(it->found, sizeof(it->found), "no cpuidle states%s%s",
			drv[0] ? " (driver " : "", drv[0] ? drv : "");
	if (!n && !why[0] && drv[0])
		appendf(it->found, sizeof(it->found), ")");
	also(it, why);
	if (qos < 0)
		appendf(it->found, sizeof(it->found), "; /dev/cpu_dma_latency cannot be read: %s",
			qwhy);
	else if (qos >= QOS_NONE)
		appendf(it->found, sizeof(it->found), "; /dev/cpu_dma_latency: no request");
	else
		appendf(it->found, sizeof(it->found),
			"; /dev/cpu_dma_latency held at %lld us by a process", qos);
	if (!n || (deepest <= 10 && unknown && !(qos >= 0 && qos <= 10))) {
		/* no state, or an enabled state's exit latency not known and
		 * no request that caps every state: no ground for ok */
		it->verdict = CHECK_NA;
	} else if (deepest <= 10 || (qos >= 0 && qos <= 10)) {
		it->verdict = CHECK_OK;
	} else {
		it->verdict = CHECK_WARN;
		appendf(it->found, sizeof(it->found),
			"; the deepest enabled state takes %lld us to leave", deepest);
		fix(it, "rtlat's tests hold /dev/cpu_dma_latency at 0 while they measure; "
		    "an application must too, or disable the deep states: cpupower idle-set -D 10, "
		    "or boot with processor.max_cstate=1 intel_idle.max_cstate=1");
	}
}

/* --- isolation and interrupts ---------------------------------------- */

static void check_isolation(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "isolation", "isolcpus, nohz_full, rcu_nocbs");
	struct cpuset miss;
	bool nocbs, nohz;
	char l[64];
	int n;

	if (!c->niso && c->iso_why[0]) {
		no_iso(c, it);
		return;
	}
	if (!c->niso) {
		if (cpuset_count(&c->online) < 2) {
			found(it, CHECK_NA, "no isolated CPU (one CPU)");
			return;
		}
		found(it, CHECK_WARN, "no isolated CPU: the measured tasks share their CPU with everything else");
		n = cpuset_count(&c->online);
		snprintf(l, sizeof(l), n / 2 == n - 1 ? "%d" : "%d-%d", n / 2, n - 1);
		fix(it, "keep CPUs for the real-time tasks: boot with isolcpus=managed_irq,domain,LIST "
		    "nohz_full=LIST rcu_nocbs=LIST (LIST e.g. %s), and run the tests there (-c LIST)", l);
		return;
	}
	found(it, CHECK_OK, "isolated CPU %s (isolcpus %s%s%s)", c->iso_list,
	      c->isolcpus_flags[0] ? c->isolcpus_flags : "",
	      c->isolcpus_flags[0] ? "," : "",
	      c->d.isolated[0] ? c->d.isolated : "none");
	/* without sysfs' list, nohz_full= is known only from the command line */
	nohz = c->nohz_read || !c->cmd_why[0];
	cpulist_format(&c->nohz, l, sizeof(l));
	appendf(it->found, sizeof(it->found), ", nohz_full %s%s",
		l[0] ? l : nohz ? "none" : "unknown", l[0] && !nohz ? " or more" : "");
	cpulist_format(&c->nocbs, l, sizeof(l));
	/* rcu_nocbs= is known only from the command line (beyond nohz_full) */
	appendf(it->found, sizeof(it->found), ", rcu_nocbs %s%s",
		l[0] ? l : c->cmd_why[0] ? "unknown" : "none",
		l[0] && c->cmd_why[0] ? " or more" : "");
	also(it, c->iso_why);
	also(it, c->cmd_why);
	set_andnot(&miss, &c->isolated, &c->nohz);
	if (cpuset_count(&miss) && nohz) {
		it->verdict = CHECK_WARN;
		cpulist_format(&miss, l, sizeof(l));
		appendf(it->found, sizeof(it->found), "; CPU %s not nohz_full", l);
	}
	set_andnot(&miss, &c->isolated, &c->nocbs);
	nocbs = cpuset_count(&miss) && !c->cmd_why[0];
	if (nocbs) {
		it->verdict = CHECK_WARN;
		cpulist_format(&miss, l, sizeof(l));
		appendf(it->found, sizeof(it->found), "; CPU %s runs its RCU callbacks", l);
	}
	if (!nohz && it->verdict == CHECK_OK)
		it->verdict = CHECK_NA;	/* unknown is not ok */
	/* nohz_full CPUs offload their callbacks: a CPU that runs them is
	 * not nohz_full either */
	if (it->verdict == CHECK_WARN && nocbs)
		fix(it, "boot with nohz_full=%s rcu_nocbs=%s (the scheduler tick and RCU callbacks "
		    "otherwise still interrupt the isolated CPUs)", c->iso_list, c->iso_list);
	else if (it->verdict == CHECK_WARN)
		fix(it, "boot with nohz_full=%s (the scheduler tick otherwise still "
		    "interrupts the isolated CPUs)", c->iso_list);
}

struct irq_row {
	char name[16];			/* "24", "LOC" */
	char desc[48];			/* "IO-APIC 4-edge ttyS0" */
	uint64_t n[ISO_MAX];		/* count on each tracked CPU */
};

struct irq_table {
	int nrows;
	struct irq_row *rows;
};

/* Rows of the kernel's that count for all CPUs at once, with one count
 * or none: ERR and MIS (x86, MIPS), Err (ARM), BAD (old PowerPC), FIQ
 * (ARM: its owner's name). */
static bool irq_global_row(const char *name)
{
	static const char *const g[] = { "ERR", "MIS", "Err", "BAD", "FIQ" };
	size_t i;

	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		if (!strcmp(name, g[i]))
			return true;
	return false;
}

/* The CPU columns of the header line of /proc/interrupts ("CPU0 CPU1
 * ..."): how many, and the column of each of @cpus[] in @col_of[] (-1:
 * none); -1 when @line is not that header. */
static int irq_header(char *line, const int *cpus, int ncpus, int *col_of)
{
	char *s, *save = NULL, *end;
	int ncols = 0, k;
	long cpu;

	for (k = 0; k < ncpus; k++)
		col_of[k] = -1;
	for (s = strtok_r(line, " \t\n", &save); s;
	     s = strtok_r(NULL, " \t\n", &save), ncols++) {
		if (strncmp(s, "CPU", 3) != 0 || !isdigit((unsigned char)s[3]))
			return -1;
		cpu = strtol(s + 3, &end, 10);
		if (*end)
			return -1;
		for (k = 0; k < ncpus; k++)
			if (cpu == cpus[k])
				col_of[k] = ncols;
	}
	return ncols ? ncols : -1;
}

/*
 * Read /proc/interrupts-like @path, keeping the counts of the CPUs
 * @cpus[0..@ncpus-1]. Returns 0, or -1 with the reason in @why: it cannot
 * be read (sys_read_why()), or it is not in the kernel's format (no "CPU0
 * CPU1 ..." header line, no column for a CPU, a line that is no interrupt
 * line, cut short or holding NUL bytes): nothing is concluded from a file
 * that does not parse. A file larger than SYS_READ_MAX is read up to the
 * bound, its last line (cut) left out.
 */
static int irq_read(const struct ctx *c, const char *path, const int *cpus,
		    int ncpus, struct irq_table *t, char *why, size_t wlen)
{
	char *line = NULL, *s, *end;
	int col_of[ISO_MAX], ncols, cap = 0, k, col, got, lineno = 1;
	size_t sz = 0;
	ssize_t len;
	bool cut;
	FILE *f;

	t->nrows = 0;
	t->rows = NULL;
	why[0] = '\0';
	f = sys_fopen(c->root, path, &cut);
	if (!f) {
		int e = errno;

		sys_read_why(c->root, path, e, why, wlen);
		errno = e;
		return -1;
	}
	len = getline(&line, &sz, f);
	if (len <= 0 || strlen(line) != (size_t)len || line[len - 1] != '\n' ||
	    (ncols = irq_header(line, cpus, ncpus, col_of)) < 0) {
		snprintf(why, wlen, "not in the kernel's format (%s)",
			 len <= 0 ? "empty" : "no \"CPU0 CPU1 ...\" header line");
		goto bad;
	}
	for (k = 0; k < ncpus; k++)
		if (col_of[k] < 0) {
			snprintf(why, wlen, "no column for CPU %d in /proc/interrupts", cpus[k]);
			goto bad;
		}
	while ((len = getline(&line, &sz, f)) > 0) {
		struct irq_row *row;
		uint64_t v;

		lineno++;
		if (line[len - 1] != '\n') {
			if (cut)
				break;	/* the bound cut it: see note_cut() */
			snprintf(why, wlen, "not in the kernel's format (line %d cut short: no end of line)",
				 lineno);
			goto bad;
		}
		if (strlen(line) != (size_t)len) {
			snprintf(why, wlen, "not in the kernel's format (line %d holds NUL bytes)",
				 lineno);
			goto bad;
		}
		s = strchr(line, ':');
		end = line;
		while (isspace((unsigned char)*end))
			end++;
		if (!s || s == end || (size_t)(s - end) != strcspn(end, " \t:")) {
			snprintf(why, wlen, "not in the kernel's format (line %d is no \"NAME: COUNTS\" line)",
				 lineno);
			goto bad;
		}
		if (t->nrows == cap) {
			struct irq_row *nr = realloc(t->rows, (size_t)(cap ? cap * 2 : 64) *
						     sizeof(*nr));

			if (!nr) {
				snprintf(why, wlen, "%s", strerror(errno));
				goto bad;
			}
			t->rows = nr;
			cap = cap ? cap * 2 : 64;
		}
		row = &t->rows[t->nrows++];
		memset(row, 0, sizeof(*row));
		*s++ = '\0';
		snprintf(row->name, sizeof(row->name), "%s", end);
		for (col = got = 0; col < ncols; col++, got++) {
			while (*s == ' ' || *s == '\t')
				s++;
			if (!isdigit((unsigned char)*s))
				break;
			v = strtoull(s, &end, 10);
			s = end;
			for (k = 0; k < ncpus; k++)
				if (col_of[k] == col)
					row->n[k] = v;
		}
		if (got < ncols && !(irq_global_row(row->name) && got <= 1)) {
			snprintf(why, wlen, "not in the kernel's format (line %d, \"%s:\": %d of %d CPU counts)",
				 lineno, row->name, got, ncols);
			goto bad;
		}
		if (got < ncols)	/* counts for no CPU */
			memset(row->n, 0, sizeof(row->n));
		while (isspace((unsigned char)*s))
			s++;
		snprintf(row->desc, sizeof(row->desc), "%.*s",
			 (int)strcspn(s, "\n"), s);
	}
	if (!t->nrows) {
		snprintf(why, wlen, "not in the kernel's format (no interrupt line)");
		goto bad;
	}
	free(line);
	fclose(f);
	return 0;
bad:
	free(line);
	fclose(f);
	free(t->rows);
	t->rows = NULL;
	t->nrows = 0;
	errno = EINVAL;
	return -1;
}

static const struct irq_row *irq_find(const struct irq_table *t, const char *name)
{
	int i;

	for (i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

static bool is_device_irq(const char *name)
{
	return isdigit((unsigned char)name[0]);
}

/* The last word of an interrupt's description: its device ("ttyS0"). */
static const char *irq_device(const struct irq_row *row)
{
	const char *s = strrchr(row->desc, ' ');

	return s ? s + 1 : row->desc;
}

/* The interrupts of column @k of readings @a and @b (with @interval_ns >
 * 0: those between them, @elapsed ns apart; else @a's, since boot): their
 * number, the devices' in *@dev, the first six in @top. */
static uint64_t irq_column(const struct irq_table *a,
			   const struct irq_table *b, int k,
			   int64_t interval_ns, int64_t elapsed,
			   uint64_t *dev, char *top, size_t len)
{
	uint64_t total = 0;
	int shown = 0, i;

	for (i = 0; i < a->nrows; i++) {
		const struct irq_row *ra = &a->rows[i];
		const struct irq_row *rb = b->rows ? irq_find(b, ra->name) : NULL;
		uint64_t d;

		if (interval_ns > 0)
			d = rb && rb->n[k] > ra->n[k] ? rb->n[k] - ra->n[k] : 0;
		else
			d = ra->n[k];
		if (!d)
			continue;
		total += d;
		if (is_device_irq(ra->name))
			*dev += d;
		if (shown++ < 6) {
			if (interval_ns > 0)
				appendf(top, len, "%s%s%s%s %.1f/s",
					shown > 1 ? ", " : "", ra->name,
					is_device_irq(ra->name) ? " " : "",
					is_device_irq(ra->name) ? irq_device(ra) : "",
					(double)d * 1e9 / (double)elapsed);
			else
				appendf(top, len, "%s%s%s%s %" PRIu64,
					shown > 1 ? ", " : "", ra->name,
					is_device_irq(ra->name) ? " " : "",
					is_device_irq(ra->name) ? irq_device(ra) : "", d);
		}
	}
	if (shown > 6)
		appendf(top, len, ", ...");
	return total;
}

static void check_isolated_irqs(struct ctx *c, struct check_report *r)
{
	char alt[160], why[200];
	struct check_item *it = add(r, "isolated_irqs", "interrupts on isolated CPUs");
	struct irq_table a, b;
	int cpus[ISO_MAX], n = 0, cpu, k;
	int64_t t0, elapsed = r->interval_ns;
	enum check_verdict worst = CHECK_OK;
	bool bad_dev = false;

	if (!c->niso) {
		no_iso(c, it);
		return;
	}
	for (cpu = cpuset_next(&c->isolated, 0); cpu >= 0 && n < ISO_MAX;
	     cpu = cpuset_next(&c->isolated, cpu + 1))
		cpus[n++] = cpu;
	if (irq_read(c, "/proc/interrupts", cpus, n, &a, why, sizeof(why)) < 0) {
		found(it, CHECK_NA, "/proc/interrupts cannot be read: %s", why);
		return;
	}
	b.nrows = 0;
	b.rows = NULL;
	if (r->interval_ns > 0) {
		const char *second = c->self ? "/proc/interrupts" : "/proc/interrupts.later";
		int got;

		if (c->self) {
			log_note("sampling /proc/interrupts for %.1f s (-T)",
				 (double)r->interval_ns / 1e9);
			t0 = clock_now_ns(CLOCK_MONOTONIC);
			while (clock_now_ns(CLOCK_MONOTONIC) - t0 < r->interval_ns)
				sleep_ns(r->interval_ns - (clock_now_ns(CLOCK_MONOTONIC) - t0));
			got = irq_read(c, second, cpus, n, &b, why, sizeof(why));
			elapsed = clock_now_ns(CLOCK_MONOTONIC) - t0;
		} else {
			got = irq_read(c, second, cpus, n, &b, why, sizeof(why));
			if (got < 0 && errno == ENOENT)	/* no interrupt came */
				got = irq_read(c, "/proc/interrupts", cpus, n, &b,
					       why, sizeof(why));
		}
		if (got < 0) {
			/* no second reading: no rate, and no conclusion */
			found(it, CHECK_NA, "%s cannot be read%s: %s", second,
			      c->self ? " the second time (-T after the first)" : "",
			      why);
			free(a.rows);
			return;
		}
	}
	for (k = 0; k < n; k++) {
		uint64_t dev = 0;
		char top[CHECK_TEXT] = "";
		uint64_t total = irq_column(&a, &b, k, r->interval_ns, elapsed,
					    &dev, top, sizeof(top));

		if (r->interval_ns > 0) {
			double rate = (double)total * 1e9 / (double)elapsed;

			appendf(it->found, sizeof(it->found), "%sCPU %d: %.1f/s%s%s%s",
				k ? "; " : "", cpus[k], rate, top[0] ? " (" : "",
				top, top[0] ? ")" : "");
			if (dev) {
				worst = CHECK_BAD;
				bad_dev = true;
			} else if (rate > 10 && worst < CHECK_WARN) {
				worst = CHECK_WARN;
			}
		} else {
			appendf(it->found, sizeof(it->found), "%sCPU %d: %" PRIu64 " since boot%s%s%s",
				k ? "; " : "", cpus[k], total, top[0] ? " (" : "",
				top, top[0] ? ")" : "");
			if (dev && worst < CHECK_WARN) {
				worst = CHECK_WARN;
				bad_dev = true;
			}
		}
	}
	if (r->interval_ns > 0)
		appendf(it->found, sizeof(it->found), " over %.1f s", (double)elapsed / 1e9);
	else
		appendf(it->found, sizeof(it->found), " (one reading: no rate)");
	note_cut(c, it, "/proc/interrupts");
	if (r->interval_ns > 0 && !c->self)
		note_cut(c, it, "/proc/interrupts.later");
	it->verdict = worst;
	if (bad_dev)
		fix(it, "device interrupts reach an isolated CPU: set their affinity to CPU %s "
		    "(echo %s > /proc/irq/N/smp_affinity_list; boot with irqaffinity=%s; "
		    "irqbalance: IRQBALANCE_BANNED_CPULIST=%s)%s", c->hk_list, c->hk_list,
		    c->hk_list, c->iso_list,
		    r->interval_ns > 0 ? "" : "; sample with -T 2 to see whether they still come");
	else if (worst == CHECK_WARN)
		fix(it, "something still runs or is woken there (RES, CAL: tasks and IPIs; "
		    "LOC: the tick, see nohz_full): ps -eLo psr,comm | awk '$1 ~ /^(%s)$/', "
		    "workqueues: /sys/devices/virtual/workqueue/cpumask",
		    cpu_alternatives(&c->isolated, alt, sizeof(alt)));
	free(a.rows);
	free(b.rows);
}

static void check_smt(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "smt", "SMT siblings of isolated CPUs");
	char p[128], list[64], buf[32], why[300] = "", w[300];
	struct cpuset sib, busy;
	int cpu;

	if (!c->niso && c->iso_why[0]) {
		no_iso(c, it);
		return;
	}
	if (!c->niso) {
		if (sys_read_file(c->root, "/sys/devices/system/cpu/smt/active", buf,
				  sizeof(buf)) > 0)
			found(it, CHECK_NA, "no isolated CPU; SMT %s", strcmp(buf, "1") ? "off" : "on");
		else
			found(it, CHECK_NA, "no isolated CPU");
		return;
	}
	it->verdict = CHECK_OK;
	for (cpu = cpuset_next(&c->isolated, 0); cpu >= 0;
	     cpu = cpuset_next(&c->isolated, cpu + 1)) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (!read_cpulist_why(c, p, &sib, w, sizeof(w))) {
			if (w[0] && !why[0])
				snprintf(why, sizeof(why), "%s", w);
			continue;
		}
		if (cpuset_count(&sib) < 2)
			continue;
		set_andnot(&busy, &sib, &c->isolated);
		if (!cpuset_count(&busy))
			continue;
		cpulist_format(&busy, list, sizeof(list));
		appendf(it->found, sizeof(it->found), "%sCPU %d shares its core with CPU %s (not isolated)",
			it->found[0] ? "; " : "", cpu, list);
		it->verdict = CHECK_WARN;
	}
	also(it, why);
	if (it->verdict == CHECK_OK && why[0])
		found(it, CHECK_NA, "%s", why);	/* the siblings unknown */
	else if (it->verdict == CHECK_OK)
		found(it, CHECK_OK, "no isolated CPU shares its core with a CPU that is not isolated");
	else
		fix(it, "what runs on the sibling shares the core's pipeline and caches: isolate the "
		    "siblings too, or turn SMT off (echo off > /sys/devices/system/cpu/smt/control, boot: nosmt)");
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void check_irq_affinity(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "irq_affinity", "interrupt affinity");
	char p[PATH_MAX], list[1024], err[96], why[400] = "", w[400];
	int *hit = NULL, nhit = 0, total = 0, bad = 0, i;
	struct cpuset s;
	struct dirent *e;
	DIR *dir;

	if (!c->niso) {
		no_iso(c, it);
		return;
	}
	sys_path(p, sizeof(p), c->root, "/proc/irq");
	dir = opendir(p);
	if (!dir) {
		found(it, CHECK_NA, "/proc/irq cannot be read: %s", strerror(errno));
		return;
	}
	while ((e = readdir(dir))) {
		char f[300];

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		snprintf(f, sizeof(f), "/proc/irq/%s/smp_affinity_list", e->d_name);
		if (read_why(c, f, list, sizeof(list), w, sizeof(w)) < 0) {
			if (w[0] && !bad++)
				snprintf(why, sizeof(why), "%s", w);
			continue;
		}
		if (cpulist_parse(list, &s, err, sizeof(err)))
			continue;
		total++;
		if (!set_meets(&s, &c->isolated))
			continue;
		if (!(nhit & 63)) {
			int *nh = realloc(hit, (size_t)(nhit + 64) * sizeof(*nh));

			if (!nh)
				break;
			hit = nh;
		}
		hit[nhit++] = (int)strtol(e->d_name, NULL, 10);
	}
	closedir(dir);
	if (bad > 1)
		appendf(why, sizeof(why), " (and %d more IRQs)", bad - 1);
	if (!nhit) {
		if (!total && why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_OK, "none of the %d IRQs may go to isolated CPU %s", total,
			      c->iso_list);
		if (total)
			also(it, why);
		free(hit);
		return;
	}
	qsort(hit, (size_t)nhit, sizeof(*hit), cmp_int);
	found(it, CHECK_WARN, "%d of %d IRQs may go to isolated CPU %s (smp_affinity_list):",
	      nhit, total, c->iso_list);
	for (i = 0; i < nhit && i < 24; i++)
		appendf(it->found, sizeof(it->found), " %d", hit[i]);
	if (nhit > 24)
		appendf(it->found, sizeof(it->found), " ...");
	also(it, why);
	fix(it, "for i in /proc/irq/*/smp_affinity_list; do echo %s > $i; done "
	    "(kernel-managed ones refuse: boot with isolcpus=managed_irq,...), boot with irqaffinity=%s; "
	    "irqbalance: IRQBALANCE_BANNED_CPULIST=%s", c->hk_list, c->hk_list, c->iso_list);
	free(hit);
}

/* --- clock ----------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Median cost of one clock_gettime(CLOCK_MONOTONIC) in ns, from back to
 * back pairs; -1 without memory. */
static int64_t clock_read_cost(void)
{
	enum { N = 20001 };
	int64_t *d = malloc(N * sizeof(*d)), m;
	struct timespec a, b;
	int i;

	if (!d)
		return -1;
	for (i = 0; i < 1000; i++)	/* warm the vDSO page and caches */
		clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < N; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_gettime(CLOCK_MONOTONIC, &b);
		d[i] = ts_sub_ns(&b, &a);
	}
	qsort(d, N, sizeof(*d), cmp_i64);
	m = d[N / 2];
	free(d);
	return m;
}

static void check_clock(struct ctx *c, struct check_report *r)
{
	static const char *const slow[] = { "hpet", "acpi_pm", "pit", "jiffies",
					    "refined-jiffies" };
	struct check_item *it = add(r, "clocksource", "clocksource");
	struct check_item *cost;
	char avail[256] = "", better[32] = "";
	char cs[64], cwhy[300] = "";
	bool is_slow = false;
	size_t i;

	/* one name, as the kernel writes it: a damaged copy's text is no
	 * clocksource to judge */
	if (c->d.clocksource[0] &&
	    (read_why(c, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      cs, sizeof(cs), cwhy, sizeof(cwhy)) < 0 ||
	     !word_of(cs, strlen(cs)) || strcmp(cs, c->d.clocksource) != 0) &&
	    !cwhy[0])
		snprintf(cwhy, sizeof(cwhy), "/sys/devices/system/clocksource/clocksource0/current_clocksource: not a clocksource name");
	sys_read_file(c->root, "/sys/devices/system/clocksource/clocksource0/available_clocksource",
		      avail, sizeof(avail));
	for (i = 0; i < sizeof(slow) / sizeof(slow[0]); i++)
		if (!strcmp(c->d.clocksource, slow[i]))
			is_slow = true;
	if (strstr(avail, "tsc"))
		snprintf(better, sizeof(better), "tsc");
	else if (strstr(avail, "arch_sys_counter"))
		snprintf(better, sizeof(better), "arch_sys_counter");
	if (cwhy[0]) {
		found(it, CHECK_NA, "%s", cwhy);
	} else if (!c->d.clocksource[0]) {
		char why[300];

		if (read_why(c, "/sys/devices/system/clocksource/clocksource0/current_clocksource",
			     cs, sizeof(cs), why, sizeof(why)) >= 0)
			found(it, CHECK_NA, "/sys/devices/system/clocksource/clocksource0/current_clocksource is empty");
		else if (why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_NA, "no current_clocksource in sysfs");
	} else if (is_slow) {
		found(it, CHECK_BAD, "%s (available: %s): every clock read goes to a slow device, "
		      "a microsecond or more", c->d.clocksource, avail[0] ? avail : "n/a");
		if (better[0])
			fix(it, "echo %s > /sys/devices/system/clocksource/clocksource0/current_clocksource "
			    "(boot: clocksource=%s); if the kernel marked it unstable (dmesg | grep -i clocksource), "
			    "find out why first", better, better);
		else
			fix(it, "a kernel or board with a CPU-local clocksource (TSC, arch timer, timebase)");
	} else {
		found(it, CHECK_OK, "%s (available: %s)", c->d.clocksource, avail[0] ? avail : "n/a");
	}

	cost = add(r, "clock_read", "cost of one clock read");
	r->clock_read_ns = -1;
	if (!c->self) {
		found(cost, CHECK_NA, "not measured: --root %s is not this system", c->root);
		return;
	}
	{
		char msg[256];
		int64_t adv;

		/* a clock that does not advance (or returns garbage) reads
		 * cheaply: its cost is no verdict */
		if (clock_verify(CLOCK_MONOTONIC, &adv, msg, sizeof(msg)) < 0) {
			found(cost, CHECK_BAD, "clock fault: %s: no latency measured with it can be trusted",
			      msg);
			fix(cost, "find why the clock is wrong (dmesg | grep -i clocksource; an LD_PRELOAD or a virtualisation layer that fakes clock_gettime)");
			return;
		}
	}
	r->clock_read_ns = clock_read_cost();
	if (r->clock_read_ns < 0) {
		found(cost, CHECK_NA, "not measured (out of memory)");
		return;
	}
	found(cost, r->clock_read_ns <= 200 ? CHECK_OK :
		    r->clock_read_ns <= 1000 ? CHECK_WARN : CHECK_BAD,
	      "clock_gettime(CLOCK_MONOTONIC) %" PRId64 " ns (median of 20001 back-to-back reads, clocksource %s)",
	      r->clock_read_ns, c->d.clocksource[0] ? c->d.clocksource : "n/a");
	if (cost->verdict != CHECK_OK)
		fix(cost, "every timestamp of a test costs this much: a clocksource the vDSO reads in "
		    "user space (tsc, arch_sys_counter) costs tens of ns%s%s", better[0] ? "; echo " : "",
		    better[0] ? better : "");
	if (cost->verdict != CHECK_OK && better[0])
		appendf(cost->fix, sizeof(cost->fix),
			" > /sys/devices/system/clocksource/clocksource0/current_clocksource");
}

/* --- memory ---------------------------------------------------------- */

static void check_thp(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "thp", "transparent huge pages");
	char buf[128], defrag[128] = "", mode[32], dmode[32] = "";
	char why[300], dwhy[300];
	char *o, *e;

	if (read_why(c, "/sys/kernel/mm/transparent_hugepage/enabled", buf,
		     sizeof(buf), why, sizeof(why)) <= 0) {
		if (why[0])
			found(it, CHECK_NA, "%s", why);
		else
			found(it, CHECK_NA, "no transparent huge pages");
		return;
	}
	o = strchr(buf, '[');
	e = o ? strchr(o, ']') : NULL;
	if (!o || !e || !thp_format(buf)) {
		/* the kernel brackets the mode in force: "always [madvise]
		 * never"; without it there is no mode to judge */
		found(it, CHECK_NA, "/sys/kernel/mm/transparent_hugepage/enabled: not in the kernel's format (the mode in force in [brackets])");
		return;
	}
	snprintf(mode, sizeof(mode), "%.*s", (int)(e - o - 1), o + 1);
	if (strcmp(mode, "always") != 0 && strcmp(mode, "madvise") != 0 &&
	    strcmp(mode, "never") != 0 && strcmp(mode, "inherit") != 0) {
		found(it, CHECK_NA, "/sys/kernel/mm/transparent_hugepage/enabled: not in the kernel's format (mode %s: always, madvise, never or inherit)",
		      mode);
		return;
	}
	if (read_why(c, "/sys/kernel/mm/transparent_hugepage/defrag", defrag,
		     sizeof(defrag), dwhy, sizeof(dwhy)) > 0 &&
	    (o = strchr(defrag, '[')) && (e = strchr(o, ']')))
		snprintf(dmode, sizeof(dmode), "%.*s", (int)(e - o - 1), o + 1);
	if (!strcmp(mode, "always")) {
		found(it, CHECK_WARN, "always (defrag %s): page faults may compact memory, "
		      "khugepaged collapses pages behind the tasks' back", dmode[0] ? dmode : "n/a");
		fix(it, "echo madvise > /sys/kernel/mm/transparent_hugepage/enabled "
		    "(or never; boot: transparent_hugepage=never)");
	} else {
		found(it, CHECK_OK, "%s (defrag %s)", mode, dmode[0] ? dmode : "n/a");
	}
	also(it, dwhy);
}

/* A swap area's line of /proc/swaps as the kernel writes it ("NAME TYPE
 * SIZE USED PRIORITY", sizes in KiB): its size into *@kb. */
static bool swap_area(const char *l, long long *kb)
{
	char name[256], type[32], size[32], used[32], prio[32], *end;
	int k = 0;

	const char *p;
	long long u;

	if (sscanf(l, "%255s %31s %31s %31s %31s%n", name, type, size, used,
		   prio, &k) != 5 || l[k + (int)strspn(l + k, " \t")] ||
	    (strcmp(type, "partition") != 0 && strcmp(type, "file") != 0) ||
	    !isdigit((unsigned char)size[0]) || !isdigit((unsigned char)used[0]))
		return false;
	p = prio + (prio[0] == '-');
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return false;
	errno = 0;
	*kb = strtoll(size, &end, 10);
	if (*end || errno)
		return false;
	u = strtoll(used, &end, 10);
	return !*end && !errno && u <= *kb;
}

static void check_swap(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "swap", "swap");
	char buf[4096], *l, *save = NULL, why[256], size[32];
	long long kb = 0, v;
	int n = 0, lines = 0;

	if (read_why(c, "/proc/swaps", buf, sizeof(buf), why, sizeof(why)) < 0) {
		found(it, CHECK_NA, "%s", why[0] ? why :
		      "/proc/swaps cannot be read: not there");
		return;
	}
	/* the kernel's: a "Filename Type Size Used Priority" header (always
	 * there), then a line per area */
	for (l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!lines++) {
			char w[5][16];
			int k = 0;

			if (sscanf(l, "%15s %15s %15s %15s %15s%n", w[0], w[1],
				   w[2], w[3], w[4], &k) != 5 || l[k] ||
			    strcmp(w[0], "Filename") != 0 ||
			    strcmp(w[1], "Type") != 0 || strcmp(w[2], "Size") != 0 ||
			    strcmp(w[3], "Used") != 0 ||
			    strcmp(w[4], "Priority") != 0)
				break;
			continue;
		}
		if (!swap_area(l, &v))
			break;
		n++;
		/* saturated: a sum past the limit stays at it */
		kb = v > LLONG_MAX - kb ? LLONG_MAX : kb + v;
	}
	if (l || !lines) {
		found(it, CHECK_NA, "/proc/swaps: %s is not as the kernel writes it",
		      lines <= 1 ? "the header" : "a swap area's line");
		return;
	}
	if (!n) {
		found(it, CHECK_OK, "no swap");
		return;
	}
	fmt_bytes(size, sys_scale(kb, 10));
	found(it, CHECK_WARN, "%d swap area%s, %s: memory that is not locked can be paged out",
	      n, n == 1 ? "" : "s", size);
	fix(it, "rtlat locks its memory (mlockall); a real-time application must too, "
	    "or swapoff -a");
}

/* --- kernel build ---------------------------------------------------- */

static const struct {
	const char *name;
	enum check_verdict v;
} debug_opts[] = {
	{ "CONFIG_LOCKDEP", CHECK_BAD },
	{ "CONFIG_PROVE_LOCKING", CHECK_BAD },
	{ "CONFIG_DEBUG_LOCK_ALLOC", CHECK_BAD },
	{ "CONFIG_LOCK_STAT", CHECK_BAD },
	{ "CONFIG_KASAN", CHECK_BAD },
	{ "CONFIG_KCSAN", CHECK_BAD },
	{ "CONFIG_KMSAN", CHECK_BAD },
	{ "CONFIG_DEBUG_PAGEALLOC_ENABLE_DEFAULT", CHECK_BAD },
	{ "CONFIG_DEBUG_PREEMPT", CHECK_WARN },
	{ "CONFIG_DEBUG_ATOMIC_SLEEP", CHECK_WARN },
	{ "CONFIG_DEBUG_SPINLOCK", CHECK_WARN },
	{ "CONFIG_DEBUG_MUTEXES", CHECK_WARN },
	{ "CONFIG_DEBUG_RT_MUTEXES", CHECK_WARN },
	{ "CONFIG_DEBUG_OBJECTS", CHECK_WARN },
	{ "CONFIG_DEBUG_KMEMLEAK", CHECK_WARN },
	{ "CONFIG_SLUB_DEBUG_ON", CHECK_WARN },
	{ "CONFIG_DEBUG_VM", CHECK_WARN },
	{ "CONFIG_PREEMPT_TRACER", CHECK_WARN },
	{ "CONFIG_IRQSOFF_TRACER", CHECK_WARN },
};

static void check_debug(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "debug_config", "debug options of the kernel");
	char from[64], why[512], val[64];
	char *text = kconfig_read(c->root, c->d.release, from, sizeof(from), why,
				  sizeof(why));
	size_t i, n = sizeof(debug_opts) / sizeof(debug_opts[0]);
	int set = 0;

	if (!text) {
		char boot[300], pb[PATH_MAX], pz[PATH_MAX];
		struct stat st;
		const char *rel = c->d.release[0] ? c->d.release : "RELEASE";

		found(it, CHECK_NA, "the kernel configuration cannot be read (%s)", why);
		snprintf(boot, sizeof(boot), "/boot/config-%s", rel);
		sys_path(pb, sizeof(pb), c->root, boot);
		sys_path(pz, sizeof(pz), c->root, "/proc/config.gz");
		if (lstat(pb, &st) == 0 || lstat(pz, &st) == 0)
			/* there, but damaged or not readable: not to put one */
			fix(it, "to check it: a readable, intact %s (or /proc/config.gz)",
			    boot);
		else
			fix(it, "to check it: a kernel with CONFIG_IKCONFIG_PROC=y, or its config in %s",
			    boot);
		return;
	}
	it->verdict = CHECK_OK;
	for (i = 0; i < n; i++) {
		if (!kconfig_value(text, debug_opts[i].name, val, sizeof(val)) ||
		    !strcmp(val, "n"))
			continue;
		appendf(it->found, sizeof(it->found), "%s%s=%s", set++ ? ", " : "",
			debug_opts[i].name + 7, val);
		if (debug_opts[i].v > it->verdict)
			it->verdict = debug_opts[i].v;
	}
	free(text);
	if (!set) {
		found(it, CHECK_OK, "none of the %zu debug options checked is set (%s)", n, from);
		also(it, why);	/* /proc/config.gz there but of no use */
		return;
	}
	appendf(it->found, sizeof(it->found), " (%s)", from);
	also(it, why);
	fix(it, "a kernel built without them: lock debugging (LOCKDEP, PROVE_LOCKING) keeps "
	    "interrupts off for hundreds of us, the sanitizers (KASAN, KCSAN) slow every "
	    "access, the others add checks to every lock and preemption point");
}

/* Whether tracer @name is in @list ("timerlat osnoise nop", as
 * available_tracers has it). */
static bool tracer_listed(const char *list, const char *name)
{
	size_t k = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += k)
		if ((p == list || p[-1] == ' ') && (!p[k] || p[k] == ' ' ||
						     p[k] == '\n'))
			return true;
	return false;
}

/*
 * The latency tracers, from tracefs's available_tracers; when tracefs is
 * not mounted or cannot be read, from the kernel configuration (the
 * verdict is the kernel's, not the mount's).
 */
static void check_tracers(struct ctx *c, struct check_report *r)
{
	static const char *const want[] = { "timerlat", "osnoise", "hwlat" };
	static const char *const opt[] = { "CONFIG_TIMERLAT_TRACER",
		"CONFIG_OSNOISE_TRACER", "CONFIG_HWLAT_TRACER" };
	struct check_item *it = add(r, "tracers", "latency tracers");
	char buf[1024], miss[64] = "", have[64] = "", why[300], why2[300];
	char from[64], kwhy[512], val[16], nowhere[700] = "";
	char *text = NULL;
	size_t i;

	if (read_why(c, "/sys/kernel/tracing/available_tracers", buf,
		     sizeof(buf), why, sizeof(why)) < 0 &&
	    read_why(c, "/sys/kernel/debug/tracing/available_tracers", buf,
		     sizeof(buf), why2, sizeof(why2)) < 0) {
		snprintf(nowhere, sizeof(nowhere), "%s",
			 why[0] ? why : why2[0] ? why2 :
			 "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
		text = kconfig_read(c->root, c->d.release, from, sizeof(from),
				    kwhy, sizeof(kwhy));
		if (!text) {
			found(it, CHECK_NA, "%s; the kernel configuration cannot be read either (%s)",
			      nowhere, kwhy);
			return;
		}
	}
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool in = text ? kconfig_value(text, opt[i], val, sizeof(val)) &&
				 !strcmp(val, "y") :
			  tracer_listed(buf, want[i]);

		appendf(in ? have : miss, 64, "%s%s", (in ? have : miss)[0] ? " " : "", want[i]);
	}
	free(text);
	if (!miss[0])
		found(it, CHECK_OK, "%s (rtlat --trace=timerlat, the reference of rtlat noise --mode hwlat, rtla)", have);
	else if (nowhere[0])
		found(it, CHECK_WARN, "missing: %s (built in: %s)", miss,
		      have[0] ? have : "none");
	else
		found(it, CHECK_WARN, "missing: %s (available: %s)", miss,
		      buf[0] ? buf : "none");
	if (nowhere[0])
		appendf(it->found, sizeof(it->found), "; from the kernel configuration (%s): %s",
			from, nowhere);
	if (miss[0])
		fix(it, "to see where latency comes from (rtlat --trace=timerlat, rtlat noise --mode hwlat's reference, rtla timerlat, osnoise, hwlat): "
		    "a kernel with CONFIG_TIMERLAT_TRACER, CONFIG_OSNOISE_TRACER, CONFIG_HWLAT_TRACER "
		    "(Debian: the -rt flavour has them)");
}

/* tracefs instances rtlat-PID (rtlat-WHAT-PID) of rtlat runs that are
 * gone (killed with SIGKILL): tracing on, events enabled, their buffers
 * allocated, until removed. This system only (a process's liveness: no
 * item for --root). */
static void check_trace_instances(struct ctx *c, struct check_report *r)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
		"/sys/kernel/debug/tracing" };
	struct check_item *it = add(r, "trace_instances",
				    "stale rtlat trace instances");
	char names[400], all[420] = "", inst[64];
	const char *where = NULL;
	struct stat st;
	size_t i;
	int n = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !n; i++) {
		snprintf(inst, sizeof(inst), "%s/instances", dirs[i]);
		if (stat(inst, &st) != 0)
			continue;
		if (!where)
			where = dirs[i];
		n = tracefs_list_stale(dirs[i], names, sizeof(names));
		if (n) {
			where = dirs[i];
			snprintf(all, sizeof(all), "%s", names);
		}
	}
	if (!where) {
		found(it, CHECK_NA, "tracefs is not mounted: no instance");
		return;
	}
	if (!n) {
		found(it, CHECK_OK, "none in %s/instances", where);
		return;
	}
	found(it, CHECK_WARN, "%d in %s/instances of rtlat runs that are gone (killed): %s; each may trace with its events enabled and holds its buffers",
	      n, where, all);
	fix(it, "the next rtlat --trace run removes them (and says so); or by hand: rmdir %s/instances/NAME",
	    where);
}

static void check_cokernel(struct ctx *c, struct check_report *r)
{
	struct check_item *it = add(r, "cokernel", "co-kernel");
	const struct sysdesc *d = &c->d;
	char fl[SYS_STR];

	if (!d->xenomai[0] && !d->evl[0] && !d->ipipe[0] && !d->rtai && !d->dovetail) {
		found(it, CHECK_NA, "none (no Xenomai, I-pipe, EVL/Dovetail, RTAI)");
		return;
	}
	found(it, CHECK_OK, "%s", sysdesc_flavour(d, fl, sizeof(fl)));
}

/* --- report ---------------------------------------------------------- */

/* The code point of the UTF-8 sequence at @s and its length in *@len;
 * -1 (*@len 1) when it is not one (a stray or overlong byte, a surrogate,
 * beyond U+10FFFF). */
static long utf8_at(const unsigned char *s, size_t *len)
{
	static const long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n, i;
	long cp;

	*len = 1;
	if (s[0] < 0x80)
		return s[0];
	n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? (s[0] < 0xf0 ? 3 : 0) :
	    s[0] >= 0xc2 ? 2 : 0;
	if (!n)
		return -1;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

void syscheck_printable(char *s)
{
	const unsigned char *r = (const unsigned char *)s;
	char *w = s;

	while (*r) {
		size_t n;
		long cp = utf8_at(r, &n);

		/* C0 and C1 controls, DEL, the line and paragraph separators,
		 * the bidirectional overrides and isolates, a stray byte */
		if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ||
		    (cp >= 0x200e && cp <= 0x200f) ||
		    (cp >= 0x2028 && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069)) {
			*w++ = '?';
		} else {
			memmove(w, r, n);
			w += n;
		}
		r += n;
	}
	*w = '\0';
}

enum check_verdict syscheck_run(struct check_report *r, const char *root,
				int64_t interval_ns)
{
	struct ctx *c = malloc(sizeof(*c));
	int i;

	memset(r, 0, sizeof(*r));
	r->interval_ns = interval_ns;
	r->clock_read_ns = -1;
	if (!c) {
		found(add(r, "memory", "memory"), CHECK_NA, "out of memory");
		return CHECK_NA;
	}
	ctx_init(c, root && root[0] ? root : "/");
	check_preempt(c, r);
	check_rt_throttling(c, r);
	check_cpufreq(c, r);
	check_cpuidle(c, r);
	check_isolation(c, r);
	check_isolated_irqs(c, r);
	check_smt(c, r);
	check_irq_affinity(c, r);
	check_clock(c, r);
	check_thp(c, r);
	check_swap(c, r);
	check_timer_migration(c, r);
	check_rt_group(c, r);
	check_debug(c, r);
	check_tracers(c, r);
	if (c->self)
		check_trace_instances(c, r);
	check_cokernel(c, r);
	free(c);
	for (i = 0; i < r->n; i++) {
		syscheck_printable(r->item[i].found);
		syscheck_printable(r->item[i].fix);
	}
	return syscheck_worst(r);
}

enum check_verdict syscheck_worst(const struct check_report *r)
{
	enum check_verdict w = CHECK_NA;
	int i;

	for (i = 0; i < r->n; i++)
		if (r->item[i].verdict > w)
			w = r->item[i].verdict;
	return w;
}

const char *check_verdict_name(enum check_verdict v)
{
	switch (v) {
	case CHECK_OK: return "ok";
	case CHECK_WARN: return "warning";
	case CHECK_BAD: return "bad";
	default: return "n/a";
	}
}

/* Print @s from column @col, wrapped at 100 columns, continuation lines
 * indented to @col. */
static void print_wrapped(FILE *f, const char *s, int col, int first)
{
	int at = first, w;

	while (*s) {
		w = (int)strcspn(s, " ");
		if (at > col && at + w > 100) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		}
		fprintf(f, "%.*s", w, s);
		at += w;
		s += w;
		if (*s == ' ') {
			s++;
			if (*s && at + 1 + (int)strcspn(s, " ") <= 100) {
				fputc(' ', f);
				at++;
			} else if (*s) {
				fprintf(f, "\n%*s", col, "");
				at = col;
			}
		}
	}
	fputc('\n', f);
}

static void count_verdicts(const struct check_report *r, int cnt[4])
{
	int i;

	memset(cnt, 0, 4 * sizeof(*cnt));
	for (i = 0; i < r->n; i++)
		cnt[r->item[i].verdict]++;
}

char *syscheck_counts(const struct check_report *r, char *buf, size_t len)
{
	int cnt[4];

	count_verdicts(r, cnt);
	snprintf(buf, len, "%d bad, %d warning%s, %d ok, %d n/a",
		 cnt[CHECK_BAD], cnt[CHECK_WARN], cnt[CHECK_WARN] == 1 ? "" : "s",
		 cnt[CHECK_OK], cnt[CHECK_NA]);
	return buf;
}

void syscheck_print(const struct check_report *r, FILE *f)
{
	char counts[96];
	int i;

	for (i = 0; i < r->n; i++) {
		const struct check_item *it = &r->item[i];

		fprintf(f, "%-16s %-8s ", it->id, check_verdict_name(it->verdict));
		print_wrapped(f, it->found, 26, 26);
		if (it->fix[0]) {
			fprintf(f, "%26sfix: ", "");
			print_wrapped(f, it->fix, 31, 31);
		}
	}
	fprintf(f, "# %s\n", syscheck_counts(r, counts, sizeof(counts)));
}

/* "counts": items per verdict. */
static void json_counts(const struct check_report *r, struct jw *w)
{
	int cnt[4];

	count_verdicts(r, cnt);
	jw_obj_begin(w, "counts");
	jw_int(w, "bad", cnt[CHECK_BAD]);
	jw_int(w, "warning", cnt[CHECK_WARN]);
	jw_int(w, "ok", cnt[CHECK_OK]);
	jw_int(w, "n/a", cnt[CHECK_NA]);
	jw_obj_end(w);
}

/* "items": @full adds the title and the fix to id, verdict, found. */
static void json_items(const struct check_report *r, struct jw *w, bool full)
{
	int i;

	jw_arr_begin(w, "items");
	for (i = 0; i < r->n; i++) {
		const struct check_item *it = &r->item[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "id", it->id);
		if (full)
			jw_str(w, "title", it->title);
		jw_str(w, "verdict", check_verdict_name(it->verdict));
		jw_str(w, "found", it->found);
		if (full)
			jw_str(w, "fix", it->fix[0] ? it->fix : NULL);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

void syscheck_json(const struct check_report *r, struct jw *w)
{
	jw_str(w, "worst", check_verdict_name(syscheck_worst(r)));
	jw_int(w, "interval_ns", r->interval_ns);
	if (r->clock_read_ns >= 0)
		jw_int(w, "clock_read_ns", r->clock_read_ns);
	else
		jw_null(w, "clock_read_ns");
	json_items(r, w, true);
	json_counts(r, w);
}

void syscheck_json_compact(const struct check_report *r, struct jw *w)
{
	jw_str(w, "worst", check_verdict_name(syscheck_worst(r)));
	json_counts(r, w);
	json_items(r, w, false);
}

void syscheck_print_compact(const struct check_report *r, FILE *f,
			    const char *indent)
{
	int i;

	for (i = 0; i < r->n; i++)
		fprintf(f, "%s%-16s %-8s %s\n", indent, r->item[i].id,
			check_verdict_name(r->item[i].verdict),
			r->item[i].found);
}
