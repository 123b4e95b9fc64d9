// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the report side: number parsing and range checks, headings,
 * date filters, percentiles from imported histograms, merging threads, the
 * noise rule of compare, JSON sanitizing, a table printed and read back
 * (labels with '|', notes), run identities.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#ifdef HAVE_REPORT
#include "engine/engine.h"
#include "util/label.h"
#include "util/log.h"
#include "report/cli.h"
#include "report/import/import.h"
#include "report/report.h"
#include "report/verdict.h"

static void test_imp_num(void **state)
{
	const char *p;
	int64_t v;

	(void)state;
	p = "  1.393|";
	assert_int_equal(imp_num(&p, 1000, &v), 0);
	assert_int_equal(v, 1393);
	assert_string_equal(p, "|");
	p = "-35125";
	assert_int_equal(imp_num(&p, 1, &v), 0);
	assert_int_equal(v, -35125);
	p = "1.0005";		/* sub-ns fraction truncated */
	assert_int_equal(imp_num(&p, 1000, &v), 0);
	assert_int_equal(v, 1000);
	p = "16.49";
	assert_int_equal(imp_num(&p, 1000, &v), 0);
	assert_int_equal(v, 16490);
	p = "9007199254740992";	/* 2^53 is the limit */
	assert_int_equal(imp_num(&p, 1, &v), 0);
	p = "9007199254740993";
	assert_int_equal(imp_num(&p, 1, &v), -ERANGE);
	p = "99999999999999999999999999999";
	assert_int_equal(imp_num(&p, 1, &v), -ERANGE);
	p = "-9223372036854775808";
	assert_int_equal(imp_num(&p, 1, &v), -ERANGE);
	p = "9007199254741";	/* fits in ns, not once scaled to us */
	assert_int_equal(imp_num(&p, 1000, &v), -ERANGE);
	p = "-nan";
	assert_int_equal(imp_num(&p, 1, &v), -EDOM);
	p = "inf";
	assert_int_equal(imp_num(&p, 1, &v), -EDOM);
	p = "1e23 ns";		/* an exponent: no 1 (no tool prints one) */
	assert_int_equal(imp_num(&p, 1, &v), -EDOM);
	p = "2.1E+01|";
	assert_int_equal(imp_num(&p, 1000, &v), -EDOM);
	p = "12 events";	/* a word after the number is no exponent */
	assert_int_equal(imp_num(&p, 1, &v), 0);
	assert_int_equal(v, 12);
	p = "with";
	assert_int_equal(imp_num(&p, 1, &v), -EINVAL);
	assert_string_equal(p, "with");		/* not moved on error */
	p = "";
	assert_int_equal(imp_num(&p, 1, &v), -EINVAL);
}

static void test_imp_count(void **state)
{
	const char *p;
	uint64_t v;

	(void)state;
	p = "00035 others";
	assert_int_equal(imp_count(&p, &v), 0);
	assert_int_equal(v, 35);
	p = "-1";
	assert_int_equal(imp_count(&p, &v), -EINVAL);
	p = "18446744073709551617";
	assert_int_equal(imp_count(&p, &v), -ERANGE);
}

static void test_hms_and_time_words(void **state)
{
	int64_t ns;
	const char *end;

	(void)state;
	assert_int_equal(parse_hms("00:10:50 1.0-00", &ns, &end), 0);
	assert_int_equal(ns, 650 * 1000000000LL);
	assert_string_equal(end, " 1.0-00");
	assert_int_equal(parse_hms("1:60:00", &ns, NULL), -EINVAL);
	assert_int_equal(parse_hms("99999999999:00:00", &ns, NULL), -ERANGE);
	assert_int_equal(parse_time_words("100 us period", &ns, NULL), 0);
	assert_int_equal(ns, 100000);
	assert_int_equal(parse_time_words("1000000 (ns)", &ns, NULL), 0);
	assert_int_equal(ns, 1000000);
	assert_int_equal(parse_time_words("1 (s)", &ns, NULL), 0);
	assert_int_equal(ns, 1000000000);
	assert_int_equal(parse_time_words("5 furlongs", &ns, NULL), -EINVAL);
}

