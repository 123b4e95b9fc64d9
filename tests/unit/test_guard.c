// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the guard process (engine/guard.c). rtlat's word ends it with
 * nothing restored; end of file without the word (rtlat gone) restores;
 * a kill of the starter's whole process group spares it (a session of
 * its own, from guard_start()'s return on) and it restores; only the pipe
 * and the descriptors it is told to keep stay open in it; pipe2() failing
 * is -errno, no guard.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/guard.h"

/* The restore: one byte 'R' on the descriptor *ctx (kept in the guard). */
static void restore_byte(void *ctx)
{
	const int *fd = ctx;

	if (write(*fd, "R", 1) != 1)
		_exit(3);
}

/* What the guard wrote on @fd before it closed it: 'R', or 0 for nothing
 * (end of file). Bounded: fails after 10 s. */
static char outcome(int fd)
{
	char c = 0;
	ssize_t n;
	int i;

	for (i = 0; i < 1000; i++) {
		n = read(fd, &c, 1);
		if (n == 1)
			return c;
		if (n == 0)
			return 0;
		if (errno != EAGAIN)
			fail_msg("read: %s", strerror(errno));
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	}
	fail_msg("the guard neither restored nor exited in 10 s");
	return 0;
}

/* A pipe whose read end is ours, non-blocking, and whose write end the
 * guard keeps; our copy of the write end is closed once the guard runs. */
static void out_pipe(int p[2])
{
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_int_equal(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
}

static void test_word_ends_it_without_restoring(void **state)
{
	struct guard g;
	int out[2];

	(void)state;
	out_pipe(out);
	assert_int_equal(guard_start(&g, restore_byte, &out[1], &out[1], 1), 0);
	assert_true(g.pid > 0 && g.fd >= 0);
	close(out[1]);
	guard_end(&g);
	assert_int_equal(g.pid, 0);
	assert_int_equal(g.fd, -1);
	assert_int_equal(outcome(out[0]), 0);
	guard_end(&g);		/* idempotent */
	close(out[0]);
}

static void test_end_of_file_restores(void **state)
{
	struct guard g;
	int out[2], st;

	(void)state;
	out_pipe(out);
	assert_int_equal(guard_start(&g, restore_byte, &out[1], &out[1], 1), 0);
	close(out[1]);
	close(g.fd);		/* as rtlat's death closes it */
	assert_int_equal(outcome(out[0]), 'R');
	assert_int_equal(waitpid(g.pid, &st, 0), g.pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(out[0]);
}

/* The starter in a process group of its own, killed with it (SIGKILL: no
 * handler runs): the guard, in another session, restores. */
static void test_group_kill_spares_it(void **state)
{
	int out[2], ready[2];
	struct guard g;
	pid_t pid;
	char c;

	(void)state;
	out_pipe(out);
	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		setpgid(0, 0);
		if (guard_start(&g, restore_byte, &out[1], &out[1], 1) ||
		    write(ready[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(out[1]);
	close(ready[1]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	assert_int_equal(kill(-pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	assert_int_equal(outcome(out[0]), 'R');
	close(out[0]);
}

/* The descriptors open in process @pid, into @fds; their count. */
static int open_fds(pid_t pid, int *fds, int max)
{
	char dir[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && n < max)
			fds[n++] = atoi(e->d_name);
	closedir(d);
	return n;
}

static void test_only_the_pipe_and_kept_fds_stay_open(void **state)
{
	int out[2], other[2], fds[64], n, k, seen;
	struct guard g;
	pid_t sid;

	(void)state;
	out_pipe(out);
	assert_int_equal(pipe(other), 0);	/* not close-on-exec, not kept */
	assert_int_equal(guard_start(&g, restore_byte, &out[1], &out[1], 1), 0);
	/* set up when guard_start() returns */
	n = open_fds(g.pid, fds, 64);
	assert_int_equal(n, 2);
	for (seen = k = 0; k < n; k++)
		if (fds[k] == out[1])
			seen++;
	assert_int_equal(seen, 1);	/* the kept one, and the pipe */
	sid = getsid(g.pid);
	assert_int_equal(sid, g.pid);	/* a session of its own, already */
	close(other[0]);
	close(other[1]);
	close(out[1]);
	guard_end(&g);
	assert_int_equal(outcome(out[0]), 0);
	close(out[0]);
}

static void test_pipe_failure_is_errno(void **state)
{
	struct rlimit old, low;
	struct guard g;
	int fd, e;

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
	fd = dup(0);		/* the lowest free descriptor */
	assert_true(fd >= 0);
	close(fd);
	low = old;
	low.rlim_cur = (rlim_t)fd;	/* no new descriptor */
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
	e = guard_start(&g, restore_byte, &fd, NULL, 0);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
	assert_int_equal(e, -EMFILE);
	assert_int_equal(g.pid, 0);
	assert_int_equal(g.fd, -1);
	guard_end(&g);		/* nothing to end */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_word_ends_it_without_restoring),
		cmocka_unit_test(test_end_of_file_restores),
		cmocka_unit_test(test_group_kill_spares_it),
		cmocka_unit_test(test_only_the_pipe_and_kept_fds_stay_open),
		cmocka_unit_test(test_pipe_failure_is_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
