// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rtlat irq's event accounting (measure/irq_track.c) from
 * recorded sequences, and its interrupt lookup (measure/irq_intr.c) on a
 * fake /proc tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "scratch_tree.h"
#include "measure/irq.h"

/* Feed @n sequence numbers, the measurement's first being @first and the
 * last sent @last; check served + lost == sent at the end. */
static void feed(struct irq_track *t, uint64_t first, const uint64_t *seq,
		 size_t n, uint64_t last)
{
	uint64_t lost, lost_sum = 0, served = 0;
	size_t i;

	irq_track_init(t, first);
	for (i = 0; i < n; i++)
		if (irq_track_event(t, seq[i], &lost) == IRQ_EV_SERVED) {
			served++;
			lost_sum += lost;
		}
	lost_sum += irq_track_end(t, last);
	assert_int_equal(t->served, served);
	assert_int_equal(t->lost, lost_sum);
	assert_int_equal(t->served + t->lost, last - first + 1);
}

static void test_in_order(void **state)
{
	static const uint64_t s[] = { 5, 6, 7, 8, 9 };
	struct irq_track t;

	(void)state;
	feed(&t, 5, s, 5, 9);
	assert_int_equal(t.served, 5);
	assert_int_equal(t.lost, 0);
	assert_int_equal(t.duplicate + t.late, 0);
}

static void test_gaps_are_lost(void **state)
{
	/* 2 and 3 missing, then 6..8, then the tail 11..12 never came */
	static const uint64_t s[] = { 1, 4, 5, 9, 10 };
	struct irq_track t;
	uint64_t lost;

	(void)state;
	irq_track_init(&t, 1);
	assert_int_equal(irq_track_event(&t, 1, &lost), IRQ_EV_SERVED);
	assert_int_equal(lost, 0);
	assert_int_equal(irq_track_event(&t, 4, &lost), IRQ_EV_SERVED);
	assert_int_equal(lost, 2);
	feed(&t, 1, s, 5, 12);
	assert_int_equal(t.served, 5);
	assert_int_equal(t.lost, 2 + 3 + 2);
}

static void test_first_events_lost(void **state)
{
	/* the measurement starts at 10: 10 and 11 never arrived */
	static const uint64_t s[] = { 12, 13 };
	struct irq_track t;

	(void)state;
	feed(&t, 10, s, 2, 13);
	assert_int_equal(t.served, 2);
	assert_int_equal(t.lost, 2);
}

static void test_duplicates_and_late(void **state)
{
	/* 3 twice (duplicate), 2 after 3 (late: already counted lost),
	 * 4 again after 5 (duplicate), 1 again much later */
	static const uint64_t s[] = { 1, 3, 3, 2, 4, 5, 4, 1 };
	struct irq_track t;

	(void)state;
	feed(&t, 1, s, 8, 5);
	assert_int_equal(t.served, 4);		/* 1, 3, 4, 5 */
	assert_int_equal(t.lost, 1);		/* 2 */
	assert_int_equal(t.duplicate, 3);	/* 3, 4, 1 */
	assert_int_equal(t.late, 1);		/* 2 */
}

static void test_warmup_ignored(void **state)
{
	static const uint64_t s[] = { 1, 2, 3, 4 };
	struct irq_track t;
	uint64_t lost;

	(void)state;
	irq_track_init(&t, 3);
	assert_int_equal(irq_track_event(&t, 2, &lost), IRQ_EV_BEFORE);
	feed(&t, 3, s, 4, 4);
	assert_int_equal(t.served, 2);
	assert_int_equal(t.lost + t.duplicate + t.late, 0);
}

/* net answers (irq_track_exact()): the recorded sequence of answers with
 * whether each carried its event's own stamps; events not answered are
 * lost one at a time, the oldest first (their loss timeout), as the
 * receiver's expire() does */
struct answer {
	uint64_t seq;
	bool genuine;
	enum irq_ev want;
};

