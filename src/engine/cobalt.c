// SPDX-License-Identifier: GPL-2.0-or-later
/* The Xenomai Cobalt build's view of the Cobalt core: see cobalt.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/cobalt.h"

#ifndef RTLAT_COBALT_VERSION
#define RTLAT_COBALT_VERSION ""
#endif

/* Open @path for reading if it is a regular file, never blocking (a FIFO
 * put in its place must not stop the run): NULL with errno. */
static FILE *open_regular(const char *path)
{
	struct stat st;
	FILE *f;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

static const char *xeno_root(void)
{
	const char *r = getenv("RTLAT_XENOMAI_ROOT");

	return r && r[0] ? r : "";
}

const char *cobalt_system(void)
{
	static char buf[96];
	char path[4200], v[64] = "";
	FILE *f;

	if (!cobalt_build())
		return "";
	if (buf[0])
		return buf;
	snprintf(path, sizeof(path), "%s/proc/xenomai/version", xeno_root());
	f = open_regular(path);
	if (f) {
		if (fgets(v, sizeof(v), f))
			v[strcspn(v, " \t\r\n")] = '\0';
		fclose(f);
	}
	snprintf(buf, sizeof(buf), "Xenomai/Cobalt %s",
		 v[0] ? v : RTLAT_COBALT_VERSION[0] ? RTLAT_COBALT_VERSION :
		 "(version unknown)");
	return buf;
}

const char *cobalt_mode(const char *mode, char *buf, size_t len)
{
	if (!cobalt_build())
		return mode;
	snprintf(buf, len, "%s on %s", mode, cobalt_system());
	return buf;
}

/* The index of column @name in the header line @h, or -1. */
static int column(const char *h, const char *name)
{
	char copy[256], *tok, *save = NULL;
	int i = 0;

	snprintf(copy, sizeof(copy), "%s", h);
	for (tok = strtok_r(copy, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save), i++)
		if (!strcmp(tok, name))
			return i;
	return -1;
}

/* A count: digits only (a sign or anything else is no count). */
static bool count_of(const char *t, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)t[0]))
		return false;
	errno = 0;
	*v = strtoull(t, &end, 10);
	return !*end && !errno;
}

int cobalt_msw(const pid_t *tids, int n, uint64_t *msw, bool *found)
{
	char path[4200], line[512];
	int cpid, cmsw, nfound = 0, i;
	FILE *f;

	for (i = 0; i < n; i++)
		found[i] = false;
	snprintf(path, sizeof(path), "%s/proc/xenomai/sched/stat",
		 xeno_root());
	f = open_regular(path);
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EINVAL;
	}
	cpid = column(line, "PID");
	cmsw = column(line, "MSW");
	if (cpid < 0 || cmsw < 0) {
		fclose(f);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL;
		long long pid = -1;
		unsigned long long v = 0;
		bool have_v = false;
		int col = 0;

		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save), col++) {
			if (col == cpid) {
				unsigned long long p;

				pid = count_of(tok, &p) && p <= INT32_MAX ?
				      (long long)p : -1;
			} else if (col == cmsw) {
				have_v = count_of(tok, &v);
			}
		}
		for (i = 0; have_v && i < n; i++)
			if (!found[i] && tids[i] == (pid_t)pid) {
				msw[i] = v;
				found[i] = true;
				nfound++;
			}
	}
	fclose(f);
	return nfound;
}
