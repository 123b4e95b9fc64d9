// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the engine's accounting from synthetic timestamps, without
 * threads: samples, overruns at the warm-up and end boundaries, interval
 * windows, and the hand-over of accumulators to the display side.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "util/timeutil.h"

#define P (100 * NSEC_PER_USEC)		/* period */
#define T0 (1000 * NSEC_PER_SEC)	/* first deadline */

static const struct series_desc lat = { .name = "latency", .miss_name = "overruns", .threshold = true };
static const struct series_desc *const descs[] = { &lat };
static const struct output_ops no_output;
static const struct test_desc fake_test = {
	.name = "fake", .mode = "synthetic", .out = &no_output,
};

struct sim {
	struct run r;
	struct engine_opts o;
	struct sampler *s;
	int64_t next;		/* next deadline of the grid */
	int done;
};

/* warm-up 10 periods, measure 100 periods, interval 10 periods */
static void sim_init(struct sim *m, int64_t duration)
{
	memset(m, 0, sizeof(*m));
	engine_opts_init(&m->o, P, 99);
	m->o.warmup_ns = 10 * P;
	m->o.interval_ns = 10 * P;
	m->o.duration_ns = duration;
	m->r.o = &m->o;
	m->r.test = &fake_test;
	m->s = engine_add_sampler(&m->r, 0, 1, 99, 1, descs);
	assert_non_null(m->s);
	assert_int_equal(engine_alloc(&m->r), 0);
	m->s = &m->r.s[0];
	m->r.t0 = T0;
	m->r.t_measure = T0 + m->o.warmup_ns;
	m->r.t_end = duration ? m->r.t_measure + duration : INT64_MAX;
	m->next = T0;
}

/* The next wake-up happens @late ns after its deadline, as the abs backend
 * would account it. Returns true at the end. */
static bool sim_wake(struct sim *m, int64_t late)
{
	struct wake wk = { 0 };

	wk.deadline = m->next;
	wk.now = m->next + late;
	wk.missed = late >= P ? (uint64_t)(late / P) : 0;
	m->next += (int64_t)(wk.missed + 1) * P;
	m->done = sampler_timer_wake(m->s, 0, &wk, P, m->next);
	/* the display runs concurrently: let it take what is ready */
	engine_drain(&m->r, false);
	return m->done;
}

static void sim_finish(struct sim *m)
{
	sampler_finish(m->s);
	engine_drain(&m->r, true);
	engine_aggregate(&m->r);
}

static uint64_t iv_total(const struct ivstore *v, uint64_t *over)
{
	uint64_t n = 0;
	size_t i;

	*over = 0;
	for (i = 0; i < v->n; i++) {
		n += v->w[i].n;
		*over += v->w[i].overruns;
	}
	return n;
}

static void test_no_miss(void **state)
{
	struct sim m;
	const struct accum *a;
	uint64_t over;
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000 && !sim_wake(&m, 5000 + i % 7); i++)
		;
	assert_true(m.done);
	assert_int_equal(i, 109);	/* 10 warm-up + 100 measured, last returns */
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->st.n, 100);
	assert_int_equal(a->overruns, 0);
	assert_int_equal(a->st.min, 5000);
	assert_int_equal(a->st.max, 5006);
	assert_int_equal(hist_total(&a->hist), 100);
	/* 10 intervals of 10 samples each */
	assert_int_equal(m.r.iv[0][0].n, 10);
	assert_int_equal(iv_total(&m.r.iv[0][0], &over), 100);
	assert_int_equal(m.r.iv[0][0].w[3].n, 10);
	engine_free(&m.r);
}

static void test_stall_in_measurement(void **state)
{
	struct sim m;
	const struct accum *a;
	uint64_t over;
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000; i++) {
		/* the 60th wake-up (deadline T0 + 59 P, measured) is 350 us
		 * late: deadlines 60, 61, 62 P are missed */
		if (sim_wake(&m, i == 59 ? 350 * NSEC_PER_USEC : 1000))
			break;
	}
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->overruns, 3);
	assert_int_equal(a->st.n + a->overruns, 100);
	assert_int_equal(a->st.max, 350 * NSEC_PER_USEC);	/* full lateness */
	assert_int_equal(a->max_cycle, 49);	/* 50th measured cycle */
	assert_int_equal(iv_total(&m.r.iv[0][0], &over), 97);
	assert_int_equal(over, 3);
	/* the late sample is in interval 4 (deadlines 50..59 P), the
	 * deadlines it missed in interval 5 (60..69 P) */
	assert_int_equal(m.r.iv[0][0].w[4].overruns, 0);
	assert_int_equal(m.r.iv[0][0].w[4].n, 10);
	assert_int_equal(m.r.iv[0][0].w[4].max, 350 * NSEC_PER_USEC);
	assert_int_equal(m.r.iv[0][0].w[5].overruns, 3);
	assert_int_equal(m.r.iv[0][0].w[5].n, 7);
	engine_free(&m.r);
}

