// SPDX-License-Identifier: GPL-2.0-or-later
/* --root DIR of the commands that read the system (sysinfo, check); see
 * cmd.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/log.h"

int cmd_root_check(const struct optdesc *d, const char *dir)
{
	char msg[320];
	struct stat st;

	if (!dir[0])
		return opt_bad_value(d, dir, "expected a directory holding proc/ and sys/");
	if (stat(dir, &st) < 0) {
		snprintf(msg, sizeof(msg), "%s; expected a directory holding proc/ and sys/",
			 strerror(errno));
		return opt_bad_value(d, dir, msg);
	}
	if (!S_ISDIR(st.st_mode))
		return opt_bad_value(d, dir, "not a directory; expected a directory holding proc/ and sys/");
	if (access(dir, R_OK | X_OK) < 0) {
		snprintf(msg, sizeof(msg), "cannot read it: %s", strerror(errno));
		return opt_bad_value(d, dir, msg);
	}
	return 0;
}

bool cmd_root_empty(const char *root)
{
	char p[4096];

	if (!strcmp(root, "/"))
		return false;
	snprintf(p, sizeof(p), "%s/proc", root);
	if (access(p, F_OK) == 0)
		return false;
	snprintf(p, sizeof(p), "%s/sys", root);
	return access(p, F_OK) < 0;
}

void cmd_root_note(const char *root, const char *what)
{
	if (cmd_root_empty(root))
		log_warn("--root %s holds neither proc/ nor sys/: nothing to %s",
			 root, what);
}
