/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Real-time set-up of the process and its threads: memory locking,
 * scheduling policy and priority, CPU affinity, /dev/cpu_dma_latency, and
 * the checks that tell a user why a measurement would be wrong (RT
 * throttling, coarse clock). Every failure names its fix; see DESIGN.md.
 */
#ifndef RTLAT_RTSETUP_H
#define RTLAT_RTSETUP_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>
#include <stddef.h>
#include <time.h>

#include "system/cpulist.h"

/* rtlat's own real-time signals: SIGRTMIN + 1 (the engine's stop kick),
 * + 2 (the posix wait's timer), + 3 and + 4 (the IPC signal sides). */
#define RTLAT_OWN_RTSIGS 4

/* "fifo", "rr", "other" <-> SCHED_* */
int policy_parse(const char *s, int *policy);
const char *policy_name(int policy);

/* CPUs online (sysfs, else sysconf) and CPUs this process may use. */
int cpus_online(struct cpuset *set);
int cpus_allowed(struct cpuset *set);
/* The CPUs thread @tid (0: the caller) may run on. 0 or -errno. */
int thread_cpus_allowed(pid_t tid, struct cpuset *set);

/*
 * Check that every CPU in @req is online and allowed. On failure returns
 * -EINVAL with a message naming the CPU and listing the usable CPUs.
 */
int cpus_check(const struct cpuset *req, char *err, size_t errlen);

/* Check @prio is in range for @policy (1..99 for fifo/rr, 0 for other).
 * Returns 0 or -EINVAL with a message. */
int sched_check_range(int policy, int prio, char *err, size_t errlen);

/*
 * Probe that a thread may run with @policy/@prio, by starting one with those
 * attributes (never falls back silently). Returns 0, or -EPERM with a
 * message naming root, CAP_SYS_NICE and the current RLIMIT_RTPRIO.
 */
int sched_probe(int policy, int prio, char *err, size_t errlen);

/*
 * Why real-time scheduling is refused although the privilege is there:
 * kernel.sched_rt_runtime_us is 0, or this process's cgroup (cgroup v1
 * "cpu" controller, RT group scheduling) has cpu.rt_runtime_us 0. Writes
 * the cause and the fix into @msg and returns 1; 0 when neither holds.
 */
int rt_runtime_explain(char *msg, size_t len);

/*
 * The cgroup v1 "cpu" controller of this process below @root ("/" = this
 * system): its cgroup path (/proc/self/cgroup) into @cg, the controller's
 * mount point (/proc/self/mountinfo) into @mnt and the path of the
 * cgroup's cpu.rt_runtime_us into @file (paths as the system sees them,
 * not prefixed with @root). Returns 0, or -1: with @why empty when there
 * is no such controller (cgroup v2 only, or no such file); with @why
 * saying it when a file cannot be read or is not as the kernel writes it
 * (a NUL byte; a path that is not absolute or has an empty, "." or ".."
 * component: such a path is never followed, so that a damaged copy
 * cannot lead out of @root).
 */
int rt_cgroup_runtime_file(const char *root, char *cg, size_t cglen,
			   char *mnt, size_t mntlen, char *file, size_t filelen,
			   char *why, size_t wlen);

/* Message for pthread_create/sched_setscheduler failing with @err. */
void sched_explain(int policy, int prio, int e, char *msg, size_t len);

/* mlockall(MCL_CURRENT | MCL_FUTURE), with glibc's malloc told to keep
 * the locked heap small. Returns 0 or -errno with a message showing the
 * errno and RLIMIT_MEMLOCK. */
int memory_lock(char *err, size_t errlen);

/*
 * Hold /dev/cpu_dma_latency at 0 us while the returned fd stays open.
 * Returns the fd, or -errno (ENOENT when the device is missing) with a note.
 */
int dma_latency_hold(char *note, size_t notelen);

/* Warning text if RT throttling is active, else "". */
void rt_throttling_check(char *warn, size_t len);

/* Warning text if @clock's resolution is coarser than 1 us, else "".
 * Stores the resolution in *res_ns. */
void clock_res_check(clockid_t clock, long long *res_ns, char *warn,
		     size_t len);

/* Fill @set with the signals that end a run: SIGINT, SIGTERM, SIGHUP and
 * every other whose default action ends the process (SIGALRM, SIGVTALRM,
 * SIGPROF, SIGIO, SIGPWR, SIGXCPU, SIGXFSZ, SIGSTKFLT, SIGRTMIN and
 * SIGRTMIN+5 ..
 * SIGRTMAX), but SIGUSR1/2 (snapshots), SIGPIPE and the faults of the
 * program itself; not one ignored at the start (nohup). */
void stop_sigset(sigset_t *set);
/* Is @sig one of stop_sigset()'s? */
bool is_stop_signal(int sig);

/* The signals a measuring process takes itself: stop_sigset() and SIGUSR1,
 * SIGUSR2 (a snapshot of the figures so far; the run goes on). */
void run_sigset(sigset_t *set);

/* Pin the calling thread to @cpu (>= 0). Returns 0 or -errno. */
int thread_pin(int cpu);


/* Touch @size bytes of stack so that it is faulted in before sampling. */
void stack_prefault(size_t size);

#endif