/* A stall over several intervals: each interval shows the deadlines it
 * missed, so that every interval holds samples + overruns = 10 (they all
 * used to go to the interval of the late sample, the ones between got no
 * record at all). */
static void test_stall_over_intervals(void **state)
{
	struct sim m;
	const struct accum *a;
	uint64_t over;
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000; i++) {
		/* deadline 25 P wakes 35.5 P late: missed 26..60 P */
		if (sim_wake(&m, i == 25 ? 35 * P + P / 2 : 1000))
			break;
	}
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->overruns, 35);
	assert_int_equal(a->st.n, 65);
	assert_int_equal(m.r.iv[0][0].n, 10);
	for (i = 0; i < 10; i++)
		assert_int_equal(m.r.iv[0][0].w[i].n +
				 m.r.iv[0][0].w[i].overruns, 10);
	assert_int_equal(m.r.iv[0][0].w[1].overruns, 4);	/* 26..29 P */
	assert_int_equal(m.r.iv[0][0].w[2].overruns, 10);
	assert_int_equal(m.r.iv[0][0].w[3].n, 0);
	assert_int_equal(m.r.iv[0][0].w[4].overruns, 10);
	assert_int_equal(m.r.iv[0][0].w[5].overruns, 1);	/* 60 P */
	assert_int_equal(m.r.iv[0][0].w[5].n, 9);
	assert_int_equal(iv_total(&m.r.iv[0][0], &over), 65);
	assert_int_equal(over, 35);
	engine_free(&m.r);
}

static void test_stall_across_warmup(void **state)
{
	struct sim m;
	const struct accum *a;
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000; i++) {
		/* deadline T0 + 8 P (warm-up) wakes 450 us late: missed
		 * 9, 10, 11, 12 P; only 10..12 are in the measurement: 10 P
		 * is a sample 250 us late, 11 and 12 P are overruns */
		if (sim_wake(&m, i == 8 ? 450 * NSEC_PER_USEC : 1000))
			break;
	}
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->overruns, 2);
	assert_int_equal(a->st.n, 98);
	assert_int_equal(a->st.max, 250 * NSEC_PER_USEC);
	assert_int_equal(a->max_cycle, 0);	/* the first measured cycle */
	assert_int_equal(m.r.iv[0][0].w[0].overruns, 2);
	assert_int_equal(m.r.iv[0][0].w[0].max, 250 * NSEC_PER_USEC);
	engine_free(&m.r);
}

static void test_stall_across_end(void **state)
{
	struct sim m;
	const struct accum *a;
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000; i++) {
		/* deadline T0 + 105 P wakes 2 ms late: missed 106..125 P,
		 * of which only 106..109 are before the end (110 P) */
		if (sim_wake(&m, i == 105 ? 2 * NSEC_PER_MSEC : 1000))
			break;
	}
	assert_int_equal(i, 105);
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->overruns, 4);
	assert_int_equal(a->st.n + a->overruns, 100);
	engine_free(&m.r);
}

/* A stall longer than several intervals: skipped intervals have no record
 * and nothing is lost; the display lags and gives accumulators back late. */
static void test_long_stall_and_slow_display(void **state)
{
	struct sim m;
	const struct accum *a;
	uint64_t over;
	struct wake wk = { 0 };
	int i;

	(void)state;
	sim_init(&m, 100 * P);
	for (i = 0; i < 1000; i++) {
		int64_t late = i == 20 ? 35 * P + 17 : 300;

		wk.deadline = m.next;
		wk.now = m.next + late;
		wk.missed = late >= P ? (uint64_t)(late / P) : 0;
		m.next += (int64_t)(wk.missed + 1) * P;
		/* no engine_drain(): the display is stalled, so the sampler
		 * cannot switch accumulators after the first hand-over */
		if (sampler_timer_wake(m.s, 0, &wk, P, m.next))
			break;
	}
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->overruns, 35);
	assert_int_equal(a->st.n, 65);
	assert_int_equal(a->st.max, 35 * P + 17);
	assert_int_equal(hist_total(&a->hist), 65);
	assert_int_equal(iv_total(&m.r.iv[0][0], &over), 65);
	assert_int_equal(over, 35);
	engine_free(&m.r);
}

