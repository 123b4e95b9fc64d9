// SPDX-License-Identifier: GPL-2.0-or-later
/* --trace for the gaps of a busy loop (noise); see trace_gap.h. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/log.h"
#include "util/timeutil.h"
#include "trace/trace_gap.h"
#include "trace/trace_source.h"

#define RING_CAP	65536		/* recent events kept per CPU (5 MiB): every
				 * switch of a busy CPU, 100 ms and more */
#define QUEUE_CAP	4096		/* undecided gaps per CPU */
#define MAX_WHO		16		/* tasks, irqs, softirqs named per CPU */
#define LIST_CAP	10000		/* gaps listed with their cause */
#define BUFFER_KB	4096		/* per traced CPU */
#define QUIET_NS	NSEC_PER_SEC	/* see settle() */

static const char *const cause_key[GC_N] = {
	"task", "softirq", "irq", "none", "lost",
};
static const char *const cause_label[GC_N] = {
	"task", "softirq", "irq", "nothing traced (hardware/firmware)",
	"events lost",
};

struct tally {
	struct gap_who w;
	uint64_t gaps;
	int64_t ns;
};

struct gap_cpu {
	int cpu, tid;
	struct tev *ring;		/* the CPU's events, time order */
	size_t rhead, rn;
	int64_t seen;			/* newest event of the CPU */
	int64_t lost_from, lost_to;	/* the last loss of events */
	struct rawrec *q;		/* gaps not decided yet */
	size_t qhead, qn;
	uint64_t gaps[GC_N];
	int64_t ns[GC_N];
	int64_t max_ns[GC_N];	/* the largest gap of each cause */
	struct tally who[MAX_WHO];
	int nwho;
	uint64_t other_gaps;		/* named beyond MAX_WHO */
	int64_t other_ns;
	uint64_t dropped;		/* queue full: not decided */
	uint64_t assumed;		/* gaps with a switch assumed */
	struct rawrec max;		/* the largest gap decided */
	struct gap_who max_who;
	bool any;
};

struct gap_item {
	int cpu;
	int64_t start, len;
	struct gap_who w;
	struct gap_task top[GAP_TOP];
};

struct trace_gap {
	struct run *r;
	struct tsrc *src;
	int n;
	struct gap_cpu *c;
	struct gap_item *list;
	size_t nlist;
	uint64_t unlisted;
	char desc[256];
};

void trace_gap_stop(struct trace_gap *g)
{
	int i;

	if (!g)
		return;
	tsrc_close(g->src);
	for (i = 0; g->c && i < g->n; i++) {
		free(g->c[i].ring);
		free(g->c[i].q);
	}
	free(g->c);
	free(g->list);
	free(g);
}

int trace_gap_start(struct run *r, struct trace_gap **out, char *err,
		    size_t len)
{
	struct trace_gap *g = calloc(1, sizeof(*g));
	struct tsrc_cfg cfg;
	int i;

	if (!g)
		goto nomem;
	g->r = r;
	g->n = r->nsamplers;
	g->c = calloc((size_t)g->n, sizeof(*g->c));
	g->list = calloc(LIST_CAP, sizeof(*g->list));
	if (!g->c || !g->list)
		goto nomem;
	for (i = 0; i < g->n; i++) {
		struct gap_cpu *c = &g->c[i];

		c->cpu = r->s[i].cpu;
		c->tid = r->s[i].tid;
		c->ring = calloc(RING_CAP, sizeof(*c->ring));
		c->q = calloc(QUEUE_CAP, sizeof(*c->q));
		if (!c->ring || !c->q)
			goto nomem;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.buffer_kb = BUFFER_KB;
	cfg.switches_by_cpu = true;
	if (tsrc_open_samplers(&g->src, r, &cfg, err, len) < 0)
		goto fail;
	snprintf(g->desc, sizeof(g->desc),
		 "kernel trace events (sched, irq) in tracefs instance %s, trace clock mono: what ran in each gap",
		 tsrc_instance(g->src));
	*out = g;
	return 0;
nomem:
	snprintf(err, len, "out of memory");
fail:
	trace_gap_stop(g);
	return -1;
}

void trace_gap_sample(struct trace_gap *g, int i, const struct rawrec *rec)
{
	struct gap_cpu *c;

	if (!g || i < 0 || i >= g->n || rec->series != 0)
		return;
	c = &g->c[i];
	if (c->qn == QUEUE_CAP) {
		c->dropped++;
		return;
	}
	c->q[(c->qhead + c->qn++) % QUEUE_CAP] = *rec;
}

static struct gap_cpu *cpu_of(struct trace_gap *g, int cpu)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (g->c[i].cpu == cpu)
			return &g->c[i];
	return NULL;
}