static void answers(struct irq_track *t, const struct answer *a, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!a[i].seq) {	/* the oldest outstanding times out */
			assert_int_equal(irq_track_end(t, t->next), 1);
			continue;
		}
		assert_int_equal(irq_track_exact(t, a[i].seq, a[i].genuine),
				 a[i].want);
	}
}

static void test_exact_answer_overtaking(void **state)
{
	/* 1..7 sent; the answer of 5 (its own stamps) overtakes those of
	 * 2..4: 5 is served, 2..4 are not lost by it and are served when
	 * theirs come; 5 again is a duplicate, not served twice */
	static const struct answer a[] = {
		{ 1, true, IRQ_EV_SERVED },
		{ 5, true, IRQ_EV_SERVED },	/* ahead of 2 */
		{ 5, true, IRQ_EV_DUPLICATE },
		{ 2, true, IRQ_EV_SERVED },
		{ 3, true, IRQ_EV_SERVED },
		{ 4, true, IRQ_EV_SERVED },
		{ 5, true, IRQ_EV_DUPLICATE },	/* behind next now */
		{ 7, true, IRQ_EV_SERVED },
		{ 6, true, IRQ_EV_SERVED },
	};
	struct irq_track t;

	(void)state;
	irq_track_init(&t, 1);
	answers(&t, a, sizeof(a) / sizeof(a[0]));
	assert_int_equal(t.served, 7);
	assert_int_equal(t.duplicate, 2);
	assert_int_equal(t.lost + t.late, 0);
	assert_int_equal(t.next, 8);
	assert_int_equal(irq_track_end(&t, 7), 0);
	assert_int_equal(t.served + t.lost, 7);
}

static void test_exact_forged_stamps_are_stray(void **state)
{
	/* a number with stamps not its own, or too far ahead: stray, and
	 * nothing moves (2 still outstanding, nothing lost); a genuine one
	 * then serves it */
	static const struct answer a[] = {
		{ 1, true, IRQ_EV_SERVED },
		{ 2, false, IRQ_EV_STRAY },
		{ 4, false, IRQ_EV_STRAY },	/* a number sent, forged */
		{ 2, true, IRQ_EV_SERVED },
		{ 2, false, IRQ_EV_STRAY },	/* not even a duplicate */
		{ 2, true, IRQ_EV_DUPLICATE },
		{ 3 + IRQ_TRACK_AHEAD, true, IRQ_EV_STRAY },
	};
	struct irq_track t;

	(void)state;
	irq_track_init(&t, 1);
	answers(&t, a, sizeof(a) / sizeof(a[0]));
	assert_int_equal(t.served, 2);
	assert_int_equal(t.duplicate, 1);
	assert_int_equal(t.lost + t.late, 0);
	assert_int_equal(t.next, 3);
	/* 3 and 4 never answered (4's was forged): lost at the end */
	assert_int_equal(irq_track_end(&t, 4), 2);
	assert_int_equal(t.served + t.lost, 4);
}

static void test_exact_lost_by_timeout_then_late(void **state)
{
	/* 10 is the first of the measurement; 9 (warm-up) answered late;
	 * 12's answer overtakes 11's, which never comes: 11 times out
	 * (lost, 12 passed as served), its answer after that is late */
	static const struct answer a[] = {
		{ 9, true, IRQ_EV_BEFORE },
		{ 10, true, IRQ_EV_SERVED },
		{ 12, true, IRQ_EV_SERVED },
		{ 0, true, IRQ_EV_SERVED },	/* 11 times out */
		{ 11, true, IRQ_EV_LATE },
		{ 12, true, IRQ_EV_DUPLICATE },
		{ 13, true, IRQ_EV_SERVED },
	};
	struct irq_track t;

	(void)state;
	irq_track_init(&t, 10);
	answers(&t, a, sizeof(a) / sizeof(a[0]));
	assert_int_equal(t.next, 14);
	assert_int_equal(t.served, 3);
	assert_int_equal(t.lost, 1);
	assert_int_equal(t.late, 1);
	assert_int_equal(t.duplicate, 1);
	assert_int_equal(irq_track_end(&t, 13), 0);
	assert_int_equal(t.served + t.lost, 13 - 10 + 1);
}