/* Until interrupted (no duration): a stop after any number of wakes keeps
 * samples + overruns equal to the wakes accounted. */
static void test_unbounded(void **state)
{
	struct sim m;
	const struct accum *a;
	int i;

	(void)state;
	sim_init(&m, 0);
	for (i = 0; i < 500; i++)
		assert_false(sim_wake(&m, i == 200 ? 5 * P : 10));
	sim_finish(&m);
	a = &m.r.names[0].agg;
	/* 490 measured wake-ups (10 were warm-up), one 5 P late */
	assert_int_equal(a->st.n, 490);
	assert_int_equal(a->overruns, 5);
	engine_free(&m.r);
}

/* -l LOOPS (max_cycles): a late wake-up near the end never counts more
 * periods than asked for. */
static void test_max_cycles_exact(void **state)
{
	struct sim m;
	const struct accum *a;
	int i;

	(void)state;
	sim_init(&m, 0);
	m.o.max_cycles = 20;
	for (i = 0; i < 1000; i++)
		/* measured wake-up 18 (cycle 18) is 5 periods late */
		if (sim_wake(&m, i == 28 ? 5 * P + 1 : 10))
			break;
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->st.n, 19);
	assert_int_equal(a->overruns, 1);	/* 5 missed, 1 fits in 20 */
	assert_int_equal(m.s->cycles, 20);
	engine_free(&m.r);
}

/* cyclic -l LOOPS (max_wakeups, cyclictest's): LOOPS measured wake-ups
 * whatever they missed; the missed periods are overruns on top. */
static void test_max_wakeups_exact(void **state)
{
	struct sim m;
	const struct accum *a;
	int i;

	(void)state;
	sim_init(&m, 0);
	m.o.max_wakeups = 20;
	for (i = 0; i < 1000; i++)
		/* measured wake-ups 5 and 18 are 3 and 5 periods late */
		if (sim_wake(&m, i == 15 ? 3 * P + 1 :
				 i == 28 ? 5 * P + 1 : 10))
			break;
	sim_finish(&m);
	a = &m.r.names[0].agg;
	assert_int_equal(a->st.n, 20);
	assert_int_equal(m.s->wakeups, 20);
	assert_int_equal(a->overruns, 3 + 5);
	assert_int_equal(m.s->cycles, 20 + 3 + 5);
	assert_int_equal(hist_total(&a->hist), 20);
	engine_free(&m.r);
}

/*
 * accum_merge() and accum_reset() touch only the buckets between the
 * statistics' min and max (accum.c): the result is the full merge's, and a
 * reset leaves every bucket, underflow and overflow at zero. Samples from
 * below the linear histogram to beyond the log-linear one, negative ones,
 * single values and empty accumulators.
 */
