/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The children of this process (a --load-cmd guard, rtlat suite: child
 * subreapers that kill and reap what their runs leave behind).
 */
#ifndef RTLAT_CHILDREN_H
#define RTLAT_CHILDREN_H

#include <sys/types.h>

/*
 * The children of this single-threaded process (its main thread's, as
 * /proc/self/task/PID/children lists them; a scan of /proc without
 * CONFIG_PROC_CHILDREN), zombies included, into @pids (at most @max).
 * Returns how many.
 */
int children_list(pid_t *pids, int max);

/*
 * Read /proc/@pid/stat ("pid (comm) state ppid pgrp ..."; comm may hold
 * ") "): its @state letter, @ppid and @pgrp. @pid is the directory name.
 * Returns 0, or -1 (gone, unreadable, malformed).
 */
int proc_stat_read(const char *pid, char *state, long *ppid, long *pgrp);

#endif
