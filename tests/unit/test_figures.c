// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: a test's declared figures and "==" lines (output/figures.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "util/jsonw.h"
#include "output/figures.h"

static const struct series_desc lat = { .name = "latency", .miss_name = "lost", .threshold = true };

static struct test_desc desc = { .name = "probe" };

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
	fig_list(f, "cpus", false);
	fig_item(f);
	fig_num(f, "cpu", "%d", 0);
	fig_bool(f, "calibrated", true);
	fig_num(f, "dev_ppm", "%d", -500);
	fig_text(f, "-0.05 %%");
	fig_num(f, "n", "%d", 5);
	fig_item(f);
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
	figures_render(r, &f, row < 0 ? -1 : figures_item(&f, "cpus", row),
		       text, out, sizeof(out));
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

/* A list too long to be figures: written by the test. */
static void pairs_json(const struct run *r, struct jw *w, const char *key,
		       const void *ctx)
{
	const int *v = ctx;

	(void)r;
	jw_arr_begin(w, key);
	jw_arr_begin_inline(w, NULL);
	jw_int(w, NULL, v[0]);
	jw_int(w, NULL, v[1]);
	jw_arr_end(w);
	jw_arr_end(w);
}

static const int pair[2] = { 5, 6 };

/* noise's and irq's shapes: nested objects, a null where an object may
 * be, lists of values on one line, lists of objects in an object, a
 * member written by the test, figures the lines say only */
static void nested(struct run *r, struct test_figs *f)
{
	int i;

	(void)r;
	fig_null(f, "ref");
	fig_bool(f, "hw.ran", true);
	fig_num(f, "hw.duration_ns", "%d", 1500000000);
	fig_text(f, "1.500");
	fig_list(f, "hw.cpus", false);
	fig_item(f);
	fig_num(f, "cpu", "%d", 1);
	fig_num(f, "max_ns", "%d", 2000);
	fig_item(f);
	fig_num(f, "cpu", "%d", 3);
	fig_num(f, "max_ns", "%d", 4000);
	fig_end(f);
	fig_list(f, "bounds", true);
	for (i = 1; i <= 3; i++) {
		fig_num(f, NULL, "%d", i * 10);
		fig_text(f, "<%d us", i * 10);
	}
	fig_end(f);
	fig_str(f, "intr.name", "ttyS0");
	fig_str(f, "intr.thread.name", "irq/4");
	fig_num(f, "intr.thread.pid", "%d", 77);
	fig_null(f, "intr.set");
	fig_str(f, "host", "h1");
	fig_said(f);
	fig_list(f, "cpus", false);
	fig_item(f);
	fig_num(f, "cpu", "%d", 0);
	fig_num(f, "events", "%d", 2);
	fig_list(f, "by_range", true);
	fig_num(f, NULL, "%d", 1);
	fig_num(f, NULL, "%d", 1);
	fig_end(f);
	fig_json(f, "pairs", pairs_json, pair);
	fig_num(f, "max_gap_ns", "%d", 9000);
	fig_said(f);
	fig_item(f);
	fig_num(f, "cpu", "%d", 1);
	fig_null(f, "events");
	fig_list(f, "by_range", true);
	fig_end(f);
	fig_json(f, "pairs", pairs_json, pair);
	/* the list still open: ended by figures_collect() */
}

