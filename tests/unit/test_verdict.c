// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the noise model of compare and the gate (report/verdict.c)
 * and of "what changed in the system" (report/render/sysdiff.c): the model's
 * decisions on synthetic series whose answer is known.
 */
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
#include "report/report.h"
#include "report/render/sysdiff.h"
#include "report/verdict.h"

static const struct vd_ask gate = { .gate = true, .unit_ns = 1000,
				    .floor_ns = 1, .margin = 0.10 };
static const struct vd_ask cmp = { .gate = false, .unit_ns = 1000,
				   .floor_ns = 1 };

/* A fixed pseudo-random sequence in (0, 1). */
static double unif(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

/* A Gumbel(mu, beta) draw. */
static double gumbel(uint64_t *s, double mu, double beta)
{
	return mu - beta * log(-log(unif(s)));
}

/* A latency run of @nint intervals of @per samples: interval maxima of
 * Gumbel(mu, beta) (one raised to @spike when @spike > 0), averages
 * @avg (+- 1 %). */
static struct rep_run *mk_run(uint64_t seed, size_t nint, uint64_t per,
			      double mu, double beta, double avg,
			      int64_t spike)
{
	struct rep_run *r = run_new();
	uint64_t s = seed;
	size_t i;

	r->test = xstrdup("latency");
	r->series = xstrdup("latency");
	r->sum.has_stats = r->sum.has_samples = true;
	r->sum.samples = nint * per;
	r->sum.min = 1000;
	r->sum.max = 0;
	r->sum.avg = avg;
	for (i = 0; i < nint; i++) {
		struct rep_interval *iv = series_add_interval(&r->sum);

		iv->has_stats = iv->has_samples = true;
		iv->samples = per;
		iv->min = 1000;
		iv->max = (int64_t)gumbel(&s, mu, beta);
		if (spike > 0 && i == nint / 2)
			iv->max = spike;
		iv->avg = avg * (1 + 0.02 * (unif(&s) - 0.5));
		if (iv->max > r->sum.max)
			r->sum.max = iv->max;
	}
	return r;
}

static double side_max(struct rep_run **v, size_t n)
{
	double m[8];
	size_t i, j;

	for (i = 0; i < n; i++)
		m[i] = (double)v[i]->sum.max;
	for (i = 1; i < n; i++)	/* median of a few */
		for (j = i; j > 0 && m[j - 1] > m[j]; j--) {
			double t = m[j];

			m[j] = m[j - 1];
			m[j - 1] = t;
		}
	return n % 2 ? m[n / 2] : (m[n / 2 - 1] + m[n / 2]) / 2;
}

static void free_runs(struct rep_run **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		run_free(v[i]);
}

static void test_quantiles(void **state)
{
	(void)state;
	assert_true(fabs(vd_norm_quantile(0.975) - 1.959964) < 1e-5);
	assert_true(fabs(vd_norm_quantile(0.99) - 2.326348) < 1e-5);
	assert_true(fabs(vd_norm_quantile(0.5)) < 1e-9);
	/* Student's t: exact for 1 and 2 dof, within 0.3 % above */
	assert_true(fabs(vd_t_quantile(0.99, 1) - 31.8205) < 1e-3);
	assert_true(fabs(vd_t_quantile(0.99, 2) - 6.9646) < 1e-3);
	assert_true(fabs(vd_t_quantile(0.99, 4) / 3.7469 - 1) < 3e-3);
	assert_true(fabs(vd_t_quantile(0.95, 10) / 1.8125 - 1) < 3e-3);
	assert_true(fabs(vd_t_quantile(0.99, 30) / 2.4573 - 1) < 3e-3);
}

/* Block maxima of a known Gumbel law: the fitted maximum of k blocks
 * moves by beta ln k, and its median is near the law's. */
static void test_gumbel_fit(void **state)
{
	double y[4000], u1, u10;
	uint64_t s = 7;
	size_t i;

	(void)state;
	for (i = 0; i < 4000; i++)
		y[i] = gumbel(&s, 100, 10);
	assert_true(vd_gumbel_upper(y, 4000, 1, 0.5, &u1));
	assert_true(vd_gumbel_upper(y, 4000, 10, 0.5, &u10));
	/* median of Gumbel(100, 10): 100 - 10 ln ln 2 = 103.67 */
	assert_true(fabs(u1 - 103.67) < 1.5);
	assert_true(fabs(u10 - u1 - 10 * log(10)) < 1.0);
	assert_false(vd_gumbel_upper(y, 1, 1, 0.5, &u1));
}

static void test_rank_bounds(void **state)
{
	uint64_t lo, hi;
	struct rep_run *r = run_new();
	double v;
	int k;

	(void)state;
	/* rank 99900 of 100000, sd sqrt(99.9) = 9.995: +- 23.25 */
	vd_rank_bounds(100000, 0.999, 2.326348, &lo, &hi);
	assert_int_equal(lo, 99876);
	assert_int_equal(hi, 99924);
	vd_rank_bounds(10, 0.999, 2.326348, &lo, &hi);
	assert_true(lo >= 1 && hi == 10);
	/* 10 buckets of 1 us, 10 samples each: rank 35 is in [3000, 3999] */
	r->sum.has_stats = true;
	r->sum.min = 0;
	r->sum.max = 9999;
	r->sum.hist.layout = REP_HIST_LINEAR;
	r->sum.hist.width = 1000;
	r->sum.hist.nbuckets = 10;
	for (k = 0; k < 10; k++)
		hist_push(&r->sum.hist, k * 1000, k * 1000 + 999, 10);
	assert_true(vd_value_at_rank(&r->sum, 35, &v));
	assert_true(v == 3999);
	r->sum.hist.overflow = 5;
	assert_false(vd_value_at_rank(&r->sum, 103, &v));	/* overflow */
	run_free(r);
}

/* Max: plain runs against a baseline of the same law are the same; a run
 * with a 20 ms stall is worse; too few intervals cannot tell. */
static void test_max_block_maxima(void **state)
{
	struct rep_run *a[3], *b;
	struct vd_judgement j;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		a[i] = mk_run(100 + (uint64_t)i, 10, 10000, 60000, 8000, 20000, 0);
	for (i = 0; i < 20; i++) {
		b = mk_run(200 + (uint64_t)i, 10, 10000, 60000, 8000, 20000, 0);
		assert_true(vd_max(a, 3, &b, 1, side_max(a, 3), side_max(&b, 1),
				   &gate, &j));
		assert_int_equal(j.v, VD_SAME);
		/* compare, both ways: neither worse nor better */
		assert_true(vd_max(a, 3, &b, 1, side_max(a, 3),
				   side_max(&b, 1), &cmp, &j));
		assert_int_equal(j.v, VD_SAME);
		assert_true(vd_max(&b, 1, a, 3, side_max(&b, 1),
				   side_max(a, 3), &cmp, &j));
		assert_int_equal(j.v, VD_SAME);
		run_free(b);
	}
	b = mk_run(300, 10, 10000, 60000, 8000, 20000, 20000000);
	assert_true(vd_max(a, 3, &b, 1, side_max(a, 3), 20000000, &gate, &j));
	assert_int_equal(j.v, VD_WORSE);
	assert_string_equal(j.src, "blocks");
	assert_non_null(strstr(j.how, "30 baseline interval maxima"));
	/* compare: the other way round it is better */
	assert_true(vd_max(&b, 1, a, 3, 20000000, side_max(a, 3), &cmp, &j));
	assert_int_equal(j.v, VD_BETTER);
	run_free(b);
	/* a baseline of 4 intervals: too few to fit, and B is higher */
	b = mk_run(301, 4, 10000, 60000, 8000, 20000, 0);
	{
		struct rep_run *c = mk_run(302, 4, 10000, 60000, 8000, 20000,
					   20000000);

		assert_true(vd_max(&b, 1, &c, 1, (double)b->sum.max, 20000000,
				   &gate, &j));
		assert_int_equal(j.v, VD_CANNOT_TELL);
		assert_non_null(strstr(j.how, "too few"));
		/* not higher: not worse, whatever the noise */
		assert_true(vd_max(&c, 1, &b, 1, 20000000, (double)b->sum.max,
				   &gate, &j));
		assert_int_equal(j.v, VD_SAME);
		run_free(c);
	}
	run_free(b);
	free_runs(a, 3);
}

/* The max of a run 20 times as long is compared at equal exposure: the
 * same law over 200 intervals has a higher max, and is the same. */
static void test_max_equal_exposure(void **state)
{
	struct rep_run *a[3], *b;
	struct vd_judgement j;
	int i, same = 0;

	(void)state;
	for (i = 0; i < 3; i++)
		a[i] = mk_run(400 + (uint64_t)i, 10, 10000, 60000, 8000, 20000, 0);
	for (i = 0; i < 10; i++) {
		b = mk_run(500 + (uint64_t)i, 200, 10000, 60000, 8000, 20000, 0);
		assert_true(b->sum.max > side_max(a, 3));	/* longer: higher */
		assert_true(vd_max(a, 3, &b, 1, side_max(a, 3),
				   (double)b->sum.max, &gate, &j));
		same += j.v == VD_SAME;
		assert_non_null(strstr(j.how, "200.0 intervals"));
		run_free(b);
	}
	assert_int_equal(same, 10);
	free_runs(a, 3);
}

/* Avg: 3 baseline runs a side measure the spread of runs: +30 % is worse,
 * +1 % the same. One run a side: a difference beyond the batch means
 * cannot be told from a run's luck; within them it is the same. */
static void test_avg(void **state)
{
	static const double base[3] = { 20000, 20300, 19800 };
	struct rep_run *a[3], *b;
	struct vd_judgement j;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		a[i] = mk_run(600 + (uint64_t)i, 10, 10000, 60000, 8000, base[i], 0);
	b = mk_run(610, 10, 10000, 60000, 8000, 26000, 0);
	assert_true(vd_avg(a, 3, &b, 1, 20000, 26000, &gate, &j));
	assert_int_equal(j.v, VD_WORSE);
	assert_string_equal(j.src, "runs");
	run_free(b);
	b = mk_run(611, 10, 10000, 60000, 8000, 20200, 0);
	assert_true(vd_avg(a, 3, &b, 1, 20000, 20200, &gate, &j));
	assert_int_equal(j.v, VD_SAME);
	run_free(b);
	/* one run a side */
	b = mk_run(612, 10, 10000, 60000, 8000, 26000, 0);
	assert_true(vd_avg(a, 1, &b, 1, 20000, 26000, &gate, &j));
	assert_int_equal(j.v, VD_CANNOT_TELL);
	assert_string_equal(j.src, "batches");
	run_free(b);
	b = mk_run(613, 10, 10000, 60000, 8000, 20010, 0);
	assert_true(vd_avg(a, 1, &b, 1, 20000, 20010, &gate, &j));
	assert_int_equal(j.v, VD_SAME);
	run_free(b);
	/* no interval series and one run: no model (the caller's rule) */
	b = run_new();
	b->sum.has_stats = true;
	b->sum.avg = 20000;
	assert_false(vd_avg(&b, 1, &b, 1, 20000, 20000, &gate, &j));
	run_free(b);
	free_runs(a, 3);
}

/* A run of @n samples: N(20 us, 1 us) in 1 us buckets, with its top
 * 1/500 at @tail ns. */
static struct rep_run *mk_hist(uint64_t n, int64_t tail)
{
	struct rep_run *r = run_new();
	uint64_t t = n / 500, k, s = 42;
	int64_t lo;

	r->sum.has_stats = r->sum.has_samples = true;
	r->sum.samples = n;
	r->sum.min = 17000;
	r->sum.max = tail + 999;
	r->sum.avg = 20000;
	r->sum.hist.layout = REP_HIST_LINEAR;
	r->sum.hist.width = 1000;
	r->sum.hist.nbuckets = 1000;
	for (lo = 17000; lo < 24000; lo += 1000) {
		/* the bulk spread over 7 buckets */
		k = (n - t) / 7 + (lo == 17000 ? (n - t) % 7 : 0);
		hist_push(&r->sum.hist, lo, lo + 999, k);
	}
	hist_push(&r->sum.hist, tail, tail + 999, t);
	(void)s;
	return r;
}

/* p99.9: its rank's interval from the sample count. */
static void test_pct_ranks(void **state)
{
	struct rep_run *a[3], *b;
	struct vd_judgement j;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)
		a[i] = mk_hist(100000, 50000);
	b = mk_hist(100000, 150000);	/* the tail 3 times as far */
	assert_true(vd_pct(a, 3, &b, 1, 50999, 150999, 1000, &gate, &j));
	assert_int_equal(j.v, VD_WORSE);
	assert_string_equal(j.src, "ranks");
	run_free(b);
	b = mk_hist(100000, 50000);
	assert_true(vd_pct(a, 3, &b, 1, 50999, 50999, 1000, &gate, &j));
	assert_int_equal(j.v, VD_SAME);
	run_free(b);
	/* 5000 samples: 5 beyond p99.9, too few */
	b = mk_hist(5000, 150000);
	assert_true(vd_pct(a, 3, &b, 1, 50999, 150999, 1000, &gate, &j));
	assert_int_equal(j.v, VD_CANNOT_TELL);
	run_free(b);
	/* one baseline run: beyond the ranks cannot tell a run's luck */
	b = mk_hist(100000, 150000);
	assert_true(vd_pct(a, 1, &b, 1, 50999, 150999, 1000, &gate, &j));
	assert_int_equal(j.v, VD_CANNOT_TELL);
	run_free(b);
	free_runs(a, 3);
}

