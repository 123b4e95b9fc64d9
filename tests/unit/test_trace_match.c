// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: matching trace events to timer samples (--trace) from
 * recorded event sequences, without tracefs: the normal path, timers and
 * wake-ups of other tasks on the same CPU, lost events, warm-up, samples
 * and events in either order, a wake-up before the sampler left the CPU,
 * preemption on the way back, inconsistent time stamps, and the four parts
 * adding up to the latency for every sample of a long random sequence.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace_match.h"

#define TID 4321
#define OTHER 999
#define CPU 1
#define P 100000			/* period, ns */
#define T0 INT64_C(5000000000)		/* first deadline */
#define TOL 50

struct got {
	struct tm_result r[256];
	struct tm_krec k[256];
	int n;
};

static void collect(void *ctx, const struct tm_result *res)
{
	struct got *g = ctx;

	assert_true(g->n < 256);
	g->r[g->n] = *res;
	if (res->k)
		g->k[g->n] = *res->k;
	g->n++;
}

static struct tmatch M;
static struct got G;
static int64_t LAST;		/* time of the last event period() made */

static int setup(void **state)
{
	int tid = TID, cpu = CPU;

	(void)state;
	memset(&G, 0, sizeof(G));
	LAST = 0;
	assert_int_equal(tmatch_init(&M, 1, &tid, &cpu, 64, 64, 1024, TOL,
				     20000, collect, &G), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	tmatch_free(&M);
	return 0;
}

static void ev(struct tev *e, int type, int64_t ts, int pid)
{
	memset(e, 0, sizeof(*e));
	e->type = (uint8_t)type;
	e->ts = ts;
	e->cpu = CPU;
	e->pid = pid;
}

static void start(int64_t ts, int pid, uint64_t timer, int64_t expires)
{
	struct tev e;

	ev(&e, TEV_TIMER_START, ts, pid);
	e.u.start.timer = timer;
	e.u.start.expires = e.u.start.softexpires = expires;
	tmatch_event(&M, &e);
}

static void expire(int64_t ts, int pid, uint64_t timer, int64_t now)
{
	struct tev e;

	ev(&e, TEV_TIMER_EXPIRE, ts, pid);
	e.flags = TEV_F_HARDIRQ;
	e.u.expire.timer = timer;
	e.u.expire.now = now;
	tmatch_event(&M, &e);
}

static int WAKER = 0;		/* task current at the wake-ups */

static void waking(int64_t ts, int pid)
{
	struct tev e;

	ev(&e, TEV_WAKING, ts, WAKER);
	e.u.waking.pid = pid;
	strcpy(e.u.waking.comm, pid == TID ? "rtlat" : "other");
	tmatch_event(&M, &e);
}

static void sw(int64_t ts, int prev, const char *prev_comm, int next,
	       int64_t prev_state)
{
	struct tev e;

	ev(&e, TEV_SWITCH, ts, prev);
	e.u.sw.prev_pid = prev;
	e.u.sw.next_pid = next;
	e.u.sw.prev_prio = prev == TID ? 0 : 9;
	e.u.sw.prev_state = prev_state;
	strcpy(e.u.sw.prev_comm, prev_comm);
	strcpy(e.u.sw.next_comm, next == TID ? "rtlat" : "x");
	tmatch_event(&M, &e);
}

static void lost(int64_t ts, int cpu)
{
	struct tev e;

	ev(&e, TEV_LOST, ts, 0);
	e.cpu = (int16_t)cpu;
	e.u.lost.count = 3;
	tmatch_event(&M, &e);
}

static void sample(uint64_t cycle, int64_t d, int64_t now)
{
	struct tm_sample s = { cycle, d, now };

	tmatch_sample(&M, 0, &s);
}

/*
 * One period of the abs backend: armed at d - 90 us (or just after the
 * previous period), sleeps, expiry at d + irq (irq handler time n), waking
 * at n + hnd, switch at + sch, clock read at + ret. Returns the clock read.
 */
static int64_t period(uint64_t timer, int64_t d, int64_t irq, int64_t hnd,
		      int64_t sch, int64_t ret)
{
	int64_t n = d + irq, t = d - 90000 > LAST ? d - 90000 : LAST + 1000;

	start(t, TID, timer, d);
	if (t + 1000 < d)
		sw(t + 1000, TID, "rtlat", 0, 1);
	expire(n + hnd / 2, 0, timer, n);
	waking(n + hnd, TID);
	sw(n + hnd + sch, 0, "swapper/1", TID, 0);
	LAST = n + hnd + sch + ret;
	return LAST;
}

static void assert_parts(const struct tm_result *r, int64_t a, int64_t b,
			 int64_t c, int64_t d)
{
	assert_int_equal(r->why, TM_TRACED);
	assert_int_equal(r->comp[TM_IRQ], a);
	assert_int_equal(r->comp[TM_HANDLER], b);
	assert_int_equal(r->comp[TM_SCHED], c);
	assert_int_equal(r->comp[TM_RETURN], d);
	assert_int_equal(a + b + c + d, r->latency);
}

static void test_normal(void **state)
{
	int64_t now;

	(void)state;
	now = period(0xaa00, T0, 11000, 400, 1200, 2500);
	sample(0, T0, now);
	assert_int_equal(G.n, 0);	/* waits for events after the read */
	start(now + 5000, TID, 0xab00, T0 + P);
	assert_int_equal(G.n, 0);
	/* other CPUs are further, the sampler's CPU is not: wait */
	lost(now + 40000, CPU + 1);
	tmatch_advance(&M, now + 30000);
	assert_int_equal(G.n, 0);
	/* the CPU's next event (a tick) shows its events up to then are in */
	expire(now + 25000, 0, 0x5555, now + 24900);
	assert_int_equal(G.n, 1);
	assert_parts(&G.r[0], 11000, 400, 1200, 2500);
	assert_int_equal(G.k[0].prev_pid, 0);
	assert_int_equal(G.k[0].expire_pid, 0);
	assert_true(G.k[0].t_sleep > 0);
	assert_int_equal(G.r[0].s.cycle, 0);
}

/* The sampler, still busy with its previous period, arms its next timer
 * 118 us after that timer's deadline: the timer fires at once, and the
 * sample's irq latency is the sampler's own lateness (tmatch_armed_late),
 * as seen on PREEMPT_RT with a 100 us period. The parts still add up. */
static void test_timer_armed_after_deadline(void **state)
{
	int64_t d = T0, now, t_arm = T0 + 118000;

	(void)state;
	now = period(0xaa00, d - P, 3000, 400, 1000, 2000);
	sample(0, d - P, now);
	/* armed late: no sleep, expiry right after the hrtimer_start */
	start(t_arm, TID, 0xab00, d);
	expire(t_arm + 2000, TID, 0xab00, t_arm + 1500);
	waking(t_arm + 2400, TID);
	sample(1, d, t_arm + 4000);
	start(t_arm + 10000, TID, 0xac00, d + P);
	expire(t_arm + 40000, 0, 0x5555, t_arm + 39900);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 2);
	assert_int_equal(tmatch_armed_late(&G.k[0]), 0);
	assert_int_equal(G.k[1].t_armed, t_arm);
	assert_int_equal(tmatch_armed_late(&G.k[1]), 118000);
	assert_int_equal(G.r[1].why, TM_TRACED);
	/* irq latency: expiry's now - deadline, the 118 us of late arming
	 * included */
	assert_int_equal(G.r[1].comp[TM_IRQ], 118000 + 1500);
	assert_int_equal(G.r[1].comp[TM_IRQ] + G.r[1].comp[TM_HANDLER] +
			 G.r[1].comp[TM_SCHED] + G.r[1].comp[TM_RETURN],
			 G.r[1].latency);
}

