// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat switch: how late a real-time task is woken by another one, the
 * measurement of Xenomai's switch test. A periodic event thread at
 * priority P stamps each event, puts it in the worker's mailbox and wakes
 * the worker (priority P-1) through the chosen IPC mechanism; the worker's
 * latency is its wake-up time - the event's timestamp.
 *
 * Each wake-up gives one sample: the latency of the oldest event not yet
 * accounted that was posted before the wake-up. Events posted meanwhile
 * were missed by more than a period: the worker sees a gap in the sequence
 * and counts them as lost, so samples + lost == events posted in the
 * measurement. Events posted after the wake-up (the event thread preempted
 * the worker between its wait and its mailbox read) belong to the next
 * wake-up: a latency is never taken from an event later than the wake-up
 * (ipc_event_wake()). Events of the warm-up are ignored.
 */
#include <stdio.h>
#include <string.h>

#include "engine/test.h"
#include "measure/lib/ipc_test.h"
#include "util/log.h"
#include "output/output.h"
#include "util/timeutil.h"

static const char switch_miss[] = "lost";	/* events the worker missed */

static const struct series_desc switch_series = {
	.name = "latency", .miss_name = switch_miss, .threshold = true,
};
static const struct series_desc *const switch_descs[] = { &switch_series };

/* The partner: one event per period into the worker's mailbox. */
static int switch_event(struct ipc_test *t, char *err, size_t len)
{
	struct ipc_ctl *c = t->ctl;
	enum wait_backend b = (enum wait_backend)c->wait;
	struct ipc_msg m = { 0 };
	struct waiter w;
	struct wake wk;
	bool measuring = false;
	int e;

	e = waiter_init(&w, b, c->clock, c->period, c->t0, t->stop_flag,
			engine_stop_signal());
	if (e) {
		snprintf(err, len, "event thread: cannot set up the %s wait: %s",
			 wait_backend_name(b), strerror(-e));
		waiter_destroy(&w);
		return e;
	}
	while (!ipc_test_partner_stopping(t)) {
		e = waiter_wait(&w, &wk);
		if (e == WAIT_INTERRUPTED) {
			e = 0;
			continue;
		}
		if (e < 0) {
			snprintf(err, len, "event thread: %s wait failed: %s",
				 wait_backend_name(b), waiter_error(&w, e));
			break;
		}
		if (wk.deadline >= c->t_end)
			break;
		c->overruns += wake_missed_inside(&wk, c->period, c->t_measure,
						  c->t_end);
		m.seq++;
		if (wk.deadline >= c->t_measure) {
			if (!measuring) {
				/* published before the event itself */
				atomic_store_explicit(&c->first_seq, m.seq,
						      memory_order_relaxed);
				atomic_store_explicit(&c->first_known, 1,
						      memory_order_release);
				measuring = true;
			}
			c->events++;
			c->last_seq = m.seq;
		}
		m.b = wk.deadline;
		m.a = clock_now_ns(c->clock);
		mbox_put(&c->box[0], &m);
		e = ipc_post(&t->ipc, 0);
		if (e) {
			snprintf(err, len, "event thread: %s post failed: %s",
				 t->ipc.ops->name, strerror(-e));
			break;
		}
	}
	waiter_destroy(&w);
	return e;
}

/* Side 0: the worker. */
static int switch_measure(struct sampler *s, struct ipc_test *t)
{
	struct run *r = s->run;
	struct ipc_ctl *c = t->ctl;
	struct ipc_mbox *box = &c->box[0];
	clockid_t clk = r->o->clock;
	struct seqtrack tr = { 0 };
	struct ipc_msg m;
	uint32_t head, lost;
	int64_t now, t_last = r->t_measure;
	bool done = false, have;
	int e;

	while (!done && !sampler_stopping(s)) {
		e = ipc_wait(&t->ipc, 0);
		/* the wake-up time first, the mailbox after: events posted
		 * in between are not this wake-up's (ipc_event_wake()) */
		now = clock_now_ns(clk);
		if (e < 0) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "worker: %s wait failed: %s", t->ipc.ops->name,
				 strerror(-e));
			return e;
		}
		done = atomic_load_explicit(&c->done, memory_order_acquire);
		if (e == IPC_INTERRUPTED && !done) {
			if (ipc_test_past_end(t, now))
				break;	/* the event thread is stuck */
			continue;
		}
		head = mbox_head(box);
		if (!atomic_load_explicit(&c->first_known, memory_order_acquire))
			continue;	/* warm-up */
		if (!ipc_event_wake(&tr, box,
				    atomic_load_explicit(&c->first_seq,
							 memory_order_relaxed),
				    head, now, &m, &have, &lost))
			continue;	/* nothing new */
		if (have) {
			t_last = m.b;
			sampler_add(s, 0, now - m.a, m.b);
		} else {
			lost++;
		}
		sampler_overrun(s, 0, lost, t_last);
	}
	e = ipc_test_await_partner(s, t);
	if (e)
		return e;
	if (atomic_load(&c->first_known)) {
		lost = seqtrack_end(&tr, atomic_load(&c->first_seq), c->last_seq);
		sampler_overrun(s, 0, lost, t_last);
	}
	return 0;
}

