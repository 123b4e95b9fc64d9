// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: option parsing and its error messages (core/opt, engine opts). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "util/timeutil.h"

static char *errbuf;
static size_t errlen;

static int handler(void *ctx, const struct optdesc *d, const char *arg)
{
	int r = engine_opt(ctx, d, arg);

	return r > 0 ? -1 : r;
}

/* Parse @args (NULL-terminated, without argv[0]); stderr captured. */
static int parse(struct engine_opts *o, const char **args)
{
	static const struct optdesc *const tables[] = {
		engine_timer_opts, engine_common_opts, NULL,
	};
	char *argv[32];
	FILE *saved = stderr, *cap;
	int argc = 0, r, first;

	argv[argc++] = "latency";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	free(errbuf);
	errbuf = NULL;
	cap = open_memstream(&errbuf, &errlen);
	stderr = cap;
	engine_opts_init(o, 100 * NSEC_PER_USEC, 99);
	r = opt_parse(argc, argv, tables, handler, o, "latency", NULL, &first);
	stderr = saved;
	fclose(cap);
	return r;
}

#define PARSE(o, ...) parse(o, (const char *[]){ __VA_ARGS__, NULL })

static void expect_error(struct engine_opts *o, const char *msg, int r)
{
	assert_int_equal(r, -1);
	if (!strstr(errbuf, msg)) {
		print_error("expected '%s' in '%s'\n", msg, errbuf);
		fail();
	}
}

static void test_good(void **state)
{
	struct engine_opts o;

	(void)state;
	assert_int_equal(PARSE(&o, "-p", "250", "-T", "10m", "-P", "80",
			       "-c", "0,1", "--policy=rr", "-w", "timerfd",
			       "--clock", "realtime", "--json", "x.json",
			       "--max-latency", "1ms", "-h", "-s", "-q"), 0);
	assert_int_equal(o.period_ns, 250000);
	assert_int_equal(o.duration_ns, 600 * NSEC_PER_SEC);
	assert_int_equal(o.prio, 80);
	assert_true(o.cpus_given);
	assert_int_equal(cpuset_count(&o.cpus), 2);
	assert_int_equal(o.wait, WAIT_TIMERFD);
	assert_int_equal(o.clock, CLOCK_REALTIME);
	assert_string_equal(o.json_file, "x.json");
	assert_int_equal(o.max_latency_ns, NSEC_PER_MSEC);
	assert_true(o.print_hist && o.linear_hist && o.print_stats && o.quiet);
	/* defaults */
	assert_int_equal(PARSE(&o, "-q"), 0);
	assert_int_equal(o.period_ns, 100000);
	assert_int_equal(o.duration_ns, 0);
	assert_int_equal(o.warmup_ns, NSEC_PER_SEC);
	assert_int_equal(o.break_ns, -1);
	assert_int_equal(o.max_latency_ns, -1);
	assert_true(o.mlock && o.dma_latency);
}

static void test_errors(void **state)
{
	struct engine_opts o;

	(void)state;
	expect_error(&o, "unknown option '-Z'", PARSE(&o, "-Z"));
	expect_error(&o, "unknown option '--frobnicate'",
		     PARSE(&o, "--frobnicate"));
	expect_error(&o, "option '-p' needs a value", PARSE(&o, "-p"));
	expect_error(&o, "option '--json' needs a value", PARSE(&o, "--json"));
	expect_error(&o, "invalid value 'abc' for -p/--period: expected a period in us",
		     PARSE(&o, "-p", "abc"));
	expect_error(&o, "invalid value '0' for -p/--period", PARSE(&o, "-p", "0"));
	expect_error(&o, "invalid value '100' for -P/--priority: expected a priority 0..99",
		     PARSE(&o, "-P", "100"));
	expect_error(&o, "invalid value '3-1' for -c/--cpus: reversed range 3-1",
		     PARSE(&o, "-c", "3-1"));
	expect_error(&o, "invalid value '' for -c/--cpus: empty CPU list",
		     PARSE(&o, "-c", ""));
	expect_error(&o, "invalid value 'soon' for -w/--wait: expected abs, timerfd, posix, rel or busy",
		     PARSE(&o, "--wait", "soon"));
	expect_error(&o, "invalid value 'tai' for --clock: expected monotonic or realtime",
		     PARSE(&o, "--clock", "tai"));
	expect_error(&o, "invalid value '5x' for -T/--duration",
		     PARSE(&o, "-T", "5x"));
	expect_error(&o, "invalid value 'deadline' for --policy: expected fifo, rr or other",
		     PARSE(&o, "--policy", "deadline"));
	expect_error(&o, "invalid value '-1' for --max-latency",
		     PARSE(&o, "--max-latency", "-1"));
}

static void test_help(void **state)
{
	struct engine_opts o;
	FILE *saved = stdout, *cap;
	char *out = NULL;
	size_t len = 0;
	int r;

	(void)state;
	cap = open_memstream(&out, &len);
	stdout = cap;
	r = PARSE(&o, "--help");
	stdout = saved;
	fclose(cap);
	assert_int_equal(r, 1);
	assert_non_null(strstr(out, "Usage: latency"));
	assert_non_null(strstr(out, "-p, --period=US"));
	assert_non_null(strstr(out, "-T, --duration=TIME"));
	assert_non_null(strstr(out, "--no-dma-latency"));
	free(out);
}

/* A copy of a table with some help texts replaced: same options, same
 * keys (the handlers see no difference), the original untouched; a
 * destination too small gives the original back. */
static void test_table_help(void **state)
{
	static const struct opt_help over[] = {
		{ 'c', "one CPU or two" },
		{ 'P', "priority of both sides" },
		{ 0, NULL },
	};
	struct optdesc dst[64], small[3];
	const struct optdesc *t, *d;
	const char *orig_c = NULL;
	int n = 0, seen = 0;

	(void)state;
	for (d = engine_common_opts; d->lng || d->shrt; d++)
		if (d->key == 'c')
			orig_c = d->help;
	assert_non_null(orig_c);
	t = opt_table_help(dst, 64, engine_common_opts, over);
	assert_ptr_equal(t, dst);
	for (d = t; d->lng || d->shrt; d++, n++) {
		assert_int_equal(d->key, engine_common_opts[n].key);
		if (d->key == 'c') {
			assert_string_equal(d->help, "one CPU or two");
			seen++;
		} else if (d->key == 'P') {
			assert_string_equal(d->help, "priority of both sides");
			seen++;
		} else {
			assert_ptr_equal(d->help, engine_common_opts[n].help);
		}
	}
	assert_int_equal(seen, 2);
	assert_null(engine_common_opts[n].lng);	/* same length */
	for (d = engine_common_opts; d->lng || d->shrt; d++)
		if (d->key == 'c')
			assert_ptr_equal(d->help, orig_c);
	assert_ptr_equal(opt_table_help(small, 3, engine_common_opts, over),
			 engine_common_opts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_table_help),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	free(errbuf);
	return r;
}
