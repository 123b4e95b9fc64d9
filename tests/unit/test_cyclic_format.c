// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rtlat cyclic's output: T: lines in cyclictest's fields and
 * widths (us and -N), n/a without cycles, unit conversion; and the engine
 * parts cyclic relies on: the per-sampler period with the interval
 * watermark (a slow thread does not hold back the display) and the list of
 * cycles that overflowed the histogram; --json without threads or cycles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "engine/engine.h"
#include "measure/cyclic.h"
#include "util/timeutil.h"

static void test_unit(void **state)
{
	(void)state;
	assert_int_equal(cyclic_unit(0, false), 0);
	assert_int_equal(cyclic_unit(999, false), 0);
	assert_int_equal(cyclic_unit(1000, false), 1);
	assert_int_equal(cyclic_unit(17999, false), 17);
	/* rounded down below zero too (bucket edges) */
	assert_int_equal(cyclic_unit(-1, false), -1);
	assert_int_equal(cyclic_unit(-1000, false), -1);
	assert_int_equal(cyclic_unit(-1001, false), -2);
	assert_int_equal(cyclic_unit(-1001, true), -1001);
	assert_int_equal(cyclic_unit(123456789, true), 123456789);
}

static void test_tline(void **state)
{
	struct cyclic_tvals v = {
		.index = 0, .tid = 12340, .prio = 80,
		.interval_ns = 1000 * NSEC_PER_USEC, .cycles = 3000,
		.min = 11999, .act = 12000, .avg = 18500, .max = 103001,
	};
	char buf[256];

	(void)state;
	/* a line of cyclictest's own output (fixtures/quiet-2threads.txt) */
	cyclic_tline(buf, sizeof(buf), &v, false);
	assert_string_equal(buf,
		"T: 0 (12340) P:80 I:1000 C:   3000 Min:     11 Act:   12 Avg:   18 Max:     103");
	v.index = 1;
	v.tid = 123;
	v.prio = 0;
	v.interval_ns = 1500 * NSEC_PER_USEC;
	v.cycles = 12345678;
	cyclic_tline(buf, sizeof(buf), &v, false);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:12345678 Min:     11 Act:   12 Avg:   18 Max:     103");
	/* -N: ns, Act and Avg 8 wide; I: stays in us */
	cyclic_tline(buf, sizeof(buf), &v, true);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:12345678 Min:  11999 Act:   12000 Avg:   18500 Max:  103001");
	/* a latency is the signed value measured: never printed as an
	 * unsigned 32-bit number (issue 30: Act:4204935386 Max:4204935386) */
	v.cycles = 5;
	v.min = -90031910;
	v.act = -90031910;
	v.avg = -1500;
	v.max = 2000;
	cyclic_tline(buf, sizeof(buf), &v, false);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:      5 Min: -90032 Act:-90032 Avg:   -2 Max:       2");
	cyclic_tline(buf, sizeof(buf), &v, true);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:      5 Min:-90031910 Act:-90031910 Avg:   -1500 Max:    2000");
	/* no cycle: n/a, never a sentinel */
	v.cycles = 0;
	cyclic_tline(buf, sizeof(buf), &v, false);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:      0 Min:    n/a Act:  n/a Avg:  n/a Max:     n/a");
	cyclic_tline(buf, sizeof(buf), &v, true);
	assert_string_equal(buf,
		"T: 1 (  123) P: 0 I:1500 C:      0 Min:    n/a Act:     n/a Avg:     n/a Max:     n/a");
}

/* --- engine: per-sampler periods, watermark, overflow cycles ---------- */

#define MS NSEC_PER_MSEC
#define T0 (1000 * NSEC_PER_SEC)

static const struct series_desc lat = { .name = "latency", .miss_name = "overruns", .threshold = true };
static const struct series_desc *const descs[] = { &lat };
static int intervals_seen;
static uint64_t last_k;

static void count_interval(struct run *r, uint64_t k, const struct window *agg,
			   const struct winrec *const *thr)
{
	(void)r;
	(void)agg;
	(void)thr;
	intervals_seen++;
	last_k = k;
}

static const struct output_ops counting = { .interval = count_interval };
static const struct test_desc fake_test = {
	.name = "fake", .mode = "synthetic", .out = &counting,
};

/* One on-time wake-up of @s at deadline @d + @late; returns the next. */
static int64_t wake(struct sampler *s, int64_t d, int64_t late, bool *done)
{
	struct wake wk = { .deadline = d, .now = d + late, .missed = 0 };
	int64_t next = d + s->period_ns;

	*done = sampler_timer_wake(s, 0, &wk, s->period_ns, next);
	return next;
}