static void count_ev(void *ctx, const struct tev *e)
{
	int *n = ctx;

	(void)e;
	(*n)++;
}

static void test_history_window(void **state)
{
	int n = 0;

	(void)state;
	period(0x1000, T0, 11000, 400, 1200, 2500);
	/* start, switch out, expiry, waking, switch in */
	assert_int_equal(tmatch_history(&M, T0 - 90000, T0 + 20000, count_ev,
					&n), 5);
	assert_int_equal(n, 5);
	n = 0;
	/* from the deadline: expiry, waking, switch in */
	assert_int_equal(tmatch_history(&M, T0, T0 + 20000, count_ev, &n), 3);
	assert_int_equal(tmatch_history(&M, T0 + 30000, INT64_MAX, count_ev,
					&n), 0);
}

static void test_samples_before_events(void **state)
{
	int64_t now1, now2;

	(void)state;
	/* the display drained the samples before reading the trace */
	sample(0, T0, T0 + 14100);
	sample(1, T0 + P, T0 + P + 9100);
	now1 = period(0x1000, T0, 11000, 400, 1200, 1500);
	assert_int_equal(now1, T0 + 14100);
	now2 = period(0x2000, T0 + P, 6000, 400, 1200, 1500);
	assert_int_equal(now2, T0 + P + 9100);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 2);
	assert_parts(&G.r[0], 11000, 400, 1200, 1500);
	assert_parts(&G.r[1], 6000, 400, 1200, 1500);
}