/* What @fn writes into an object, as a string. */
static char *json_of(void (*fn)(struct jw *w, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	struct jw w;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	jw_init(&w, m);
	jw_obj_begin(&w, NULL);
	fn(&w, ctx);
	jw_obj_end(&w);
	fclose(m);
	return buf;
}

static void declared(struct jw *w, void *ctx)
{
	struct run *r = ctx;
	struct test_figs f = TEST_FIGS_INIT;

	figures_collect(r, &f);
	figures_json(r, &f, w);
	figs_free(&f);
}

/* The same test_data written by hand, as noise and irq did. */
static void by_hand(struct jw *w, void *ctx)
{
	(void)ctx;
	jw_null(w, "ref");
	jw_obj_begin(w, "hw");
	jw_bool(w, "ran", true);
	jw_int(w, "duration_ns", 1500000000);
	jw_arr_begin(w, "cpus");
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", 1);
	jw_int(w, "max_ns", 2000);
	jw_obj_end(w);
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", 3);
	jw_int(w, "max_ns", 4000);
	jw_obj_end(w);
	jw_arr_end(w);
	jw_obj_end(w);
	jw_arr_begin_inline(w, "bounds");
	jw_int(w, NULL, 10);
	jw_int(w, NULL, 20);
	jw_int(w, NULL, 30);
	jw_arr_end(w);
	jw_obj_begin(w, "intr");
	jw_str(w, "name", "ttyS0");
	jw_obj_begin(w, "thread");
	jw_str(w, "name", "irq/4");
	jw_int(w, "pid", 77);
	jw_obj_end(w);
	jw_null(w, "set");
	jw_obj_end(w);
	jw_arr_begin(w, "cpus");
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", 0);
	jw_int(w, "events", 2);
	jw_arr_begin_inline(w, "by_range");
	jw_int(w, NULL, 1);
	jw_int(w, NULL, 1);
	jw_arr_end(w);
	pairs_json(NULL, w, "pairs", pair);
	jw_obj_end(w);
	jw_obj_begin(w, NULL);
	jw_int(w, "cpu", 1);
	jw_null(w, "events");
	jw_arr_begin_inline(w, "by_range");
	jw_arr_end(w);
	pairs_json(NULL, w, "pairs", pair);
	jw_obj_end(w);
	jw_arr_end(w);
}

static void test_nested_json(void **state)
{
	struct test_figs f = TEST_FIGS_INIT;
	char *want, *got, *buf = NULL;
	size_t len = 0;
	struct run r;
	FILE *m;

	(void)state;
	setup_run(&r);
	desc.figures = nested;
	got = json_of(declared, &r);
	want = json_of(by_hand, NULL);
	/* byte for byte: keys, order, nulls, the one-line lists */
	assert_string_equal(got, want);
	free(got);
	free(want);
	/* the headline has none of them (none named for it, none in lists) */
	figures_collect(&r, &f);
	m = open_memstream(&buf, &len);
	assert_non_null(m);
	figures_headline(&f, m);
	fclose(m);
	assert_string_equal(buf, "");
	free(buf);
	/* items of a list in an object, of the run's list; none past them */
	assert_true(figures_item(&f, "hw.cpus", 1) > 0);
	assert_int_equal(figures_item(&f, "hw.cpus", 2), -1);
	assert_int_equal(figures_item(&f, "bounds", 0), -1);	/* values */
	assert_int_equal(figures_item(&f, "nothing", 0), -1);
	figs_free(&f);
}

static void say2(struct run *r, const char *list, int k, const char *text,
		 const char *want)
{
	struct test_figs f = TEST_FIGS_INIT;
	char out[256];

	figures_collect(r, &f);
	figures_render(r, &f, list ? figures_item(&f, list, k) : -1, text,
		       out, sizeof(out));
	assert_string_equal(out, want);
	figs_free(&f);
}

static void test_nested_render(void **state)
{
	struct run r;

	(void)state;
	setup_run(&r);
	desc.figures = nested;
	/* a nested object's members by their whole name; a null object */
	say2(&r, NULL, -1, "{intr.thread.name} ({intr.thread.pid}) {intr.set} [!ref:no ref]",
	     "irq/4 (77) n/a no ref");
	/* a text form of a nested figure; a figure the lines say only */
	say2(&r, NULL, -1, "{hw.duration_ns} s, {host}", "1.500 s, h1");
	/* a list: its values' sentences; an empty one says nothing */
	say2(&r, NULL, -1, "{bounds}", "<10 us, <20 us, <30 us");
	say2(&r, "cpus", 1, "[{by_range}]", "[]");
	/* an item of a list in an object; an item's list; an item's own
	 * figure before the run's; a member written by the test is n/a */
	say2(&r, "hw.cpus", 1, "CPU {cpu}: {max_ns} us", "CPU 3: 4.000 us");
	say2(&r, "cpus", 0, "{cpu}: {by_range} {max_gap_ns} {pairs}",
	     "0: 1, 1 9.000 n/a");
	say2(&r, "cpus", 1, "[?events:x][!events:{cpu} none]", "1 none");
	/* a list is known; a value test against a list is false */
	say2(&r, NULL, -1, "[?hw.cpus:L][?bounds=:E][?nothing:N]", "L");
	/* the sum over the items of every list */
	say2(&r, NULL, -1, "{sum.cpu}", "5");
}

/* figures_lines() on stdout, into @out. */
static void lines_of(struct run *r, char *out, size_t len)
{
	FILE *t = tmpfile();
	int fd, saved;
	size_t n;

	assert_non_null(t);
	fflush(stdout);
	saved = dup(1);
	fd = fileno(t);
	assert_true(saved >= 0 && dup2(fd, 1) == 1);
	figures_lines(r, LINE_SUMMARY);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(t);
	n = fread(out, 1, len - 1, t);
	out[n] = '\0';
	fclose(t);
}

static const struct test_line nested_lines[] = {
	{ LINE_SUMMARY, "cpus", "[?events:CPU {cpu}: {events}\nranges {by_range}][!events:CPU {cpu}: none]" },
	{ LINE_SUMMARY, NULL, "[?nothing:not said]" },
	{ LINE_SUMMARY, "hw.cpus", "ref CPU {cpu}" },
	{ LINE_START, NULL, "not at the summary" },
	{ 0, NULL, NULL },
};

static void test_lines(void **state)
{
	struct run r;
	char out[512];

	(void)state;
	setup_run(&r);
	desc.figures = nested;
	desc.lines = nested_lines;
	/* once per item, in order; a "\n" starts the next "==" line; a line
	 * that says nothing is not written */
	lines_of(&r, out, sizeof(out));
	assert_string_equal(out,
			    "== CPU 0: 2\n== ranges 1, 1\n== CPU 1: none\n"
			    "== ref CPU 1\n== ref CPU 3\n");
	desc.lines = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_json_and_headline),
		cmocka_unit_test(test_nested_json),
		cmocka_unit_test(test_nested_render),
		cmocka_unit_test(test_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
