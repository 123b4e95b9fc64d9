// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files written whole (core/outfile.c): a write error in the middle
 * (a full disk; here a file size limit, RLIMIT_FSIZE, which fails every
 * write past it with EFBIG) is an error of atomic_commit(), the previous
 * file stays and no temporary file is left. The stream's write function
 * returned -1 there, which glibc's fopencookie() takes as a count: it then
 * copied past its buffer (SIGSEGV in the suite on a full disk).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/outfile.h"

static void test_write_error_midway(void **state)
{
	char dir[] = "/tmp/rtlat-outfile-XXXXXX", path[PATH_MAX], err[512];
	static char chunk[16384];
	struct rlimit old, lim = { 8192, RLIM_INFINITY };
	struct atomic_file af;
	FILE *f, *prev;
	char line[64] = "";
	int i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.json", dir);
	prev = fopen(path, "w");
	assert_non_null(prev);
	fputs("previous\n", prev);
	fclose(prev);
	memset(chunk, 'x', sizeof(chunk));
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	f = atomic_open(&af, path, err, sizeof(err));
	assert_non_null(f);
	for (i = 0; i < 8; i++)		/* 128 KiB through 16 KiB writes */
		fwrite(chunk, 1, sizeof(chunk), f);
	assert_int_equal(atomic_commit(&af, err, sizeof(err)), -1);
	assert_non_null(strstr(err, strerror(EFBIG)));
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	/* the previous version stays, nothing else is in the directory */
	prev = fopen(path, "r");
	assert_non_null(prev);
	assert_non_null(fgets(line, sizeof(line), prev));
	fclose(prev);
	assert_string_equal(line, "previous\n");
	unlink(path);
	assert_int_equal(rmdir(dir), 0);	/* empty: no .tmp left */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_error_midway),
	};

	outfile_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