static void test_exact_end_skips_served_ahead(void **state)
{
	/* 1..4000 sent (within IRQ_TRACK_AHEAD of the first, which is never
	 * answered and does not time out here): every third answered, in
	 * reverse order within each block of 30 (all ahead of the one
	 * outstanding); the end loses the others, never one served:
	 * served + lost == sent */
	struct irq_track t;
	uint64_t b, i, served = 0;

	(void)state;
	irq_track_init(&t, 1);
	for (b = 1; b <= 4000; b += 30)
		for (i = b + 29; i >= b; i--)
			if (i <= 4000 && i % 3 == 0) {
				assert_int_equal(irq_track_exact(&t, i, true),
						 IRQ_EV_SERVED);
				served++;
			}
	assert_int_equal(t.served, served);
	assert_int_equal(t.lost, 0);
	assert_int_equal(irq_track_end(&t, 4000), 4000 - served);
	assert_int_equal(t.served + t.lost, 4000);
	assert_int_equal(t.next, 4001);
}

static void test_long_gap_keeps_what_was_served(void **state)
{
	/* after a gap of 100 (3..102 lost), 2 again is a duplicate (it was
	 * served, 101 back: beyond a window of 64) and 50 late */
	static const uint64_t s[] = { 1, 2, 103, 2, 50 };
	struct irq_track t;

	(void)state;
	feed(&t, 1, s, 5, 103);
	assert_int_equal(t.served, 3);
	assert_int_equal(t.lost, 100);
	assert_int_equal(t.duplicate, 1);
	assert_int_equal(t.late, 1);
}

static void test_late_comes_once(void **state)
{
	/* 3 and 4 lost (5 came first); 3 then comes three times and 4
	 * twice: each is late once, then a duplicate (late <= lost: a
	 * withheld answer sent again was counted late at every arrival) */
	static const uint64_t s[] = { 1, 2, 5, 3, 3, 4, 3, 4 };
	struct irq_track t;

	(void)state;
	feed(&t, 1, s, 8, 5);
	assert_int_equal(t.served, 3);
	assert_int_equal(t.lost, 2);
	assert_int_equal(t.late, 2);
	assert_int_equal(t.duplicate, 3);
}

/* a small deterministic generator for the replays below */
static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_exact_replayed_answers_are_duplicates(void **state)
{
	/* the forger of tests/cli: each stimulus 1..3000 answered, then 3
	 * answers of earlier ones sent again (their own stamps: the
	 * sender's record holds them), up to IRQ_TRACK_BACK back: each is a
	 * duplicate, none late (nothing was lost), whatever its age */
	struct irq_track t;
	uint64_t i, x = 88172645463325252ULL, dup = 0, far = 0, back;
	int k;

	(void)state;
	irq_track_init(&t, 1);
	for (i = 1; i <= 3000; i++) {
		assert_int_equal(irq_track_exact(&t, i, true), IRQ_EV_SERVED);
		for (k = 0; k < 3; k++) {
			back = next_rand(&x) % i;
			assert_int_equal(irq_track_exact(&t, i - back, true),
					 IRQ_EV_DUPLICATE);
			dup++;
			far += back >= 64;
		}
	}
	assert_true(far > 2000);	/* most beyond 64 back */
	assert_int_equal(t.served, 3000);
	assert_int_equal(t.duplicate, dup);
	assert_int_equal(t.lost + t.late, 0);
	assert_int_equal(irq_track_end(&t, 3000), 0);
}

static void test_exact_far_back_lost_is_late(void **state)
{
	/* 1..6000 sent, 1000..1009 time out (lost); the others answered:
	 * 1005 again, 3000 back, is late; then, beyond IRQ_TRACK_BACK:
	 * 1500 (after the last lost) and 200 (before the first) duplicates,
	 * 1004 and 1009 (among the lost) too old to tell (stray); the same
	 * with irq_track_old() */
	struct irq_track t;
	uint64_t i;

	(void)state;
	irq_track_init(&t, 1);
	for (i = 1; i <= 6000; i++) {
		if (i >= 1000 && i < 1010)
			assert_int_equal(irq_track_end(&t, t.next), 1);
		else
			assert_int_equal(irq_track_exact(&t, i, true),
					 IRQ_EV_SERVED);
		if (i == 4005)
			assert_int_equal(irq_track_exact(&t, 1005, true),
					 IRQ_EV_LATE);
	}
	assert_int_equal(irq_track_exact(&t, 1500, true), IRQ_EV_DUPLICATE);
	assert_int_equal(irq_track_exact(&t, 200, true), IRQ_EV_DUPLICATE);
	assert_int_equal(irq_track_exact(&t, 1004, true), IRQ_EV_STRAY);
	assert_int_equal(irq_track_exact(&t, 1009, true), IRQ_EV_STRAY);
	assert_true(irq_track_old(&t, 100));
	assert_false(irq_track_old(&t, 1003));
	assert_int_equal(t.served, 5990);
	assert_int_equal(t.lost, 10);
	assert_int_equal(t.late, 1);
	assert_int_equal(t.duplicate, 3);
	assert_int_equal(irq_track_end(&t, 6000), 0);
}

static void test_gap_beyond_back_window(void **state)
{
	/* a gap longer than IRQ_TRACK_BACK: the events in it are late
	 * (within the window) or too old to tell; one served before the gap
	 * and after the window is a duplicate (no loss before it) */
	struct irq_track t;
	uint64_t lost;

	(void)state;
	irq_track_init(&t, 1);
	assert_int_equal(irq_track_event(&t, 1, &lost), IRQ_EV_SERVED);
	assert_int_equal(irq_track_event(&t, 2, &lost), IRQ_EV_SERVED);
	assert_int_equal(irq_track_event(&t, 10003, &lost), IRQ_EV_SERVED);
	assert_int_equal(lost, 10000);
	assert_int_equal(irq_track_event(&t, 10002, &lost), IRQ_EV_LATE);
	/* the window: next - IRQ_TRACK_BACK .. next - 1 */
	assert_int_equal(irq_track_event(&t, 10004 - IRQ_TRACK_BACK, &lost),
			 IRQ_EV_LATE);
	assert_int_equal(irq_track_event(&t, 10003 - IRQ_TRACK_BACK, &lost),
			 IRQ_EV_STRAY);
	assert_int_equal(irq_track_event(&t, 2, &lost), IRQ_EV_DUPLICATE);
	assert_int_equal(irq_track_event(&t, 10004, &lost), IRQ_EV_SERVED);
	assert_int_equal(lost, 0);
	assert_int_equal(t.served + t.lost, 10004);
	assert_int_equal(t.duplicate, 1);
	assert_int_equal(t.late, 2);
}

static void test_old_events(void **state)
{
	/* events whose record is gone: one already accounted is a duplicate
	 * or late; any other number (ahead, before, forged) is not one */
	struct irq_track t;
	uint64_t lost;

	(void)state;
	irq_track_init(&t, 10);
	assert_int_equal(irq_track_event(&t, 10, &lost), IRQ_EV_SERVED);
	assert_int_equal(irq_track_event(&t, 12, &lost), IRQ_EV_SERVED);
	assert_true(irq_track_old(&t, 10));	/* served: duplicate */
	assert_true(irq_track_old(&t, 11));	/* lost: late */
	assert_false(irq_track_old(&t, 13));	/* not yet */
	assert_false(irq_track_old(&t, 9));	/* before the measurement */
	assert_false(irq_track_old(&t, UINT64_MAX));
	assert_int_equal(t.duplicate, 1);
	assert_int_equal(t.late, 1);
	assert_int_equal(t.served + t.lost, 3);
}

