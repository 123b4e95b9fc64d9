// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat handshake: two real-time tasks ping-pong through an IPC mechanism,
 * the measurement of rt-tests' ptsematest, pmqtest, sigwaittest and
 * svsematest and of the sema4 handshake demos, as one implementation.
 *
 * Side a stamps t1 and wakes side b; b stamps its wake-up t2 and, just
 * before waking a back, t3; a stamps its wake-up t4. Series (ns,
 * CLOCK_MONOTONIC): a_to_b = t2 - t1, b_to_a = t4 - t3, round_trip =
 * t4 - t1. Round trips run back to back, or one per --period. A round trip
 * started but not completed (the run was interrupted, or side b did not
 * reply by the end of the run and its grace: stopped, starved) is lost:
 * samples + lost == round trips started in the measurement; paced, round
 * trips + missed periods == the periods of the measurement (up to the
 * stop when interrupted). A timestamp taken before the message it answers
 * was put (a wake-up for something else) is never used (one-way latencies
 * are never negative).
 */
#include <stdio.h>
#include <string.h>

#include "engine/test.h"
#include "measure/lib/ipc_test.h"
#include "util/log.h"
#include "output/output.h"
#include "util/parse.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

/* What side a counts beyond the series. */
struct handshake_counts {
	uint64_t round_trips;		/* started in the measurement */
	uint64_t missed_periods;	/* --period: deadlines missed */
};

enum { A_TO_B, B_TO_A, ROUND_TRIP };

static const char handshake_miss[] = "lost";	/* round trips not completed */

static const struct series_desc a_to_b = {
	.name = "a_to_b", .miss_name = handshake_miss, .threshold = true,
};
static const struct series_desc b_to_a = {
	.name = "b_to_a", .miss_name = handshake_miss, .threshold = true,
};
static const struct series_desc round_trip = {
	.name = "round_trip", .miss_name = handshake_miss, .threshold = false,
};
static const struct series_desc *const handshake_descs[] = {
	&a_to_b, &b_to_a, &round_trip,
};

static const struct optdesc handshake_opts_table[] = {
	{ "period", 'p', required_argument, "US",
	  "start a round trip every US (or with a unit: 500us, 1ms);\n"
	  "0 = back to back (default)", OPT_HANDSHAKE_PERIOD },
	OPT_END
};

/* The partner, side b: reflect each message with its two timestamps. */
static int handshake_reflect(struct ipc_test *t, char *err, size_t len)
{
	struct ipc_ctl *c = t->ctl;
	struct ipc_msg in, out;
	uint32_t head, last = 0;
	int64_t t2;
	int e;

	while (!ipc_test_partner_stopping(t)) {
		e = ipc_wait(&t->ipc, 1);
		t2 = clock_now_ns(c->clock);
		if (e < 0) {
			snprintf(err, len, "side b: %s wait failed: %s",
				 t->ipc.ops->name, strerror(-e));
			return e;
		}
		head = mbox_head(&c->box[1]);
		/* interrupted (no wake-up: t2 would not be one), stale, or a
		 * message put after this wake-up's clock read: its own post
		 * wakes us again at once */
		if (e == IPC_INTERRUPTED || head == last ||
		    !mbox_get(&c->box[1], head, &in) || in.a > t2)
			continue;
		last = head;
		out.seq = in.seq;
		out.a = t2;
		out.b = clock_now_ns(c->clock);
		mbox_put(&c->box[0], &out);
		e = ipc_post(&t->ipc, 0);
		if (e) {
			snprintf(err, len, "side b: %s post failed: %s",
				 t->ipc.ops->name, strerror(-e));
			return e;
		}
	}
	return 0;
}

/* Side a: wait for the reply to @seq. Returns 0 with *@reply and the
 * wake-up time *@t4, 1 when the run stops first or side b has not replied
 * by the end of the run and its grace (IPC_END_GRACE_NS), or -errno. */