static void deliver(void *ctx, const struct tev *e)
{
	struct trace_gap *g = ctx;
	struct gap_cpu *c = cpu_of(g, e->cpu);
	int i;

	if (!c) {
		if (e->type != TEV_LOST)
			return;
		for (i = 0; i < g->n; i++)	/* unknown CPU: all of them */
			if (g->c[i].cpu < 0)
				c = &g->c[i];
		if (!c)
			return;
	}
	switch (e->type) {
	case TEV_LOST:
		c->lost_from = c->seen;
		c->lost_to = e->ts;
		return;
	case TEV_SWITCH:
	case TEV_IRQ:
	case TEV_SOFTIRQ:
	case TEV_LOCAL_TIMER:
	case TEV_TIMER_EXPIRE:
		break;
	default:
		return;
	}
	c->ring[(c->rhead + c->rn) % RING_CAP] = *e;
	if (c->rn < RING_CAP)
		c->rn++;
	else
		c->rhead = (c->rhead + 1) % RING_CAP;
	if (e->ts > c->seen)
		c->seen = e->ts;
}

/* Time each task had the CPU in a gap (trace_gap_cause()). */
#define GAP_TASKS 16
struct task_time {
	int pid;
	char name[TEV_COMM_LEN];	/* "" until a switch names it */
	int64_t ns;
};

/* The task @pid's entry in @tt (added, named @comm if not named yet), or
 * NULL beyond GAP_TASKS. */
static struct task_time *task_of(struct task_time *tt, int *n, int pid,
				 const char *comm)
{
	int i;

	for (i = 0; i < *n; i++)
		if (tt[i].pid == pid)
			break;
	if (i == *n) {
		if (*n == GAP_TASKS)
			return NULL;		/* beyond: not named */
		memset(&tt[i], 0, sizeof(tt[i]));
		tt[i].pid = pid;
		(*n)++;
	}
	if (comm && comm[0] && !tt[i].name[0]) {
		memcpy(tt[i].name, comm, TEV_COMM_LEN);
		tt[i].name[TEV_COMM_LEN - 1] = '\0';
	}
	return &tt[i];
}

/* @pid had the CPU for @ns (the sampler @tid's own time is not a task's). */
static void task_add(struct task_time *tt, int *n, int tid, int pid,
		     int64_t ns)
{
	struct task_time *t;

	if (pid == tid || ns <= 0)
		return;
	t = task_of(tt, n, pid, NULL);
	if (t)
		t->ns += ns;
}

void trace_gap_cause(const struct tev *ev, size_t cap, size_t head, size_t n,
		     bool full, int tid, int64_t a, int64_t b,
		     struct gap_who *w, struct gap_task top[GAP_TOP])
{
	const struct tev *first_irq = NULL, *first_soft = NULL;
	struct task_time tt[GAP_TASKS];
	/* the task on the CPU (the sampler at a), since when it is credited,
	 * and its last event */
	int on = tid;
	int64_t since = a, last = a;
	int i, ntt = 0, best = -1;
	size_t k;

