/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Two-sided IPC tests on the engine (switch, handshake).
 *
 * Side 0 measures: it is an engine sampler in the rtlat process. Side 1 is
 * its partner and measures nothing: an engine sampler without series
 * (threads, the default) or a forked child process sharing memory with
 * rtlat (--process). The sides wake each other through an IPC channel
 * (ipc.h, chosen with --ipc) and pass their messages - a sequence number
 * and two timestamps - through mailboxes in shared memory, so that every
 * mechanism carries the same information.
 *
 * Start: side 0 publishes the engine's timing (t0, t_measure, t_end,
 * period, clock, wait backend) and sets "go"; the partner attaches to the
 * channel, sets "ready", waits for go and runs; side 0 posts nothing before
 * ready. End: side 0 sets "stop" and posts to the partner; the partner,
 * whenever it ends (stop, its own end, a failure), writes its counts, sets
 * "done" and posts to side 0. A partner failure, or the death of the
 * partner process (seen by a reaper thread), ends the run with a message.
 * Side 0 waits no longer than IPC_END_GRACE_NS past the end of the run: a
 * timer kicks it out of its wait then, so that a partner that stopped
 * answering (SIGSTOP, starved) cannot hold the run past -T.
 *
 * The partner process is forked in setup(), before any thread exists. It
 * dies with rtlat (PR_SET_PDEATHSIG SIGKILL), blocks the terminal's
 * signals (rtlat stops it), and is reaped on every exit path: teardown
 * asks it to stop, continues it (SIGCONT: it may have been stopped), waits
 * up to 2 s, then kills it.
 */
#ifndef RTLAT_IPC_TEST_H
#define RTLAT_IPC_TEST_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/test.h"
#include "measure/lib/ipc.h"

/* Mailbox: the last IPC_MBOX_SLOTS messages sent to one side. */
#define IPC_MBOX_SLOTS 4096

struct ipc_msg {
	uint32_t seq;		/* 1, 2, ... (modulo 2^32) */
	int64_t a, b;		/* ns, meaning set by the test */
};

struct ipc_mbox_slot {
	_Atomic uint32_t ver;	/* sequence lock: odd while written */
	_Atomic uint32_t seq;
	_Atomic uint32_t half[4];	/* a, b in 32-bit halves: lock-free on
					 * every target, across processes */
};

struct ipc_mbox {
	_Atomic uint32_t head;	/* sequence number of the last message */
	struct ipc_mbox_slot slot[IPC_MBOX_SLOTS];
};

/*
 * The mailbox slots are a sequence lock over atomic fields: relaxed accesses
 * ordered by fences. ThreadSanitizer does not model fences (GCC refuses
 * them with -fsanitize=thread), so sanitized builds make every access of
 * the protocol sequentially consistent instead: the same protocol, correct
 * without fences, only slower.
 */
#if defined(__SANITIZE_THREAD__)
#define MBOX_RELAXED memory_order_seq_cst
#define mbox_fence(order) ((void)0)
#else
#define MBOX_RELAXED memory_order_relaxed
#define mbox_fence(order) atomic_thread_fence(order)
#endif

/* Put @msg (one writer per mailbox); @msg->seq becomes the head. */
static inline void mbox_put(struct ipc_mbox *m, const struct ipc_msg *msg)
{
	struct ipc_mbox_slot *sl = &m->slot[msg->seq % IPC_MBOX_SLOTS];
	uint32_t v = atomic_load_explicit(&sl->ver, MBOX_RELAXED);

	atomic_store_explicit(&sl->ver, v + 1, MBOX_RELAXED);
	mbox_fence(memory_order_release);
	atomic_store_explicit(&sl->seq, msg->seq, MBOX_RELAXED);
	atomic_store_explicit(&sl->half[0], (uint32_t)msg->a, MBOX_RELAXED);
	atomic_store_explicit(&sl->half[1], (uint32_t)((uint64_t)msg->a >> 32),
			      MBOX_RELAXED);
	atomic_store_explicit(&sl->half[2], (uint32_t)msg->b, MBOX_RELAXED);
	atomic_store_explicit(&sl->half[3], (uint32_t)((uint64_t)msg->b >> 32),
			      MBOX_RELAXED);
	atomic_store_explicit(&sl->ver, v + 2, memory_order_release);
	atomic_store_explicit(&m->head, msg->seq, memory_order_release);
}

