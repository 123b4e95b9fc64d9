// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rtlat cyclic's command line: cyclictest options parsed into
 * struct cyclic_opts (also "-t N" and "-a CPUSET" as separate words), the
 * thread layout rules (CPUs, policy, priority, intervals) and durations.
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "measure/cyclic.h"
#include "util/timeutil.h"

static char *errbuf;
static size_t errlen;
static char *argv_store[40];

/* Parse @args (NULL-terminated, without argv[0]) into @c; stderr captured.
 * Returns opt_parse()'s result, or -2 for a left-over argument. */
static int parse(struct cyclic_opts *c, const char **args)
{
	static const struct optdesc *const tables[] = {
		cyclic_opt_table, NULL,
	};
	FILE *saved = stderr, *cap;
	int argc = 0, r, first;

	argv_store[argc++] = "cyclic";
	while (*args)
		argv_store[argc++] = (char *)*args++;
	argv_store[argc] = NULL;
	free(errbuf);
	errbuf = NULL;
	cap = open_memstream(&errbuf, &errlen);
	stderr = cap;
	cyclic_opts_init(c, argc, argv_store);
	r = opt_parse(argc, argv_store, tables, cyclic_opt, c, "cyclic", NULL,
		      &first);
	stderr = saved;
	fclose(cap);
	if (r == 0 && first < argc)
		return -2;
	return r;
}

#define PARSE(c, ...) parse(c, (const char *[]){ __VA_ARGS__, NULL })

static void expect_error(const char *msg, int r)
{
	assert_int_equal(r, -1);
	if (!strstr(errbuf, msg)) {
		print_error("expected '%s' in '%s'\n", msg, errbuf);
		fail();
	}
}

static struct cpuset cpus(const char *list)
{
	struct cpuset s;
	char err[128];

	assert_int_equal(cpulist_parse(list, &s, err, sizeof(err)), 0);
	return s;
}

static int layout(const struct cyclic_opts *c, const char *usable,
		  struct cyclic_thread *t, char *note)
{
	struct cpuset u = cpus(usable);
	char err[256];
	int n;

	n = cyclic_layout(c, &u, t, 64, err, sizeof(err), note, 512);
	if (n < 0)
		print_message("layout error: %s\n", err);
	return n;
}

static void test_defaults(void **state)
{
	struct cyclic_opts c;
	struct cyclic_thread t[64];
	char note[512];

	(void)state;
	assert_int_equal(PARSE(&c, "-q"), 0);
	assert_true(c.eo.quiet);
	/* cyclictest: one thread, 1000 us, SCHED_OTHER, pinned to CPU 0 */
	assert_int_equal(layout(&c, "0-3", t, note), 1);
	assert_int_equal(t[0].cpu, 0);
	assert_int_equal(t[0].policy, SCHED_OTHER);
	assert_int_equal(t[0].prio, 0);
	assert_int_equal(t[0].period_ns, 1000 * NSEC_PER_USEC);
	assert_int_equal(c.eo.warmup_ns, 0);
	assert_int_equal(c.eo.wait, WAIT_ABS);
	assert_int_equal(c.eo.break_ns, -1);
}