static void test_slow_sampler_does_not_stall(void **state)
{
	struct engine_opts o;
	struct run r;
	struct sampler *a, *b;
	int64_t da = T0, db = T0;
	bool done;
	int i;

	(void)state;
	memset(&r, 0, sizeof(r));
	engine_opts_init(&o, 1 * MS, 80);
	o.warmup_ns = 0;
	o.interval_ns = 100 * MS;
	o.linear_hist = true;
	o.hist_bucket_ns = NSEC_PER_USEC;
	o.hist_buckets = 10;
	o.overflow_cycles = 3;
	r.o = &o;
	r.test = &fake_test;
	assert_non_null(engine_add_sampler(&r, 0, 1, 80, 1, descs));
	assert_non_null(engine_add_sampler(&r, 1, 1, 80, 1, descs));
	r.s[1].period_ns = 10 * NSEC_PER_SEC;	/* a very slow thread */
	assert_int_equal(r.s[0].period_ns, 1 * MS);
	assert_int_equal(engine_alloc(&r), 0);
	a = &r.s[0];
	b = &r.s[1];
	r.t0 = r.t_measure = T0;
	r.t_end = INT64_MAX;
	intervals_seen = 0;

	/* the slow thread wakes once, at its first deadline */
	db = wake(b, db, 5000, &done);
	assert_false(done);
	/* the fast one runs 1 s: 10 intervals close although the slow one
	 * sleeps; samples >= 10 us overflow the 10-bucket histogram */
	for (i = 0; i < 1000; i++) {
		da = wake(a, da, i % 100 == 7 ? 50000 : 3000, &done);
		assert_false(done);
		engine_drain(&r, false);
	}
	assert_int_equal(intervals_seen, 10);
	assert_int_equal(last_k, 9);
	(void)db;

	/* both stop: everything is accounted */
	sampler_finish(a);
	sampler_finish(b);
	engine_drain(&r, true);
	assert_int_equal(r.total[0][0].st.n, 1000);
	assert_int_equal(r.total[1][0].st.n, 1);
	assert_int_equal(r.total[0][0].lin.overflow, 10);
	/* the first 3 overflowing cycles kept */
	assert_int_equal(a->series[0].novf, 3);
	assert_int_equal(a->series[0].ovf_cycles[0], 7);
	assert_int_equal(a->series[0].ovf_cycles[1], 107);
	assert_int_equal(a->series[0].ovf_cycles[2], 207);
	assert_int_equal(b->series[0].novf, 0);
	engine_free(&r);
}

/* --json of runs with no thread and with a thread without a cycle: valid
 * JSON, null statistics. */
static char *json_of(struct run *r)
{
	char path[] = "/tmp/rtlat-test-cyclic-XXXXXX", err[256];
	static char buf[65536];
	size_t n;
	FILE *f;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(cyclic_json_write(r, path, 0, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
#ifdef HAVE_CJSON
	{
		cJSON *j = cJSON_ParseWithOpts(buf, NULL, 1);

		assert_non_null(j);
		cJSON_Delete(j);
	}
#endif
	return buf;
}

static void test_json_no_cycles(void **state)
{
	static const struct test_desc cyclic_fake = {
		.name = "cyclic", .mode = "synthetic", .out = &counting,
	};
	char *argv[] = { "rtlat", "cyclic", "--json=\"x\".json", NULL };
	struct cyclic_opts c;
	struct cyclic_state st = { 0 };
	struct run r;
	const char *j;

	(void)state;
	memset(&r, 0, sizeof(r));
	cyclic_opts_init(&c, 3, argv);
	st.c = &c;
	r.o = &c.eo;
	r.test = &cyclic_fake;
	r.priv = &st;
	r.argc = 3;
	r.argv = argv;

	/* no thread at all */
	j = json_of(&r);
	assert_non_null(strstr(j, "\"num_threads\": 0"));
	assert_non_null(strstr(j, "\"thread\": {}"));
	assert_non_null(strstr(j, "\"cmdline\": \"rtlat cyclic --json=\\\"x\\\".json\""));
	assert_null(strstr(j, "nan"));

	/* one thread that never sampled */
	assert_non_null(engine_add_sampler(&r, 0, 1, 80, 1, descs));
	assert_int_equal(engine_alloc(&r), 0);
	j = json_of(&r);
	assert_non_null(strstr(j, "\"num_threads\": 1"));
	assert_non_null(strstr(j, "\"cycles\": 0"));
	assert_non_null(strstr(j, "\"min\": null"));
	assert_non_null(strstr(j, "\"avg\": null"));
	assert_non_null(strstr(j, "\"max\": null"));
	assert_null(strstr(j, "nan"));
	engine_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unit),
		cmocka_unit_test(test_tline),
		cmocka_unit_test(test_slow_sampler_does_not_stall),
		cmocka_unit_test(test_json_no_cycles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