static const struct xeno_col switch_cols[] = {
	{ "lat min", 0, XENO_MIN },
	{ "lat avg", 0, XENO_AVG },
	{ "lat max", 0, XENO_MAX },
	{ "lost", 0, XENO_MISSED },
	{ "lat best", 0, XENO_BEST },
	{ "lat worst", 0, XENO_WORST },
};

/* The IPC, the partner, the events posted and the periods the event
 * thread missed (no event posted): test_data, the summary line and, for
 * the suite's report, the headline; the missed periods are not in the lost
 * count (events the worker missed). */
static void switch_figures(struct run *r, struct test_figs *f)
{
	const struct ipc_test *t = r->priv;

	if (!t || !t->ctl)
		return;
	ipc_test_figures(t, f);
	fig_num(f, "events", "%llu", (unsigned long long)t->ctl->events);
	fig_headline(f);
	fig_num(f, "event_missed_periods", "%llu",
		(unsigned long long)t->ctl->overruns);
	fig_headline(f);
}

static const struct test_line switch_lines[] = {
	IPC_TEST_LINE,
	{ LINE_SUMMARY, NULL,
	  "Events: {events} in the measurement = {series.latency.samples} samples + {series.latency.misses} lost; event thread missed {event_missed_periods} periods" },
	{ 0, NULL, NULL },
};

static const struct output_ops switch_output = {
	.start = xeno_banner,
	.interval = xeno_interval,
	.summary = xeno_summary_all,
	.cols = switch_cols,
	.ncols = (int)(sizeof(switch_cols) / sizeof(switch_cols[0])),
};

static int switch_setup(struct run *r)
{
	struct ipc_test *t = r->priv;

	if (r->o->policy != SCHED_OTHER && r->o->prio < 2) {
		log_error("invalid value '%d' for -P/--priority: switch needs 2..99 (the worker runs at PRIO-1)",
			  r->o->prio);
		return -1;
	}
	t->measure = switch_measure;
	t->partner = switch_event;
	t->role[0] = "worker";
	t->role[1] = "event thread";
	t->partner_cpu_index = 0;
	t->prio[0] = r->o->prio - 1;
	t->prio[1] = r->o->prio;
	return ipc_test_setup(r, t, 1, switch_descs);
}


static const char switch_about[] =
	"Measure how late a real-time task is woken by another: a periodic\n"
	"event thread (priority PRIO) stamps an event and wakes a worker\n"
	"(PRIO-1) through an IPC mechanism; latency = the worker's wake-up -\n"
	"the event's timestamp. An event the worker missed (it was more\n"
	"than a period late) is counted as lost: samples + lost = events.\n"
	"-c takes one CPU (both threads, the default: the first usable\n"
	"CPU) or two (event thread, then worker). Output follows Xenomai's\n"
	"switch test (RTD lines 'lat min|avg|max|lost', RTS summary), in\n"
	"microseconds.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.";

/* -c and -P as they apply to the two threads */
static const struct opt_help switch_help[] = {
	{ 'c', "one CPU (event thread and worker on it) or two: the event\n"
	       "thread on the first, the worker on the second (default: both\n"
	       "on the first CPU rtlat may use)" },
	{ 'P', "real-time priority of the event thread; the worker runs at\n"
	       "PRIO-1 (default 99; 2..99 for fifo and rr)" },
	{ 0, NULL },
};

static void switch_init(void *priv, struct engine_opts *o, int argc,
			char **argv)
{
	struct ipc_test *t = priv;

	ipc_test_cfg_init(&t->cfg);
}

static int switch_opt(void *priv, struct engine_opts *o,
		      const struct optdesc *d, const char *arg)
{
	struct ipc_test *t = priv;

	return ipc_test_opt(&t->cfg, d, arg);
}

static const struct optdesc *const switch_opts[] = {
	ipc_test_opts, engine_timer_opts, engine_common_opts, NULL,
};

const struct test_desc switch_test = {
	.name = "switch",
	.mode = "periodic event thread wakes a worker",
	.summary = "wake-up latency of a task woken by another (Xenomai switch)",
	.about = switch_about,
	.period_ns = 100 * NSEC_PER_USEC,
	.prio = 99,
	.opts = switch_opts,
	.help = switch_help,
	.priv_size = sizeof(struct ipc_test),
	.init = switch_init,
	.opt = switch_opt,
	.setup = switch_setup,
	.body = ipc_test_body,
	.teardown = ipc_test_teardown,
	.msw_tids = ipc_test_msw_tids,
	.figures = switch_figures,
	.lines = switch_lines,
	.out = &switch_output,
	/* lat min | lat avg | lat max | lost | p99.9 | test-time */
	.suite = &(const struct suite_spec){
		.title = "SWITCH",
		.miss_name = switch_miss,
	},
};
