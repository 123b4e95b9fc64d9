// SPDX-License-Identifier: GPL-2.0-or-later
/* --trace for the events of irq: each split at the kernel's events; see
 * trace_irq.h. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "util/log.h"
#include "util/stats.h"
#include "util/timeutil.h"
#include "trace/trace_irq.h"
#include "trace/trace_source.h"

#define RING_CAP	65536		/* recent events kept */
#define QUEUE_CAP	16384		/* spans not split yet */
#define LIST_CAP	10000		/* events listed in the result */
#define BUFFER_KB	4096		/* per traced CPU */

/* The parts, in this order everywhere (output, JSON). */
enum { P_IRQ, P_WAKE, P_STIM_WAKE, P_SCHED, P_RETURN, P_TASK, P_TOTAL, P_N };
static const char *const part_label[P_N] = {
	"stimulus to irq", "irq to wake-up", "stimulus to wake-up",
	"wake-up to running", "return to user", "irq to task",
	"traced latency",
};
static const char *const part_key[P_N] = {
	"stimulus_to_irq", "irq_to_wakeup", "stimulus_to_wakeup",
	"wakeup_to_running", "return_to_user", "irq_to_task",
	"traced_latency",
};

struct ti_item {
	int64_t t0, t2;
	struct ti_split sp;
};

struct trace_irq {
	struct tsrc *src;
	int irq, sampler, tid;
	bool first;			/* t1: the first interrupt, not the last */
	struct tev *ring;
	size_t rhead, rn;
	int64_t lost_from, lost_to, seen;
	struct rawrec *q;
	size_t qhead, qn;
	uint64_t spans, with_irq, no_irq, no_wake, no_switch, lost, dropped;
	struct stats st[P_N];
	bool any_worst;
	struct ti_item worst;		/* the largest irq to task */
	struct ti_item *list;
	size_t nlist;
	uint64_t unlisted;
	char desc[256];
};

void trace_irq_split(const struct tev *ev, size_t cap, size_t head, size_t n,
		     int irq, bool first, int tid, int64_t t0, int64_t t2,
		     struct ti_split *out)
{
	int64_t t_irq = INT64_MIN;
	size_t k;

	out->t1 = out->tw = out->ts = INT64_MIN;
	for (k = 0; k < n; k++) {
		const struct tev *e = &ev[(head + k) % cap];

		if (e->ts < t0)
			continue;
		if (e->ts > t2)
			break;
		switch (e->type) {
		case TEV_IRQ:
			if (irq >= 0 && e->u.irq.irq == irq &&
			    (!first || t_irq == INT64_MIN))
				t_irq = e->ts;
			break;
		case TEV_WAKING:
			if (e->u.waking.pid == tid) {
				out->tw = e->ts;
				out->t1 = t_irq;	/* before this wake-up */
				out->ts = INT64_MIN;
			}
			break;
		case TEV_SWITCH:
			if (e->u.sw.next_pid == tid && out->tw != INT64_MIN &&
			    out->ts == INT64_MIN)
				out->ts = e->ts;
			break;
		default:
			break;
		}
	}
	if (out->tw == INT64_MIN)
		out->t1 = t_irq;	/* not woken: t2 - t1 only */
}

void trace_irq_stop(struct trace_irq *g)
{
	if (!g)
		return;
	tsrc_close(g->src);
	free(g->ring);
	free(g->q);
	free(g->list);
	free(g);
}

int trace_irq_start(struct run *r, struct trace_irq **out, char *err,
		    size_t len)
{
	struct trace_irq *g = calloc(1, sizeof(*g));
	struct tsrc_cfg cfg;
	int i;

	if (!g)
		goto nomem;
	if (r->test->event_trace(r, &g->irq, &g->first, &g->sampler, err,
				 len) < 0)
		goto fail;
	g->ring = calloc(RING_CAP, sizeof(*g->ring));
	g->q = calloc(QUEUE_CAP, sizeof(*g->q));
	g->list = calloc(LIST_CAP, sizeof(*g->list));
	if (!g->ring || !g->q || !g->list)
		goto nomem;
	g->tid = r->s[g->sampler].tid;
	for (i = 0; i < P_N; i++)
		stats_init(&g->st[i]);
	memset(&cfg, 0, sizeof(cfg));
	cfg.buffer_kb = BUFFER_KB;
	cfg.irq_all_cpus = g->irq >= 0 ? g->irq + 1 : 0;
	if (tsrc_open_samplers(&g->src, r, &cfg, err, len) < 0)
		goto fail;
	if (g->irq >= 0)
		snprintf(g->desc, sizeof(g->desc),
			 "kernel trace events (IRQ %d's irq_handler_entry on every CPU, t1 the %s; the receiver's wake-up and switches) in tracefs instance %s, trace clock mono",
			 g->irq, g->first ? "first after the stimulus" :
			 "last before the wake-up", tsrc_instance(g->src));
	else
		snprintf(g->desc, sizeof(g->desc),
			 "kernel trace events (the receiver's wake-up and switches; no interrupt known) in tracefs instance %s, trace clock mono",
			 tsrc_instance(g->src));
	*out = g;
	return 0;
nomem:
	snprintf(err, len, "out of memory");
fail:
	trace_irq_stop(g);
	return -1;
}

