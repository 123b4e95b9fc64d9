/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Xenomai 3 Cobalt build of rtlat (make XENO_CONFIG=..., see
 * docs/xenomai.md). Built so, the calls Cobalt wraps (pthread_create,
 * clock_nanosleep, clock_gettime, sem_*, mq_*, ...: Xenomai's
 * lib/cobalt/cobalt.wrappers) go to libcobalt from the measuring code and
 * to Linux from the rest, whose references the build renames to
 * __real_NAME. Code that must reach Linux from a measuring object (the
 * display thread, created in engine.c) says so with RTLAT_STD(), as
 * Xenomai's own __STD().
 */
#ifndef RTLAT_CORE_COBALT_H
#define RTLAT_CORE_COBALT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef RTLAT_COBALT
#define RTLAT_STD(fn) __real_##fn
/* the real calls, as ld --wrap names them (also declared by Xenomai's
 * headers, compatibly) */
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a,
			  void *(*fn)(void *), void *arg);
int __real_pthread_join(pthread_t t, void **ret);
#else
#define RTLAT_STD(fn) fn
#endif

/* Built against libcobalt? */
static inline bool cobalt_build(void)
{
#ifdef RTLAT_COBALT
	return true;
#else
	return false;
#endif
}

/*
 * "Xenomai/Cobalt 3.2.4": the Cobalt core's version from
 * ROOT/proc/xenomai/version, else the libcobalt version built against;
 * "" when this is not a Cobalt build. ROOT is $RTLAT_XENOMAI_ROOT, or /
 * (a test's stand-in tree, docs/xenomai.md).
 */
const char *cobalt_system(void);

/* A test's mode as the result and the header say it: @mode, followed in a
 * Cobalt build by " on Xenomai/Cobalt VERSION"; in @buf when changed. */
const char *cobalt_mode(const char *mode, char *buf, size_t len);

/*
 * The mode switches (primary to secondary mode, the MSW column) of the
 * Cobalt threads @tids, from the Cobalt core's thread statistics
 * ROOT/proc/xenomai/sched/stat (columns "CPU PID MSW CSW XSC PF STAT %CPU
 * NAME", PID the Linux thread id). Sets @msw[i] of each thread found, and
 * @found[i]. Returns how many were found, or -errno (-ENOENT: no Cobalt
 * core; -EINVAL: a file without the PID and MSW columns).
 */
int cobalt_msw(const pid_t *tids, int n, uint64_t *msw, bool *found);

#endif
