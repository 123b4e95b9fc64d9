// SPDX-License-Identifier: GPL-2.0-or-later
/* The children of this process, from /proc; see children.h. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/children.h"

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
		char *close_p, *e;
		long ppid;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* "pid (comm) state ppid ...": comm may hold ") " */
		close_p = strrchr(buf, ')');
		if (!close_p || strlen(close_p) < 5)
			continue;
		ppid = strtol(close_p + 4, &e, 10);
		if (e == close_p + 4)
			continue;
		if (ppid == self)
			pids[n++] = (pid_t)strtol(de->d_name, NULL, 10);
	}
	closedir(d);
	return n;
}
