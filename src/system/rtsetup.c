// SPDX-License-Identifier: GPL-2.0-or-later
/* Real-time set-up; see rtsetup.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "system/rtsetup.h"
#include "system/sysinfo.h"

int policy_parse(const char *s, int *policy)
{
	if (!strcmp(s, "fifo") || !strcmp(s, "SCHED_FIFO"))
		*policy = SCHED_FIFO;
	else if (!strcmp(s, "rr") || !strcmp(s, "SCHED_RR"))
		*policy = SCHED_RR;
	else if (!strcmp(s, "other") || !strcmp(s, "normal") ||
		 !strcmp(s, "SCHED_OTHER"))
		*policy = SCHED_OTHER;
	else
		return -EINVAL;
	return 0;
}

const char *policy_name(int policy)
{
	switch (policy) {
	case SCHED_FIFO: return "fifo";
	case SCHED_RR: return "rr";
	case SCHED_OTHER: return "other";
#ifdef SCHED_BATCH
	case SCHED_BATCH: return "batch";
#endif
#ifdef SCHED_IDLE
	case SCHED_IDLE: return "idle";
#endif
	default: return "unknown";
	}
}

int cpus_online(struct cpuset *set)
{
	char buf[4096], err[128];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	long n, c;

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			fclose(f);
			if (cpulist_parse(buf, set, err, sizeof(err)) == 0)
				return 0;
		} else {
			fclose(f);
		}
	}
	cpuset_zero(set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	for (c = 0; c < n && c < RTLAT_MAX_CPUS; c++)
		cpuset_set(set, (int)c);
	return 0;
}

int cpus_allowed(struct cpuset *set)
{
	return thread_cpus_allowed(0, set);
}

int thread_cpus_allowed(pid_t tid, struct cpuset *set)
{
	cpu_set_t cs;
	int c;

	cpuset_zero(set);
	CPU_ZERO(&cs);
	if (sched_getaffinity(tid, sizeof(cs), &cs) < 0)
		return -errno;
	for (c = 0; c < CPU_SETSIZE && c < RTLAT_MAX_CPUS; c++)
		if (CPU_ISSET(c, &cs))
			cpuset_set(set, c);
	return 0;
}

int cpus_check(const struct cpuset *req, char *err, size_t errlen)
{
	struct cpuset on, al, usable;
	char ubuf[256];
	int c;

	cpus_online(&on);
	if (cpus_allowed(&al) < 0)
		al = on;
	cpuset_zero(&usable);
	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(&on, c) && cpuset_isset(&al, c))
			cpuset_set(&usable, c);
	cpulist_format(&usable, ubuf, sizeof(ubuf));
	if (cpuset_count(req) == 0) {
		snprintf(err, errlen, "empty CPU list; usable CPUs: %s", ubuf);
		return -EINVAL;
	}
	for (c = 0; c < RTLAT_MAX_CPUS; c++) {
		if (!cpuset_isset(req, c))
			continue;
		if (!cpuset_isset(&on, c)) {
			snprintf(err, errlen,
				 "CPU %d is offline or not present; usable CPUs: %s",
				 c, ubuf);
			return -EINVAL;
		}
		if (!cpuset_isset(&al, c)) {
			snprintf(err, errlen,
				 "CPU %d is not in this process's allowed CPUs (taskset, cpuset cgroup); usable CPUs: %s",
				 c, ubuf);
			return -EINVAL;
		}
	}
	return 0;
}

int sched_check_range(int policy, int prio, char *err, size_t errlen)
{
	int lo = sched_get_priority_min(policy);
	int hi = sched_get_priority_max(policy);

	if (prio < lo || prio > hi) {
		snprintf(err, errlen,
			 "priority %d out of range for policy %s (%d..%d)",
			 prio, policy_name(policy), lo, hi);
		return -EINVAL;
	}
	return 0;
}

static void rlim_str(int resource, char *buf, size_t len, bool bytes)
{
	struct rlimit rl;
	char s[32], h[32];

	if (getrlimit(resource, &rl) < 0) {
		snprintf(buf, len, "unknown");
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		snprintf(s, sizeof(s), "unlimited");
	else if (bytes)
		snprintf(s, sizeof(s), "%llu KiB",
			 (unsigned long long)rl.rlim_cur / 1024);
	else
		snprintf(s, sizeof(s), "%llu", (unsigned long long)rl.rlim_cur);
	if (rl.rlim_max == RLIM_INFINITY)
		snprintf(h, sizeof(h), "unlimited");
	else if (bytes)
		snprintf(h, sizeof(h), "%llu KiB",
			 (unsigned long long)rl.rlim_max / 1024);
	else
		snprintf(h, sizeof(h), "%llu", (unsigned long long)rl.rlim_max);
	snprintf(buf, len, "%s (soft) / %s (hard)", s, h);
}

/* @path below @root opened to be read line by line (sys_fopen()); NULL
 * with @why set when it exists but cannot be read, empty when it does
 * not exist. */