/* Sequence number of the last message put (0 before the first). */
static inline uint32_t mbox_head(struct ipc_mbox *m)
{
	return atomic_load_explicit(&m->head, memory_order_acquire);
}

/* Read message @seq. Returns false when it has been overwritten by a newer
 * one (more than IPC_MBOX_SLOTS behind) or was never put. */
bool mbox_get(struct ipc_mbox *m, uint32_t seq, struct ipc_msg *msg);

/*
 * Event accounting of a waiter that is woken for numbered events (switch).
 * Each wake-up takes one sample: the latency of the oldest event not yet
 * accounted; the newer events already posted at that moment were missed
 * (the waiter was more than a period late for them) and are counted as
 * lost. Events before @first (warm-up) are ignored. So every event from
 * @first on is counted exactly once, as a sample or as lost.
 */
struct seqtrack {
	uint32_t next;		/* oldest event not yet accounted */
	bool started;
};

/*
 * A wake-up that found events up to @head posted. Returns false when it
 * brings nothing new (a left-over wake-up of coalesced posts, or warm-up);
 * else *@sample is the event to take the latency of and *@lost the number
 * of newer events missed.
 */
static inline bool seqtrack_wake(struct seqtrack *t, uint32_t first,
				 uint32_t head, uint32_t *sample,
				 uint32_t *lost)
{
	if (!t->started) {
		t->next = first;
		t->started = true;
	}
	if ((int32_t)(head - t->next) < 0)
		return false;
	*sample = t->next;
	*lost = head - t->next;
	t->next = head + 1;
	return true;
}

/* The end: events up to @last were posted; those not accounted are lost.
 * Returns their number. */
static inline uint32_t seqtrack_end(struct seqtrack *t, uint32_t first,
				    uint32_t last)
{
	uint32_t n;

	if (!t->started) {
		t->next = first;
		t->started = true;
	}
	if ((int32_t)(last - t->next) < 0)
		return 0;
	n = last - t->next + 1;
	t->next = last + 1;
	return n;
}

/*
 * The worker's accounting of one wake-up (switch). @now is the clock read
 * right after the wait, @head the mailbox head read after that. An event
 * stamped after @now was posted after the wake-up - by a thread that ran
 * between the wait's return and the mailbox read: it did not cause this
 * wake-up and is left for the next one (its own post makes the next wait
 * return at once). Of the events stamped at or before @now, the oldest not
 * yet accounted is the one the wake-up is for, the newer ones were missed
 * (lost), as in seqtrack_wake().
 *
 * Returns false when the wake-up brings nothing (stale, warm-up, or only
 * events posted after it). Else *@lost is the number of events missed and
 * *@have tells whether *@m holds the event to sample: its latency
 * @now - m->a is never negative. When the event was overwritten in the
 * mailbox (the worker is more than IPC_MBOX_SLOTS / 2 events late), *@m is
 * the oldest one still kept if it was stamped at or before @now (the
 * latency is then a lower bound), else *@have is false and the caller
 * counts the event as lost.
 */
bool ipc_event_wake(struct seqtrack *t, struct ipc_mbox *box, uint32_t first,
		    uint32_t head, int64_t now, struct ipc_msg *m, bool *have,
		    uint32_t *lost);

/* Shared between the sides (MAP_SHARED). */
struct ipc_ctl {
	struct ipc_mbox box[2];		/* messages to side 0, to side 1 */
	_Atomic int ready;		/* partner attached */
	_Atomic int go;			/* timing below is valid */
	_Atomic int stop;		/* partner: finish */
	_Atomic int done;		/* partner finished; counts valid */
	/* the engine's timing, written by side 0 before go (test clock) */
	int64_t t0, t_measure, t_end, period;
	clockid_t clock;
	int wait;			/* enum wait_backend */
	/* the partner's counts of what it sent in the measurement (switch:
	 * its events), valid with done; first_seq valid with first_known */
	_Atomic uint32_t first_seq;
	_Atomic int first_known;
	uint32_t last_seq;
	uint64_t events;
	uint64_t overruns;		/* its own missed periods */
	/* the partner as it runs, valid with ready */
	int pid, tid, cpu_now, policy_now, prio_now;
	/* partner failure: -errno and message, valid with done */
	int err;
	char errmsg[192];
};

/*
 * How long after the end of the measurement (t_end) side 0 still waits for
 * the partner - a round trip under way, the partner's end - before it gives
 * up: a stopped or starved partner cannot hold the run past -T. A timer
 * kicks side 0 out of its wait at t_end + this (ipc_test_body()).
 */