static void test_heading(void **state)
{
	struct heading h;

	(void)state;
	assert_true(parse_heading("LATENCY with load:", &h));
	assert_string_equal(h.kind, "latency");
	assert_string_equal(h.load, REP_LOAD_UNNAMED);
	assert_true(parse_heading("SWITCH without load", &h));
	assert_string_equal(h.kind, "switch");
	assert_string_equal(h.load, "none");
	assert_true(parse_heading("CRUNCER without load:", &h));
	assert_string_equal(h.kind, "cruncher");
	assert_true(parse_heading("KLATENCY with load hell (us):", &h));
	assert_string_equal(h.kind, "klatency");
	assert_string_equal(h.load, "hell");
	assert_int_equal(h.unit_ns, 1000);
	assert_true(parse_heading("CYCLIC, load not recorded (ns):", &h));
	assert_string_equal(h.kind, "cyclic");
	assert_string_equal(h.load, "");
	assert_int_equal(h.unit_ns, 1);
	assert_false(parse_heading("KLATENCY comparison Xenomai 2.0 vs. RTAI/RTHAL 3.0r5 on TQM860L:", &h));
	assert_false(parse_heading("Note: load has been put onto the system", &h));
	assert_false(parse_heading("| lat min| lat avg| with load", &h));
	/* rtlat suite's headings: a unit clause, the load in parentheses */
	assert_true(parse_heading("LATENCY without load, latencies in us, test-time hh:mm:ss:", &h));
	assert_string_equal(h.kind, "latency");
	assert_string_equal(h.load, "none");
	assert_int_equal(h.unit_ns, 1000);
	assert_true(parse_heading("LATENCY with load (cpu), latencies in us, test-time hh:mm:ss:", &h));
	assert_string_equal(h.load, "cpu");
	assert_int_equal(h.unit_ns, 1000);
	assert_true(parse_heading("SWITCH with load hell, values in ns", &h));
	assert_string_equal(h.load, "hell");
	assert_int_equal(h.unit_ns, 1);
	assert_true(parse_heading("LATENCY, load not recorded, latencies in microseconds:", &h));
	assert_string_equal(h.load, "");
	assert_int_equal(h.unit_ns, 1000);
	assert_true(parse_heading("LATENCY with load, all results in ms", &h));
	assert_int_equal(h.unit_ns, 1000000);
	/* an unknown clause: no heading */
	assert_false(parse_heading("LATENCY with load, but see the notes", &h));
	assert_false(parse_heading("LATENCY without load, latencies in furlongs", &h));
}

static void test_date_check(void **state)
{
	static const char *const good[] = {
		"2026", "2026-11", "2026-11-29", "2026-11-29T12", "2026-11-29T23:59",
		"2026-11-29T23:59:59", "2028-02-29", "2000-02-29", "2026-12-31",
	};
	static const char *const bad[] = {
		"2026-13-45", "2026-00", "2026-11-31", "2026-02-29", "1900-02-29",
		"2026-11-29T24", "2026-11-29T12:60", "2026-11-29T12:00:60",
		"2026-1", "26-11-01", "2026/11/01", "", "2026-11-29T12:00:00Z",
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", good[i]);
		assert_null(rep_date_check(buf));
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(buf, sizeof(buf), "%s", bad[i]);
		assert_non_null(rep_date_check(buf));
	}
	snprintf(buf, sizeof(buf), "2026-11-29 12:00");
	assert_null(rep_date_check(buf));
	assert_string_equal(buf, "2026-11-29T12:00");
}

static void test_fields(void **state)
{
	char line[] = "RTD|      1.393|  2.908 |21.765|      0 iPipe 1.0-00";
	char *f[8];
	char names[8][24];

	(void)state;
	assert_int_equal(rth_names("RTH|----lat min|-overrun|---msw|--lat worst", names, 8), 4);
	assert_string_equal(names[0], "lat min");
	assert_string_equal(names[1], "overrun");
	assert_string_equal(names[3], "lat worst");
	assert_int_equal(split_fields(line, '|', f, 8), 5);
	assert_string_equal(f[2], "2.908");
	assert_string_equal(f[4], "0 iPipe 1.0-00");
}

/* cyclictest-like: whole us, quantized */
static void test_quantized_percentiles(void **state)
{
	struct rep_series s;
	int i;

	(void)state;
	series_init(&s, 0);
	s.hist.layout = REP_HIST_LINEAR;
	s.hist.lo = 0;
	s.hist.width = 1000;
	s.hist.nbuckets = 60;
	s.hist.quantized = true;
	assert_int_equal(hist_push(&s.hist, 10000, 10999, 500), 0);
	assert_int_equal(hist_push(&s.hist, 11000, 11999, 499), 0);
	assert_int_equal(hist_push(&s.hist, 12000, 12999, 0), 0);
	assert_int_equal(hist_push(&s.hist, 11000, 11999, 1), -EINVAL);
	s.hist.overflow = 1;
	s.min = 10000;
	s.max = 345000;
	s.avg = 11000;
	s.has_stats = true;
	assert_int_equal(series_fill_percentiles(&s), RTLAT_NPCT);
	assert_int_equal(s.pct[0], 10000);		/* p50: bucket 10 us */
	assert_int_equal(s.pct[1], 11000);		/* p90 */
	assert_int_equal(s.pct[PCT_P999], 11000);	/* rank 999 of 1000 */
	assert_false(s.pct_bound[PCT_P999]);
	/* rank 1000 is in the overflow: at least its edge, 60 us, never the
	 * max */
	for (i = PCT_P999 + 1; i < RTLAT_NPCT; i++) {
		assert_true(s.has_pct[i]);
		assert_true(s.pct_bound[i]);
		assert_int_equal(s.pct[i], 60000);
	}
	for (i = 0; i < RTLAT_NPCT; i++)
		assert_true(s.pct[i] >= s.min && s.pct[i] <= s.max);
	series_free(&s);
}

