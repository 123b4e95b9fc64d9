// SPDX-License-Identifier: GPL-2.0-or-later
/* Matching trace events to timer samples; see trace_match.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_match.h"

const char *const tev_softirq_name[TEV_NSOFTIRQ] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

const char *const tm_comp_name[TM_NCOMP] = {
	"irq latency", "handler to wake-up", "wake-up to running",
	"return to user",
};
const char *const tm_comp_key[TM_NCOMP] = {
	"irq_latency", "handler_to_wakeup", "wakeup_to_running",
	"return_to_user",
};
const char *const tm_why_key[TM_NWHY] = {
	"traced", "no_expiry", "no_wakeup", "no_switch", "events_lost",
	"inconsistent", "queue_full",
};

int tmatch_init(struct tmatch *m, int n, const int *tids, const int *cpus,
		size_t sq_cap, size_t kq_cap, size_t hist_cap, int64_t tol,
		int64_t post, tm_done_fn done, void *ctx)
{
	int i;

	memset(m, 0, sizeof(*m));
	if (!sq_cap)
		sq_cap = 1;
	if (!kq_cap)
		kq_cap = 1;
	if (!hist_cap)
		hist_cap = 1;
	m->n = n;
	m->tol = tol;
	m->post = post;
	m->done = done;
	m->ctx = ctx;
	m->t_measure = INT64_MIN;
	m->s = calloc((size_t)n, sizeof(*m->s));
	m->hist = calloc(hist_cap, sizeof(*m->hist));
	m->hcap = hist_cap;
	if (!m->s || !m->hist)
		goto fail;
	for (i = 0; i < n; i++) {
		struct tm_sampler *s = &m->s[i];

		s->tid = tids[i];
		s->cpu = cpus ? cpus[i] : -1;
		s->kq = calloc(kq_cap, sizeof(*s->kq));
		s->sq = calloc(sq_cap, sizeof(*s->sq));
		if (!s->kq || !s->sq)
			goto fail;
		s->kcap = kq_cap;
		s->scap = sq_cap;
	}
	return 0;
fail:
	tmatch_free(m);
	return -ENOMEM;
}

void tmatch_free(struct tmatch *m)
{
	int i;

	for (i = 0; m->s && i < m->n; i++) {
		free(m->s[i].kq);
		free(m->s[i].sq);
	}
	free(m->s);
	free(m->hist);
	m->s = NULL;
	m->hist = NULL;
	m->n = 0;
}

void tmatch_set_measure(struct tmatch *m, int64_t t)
{
	m->t_measure = t;
}

static struct tm_krec *kq_at(struct tm_sampler *s, size_t i)
{
	return &s->kq[(s->khead + i) % s->kcap];
}

static struct tm_krec *kq_tail(struct tm_sampler *s)
{
	return s->kn ? kq_at(s, s->kn - 1) : NULL;
}

static void kq_pop(struct tm_sampler *s)
{
	s->khead = (s->khead + 1) % s->kcap;
	s->kn--;
}

/* A new record at the tail; a full queue drops its oldest. */
static struct tm_krec *kq_push(struct tmatch *m, struct tm_sampler *s)
{
	if (!s->kcap || !s->kq)
		return NULL;
	if (s->kn == s->kcap) {
		kq_pop(s);
		m->stray++;
	}
	s->kn++;
	return kq_at(s, s->kn - 1);
}

static struct tm_sample *sq_head(struct tm_sampler *s)
{
	return s->sn ? &s->sq[s->shead] : NULL;
}

static void sq_pop(struct tm_sampler *s)
{
	s->shead = (s->shead + 1) % s->scap;
	s->sn--;
}

enum tm_why tmatch_split(const struct tm_krec *k, const struct tm_sample *s,
			 int64_t tol, int64_t comp[TM_NCOMP])
{
	int64_t t_run;
	int i;

	if (!k->t_waking)
		return TM_NO_WAKEUP;
	if (!k->t_switch && k->t_sleep && k->waking_pid != 0)
		return TM_NO_SWITCH;
	/* woken before it had left the CPU: no switch, it runs on; or woken
	 * on the idle CPU with the switch out of idle not recorded */
	t_run = k->t_switch ? k->t_switch : k->t_waking;
	comp[TM_IRQ] = k->irq_now - s->deadline;
	comp[TM_HANDLER] = k->t_waking - k->irq_now;
	comp[TM_SCHED] = t_run - k->t_waking;
	comp[TM_RETURN] = s->now - t_run;
	for (i = 0; i < TM_NCOMP; i++)
		if (comp[i] < -tol)
			return TM_INCONSISTENT;
	return TM_TRACED;
}

/* Decide the oldest sample of sampler @i, with kernel record @k or none. */
static void decide(struct tmatch *m, int i, struct tm_krec *k,
		   enum tm_why forced)
{
	struct tm_sampler *s = &m->s[i];
	struct tm_result res;

