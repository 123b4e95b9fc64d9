// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: a test's declared figures and "==" lines (output/figures.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/engine.h"
#include "core/jsonw.h"
#include "output/figures.h"

static const struct series_desc lat = { "latency", "lost", true };

static struct test_desc desc = { .name = "probe", .rows = "cpus" };

static void two_cpus(struct run *r, struct test_figs *f)
{
	(void)r;
	fig_num(f, "events", "%d", 12);
	fig_headline(f);
	fig_num(f, "ideal_ns", "%d", 2000000);
	fig_null(f, "missed");
	fig_str(f, "ipc", "sem");
	fig_num(f, "ev.sent", "%d", 3);
	fig_num(f, "ev.lost", "%d", 1);
	fig_num(f, "after", "%d", 9);
	fig_row(f);
	fig_num(f, "cpu", "%d", 0);
	fig_bool(f, "calibrated", true);
	fig_num(f, "dev_ppm", "%d", -500);
	fig_text(f, "-0.05 %%");
	fig_num(f, "n", "%d", 5);
	fig_row(f);
	fig_num(f, "cpu", "%d", 3);
	fig_bool(f, "calibrated", false);
	fig_null(f, "dev_ppm");
	fig_num(f, "n", "%d", 7);
}

static void setup_run(struct run *r)
{
	memset(r, 0, sizeof(*r));
	desc.figures = two_cpus;
	r->test = &desc;
	r->nnames = 1;
	r->names[0].desc = &lat;
	stats_init(&r->names[0].agg.st);
}

static void say(struct run *r, int row, const char *text, const char *want)
{
	struct test_figs f = TEST_FIGS_INIT;
	char out[256];

	figures_collect(r, &f);
	figures_render(r, &f, row, text, out, sizeof(out));
	assert_string_equal(out, want);
	figs_free(&f);
}

static void test_render(void **state)
{
	struct run r;

	(void)state;
	setup_run(&r);
	/* a NAME_ns in us, a null as n/a, a text form, a row's figure */
	say(&r, -1, "{events} events, ideal {ideal_ns} us, {missed}, {ipc}",
	    "12 events, ideal 2000.000 us, n/a, sem");
	say(&r, 0, "CPU {cpu}: {dev_ppm}", "CPU 0: -0.05 %");
	say(&r, 1, "CPU {cpu}: {dev_ppm}", "CPU 3: n/a");
	/* a row sees the run's figures; an unknown name is n/a */
	say(&r, 1, "{events}/{nothing}", "12/n/a");
	/* conditionals: known and not false */
	say(&r, 0, "[?calibrated:yes {n}][!calibrated:no]", "yes 5");
	say(&r, 1, "[?calibrated:yes {n}][!calibrated:no]", "no");
	say(&r, -1, "a[?missed:; {missed} missed]b", "ab");
	say(&r, -1, "[?events:x[?missed:y][!missed:z]w]", "xzw");
	/* a value compared; an object's member */
	say(&r, -1, "[?ipc=sem:S][?ipc=se:X][!ipc=pipe:P]{ev.sent}-{ev.lost}",
	    "SP3-1");
	/* sums over the rows, series figures */
	say(&r, -1, "{sum.n} {sum.nothing}", "12 0");
	r.names[0].agg.overruns = 4;
	say(&r, -1, "{series.latency.samples} + {series.latency.misses}, {series.none.samples}, {series.latency.rel:ideal_ns}",
	    "0 + 4, n/a, n/a");
	stats_add(&r.names[0].agg.st, 1000000);
	stats_add(&r.names[0].agg.st, 3000000);
	say(&r, -1, "{series.latency.rel:ideal_ns}",
	    "min 1000.000 us (+50.00 %), avg 2000.000 us (+100.00 %), max 3000.000 us (+150.00 %)");
	say(&r, -1, "{series.latency.rel:missed}",
	    "min 1000.000 us (n/a), avg 2000.000 us (n/a), max 3000.000 us (n/a)");
	/* truncated, still terminated */
	{
		struct test_figs f = TEST_FIGS_INIT;
		char out[8];

		figures_collect(&r, &f);
		figures_render(&r, &f, -1, "events {events} and more", out,
			       sizeof(out));
		assert_string_equal(out, "events ");
		figs_free(&f);
	}
}

static void test_json_and_headline(void **state)
{
	struct test_figs f = TEST_FIGS_INIT;
	struct run r;
	struct jw w;
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	(void)state;
	setup_run(&r);
	figures_collect(&r, &f);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	jw_init(&w, m);
	jw_obj_begin(&w, NULL);
	figures_json(&r, &f, &w);
	jw_obj_end(&w);
	fclose(m);
	/* numbers as numbers, strings, null, booleans; rows as objects */
	assert_non_null(strstr(buf, "\"events\": 12"));
	assert_non_null(strstr(buf, "\"missed\": null"));
	assert_non_null(strstr(buf, "\"ipc\": \"sem\""));
	assert_non_null(strstr(buf, "\"cpus\": ["));
	assert_non_null(strstr(buf, "\"calibrated\": true"));
	assert_non_null(strstr(buf, "\"calibrated\": false"));
	assert_non_null(strstr(buf, "\"dev_ppm\": -500"));
	assert_non_null(strstr(buf, "\"n\": 7"));
	/* OBJ.KEY figures in a row are one object; the next one after it */
	assert_non_null(strstr(buf, "\"ev\": {"));
	assert_non_null(strstr(buf, "\"sent\": 3"));
	assert_non_null(strstr(buf, "\"lost\": 1"));
	assert_true(strstr(buf, "\"after\": 9") > strstr(buf, "\"lost\": 1"));
	assert_null(strstr(buf, "ev.sent"));
	free(buf);
	buf = NULL;
	/* the headline: only what the test names for it */
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	figures_headline(&f, m);
	fclose(m);
	assert_string_equal(buf, "param.events 12\n");
	free(buf);
	figs_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_json_and_headline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