static char *diff_of(struct rep_run *x, struct rep_run *y)
{
	struct rep_runs a = { 0 }, b = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	runs_push(&a, x);
	runs_push(&b, y);
	sysdiff_print(f, &a, &b, "system: ");
	fclose(f);
	free(a.v);
	free(b.v);
	return buf;
}

static struct rep_run *mk_sys(const char *cmdline, const char *check)
{
	struct rep_run *r = run_new();

	r->kernel = xstrdup("6.6.1-rt");
	r->system = xasprintf("Linux 6.6.1-rt #1 x86_64; kernel_release: 6.6.1-rt; rt_flavour: PREEMPT_RT; clocksource: tsc; cmdline: %s",
			      cmdline);
	r->check = check ? xstrdup(check) : NULL;
	r->load = xstrdup("none");
	r->tool = xstrdup("rtlat 0.1.0");
	return r;
}

static void test_system_diff(void **state)
{
	struct rep_run *a, *b;
	char *out;

	(void)state;
	a = mk_sys("quiet isolcpus=1 nohz_full=1 -- init=1",
		   "1 warning, 7 ok\nrt_throttling\twarning\ton: 950000 of 1000000 us");
	b = mk_sys("quiet isolcpus=1 nohz_full=1 -- init=1",
		   "1 warning, 7 ok\nrt_throttling\twarning\ton: 950000 of 1000000 us");
	out = diff_of(a, b);
	assert_string_equal(out, "");	/* the same system: nothing */
	free(out);
	run_free(b);
	b = mk_sys("quiet nohz_full=1 idle=poll -- isolcpus=3",
		   "0 warnings, 8 ok");
	free(b->kernel);
	b->kernel = xstrdup("6.6.2-rt");
	out = diff_of(a, b);
	assert_string_equal(out,
		"system: kernel: 6.6.1-rt -> 6.6.2-rt\n"
		"system: cmdline isolcpus: 1 -> (none)\n"
		"system: cmdline idle: (none) -> poll\n"
		"system: check rt_throttling: warning (on: 950000 of 1000000 us) -> ok or n/a\n");
	free(out);
	run_free(a);
	run_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_gumbel_fit),
		cmocka_unit_test(test_rank_bounds),
		cmocka_unit_test(test_max_block_maxima),
		cmocka_unit_test(test_max_equal_exposure),
		cmocka_unit_test(test_avg),
		cmocka_unit_test(test_pct_ranks),
		cmocka_unit_test(test_system_diff),
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
