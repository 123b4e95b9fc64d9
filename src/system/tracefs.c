// SPDX-License-Identifier: GPL-2.0-or-later
/* Where tracefs is; mounted when it is not (see tracefs.h). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "system/tracefs.h"

#define TRACING "/sys/kernel/tracing"

/* tracefs mounted by this process (on TRACING): detached when it exits,
 * whatever the path. */
static bool mounted_here;

/* The pid in an rtlat instance's name ("rtlat-PID", "rtlat-WHAT-PID"),
 * else 0. */
long tracefs_instance_pid(const char *name)
{
	const char *dash = strrchr(name, '-');
	char *end;
	long pid;

	if (strncmp(name, "rtlat-", 6) != 0 || !dash)
		return 0;
	pid = strtol(dash + 1, &end, 10);
	return dash[1] && !*end && pid > 0 && pid <= INT32_MAX ? pid : 0;
}

/* The stale instances under @dir: their names, space-separated, into
 * @names; @remove: removed too (those that could not be are not named).
 * Returns how many. */
static int stale(const char *dir, bool remove, char *names, size_t len)
{
	char p[512];
	struct dirent *d;
	DIR *dh;
	long pid;
	size_t o = 0;
	int n = 0;

	if (len)
		names[0] = '\0';
	snprintf(p, sizeof(p), "%s/instances", dir);
	dh = opendir(p);
	if (!dh)
		return 0;
	while ((d = readdir(dh))) {
		pid = tracefs_instance_pid(d->d_name);
		if (!pid || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(p, sizeof(p), "%s/instances/%s", dir, d->d_name);
		if (remove && rmdir(p) != 0)
			continue;
		n++;
		if (o < len)
			o += (size_t)snprintf(names + o, len - o, "%s%s",
					      o ? " " : "", d->d_name);
	}
	closedir(dh);
	return n;
}

int tracefs_remove_stale(const char *dir, char *names, size_t len)
{
	return stale(dir, true, names, len);
}

int tracefs_list_stale(const char *dir, char *names, size_t len)
{
	return stale(dir, false, names, len);
}

/* Some tracefs instance not ours is there (another rtlat --trace, or rtla,
 * that found our mount and uses it); those of dead rtlat processes are
 * removed first, so that they do not keep the mount for ever. */
static bool instances_in_use(void)
{
	DIR *d;
	struct dirent *e;
	bool any = false;

	tracefs_remove_stale(TRACING, NULL, 0);
	d = opendir(TRACING "/instances");
	if (!d)
		return false;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.' &&
		      tracefs_instance_pid(e->d_name) != (long)getpid();
	closedir(d);
	return any;
}

/* /proc/mounts writes space, tab, newline and backslash in a path as
 * \040, \011, \012 and \134 (the kernel's mangle()): decoded in place. */
static void unescape_mount(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static void unmount_ours(void)
{
	if (!mounted_here)
		return;
	/* another user of our mount keeps it (detaching it under them left
	 * their instance behind, its buffers allocated) */
	if (instances_in_use())
		return;
	if (umount2(TRACING, MNT_DETACH) == 0)
		mounted_here = false;
}

const char *tracefs_dir(char *err, size_t len)
{
	static char dir[256];
	char line[512], src[128], mnt[256], type[64];
	struct stat st;
	FILE *f = fopen("/proc/mounts", "re");

	dir[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %255s %63s", src, mnt, type) == 3 &&
		    !strcmp(type, "tracefs")) {
			unescape_mount(mnt);
			snprintf(dir, sizeof(dir), "%s", mnt);
			if (!strcmp(mnt, TRACING))
				break;
		}
	}
	if (f)
		fclose(f);
	if (dir[0])
		return dir;
	if (stat(TRACING, &st) != 0) {
		snprintf(err, len, "this kernel has no tracefs (" TRACING " is missing): tracing needs a kernel built with CONFIG_FTRACE and CONFIG_TRACING");
		return NULL;
	}
	if (mount("nodev", TRACING, "tracefs", 0, NULL) != 0) {
		snprintf(err, len, "tracefs is not mounted and could not be mounted (%s); mount it as root with: mount -t tracefs nodev " TRACING,
			 strerror(errno));
		return NULL;
	}
	if (!mounted_here)
		atexit(unmount_ours);
	mounted_here = true;
	log_note("mounted tracefs on " TRACING " (unmounted when rtlat ends)");
	snprintf(dir, sizeof(dir), TRACING);
	return dir;
}