static void test_threads_and_affinity(void **state)
{
	struct cyclic_opts c;
	struct cyclic_thread t[64];
	char note[512];

	(void)state;
	/* -t 2 -a as separate words: both parsed, nothing left over */
	assert_int_equal(PARSE(&c, "-t", "2", "-a", "-p", "80"), 0);
	assert_int_equal(c.threads, 2);
	assert_true(c.affinity);
	assert_false(c.affinity_set);
	assert_int_equal(layout(&c, "0-1", t, note), 2);
	assert_int_equal(t[0].cpu, 0);
	assert_int_equal(t[1].cpu, 1);
	assert_int_equal(t[0].policy, SCHED_FIFO);
	assert_int_equal(t[1].prio, 80);
	/* intervals: -i + N * -d (default distance 500 us) */
	assert_int_equal(t[1].period_ns, 1500 * NSEC_PER_USEC);

	/* -a CPUSET as a separate word, round-robin over it */
	assert_int_equal(PARSE(&c, "-t", "3", "-a", "1,3"), 0);
	assert_true(c.affinity_set);
	assert_int_equal(layout(&c, "0-3", t, note), 3);
	assert_int_equal(t[0].cpu, 1);
	assert_int_equal(t[1].cpu, 3);
	assert_int_equal(t[2].cpu, 1);

	/* -t without a number: one per CPU of the set; attached forms */
	assert_int_equal(PARSE(&c, "-t", "-a2-3"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 2);
	assert_int_equal(t[0].cpu, 2);
	assert_int_equal(t[1].cpu, 3);
	assert_int_equal(PARSE(&c, "--threads=4", "--affinity=0"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 4);
	assert_int_equal(t[3].cpu, 0);
	/* "-t" followed by an option or nothing */
	assert_int_equal(PARSE(&c, "-t"), 0);
	assert_int_equal(layout(&c, "0-5", t, note), 6);
	/* -S: one per usable CPU, -t ignored */
	assert_int_equal(PARSE(&c, "-S", "-t", "5", "-p", "90"), 0);
	assert_int_equal(layout(&c, "0-1", t, note), 2);
	assert_non_null(strstr(note, "-t ignored"));
	assert_int_equal(t[1].prio, 90);
	/* a word that is no number stays an argument */
	assert_int_equal(PARSE(&c, "-t", "x"), -2);
}

static void test_intervals(void **state)
{
	struct cyclic_opts c;
	struct cyclic_thread t[64];
	char note[512];

	(void)state;
	assert_int_equal(PARSE(&c, "-t", "3", "-i", "200", "-d", "100"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 3);
	assert_int_equal(t[0].period_ns, 200 * NSEC_PER_USEC);
	assert_int_equal(t[1].period_ns, 300 * NSEC_PER_USEC);
	assert_int_equal(t[2].period_ns, 400 * NSEC_PER_USEC);
	/* with -h every thread has the interval of thread 0 */
	assert_int_equal(PARSE(&c, "-t", "3", "-i", "200", "-d", "100", "-h",
			       "50"), 0);
	assert_int_equal(c.hist_buckets, 50);
	assert_int_equal(layout(&c, "0-3", t, note), 3);
	assert_int_equal(t[2].period_ns, 200 * NSEC_PER_USEC);
	assert_non_null(strstr(note, "distance is ignored"));
	assert_int_equal(PARSE(&c, "-H", "30"), 0);
	assert_true(c.histofall);
	assert_int_equal(c.hist_buckets, 30);
}

static void test_priorities(void **state)
{
	struct cyclic_opts c;
	struct cyclic_thread t[64];
	char note[512], warn[256];

	(void)state;
	assert_int_equal(PARSE(&c, "-t", "3", "-p", "80", "--priospread"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 3);
	assert_int_equal(t[0].prio, 80);
	assert_int_equal(t[1].prio, 79);
	assert_int_equal(t[2].prio, 78);
	/* --priospread without -p: threads + 1 */
	assert_int_equal(PARSE(&c, "-t", "2", "--priospread"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 2);
	assert_int_equal(t[0].prio, 3);
	assert_int_equal(t[1].prio, 2);
	assert_int_equal(t[0].policy, SCHED_FIFO);
	/* fifo without a priority: threads + 1 */
	assert_int_equal(PARSE(&c, "-t", "2", "--policy", "fifo"), 0);
	assert_int_equal(layout(&c, "0-3", t, note), 2);
	assert_int_equal(t[0].prio, 3);
	assert_non_null(strstr(note, "defaulting realtime priority to 3"));
	/* rr kept; other with a priority becomes fifo */
	assert_int_equal(PARSE(&c, "--policy=rr", "-p", "10"), 0);
	assert_int_equal(layout(&c, "0", t, note), 1);
	assert_int_equal(t[0].policy, SCHED_RR);
	assert_null(cyclic_policy_warning(&c, &t[0], warn, sizeof(warn)));
	assert_int_equal(PARSE(&c, "--policy=other", "-p", "10"), 0);
	assert_int_equal(layout(&c, "0", t, note), 1);
	assert_int_equal(t[0].policy, SCHED_FIFO);
	assert_non_null(cyclic_policy_warning(&c, &t[0], warn, sizeof(warn)));
	assert_non_null(strstr(warn, "--policy other with priority 10"));
	assert_non_null(strstr(warn, "running SCHED_FIFO"));
	/* batch and idle with a priority: SCHED_FIFO, as in cyclictest */
	assert_int_equal(PARSE(&c, "--policy", "batch", "-p", "80"), 0);
	assert_int_equal(layout(&c, "0", t, note), 1);
	assert_int_equal(t[0].policy, SCHED_FIFO);
	assert_int_equal(t[0].prio, 80);
	assert_non_null(cyclic_policy_warning(&c, &t[0], warn, sizeof(warn)));
	assert_non_null(strstr(warn, "--policy batch with priority 80"));
	/* without one, SCHED_OTHER, said */
	assert_int_equal(PARSE(&c, "--policy=idle"), 0);
	assert_int_equal(layout(&c, "0", t, note), 1);
	assert_int_equal(t[0].policy, SCHED_OTHER);
	assert_int_equal(t[0].prio, 0);
	assert_non_null(cyclic_policy_warning(&c, &t[0], warn, sizeof(warn)));
	assert_non_null(strstr(warn, "--policy idle: running SCHED_OTHER"));
	assert_int_equal(PARSE(&c, "--policy=normal"), 0);
	assert_int_equal(layout(&c, "0", t, note), 1);
	assert_int_equal(t[0].policy, SCHED_OTHER);
	assert_null(cyclic_policy_warning(&c, &t[0], warn, sizeof(warn)));
	/* spreading below 1 is an error */
	assert_int_equal(PARSE(&c, "-t", "3", "-p", "2", "--priospread"), 0);
	{
		struct cpuset u = cpus("0-3");
		char err[256];

		assert_int_equal(cyclic_layout(&c, &u, t, 64, err, sizeof(err),
					       note, sizeof(note)), -1);
		assert_non_null(strstr(err, "below priority 1"));
	}
}

static void test_backends_and_values(void **state)
{
	struct cyclic_opts c;

	(void)state;
	assert_int_equal(PARSE(&c, "-m", "-n", "-N", "-v", "-x", "-r", "-s",
			       "-c", "1", "-l", "100", "-b", "50", "-D", "2m",
			       "--json", "f.json", "--histfile=h.txt",
			       "--laptop", "--tracemark"), 0);
	assert_true(c.nsecs);
	assert_true(c.verbose && c.eo.raw_samples);
	assert_true(c.posix_timers && c.relative && c.sys_nanosleep);
	assert_int_equal(c.eo.clock, CLOCK_REALTIME);
	assert_int_equal(c.eo.max_wakeups, 100);
	assert_int_equal(c.eo.max_cycles, 0);
	assert_int_equal(c.eo.break_ns, 50 * NSEC_PER_USEC);
	assert_int_equal(c.eo.duration_ns, 120 * NSEC_PER_SEC);
	assert_string_equal(c.json_file, "f.json");
	assert_string_equal(c.histfile, "h.txt");
	assert_false(c.eo.dma_latency);
	/* -b 0 is off, as in cyclictest */
	assert_int_equal(PARSE(&c, "-b", "0", "-c", "monotonic"), 0);
	assert_int_equal(c.eo.break_ns, -1);
	assert_int_equal(c.eo.clock, CLOCK_MONOTONIC);
}

static void test_errors(void **state)
{
	struct cyclic_opts c;

	(void)state;
	expect_error("unknown option '--smi'", PARSE(&c, "--smi"));
	expect_error("unknown option '-M'", PARSE(&c, "-M"));
	expect_error("-t/--threads", PARSE(&c, "-q", "-t", "0"));
	expect_error("-t/--threads", PARSE(&c, "-t0"));
	expect_error("-i/--interval", PARSE(&c, "-i", "0"));
	expect_error("-p/--priority", PARSE(&c, "-p", "100"));
	expect_error("-c/--clock", PARSE(&c, "-c", "2"));
	expect_error("-h/--histogram", PARSE(&c, "-h", "abc"));
	expect_error("--policy", PARSE(&c, "--policy", "deadline"));
	expect_error("-D/--duration", PARSE(&c, "-D", "10x"));
	expect_error("-a/--affinity", PARSE(&c, "-a", "1-0"));
	expect_error("needs a value", PARSE(&c, "-i"));
}

static void test_duration(void **state)
{
	int64_t ns;

	(void)state;
	assert_int_equal(cyclic_parse_duration("10", &ns), 0);
	assert_int_equal(ns, 10 * NSEC_PER_SEC);
	assert_int_equal(cyclic_parse_duration("5M", &ns), 0);
	assert_int_equal(ns, 300 * NSEC_PER_SEC);
	assert_int_equal(cyclic_parse_duration("2h", &ns), 0);
	assert_int_equal(ns, 7200 * NSEC_PER_SEC);
	assert_int_equal(cyclic_parse_duration("1D", &ns), 0);
	assert_int_equal(ns, 86400 * NSEC_PER_SEC);
	assert_int_equal(cyclic_parse_duration("1.5s", &ns), 0);
	assert_int_equal(ns, 1500 * NSEC_PER_MSEC);
	assert_int_equal(cyclic_parse_duration("", &ns), -EINVAL);
	assert_int_equal(cyclic_parse_duration("-1", &ns), -EINVAL);
	assert_int_equal(cyclic_parse_duration("1y", &ns), -EINVAL);
}

static int teardown(void **state)
{
	(void)state;
	free(errbuf);
	errbuf = NULL;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_threads_and_affinity),
		cmocka_unit_test(test_intervals),
		cmocka_unit_test(test_priorities),
		cmocka_unit_test(test_backends_and_values),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_duration),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
