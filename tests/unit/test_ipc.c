// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: event accounting (seqtrack), mailboxes, IPC mechanisms. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/ipc.h"
#include "core/ipc_test.h"

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
		cmocka_unit_test(test_mbox),
		cmocka_unit_test(test_mechanisms_pending_post),
		cmocka_unit_test(test_mechanisms_ping_pong),
		cmocka_unit_test(test_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