#define IPC_END_GRACE_NS	((int64_t)100000000)	/* 100 ms */

/* Options --ipc and --process. */
struct ipc_test_cfg {
	const struct ipc_ops *ops;
	bool process;
};

struct ipc_test {
	struct ipc_test_cfg cfg;
	/* set by the test before ipc_test_setup() */
	int (*measure)(struct sampler *s, struct ipc_test *t);	/* side 0 */
	int (*partner)(struct ipc_test *t, char *err, size_t len);
	const char *role[2];		/* "worker", "event thread" */
	int partner_cpu_index;		/* which CPU of -c the partner takes */
	int prio[2];			/* per side */
	void *priv;
	/* set by ipc_test_setup() */
	struct run *r;
	int cpu[2];
	struct ipc ipc;
	struct ipc_ctl *ctl;
	const _Atomic int *stop_flag;	/* what the partner's waits watch */
	pid_t child;			/* partner process, or 0 */
	pthread_t reaper;
	bool reaper_started;
	_Atomic int child_gone;
};

/* test_desc.msw_tids of the two-sided tests (Cobalt build): a partner in
 * a process of its own (--process), once it runs. */
int ipc_test_msw_tids(struct run *r, pid_t *tids, int max);

extern const struct optdesc ipc_test_opts[];

void ipc_test_cfg_init(struct ipc_test_cfg *c);
/* Handle --ipc / --process into the struct ipc_test_cfg @cfg (an
 * opt_handler): 0, -1 after an error, 1 when not ours. */
int ipc_test_opt(void *cfg, const struct optdesc *d, const char *arg);

/*
 * In a two-thread test's setup(): the CPUs of its two threads from -c (one
 * CPU: both on it; two: @first's, then @second's, the roles named in the
 * error; default: both on the first CPU rtlat may use) into @list, and
 * -c's set made those. Returns 0 or -1 (reported).
 */
int test_place_two(struct run *r, const char *first, const char *second,
		   int list[2]);

/*
 * In the test's setup(): place the sides on the -c CPUs (one CPU: both on
 * it; two: the partner on the one at partner_cpu_index; default: both on
 * the first CPU rtlat may use), open the channel and add side 0 measuring
 * @nseries series, then the partner. Sets r->priv = @t. Returns 0 or -1
 * (reported).
 */
int ipc_test_setup(struct run *r, struct ipc_test *t, int nseries,
		   const struct series_desc *const *desc);

/* Sampler body of both sides (test_desc.body). */
int ipc_test_body(struct sampler *s);

/* test_desc.teardown: stop and reap the partner, close the channel. */
void ipc_test_teardown(struct run *r);

/* In side 0: @now (test clock) is past the end and its grace. */
static inline bool ipc_test_past_end(const struct ipc_test *t, int64_t now)
{
	return t->r->t_end != INT64_MAX &&
	       now - IPC_END_GRACE_NS >= t->r->t_end;
}

/* In the partner: time to finish. */
static inline bool ipc_test_partner_stopping(const struct ipc_test *t)
{
	return atomic_load_explicit(&t->ctl->stop, memory_order_relaxed) ||
	       atomic_load_explicit(t->stop_flag, memory_order_relaxed);
}

/* In side 0 after a wake-up that found the partner done: 0, or -errno with
 * s->errmsg set when the partner failed. */
int ipc_test_partner_error(struct sampler *s, struct ipc_test *t);

/* In side 0 at its end: wait (up to 1 s) until the partner is done, so
 * that its counts are valid. 0 or -errno with s->errmsg set. */
int ipc_test_await_partner(struct sampler *s, struct ipc_test *t);

/* The banner's "IPC: ..." line (the mechanism, threads or processes,
 * which side is which), a test_line over ipc_test_figures(). */
#define IPC_TEST_LINE \
	{ LINE_BANNER, NULL, \
	  "IPC: {ipc}, {ipc_description}; [?process:{own_role} in this process, {partner.role} in process {child_pid} (CPU {partner.cpu})][!process:threads: sampler 0 = {own_role}, sampler 1 = {partner.role}]" }

/* Common figures (test_desc.figures) of test_data: ipc,
 * ipc_description, process, the partner object; for IPC_TEST_LINE the
 * roles and the partner's process. */
void ipc_test_figures(const struct ipc_test *t, struct test_figs *f);

#endif