static FILE *open_why(const char *root, const char *path, char *why,
		      size_t wlen)
{
	FILE *f = sys_fopen(root, path, NULL);
	char r[128];

	why[0] = '\0';
	if (!f && errno != ENOENT)
		snprintf(why, wlen, "%s cannot be read: %s", path,
			 sys_read_why(root, path, errno, r, sizeof(r)));
	return f;
}

/* The next line of @f into *@line (getline(); its newline taken off),
 * *@pos the offset in the file of the line after it: its length, -1 at
 * the end, or -2 with @why set when it holds a NUL (none of the kernel's
 * lines do: a damaged copy, whose cut line would be taken for the
 * whole). */
static ssize_t line_why(FILE *f, char **line, size_t *cap, long *pos,
			const char *path, char *why, size_t wlen)
{
	ssize_t n = getline(line, cap, f);
	size_t m;

	if (n < 0)
		return -1;
	m = strlen(*line);
	if (m < (size_t)n) {
		snprintf(why, wlen, "%s cannot be read: not text (a NUL byte at offset %ld)",
			 path, *pos + (long)m);
		return -2;
	}
	*pos += n;
	if (n && (*line)[n - 1] == '\n')
		(*line)[--n] = '\0';
	return n;
}

/* Whether @p is a path as the kernel writes a cgroup's or a mount
 * point's: absolute, with no empty, "." or ".." component (cgroup names
 * cannot be "." or ".."). A damaged copy given with --root could
 * otherwise lead a reader out of the root. */
static bool kernel_path(const char *p)
{
	const char *c;

	if (p[0] != '/')
		return false;
	if (!strcmp(p, "/"))
		return true;
	for (c = p; *c; ) {
		size_t n;

		c++;	/* the '/' */
		n = strcspn(c, "/");
		if (!n || (n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		c += n;
	}
	return true;
}

/* Path of this process in the cgroup v1 hierarchy of the "cpu"
 * controller (/proc/self/cgroup: "N:cpu,cpuacct:/path"), into @path;
 * -1 when there is none (cgroup v2 only: @why empty) or the file cannot
 * be read or is not as the kernel writes it (@why says which). */
static int cpu_cgroup_path(const char *root, char *path, size_t len,
			   char *why, size_t wlen)
{
	static const char file[] = "/proc/self/cgroup";
	char *line = NULL;
	size_t cap = 0;
	long pos = 0;
	FILE *f = open_why(root, file, why, wlen);
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 &&
	       line_why(f, &line, &cap, &pos, file, why, wlen) >= 0) {
		char *ctl = strchr(line, ':'), *p, *tok, *save;

		if (!ctl || !(p = strchr(++ctl, ':')))
			continue;
		*p++ = '\0';
		for (tok = strtok_r(ctl, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "cpu")) {
				found = 0;
				break;
			}
		if (found < 0)
			continue;
		if (!kernel_path(p) || strlen(p) >= len) {
			snprintf(why, wlen, "%s: the cpu controller's cgroup path is not as the kernel writes one",
				 file);
			found = -1;
			break;
		}
		snprintf(path, len, "%s", p);
	}
	free(line);
	fclose(f);
	return found;
}

/* Mount point of the cgroup v1 "cpu" controller (/proc/self/mountinfo:
 * fs type cgroup with "cpu" among its super options), into @mnt, and the
 * cgroup mounted there (its 4th field: "/" but in a container) into
 * @mroot (as long as @mnt); -1 as cpu_cgroup_path() says. */
static int cpu_cgroup_mount(const char *root, char *mnt, char *mroot,
			    size_t len, char *why, size_t wlen)
{
	static const char file[] = "/proc/self/mountinfo";
	char *line = NULL;
	size_t cap = 0;
	long pos = 0;
	FILE *f = open_why(root, file, why, wlen);
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 &&
	       line_why(f, &line, &cap, &pos, file, why, wlen) >= 0) {
		/* twice the longest taken: a longer one is cut, and refused
		 * by its length below, never taken for a shorter one */
		char point[1024], top[1024], *sep = strstr(line, " - ");
		char type[32], src[256], opts[512], *tok, *save;

		if (!sep ||
		    sscanf(line, "%*s %*s %*s %1023s %1023s", top, point) != 2 ||
		    sscanf(sep + 3, "%31s %255s %511s", type, src, opts) != 3 ||
		    strcmp(type, "cgroup") != 0)
			continue;
		for (tok = strtok_r(opts, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save))
			if (!strcmp(tok, "cpu")) {
				found = 0;
				break;
			}
		if (found < 0)
			continue;
		if (!kernel_path(point) || strlen(point) >= len ||
		    !kernel_path(top) || strlen(top) >= len) {
			snprintf(why, wlen, "%s: the cpu controller's mount point is not as the kernel writes one",
				 file);
			found = -1;
			break;
		}
		snprintf(mnt, len, "%s", point);
		snprintf(mroot, len, "%s", top);
	}
	free(line);
	fclose(f);
	return found;
}