static void test_other_tasks_ignored(void **state)
{
	int64_t d = T0, n = d + 7000;

	(void)state;
	start(d - 90000, TID, 0x1000, d);
	/* another task's timer with the same deadline, on the same CPU */
	start(d - 80000, OTHER, 0x2000, d);
	sw(d - 79000, TID, "rtlat", OTHER, 1);
	expire(n + 100, OTHER, 0x2000, n);	/* the other timer first */
	waking(n + 200, OTHER);
	expire(n + 300, OTHER, 0x1000, n);
	waking(n + 500, TID);
	/* a tick of the CPU */
	expire(n + 600, OTHER, 0x3000, n);
	sw(n + 2000, OTHER, "python3", TID, 0);
	sample(0, d, n + 4000);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 1);
	assert_parts(&G.r[0], 7000, 500, 1500, 2000);
	assert_string_equal(G.k[0].prev_comm, "python3");
	assert_int_equal(G.k[0].prev_pid, OTHER);
	assert_int_equal(G.k[0].expire_pid, OTHER);
	assert_string_equal(tmatch_comm(&M, OTHER), "python3");
}

static void test_lost_events(void **state)
{
	int64_t now;

	(void)state;
	now = period(0x1000, T0, 5000, 300, 700, 900);
	sample(0, T0, now);
	/* period 2: the buffer overran after the expiry; the waking seen
	 * afterwards must not be trusted */
	start(T0 + P - 90000, TID, 0x2000, T0 + P);
	expire(T0 + P + 5300, 0, 0x2000, T0 + P + 5000);
	lost(T0 + P + 5400, CPU);
	waking(T0 + P + 5600, TID);
	sw(T0 + P + 6000, 0, "swapper/1", TID, 0);
	sample(1, T0 + P, T0 + P + 7000);
	/* period 3: the start was lost entirely */
	lost(T0 + 2 * P - 80000, CPU);
	expire(T0 + 2 * P + 5300, 0, 0x3000, T0 + 2 * P + 5000);
	waking(T0 + 2 * P + 5600, TID);
	sw(T0 + 2 * P + 6000, 0, "swapper/1", TID, 0);
	sample(2, T0 + 2 * P, T0 + 2 * P + 7000);
	/* period 4: back to normal */
	now = period(0x4000, T0 + 3 * P, 5000, 300, 700, 900);
	sample(3, T0 + 3 * P, now);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 4);
	assert_int_equal(G.r[0].why, TM_TRACED);
	assert_int_equal(G.r[1].why, TM_LOST);
	assert_int_equal(G.r[2].why, TM_LOST);
	assert_parts(&G.r[3], 5000, 300, 700, 900);
	assert_int_equal(M.lost, 6);
	/* a loss on another CPU does not concern a pinned sampler */
	lost(T0 + 4 * P - 80000, CPU + 1);
	now = period(0x5000, T0 + 4 * P, 5000, 300, 700, 900);
	sample(4, T0 + 4 * P, now);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.r[4].why, TM_TRACED);
}

