// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Cobalt core's thread statistics as the Cobalt build reads them
 * (engine/cobalt.c, cobalt_msw()): MSW per thread id from a
 * proc/xenomai/sched/stat under $RTLAT_XENOMAI_ROOT, the columns found by
 * the header; what is no count (a sign, garbage, an overflow) is no
 * count; a file that is not a regular one (a FIFO) is refused at once,
 * never waited on.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/cobalt.h"
#include "scratch_tree.h"

static char root[64];

static void stat_file(const char *text)
{
	char p[128];

	snprintf(p, sizeof(p), "%s/proc/xenomai/sched/stat", root);
	unlink(p);
	rmdir(p);
	scratch_put(root, "/proc/xenomai/sched/stat", text, strlen(text));
}

static int setup(void **state)
{
	snprintf(root, sizeof(root), "/tmp/rtlat-cobalt-XXXXXX");
	assert_non_null(mkdtemp(root));
	setenv("RTLAT_XENOMAI_ROOT", root, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

#define HEAD "CPU  PID    MSW        CSW        XSC        PF    STAT       %CPU  NAME\n"

static void test_counts_by_header_columns(void **state)
{
	pid_t tids[3] = { 1234, 1240, 999 };
	uint64_t v[3] = { 7, 7, 7 };
	bool found[3];

	stat_file(HEAD
		  "  0  0      0          102        0          0     00018000   99.9  [ROOT/0]\n"
		  "  1  1234   3          5          20         0     00040042    0.0  sampler\n"
		  "  1  1240   18446744073709551615 5 20        0     00040042    0.0  partner\n");
	assert_int_equal(cobalt_msw(tids, 3, v, found), 2);
	assert_true(found[0] && found[1] && !found[2]);
	assert_int_equal(v[0], 3);
	assert_true(v[1] == UINT64_MAX);
	assert_int_equal(v[2], 7);		/* untouched */

	/* columns in another order: found by name */
	stat_file("PID MSW NAME\n1234 9 x\n");
	assert_int_equal(cobalt_msw(tids, 1, v, found), 1);
	assert_int_equal(v[0], 9);
}

static void test_what_is_no_count(void **state)
{
	pid_t tids[4] = { 11, 12, 13, 14 };
	uint64_t v[4] = { 0 };
	bool found[4];

	stat_file(HEAD
		  "  0  11     -5         0 0 0 0 0.0 a\n"		/* a sign */
		  "  0  12     +5         0 0 0 0 0.0 b\n"
		  "  0  13     99999999999999999999999 0 0 0 0 0.0 c\n"	/* > 2^64 */
		  "  0  14     12x        0 0 0 0 0.0 d\n"
		  "garbage\n\n");
	assert_int_equal(cobalt_msw(tids, 4, v, found), 0);
	assert_false(found[0] || found[1] || found[2] || found[3]);
}

static void test_files_that_are_no_statistics(void **state)
{
	pid_t tids[1] = { 11 };
	uint64_t v[1];
	bool found[1];
	char p[128];

	stat_file("");				/* empty: no header */
	assert_int_equal(cobalt_msw(tids, 1, v, found), -EINVAL);
	stat_file("  0  11  3 0 0 0 0 0.0 a\n");	/* no header */
	assert_int_equal(cobalt_msw(tids, 1, v, found), -EINVAL);
	stat_file("CPU PID CSW NAME\n0 11 3 a\n");	/* no MSW column */
	assert_int_equal(cobalt_msw(tids, 1, v, found), -EINVAL);
	/* a FIFO: refused without waiting for a writer */
	snprintf(p, sizeof(p), "%s/proc/xenomai/sched/stat", root);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(cobalt_msw(tids, 1, v, found), -EINVAL);
	unlink(p);
	/* a directory, then nothing */
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(cobalt_msw(tids, 1, v, found), -EINVAL);
	rmdir(p);
	assert_int_equal(cobalt_msw(tids, 1, v, found), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_by_header_columns),
		cmocka_unit_test(test_what_is_no_count),
		cmocka_unit_test(test_files_that_are_no_statistics),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