/* Percentiles settled: too few samples -> unknown; a rank in the
 * overflow -> the overflow's edge as a lower bound, unless the max is the
 * edge itself. */
static void test_check_percentiles(void **state)
{
	struct rep_series s;
	char b[32];
	int i;

	(void)state;
	series_init(&s, 0);
	s.hist.layout = REP_HIST_LINEAR;
	s.hist.lo = 0;
	s.hist.width = 1000;
	s.hist.nbuckets = 30;
	s.hist.quantized = true;
	assert_int_equal(hist_push(&s.hist, 14000, 14999, 970), 0);
	s.hist.overflow = 29;		/* 970 + 29 = 999 samples */
	s.has_samples = true;
	s.samples = 999;
	s.min = 14000;
	s.max = 65000;
	s.avg = 15000;
	s.has_stats = true;
	/* p50, p90 from the bucket; p99 (rank 990 > 970) in the overflow;
	 * p99.9 and beyond: 999 samples are too few */
	assert_int_equal(series_fill_percentiles(&s), 3);
	assert_int_equal(s.pct[0], 14000);
	assert_false(s.pct_bound[0]);
	assert_true(s.has_pct[2] && s.pct_bound[2]);
	assert_int_equal(s.pct[2], 30000);
	for (i = PCT_P999; i < RTLAT_NPCT; i++)
		assert_false(s.has_pct[i]);
	fmt_pct(b, sizeof(b), &s, 2, 1);
	assert_string_equal(b, ">=30000");
	fmt_pct(b, sizeof(b), &s, 2, 1000);
	assert_string_equal(b, ">=30.000");
	fmt_pct(b, sizeof(b), &s, PCT_P999, 1);
	assert_string_equal(b, "n/a");
	fmt_pct(b, sizeof(b), &s, 0, 1000);
	assert_string_equal(b, "14.000");
	/* a value a source states (the max, as rtlat's core writes it) is
	 * settled the same way */
	s.samples = 1000;
	s.hist.bucket_total = 970;
	s.hist.overflow = 30;
	s.pct[PCT_P999] = 65000;
	s.has_pct[PCT_P999] = true;
	series_check_percentiles(&s);
	assert_true(s.pct_bound[PCT_P999]);
	assert_int_equal(s.pct[PCT_P999], 30000);
	/* the max is the edge: the percentile is exactly the max */
	s.max = 30000;
	s.pct[PCT_P999] = 30000;
	s.pct_bound[PCT_P999] = false;
	series_check_percentiles(&s);
	assert_false(s.pct_bound[PCT_P999]);
	assert_int_equal(s.pct[PCT_P999], 30000);
	series_free(&s);
}

static void test_hist_limits(void **state)
{
	struct rep_hist h;

	(void)state;
	memset(&h, 0, sizeof(h));
	assert_int_equal(hist_push(&h, 0, 0, REP_MAX_VALUE), 0);
	assert_int_equal(hist_push(&h, 1, 1, 1), -ERANGE);
	assert_int_equal(hist_push(&h, 5, 4, 1), -EINVAL);
	assert_int_equal(hist_push(&h, 0, REP_MAX_VALUE + 1, 1), -EINVAL);
	free(h.b);
}

static void test_summarize(void **state)
{
	struct rep_run *r = run_new();
	struct rep_series *a, *b;

	(void)state;
	/* the second add may move the first: take both after */
	run_add_thread(r, 0);
	run_add_thread(r, 1);
	a = &r->thr[0];
	b = &r->thr[1];
	a->samples = 3000;
	a->has_samples = b->has_samples = true;
	b->samples = 1000;
	a->min = 10000;
	a->max = 65000;
	a->avg = 15000;
	b->min = 9000;
	b->max = 6574000;
	b->avg = 19000;
	a->has_stats = b->has_stats = true;
	a->has_misses = b->has_misses = true;
	a->misses = 2;
	b->misses = 3;
	run_finish(r);
	assert_true(r->sum.has_stats);
	assert_int_equal(r->sum.samples, 4000);
	assert_int_equal(r->sum.min, 9000);
	assert_int_equal(r->sum.max, 6574000);
	assert_true(r->sum.avg > 15999.9 && r->sum.avg < 16000.1);
	assert_int_equal(r->sum.misses, 5);
	run_free(r);
}