void trace_irq_sample(struct trace_irq *g, int i, const struct rawrec *rec)
{
	if (!g || i != g->sampler || rec->series != 0)
		return;
	if (g->qn == QUEUE_CAP) {
		g->dropped++;
		return;
	}
	g->q[(g->qhead + g->qn++) % QUEUE_CAP] = *rec;
}

static void deliver(void *ctx, const struct tev *e)
{
	struct trace_irq *g = ctx;

	switch (e->type) {
	case TEV_LOST:
		g->lost_from = g->seen;
		g->lost_to = e->ts;
		return;
	case TEV_IRQ:
		if (g->irq < 0 || e->u.irq.irq != g->irq)
			return;
		break;
	case TEV_WAKING:
		if (e->u.waking.pid != g->tid)
			return;
		break;
	case TEV_SWITCH:
		if (e->u.sw.next_pid != g->tid)
			return;
		break;
	default:
		return;
	}
	g->ring[(g->rhead + g->rn) % RING_CAP] = *e;
	if (g->rn < RING_CAP)
		g->rn++;
	else
		g->rhead = (g->rhead + 1) % RING_CAP;
	if (e->ts > g->seen)
		g->seen = e->ts;
}

static void decide(struct trace_irq *g, int64_t t0, int64_t t2)
{
	struct ti_split sp;
	int64_t part[P_N];
	int j;

	g->spans++;
	if ((g->lost_to && g->lost_to >= t0 && g->lost_from <= t2) ||
	    (g->rn == RING_CAP && g->ring[g->rhead].ts > t0)) {
		g->lost++;
		return;
	}
	trace_irq_split(g->ring, RING_CAP, g->rhead, g->rn, g->irq, g->first,
			g->tid, t0, t2, &sp);
	if (sp.tw != INT64_MIN && sp.ts == INT64_MIN) {
		g->no_switch++;		/* woken before it left the CPU */
		sp.ts = sp.tw;
	}
	for (j = 0; j < P_N; j++)
		part[j] = INT64_MIN;
	part[P_TOTAL] = t2 - t0;
	if (sp.t1 != INT64_MIN) {
		g->with_irq++;
		part[P_TASK] = t2 - sp.t1;
	} else {
		g->no_irq++;
	}
	if (sp.tw != INT64_MIN) {
		if (sp.t1 != INT64_MIN) {
			part[P_IRQ] = sp.t1 - t0;
			part[P_WAKE] = sp.tw - sp.t1;
		}
		part[P_STIM_WAKE] = sp.tw - t0;
		part[P_SCHED] = sp.ts - sp.tw;
		part[P_RETURN] = t2 - sp.ts;
	} else {
		g->no_wake++;
	}
	for (j = 0; j < P_N; j++)
		if (part[j] != INT64_MIN)
			stats_add(&g->st[j], part[j]);
	if (part[P_TASK] != INT64_MIN &&
	    (!g->any_worst || part[P_TASK] > g->worst.t2 - g->worst.sp.t1)) {
		g->any_worst = true;
		g->worst = (struct ti_item){ t0, t2, sp };
	}
	if (g->nlist < LIST_CAP)
		g->list[g->nlist++] = (struct ti_item){ t0, t2, sp };
	else
		g->unlisted++;
}

void trace_irq_poll(struct trace_irq *g, struct run *r, bool final)
{
	int64_t upto;

	if (!g)
		return;
	if (tsrc_fill(g->src, final, &upto) < 0)
		return;
	/* every event accounted before the trace was read is queued */
	engine_drain_raw(r);
	tsrc_deliver(g->src, upto, deliver, g);
	if (final)
		upto = INT64_MAX;
	while (g->qn) {
		const struct rawrec *q = &g->q[g->qhead];

		if (q->t + q->value >= upto)
			break;
		decide(g, q->t, q->t + q->value);
		g->qhead = (g->qhead + 1) % QUEUE_CAP;
		g->qn--;
	}
}

static void mam(const struct stats *st, char v[3][16])
{
	double mean = 0;

	if (!st->n) {
		strcpy(v[0], "n/a");
		strcpy(v[1], "n/a");
		strcpy(v[2], "n/a");
		return;
	}
	stats_mean(st, &mean);
	fmt_us3(v[0], st->min);
	fmt_us3(v[1], (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5));
	fmt_us3(v[2], st->max);
}

