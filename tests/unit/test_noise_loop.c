// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: noise's loop accounting (measure/noise.c) on a synthetic
 * clock: the body is compiled here with its clock reads and sleeps
 * replaced (a read every STEP ns, a sleep jumps to its deadline). Busy
 * mode: the gaps tile [measure start, end]. --mode hwlat: each spin
 * starts at its first read, which is not a gap (no 0 ns gap, no extra
 * iteration per spin); a noise event; the end of what was accounted
 * (measured_end) is the last read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "util/timeutil.h"

#define STEP	100			/* ns between two clock reads */
#define T0	NSEC_PER_SEC		/* measurement start */

static int64_t fake_t;			/* the synthetic clock */
static int64_t stall_at, stall_ns;	/* one stall: the read after
					 * stall_at comes stall_ns late */

static int64_t fake_now(clockid_t c)
{
	(void)c;
	fake_t += STEP;
	if (stall_ns && fake_t > stall_at) {
		fake_t += stall_ns;
		stall_ns = 0;
	}
	return fake_t;
}

static int fake_sleep(clockid_t c, int flags, const struct timespec *ts,
		      struct timespec *rem)
{
	(void)c;
	(void)flags;
	(void)rem;
	if (ts_to_ns(ts) > fake_t)
		fake_t = ts_to_ns(ts);
	return 0;
}

/* noise.c with the synthetic clock; its test_desc under another name */
#define clock_now_ns fake_now
#define clock_nanosleep fake_sleep
#define noise_test noise_test_unit
#include "../../src/measure/noise.c"
#undef clock_now_ns
#undef clock_nanosleep

static const struct output_ops no_output;
static struct test_desc quiet_test;	/* noise's, without output */

struct nsim {
	struct run r;
	struct engine_opts o;
	struct noise n;
	struct noise_cpu nc;
	struct noise_ev ev[16];
	struct sampler *s;
};

static void nsim_init(struct nsim *m, enum noise_mode mode, int64_t dur)
{
	memset(m, 0, sizeof(*m));
	engine_opts_init(&m->o, 0, 99);
	m->o.interval_ns = NSEC_PER_MSEC;
	m->o.duration_ns = dur;
	m->o.clock = CLOCK_MONOTONIC;
	m->r.o = &m->o;
	quiet_test = noise_test_unit;
	quiet_test.out = &no_output;
	m->r.test = &quiet_test;
	m->r.priv = &m->n;
	noise_init(&m->n, &m->o, 0, NULL);
	m->n.mode = mode;
	m->n.window_ns = NSEC_PER_MSEC;
	m->n.width_ns = NSEC_PER_MSEC / 2;
	m->n.n = 1;
	m->n.cpu = &m->nc;
	m->nc.ev = m->ev;
	m->s = engine_add_sampler(&m->r, 0, 1, 99, 1, noise_descs);
	assert_non_null(m->s);
	assert_int_equal(engine_alloc(&m->r), 0);
	m->s = &m->r.s[0];
	m->s->priv = &m->nc;
	m->r.t0 = m->r.t_measure = T0;
	m->r.t_end = T0 + dur;
	fake_t = T0 - 10 * STEP + STEP / 2;	/* a read at T0 + STEP / 2 */
	stall_ns = 0;
}

static void nsim_finish(struct nsim *m)
{
	sampler_finish(m->s);
	engine_drain(&m->r, true);
	engine_aggregate(&m->r);
}

/* Busy: the first gap from the measurement start (STEP / 2), then STEP
 * each, the last cut at the end (STEP / 2): they tile the duration. */
static void test_busy_tiles(void **state)
{
	struct nsim m;

	(void)state;
	nsim_init(&m, MODE_BUSY, 3 * NSEC_PER_MSEC);
	assert_int_equal(noise_body(m.s), 0);
	nsim_finish(&m);
	assert_int_equal(m.nc.spun_ns, 3 * NSEC_PER_MSEC);
	assert_int_equal(m.nc.loop_ns + m.nc.noise_ns, m.nc.spun_ns);
	assert_int_equal(m.nc.iterations, 3 * NSEC_PER_MSEC / STEP + 1);
	assert_int_equal(m.nc.loop_min, STEP / 2);
	assert_int_equal(m.nc.loop_max, STEP);
	assert_int_equal(m.nc.events, 0);
	assert_int_equal(m.s->measured_end, T0 + 3 * NSEC_PER_MSEC);
	engine_free(&m.r);
}

/* hwlat: 3 spins of 0.5 ms, each from its first read (STEP after the
 * wake-up) to its end: (width - STEP) / STEP gaps of STEP each, none of
 * 0 ns; a stall of 30 us in the second spin is one event. */
static void test_hwlat_spin_start_is_no_gap(void **state)
{
	const int64_t width = NSEC_PER_MSEC / 2, stall = 30 * NSEC_PER_USEC;
	struct nsim m;
	int64_t spun;
	int64_t min, max;

	(void)state;
	nsim_init(&m, MODE_HWLAT, 3 * NSEC_PER_MSEC);
	stall_at = T0 + NSEC_PER_MSEC + 100 * STEP;
	stall_ns = stall;
	assert_int_equal(noise_body(m.s), 0);
	nsim_finish(&m);
	assert_int_equal(m.nc.spins, 3);
	spun = 3 * (width - STEP);
	assert_int_equal(m.nc.spun_ns, spun);
	assert_int_equal(m.nc.loop_ns + m.nc.noise_ns, spun);
	assert_int_equal(m.nc.events, 1);
	assert_int_equal(m.nc.noise_ns, stall + STEP);
	assert_int_equal(m.ev[0].len, stall + STEP);
	/* every read after a spin's first ends a gap, the last cut at the
	 * spin's end: the stall's gap stands for 1 + stall / STEP reads, and
	 * the read that confirms an event (no garbage read ahead of the
	 * clock, system/clockcheck.h) for one more */
	assert_int_equal(m.nc.iterations,
			 3 * ((width - STEP) / STEP) - stall / STEP - 1);
	cpu_gap_range(&m.nc, &m.r.total[0][0], &min, &max);
	assert_int_equal(min, STEP);
	assert_int_equal(max, stall + STEP);
	assert_int_equal(m.r.names[0].agg.st.n, 1);
	assert_int_equal(m.s->measured_end, T0 + 2 * NSEC_PER_MSEC + width);
	engine_free(&m.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_busy_tiles),
		cmocka_unit_test(test_hwlat_spin_start_is_no_gap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