int rt_cgroup_runtime_file(const char *root, char *cg, size_t cglen,
			   char *mnt, size_t mntlen, char *file, size_t filelen,
			   char *why, size_t wlen)
{
	char *top = malloc(mntlen);
	const char *rel;
	size_t n;
	int r = -1;

	if (!top) {
		snprintf(why, wlen, "out of memory");
		return -1;
	}
	if (cpu_cgroup_path(root, cg, cglen, why, wlen) < 0 ||
	    cpu_cgroup_mount(root, mnt, top, mntlen, why, wlen) < 0)
		goto out;
	/* the cgroup's directory below the mount of the cgroup @top (a
	 * container's: its own cgroup, not the hierarchy's root) */
	n = strcmp(top, "/") ? strlen(top) : 0;
	if (strncmp(cg, top, n) != 0 || (cg[n] && cg[n] != '/')) {
		snprintf(why, wlen, "the cgroup %s is not below the cgroup %s mounted at %s (/proc/self/mountinfo)",
			 cg, top, mnt);
		goto out;
	}
	rel = cg + n;
	snprintf(file, filelen, "%s%s/cpu.rt_runtime_us", mnt,
		 strcmp(rel, "/") ? rel : "");
	r = 0;
out:
	free(top);
	return r;
}

/* The first line of @path as a number; *@ok false when unreadable. */
static long long read_ll(const char *path, bool *ok)
{
	char buf[64], *end;
	long long v = 0;
	FILE *f = fopen(path, "r");

	*ok = false;
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		errno = 0;
		v = strtoll(buf, &end, 10);
		*ok = end != buf && errno == 0;
	}
	fclose(f);
	return v;
}

int rt_runtime_explain(char *msg, size_t len)
{
	char cg[512], mnt[512], file[1100], why[600];
	long long v;
	bool ok;

	v = read_ll("/proc/sys/kernel/sched_rt_runtime_us", &ok);
	if (ok && v == 0) {
		snprintf(msg, len,
			 "kernel.sched_rt_runtime_us is 0: real-time tasks get no CPU time; "
			 "give them some with: sysctl kernel.sched_rt_runtime_us=950000 (or -1: no limit)");
		return 1;
	}
	if (rt_cgroup_runtime_file("/", cg, sizeof(cg), mnt, sizeof(mnt), file,
				   sizeof(file), why, sizeof(why)) < 0)
		return 0;
	v = read_ll(file, &ok);
	if (!ok || v != 0)
		return 0;
	snprintf(msg, len,
		 "this process is in the cgroup %s, whose real-time runtime is 0 "
		 "(RT group scheduling: %s = 0): real-time tasks may not run there; "
		 "give the cgroup some (e.g. echo 950000 > %s, its parents' first), "
		 "or run rtlat in the root cgroup (echo $$ > %s/cgroup.procs)",
		 cg, file, file, mnt);
	return 1;
}

