// SPDX-License-Identifier: GPL-2.0-or-later
/* The children of this process, from /proc; see children.h. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/children.h"

int proc_stat_read(const char *pid, char *state, long *ppid, long *pgrp)
{
	char path[64], buf[512], *close_p, *e;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	close_p = strrchr(buf, ')');
	if (!close_p || strlen(close_p) < 5)
		return -1;
	*state = close_p[2];
	*ppid = strtol(close_p + 4, &e, 10);
	if (e == close_p + 4)
		return -1;
	*pgrp = strtol(e, NULL, 10);
	return 0;
}

int children_list(pid_t *pids, int max)
{
	char path[64], buf[4096], *p, *end;
	pid_t self = getpid();
	struct dirent *de;
	int n = 0, fd;
	ssize_t len;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)self);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len >= 0) {
			buf[len] = '\0';
			for (p = buf; n < max; p = end) {
				long v = strtol(p, &end, 10);

				if (end == p)
					break;
				pids[n++] = (pid_t)v;
			}
			return n;
		}
	}
	d = opendir("/proc");
	if (!d)
		return 0;
	while (n < max && (de = readdir(d))) {
		char state;
		long ppid, pgrp;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    proc_stat_read(de->d_name, &state, &ppid, &pgrp) < 0)
			continue;
		if (ppid == self)
			pids[n++] = (pid_t)strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	return n;
}
