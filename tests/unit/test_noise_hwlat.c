// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the knobs noise --mode hwlat changes for the kernel's hwlat
 * tracer (measure/noise_hwlat.c), on a fake tracefs (regular files): put
 * back by rtlat itself, and by the guard when rtlat is killed (SIGKILL)
 * while they are changed; the instance removed both times, the guard gone
 * after rtlat's own restore.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scratch_tree.h"
#include "measure/noise.h"

static char fs[64];

static void put(const char *path, const char *text)
{
	scratch_put(fs, path, text, strlen(text));
}

static void get(const char *path, char *buf, size_t len)
{
	char p[256];
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s%s", fs, path);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
}

static bool gone(const char *inst)
{
	struct stat st;

	return stat(inst, &st) < 0 && errno == ENOENT;
}

/* A fake tracefs with the knobs as a system has them. */
static void fake_tracefs(void)
{
	char p[96];

	snprintf(fs, sizeof(fs), "/tmp/rtlat-hwlat-XXXXXX");
	assert_non_null(mkdtemp(fs));
	put("/tracing_thresh", "0\n");
	put("/hwlat_detector/width", "500000\n");
	put("/hwlat_detector/window", "1000000\n");
	snprintf(p, sizeof(p), "%s/instances", fs);
	assert_int_equal(mkdir(p, 0755), 0);
}

/* What the reference does: the instance made, the knobs changed (the
 * width above the old window: the window first). */
static void change(const struct hwlat_knobs *k)
{
	assert_int_equal(mkdir(k->inst, 0700), 0);
	put("/tracing_thresh", "10\n");
	put("/hwlat_detector/window", "3000000\n");
	put("/hwlat_detector/width", "2000000\n");
}

static void assert_put_back(void)
{
	char v[32];

	get("/tracing_thresh", v, sizeof(v));
	assert_string_equal(v, "0");
	get("/hwlat_detector/width", v, sizeof(v));
	assert_string_equal(v, "500000");
	get("/hwlat_detector/window", v, sizeof(v));
	assert_string_equal(v, "1000000");
}

static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", fs);
	assert_int_equal(system(cmd), 0);
}

static void test_restored_by_rtlat(void **state)
{
	struct hwlat_knobs k;
	char why[256];

	(void)state;
	fake_tracefs();
	assert_int_equal(hwlat_knobs_save(&k, fs, why, sizeof(why)), 0);
	assert_int_equal(hwlat_guard_start(&k, why, sizeof(why)), 0);
	assert_true(k.guard.pid > 0);
	change(&k);
	assert_int_equal(hwlat_knobs_restore(&k), 0);
	assert_put_back();
	assert_true(gone(k.inst));
	assert_int_equal(k.guard.pid, 0);
	cleanup();
}

/* rtlat killed (SIGKILL: no handler runs) while the knobs are changed,
 * with its whole process group (timeout -s KILL, a lab job's time-out):
 * the guard, in a session of its own, puts them back. */
static void test_restored_by_the_guard(void **state)
{
	int ready[2], i;
	struct hwlat_knobs k;
	char inst[160], why[256], c;
	pid_t pid;

	(void)state;
	fake_tracefs();
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {		/* "rtlat", in the reference */
		setpgid(0, 0);
		if (hwlat_knobs_save(&k, fs, why, sizeof(why)) ||
		    hwlat_guard_start(&k, why, sizeof(why)))
			_exit(1);
		change(&k);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	snprintf(inst, sizeof(inst), "%s/instances/rtlat-hwlat-%d", fs, (int)pid);
	assert_false(gone(inst));
	assert_int_equal(kill(-pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	/* the guard (now an orphan) restores on its own: wait up to 10 s */
	for (i = 0; i < 1000 && !gone(inst); i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	assert_true(gone(inst));
	assert_put_back();
	cleanup();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restored_by_rtlat),
		cmocka_unit_test(test_restored_by_the_guard),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