static struct rep_run *mk(const char *label, int64_t mn, double avg, int64_t mx)
{
	struct rep_run *r = run_new();

	r->label = xstrdup(label);
	r->test = xstrdup("latency");
	r->series = xstrdup("latency");
	r->load = xstrdup(REP_LOAD_UNNAMED);
	r->sum.min = mn;
	r->sum.avg = avg;
	r->sum.max = mx;
	r->sum.has_stats = true;
	r->sum.misses = 0;
	r->sum.has_misses = true;
	r->miss = MISS_OVERRUNS;
	return r;
}

/* The Ocotea comparison, by the fixed rule. */
static void test_compare_rule(void **state)
{
	struct rep_run *a = mk("1.0-00", 3575, 7438, 24474);
	struct rep_run *b = mk("1.0-01", 3553, 10125, 23970);
	struct cmp_row c;

	(void)state;
	cmp_runs(&a, 1, &b, 1, &c);
	assert_true(c.m[1].known);
	assert_true(c.m[1].pct > 36.1 && c.m[1].pct < 36.2);
	assert_true(c.m[1].beyond);		/* avg +36 % */
	assert_int_equal(c.m[1].src, NOISE_RULE);
	assert_false(c.m[0].beyond);		/* min -0.6 % */
	assert_false(c.m[2].beyond);		/* max -2.1 % */
	assert_false(c.m[3].known);		/* no p99.9 */
	assert_false(c.m[4].beyond);		/* 0 -> 0 overruns */
	run_free(a);
	run_free(b);
}

/* A metric one side lacks (a run without samples): the other side's value
 * is kept and shown, nothing is compared. */
static void test_compare_one_side(void **state)
{
	struct rep_run *a = mk("empty", 0, 0, 0);
	struct rep_run *b = mk("full", 3553, 10125, 23970);
	char *buf = NULL;
	size_t len = 0;
	struct cmp_row c;
	FILE *f;

	(void)state;
	a->sum.has_stats = false;
	cmp_runs(&a, 1, &b, 1, &c);
	assert_false(c.m[2].known);
	assert_false(c.m[2].has_a);
	assert_true(c.m[2].has_b);
	assert_true(c.m[2].b > 23969 && c.m[2].b < 23971);
	assert_true(c.m[4].known);		/* both count overruns */
	f = open_memstream(&buf, &len);
	cmp_print_text(f, &c, 1);
	fclose(f);
	assert_non_null(strstr(buf, "lat max     |         n/a|       23970|"));
	free(buf);
	run_free(a);
	run_free(b);
}

static void add_iv(struct rep_run *r, int64_t mx)
{
	struct rep_interval *iv = series_add_interval(&r->sum);

	iv->has_stats = true;
	iv->min = 1000;
	iv->avg = 2000;
	iv->max = mx;
}

/* With interval series, the noise model (verdict.c): the law of the
 * interval maxima for the max, batch means for the avg. */
static void test_compare_intervals(void **state)
{
	struct rep_run *a = mk("a", 1000, 2000, 400000);
	struct rep_run *b = mk("b", 1000, 2000, 500000);
	struct cmp_row c;
	int i;

	(void)state;
	for (i = 0; i < 10; i++) {
		add_iv(a, i % 2 ? 20000 : 400000);
		add_iv(b, i % 2 ? 20000 : 500000);
	}
	cmp_runs(&a, 1, &b, 1, &c);
	assert_int_equal(c.m[2].src, NOISE_BLOCKS);
	assert_false(c.m[2].beyond);	/* +25 % but intervals swing 20..500 us */
	assert_int_equal(c.m[2].verdict, VD_SAME);
	assert_int_equal(c.m[1].src, NOISE_BATCHES);
	assert_int_equal(c.m[1].verdict, VD_SAME);
	assert_int_equal(c.m[0].src, NOISE_INTERVALS);	/* min: the rule */
	run_free(a);
	run_free(b);
}

/* Repeated runs on a side: the spread of their averages (verdict.c);
 * without interval series, the range of their maxima. */
