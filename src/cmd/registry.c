// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The list of rtlat commands. A new test is one line in RTLAT_TESTS (its
 * descriptor says everything else); a new command one line in RTLAT_CMDS.
 */
#include <stddef.h>
#include <string.h>

#include "cmd/cmd.h"

/*
 * The tests, in help order: a new test is one line here, X(name) for the
 * "const struct test_desc name_test" its file defines.
 */
#define RTLAT_TESTS(X) \
	X(latency) \
	X(cyclic) \
	X(switch) \
	X(handshake) \
	X(cruncher) \
	X(noise) \
	X(irq)

/* The other commands; the tests come after the first (suite). */
#define RTLAT_CMDS_FIRST(X) X(suite)
#define RTLAT_CMDS(X) \
	X(load) \
	X(report) \
	X(compare) \
	X(db) \
	X(sysinfo) \
	X(check) \
	X(selftest)

#define DECLARE_TEST(n) extern const struct test_desc n##_test;
#define DECLARE_CMD(n) extern const struct rtlat_cmd cmd_##n;
RTLAT_TESTS(DECLARE_TEST)
RTLAT_CMDS_FIRST(DECLARE_CMD)
RTLAT_CMDS(DECLARE_CMD)

#define TEST_CMD(n) { .test = &n##_test },
#define CMD_PTR(n) &cmd_##n,
#define CMD_INDEX(n) CMD_INDEX_##n,

static struct rtlat_cmd test_cmds[] = { RTLAT_TESTS(TEST_CMD) };

/* one enumerator per command: their count */
enum {
	RTLAT_CMDS_FIRST(CMD_INDEX) RTLAT_TESTS(CMD_INDEX)
	RTLAT_CMDS(CMD_INDEX)
	RTLAT_NCMDS
};

const struct rtlat_cmd *rtlat_cmds[RTLAT_NCMDS + 1];

int rtlat_argc;
char **rtlat_argv;

void cmd_registry_init(void)
{
	static const struct rtlat_cmd *const first[] = {
		RTLAT_CMDS_FIRST(CMD_PTR)
	};
	static const struct rtlat_cmd *const rest[] = { RTLAT_CMDS(CMD_PTR) };
	size_t i, n = 0;

	for (i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		rtlat_cmds[n++] = first[i];
	for (i = 0; i < sizeof(test_cmds) / sizeof(test_cmds[0]); i++) {
		struct rtlat_cmd *c = &test_cmds[i];

		c->name = c->test->name;
		c->summary = c->test->summary;
		c->suite = c->test->suite;
		c->measures = true;
		rtlat_cmds[n++] = c;
	}
	for (i = 0; i < sizeof(rest) / sizeof(rest[0]); i++)
		rtlat_cmds[n++] = rest[i];
	rtlat_cmds[n] = NULL;
}

const struct rtlat_cmd *cmd_find(const char *name)
{
	int i;

	for (i = 0; rtlat_cmds[i]; i++)
		if (!strcmp(rtlat_cmds[i]->name, name))
			return rtlat_cmds[i];
	return NULL;
}