	memset(&res, 0, sizeof(res));
	res.sampler = i;
	res.s = *sq_head(s);
	res.latency = res.s.now - res.s.deadline;
	if (forced != TM_TRACED) {
		res.why = forced;
	} else if (!k) {
		/* events lost since the previous sample explain the gap */
		res.why = s->lost_ts && s->lost_ts >= s->last_now ? TM_LOST :
			  TM_NO_EXPIRY;
	} else if (k->lost) {
		res.why = TM_LOST;
	} else {
		res.why = tmatch_split(k, &res.s, m->tol, res.comp);
		res.k = k;
	}
	s->why[res.why]++;
	s->last_now = res.s.now;
	sq_pop(s);
	if (m->done)
		m->done(m->ctx, &res);
}

/* Decide the samples of sampler @i whose events are all in (before @upto). */
static void settle(struct tmatch *m, int i, int64_t upto)
{
	struct tm_sampler *s = &m->s[i];
	const struct tm_sample *x;

	while ((x = sq_head(s))) {
		struct tm_krec *k;

		if (upto != INT64_MAX &&
		    (x->now > upto - m->post || x->now > s->seen - m->post))
			break;
		/* expiries no sample waited for (warm-up, interrupted wait) */
		while (s->kn && s->kq[s->khead].deadline < x->deadline) {
			kq_pop(s);
			m->stray++;
		}
		k = s->kn && s->kq[s->khead].deadline == x->deadline ?
		    &s->kq[s->khead] : NULL;
		decide(m, i, k, TM_TRACED);
		if (k)
			kq_pop(s);
	}
}

void tmatch_advance(struct tmatch *m, int64_t upto)
{
	int i;

	for (i = 0; i < m->n; i++)
		settle(m, i, upto);
}

void tmatch_sample(struct tmatch *m, int i, const struct tm_sample *x)
{
	struct tm_sampler *s = &m->s[i];

	if (s->sn == s->scap)
		decide(m, i, NULL, TM_OVERFLOW);
	s->sq[(s->shead + s->sn) % s->scap] = *x;
	s->sn++;
}

static int find_tid(const struct tmatch *m, int pid)
{
	int i;

	if (pid <= 0)
		return -1;
	for (i = 0; i < m->n; i++)
		if (m->s[i].tid == pid)
			return i;
	return -1;
}

static void learn_comm(struct tmatch *m, int pid, const char *comm)
{
	unsigned int i;

	if (pid <= 0 || !comm[0])
		return;
	for (i = 0; i < TM_COMMS; i++) {
		if (m->comms[i].pid == pid) {
			memcpy(m->comms[i].comm, comm, TEV_COMM_LEN);
			return;
		}
	}
	i = m->comm_next++ % TM_COMMS;
	m->comms[i].pid = pid;
	memcpy(m->comms[i].comm, comm, TEV_COMM_LEN);
	m->comms[i].comm[TEV_COMM_LEN - 1] = '\0';
}

const char *tmatch_comm(const struct tmatch *m, int pid)
{
	unsigned int i;

	for (i = 0; i < TM_COMMS; i++)
		if (m->comms[i].pid == pid && pid > 0)
			return m->comms[i].comm;
	return NULL;
}

static void on_start(struct tmatch *m, const struct tev *e)
{
	int i = find_tid(m, e->pid);
	struct tm_sampler *s;
	struct tm_krec *t;
	unsigned int j;

	if (i < 0)
		return;
	s = &m->s[i];
	/* the sampler runs: back in the kernel for its next wait */
	s->asleep = false;
	t = kq_tail(s);
	if (t)
		t->closed = true;
	for (j = 0; j < TM_MAX_ARMED; j++)
		if (s->armed[j].timer == e->u.start.timer)
			break;
	if (j == TM_MAX_ARMED)
		j = s->armed_next++ % TM_MAX_ARMED;
	s->armed[j].timer = e->u.start.timer;
	s->armed[j].soft = e->u.start.softexpires;
	s->armed[j].hard = e->u.start.expires;
	s->armed[j].t_armed = e->ts;
	s->armed[j].function = e->u.start.function;
}

static void on_expire(struct tmatch *m, const struct tev *e)
{
	int i;
	unsigned int j;

	for (i = 0; i < m->n; i++) {
		struct tm_sampler *s = &m->s[i];
		struct tm_krec *k, *t;

		for (j = 0; j < TM_MAX_ARMED; j++)
			if (s->armed[j].timer == e->u.expire.timer &&
			    s->armed[j].timer)
				break;
		if (j == TM_MAX_ARMED)
			continue;
		t = kq_tail(s);
		if (t)
			t->closed = true;
		k = s->armed[j].soft >= m->t_measure ? kq_push(m, s) : NULL;
		if (k) {
			memset(k, 0, sizeof(*k));
			k->deadline = s->armed[j].soft;
			k->hard = s->armed[j].hard;
			k->t_armed = s->armed[j].t_armed;
			k->function = s->armed[j].function;
			k->irq_now = e->u.expire.now;
			k->t_expire = e->ts;
			k->cpu = e->cpu;
			k->expire_pid = e->pid;
			k->expire_flags = e->flags;
			k->t_sleep = s->asleep ? s->t_sleep : 0;
		}
		memset(&s->armed[j], 0, sizeof(s->armed[j]));
		return;
	}
}