static void test_compare_repeats(void **state)
{
	struct rep_run *a[3] = { mk("a", 1000, 2000, 10000), mk("a", 1000, 2100, 30000),
				 mk("a", 1000, 2050, 20000) };
	struct rep_run *b[2] = { mk("b", 1000, 4000, 25000), mk("b", 1000, 4100, 26000) };
	struct cmp_row c;
	int i;

	(void)state;
	cmp_runs(a, 3, b, 2, &c);
	assert_int_equal(c.m[1].src, NOISE_RUNS);
	assert_true(c.m[1].beyond);		/* 2050 -> 4050 */
	assert_int_equal(c.m[1].verdict, VD_WORSE);
	assert_int_equal(c.m[2].src, NOISE_REPEATS);
	assert_true(c.m[2].a > 19999 && c.m[2].a < 20001);	/* median */
	assert_false(c.m[2].beyond);		/* maxima spread 10..30 us */
	for (i = 0; i < 3; i++)
		run_free(a[i]);
	for (i = 0; i < 2; i++)
		run_free(b[i]);
}

/* A table of its own columns, as noise's (measure/noise.c). */
static const struct suite_col own_cols[] = {
	{ "max gap", "gap", SUITE_MAX },
	{ "noise %", "noise_pct", SUITE_PERCENT },
	{ "on CPU", "noise_cpu", SUITE_CPU },
	{ "events", "events", SUITE_FIGURE },
	{ "p99.9", "gap", SUITE_P999 },
	{ "test-time", "measured_ns", SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

static const struct suite_spec own_spec = { .title = "NOISE", .cols = own_cols };

static const struct suite_spec *own_spec_of(const char *test)
{
	return !strcmp(test, "noise") ? &own_spec : NULL;
}

static struct rep_run *mk_noise(const char *label, int64_t mx, const char *pct,
				const char *cpu, const char *events)
{
	struct rep_run *r = mk(label, 10000, 20000, mx);

	str_set(&r->test, "noise");
	str_set(&r->series, "gap");
	run_add_figure(r, "noise_pct", -1, pct);
	run_add_figure(r, "noise_cpu", -1, cpu);
	run_add_figure(r, "events", -1, events);
	return r;
}

/* A test whose table has columns of its own is compared on them, in
 * their order and words: the series' max (max gap), a % with its 4
 * decimals, a CPU shown and not compared, a count as a Poisson count; no
 * lat min/avg, no overrun row (the gate finds no name for them). */
static void test_compare_own_columns(void **state)
{
	struct rep_run *a = mk_noise("a", 52059992, "5.958800", "1", "699");
	struct rep_run *b = mk_noise("b", 52618731, "6.411700", "0", "748");
	char *buf = NULL;
	size_t len = 0;
	struct cmp_row c;
	FILE *f;

	(void)state;
	cmp_set_spec_of(own_spec_of);
	cmp_runs(&a, 1, &b, 1, &c);
	assert_int_equal(c.nrow, 5);
	assert_string_equal(c.m[c.row[0]].name, "max gap");
	assert_int_equal(c.row[0], CMP_MAX);
	assert_string_equal(c.m[c.row[1]].name, "noise %");
	assert_string_equal(c.m[c.row[2]].name, "on CPU");
	assert_string_equal(c.m[c.row[3]].name, "events");
	assert_string_equal(c.m[c.row[4]].name, "p99.9");
	assert_int_equal(c.row[4], CMP_P999);
	assert_string_equal(c.m[CMP_MIN].name, "");
	assert_string_equal(c.m[CMP_AVG].name, "");
	assert_string_equal(c.m[CMP_MISS].name, "");
	assert_true(c.m[c.row[1]].known);
	assert_true(fabs(c.m[c.row[1]].delta - 0.4529) < 1e-9);
	assert_false(c.m[c.row[2]].known);	/* where, not how much */
	assert_true(c.m[c.row[2]].has_a && c.m[c.row[2]].has_b);
	assert_true(c.m[c.row[3]].known);
	assert_true(fabs(c.m[c.row[3]].noise - 2 * sqrt(699 + 748)) < 1e-9);
	assert_false(c.m[c.row[3]].beyond);	/* +49 in 2 sqrt(1447) = 76 */
	f = open_memstream(&buf, &len);
	cmp_print_text(f, &c, 1000);
	fclose(f);
	assert_non_null(strstr(buf, "\nnoise %     |      5.9588|      6.4117|     +0.4529|   +7.6 %|      1.4897|      rule|           no|        same\n"));
	assert_non_null(strstr(buf, "\non CPU      |           1|           0|            |"));
	assert_non_null(strstr(buf, "\nevents      |         699|         748|         +49|   +7.0 %|          76|   poisson|           no|        same\n"));
	assert_null(strstr(buf, "lat "));
	assert_null(strstr(buf, "overrun"));
	free(buf);
	/* another test: the latency metrics */
	str_set(&a->test, "latency");
	str_set(&b->test, "latency");
	cmp_runs(&a, 1, &b, 1, &c);
	assert_string_equal(c.m[c.row[0]].name, "lat min");
	cmp_set_spec_of(NULL);
	run_free(a);
	run_free(b);
}

#ifdef HAVE_CJSON
static void test_json_sanitize(void **state)
{
	const char in[] = "{\"a\": -nan, \"b\": \"nan\", \"c\": [nan, inf, -Infinity], \"nan\": 1}";
	int n;
	char *out = json_sanitize(in, strlen(in), &n);

	(void)state;
	assert_string_equal(out, "{\"a\": null, \"b\": \"nan\", \"c\": [null, null, null], \"nan\": 1}");
	assert_int_equal(n, 4);
	free(out);
	/* not NUL-terminated input: no read past the end */
	out = json_sanitize("[na", 3, &n);
	assert_string_equal(out, "[na");
	free(out);
}
#endif

/* A text table printed by rtlat report reads back as the same runs. */
static void test_table_round_trip(void **state)
{
	struct out_opts o = { .unit_ns = 1000, .threads = false };
	struct imp_opts io = { .quiet = true };
	struct rep_runs rs, back;
	struct group *g;
	struct rtable t;
	char *buf = NULL;
	size_t len = 0, ng;
	FILE *f = open_memstream(&buf, &len);
	struct rep_run *r = mk("Ocotea 1.0-01", 3553, 10125, 23970);

	(void)state;
	r->duration_ns = 581 * 1000000000LL;
	r->sum.pct[PCT_P999] = 20001;
	r->sum.has_pct[PCT_P999] = true;
	runs_init(&rs);
	runs_init(&back);
	runs_push(&rs, r);
	ng = groups_make(&rs, &g);
	table_build(&g[0], &o, &t);
	table_print_text(f, &t);
	table_free(&t);
	groups_free(g, ng);
	fclose(f);
	assert_int_equal(import_buffer("mem", buf, len, &io, &back), 0);
	assert_int_equal(back.n, 1);
	assert_string_equal(back.v[0]->label, "Ocotea 1.0-01");
	assert_string_equal(back.v[0]->test, "latency");
	assert_string_equal(back.v[0]->load, REP_LOAD_UNNAMED);
	assert_int_equal(back.v[0]->sum.min, 3553);
	assert_int_equal(back.v[0]->sum.max, 23970);
	assert_int_equal(back.v[0]->sum.pct[PCT_P999], 20001);
	assert_int_equal(back.v[0]->duration_ns, 581 * 1000000000LL);
	free(buf);
	runs_free(&rs);
	runs_free(&back);
}

/* A p99.9 that is a lower bound prints ">=N" and reads back as one; a
 * section prints as an underlined title and reads back. */
static void test_table_bound_and_section(void **state)
{
	struct out_opts o = { .unit_ns = 1, .threads = false };
	struct imp_opts io = { .quiet = true };
	struct rep_runs rs, back;
	struct group *g;
	struct rtable t;
	char *buf = NULL;
	size_t len = 0, ng, i;
	FILE *f = open_memstream(&buf, &len);
	struct rep_run *a = mk("board A", 3553, 10125, 65000);
	struct rep_run *b = mk("board B", 3000, 9000, 20000);

	(void)state;
	a->sum.pct[PCT_P999] = 30000;
	a->sum.has_pct[PCT_P999] = true;
	a->sum.pct_bound[PCT_P999] = true;
	b->section = xstrdup("B vs C");
	runs_init(&rs);
	runs_init(&back);
	runs_push(&rs, a);
	runs_push(&rs, run_dup(a));
	rs.v[1]->label[6] = 'Z';
	str_set(&rs.v[1]->section, "B vs C");
	runs_push(&rs, b);
	ng = groups_make(&rs, &g);
	assert_int_equal(ng, 2);		/* the section is a table apart */
	assert_false(same_table(a, b));
	for (i = 0; i < ng; i++) {
		table_build(&g[i], &o, &t);
		if (i == 1)
			assert_string_equal(t.title, "LATENCY with load [B vs C]");
		table_print_text(f, &t);
		fputc('\n', f);
		table_free(&t);
	}
	groups_free(g, ng);
	fclose(f);
	assert_non_null(strstr(buf, "|     >=30000|"));
	assert_non_null(strstr(buf, "\nB vs C\n------\nLATENCY with load (ns):\n"));
	assert_non_null(strstr(buf, "\n# p99.9 >=N: "));
	/* the first "LATENCY with load" table, then the section's */
	assert_int_equal(import_buffer("mem", buf, len, &io, &back), 0);
	assert_int_equal(back.n, 3);
	assert_true(back.v[0]->sum.pct_bound[PCT_P999]);
	assert_int_equal(back.v[0]->sum.pct[PCT_P999], 30000);
	assert_null(back.v[0]->section);
	assert_string_equal(back.v[1]->label, "board Z");
	assert_string_equal(back.v[1]->section, "B vs C");
	assert_string_equal(back.v[2]->section, "B vs C");
	assert_false(back.v[2]->sum.has_pct[PCT_P999]);
	free(buf);
	runs_free(&rs);
	runs_free(&back);
}

/* Tables of A and B with no load in common: compared across loads. */
static void test_compare_across_loads(void **state)
{
	struct rep_runs a, b;
	struct cmp_row *rows = NULL;

	(void)state;
	log_set_quiet(true);	/* "only in A: ..." notes */
	runs_init(&a);
	runs_init(&b);
	runs_push(&a, mk("vm", 18824, 27813, 828716));
	str_set(&a.v[0]->load, "none");
	runs_push(&b, mk("vm", 12332, 31378, 9741036));
	str_set(&b.v[0]->load, "hell");
	assert_int_equal(cmp_sides(&a, &b, false, &rows), 1);
	assert_string_equal(rows[0].title,
			    "LATENCY: without load (A) vs with load hell (B)");
	assert_true(rows[0].m[2].known);
	assert_true(rows[0].m[2].delta > 8912319 && rows[0].m[2].delta < 8912321);
	free(rows);
	/* A has hell too: only hell with hell */
	runs_push(&a, mk("vm2", 12000, 30000, 9000000));
	str_set(&a.v[1]->load, "hell");
	assert_int_equal(cmp_sides(&a, &b, false, &rows), 1);
	assert_string_equal(rows[0].title, "LATENCY with load hell");
	assert_ptr_equal(rows[0].a, a.v[1]);
	free(rows);
	/* another test kind is never compared */
	str_set(&b.v[0]->test, "switch");
	assert_int_equal(cmp_sides(&a, &b, false, &rows), 0);
	free(rows);
	runs_free(&a);
	runs_free(&b);
	log_set_quiet(false);
}

/* A side's interrupted runs are left out of its spread (the noise)
 * when it has complete ones, counted; kept with @with_interrupted, and
 * when the side has no other. */
static void test_compare_leaves_interrupted_out(void **state)
{
	struct rep_runs a, b;
	struct cmp_row *rows = NULL;

	(void)state;
	runs_init(&a);
	runs_init(&b);
	runs_push(&a, mk("a0", 18824, 27813, 828716));
	runs_push(&a, mk("a1", 18824, 27813, 830716));
	runs_push(&a, mk("a2", 18824, 27813, 100000));
	str_set(&a.v[2]->status, "interrupted");
	runs_push(&b, mk("b0", 18824, 27813, 829716));
	assert_int_equal(cmp_sides(&a, &b, false, &rows), 1);
	assert_int_equal(rows[0].na, 2);
	assert_int_equal(rows[0].left_a, 1);
	assert_int_equal(rows[0].left_b, 0);
	assert_true(rows[0].m[CMP_MAX].noise > 1999 &&
		    rows[0].m[CMP_MAX].noise < 2001);
	assert_false(rows[0].m[CMP_MAX].beyond);
	free(rows);
	assert_int_equal(cmp_sides(&a, &b, true, &rows), 1);
	assert_int_equal(rows[0].na, 3);
	assert_int_equal(rows[0].left_a, 0);
	assert_true(rows[0].m[CMP_MAX].noise > 730715 &&
		    rows[0].m[CMP_MAX].noise < 730717);
	free(rows);
	/* B interrupted only: compared as it is, nothing left out */
	str_set(&b.v[0]->status, "interrupted");
	assert_int_equal(cmp_sides(&a, &b, false, &rows), 1);
	assert_int_equal(rows[0].nb, 1);
	assert_int_equal(rows[0].left_b, 0);
	assert_int_equal(rows[0].left_a, 1);
	free(rows);
	runs_free(&a);
	runs_free(&b);
}

/* A label with '|' and '\\', and the note of a checkpoint, read back. */
static void test_table_label_escape_and_note(void **state)
{
	struct out_opts o = { .unit_ns = 1, .threads = false };
	struct imp_opts io = { .quiet = true };
	struct rep_runs rs, back;
	struct group *g;
	struct rtable t;
	char *buf = NULL;
	size_t len = 0, ng;
	FILE *f = open_memstream(&buf, &len);
	struct rep_run *r = mk("board|A\\B", 3553, 10125, 23970);
	struct rep_run *r2 = mk("done", 3000, 9000, 20000);

	(void)state;
	r->status = xstrdup("running");
	r2->status = xstrdup("complete");
	runs_init(&rs);
	runs_init(&back);
	runs_push(&rs, r);
	runs_push(&rs, r2);
	ng = groups_make(&rs, &g);
	table_build(&g[0], &o, &t);
	table_print_text(f, &t);
	table_free(&t);
	groups_free(g, ng);
	fclose(f);
	assert_non_null(strstr(buf, "board\\|A\\\\B"));
	assert_non_null(strstr(buf, "checkpoint"));
	assert_non_null(strstr(buf, "\n# note: checkpoint: "));
	assert_int_equal(import_buffer("mem", buf, len, &io, &back), 0);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.v[0]->label, "board|A\\B");
	assert_string_equal(back.v[0]->status, "running");
	assert_int_equal(back.v[0]->sum.max, 23970);
	assert_null(back.v[1]->status);
	assert_int_equal(back.v[1]->sum.max, 20000);
	free(buf);
	runs_free(&rs);
	runs_free(&back);
}

/* The identity of a run leaves out a label derived from the file name,
 * and any label when there is a start time. */
static void test_identity(void **state)
{
	struct rep_run *a = mk("x", 3553, 10125, 23970);
	char i1[REP_IDENT_LEN], i2[REP_IDENT_LEN], i3[REP_IDENT_LEN];

	(void)state;
	run_identity(a, "row A", i1);
	run_identity(a, "row B", i2);
	assert_string_not_equal(i1, i2);	/* rows of a summary table */
	run_identity(a, NULL, i1);
	run_identity(a, NULL, i2);
	assert_string_equal(i1, i2);
	a->start_time = xstrdup("2026-11-29T20:37:53.962Z");
	run_identity(a, "row A", i1);
	run_identity(a, "row B", i2);
	assert_string_equal(i1, i2);
	a->sum.max++;
	run_identity(a, "row A", i3);
	assert_string_not_equal(i1, i3);
	run_free(a);
}

/* The one label rule: control characters (C0, DEL, C1 in UTF-8) refused
 * from the user, blanks in every output; CSV cells that a spreadsheet
 * would take for a formula start with a quote. */
static void test_label_rule(void **state)
{
	char s[] = "a\nb\x1b[31m\xc2\x9b" "1m\x7f|\xc3\xa9", shown[64];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_null(label_check("Ocotea iPipe 1.0-01 \xc3\xa9"));
	assert_non_null(label_check(""));
	assert_non_null(label_check("a\tb"));
	assert_non_null(label_check("a\x1b[31m"));
	assert_non_null(label_check("a\xc2\x9b" "31m"));	/* C1 CSI */
	assert_int_equal(text_ctrl_len("\xc2\xa0"), 0);	/* NBSP is text */
	assert_string_equal(text_show(shown, sizeof(shown), "a\nb\x1b[1m"),
			    "a\\nb\\x1b[1m");
	assert_string_equal(label_clean(s), "a b [31m 1m |\xc3\xa9");

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	csv_field(f, "=HYPERLINK(\"x\")");
	fputc(';', f);
	csv_field(f, "+1");
	fputc(';', f);
	csv_field(f, "-2");
	fputc(';', f);
	csv_field(f, "@SUM(A1)");
	fputc(';', f);
	csv_field(f, "a\x1b[31m=b");
	fputc(';', f);
	html_escape(f, "<a\x1b[31m>");
	fclose(f);
	assert_string_equal(buf, "\"'=HYPERLINK(\"\"x\"\")\";\"'+1\";\"'-2\";"
			    "\"'@SUM(A1)\";a [31m=b;&lt;a [31m&gt;");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imp_num),
		cmocka_unit_test(test_imp_count),
		cmocka_unit_test(test_hms_and_time_words),
		cmocka_unit_test(test_heading),
		cmocka_unit_test(test_date_check),
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_quantized_percentiles),
		cmocka_unit_test(test_check_percentiles),
		cmocka_unit_test(test_hist_limits),
		cmocka_unit_test(test_summarize),
		cmocka_unit_test(test_compare_rule),
		cmocka_unit_test(test_compare_one_side),
		cmocka_unit_test(test_compare_intervals),
		cmocka_unit_test(test_compare_repeats),
		cmocka_unit_test(test_compare_own_columns),
#ifdef HAVE_CJSON
		cmocka_unit_test(test_json_sanitize),
#endif
		cmocka_unit_test(test_table_round_trip),
		cmocka_unit_test(test_table_label_escape_and_note),
		cmocka_unit_test(test_table_bound_and_section),
		cmocka_unit_test(test_compare_across_loads),
		cmocka_unit_test(test_compare_leaves_interrupted_out),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_label_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* !HAVE_REPORT */

static void test_not_built(void **state)
{
	(void)state;
	skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif
