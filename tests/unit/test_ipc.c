// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: event accounting (seqtrack), mailboxes, IPC mechanisms. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/lib/ipc.h"
#include "measure/lib/ipc_test.h"

/* Feed wake-ups that found @heads posted, then the end at @last; returns
 * samples and lost, and checks each sampled event. */
static void feed(uint32_t first, const uint32_t *heads, int n, uint32_t last,
		 const uint32_t *want_samples, uint64_t *samples,
		 uint64_t *lost)
{
	struct seqtrack t = { 0 };
	uint32_t x, l;
	int i, k = 0;

	*samples = *lost = 0;
	for (i = 0; i < n; i++) {
		if (!seqtrack_wake(&t, first, heads[i], &x, &l))
			continue;
		if (want_samples)
			assert_int_equal(x, want_samples[k]);
		k++;
		(*samples)++;
		*lost += l;
	}
	*lost += seqtrack_end(&t, first, last);
}

static void test_seq_in_order(void **state)
{
	const uint32_t heads[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	uint64_t s, l;

	(void)state;
	feed(1, heads, 10, 10, heads, &s, &l);
	assert_int_equal(s, 10);
	assert_int_equal(l, 0);
}

static void test_seq_gaps_warmup_stale(void **state)
{
	/* 3: warm-up; 5: sample; 8: sample 6, lost 7 and 8; 8 again: a
	 * left-over wake-up; 9: sample; the end at 12: 10, 11, 12 lost */
	const uint32_t heads[] = { 3, 5, 8, 8, 9 };
	const uint32_t want[] = { 5, 6, 9 };
	uint64_t s, l;

	(void)state;
	feed(5, heads, 5, 12, want, &s, &l);
	assert_int_equal(s, 3);
	assert_int_equal(l, 5);
	assert_int_equal(s + l, 12 - 5 + 1);
}

static void test_seq_nothing_seen(void **state)
{
	uint64_t s, l;

	(void)state;
	feed(1, NULL, 0, 5, NULL, &s, &l);
	assert_int_equal(s, 0);
	assert_int_equal(l, 5);
}

static void test_seq_wraps(void **state)
{
	const uint32_t heads[] = { 0xfffffffeu, 0xffffffffu, 0, 3, 3 };
	const uint32_t want[] = { 0xfffffffeu, 0xffffffffu, 0, 1 };
	uint64_t s, l;

	(void)state;
	feed(0xfffffffeu, heads, 5, 4, want, &s, &l);
	assert_int_equal(s, 4);
	assert_int_equal(l, 3);	/* 2, 3 at the wake-up at 3; 4 at the end */
	assert_int_equal(s + l, 7);
}

/* Any non-decreasing sequence of heads: every event counted once. */
static void test_seq_identity_random(void **state)
{
	uint32_t heads[500], h;
	uint64_t s, l;
	int round, i;

	(void)state;
	srand(42);
	for (round = 0; round < 200; round++) {
		uint32_t first = (uint32_t)rand() % 50 + 1;

		h = (uint32_t)rand() % 40;
		for (i = 0; i < 500; i++) {
			h += (uint32_t)(rand() % 4 == 0 ? rand() % 6 : rand() % 2);
			heads[i] = h;
		}
		if (h + 3 < first)
			continue;
		feed(first, heads, 500, h + 3, NULL, &s, &l);
		assert_int_equal(s + l, h + 3 - first + 1);
	}
}

static void put_event(struct ipc_mbox *m, uint32_t seq, int64_t stamp)
{
	struct ipc_msg msg = { seq, stamp, stamp };

	mbox_put(m, &msg);
}

/*
 * The interleaving behind a negative switch latency, step by step. Events
 * 1 and 2 are posted while the worker is late: it wakes for 1 (2 is lost)
 * with one post pending. That left-over wake-up returns at 300, and before
 * the worker reads the mailbox the event thread (higher priority) preempts
 * it and posts event 3, stamped 310. Taking the oldest event not yet
 * accounted, as seqtrack_wake() alone does, gives 300 - 310 = -10 ns.
 * Event 3 did not cause that wake-up: it is left for the next one, which
 * its own post causes at once.
 */
static void test_event_wake_posted_after_wakeup(void **state)
{
	static struct ipc_mbox box;
	struct seqtrack naive = { 0 }, t = { 0 };
	struct ipc_msg m;
	uint32_t x, lost, nlost;
	uint64_t samples = 0, lost_total = 0;
	bool have;

	(void)state;
	memset(&box, 0, sizeof(box));
	put_event(&box, 1, 100);
	put_event(&box, 2, 200);
	/* wakes for event 1 at 250: 2 was missed too */
	assert_true(ipc_event_wake(&t, &box, 1, mbox_head(&box), 250, &m,
				   &have, &lost));
	assert_true(have);
	assert_int_equal(m.seq, 1);
	assert_int_equal(250 - m.a, 150);
	assert_int_equal(lost, 1);
	samples++;
	lost_total += lost;
	assert_true(seqtrack_wake(&naive, 1, 2, &x, &nlost));

	/* the left-over wake-up: clock read at 300, event 3 posted at 310
	 * before the mailbox is read */
	put_event(&box, 3, 310);
	/* the defect: the later event's stamp */
	assert_true(seqtrack_wake(&naive, 1, mbox_head(&box), &x, &nlost));
	assert_int_equal(x, 3);
	assert_true(mbox_get(&box, x, &m));
	assert_true(300 - m.a < 0);
	/* the fix: nothing for this wake-up */
	assert_false(ipc_event_wake(&t, &box, 1, mbox_head(&box), 300, &m,
				    &have, &lost));

	/* event 3's own wake-up, at 320 */
	assert_true(ipc_event_wake(&t, &box, 1, mbox_head(&box), 320, &m,
				   &have, &lost));
	assert_true(have);
	assert_int_equal(m.seq, 3);
	assert_int_equal(320 - m.a, 10);
	assert_int_equal(lost, 0);
	samples++;

	/* a wake-up for event 4 (stamped 400) at 450, with event 5 posted
	 * at 460 before the mailbox read: 4 is sampled, 5 is not lost but
	 * left for its own wake-up */
	put_event(&box, 4, 400);
	put_event(&box, 5, 460);
	assert_true(ipc_event_wake(&t, &box, 1, mbox_head(&box), 450, &m,
				   &have, &lost));
	assert_true(have && m.seq == 4 && lost == 0);
	samples++;
	assert_true(ipc_event_wake(&t, &box, 1, mbox_head(&box), 470, &m,
				   &have, &lost));
	assert_true(have && m.seq == 5 && lost == 0);
	assert_int_equal(470 - m.a, 10);
	samples++;
	/* nothing left: a stale wake-up */
	assert_false(ipc_event_wake(&t, &box, 1, mbox_head(&box), 500, &m,
				    &have, &lost));
	lost_total += seqtrack_end(&t, 1, 5);
	assert_int_equal(samples + lost_total, 5);
}

/*
 * Random interleavings of an event thread stamping events in order and a
 * worker reading the clock at each wake-up and the mailbox some time
 * later: every latency is >= 0 and every event is counted once.
 */
static void test_event_wake_random(void **state)
{
	static struct ipc_mbox box;
	struct seqtrack t;
	struct ipc_msg m;
	uint32_t lost, seq;
	uint64_t samples, lost_total;
	int64_t clock, now;
	bool have;
	int round, i;

	(void)state;
	srand(7);
	for (round = 0; round < 200; round++) {
		memset(&box, 0, sizeof(box));
		memset(&t, 0, sizeof(t));
		samples = lost_total = 0;
		seq = 0;
		clock = 1000;
		for (i = 0; i < 300; i++) {
			/* events posted before the wake-up */
			int k = rand() % 3, j;

			for (j = 0; j < k; j++) {
				clock += rand() % 50 + 1;
				put_event(&box, ++seq, clock);
			}
			clock += rand() % 50 + 1;
			now = clock;		/* the wake-up's clock read */
			/* events posted before the mailbox read */
			k = rand() % 3 == 0 ? rand() % 3 : 0;
			for (j = 0; j < k; j++) {
				clock += rand() % 50 + 1;
				put_event(&box, ++seq, clock);
			}
			if (!ipc_event_wake(&t, &box, 1, mbox_head(&box), now,
					    &m, &have, &lost))
				continue;
			assert_true(have);
			assert_true(now - m.a >= 0);
			samples++;
			lost_total += lost;
		}
		lost_total += seqtrack_end(&t, 1, seq);
		assert_int_equal(samples + lost_total, seq);
	}
}

/* A worker more than a mailbox behind: the oldest event kept stands in
 * (a lower bound), never one stamped after the wake-up. */
static void test_event_wake_overwritten(void **state)
{
	static struct ipc_mbox box;
	struct seqtrack t = { 0 };
	struct ipc_msg m;
	uint32_t lost, i, n = IPC_MBOX_SLOTS + 100;
	bool have;

	(void)state;
	memset(&box, 0, sizeof(box));
	for (i = 1; i <= n; i++)
		put_event(&box, i, 1000 + i);
	assert_true(ipc_event_wake(&t, &box, 1, n, 1000 + n, &m, &have,
				   &lost));
	assert_true(have);
	assert_true(m.seq > 1 && m.a <= 1000 + (int64_t)n);
	assert_int_equal(lost, n - 1);
	/* the same, but every kept event was stamped after the wake-up:
	 * counted as lost, no sample */
	memset(&t, 0, sizeof(t));
	assert_true(ipc_event_wake(&t, &box, 1, n - IPC_MBOX_SLOTS, 1000, &m,
				   &have, &lost));
	assert_false(have);
}

static void test_mbox(void **state)
{
	static struct ipc_mbox m;
	struct ipc_msg in = { 0 }, out;
	uint32_t i;

	(void)state;
	assert_int_equal(mbox_head(&m), 0);
	assert_false(mbox_get(&m, 1, &out));
	in.seq = 1;
	in.a = -123456789012345;
	in.b = INT64_MAX;
	mbox_put(&m, &in);
	assert_int_equal(mbox_head(&m), 1);
	assert_true(mbox_get(&m, 1, &out));
	assert_int_equal(out.seq, 1);
	assert_true(out.a == in.a);
	assert_true(out.b == in.b);
	/* IPC_MBOX_SLOTS later, message 1 is gone; the newest is kept */
	for (i = 2; i <= IPC_MBOX_SLOTS + 1; i++) {
		in.seq = i;
		in.a = i;
		mbox_put(&m, &in);
	}
	assert_false(mbox_get(&m, 1, &out));
	assert_true(mbox_get(&m, 2, &out));
	assert_true(mbox_get(&m, IPC_MBOX_SLOTS + 1, &out));
	assert_int_equal(out.a, IPC_MBOX_SLOTS + 1);
}

/* Every mechanism: a post before the wait is not lost (same thread). */
static void test_mechanisms_pending_post(void **state)
{
	char err[256];
	struct ipc c;
	int i, side;

	(void)state;
	for (i = 0; ipc_mechanisms[i]; i++) {
		assert_int_equal(ipc_open(&c, ipc_mechanisms[i], false, err,
					  sizeof(err)), 0);
		for (side = 0; side < 2; side++) {
			assert_int_equal(ipc_attach(&c, side), 0);
			assert_int_equal(ipc_post(&c, side), 0);
			assert_int_equal(ipc_wait(&c, side), 0);
		}
		ipc_close(&c);
	}
}

/*
 * The signal mechanism posts real-time signals, which queue: N posts
 * before a wait are N wake-ups, none merged with a pending one, and none
 * left over after them (a lost or coalesced wake-up would leave a side
 * waiting for a later one).
 */
static void test_signal_posts_queue(void **state)
{
	const struct ipc_ops *ops = ipc_find("signal");
	char err[256];
	struct ipc c;
	sigset_t pend;
	int i, sig = SIGRTMIN + 3;	/* side 0's, see ipc.c */

	(void)state;
	assert_non_null(ops);
	assert_int_equal(ipc_open(&c, ops, false, err, sizeof(err)), 0);
	assert_int_equal(ipc_attach(&c, 0), 0);
	for (i = 0; i < 64; i++)
		assert_int_equal(ipc_post(&c, 0), 0);
	assert_int_equal(sigpending(&pend), 0);
	assert_true(sigismember(&pend, sig));
	for (i = 0; i < 64; i++)
		assert_int_equal(ipc_wait(&c, 0), 0);
	assert_int_equal(sigpending(&pend), 0);
	assert_false(sigismember(&pend, sig));
	ipc_close(&c);
}

struct pong {
	struct ipc *c;
	int rounds;
};

static void *pong_main(void *arg)
{
	struct pong *p = arg;
	int i;

	ipc_attach(p->c, 1);
	for (i = 0; i < p->rounds; i++) {
		while (ipc_wait(p->c, 1) == IPC_INTERRUPTED)
			;
		ipc_post(p->c, 0);
	}
	return NULL;
}

/* Every mechanism: ping-pong between two threads. */
static void test_mechanisms_ping_pong(void **state)
{
	struct pong p = { NULL, 200 };
	char err[256];
	struct ipc c;
	pthread_t th;
	int i, k, e;

	(void)state;
	for (i = 0; ipc_mechanisms[i]; i++) {
		assert_int_equal(ipc_open(&c, ipc_mechanisms[i], false, err,
					  sizeof(err)), 0);
		assert_int_equal(ipc_attach(&c, 0), 0);
		p.c = &c;
		assert_int_equal(pthread_create(&th, NULL, pong_main, &p), 0);
		for (k = 0; k < p.rounds; k++) {
			/* the signal target is known once the thread attached */
			while ((e = ipc_post(&c, 1)) == -ESRCH)
				;
			assert_int_equal(e, 0);
			while ((e = ipc_wait(&c, 0)) == IPC_INTERRUPTED)
				;
			assert_int_equal(e, 0);
		}
		pthread_join(th, NULL);
		ipc_close(&c);
	}
}

static void test_find(void **state)
{
	char buf[200];

	(void)state;
	assert_non_null(ipc_find("sem"));
	assert_non_null(ipc_find("socket"));
	assert_null(ipc_find("carrier-pigeon"));
	assert_string_equal(ipc_mechanisms[0]->name, "sem");
	ipc_names(buf, sizeof(buf));
	assert_string_equal(buf, "sem, futex, condvar, pipe, eventfd, mqueue, signal, socket");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_in_order),
		cmocka_unit_test(test_seq_gaps_warmup_stale),
		cmocka_unit_test(test_seq_nothing_seen),
		cmocka_unit_test(test_seq_wraps),
		cmocka_unit_test(test_seq_identity_random),
		cmocka_unit_test(test_event_wake_posted_after_wakeup),
		cmocka_unit_test(test_event_wake_random),
		cmocka_unit_test(test_event_wake_overwritten),
		cmocka_unit_test(test_mbox),
		cmocka_unit_test(test_mechanisms_pending_post),
		cmocka_unit_test(test_mechanisms_ping_pong),
		cmocka_unit_test(test_signal_posts_queue),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