static void test_nothing_sent(void **state)
{
	struct irq_track t;

	(void)state;
	irq_track_init(&t, 7);
	assert_int_equal(irq_track_end(&t, 6), 0);
	assert_int_equal(t.served + t.lost, 0);
}

/* ---- the interrupt on a fake /proc ---------------------------------- */

static char root[64];

static void put(const char *path, const char *text)
{
	scratch_put(root, path, text, strlen(text));
}

static int tree_up(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/rtlat-irq-test.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("/proc/interrupts",
	    "           CPU0       CPU1       \n"
	    "  0:         22          0   IO-APIC   2-edge      timer\n"
	    "  4:         10        333   IO-APIC   4-edge      ttyS0\n"
	    " 24:          0          0  PCI-MSI 49152-edge      virtio0-config\n"
	    " 25:       4711         12  PCI-MSI 49153-edge      virtio0-input.0\n"
	    " 26:          0          0  PCI-MSI 49154-edge      virtio10-config\n"
	    " 27:          0          0  PCI-MSI 49155-edge      virtio10-output.0\n"
	    " 31:          0          0  PCI-MSI 49156-edge      eth2-tx-0\n"
	    " 32:          0          0  PCI-MSI 49157-edge      eth2-rx-0\n"
	    " 33:          0          0  PCI-MSI 49158-edge      eth3\n"
	    " 40:          1          2   IO-APIC  19-fasteoi   ttyS4, ttyS5\n"
	    "NMI:          0          0   Non-maskable interrupts\n");
	put("/proc/irq/4/smp_affinity_list", "0-1\n");
	put("/proc/irq/4/effective_affinity_list", "1\n");
	put("/proc/irq/25/smp_affinity_list", "1\n");
	/* irq/4-ttyS0, fifo 50 on CPU 1; a secondary thread irq/4-s-ttyS0
	 * with a lower pid must not be taken */
	put("/proc/77/comm", "irq/4-ttyS0\n");
	put("/proc/77/stat",
	    "77 (irq/4-ttyS0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 -51 0 1 0 "
	    "26 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 "
	    "1 50 1 0 0 0 0 0 0 0 0 0 0 0\n");
	put("/proc/70/comm", "irq/4-s-ttyS0\n");
	put("/proc/70/stat",
	    "70 (irq/4-s-ttyS0) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 -51 0 1 0 "
	    "26 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 "
	    "0 49 1 0 0 0 0 0 0 0 0 0 0 0\n");
	/* a comm holding ") " must not shift the fields */
	put("/proc/90/comm", "irq/40-ttyS4\n");
	put("/proc/90/stat",
	    "90 (irq/40-a) b) S 2 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 -51 0 1 0 "
	    "26 0 0 18446744073709551615 0 0 0 0 0 0 0 2147483647 0 0 0 0 17 "
	    "0 80 1 0 0 0 0 0 0 0 0 0 0 0\n");
	return 0;
}