void trace_irq_summary(const struct trace_irq *g, const struct run *r)
{
	char v[3][16], a[32];
	int j;

	if (!g)
		return;
	printf("== Trace: %s\n", g->desc);
	if (g->irq >= 0)
		printf("# trace: %" PRIu64 " of %" PRIu64 " events split at the interrupt (t1); %" PRIu64 " without IRQ %d's irq_handler_entry between t0 and the wake-up",
		       g->with_irq, g->spans + g->dropped, g->no_irq, g->irq);
	else
		printf("# trace: no interrupt known (not split at t1): %" PRIu64 " events",
		       g->spans + g->dropped);
	printf(", %" PRIu64 " without the receiver's wake-up, %" PRIu64 " with trace events lost around them, %" PRIu64 " not split (queue full)\n",
	       g->no_wake, g->lost, g->dropped);
	/* the part column as wide as its longest label, "stimulus to
	 * wake-up" */
	printf("RTK|part               |    samples|        min|        avg|        max\n");
	for (j = 0; j < P_N; j++) {
		mam(&g->st[j], v);
		printf("RTK|%-19s|%11" PRIu64 "|%11s|%11s|%11s\n", part_label[j],
		       g->st[j].n, v[0], v[1], v[2]);
	}
	if (g->any_worst) {
		const struct ti_item *w = &g->worst;

		printf("RTW|worst irq to task: %s us, the event at %s us into the measurement (t1 %" PRId64 " ns, t2 %" PRId64 " ns CLOCK_MONOTONIC)",
		       fmt_us3(a, w->t2 - w->sp.t1),
		       fmt_us3(v[0], w->t0 - r->t_measure), w->sp.t1, w->t2);
		printf(": stimulus to irq %s us", fmt_us3(a, w->sp.t1 - w->t0));
		if (w->sp.tw != INT64_MIN)
			printf(", irq to wake-up %s us, wake-up to running %s us, return to user %s us",
			       fmt_us3(a, w->sp.tw - w->sp.t1),
			       fmt_us3(v[0], (w->sp.ts != INT64_MIN ? w->sp.ts : w->sp.tw) - w->sp.tw),
			       fmt_us3(v[1], w->t2 - (w->sp.ts != INT64_MIN ? w->sp.ts : w->sp.tw)));
		printf("\n");
	}
}

static void opt_ns(struct jw *w, const char *key, int64_t v, int64_t base)
{
	if (v == INT64_MIN)
		jw_null(w, key);
	else
		jw_int(w, key, v - base);
}

void trace_irq_json(const struct trace_irq *g, const struct run *r,
		    struct jw *w)
{
	double mean;
	size_t k;
	int j;

	if (!g) {
		jw_null(w, "trace");
		return;
	}
	jw_obj_begin(w, "trace");
	jw_str(w, "method", "irq-events");
	jw_str(w, "instance", tsrc_instance(g->src));
	jw_str(w, "trace_clock", "mono");
	jw_uint(w, "events_read", tsrc_events(g->src));
	if (g->irq >= 0)
		jw_int(w, "irq", g->irq);
	else
		jw_null(w, "irq");
	jw_uint(w, "spans", g->spans + g->dropped);
	jw_uint(w, "with_irq", g->with_irq);
	jw_uint(w, "without_irq", g->no_irq);
	jw_uint(w, "without_wakeup", g->no_wake);
	jw_uint(w, "without_switch", g->no_switch);
	jw_uint(w, "events_lost_around", g->lost);
	jw_uint(w, "not_split", g->dropped);
	jw_obj_begin(w, "parts");
	for (j = 0; j < P_N; j++) {
		const struct stats *st = &g->st[j];

		jw_obj_begin_inline(w, part_key[j]);
		jw_uint(w, "samples", st->n);
		if (st->n) {
			stats_mean(st, &mean);
			jw_int(w, "min_ns", st->min);
			jw_int(w, "avg_ns", (int64_t)mean);
			jw_int(w, "max_ns", st->max);
		} else {
			jw_null(w, "min_ns");
			jw_null(w, "avg_ns");
			jw_null(w, "max_ns");
		}
		jw_obj_end(w);
	}
	jw_obj_end(w);
	/* the events split, in order: t0 since the measurement's start,
	 * t1, tw, ts and t2 from t0 (null: not in the trace) */
	jw_arr_begin(w, "events");
	for (k = 0; k < g->nlist; k++) {
		const struct ti_item *it = &g->list[k];

		jw_obj_begin_inline(w, NULL);
		jw_int(w, "t0_ns", it->t0 - r->t_measure);
		opt_ns(w, "t1_ns", it->sp.t1, it->t0);
		opt_ns(w, "wakeup_ns", it->sp.tw, it->t0);
		opt_ns(w, "running_ns", it->sp.ts, it->t0);
		jw_int(w, "t2_ns", it->t2 - it->t0);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_uint(w, "events_not_listed", g->unlisted);
	jw_obj_end(w);
}
