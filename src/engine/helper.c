// SPDX-License-Identifier: GPL-2.0-or-later
/* rtlat's helper programs (helper.h): found beside the binary, run in place. */
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/helper.h"

#ifndef RTLAT_LIBEXECDIR
#define RTLAT_LIBEXECDIR "/usr/local/libexec/rtlat"
#endif

/* the caller's path, handed to the helper it runs in its place */
#define CALLER_ENV "RTLAT_HELPER_CALLER"
/* the helpers this process was exec'd as, in order ("rtlat-host,..."):
 * a file that is not the helper it is named (rtlat copied as rtlat-host)
 * would ask for that helper again, for ever */
#define CHAIN_ENV "RTLAT_HELPER_CHAIN"

static char **helper_argv;
static char caller[PATH_MAX];
static char chain[256];

void helper_init(char **argv)
{
	const char *c = getenv(CALLER_ENV);
	const char *h = getenv(CHAIN_ENV);

	helper_argv = argv;
	if (c && c[0] == '/' && strlen(c) < sizeof(caller))
		strcpy(caller, c);
	if (h && strlen(h) < sizeof(chain))
		strcpy(chain, h);
	/* not inherited by what this process runs */
	unsetenv(CALLER_ENV);
	unsetenv(CHAIN_ENV);
}

/* True when @name is in the chain of helpers this process was exec'd as. */
static bool in_chain(const char *name)
{
	size_t n = strlen(name);
	const char *p = chain;

	while (*p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	return false;
}

const char *helper_caller(void)
{
	return caller[0] ? caller : NULL;
}

/* What to look at when exec of @path failed with @e. */
static const char *cannot_run_hint(const char *path, int e)
{
	struct stat st;

	if (e == ENOENT)
		return stat(path, &st) == 0 ?
		       " (a script whose interpreter is missing?)" :
		       " (a dangling symbolic link?)";
	if (e == EACCES && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return " (not executable: make install installs it so)";
	if (e == ENOEXEC)
		return " (not a program for this machine: another build's?)";
	return "";
}

int helper_exec(const char *name, char *err, size_t len)
{
	char self[PATH_MAX], path[PATH_MAX + 64], bad[PATH_MAX + 64];
	struct stat st;
	const char *dirs[3];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	int i, nd = 0, first = 0;

	if (!helper_argv) {
		snprintf(err, len, "%s: no command line (helper_init())", name);
		return -1;
	}
	if (in_chain(name)) {
		snprintf(err, len, "%s was run, and asks for %s again: the file installed as %s is not rtlat's %s (another build's, or rtlat itself copied under that name)",
			 name, name, name, name);
		return -1;
	}
	{
		char next[sizeof(chain) + 64];

		snprintf(next, sizeof(next), "%s%s%s", chain,
			 chain[0] ? "," : "", name);
		if (setenv(CHAIN_ENV, next, 1) < 0) {
			snprintf(err, len, "%s: %s", name, strerror(errno));
			return -1;
		}
	}
	if (n > 0) {
		self[n] = '\0';
		/* the helper runs rtlat as this one (suite --gate); a helper
		 * running another hands on its own caller */
		if (setenv(CALLER_ENV, caller[0] ? caller : self, 1) < 0) {
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
		/* ENOENT of a name that is there: a dangling symlink, or a
		 * script whose interpreter is missing */
		if (!first && (errno != ENOENT || lstat(path, &st) == 0)) {
			first = errno;
			snprintf(bad, sizeof(bad), "%s", path);
		}
	}
	unsetenv(CHAIN_ENV);	/* not run: not for what this one runs */
	if (first)	/* there, but not runnable: that file and why */
		snprintf(err, len, "%s cannot be run: %s: %s%s", name, bad,
			 strerror(first), cannot_run_hint(bad, first));
	else if (n > 0)
		snprintf(err, len, "%s is not installed: not in %s, %s/../libexec/rtlat or %s (make install puts it into PREFIX/libexec/rtlat)",
			 name, self, self, RTLAT_LIBEXECDIR);
	else
		snprintf(err, len, "%s is not installed in %s (make install puts it there)",
			 name, RTLAT_LIBEXECDIR);
	return -1;
}