static int tree_down(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void test_intr_find(void **state)
{
	(void)state;
	assert_int_equal(irq_intr_find(root, "virtio0-input"), 25);
	assert_int_equal(irq_intr_find(root, "ttyS5"), 40);
	assert_int_equal(irq_intr_find(root, "ttyS9"), -1);
	assert_int_equal(irq_intr_find("/nonexistent", "timer"), -1);
}

static void test_intr_find_queue(void **state)
{
	(void)state;
	/* the receive queue, not the configuration interrupt before it */
	assert_int_equal(irq_intr_find(root, "virtio0"), 24);
	assert_int_equal(irq_intr_find_queue(root, "virtio0"), 25);
	assert_int_equal(irq_intr_find_queue(root, "eth2"), 32);
	/* one interrupt for everything: that one */
	assert_int_equal(irq_intr_find_queue(root, "eth3"), 33);
	/* virtio1 is not virtio10; virtio10 has no receive queue line: the
	 * first that is not its configuration */
	assert_int_equal(irq_intr_find_queue(root, "virtio1"), -1);
	assert_int_equal(irq_intr_find_queue(root, "virtio10"), 27);
	assert_int_equal(irq_intr_find_queue("/nonexistent", "eth2"), -1);
}

static void test_intr_threaded(void **state)
{
	struct irq_intr in = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(irq_intr_describe(root, 4, &in, err, sizeof(err)), 0);
	assert_string_equal(in.name, "ttyS0");
	assert_int_equal(in.thread, 77);
	assert_string_equal(in.tname, "irq/4-ttyS0");
	assert_int_equal(in.policy, 1);		/* SCHED_FIFO */
	assert_int_equal(in.prio, 50);
	assert_int_equal(in.cpu, 1);
	assert_string_equal(in.affinity, "0-1");
	assert_string_equal(in.effective, "1");
}

static void test_intr_shared_and_odd_comm(void **state)
{
	struct irq_intr in = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(irq_intr_describe(root, 40, &in, err, sizeof(err)), 0);
	assert_string_equal(in.name, "ttyS4, ttyS5");
	assert_int_equal(in.thread, 90);
	assert_int_equal(in.prio, 80);
	assert_int_equal(in.cpu, 0);
}

static void test_intr_not_threaded(void **state)
{
	struct irq_intr in = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(irq_intr_describe(root, 25, &in, err, sizeof(err)), 0);
	assert_string_equal(in.name, "virtio0-input.0");
	assert_int_equal(in.thread, 0);
	/* --irq-prio on it: an error that says why */
	in.irq = 25;
	assert_int_equal(irq_intr_set_prio(&in, 60, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "IRQ 25 (virtio0-input.0) has no interrupt thread"));
}

static void test_intr_missing(void **state)
{
	struct irq_intr in = { 0 };
	char err[256];

	(void)state;
	assert_int_equal(irq_intr_describe(root, 7, &in, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "interrupt 7: not in"));
	assert_int_equal(in.irq, -1);
	/* "NMI:" is no interrupt number */
	assert_int_equal(irq_intr_find(root, "Non-maskable"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_order),
		cmocka_unit_test(test_gaps_are_lost),
		cmocka_unit_test(test_first_events_lost),
		cmocka_unit_test(test_duplicates_and_late),
		cmocka_unit_test(test_warmup_ignored),
		cmocka_unit_test(test_exact_answer_overtaking),
		cmocka_unit_test(test_exact_forged_stamps_are_stray),
		cmocka_unit_test(test_exact_lost_by_timeout_then_late),
		cmocka_unit_test(test_exact_end_skips_served_ahead),
		cmocka_unit_test(test_long_gap_keeps_what_was_served),
		cmocka_unit_test(test_late_comes_once),
		cmocka_unit_test(test_exact_replayed_answers_are_duplicates),
		cmocka_unit_test(test_exact_far_back_lost_is_late),
		cmocka_unit_test(test_gap_beyond_back_window),
		cmocka_unit_test(test_old_events),
		cmocka_unit_test(test_nothing_sent),
		cmocka_unit_test_setup_teardown(test_intr_find, tree_up, tree_down),
		cmocka_unit_test_setup_teardown(test_intr_find_queue, tree_up, tree_down),
		cmocka_unit_test_setup_teardown(test_intr_threaded, tree_up, tree_down),
		cmocka_unit_test_setup_teardown(test_intr_shared_and_odd_comm, tree_up, tree_down),
		cmocka_unit_test_setup_teardown(test_intr_not_threaded, tree_up, tree_down),
		cmocka_unit_test_setup_teardown(test_intr_missing, tree_up, tree_down),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