static void test_span_merge_is_full_merge(void **state)
{
	static const int64_t lim = INT64_C(1) << 36;
	struct engine_opts o;
	struct accum d, tot, ref;
	unsigned int seed = 12345;
	int round, i;
	size_t b;

	(void)state;
	engine_opts_init(&o, 1000, 99);
	o.linear_hist = true;
	o.hist_bucket_ns = 1000;
	o.hist_buckets = 300;
	assert_int_equal(accum_init(&d, &o), 0);
	assert_int_equal(accum_init(&tot, &o), 0);
	assert_int_equal(accum_init(&ref, &o), 0);
	for (round = 0; round < 60; round++) {
		int n = round % 7 == 0 ? 0 : round % 5 == 0 ? 1 : 200;
		int64_t base = (int64_t)(rand_r(&seed) % 100000) - 2000;
		int64_t spread = round % 3 ? 5000 : (round % 2 ? 2 * lim : 40);

		for (i = 0; i < n; i++) {
			int64_t v = base + (int64_t)(rand_r(&seed) %
						     (unsigned)(spread % 2000000000));

			if (round % 11 == 3 && i == 0)
				v = lim + 5;		/* overflow */
			if (round % 13 == 4 && i == 1)
				v = -lim - 5;		/* underflow */
			accum_add(&d, v, i, (uint64_t)i);
		}
		accum_merge(&tot, &d);
		/* reference: every bucket */
		for (b = 0; b < d.hist.nbuckets; b++)
			ref.hist.count[b] += d.hist.count[b];
		ref.hist.underflow += d.hist.underflow;
		ref.hist.overflow += d.hist.overflow;
		for (b = 0; b < d.lin.nbuckets; b++)
			ref.lin.count[b] += d.lin.count[b];
		ref.lin.underflow += d.lin.underflow;
		ref.lin.overflow += d.lin.overflow;
		accum_reset(&d);
		for (b = 0; b < d.hist.nbuckets; b++)
			assert_int_equal(d.hist.count[b], 0);
		for (b = 0; b < d.lin.nbuckets; b++)
			assert_int_equal(d.lin.count[b], 0);
		assert_int_equal(d.hist.underflow + d.hist.overflow +
				 d.lin.underflow + d.lin.overflow, 0);
		assert_memory_equal(tot.hist.count, ref.hist.count,
				    tot.hist.nbuckets * sizeof(uint64_t));
		assert_memory_equal(tot.lin.count, ref.lin.count,
				    tot.lin.nbuckets * sizeof(uint64_t));
		assert_int_equal(tot.hist.underflow, ref.hist.underflow);
		assert_int_equal(tot.hist.overflow, ref.hist.overflow);
		assert_int_equal(tot.lin.underflow, ref.lin.underflow);
		assert_int_equal(tot.lin.overflow, ref.lin.overflow);
		assert_int_equal(hist_total(&tot.hist), tot.st.n);
		assert_int_equal(hist_total(&tot.lin), tot.st.n);
	}
	assert_true(tot.hist.underflow > 0 && tot.hist.overflow > 0);
	assert_true(tot.lin.underflow > 0 && tot.lin.overflow > 0);
	accum_free(&d);
	accum_free(&tot);
	accum_free(&ref);
}

/*
 * The per-name aggregate: with one sampler it is that sampler's total
 * (its histograms shared, none allocated), at every aggregation; with
 * two, the merge of both totals in histograms of its own.
 */
static void test_aggregate_one_or_many(void **state)
{
	struct engine_opts o;
	int64_t p99;
	int ns, i, k;

	(void)state;
	for (ns = 1; ns <= 2; ns++) {
		struct run r;
		const struct accum *a;

		memset(&r, 0, sizeof(r));
		a = &r.names[0].agg;
		engine_opts_init(&o, P, 99);
		r.o = &o;
		r.test = &fake_test;
		for (i = 0; i < ns; i++)
			assert_non_null(engine_add_sampler(&r, i, 1, 99, 1,
							   descs));
		assert_int_equal(engine_alloc(&r), 0);
		if (ns == 1) {
			assert_ptr_equal(a->hist.count, r.total[0][0].hist.count);
		} else {
			assert_null(r.names[0].agg_of);
			for (i = 0; i < ns; i++)
				assert_ptr_not_equal(a->hist.count,
						     r.total[i][0].hist.count);
		}
		/* twice: a second aggregation counts nothing twice */
		for (k = 1; k <= 2; k++) {
			for (i = 0; i < ns; i++) {
				accum_add(&r.total[i][0], 1000 * (i + 1), 0, 0);
				accum_add(&r.total[i][0], 3000 + i, 0, 1);
				r.total[i][0].overruns++;
			}
			engine_aggregate(&r);
			assert_int_equal(a->st.n, 2 * k * ns);
			assert_int_equal(hist_total(&a->hist), 2 * k * ns);
			assert_int_equal(a->overruns, k * ns);
			assert_int_equal(a->st.min, 1000);
			assert_int_equal(a->st.max, 3000 + ns - 1);
			assert_true(hist_percentile(&a->hist, 100, a->st.min,
						    a->st.max, &p99));
			assert_int_equal(p99, 3000 + ns - 1);
		}
		engine_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_miss),
		cmocka_unit_test(test_stall_in_measurement),
		cmocka_unit_test(test_stall_over_intervals),
		cmocka_unit_test(test_stall_across_warmup),
		cmocka_unit_test(test_stall_across_end),
		cmocka_unit_test(test_long_stall_and_slow_display),
		cmocka_unit_test(test_unbounded),
		cmocka_unit_test(test_max_cycles_exact),
		cmocka_unit_test(test_max_wakeups_exact),
		cmocka_unit_test(test_span_merge_is_full_merge),
		cmocka_unit_test(test_aggregate_one_or_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
