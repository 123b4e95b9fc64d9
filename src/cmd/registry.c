// SPDX-License-Identifier: GPL-2.0-or-later
/* The list of rtlat commands. A new command adds one line here. */
#include <stddef.h>
#include <string.h>

#include "cmd/cmd.h"

extern const struct rtlat_cmd cmd_latency;
extern const struct rtlat_cmd cmd_cyclic;
extern const struct rtlat_cmd cmd_load;
extern const struct rtlat_cmd cmd_sysinfo;
extern const struct rtlat_cmd cmd_check;
extern const struct rtlat_cmd cmd_suite;
extern const struct rtlat_cmd cmd_selftest;
extern const struct rtlat_cmd cmd_report;
extern const struct rtlat_cmd cmd_compare;
extern const struct rtlat_cmd cmd_db;
extern const struct rtlat_cmd cmd_switch;
extern const struct rtlat_cmd cmd_handshake;
extern const struct rtlat_cmd cmd_cruncher;

const struct rtlat_cmd *const rtlat_cmds[] = {
	&cmd_suite,
	&cmd_latency,
	&cmd_cyclic,
	&cmd_switch,
	&cmd_handshake,
	&cmd_cruncher,
	&cmd_load,
	&cmd_report,
	&cmd_compare,
	&cmd_db,
	&cmd_sysinfo,
	&cmd_check,
	&cmd_selftest,
	NULL,
};

int rtlat_argc;
char **rtlat_argv;

const struct rtlat_cmd *cmd_find(const char *name)
{
	int i;

	for (i = 0; rtlat_cmds[i]; i++)
		if (!strcmp(rtlat_cmds[i]->name, name))
			return rtlat_cmds[i];
	return NULL;
}
