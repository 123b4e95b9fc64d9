// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report, compare, db, suite --gate and suite --db in the measuring
 * binary: the host side (cJSON, SQLite, libpq) is a separate program,
 * rtlat-host, so that a measuring rtlat never maps (nor locks) those
 * libraries (engine/helper.h).
 */
#include <limits.h>

#include "cmd/cmd.h"
#include "engine/helper.h"
#include "util/log.h"

int cmd_host_exec(const char *what)
{
#ifdef RTLAT_HOST_HELPER
	char err[3 * PATH_MAX + 256];

	helper_exec("rtlat-host", err, sizeof(err));
	log_error("%s%s%s", what ? what : "", what ? ": " : "", err);
#else
	log_error("%s%snot built in: this rtlat was built without host features (HOST_FEATURES=0: static or cross build); run report, compare and db with a host build",
		  what ? what : "", what ? " is " : "");
#endif
	return -1;
}

int cmd_host_main(int argc, char **argv)
{
	cmd_host_exec(NULL);
	return 1;
}
