/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parts of rtlat that a measuring process must not map (issue 15) are
 * separate programs of the same sources, run in place of rtlat by the
 * commands and options that need them:
 *
 *   rtlat-host   report, compare, db (cJSON, SQLite)
 *   rtlat-trace  a test with --trace (libtracefs, libtraceevent)
 *
 * "rtlat report ..." execs rtlat-host with the process's own command line:
 * same PID, same arguments, same standard streams. They are looked for
 * beside the running binary (the build tree; a copy of both), in
 * ../libexec/rtlat/ from it (an installed tree, wherever it was moved to)
 * and in the libexec directory of the prefix rtlat was built for.
 * The helper learns the path of the rtlat that ran it (helper_caller()):
 * a suite run in rtlat-host (--gate, --db) runs its tests with that
 * rtlat; a helper that runs another hands on that path.
 */
#ifndef RTLAT_HELPER_H
#define RTLAT_HELPER_H

#include <stddef.h>

/* Remember the process's command line (main(), before anything else). */
void helper_init(char **argv);

/*
 * Replace this process with helper @name ("rtlat-host"), given the command
 * line helper_init() saw. Returns only when no helper could be run: -1,
 * with a message in @err naming where it was looked for.
 */
int helper_exec(const char *name, char *err, size_t len);

/* In a helper: the absolute path of the rtlat that ran it in its place;
 * NULL when it was started otherwise. */
const char *helper_caller(void);

#endif
