// SPDX-License-Identifier: GPL-2.0-or-later
/* rtlat's helper programs (helper.h): found beside the binary, run in place. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/helper.h"

#ifndef RTLAT_LIBEXECDIR
#define RTLAT_LIBEXECDIR "/usr/local/libexec/rtlat"
#endif

/* the caller's path, handed to the helper it runs in its place */
#define CALLER_ENV "RTLAT_HELPER_CALLER"

static char **helper_argv;
static char caller[PATH_MAX];

void helper_init(char **argv)
{
	const char *c = getenv(CALLER_ENV);

	helper_argv = argv;
	if (c && c[0] == '/' && strlen(c) < sizeof(caller))
		strcpy(caller, c);
	/* not inherited by what this process runs */
	unsetenv(CALLER_ENV);
}

const char *helper_caller(void)
{
	return caller[0] ? caller : NULL;
}

int helper_exec(const char *name, char *err, size_t len)
{
	char self[PATH_MAX], path[PATH_MAX + 64];
	const char *dirs[3];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	int i, nd = 0, first = 0;

	if (!helper_argv) {
		snprintf(err, len, "%s: no command line (helper_init())", name);
		return -1;
	}
	if (n > 0) {
		self[n] = '\0';
		/* the helper runs rtlat as this one (suite --gate) */
		if (setenv(CALLER_ENV, self, 1) < 0) {
			snprintf(err, len, "%s: %s", name, strerror(errno));
			return -1;
		}
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		dirs[nd++] = self;		/* DIR/NAME */
		dirs[nd++] = NULL;		/* DIR/../libexec/rtlat/NAME */
	}
	dirs[nd++] = RTLAT_LIBEXECDIR;
	for (i = 0; i < nd; i++) {
		if (dirs[i])
			snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		else
			snprintf(path, sizeof(path), "%s/../libexec/rtlat/%s",
				 self, name);
		execv(path, helper_argv);
		if (errno != ENOENT && !first)
			first = errno;
	}
	if (n > 0)
		snprintf(err, len, "%s is not installed: not in %s, %s/../libexec/rtlat or %s (make install puts it into PREFIX/libexec/rtlat)%s%s",
			 name, self, self, RTLAT_LIBEXECDIR,
			 first ? ": " : "", first ? strerror(first) : "");
	else
		snprintf(err, len, "%s is not installed in %s (make install puts it there)%s%s",
			 name, RTLAT_LIBEXECDIR, first ? ": " : "",
			 first ? strerror(first) : "");
	return -1;
}