static void test_missing_expiry_and_wakeup(void **state)
{
	(void)state;
	/* start seen, expiry silently missing (no loss reported) */
	start(T0 - 90000, TID, 0x1000, T0);
	sample(0, T0, T0 + 9000);
	/* expiry but no wake-up */
	start(T0 + P - 90000, TID, 0x2000, T0 + P);
	expire(T0 + P + 5300, 0, 0x2000, T0 + P + 5000);
	sample(1, T0 + P, T0 + P + 9000);
	/* it left the CPU, was woken while another task ran, but no switch
	 * back was recorded: the split is unknown */
	start(T0 + 2 * P - 90000, TID, 0x3000, T0 + 2 * P);
	sw(T0 + 2 * P - 89000, TID, "rtlat", OTHER, 1);
	expire(T0 + 2 * P + 5300, OTHER, 0x3000, T0 + 2 * P + 5000);
	WAKER = OTHER;
	waking(T0 + 2 * P + 5600, TID);
	WAKER = 0;
	sample(2, T0 + 2 * P, T0 + 2 * P + 9000);
	/* the same on the idle CPU (the switch out of idle is not recorded
	 * by some kernels): assumed at the wake-up */
	start(T0 + 3 * P - 90000, TID, 0x4000, T0 + 3 * P);
	sw(T0 + 3 * P - 89000, TID, "rtlat", 0, 1);
	expire(T0 + 3 * P + 5300, 0, 0x4000, T0 + 3 * P + 5000);
	waking(T0 + 3 * P + 5600, TID);
	sample(3, T0 + 3 * P, T0 + 3 * P + 9000);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 4);
	assert_int_equal(G.r[0].why, TM_NO_EXPIRY);
	assert_int_equal(G.r[1].why, TM_NO_WAKEUP);
	assert_int_equal(G.r[2].why, TM_NO_SWITCH);
	assert_parts(&G.r[3], 5000, 600, 0, 3400);
	assert_true(tmatch_idle_assumed(&G.k[3]));
	assert_int_equal(M.s[0].why[TM_NO_EXPIRY], 1);
	assert_int_equal(M.s[0].why[TM_NO_WAKEUP], 1);
}

static void test_warmup_and_overruns(void **state)
{
	int64_t now;

	(void)state;
	tmatch_set_measure(&M, T0 + P);
	/* a warm-up period: its expiry is not kept */
	period(0x1000, T0, 5000, 300, 700, 900);
	/* a stall: deadlines T0+P .. T0+3P are overruns, the sample of
	 * T0+P is 250 us late, the next wait is for T0+4P */
	now = period(0x2000, T0 + P, 5000, 300, 244000, 700);
	sample(0, T0 + P, now);
	now = period(0x3000, T0 + 4 * P, 5000, 300, 700, 900);
	sample(4, T0 + 4 * P, now);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 2);
	assert_parts(&G.r[0], 5000, 300, 244000, 700);
	assert_parts(&G.r[1], 5000, 300, 700, 900);
	assert_int_equal(G.r[1].s.cycle, 4);
	assert_int_equal(M.stray, 0);
}

static void test_woken_before_leaving_cpu(void **state)
{
	int64_t n = T0 + 2000;

	(void)state;
	/* the deadline is near: the timer fires before the sampler has
	 * switched out; there is no switch, it just runs on */
	start(T0 - 3000, TID, 0x1000, T0);
	expire(n + 100, TID, 0x1000, n);
	waking(n + 400, TID);
	sample(0, T0, n + 1400);
	tmatch_advance(&M, INT64_MAX);
	assert_parts(&G.r[0], 2000, 400, 0, 1000);
	assert_int_equal(G.k[0].t_switch, 0);
	assert_int_equal(G.k[0].t_sleep, 0);
}

static void test_timerfd_rearm_and_preemption(void **state)
{
	int64_t d = T0, n = d + 4000;

	(void)state;
	/* timerfd: the rearm happens in read() after the switch-in; a
	 * higher-priority task preempts the sampler on its way back */
	start(d - P, TID, 0x7000, d);
	sw(d - P + 1000, TID, "rtlat", 0, 1);
	expire(n + 200, 0, 0x7000, n);
	waking(n + 500, TID);
	sw(n + 900, 0, "swapper/1", TID, 0);
	sw(n + 1500, TID, "rtlat", OTHER, 0);	/* preempted (state R) */
	sw(n + 6500, OTHER, "irq/24-eth0", TID, 1);
	start(n + 6600, TID, 0x7000, d + P);	/* the rearm */
	sample(0, d, n + 7000);
	tmatch_advance(&M, INT64_MAX);
	assert_parts(&G.r[0], 4000, 500, 400, 6100);
	assert_int_equal(G.k[0].preempted, 1);
	assert_int_equal(G.k[0].preempted_ns, 5000);
	assert_int_equal(G.k[0].preempt_pid, OTHER);
	assert_string_equal(G.k[0].preempt_comm, "x");
	assert_int_equal(G.k[0].t_out, 0);
	assert_int_equal(G.k[0].prev_pid, 0);
	/* the next period with the same timer */
	n = d + P + 3000;
	expire(n + 200, 0, 0x7000, n);
	waking(n + 300, TID);
	sw(n + 700, 0, "swapper/1", TID, 0);
	start(n + 900, TID, 0x7000, d + 2 * P);
	sample(1, d + P, n + 1000);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 2);
	assert_parts(&G.r[1], 3000, 300, 400, 300);
	assert_int_equal(G.k[1].preempted, 0);
	assert_int_equal(G.k[1].preempted_ns, 0);
}

