// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The list of rtlat commands. A new test is one line in test_cmds (its
 * descriptor says everything else); a new command one line in rtlat_cmds.
 */
#include <stddef.h>
#include <string.h>

#include "cmd/cmd.h"

extern const struct test_desc latency_test;
extern const struct test_desc cyclic_test;
extern const struct test_desc switch_test;
extern const struct test_desc handshake_test;
extern const struct test_desc cruncher_test;

extern const struct rtlat_cmd cmd_load;
extern const struct rtlat_cmd cmd_sysinfo;
extern const struct rtlat_cmd cmd_check;
extern const struct rtlat_cmd cmd_suite;
extern const struct rtlat_cmd cmd_selftest;
extern const struct rtlat_cmd cmd_report;
extern const struct rtlat_cmd cmd_compare;
extern const struct rtlat_cmd cmd_db;

/* The tests, in help order; cmd_registry_init() completes them. */
static struct rtlat_cmd test_cmds[] = {
	{ .test = &latency_test },
	{ .test = &cyclic_test },
	{ .test = &switch_test },
	{ .test = &handshake_test },
	{ .test = &cruncher_test },
};

const struct rtlat_cmd *const rtlat_cmds[] = {
	&cmd_suite,
	&test_cmds[0],
	&test_cmds[1],
	&test_cmds[2],
	&test_cmds[3],
	&test_cmds[4],
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

void cmd_registry_init(void)
{
	size_t i;

	for (i = 0; i < sizeof(test_cmds) / sizeof(test_cmds[0]); i++) {
		struct rtlat_cmd *c = &test_cmds[i];

		c->name = c->test->name;
		c->summary = c->test->summary;
		c->suite = c->test->suite;
		c->measures = true;
	}
}

const struct rtlat_cmd *cmd_find(const char *name)
{
	int i;

	for (i = 0; rtlat_cmds[i]; i++)
		if (!strcmp(rtlat_cmds[i]->name, name))
			return rtlat_cmds[i];
	return NULL;
}
