// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the cause of a gap of a busy loop (noise --trace) from the
 * events of its CPU: a task switched in (the one that had the CPU
 * longest), a softirq, an interrupt, nothing traced (the hardware), events
 * outside the gap ignored, the task winning over the interrupt that woke
 * it, a ring that no longer reaches back to the gap, and a switch the
 * kernel did not record (out of idle: seen on this CI's kernel).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace_gap.h"

#define TID 4321
#define A INT64_C(1000000)
#define B INT64_C(2000000)

static struct tev ev_switch(int64_t ts, int prev, int next, const char *comm)
{
	struct tev e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.type = TEV_SWITCH;
	e.cpu = 1;
	e.pid = prev;			/* common_pid: the task switched out */
	e.u.sw.prev_pid = prev;
	e.u.sw.next_pid = next;
	strncpy(e.u.sw.next_comm, comm, TEV_COMM_LEN - 1);
	return e;
}

/* An interrupt that came in task @pid. */
static struct tev ev_irq_in(int64_t ts, int irq, const char *name, int pid)
{
	struct tev e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.type = TEV_IRQ;
	e.cpu = 1;
	e.pid = pid;
	e.u.irq.irq = irq;
	strncpy(e.u.irq.name, name, TEV_NAME_LEN - 1);
	return e;
}

/* An interrupt that came in the sampler. */
static struct tev ev_irq(int64_t ts, int irq, const char *name)
{
	return ev_irq_in(ts, irq, name, TID);
}

static struct tev ev_type(int64_t ts, int type, unsigned int vec)
{
	struct tev e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.pid = TID;
	e.type = (uint8_t)type;
	e.cpu = 1;
	e.u.softirq.vec = vec;
	return e;
}

static struct gap_task top[GAP_TOP];

static void cause_of(const struct tev *ev, size_t n, struct gap_who *w)
{
	trace_gap_cause(ev, n ? n : 1, 0, n, false, TID, A, B, w, top);
}

static void test_task(void **state)
{
	/* the interrupt that woke it, then the switch: the task */
	struct tev ev[] = {
		ev_irq(A - 10, 5, "before"),
		ev_irq(A + 100, 11, "virtio0"),
		ev_switch(A + 200, TID, 777, "stall"),
		ev_switch(B - 100, 777, TID, "noise"),
	};
	struct gap_who w;

	(void)state;
	cause_of(ev, 4, &w);
	assert_int_equal(w.cause, GC_TASK);
	assert_int_equal(w.id, 777);
	assert_string_equal(w.name, "stall");
	assert_false(w.switch_assumed);
	assert_int_equal(top[0].ns, B - 100 - (A + 200));
}

static void test_switch_out_of_idle_not_recorded(void **state)
{
	/* CI's failing gap: the loop throttled (switch to idle), the idle
	 * task's ticks, then the stall task's ticks with no switch to it,
	 * and its switch back to the loop */
	struct tev ev[] = {
		ev_switch(A + 100, TID, 0, "swapper/1"),
		ev_irq_in(A + 1000, 11, "tick", 0),
		ev_irq_in(A + 5000, 11, "tick", 0),
		ev_irq_in(A + 9000, 11, "tick", 777),
		ev_switch(B - 100, 777, TID, "noise"),
	};
	/* no event of the task that was on (idle) after its switch in: all
	 * the time after it is the next task's */
	struct tev bare[] = {
		ev_switch(A + 100, TID, 0, "swapper/1"),
		ev_switch(B - 100, 777, TID, "noise"),
	};
	/* a task seen only in its interrupts, still on at the gap's end:
	 * no switch names it */
	struct tev unnamed[] = {
		ev_switch(A + 100, TID, 0, "swapper/1"),
		ev_irq_in(A + 200, 11, "tick", 0),
		ev_irq_in(A + 300, 11, "tick", 999),
	};
	struct gap_who w;

	(void)state;
	strcpy(ev[4].u.sw.prev_comm, "python3");
	cause_of(ev, 5, &w);
	assert_int_equal(w.cause, GC_TASK);
	assert_int_equal(w.id, 777);
	assert_string_equal(w.name, "python3");	/* named by its switch out */
	assert_true(w.switch_assumed);
	assert_int_equal(top[0].pid, 777);
	assert_int_equal(top[0].ns, B - 100 - (A + 5000));
	assert_int_equal(top[1].pid, 0);
	assert_string_equal(top[1].name, "swapper/1");
	assert_int_equal(top[1].ns, 4900);
	assert_int_equal(top[2].ns, 0);

	cause_of(bare, 2, &w);
	assert_true(w.switch_assumed);
	assert_int_equal(w.id, 777);
	assert_string_equal(w.name, "");
	assert_int_equal(top[0].ns, B - 100 - (A + 100));
	assert_int_equal(top[1].ns, 0);		/* idle: 0 ns, not listed */

	cause_of(unnamed, 3, &w);
	assert_true(w.switch_assumed);
	assert_int_equal(w.id, 999);
	assert_string_equal(w.name, "");
	assert_int_equal(top[0].ns, B - (A + 200));
	assert_int_equal(top[1].pid, 0);
	assert_int_equal(top[1].ns, 100);
}

static void test_longest_task(void **state)
{
	/* a kworker for 100 ns, the stall for most of the gap, then a third
	 * task still on at the gap's end (shorter) */
	struct tev ev[] = {
		ev_switch(A + 100, TID, 55, "kworker"),
		ev_switch(A + 200, 55, 777, "stall"),
		ev_switch(B - 300, 777, 88, "late"),
	};
	struct tev back[] = {
		ev_switch(A + 100, TID, 55, "kworker"),
		ev_switch(A + 200, 55, TID, "noise"),	/* back: not a task */
		ev_irq(A + 300, 11, "virtio0"),
	};
	/* the stall in two turns (400 + 500) around a longer single turn of
	 * another task (600): the stall had the CPU longest in all */
	struct tev turns[] = {
		ev_switch(A, TID, 777, "stall"),
		ev_switch(A + 400, 777, 66, "other"),
		ev_switch(A + 1000, 66, 777, "stall"),
		ev_switch(A + 1500, 777, TID, "noise"),
	};
	struct gap_who w;

	(void)state;
	cause_of(ev, 3, &w);
	assert_int_equal(w.cause, GC_TASK);
	assert_int_equal(w.id, 777);
	assert_string_equal(w.name, "stall");
	assert_false(w.switch_assumed);
	/* the tasks, longest first: stall, late (to the gap's end), kworker */
	assert_int_equal(top[0].pid, 777);
	assert_int_equal(top[0].ns, B - 300 - (A + 200));
	assert_int_equal(top[1].pid, 88);
	assert_int_equal(top[1].ns, 300);
	assert_string_equal(top[1].name, "late");
	assert_int_equal(top[2].pid, 55);
	assert_int_equal(top[2].ns, 100);
	trace_gap_cause(turns, 4, 0, 4, false, TID, A, A + 1500, &w, top);
	assert_int_equal(w.id, 777);
	assert_int_equal(top[0].ns, 900);
	assert_int_equal(top[1].pid, 66);
	assert_int_equal(top[1].ns, 600);
	assert_int_equal(top[2].ns, 0);
	cause_of(back, 3, &w);
	assert_int_equal(w.cause, GC_TASK);
	assert_int_equal(w.id, 55);
}

static void test_softirq_over_irq(void **state)
{
	struct tev ev[] = {
		ev_irq(A + 100, 11, "virtio0"),
		ev_type(A + 300, TEV_SOFTIRQ, 3),	/* NET_RX */
	};
	struct gap_who w;

	(void)state;
	cause_of(ev, 2, &w);
	assert_int_equal(w.cause, GC_SOFTIRQ);
	assert_int_equal(w.id, 3);
	assert_string_equal(w.name, "NET_RX");
}

static void test_irq_and_local_timer(void **state)
{
	struct tev ev[] = { ev_irq(A + 100, 11, "virtio0") };
	struct tev lt[] = { ev_type(B, TEV_LOCAL_TIMER, 0) };
	struct gap_who w;

	(void)state;
	cause_of(ev, 1, &w);
	assert_int_equal(w.cause, GC_IRQ);
	assert_int_equal(w.id, 11);
	assert_string_equal(w.name, "virtio0");
	cause_of(lt, 1, &w);		/* at the gap's end: inside */
	assert_int_equal(w.cause, GC_IRQ);
	assert_int_equal(w.id, -1);
	assert_string_equal(w.name, "local_timer");
}

static void test_nothing_traced(void **state)
{
	/* only events outside the gap */
	struct tev ev[] = {
		ev_irq(A - 1, 11, "virtio0"),
		ev_type(B + 1, TEV_SOFTIRQ, 1),
	};
	struct gap_who w;

	(void)state;
	cause_of(ev, 2, &w);
	assert_int_equal(w.cause, GC_NONE);
	assert_int_equal(top[0].ns, 0);
	assert_int_equal(w.id, -1);
	assert_string_equal(w.name, "");
	cause_of(ev, 0, &w);
	assert_int_equal(w.cause, GC_NONE);
}

static void test_ring_wrapped(void **state)
{
	/* a ring of 2 whose oldest event (at head 1) is after the start */
	struct tev ev[] = {
		ev_irq(A + 300, 11, "newer"),
		ev_irq(A + 200, 11, "older"),
	};
	struct gap_who w;

	(void)state;
	trace_gap_cause(ev, 2, 1, 2, true, TID, A, B, &w, top);
	assert_int_equal(w.cause, GC_LOST);
	/* one that still reaches back: decided, oldest first */
	trace_gap_cause(ev, 2, 1, 2, true, TID, A + 250, B, &w, top);
	assert_int_equal(w.cause, GC_IRQ);
	assert_string_equal(w.name, "newer");
	trace_gap_cause(ev, 2, 1, 2, false, TID, A, B, &w, top);
	assert_int_equal(w.cause, GC_IRQ);
	assert_string_equal(w.name, "older");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_task),
		cmocka_unit_test(test_switch_out_of_idle_not_recorded),
		cmocka_unit_test(test_longest_task),
		cmocka_unit_test(test_softirq_over_irq),
		cmocka_unit_test(test_irq_and_local_timer),
		cmocka_unit_test(test_nothing_traced),
		cmocka_unit_test(test_ring_wrapped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
