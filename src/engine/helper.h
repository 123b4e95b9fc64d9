/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of rtlat that a measuring process must not map (issue 15) are
 * separate programs of the same sources, run in place of rtlat by the
 * commands and options that need them:
 *
 *   rtlat-host   report, compare, db (cJSON, SQLite)
 *   rtlat-trace  a test with --trace (libtracefs, libtraceevent)
 *   rtlat-full   all of rtlat but the host side and the trace: what a
 *                latency or cyclic run never uses (the other tests, suite,
 *                load, sysinfo, check, selftest; a test's --load,
 *                --metrics, --lava, --junit, --kcidb) is there and not in rtlat (dynamic
 *                native builds; static and cross builds keep it in rtlat)
 *
 * "rtlat report ..." execs rtlat-host with the process's own command line:
 * same PID, same arguments, same standard streams. They are looked for
 * beside the running binary (the build tree; a copy of both), in
 * ../libexec/rtlat/ from it (an installed tree, wherever it was moved to)
 * and in the libexec directory of the prefix rtlat was built for.
 * The helper learns the path of the rtlat that ran it (helper_caller()):
 * a suite run in rtlat-host (--gate, --db) or in rtlat-full runs its
 * tests with that rtlat; a helper that runs another hands on that path.
 */
#ifndef RTLAT_HELPER_H
#define RTLAT_HELPER_H

#include <stddef.h>

/*
 * Compiled for rtlat itself in a build with rtlat-full (FULL_HELPER=1):
 * the parts rtlat-full holds (the tests a latency or cyclic run never
 * uses, suite, load, sysinfo, check, selftest, a test's loads, --metrics
 * and lab outputs) are compiled in as their entry only (a command's name and
 * summary, an option's table), which runs rtlat-full in rtlat's place;
 * rtlat-full and the other helpers have them whole.
 */
#if defined(RTLAT_FULL_HELPER) && !defined(HAVE_FULL)
#define IN_FULL_HELPER 1
#endif

/* Remember the process's command line (main(), before anything else). */
void helper_init(char **argv);

/*
 * Replace this process with helper @name ("rtlat-host"), given the command
 * line helper_init() saw. Returns only when no helper could be run: -1,
 * with a message in @err naming where it was looked for.
 */
int helper_exec(const char *name, char *err, size_t len);

/*
 * In rtlat built with rtlat-full (IN_FULL_HELPER): option --@opt ("load")
 * of a test, or the command (@opt NULL), is rtlat-full's; runs it in this
 * process's place, or returns -1 with the error reported.
 */
int helper_exec_full(const char *opt);

/* In a helper: the absolute path of the rtlat that ran it in its place;
 * NULL when it was started otherwise. */
const char *helper_caller(void);

#endif