static int await_reply(struct sampler *s, struct ipc_test *t, uint32_t seq,
		       struct ipc_msg *reply, int64_t *t4)
{
	struct ipc_ctl *c = t->ctl;
	int e;

	for (;;) {
		e = ipc_wait(&t->ipc, 0);
		*t4 = clock_now_ns(c->clock);
		if (e < 0) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "side a: %s wait failed: %s", t->ipc.ops->name,
				 strerror(-e));
			return e;
		}
		/* only a wake-up gives t4 (an interrupted wait leaves the
		 * reply's post pending); a reply put after this wake-up's
		 * clock read (we woke for something else) is taken at its own
		 * post's wake-up */
		if (e == 0 && mbox_head(&c->box[0]) == seq &&
		    mbox_get(&c->box[0], seq, reply) && reply->b <= *t4)
			return 0;
		if (atomic_load_explicit(&c->done, memory_order_acquire)) {
			e = ipc_test_partner_error(s, t);
			return e ? e : 1;
		}
		if (sampler_stopping(s) || ipc_test_past_end(t, *t4))
			return 1;
	}
}

/* Paced: the deadlines after @at up to @now inside the measurement, when
 * side a ends while waiting for a reply (they were missed; the next wait
 * would have counted them). */
static uint64_t missed_since(const struct run *r, int64_t at, int64_t now)
{
	struct wake wk = { .deadline = at, .now = now, .missed = 0 };

	if (now > at)
		wk.missed = (uint64_t)((now - at) / r->o->period_ns);
	return wake_missed_inside(&wk, r->o->period_ns, r->t_measure,
				  r->t_end);
}

static int handshake_measure(struct sampler *s, struct ipc_test *t)
{
	struct run *r = s->run;
	struct handshake_counts *n = t->priv;
	clockid_t clk = r->o->clock;
	bool paced = r->o->period_ns > 0;
	struct ipc_msg m = { 0 }, reply;
	struct waiter w;
	struct wake wk;
	int64_t t1, t4, at;
	int e = 0;

	if (paced) {
		e = waiter_init(&w, WAIT_ABS, clk, r->o->period_ns, r->t0,
				&r->stop, engine_stop_signal());
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "side a: cannot set up the period: %s",
				 strerror(-e));
			return e;
		}
	}
	while (!sampler_stopping(s)) {
		/* paced: the deadline decides whether the round trip belongs
		 * to the measurement, so that round trips + missed periods ==
		 * duration / period; else its start */
		if (paced) {
			e = waiter_wait(&w, &wk);
			if (e == WAIT_INTERRUPTED) {
				e = 0;
				continue;
			}
			if (e < 0) {
				snprintf(s->errmsg, sizeof(s->errmsg),
					 "side a: period wait failed: %s",
					 waiter_error(&w, e));
				break;
			}
			if (wk.deadline >= r->t_end)
				break;
			n->missed_periods += wake_missed_inside(&wk, r->o->period_ns,
								r->t_measure,
								r->t_end);
			t1 = clock_now_ns(clk);
			at = wk.deadline;
		} else {
			t1 = clock_now_ns(clk);
			at = t1;
			if (t1 >= r->t_end)
				break;
		}
		m.seq++;
		m.a = t1;
		mbox_put(&t->ctl->box[1], &m);
		e = ipc_post(&t->ipc, 1);
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "side a: %s post failed: %s", t->ipc.ops->name,
				 strerror(-e));
			break;
		}
		e = await_reply(s, t, m.seq, &reply, &t4);
		if (e < 0)
			break;
		/* deadlines passed while waiting: those after the grid's
		 * next one (the ones before it were already counted by the
		 * wait that returned late) */
		if (e && paced)
			n->missed_periods += missed_since(r, w.next -
							  r->o->period_ns, t4);
		if (at < r->t_measure) {
			if (e) {
				e = 0;
				break;
			}
			continue;
		}
		n->round_trips++;
		if (e) {	/* interrupted: started, never completed */
			sampler_overrun(s, A_TO_B, 1, at);
			sampler_overrun_same_cycle(s, B_TO_A, 1, at);
			sampler_overrun_same_cycle(s, ROUND_TRIP, 1, at);
			e = 0;
			break;
		}
		sampler_add(s, A_TO_B, reply.a - t1, at);
		sampler_add_same_cycle(s, B_TO_A, t4 - reply.b, at);
		sampler_add_same_cycle(s, ROUND_TRIP, t4 - t1, at);
		if (r->o->max_cycles && s->cycles >= r->o->max_cycles)
			break;
	}
	if (paced)
		waiter_destroy(&w);
	/* as switch: a side b that does not end with the run (stopped,
	 * starved) makes it an error (the figures are kept, accounted),
	 * not a complete run with one lost; when interrupted, it is not
	 * waited for */
	if (!e && !sampler_stopping(s))
		e = ipc_test_await_partner(s, t);
	return e;
}