static void test_inconsistent(void **state)
{
	(void)state;
	/* a switch-in stamped after the sampler's own clock read: the two
	 * clocks disagree by more than the tolerance */
	start(T0 - 90000, TID, 0x1000, T0);
	expire(T0 + 5100, 0, 0x1000, T0 + 5000);
	waking(T0 + 5200, TID);
	sw(T0 + 9000, 0, "swapper/1", TID, 0);
	sample(0, T0, T0 + 9000 - TOL - 1);
	/* within the tolerance is accepted */
	start(T0 + P - 90000, TID, 0x2000, T0 + P);
	expire(T0 + P + 5100, 0, 0x2000, T0 + P + 5000);
	waking(T0 + P + 5200, TID);
	sw(T0 + P + 9000, 0, "swapper/1", TID, 0);
	sample(1, T0 + P, T0 + P + 9000 - TOL);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.r[0].why, TM_INCONSISTENT);
	assert_int_equal(G.r[1].why, TM_TRACED);
	assert_int_equal(G.r[1].comp[TM_RETURN], -TOL);
}

static void test_queue_overflow(void **state)
{
	int i;

	(void)state;
	/* no events at all (tracing stalled): the queue of 64 keeps the
	 * newest, the oldest are decided as overflow */
	for (i = 0; i < 70; i++)
		sample((uint64_t)i, T0 + i * P, T0 + i * P + 1000);
	assert_int_equal(G.n, 6);
	assert_int_equal(G.r[0].why, TM_OVERFLOW);
	tmatch_advance(&M, INT64_MAX);
	assert_int_equal(G.n, 70);
	assert_int_equal(G.r[69].why, TM_NO_EXPIRY);
}

/* Random sequences with noise: every traced sample adds up exactly and
 * no part is below the tolerance; nothing is decided twice. */
static void test_random_sequences_add_up(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	int64_t d = T0;
	int i, traced = 0;

	(void)state;
	for (i = 0; i < 200; i++) {
		int64_t irq, hnd, sch, ret, now;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		irq = (int64_t)(x % 20000);
		hnd = (int64_t)((x >> 16) % 2000);
		sch = (int64_t)((x >> 24) % 30000);
		ret = 200 + (int64_t)((x >> 32) % 3000);
		if (x % 7 == 0)
			expire(LAST + 10, OTHER, 0x9999, LAST);
		if (x % 11 == 0) {
			/* expiry missing */
			start(d - 90000 > LAST ? d - 90000 : LAST + 1000, TID,
			      0x1000 + (uint64_t)i, d);
			now = LAST = d + 9000;
		} else {
			now = period(0x1000 + (uint64_t)i, d, irq, hnd, sch,
				     ret);
		}
		if (x % 5 == 0)
			waking(now + 10, OTHER);
		sample((uint64_t)i, d, now);
		if (G.n > 200)
			break;
		d += ((now - d) / P + 1) * P;
		if (i % 16 == 15) {
			/* results collected so far */
			int j;

			for (j = 0; j < G.n; j++) {
				const struct tm_result *r = &G.r[j];
				int64_t sum = 0;
				int c;

				if (r->why != TM_TRACED)
					continue;
				for (c = 0; c < TM_NCOMP; c++) {
					assert_true(r->comp[c] >= -TOL);
					sum += r->comp[c];
				}
				assert_int_equal(sum, r->latency);
			}
		}
	}
	tmatch_advance(&M, INT64_MAX);
	for (i = 0; i < G.n; i++) {
		assert_int_equal(G.r[i].s.cycle, (uint64_t)i);
		if (G.r[i].why == TM_TRACED)
			traced++;
		else
			assert_int_equal(G.r[i].why, TM_NO_EXPIRY);
	}
	assert_int_equal(G.n, 200);
	assert_true(traced > 150);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_normal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timer_armed_after_deadline,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_history_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_samples_before_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_tasks_ignored, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_expiry_and_wakeup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_warmup_and_overruns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_woken_before_leaving_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timerfd_rearm_and_preemption, setup, teardown),
		cmocka_unit_test_setup_teardown(test_inconsistent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_queue_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_sequences_add_up, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