	memset(w, 0, sizeof(*w));
	memset(top, 0, GAP_TOP * sizeof(*top));
	w->id = -1;
	/* the ring no longer reaches back to the gap's start */
	if (full && n && ev[head % cap].ts > a) {
		w->cause = GC_LOST;
		return;
	}
	for (k = 0; k < n; k++) {
		const struct tev *e = &ev[(head + k) % cap];
		/* every event shows the task on the CPU: the one switched
		 * out, or the one an interrupt came in */
		int cur = e->type == TEV_SWITCH ? e->u.sw.prev_pid : e->pid;

		if (e->ts < a)
			continue;
		if (e->ts > b)
			break;
		if (cur != on) {
			/* a switch the kernel did not record (some kernels
			 * never record the switch out of idle): taken at
			 * the last event of the task that was on */
			task_add(tt, &ntt, tid, on, last - since);
			on = cur;
			since = last;
			w->switch_assumed = true;
		}
		last = e->ts;
		if (e->type == TEV_SWITCH) {
			task_add(tt, &ntt, tid, on, e->ts - since);
			if (on != tid)	/* named by its switch out */
				task_of(tt, &ntt, on, e->u.sw.prev_comm);
			on = e->u.sw.next_pid;
			since = e->ts;
			if (on != tid)
				task_of(tt, &ntt, on, e->u.sw.next_comm);
		}
		if (e->type == TEV_SOFTIRQ && !first_soft)
			first_soft = e;
		if ((e->type == TEV_IRQ || e->type == TEV_LOCAL_TIMER ||
		     e->type == TEV_TIMER_EXPIRE) && !first_irq)
			first_irq = e;
	}
	task_add(tt, &ntt, tid, on, b - since);	/* still on at the end */
	for (i = 0; i < ntt; i++)
		if (tt[i].ns > 0 && (best < 0 || tt[i].ns > tt[best].ns))
			best = i;
	for (i = 0; i < ntt; i++) {	/* the longest GAP_TOP, in order */
		int j = GAP_TOP;

		while (j > 0 && tt[i].ns > top[j - 1].ns)
			j--;
		if (j == GAP_TOP)
			continue;
		memmove(&top[j + 1], &top[j],
			(GAP_TOP - 1 - (size_t)j) * sizeof(*top));
		top[j].pid = tt[i].pid;
		memcpy(top[j].name, tt[i].name, TEV_COMM_LEN);
		top[j].name[TEV_COMM_LEN - 1] = '\0';
		top[j].ns = tt[i].ns;
	}
	if (best >= 0) {	/* the task that had the CPU longest in all */
		w->cause = GC_TASK;
		w->id = tt[best].pid;
		memcpy(w->name, tt[best].name, TEV_COMM_LEN);
		w->name[TEV_COMM_LEN - 1] = '\0';
	} else if (first_soft) {
		w->cause = GC_SOFTIRQ;
		w->id = (int)first_soft->u.softirq.vec;
		snprintf(w->name, sizeof(w->name), "%s",
			 w->id < TEV_NSOFTIRQ ? tev_softirq_name[w->id] : "?");
	} else if (first_irq) {
		w->cause = GC_IRQ;
		if (first_irq->type == TEV_IRQ) {
			w->id = first_irq->u.irq.irq;
			snprintf(w->name, sizeof(w->name), "%.*s", TEV_NAME_LEN,
				 first_irq->u.irq.name);
		} else {
			snprintf(w->name, sizeof(w->name), "%s",
				 first_irq->type == TEV_LOCAL_TIMER ?
				 "local_timer" : "hrtimer");
		}
	} else {
		w->cause = GC_NONE;
	}
}

/* The cause of gap [@a, @b] of @c: lost when events were lost around it. */
static void decide(const struct gap_cpu *c, int64_t a, int64_t b,
		   struct gap_who *w, struct gap_task top[GAP_TOP])
{
	if (c->lost_to && c->lost_to >= a && c->lost_from <= b) {
		memset(w, 0, sizeof(*w));
		memset(top, 0, GAP_TOP * sizeof(*top));
		w->id = -1;
		w->cause = GC_LOST;
		return;
	}
	trace_gap_cause(c->ring, RING_CAP, c->rhead, c->rn, c->rn == RING_CAP,
			c->tid, a, b, w, top);
}

static void tally(struct gap_cpu *c, const struct gap_who *w, int64_t len)
{
	int i;

	c->gaps[w->cause]++;
	c->ns[w->cause] += len;
	if (len > c->max_ns[w->cause])
		c->max_ns[w->cause] = len;
	c->assumed += w->switch_assumed;
	if (w->cause == GC_NONE || w->cause == GC_LOST)
		return;
	for (i = 0; i < c->nwho; i++)
		if (c->who[i].w.cause == w->cause && c->who[i].w.id == w->id &&
		    !strcmp(c->who[i].w.name, w->name))
			break;
	if (i == c->nwho) {
		if (c->nwho == MAX_WHO) {
			c->other_gaps++;
			c->other_ns += len;
			return;
		}
		c->who[c->nwho++].w = *w;
	}
	c->who[i].gaps++;
	c->who[i].ns += len;
}