/* The open record of sampler @i: the last one, if the sampler has not
 * armed its next timer since. */
static struct tm_krec *open_rec(struct tmatch *m, int i)
{
	struct tm_krec *t = kq_tail(&m->s[i]);

	return t && !t->closed ? t : NULL;
}

static void on_waking(struct tmatch *m, const struct tev *e)
{
	int i = find_tid(m, e->u.waking.pid);
	struct tm_krec *k;

	learn_comm(m, e->u.waking.pid, e->u.waking.comm);
	if (i < 0)
		return;
	k = open_rec(m, i);
	if (k && !k->t_waking && e->ts >= k->t_expire) {
		k->t_waking = e->ts;
		k->waking_pid = e->pid;
	}
}

static void on_switch(struct tmatch *m, const struct tev *e)
{
	int i = find_tid(m, e->u.sw.prev_pid);
	struct tm_krec *k;

	learn_comm(m, e->u.sw.prev_pid, e->u.sw.prev_comm);
	learn_comm(m, e->u.sw.next_pid, e->u.sw.next_comm);
	if (i >= 0) {
		/* the sampler leaves the CPU */
		m->s[i].t_sleep = e->ts;
		m->s[i].asleep = true;
		k = open_rec(m, i);
		if (k && k->t_switch) {
			/* switched out after it ran: preempted (or blocked)
			 * on its way back; the first task it gave way to */
			if (!k->preempted++) {
				k->preempt_pid = e->u.sw.next_pid;
				k->preempt_prio = e->u.sw.next_prio;
				memcpy(k->preempt_comm, e->u.sw.next_comm,
				       TEV_COMM_LEN);
				k->preempt_comm[TEV_COMM_LEN - 1] = '\0';
			}
			k->t_out = e->ts;
		}
	}
	i = find_tid(m, e->u.sw.next_pid);
	if (i < 0)
		return;
	m->s[i].asleep = false;
	k = open_rec(m, i);
	if (k && k->t_switch && k->t_out) {
		k->preempted_ns += e->ts - k->t_out;
		k->t_out = 0;
	}
	if (!k || !k->t_waking || k->t_switch)
		return;
	k->t_switch = e->ts;
	k->switch_cpu = e->cpu;
	k->prev_pid = e->u.sw.prev_pid;
	k->prev_prio = e->u.sw.prev_prio;
	k->prev_state = e->u.sw.prev_state;
	memcpy(k->prev_comm, e->u.sw.prev_comm, TEV_COMM_LEN);
	k->prev_comm[TEV_COMM_LEN - 1] = '\0';
}

static void on_lost(struct tmatch *m, const struct tev *e)
{
	int i;

	m->lost += e->u.lost.count > 0 ? (uint64_t)e->u.lost.count : 1;
	for (i = 0; i < m->n; i++) {
		struct tm_sampler *s = &m->s[i];
		struct tm_krec *k;

		if (s->cpu >= 0 && s->cpu != e->cpu)
			continue;
		s->lost_ts = e->ts;
		k = open_rec(m, i);
		if (k)
			k->lost = true;
	}
}

void tmatch_event(struct tmatch *m, const struct tev *e)
{
	int i;

	m->events++;
	for (i = 0; i < m->n; i++)
		if ((m->s[i].cpu < 0 || m->s[i].cpu == e->cpu) &&
		    e->ts > m->s[i].seen)
			m->s[i].seen = e->ts;
	m->hist[(m->hhead + m->hn) % m->hcap] = *e;
	if (m->hn < m->hcap)
		m->hn++;
	else
		m->hhead = (m->hhead + 1) % m->hcap;
	switch (e->type) {
	case TEV_TIMER_START:
		on_start(m, e);
		break;
	case TEV_TIMER_EXPIRE:
		on_expire(m, e);
		break;
	case TEV_WAKING:
		on_waking(m, e);
		break;
	case TEV_SWITCH:
		on_switch(m, e);
		break;
	case TEV_LOST:
		on_lost(m, e);
		break;
	default:
		break;
	}
	for (i = 0; i < m->n; i++)
		settle(m, i, e->ts);
}

size_t tmatch_history(const struct tmatch *m, int64_t from, int64_t to,
		      void (*fn)(void *ctx, const struct tev *e), void *ctx)
{
	size_t i, first, n = 0;

	/* the history is in time order and the window near its end: find
	 * the first event of the window from the newest backwards */
	for (first = m->hn; first > 0; first--)
		if (m->hist[(m->hhead + first - 1) % m->hcap].ts < from)
			break;
	for (i = first; i < m->hn; i++) {
		const struct tev *e = &m->hist[(m->hhead + i) % m->hcap];

		if (e->ts > to)
			break;
		fn(ctx, e);
		n++;
	}
	return n;
}