void sched_explain(int policy, int prio, int e, char *msg, size_t len)
{
	char rl[96];

	if ((e == EPERM || e == EACCES) && policy != SCHED_OTHER) {
		int n = snprintf(msg, len,
				 "not permitted to run a thread with policy %s priority %d: ",
				 policy_name(policy), prio);

		if (n > 0 && (size_t)n < len &&
		    rt_runtime_explain(msg + n, len - (size_t)n) > 0)
			return;
	}
	if (e == EPERM || e == EACCES) {
		rlim_str(RLIMIT_RTPRIO, rl, sizeof(rl), false);
		snprintf(msg, len,
			 "not permitted to run a thread with policy %s priority %d: "
			 "run as root, grant CAP_SYS_NICE (setcap cap_sys_nice+ep rtlat), "
			 "or raise RLIMIT_RTPRIO to at least %d (now %s; limits.conf 'rtprio')",
			 policy_name(policy), prio, prio, rl);
	} else {
		snprintf(msg, len,
			 "cannot run a thread with policy %s priority %d: %s",
			 policy_name(policy), prio, strerror(e));
	}
}

static void *probe_fn(void *arg)
{
	return arg;
}

int sched_probe(int policy, int prio, char *err, size_t errlen)
{
	pthread_attr_t attr;
	struct sched_param sp;
	pthread_t t;
	int r;

	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = prio;
	pthread_attr_init(&attr);
	/* a small stack: libc caches it, and mlockall() would lock a
	 * default (8 MiB) one in whole */
	pthread_attr_setstacksize(&attr, (size_t)32 * 1024);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, policy);
	pthread_attr_setschedparam(&attr, &sp);
	r = pthread_create(&t, &attr, probe_fn, NULL);
	pthread_attr_destroy(&attr);
	if (r) {
		sched_explain(policy, prio, r, err, errlen);
		return -r;
	}
	pthread_join(t, NULL);
	return 0;
}

int memory_lock(char *err, size_t errlen)
{
	char rl[96];
	int e;

#ifdef __GLIBC__
	/* Locked memory stays resident: no heap padding beyond what is
	 * allocated, no per-thread malloc arena (its first heap would be
	 * locked in whole), and what setup freed given back first. */
	mallopt(M_TOP_PAD, 0);
	mallopt(M_ARENA_MAX, 1);
	malloc_trim(0);
#endif
	if (mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
		return 0;
	e = errno;
	rlim_str(RLIMIT_MEMLOCK, rl, sizeof(rl), true);
	snprintf(err, errlen,
		 "mlockall failed: %s (errno %d); RLIMIT_MEMLOCK is %s: "
		 "run as root, raise it (ulimit -l, limits.conf 'memlock'), "
		 "or pass --no-mlock (page faults will then show as latency)",
		 strerror(e), e, rl);
	return -e;
}

int dma_latency_hold(char *note, size_t notelen)
{
	int32_t zero = 0;
	int fd, e;

	note[0] = '\0';
	fd = open("/dev/cpu_dma_latency", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT)
			snprintf(note, notelen,
				 "/dev/cpu_dma_latency does not exist: CPU idle states are not constrained");
		else
			snprintf(note, notelen,
				 "cannot open /dev/cpu_dma_latency (%s): CPU idle states are not constrained",
				 strerror(e));
		return -e;
	}
	if (write(fd, &zero, sizeof(zero)) != (ssize_t)sizeof(zero)) {
		e = errno;
		close(fd);
		snprintf(note, notelen,
			 "cannot write /dev/cpu_dma_latency (%s): CPU idle states are not constrained",
			 strerror(e));
		return -e;
	}
	return fd;
}