/*
 * Decide the gaps of @c whose events are all in: those that end before
 * @upto (INT64_MAX: all of them) and before an event of @c already seen.
 * Each CPU's events come in order, but a CPU can lag behind the time read
 * (a virtual CPU stopped by its host between reserving and committing an
 * event), so @upto alone proves nothing for @c. A CPU with no event for
 * QUIET_NS after a gap (an isolated CPU without its tick) is taken to
 * have none left for it.
 */
static void settle(struct trace_gap *g, struct gap_cpu *c, int64_t upto)
{
	while (c->qn) {
		const struct rawrec *q = &c->q[c->qhead];
		int64_t end = q->t + q->value;
		struct gap_task top[GAP_TOP];
		struct gap_who w;

		if (upto != INT64_MAX &&
		    (end >= upto || (end >= c->seen && end >= upto - QUIET_NS)))
			return;
		decide(c, q->t, end, &w, top);
		tally(c, &w, q->value);
		if (!c->any || q->value > c->max.value) {
			c->any = true;
			c->max = *q;
			c->max_who = w;
		}
		if (g->nlist < LIST_CAP) {
			struct gap_item *it = &g->list[g->nlist++];

			it->cpu = c->cpu;
			it->start = q->t;
			it->len = q->value;
			it->w = w;
			memcpy(it->top, top, sizeof(top));
		} else {
			g->unlisted++;
		}
		c->qhead = (c->qhead + 1) % QUEUE_CAP;
		c->qn--;
	}
}

void trace_gap_poll(struct trace_gap *g, struct run *r, bool final)
{
	int64_t upto;
	int i;

	if (!g)
		return;
	if (tsrc_fill(g->src, final, &upto) < 0)
		return;
	/* every gap accounted before the events were read is queued */
	engine_drain_raw(r);
	tsrc_deliver(g->src, upto, deliver, g);
	for (i = 0; i < g->n; i++)
		settle(g, &g->c[i], final ? INT64_MAX : upto);
}

/* "task python3[1234]", "irq 11 virtio0", "softirq TIMER", "none". */
static const char *who_str(const struct gap_who *w, char *buf, size_t len)
{
	switch (w->cause) {
	case GC_TASK:
		snprintf(buf, len, "task %s[%d]", w->name[0] ? w->name : "?",
			 w->id);
		break;
	case GC_IRQ:
		if (w->id >= 0)
			snprintf(buf, len, "irq %d %s", w->id, w->name);
		else
			snprintf(buf, len, "irq %s", w->name);
		break;
	case GC_SOFTIRQ:
		snprintf(buf, len, "softirq %s", w->name);
		break;
	default:
		snprintf(buf, len, "%s", cause_label[w->cause]);
		break;
	}
	return buf;
}

void trace_gap_summary(const struct trace_gap *g, const struct run *r)
{
	char a[32], b[64];
	int i, j;

	(void)r;
	if (!g)
		return;
	printf("== Trace: %s\n", g->desc);
	for (i = 0; i < g->n; i++) {
		const struct gap_cpu *c = &g->c[i];

		printf("== Trace CPU %d: gaps by cause:", c->cpu);
		for (j = 0; j < GC_N; j++)
			printf("%s %s %llu (%s us)", j ? "," : "", cause_label[j],
			       (unsigned long long)c->gaps[j],
			       fmt_us3(a, c->ns[j]));
		if (c->dropped)
			printf(", not decided (queue full) %llu",
			       (unsigned long long)c->dropped);
		printf("\n");
		if (c->nwho) {
			printf("== Trace CPU %d: who:", c->cpu);
			for (j = 0; j < c->nwho; j++)
				printf("%s %s %llu (%s us)", j ? "," : "",
				       who_str(&c->who[j].w, b, sizeof(b)),
				       (unsigned long long)c->who[j].gaps,
				       fmt_us3(a, c->who[j].ns));
			if (c->other_gaps)
				printf(", others %llu (%s us)",
				       (unsigned long long)c->other_gaps,
				       fmt_us3(a, c->other_ns));
			printf("\n");
		}
		if (c->any)
			printf("== Trace CPU %d: largest gap %s us: %s\n", c->cpu,
			       fmt_us3(a, c->max.value),
			       who_str(&c->max_who, b, sizeof(b)));
		/* the figure to set beside a hardware-latency detector's
		 * maximum (the hwlat tracer's, hwlatdetect's): the gaps it
		 * would see, with the interrupts off, are the untraced ones */
		if (c->gaps[GC_NONE])
			printf("== Trace CPU %d: largest gap %s: %s us\n",
			       c->cpu, cause_label[GC_NONE],
			       fmt_us3(a, c->max_ns[GC_NONE]));
		if (c->assumed)
			printf("# trace: CPU %d: in %llu gaps the kernel did not record a switch (some kernels never record the switch out of idle): it is taken at the last event of the task that was on, the time after it counts for the next one\n",
			       c->cpu, (unsigned long long)c->assumed);
	}
}