static const struct xeno_col handshake_cols[] = {
	{ "a->b avg", A_TO_B, XENO_AVG },
	{ "a->b max", A_TO_B, XENO_MAX },
	{ "b->a avg", B_TO_A, XENO_AVG },
	{ "b->a max", B_TO_A, XENO_MAX },
	{ "rtt min", ROUND_TRIP, XENO_MIN },
	{ "rtt avg", ROUND_TRIP, XENO_AVG },
	{ "rtt max", ROUND_TRIP, XENO_MAX },
	{ "lost", ROUND_TRIP, XENO_MISSED },
};

/* The IPC, the partner, the round trips of the measurement and the
 * periods missed (null when back to back): test_data and the summary
 * line. */
static void handshake_figures(struct run *r, struct test_figs *f)
{
	const struct ipc_test *t = r->priv;
	const struct handshake_counts *n = t ? t->priv : NULL;

	if (!n || !t->ctl)
		return;
	ipc_test_figures(t, f);
	fig_num(f, "round_trips", "%llu", (unsigned long long)n->round_trips);
	if (r->o->period_ns)
		fig_num(f, "missed_periods", "%llu",
			(unsigned long long)n->missed_periods);
	else
		fig_null(f, "missed_periods");
}

static const struct test_line handshake_lines[] = {
	IPC_TEST_LINE,
	{ LINE_SUMMARY, NULL,
	  "Round trips: {round_trips} in the measurement = {series.round_trip.samples} samples + {series.round_trip.misses} lost[?missed_periods:; {missed_periods} periods missed]" },
	{ 0, NULL, NULL },
};

static const struct output_ops handshake_output = {
	.start = xeno_banner,
	.interval = xeno_interval,
	.summary = xeno_summary_all,
	.cols = handshake_cols,
	.ncols = (int)(sizeof(handshake_cols) / sizeof(handshake_cols[0])),
};

/* The private state of a run (test_desc.priv_size): the IPC test first,
 * as ipc_test_setup() makes it r->priv. */
struct handshake {
	struct ipc_test t;
	struct handshake_counts counts;
};

static int handshake_setup(struct run *r)
{
	struct handshake *h = r->priv;
	struct ipc_test *t = &h->t;

	t->measure = handshake_measure;
	t->partner = handshake_reflect;
	t->role[0] = "side a";
	t->role[1] = "side b";
	t->partner_cpu_index = 1;
	t->prio[0] = r->o->prio;
	t->prio[1] = r->o->prio;
	t->priv = &h->counts;
	if (ipc_test_setup(r, t, 3, handshake_descs) < 0)
		return -1;
	if (!r->o->period_ns && r->o->policy != SCHED_OTHER &&
	    t->cpu[0] == t->cpu[1]) {
		char msg[320];

		rt_throttling_check(msg, sizeof(msg));
		if (msg[0])
			log_warn("back-to-back round trips keep CPU %d busy at real-time priority: RT throttling will pause them every second (-p/--period leaves the CPU idle in between)",
				 t->cpu[0]);
	}
	return 0;
}