void rt_throttling_check(char *warn, size_t len)
{
	bool ok1, ok2;
	long long rt = read_ll("/proc/sys/kernel/sched_rt_runtime_us", &ok1);
	long long per = read_ll("/proc/sys/kernel/sched_rt_period_us", &ok2);

	char cg[512], mnt[512], file[1100], pfile[1100], why[600];
	long long cgrt, cgper;
	bool ok3, ok4;

	warn[0] = '\0';
	/* RT group scheduling: this process's cgroup may have less than the
	 * system's budget (0 is refused at start, see rt_runtime_explain()) */
	if (rt_cgroup_runtime_file("/", cg, sizeof(cg), mnt, sizeof(mnt),
				   file, sizeof(file), why, sizeof(why)) == 0 &&
	    strcmp(cg, "/") != 0) {
		snprintf(pfile, sizeof(pfile), "%.*s/cpu.rt_period_us",
			 (int)(strrchr(file, '/') - file), file);
		cgrt = read_ll(file, &ok3);
		cgper = read_ll(pfile, &ok4);
		if (ok3 && cgrt > 0 && ok4 && cgper > 0 &&
		    (!ok1 || rt < 0 || cgrt * (ok2 && per > 0 ? per : cgper) <
		     rt * cgper)) {
			snprintf(warn, len,
				 "RT throttling is active in this process's cgroup %s (RT group scheduling: %s = %lld of cpu.rt_period_us %lld): "
				 "its real-time tasks are stopped after %lld us per period, which can distort worst cases; "
				 "give it more (echo %lld > %s, its parents' first) or run rtlat in the root cgroup",
				 cg, file, cgrt, cgper, cgrt,
				 ok1 && rt > 0 ? rt : cgper, file);
			return;
		}
	}
	if (ok1 && rt >= 0)
		snprintf(warn, len,
			 "RT throttling is active (sched_rt_runtime_us=%lld of sched_rt_period_us=%lld): "
			 "real-time tasks are stopped after %lld us per period, which can distort worst cases; "
			 "disable with: echo -1 > /proc/sys/kernel/sched_rt_runtime_us",
			 rt, ok2 ? per : 0, rt);
}

void clock_res_check(clockid_t clock, long long *res_ns, char *warn,
		     size_t len)
{
	struct timespec res;

	warn[0] = '\0';
	*res_ns = 0;
	if (clock_getres(clock, &res) < 0)
		return;
	*res_ns = (long long)res.tv_sec * 1000000000LL + res.tv_nsec;
	if (*res_ns > 1000)
		snprintf(warn, len,
			 "clock resolution is %lld ns (no high-resolution timers, CONFIG_HIGH_RES_TIMERS?): "
			 "every figure is quantized to the tick and grows with the period",
			 *res_ns);
}

/* The signals whose default action ends the process, besides SIGINT,
 * SIGTERM, SIGHUP (taken as they are), SIGUSR1/2 (snapshots), SIGPIPE
 * (ignored: a write fails instead), SIGKILL, and those that report a
 * fault of the program itself (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
 * SIGTRAP, SIGSYS): a run that gets one ends as at SIGTERM. So do the
 * real-time signals but rtlat's own (SIGRTMIN + 1 .. + RTLAT_OWN_RTSIGS:
 * the stop kick, the posix wait's timer, the IPC signals), which a run
 * blocks or handles. */
static const int other_stops[] = {
	SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGXCPU, SIGXFSZ,
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

void stop_sigset(sigset_t *set)
{
	struct sigaction sa;
	size_t i;
	int sig;

	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	/* nohup: a hang-up ignored when rtlat started stays ignored (blocked,
	 * Linux would queue it for sigtimedwait and end the run); so does
	 * any other ignored when rtlat started */
	if (sigaction(SIGHUP, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN)
		sigaddset(set, SIGHUP);
	for (i = 0; i < sizeof(other_stops) / sizeof(other_stops[0]); i++)
		if (sigaction(other_stops[i], NULL, &sa) < 0 ||
		    sa.sa_handler != SIG_IGN)
			sigaddset(set, other_stops[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		if ((sig < SIGRTMIN + 1 || sig > SIGRTMIN + RTLAT_OWN_RTSIGS) &&
		    (sigaction(sig, NULL, &sa) < 0 || sa.sa_handler != SIG_IGN))
			sigaddset(set, sig);
}

bool is_stop_signal(int sig)
{
	sigset_t set;

	if (sig <= 0)
		return false;
	stop_sigset(&set);
	return sigismember(&set, sig) == 1;
}

void run_sigset(sigset_t *set)
{
	stop_sigset(set);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
}

int thread_pin(int cpu)
{
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs) < 0)
		return -errno;
	return 0;
}

void stack_prefault(size_t size)
{
	unsigned char buf[size];

	memset(buf, 0, size);
	/* keep the compiler from dropping the stores */
	__asm__ __volatile__("" : : "r"(buf) : "memory");
}
