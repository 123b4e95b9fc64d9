/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where tracefs is: the one lookup of --trace (src/trace/) and of noise's
 * hwlat reference (src/measure/noise_hwlat.c). Plain libc, no libtracefs.
 */
#ifndef RTLAT_TRACEFS_H
#define RTLAT_TRACEFS_H

#include <stddef.h>

/*
 * The directory tracefs is mounted on (from /proc/mounts, preferring
 * /sys/kernel/tracing; the debugfs automount /sys/kernel/debug/tracing
 * otherwise). When none is mounted and the process may mount (root), it
 * mounts tracefs on /sys/kernel/tracing and says so on stderr; that mount
 * is detached when the process exits normally or by a signal it handles,
 * unless a tracefs instance of a live process other than this one
 * (another rtlat, rtla, trace-cmd) is in it then. rtla and trace-cmd
 * mount it the same way.
 *
 * Returns a static string, or NULL with the cause and what to do in @err
 * (@len bytes): no tracefs in this kernel, or the mount refused (errno's
 * text).
 */
const char *tracefs_dir(char *err, size_t len);

/* Remove the tracefs instances under @dir/instances of rtlat processes
 * that no longer exist (killed with SIGKILL: "rtlat-PID" of --trace,
 * "rtlat-WHAT-PID" of noise's hwlat reference). Errors are ignored. */
int tracefs_remove_stale(const char *dir, char *names, size_t len);
/* The instances under @dir named rtlat-PID (or rtlat-WHAT-PID) whose
 * process is gone (a run killed with SIGKILL left them, tracing on, their
 * buffers allocated): their names, space-separated, into @names (of @len;
 * may be 0); how many. tracefs_remove_stale() removes them too (those
 * that could not be are neither named nor counted). */
int tracefs_list_stale(const char *dir, char *names, size_t len);
/* The pid in an rtlat instance's name ("rtlat-PID", "rtlat-WHAT-PID"),
 * else 0. */
long tracefs_instance_pid(const char *name);

#endif