/* -p/--period into the engine_opts @o, then --ipc/--process. */
static int handshake_opt(void *priv, struct engine_opts *o,
			 const struct optdesc *d, const char *arg)
{
	struct handshake *h = priv;

	if (d->key != OPT_HANDSHAKE_PERIOD)
		return ipc_test_opt(&h->t.cfg, d, arg);
	if (parse_time_ns(arg, NSEC_PER_USEC, &o->period_ns) < 0 ||
	    o->period_ns > 10 * NSEC_PER_SEC)
		return opt_bad_value(d, arg,
				     "expected a period in us up to 10000000, or with a unit (500us, 1ms); 0 = back to back");
	return 0;
}

static const char handshake_about[] =
	"Measure how fast two real-time tasks wake each other: side a\n"
	"wakes side b through an IPC mechanism and b answers at once;\n"
	"one-way latencies a->b and b->a and the round trip, measured in\n"
	"ns on CLOCK_MONOTONIC and printed in us, as rt-tests'\n"
	"ptsematest/pmqtest/sigwaittest do for one mechanism each. Both\n"
	"sides run at PRIO. -c takes one CPU (both sides, the default: the\n"
	"first usable CPU) or two (a, then b). --max-latency applies to\n"
	"the one-way latencies.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.";

/* -c and -P as they apply to the two sides */
static const struct opt_help handshake_help[] = {
	{ 'c', "one CPU (both sides on it) or two: side a on the first,\n"
	       "side b on the second (default: both on the first CPU rtlat\n"
	       "may use)" },
	{ 'P', "real-time priority of both sides (default 99)" },
	{ 0, NULL },
};

static void handshake_init(void *priv, struct engine_opts *o, int argc,
			   char **argv)
{
	struct handshake *h = priv;

	ipc_test_cfg_init(&h->t.cfg);
}

/* Suite runs start a round trip every millisecond, as ptsematest and
 * pmqtest do by default: back to back, both sides would keep a CPU busy at
 * real-time priority for the whole run (RT throttling, starved loads). */
static const char *const handshake_suite_args[] = { "--period", "1000", NULL };

static const struct suite_col handshake_suite_cols[] = {
	{ "a->b min", "a_to_b", SUITE_MIN },
	{ "a->b avg", "a_to_b", SUITE_AVG },
	{ "a->b max", "a_to_b", SUITE_MAX },
	{ "a->b p99.9", "a_to_b", SUITE_P999 },
	{ "b->a max", "b_to_a", SUITE_MAX },
	{ "rtt max", "round_trip", SUITE_MAX },
	{ NULL, "round_trip", SUITE_MISSES },
	{ "test-time", NULL, SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

static const struct optdesc *const handshake_opts[] = {
	ipc_test_opts, handshake_opts_table, engine_common_opts, NULL,
};

const struct test_desc handshake_test = {
	.name = "handshake",
	.mode = "two tasks ping-pong",
	.summary = "ping-pong latency of two tasks over an IPC mechanism (ptsematest, pmqtest)",
	.about = handshake_about,
	.period_ns = 0,
	.prio = 99,
	.opts = handshake_opts,
	.help = handshake_help,
	.priv_size = sizeof(struct handshake),
	.init = handshake_init,
	.opt = handshake_opt,
	.setup = handshake_setup,
	.body = ipc_test_body,
	.teardown = ipc_test_teardown,
	.msw_tids = ipc_test_msw_tids,
	.figures = handshake_figures,
	.lines = handshake_lines,
	.out = &handshake_output,
	.suite = &(const struct suite_spec){
		.title = "HANDSHAKE",
		.args = handshake_suite_args,
		.cols = handshake_suite_cols,
		.miss_name = handshake_miss,
	},
};