static void who_json(struct jw *w, const struct gap_who *x)
{
	jw_str(w, "cause", cause_key[x->cause]);
	if (x->id >= 0)
		jw_int(w, "id", x->id);
	else
		jw_null(w, "id");
	if (x->name[0])
		jw_str(w, "name", x->name);
	else
		jw_null(w, "name");
}

void trace_gap_json(const struct trace_gap *g, const struct run *r,
		    struct jw *w)
{
	size_t k;
	int i, j;

	if (!g) {
		jw_null(w, "trace");
		return;
	}
	jw_obj_begin(w, "trace");
	jw_str(w, "method", "gaps");
	jw_str(w, "instance", tsrc_instance(g->src));
	jw_str(w, "trace_clock", "mono");
	jw_uint(w, "events_read", tsrc_events(g->src));
	jw_arr_begin(w, "cpus");
	for (i = 0; i < g->n; i++) {
		const struct gap_cpu *c = &g->c[i];

		jw_obj_begin(w, NULL);
		jw_int(w, "cpu", c->cpu);
		jw_obj_begin(w, "causes");
		for (j = 0; j < GC_N; j++) {
			jw_obj_begin_inline(w, cause_key[j]);
			jw_uint(w, "gaps", c->gaps[j]);
			jw_int(w, "ns", c->ns[j]);
			if (c->gaps[j])
				jw_int(w, "max_ns", c->max_ns[j]);
			else
				jw_null(w, "max_ns");
			jw_obj_end(w);
		}
		jw_obj_end(w);
		jw_uint(w, "not_decided", c->dropped);
		jw_uint(w, "switch_assumed_gaps", c->assumed);
		jw_arr_begin(w, "who");
		for (j = 0; j < c->nwho; j++) {
			jw_obj_begin_inline(w, NULL);
			who_json(w, &c->who[j].w);
			jw_uint(w, "gaps", c->who[j].gaps);
			jw_int(w, "ns", c->who[j].ns);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		jw_uint(w, "others_gaps", c->other_gaps);
		jw_int(w, "others_ns", c->other_ns);
		if (c->any) {
			jw_obj_begin(w, "largest");
			jw_int(w, "start_ns", c->max.t - r->t_measure);
			jw_int(w, "length_ns", c->max.value);
			who_json(w, &c->max_who);
			jw_obj_end(w);
		} else {
			jw_null(w, "largest");
		}
		jw_obj_end(w);
	}
	jw_arr_end(w);
	/* the first gaps decided, in order per CPU: start since the
	 * measurement start and length in ns, with their cause */
	jw_arr_begin(w, "gaps");
	for (k = 0; k < g->nlist; k++) {
		const struct gap_item *it = &g->list[k];

		jw_obj_begin_inline(w, NULL);
		jw_int(w, "cpu", it->cpu);
		jw_int(w, "start_ns", it->start - r->t_measure);
		jw_int(w, "length_ns", it->len);
		who_json(w, &it->w);
		jw_bool(w, "switch_assumed", it->w.switch_assumed);
		/* the tasks that ran in it, the longest first */
		jw_arr_begin_inline(w, "tasks");
		for (j = 0; j < GAP_TOP && it->top[j].ns; j++) {
			jw_obj_begin_inline(w, NULL);
			jw_int(w, "pid", it->top[j].pid);
			if (it->top[j].name[0])
				jw_str(w, "name", it->top[j].name);
			else
				jw_null(w, "name");
			jw_int(w, "ns", it->top[j].ns);
			jw_obj_end(w);
		}
		jw_arr_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_uint(w, "gaps_not_listed", g->unlisted);
	jw_obj_end(w);
}
