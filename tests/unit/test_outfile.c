// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result files written whole (util/outfile.c): a write error in the middle
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

#include "util/outfile.h"

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

/* Real paths as they will be, also in directories still to be made; one
 * file claimed twice is refused, naming both. */
static void test_planned_paths_and_claims(void **state)
{
	char dir[] = "/tmp/rtlat-unit-XXXXXX", a[PATH_MAX], b[PATH_MAX];
	char real[PATH_MAX], want[PATH_MAX + 32], err[2 * PATH_MAX + 128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/new/x.xml", dir);
	snprintf(b, sizeof(b), "%s/./new/sub/../x.xml", dir);
	assert_int_equal(output_planned_path(b, real, sizeof(real), err,
					     sizeof(err)), 0);
	assert_int_equal(output_planned_path(a, want, sizeof(want), err,
					     sizeof(err)), 0);
	assert_string_equal(real, want);
	assert_true(output_same(a, b));
	snprintf(b, sizeof(b), "%s/new/y.xml", dir);
	assert_false(output_same(a, b));
	/* a directory, still to be made or not, is no output file */
	snprintf(b, sizeof(b), "%s/new/sub/..", dir);
	assert_int_equal(output_planned_path(b, real, sizeof(real), err,
					     sizeof(err)), -1);
	assert_non_null(strstr(err, "is a directory"));
	/* descriptors are written in place: no path */
	assert_int_equal(output_planned_path("/dev/stdout", real,
					     sizeof(real), err, sizeof(err)), 1);

	output_claims_reset();
	assert_false(output_claim_refused());
	snprintf(b, sizeof(b), "%s/new/../new/x.xml", dir);
	assert_int_equal(output_claim("--json", a, err, sizeof(err)), 0);
	assert_int_equal(output_claim("/dev/stdout", "/dev/stdout", err,
				      sizeof(err)), 0);
	assert_int_equal(output_claim("--junit", "/dev/stdout", err,
				      sizeof(err)), 0);	/* in turn */
	assert_int_equal(output_claim("--junit", b, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "--json '%s' and --junit '%s' are the same file", a, b);
	assert_non_null(strstr(err, want));
	assert_true(output_claim_refused());
	output_claims_reset();
	assert_false(output_claim_refused());
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_error_midway),
		cmocka_unit_test(test_planned_paths_and_claims),
	};

	outfile_init();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
