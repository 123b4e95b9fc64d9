// SPDX-License-Identifier: GPL-2.0-or-later
/* --trace: accounting, analysis and output of the breakdown; see trace.h. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/accum_json.h"
#include "engine/helper.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/timeutil.h"
#include "trace/trace.h"
#include "trace/trace_gap.h"
#include "trace/trace_irq.h"
#include "trace/trace_source.h"

/*
 * rtlat itself, when rtlat-trace is built (engine/helper.h): --trace runs
 * rtlat-trace in its place (tc_opt), so that the trace is never active
 * here. Only the option and the result's "trace": null are compiled in:
 * the matching and analysis (this file's, trace_gap's, trace_irq's,
 * trace_match's) are not in the measuring binary, whose every page
 * mlockall() locks (issue 15).
 */
#if defined(RTLAT_TRACE_HELPER) && !defined(HAVE_TRACEFS)
#define TRACE_IN_HELPER 1
#endif

#ifndef TRACE_IN_HELPER
#define NSER		(TM_NCOMP + 1)	/* the parts + the traced latency */
#define SER_TOTAL	TM_NCOMP
#define SLOTS		256		/* intervals awaiting display */
#define SQ_CAP		16384		/* undecided samples per sampler */
#define KQ_CAP		4096		/* unmatched expiries per sampler */
#define HIST_CAP	32768		/* events kept for the analysis */
#define POST_NS		(20 * NSEC_PER_USEC)
#define SNAP_MAX	4096		/* events saved around the worst */
#define BUFFER_KB	4096		/* per traced CPU */
#define MAX_IRQS	8
#define NSOFTIRQ	TEV_NSOFTIRQ


/* One sample looked at closely: the worst, the --break one. */
struct focus {
	bool valid;
	int sampler;
	struct tm_sample s;
	int64_t latency;
	int64_t comp[TM_NCOMP];
	struct tm_krec k;
	char expire_comm[TEV_COMM_LEN];
	int64_t t_local_timer;		/* 0: not seen */
	struct {
		int irq;
		char name[TEV_NAME_LEN];
		unsigned int count;
	} irqs[MAX_IRQS];
	int nirqs;
	unsigned int softirqs[NSOFTIRQ];
	struct {
		uint64_t function;
		unsigned int count;
	} timers[MAX_IRQS];
	int ntimers;
	int others[4];			/* tasks current after the wake-up */
	int nothers;
	struct tev *ev;			/* events around it */
	size_t nev;
};

/* Largest sample of an interval, for its RTD line. */
struct slot {
	bool used;
	uint64_t k;
	int64_t lat;			/* of the largest traced sample */
	int64_t comp[TM_NCOMP];
};

struct sworst {
	bool valid;
	int64_t lat;
	int64_t comp[TM_NCOMP];
};

#define MAX_SYMS 64
struct sym {
	uint64_t addr;
	bool named;
	char name[64];
};

/* The timerlat tracer's own samples on one CPU (--trace=timerlat). */
struct tlref {
	int cpu;
	struct accum irq, thread;
};

struct trace {
	struct run *r;
	struct tlref *tl;
	int ntl;
	struct sym syms[MAX_SYMS];
	int nsyms;
	struct tsrc *src;
	struct tmatch m;
	struct accum (*acc)[NSER];	/* per sampler */
	struct accum agg[NSER];		/* all samplers (on demand) */
	struct sworst *sw;		/* per sampler */
	struct slot slots[SLOTS];
	struct focus worst, brk;
	bool any;
	int64_t max_all;		/* largest decided sample */
	struct focus umax;		/* it, when it was not traced */
	enum tm_why umax_why;
	uint64_t why[TM_NWHY];
	uint64_t idle_assumed;		/* switch out of idle not recorded */
	uint64_t armed_late;		/* timer armed after its deadline */
	int64_t clock_cost, tol;
	bool timerlat_present;
	char desc[336];			/* the banner line */
	char events_file[PATH_MAX];
};

static struct trace_state *tstate(const struct run *r)
{
	return engine_companion(r, &trace_companion);
}

static struct trace *trace_of(const struct run *r)
{
	const struct trace_state *ts = tstate(r);

	return ts ? ts->t : NULL;
}

static int trace_mode(const struct run *r)
{
	const struct trace_state *ts = tstate(r);

	return ts ? ts->mode : TRACE_OFF;
}

/* Is the trace running in @r (it has a state and was started)? */
static bool trace_active(const struct run *r)
{
	return trace_of(r) != NULL;
}

static const struct series_desc part_desc[NSER] = {
	{ .name = "irq_latency", .miss_name = "untraced" },
	{ .name = "handler_to_wakeup", .miss_name = "untraced" },
	{ .name = "wakeup_to_running", .miss_name = "untraced" },
	{ .name = "return_to_user", .miss_name = "untraced" },
	{ .name = "traced_latency", .miss_name = "untraced" },
};
static const struct series_desc tl_desc[2] = {
	{ .name = "irq", .miss_name = "lost" },
	{ .name = "thread", .miss_name = "lost" },
};
static const char *const part_label[NSER] = {
	"irq latency", "handler to wake-up", "wake-up to running",
	"return to user", "traced latency",
};

int trace_check(const struct engine_opts *o, int mode, char *err, size_t len)
{
	if (!tsrc_built_in())
		return tsrc_check(false, err, len);
	if (o->wait != WAIT_ABS && o->wait != WAIT_TIMERFD &&
	    o->wait != WAIT_POSIX) {
		snprintf(err, len, "--trace needs a timer the kernel arms for the deadline: --wait abs, timerfd or posix (not '%s')",
			 wait_backend_name(o->wait));
		return -1;
	}
	if (o->clock != CLOCK_MONOTONIC) {
		snprintf(err, len, "--trace needs --clock monotonic (the trace clock is CLOCK_MONOTONIC)");
		return -1;
	}
	return tsrc_check(mode == TRACE_TIMERLAT, err, len);
}

/* Cost of one clock read (ns): the tolerance for negative parts. */
static int64_t clock_read_cost(void)
{
	int64_t best = INT64_MAX, a, b;
	int i;

	for (i = 0; i < 1000; i++) {
		a = clock_now_ns(CLOCK_MONOTONIC);
		b = clock_now_ns(CLOCK_MONOTONIC);
		if (b - a < best)
			best = b - a;
	}
	return best;
}

static void on_result(void *ctx, const struct tm_result *res);

static void trace_free(struct trace *t, int n)
{
	int i, j;

	tsrc_close(t->src);
	tmatch_free(&t->m);
	for (i = 0; t->acc && i < n; i++)
		for (j = 0; j < NSER; j++)
			accum_free(&t->acc[i][j]);
	for (j = 0; j < NSER; j++)
		accum_free(&t->agg[j]);
	for (i = 0; t->tl && i < t->ntl; i++) {
		accum_free(&t->tl[i].irq);
		accum_free(&t->tl[i].thread);
	}
	free(t->tl);
	free(t->acc);
	free(t->sw);
	free(t->worst.ev);
	free(t->brk.ev);
	free(t);
}

int trace_start(struct run *r, char *err, size_t len)
{
	struct tsrc_cfg cfg;
	struct trace *t;
	int *tids, *cpus;
	int i, j, e = 0;

	t = calloc(1, sizeof(*t));
	tids = calloc((size_t)r->nsamplers, sizeof(int));
	cpus = calloc((size_t)r->nsamplers, sizeof(int));
	if (!t || !tids || !cpus)
		goto nomem;
	t->r = r;
	t->acc = calloc((size_t)r->nsamplers, sizeof(*t->acc));
	t->sw = calloc((size_t)r->nsamplers, sizeof(*t->sw));
	t->worst.ev = calloc(SNAP_MAX, sizeof(struct tev));
	t->brk.ev = calloc(SNAP_MAX, sizeof(struct tev));
	if (!t->acc || !t->sw || !t->worst.ev || !t->brk.ev)
		goto nomem;
	for (j = 0; j < NSER && !e; j++)
		e = accum_init(&t->agg[j], r->o);
	for (i = 0; i < r->nsamplers && !e; i++)
		for (j = 0; j < NSER && !e; j++)
			e = accum_init(&t->acc[i][j], r->o);
	if (e)
		goto nomem;
	for (i = 0; i < r->nsamplers; i++) {
		tids[i] = r->s[i].tid;
		cpus[i] = r->s[i].cpu;
	}
	if (trace_mode(r) == TRACE_TIMERLAT) {
		t->tl = calloc((size_t)r->nsamplers, sizeof(*t->tl));
		if (!t->tl)
			goto nomem;
		for (i = 0; i < r->nsamplers && !e; i++) {
			t->tl[i].cpu = cpus[i];
			t->ntl++;
			e = accum_init(&t->tl[i].irq, r->o);
			if (!e)
				e = accum_init(&t->tl[i].thread, r->o);
		}
		if (e)
			goto nomem;
	}
	t->clock_cost = clock_read_cost();
	t->tol = 4 * t->clock_cost > 200 ? 4 * t->clock_cost : 200;
	if (tmatch_init(&t->m, r->nsamplers, tids, cpus, SQ_CAP, KQ_CAP,
			HIST_CAP, t->tol, POST_NS, on_result, t) < 0)
		goto nomem;
	t->timerlat_present = tsrc_has_timerlat();
	memset(&cfg, 0, sizeof(cfg));
	cfg.n = r->nsamplers;
	cfg.tids = tids;
	cfg.cpus = cpus;
	cfg.buffer_kb = BUFFER_KB;
	cfg.timerlat = trace_mode(r) == TRACE_TIMERLAT;
	cfg.period_ns = r->o->period_ns;
	/* the one wait --trace adds before the first sample: say so */
	log_note("--trace: setting up the kernel trace (a tracefs instance, %d KiB of buffer per traced CPU, the event formats)...",
		 BUFFER_KB);
	if (tsrc_open(&t->src, &cfg, err, len) < 0)
		goto fail;
	snprintf(t->desc, sizeof(t->desc),
		 "Trace: kernel trace events (timer, sched, irq) in tracefs instance %s, trace clock mono%s",
		 tsrc_instance(t->src),
		 cfg.timerlat ? "; timerlat tracer running beside as a reference" :
		 t->timerlat_present ? "; timerlat tracer present, not used (--trace=timerlat adds it)" : "");
	free(tids);
	free(cpus);
	tstate(r)->t = t;
	return 0;
nomem:
	snprintf(err, len, "out of memory");
fail:
	free(tids);
	free(cpus);
	if (t)
		trace_free(t, r->nsamplers);
	return -1;
}

void trace_stop(struct run *r)
{
	struct trace_state *ts = tstate(r);

	if (!ts || !ts->t)
		return;
	trace_free(ts->t, r->nsamplers);
	ts->t = NULL;
}

/* Banner line ("Trace: kernel trace events ... in tracefs instance ..."). */
static const char *trace_describe(const struct run *r)
{
	return trace_of(r) ? trace_of(r)->desc : "";
}

void trace_sample(struct run *r, int i, const struct rawrec *rec)
{
	struct tm_sample s;

	if (!trace_of(r) || rec->series != 0)
		return;
	s.cycle = rec->cycle;
	s.deadline = rec->t;
	s.now = rec->t + rec->value;
	tmatch_sample(&trace_of(r)->m, i, &s);
}

static void deliver(void *ctx, const struct tev *e)
{
	struct trace *t = ctx;
	int i;

	if (e->type != TEV_TIMERLAT) {
		tmatch_event(&t->m, e);
		return;
	}
	for (i = 0; i < t->ntl; i++)
		if (t->tl[i].cpu == e->cpu)
			accum_add(e->u.timerlat.context == 0 ? &t->tl[i].irq :
				  &t->tl[i].thread, e->u.timerlat.latency,
				  e->ts, 0);
}

void trace_poll(struct run *r, bool final)
{
	struct trace *t = trace_of(r);
	int64_t upto;

	if (!t)
		return;
	tmatch_set_measure(&t->m, r->t_measure);
	if (tsrc_fill(t->src, final, &upto) < 0)
		return;
	/* every sample taken before the events were read is queued */
	engine_drain_raw(r);
	tsrc_deliver(t->src, upto, deliver, t);
	tmatch_advance(&t->m, upto);
}

bool trace_interval_ready(struct run *r, uint64_t k)
{
	struct trace *t = trace_of(r);
	int64_t end = r->t_measure + (int64_t)(k + 1) * r->o->interval_ns;
	int i;

	if (!t)
		return true;
	engine_drain_raw(r);
	for (i = 0; i < t->m.n; i++) {
		const struct tm_sampler *s = &t->m.s[i];

		if (s->sn && s->sq[s->shead].deadline < end)
			return false;
	}
	return true;
}

/* --- analysis of one sample --------------------------------------------- */

struct scan {
	struct focus *f;
	int cpu, tid;
	int64_t from, to;		/* the deadline .. the clock read */
	int64_t snap_from, snap_to;
};

static void scan_event(void *ctx, const struct tev *e)
{
	struct scan *c = ctx;
	struct focus *f = c->f;
	int i;

	if (e->ts >= c->snap_from && e->ts <= c->snap_to && f->nev < SNAP_MAX)
		f->ev[f->nev++] = *e;
	if (e->cpu != c->cpu)
		return;
	if (e->type == TEV_LOCAL_TIMER && e->ts <= f->k.t_expire &&
	    e->ts >= f->s.deadline - 2 * NSEC_PER_MSEC)
		f->t_local_timer = e->ts;
	if (e->ts < c->from || e->ts > c->to)
		return;
	if (e->ts > f->k.t_waking && e->pid != c->tid &&
	    e->type != TEV_LOST) {
		for (i = 0; i < f->nothers; i++)
			if (f->others[i] == e->pid)
				break;
		if (i == f->nothers && f->nothers < 4)
			f->others[f->nothers++] = e->pid;
	}
	switch (e->type) {
	case TEV_IRQ:
		for (i = 0; i < f->nirqs; i++)
			if (f->irqs[i].irq == e->u.irq.irq)
				break;
		if (i == f->nirqs && f->nirqs < MAX_IRQS) {
			f->irqs[i].irq = e->u.irq.irq;
			memcpy(f->irqs[i].name, e->u.irq.name, TEV_NAME_LEN);
			f->nirqs++;
		}
		if (i < f->nirqs)
			f->irqs[i].count++;
		break;
	case TEV_SOFTIRQ:
		if (e->u.softirq.vec < NSOFTIRQ)
			f->softirqs[e->u.softirq.vec]++;
		break;
	case TEV_TIMER_EXPIRE:
		if (e->ts == f->k.t_expire)
			break;		/* the sampler's own */
		for (i = 0; i < f->ntimers; i++)
			if (f->timers[i].function == e->u.expire.function)
				break;
		if (i == f->ntimers && f->ntimers < MAX_IRQS) {
			f->timers[i].function = e->u.expire.function;
			f->ntimers++;
		}
		if (i < f->ntimers)
			f->timers[i].count++;
		break;
	default:
		break;
	}
}

static void capture(struct trace *t, struct focus *f,
		    const struct tm_result *res)
{
	struct tev *ev = f->ev;
	const char *comm;
	struct scan c;

	memset(f, 0, sizeof(*f));
	f->ev = ev;
	f->valid = true;
	f->sampler = res->sampler;
	f->s = res->s;
	f->latency = res->latency;
	memcpy(f->comp, res->comp, sizeof(f->comp));
	if (res->k)
		f->k = *res->k;
	comm = tmatch_comm(&t->m, f->k.expire_pid);
	if (comm)
		memcpy(f->expire_comm, comm, TEV_COMM_LEN);
	c.f = f;
	c.cpu = f->k.cpu;
	c.tid = t->m.s[res->sampler].tid;
	c.from = f->s.deadline;
	c.to = f->s.now;
	c.snap_from = f->s.deadline - 10 * NSEC_PER_USEC;
	if (f->k.t_sleep && f->k.t_sleep < c.snap_from)
		c.snap_from = f->k.t_sleep - 10 * NSEC_PER_USEC;
	if (t->r->o->period_ns && c.snap_from < f->s.deadline - 2 * t->r->o->period_ns)
		c.snap_from = f->s.deadline - 2 * t->r->o->period_ns;
	c.snap_to = f->s.now + POST_NS;
	if (res->k)
		tmatch_history(&t->m, c.snap_from - 2 * NSEC_PER_MSEC,
			       c.snap_to, scan_event, &c);
}

static void on_result(void *ctx, const struct tm_result *res)
{
	struct trace *t = ctx;
	const struct run *r = t->r;
	int i = res->sampler, c;
	struct sworst *w = &t->sw[i];
	struct slot *sl;
	uint64_t k;

	t->why[res->why]++;
	if (!t->any || res->latency > t->max_all) {
		t->any = true;
		t->max_all = res->latency;
		t->umax.valid = res->why != TM_TRACED;
		t->umax.sampler = i;
		t->umax.s = res->s;
		t->umax.latency = res->latency;
		t->umax_why = res->why;
	}
	if (res->why != TM_TRACED) {
		for (c = 0; c < NSER; c++)
			t->acc[i][c].overruns++;
		return;
	}
	if (tmatch_idle_assumed(res->k))
		t->idle_assumed++;
	if (tmatch_armed_late(res->k))
		t->armed_late++;
	for (c = 0; c < TM_NCOMP; c++)
		accum_add(&t->acc[i][c], res->comp[c], res->s.deadline,
			  res->s.cycle);
	accum_add(&t->acc[i][SER_TOTAL], res->latency, res->s.deadline,
		  res->s.cycle);
	if (!w->valid || res->latency > w->lat) {
		w->valid = true;
		w->lat = res->latency;
		memcpy(w->comp, res->comp, sizeof(w->comp));
	}
	k = res->s.deadline > r->t_measure ?
	    (uint64_t)(res->s.deadline - r->t_measure) / (uint64_t)r->o->interval_ns : 0;
	sl = &t->slots[k % SLOTS];
	if (!sl->used || sl->k != k || res->latency > sl->lat) {
		sl->used = true;
		sl->k = k;
		sl->lat = res->latency;
		memcpy(sl->comp, res->comp, sizeof(sl->comp));
	}
	if (!t->worst.valid || res->latency > t->worst.latency)
		capture(t, &t->worst, res);
	if (r->o->break_ns >= 0 && res->latency > r->o->break_ns &&
	    !t->brk.valid)
		capture(t, &t->brk, res);
}

/*
 * The parts of the largest sample of interval @k (all samplers), or of the
 * run of sampler @i (-1: all): true and @comp filled when that sample,
 * which must be the one of latency @max, was broken down.
 */
static bool trace_interval_max(struct run *r, uint64_t k, int64_t max,
			       int64_t comp[TM_NCOMP])
{
	const struct slot *sl;

	if (!trace_of(r))
		return false;
	sl = &trace_of(r)->slots[k % SLOTS];
	if (!sl->used || sl->k != k || sl->lat != max)
		return false;
	memcpy(comp, sl->comp, sizeof(sl->comp));
	return true;
}

static bool trace_run_max(struct run *r, int i, int64_t max,
			  int64_t comp[TM_NCOMP])
{
	const struct trace *t = trace_of(r);
	const struct sworst *w;

	if (!t)
		return false;
	if (i < 0) {
		if (!t->worst.valid || t->worst.latency != max)
			return false;
		memcpy(comp, t->worst.comp, sizeof(t->worst.comp));
		return true;
	}
	w = &t->sw[i];
	if (!w->valid || w->lat != max)
		return false;
	memcpy(comp, w->comp, sizeof(w->comp));
	return true;
}

static void aggregate(struct trace *t)
{
	int i, j;

	for (j = 0; j < NSER; j++) {
		accum_reset(&t->agg[j]);
		for (i = 0; i < t->m.n; i++)
			accum_merge(&t->agg[j], &t->acc[i][j]);
	}
}

/* --- text --------------------------------------------------------------- */

/* Symbol names of kernel addresses, from /proc/kallsyms, looked up once. */
static void resolve(struct trace *t, int first)
{
	char line[256], *p, *end;
	unsigned long long a;
	int i, left = t->nsyms - first;
	size_t n;
	FILE *f;

	for (i = first; i < t->nsyms; i++)
		snprintf(t->syms[i].name, sizeof(t->syms[i].name),
			 "0x%" PRIx64, t->syms[i].addr);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	/* "ffffffff81234560 T name [module]" */
	while (left > 0 && fgets(line, sizeof(line), f)) {
		a = strtoull(line, &end, 16);
		if (!a || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		p = end + 3;
		n = strcspn(p, " \t\n");
		for (i = first; i < t->nsyms; i++) {
			if (t->syms[i].addr == a && !t->syms[i].named) {
				snprintf(t->syms[i].name, sizeof(t->syms[i].name),
					 "%.*s", (int)n, p);
				t->syms[i].named = true;
				left--;
			}
		}
	}
	fclose(f);
}

static const char *sym_name(const struct trace *t, uint64_t a)
{
	int i;

	for (i = 0; i < t->nsyms; i++)
		if (t->syms[i].addr == a)
			return t->syms[i].name;
	return "?";
}

static void want_sym(struct trace *t, uint64_t a)
{
	int i;

	if (!a || t->nsyms == MAX_SYMS)
		return;
	for (i = 0; i < t->nsyms; i++)
		if (t->syms[i].addr == a)
			return;
	t->syms[t->nsyms].addr = a;
	t->syms[t->nsyms].named = false;
	t->nsyms++;
}

/* Name the callbacks seen around @f (reads kallsyms for new ones only). */
static void focus_syms(struct trace *t, const struct focus *f)
{
	int first = t->nsyms, i;
	size_t j;

	want_sym(t, f->k.function);
	for (i = 0; i < f->ntimers; i++)
		want_sym(t, f->timers[i].function);
	for (j = 0; j < f->nev; j++) {
		if (f->ev[j].type == TEV_TIMER_START)
			want_sym(t, f->ev[j].u.start.function);
		else if (f->ev[j].type == TEV_TIMER_EXPIRE)
			want_sym(t, f->ev[j].u.expire.function);
	}
	if (t->nsyms > first)
		resolve(t, first);
}

static const char *state_str(int64_t st, char *buf)
{
	static const char letters[] = "SDTtXZPI";
	int i;

	if (st == 0)
		return "R";
	if (st & 0x100 || st >= 0x100)
		return "R+";
	for (i = 0; i < 8; i++)
		if (st & (1 << i)) {
			buf[0] = letters[i];
			buf[1] = '\0';
			return buf;
		}
	return "?";
}

/* "fifo 90" / "other" from a kernel priority. */
static const char *prio_str(int prio, char *buf, size_t len)
{
	if (prio < 0)
		snprintf(buf, len, "deadline");
	else if (prio < 100)
		snprintf(buf, len, "rt priority %d", 99 - prio);
	else
		snprintf(buf, len, "nice %d", prio - 120);
	return buf;
}

static const char *comm_of(const struct trace *t, int pid, char *buf,
			   size_t len)
{
	const char *c = tmatch_comm(&t->m, pid);
	FILE *f;

	if (pid == 0)
		return "<idle>";
	if (c)
		return c;
	snprintf(buf, len, "/proc/%d/comm", pid);
	f = fopen(buf, "r");
	if (f) {
		if (fgets(buf, (int)len, f)) {
			buf[strcspn(buf, "\n")] = '\0';
			fclose(f);
			return buf;
		}
		fclose(f);
	}
	return "<...>";
}

/* The CPU the sampler ran on after the wake-up. */
static int focus_cpu(const struct focus *f)
{
	return f->k.t_switch ? f->k.switch_cpu : f->k.cpu;
}

static int dominant(const struct focus *f)
{
	int c, d = 0;

	for (c = 1; c < TM_NCOMP; c++)
		if (f->comp[c] > f->comp[d])
			d = c;
	return d;
}

static double pct(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *expiry_context(const struct trace *t, const struct focus *f,
				  char *buf, size_t len)
{
	char c[64];

	if (f->k.expire_flags & TEV_F_HARDIRQ) {
		if (f->k.expire_pid == 0)
			snprintf(buf, len, "in hard irq context on the idle CPU %d (the timer interrupt woke it from idle)",
				 f->k.cpu);
		else
			snprintf(buf, len, "in hard irq context on CPU %d, interrupting %s (pid %d)",
				 f->k.cpu, comm_of(t, f->k.expire_pid, c, sizeof(c)),
				 f->k.expire_pid);
	} else {
		snprintf(buf, len, "in task context on CPU %d: %s (pid %d), a timer softirq thread (threaded timer expiry: its wake-up and scheduling are part of the irq latency)",
			 f->k.cpu, comm_of(t, f->k.expire_pid, c, sizeof(c)),
			 f->k.expire_pid);
	}
	return buf;
}

void trace_events_path(const char *json, char *buf, size_t len)
{
	const char *dot = strrchr(json, '.');

	if (dot && !strcmp(dot, ".json") && !strchr(dot, '/'))
		snprintf(buf, len, "%.*s.trace.txt", (int)(dot - json), json);
	else
		snprintf(buf, len, "%s.trace.txt", json);
}

static void print_focus(struct trace *t, const char *what,
			const struct focus *f)
{
	const struct sampler *s = &t->r->s[f->sampler];
	char a[32], b[64], c[64], line[512];
	int d = dominant(f), i;
	size_t o;

	focus_syms(t, f);
	printf("RTW|%s: %s us on CPU %d (sampler %d, tid %d), cycle %" PRIu64 "\n",
	       what, fmt_us3(a, f->latency), focus_cpu(f),
	       f->sampler, (int)s->tid, f->s.cycle);
	for (i = 0; i < TM_NCOMP; i++)
		printf("RTW|  %-19s %11s us %6.1f %%%s\n", tm_comp_name[i],
		       fmt_us3(a, f->comp[i]), pct(f->comp[i], f->latency),
		       i == d ? "  <- dominant" : "");
	printf("RTW|dominant: %s, %s us (%.1f %% of %s us)\n", tm_comp_name[d],
	       fmt_us3(a, f->comp[d]), pct(f->comp[d], f->latency),
	       fmt_us3(b, f->latency));
	printf("RTW|timer %s expired %s\n", sym_name(t, f->k.function),
	       expiry_context(t, f, line, sizeof(line)));
	if (tmatch_armed_late(&f->k))
		printf("RTW|the sampler armed this timer %s us after its deadline (still busy with its previous period, or preempted before its wait): that much of the irq latency is the sampler's own lateness, not the interrupt's\n",
		       fmt_us3(a, tmatch_armed_late(&f->k)));
	if (f->t_local_timer)
		printf("RTW|local timer interrupt entered %s us after the deadline\n",
		       fmt_us3(a, f->t_local_timer - f->s.deadline));
	if (tmatch_idle_assumed(&f->k))
		printf("RTW|the sampler was woken on the idle CPU and the kernel did not record the switch out of idle: it is assumed at the wake-up, so the switch and anything before it count in return to user\n");
	else if (!f->k.t_switch)
		printf("RTW|the sampler was woken before it had left the CPU: no switch\n");
	else if (f->k.prev_pid == 0)
		printf("RTW|before the sampler ran the CPU was idle: switched in from idle (exit from idle)\n");
	else
		printf("RTW|before the sampler ran, the CPU ran %s (pid %d, %s), switched out in state %s\n",
		       f->k.prev_comm, f->k.prev_pid,
		       prio_str(f->k.prev_prio, b, sizeof(b)),
		       state_str(f->k.prev_state, c));
	if (f->k.preempted)
		printf("RTW|the sampler was preempted %d time(s) on its way back to user space, off the CPU %s us in all; first by %s (pid %d, %s)\n",
		       f->k.preempted, fmt_us3(a, f->k.preempted_ns),
		       f->k.preempt_pid ? f->k.preempt_comm : "<idle>",
		       f->k.preempt_pid,
		       prio_str(f->k.preempt_prio, b, sizeof(b)));
	o = 0;
	line[0] = '\0';
	for (i = 0; i < f->nirqs; i++)
		o += (size_t)snprintf(line + o, o < sizeof(line) ? sizeof(line) - o : 0,
				      "%sirq %d %s x%u", o ? ", " : "",
				      f->irqs[i].irq, f->irqs[i].name,
				      f->irqs[i].count);
	for (i = 0; i < NSOFTIRQ; i++)
		if (f->softirqs[i])
			o += (size_t)snprintf(line + o, o < sizeof(line) ? sizeof(line) - o : 0,
					      "%ssoftirq %s x%u", o ? ", " : "",
					      tev_softirq_name[i], f->softirqs[i]);
	for (i = 0; i < f->ntimers; i++)
		o += (size_t)snprintf(line + o, o < sizeof(line) ? sizeof(line) - o : 0,
				      "%stimer %s x%u", o ? ", " : "",
				      sym_name(t, f->timers[i].function),
				      f->timers[i].count);
	printf("RTW|interrupts and timers on CPU %d from the deadline to the clock read: %s\n",
	       f->k.cpu, o ? line : "none");
	o = 0;
	for (i = 0; i < f->nothers; i++)
		o += (size_t)snprintf(line + o, o < sizeof(line) ? sizeof(line) - o : 0,
				      "%s%s (pid %d)", o ? ", " : "",
				      comm_of(t, f->others[i], c, sizeof(c)),
				      f->others[i]);
	if (o)
		printf("RTW|other tasks current on CPU %d after the wake-up: %s\n",
		       f->k.cpu, line);
}

/* "min", "avg", "max" of @st in us, or n/a. */
static void min_avg_max(const struct stats *st, char *mn, char *av, char *mx)
{
	double mean = 0;

	if (!st->n) {
		strcpy(mn, "n/a");
		strcpy(av, "n/a");
		strcpy(mx, "n/a");
		return;
	}
	stats_mean(st, &mean);
	fmt_us3(mn, st->min);
	fmt_us3(av, (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5));
	fmt_us3(mx, st->max);
}

void trace_summary(struct run *r)
{
	struct trace *t = trace_of(r);
	char v[3][16], b[32];
	uint64_t n, untraced = 0;
	bool same;
	int j, i;
	static const int pidx[] = { 0, 2, 3, 4 };	/* p50 p99 p99.9 p99.99 */

	if (!t)
		return;
	aggregate(t);
	printf("RTK|part              |    samples|        min|        avg|        max|        p50|        p99|      p99.9|     p99.99\n");
	for (j = 0; j < NSER; j++) {
		const struct accum *a = &t->agg[j];

		n = a->st.n;
		min_avg_max(&a->st, v[0], v[1], v[2]);
		printf("RTK|%-18s|%11" PRIu64 "|%11s|%11s|%11s", part_label[j], n,
		       v[0], v[1], v[2]);
		for (i = 0; i < 4; i++) {
			int64_t p;

			if (hist_percentile(&a->hist, rtlat_percentiles[pidx[i]].den_inv,
					    a->st.min, a->st.max, &p))
				printf("|%11s", fmt_us3(b, p));
			else
				printf("|%11s", "n/a");
		}
		printf("\n");
	}
	for (j = 1; j < TM_NWHY; j++)
		untraced += t->why[j];
	printf("# trace: %" PRIu64 " of %" PRIu64 " samples broken down",
	       t->why[TM_TRACED], t->why[TM_TRACED] + untraced);
	if (untraced) {
		printf("; not traced:");
		for (j = 1; j < TM_NWHY; j++)
			if (t->why[j])
				printf(" %s %" PRIu64, tm_why_key[j], t->why[j]);
	}
	printf("; %" PRIu64 " events read, %" PRIu64 " lost\n",
	       tsrc_events(t->src), t->m.lost);
	if (t->armed_late)
		printf("# trace: in %" PRIu64 " samples the sampler armed its timer after the deadline (busy with the previous period, or preempted before its wait): their irq latency is at least in part the sampler's own lateness\n",
		       t->armed_late);
	if (t->idle_assumed)
		printf("# trace: in %" PRIu64 " samples the sampler was woken on the idle CPU and the kernel did not record the switch out of idle: wake-up to running is taken as 0 there, the switch counts in return to user\n",
		       t->idle_assumed);
	for (i = 0; i < t->ntl; i++) {
		char x[6][16];

		min_avg_max(&t->tl[i].irq.st, x[0], x[1], x[2]);
		min_avg_max(&t->tl[i].thread.st, x[3], x[4], x[5]);
		printf("RTL|timerlat cpu %d|irq %s/%s/%s us|thread %s/%s/%s us (min/avg/max)\n",
		       t->tl[i].cpu, x[0], x[1], x[2], x[3], x[4], x[5]);
	}
	if (t->umax.valid)
		printf("RTW|the largest sample, %s us (sampler %d, cycle %" PRIu64 "), could not be broken down: %s\n",
		       fmt_us3(b, t->umax.latency), t->umax.sampler,
		       t->umax.s.cycle, tm_why_key[t->umax_why]);
	same = t->brk.valid && t->brk.sampler == t->worst.sampler &&
	       t->brk.s.cycle == t->worst.s.cycle;
	if (t->worst.valid)
		print_focus(t, same ? "worst sample (the --break sample)" :
			    "worst sample", &t->worst);
	else
		printf("RTW|no sample was broken down\n");
	if (t->brk.valid && !same)
		print_focus(t, "--break sample", &t->brk);
	if (t->events_file[0])
		printf("RTW|raw events around the worst sample: %s (%zu events)\n",
		       t->events_file, t->worst.nev);
	else if (t->worst.valid)
		printf("RTW|raw events around the worst sample: not saved (with --json FILE.json, a regular file, they go to FILE.trace.txt)\n");
}

static void print_event(FILE *f, const struct trace *t, const struct tev *e,
			int64_t d)
{
	char c[64], st[4];

	fprintf(f, "%5lld.%09lld %+13lld [%03d] %16s-%-7d ",
		(long long)(e->ts / NSEC_PER_SEC), (long long)(e->ts % NSEC_PER_SEC),
		(long long)(e->ts - d), e->cpu, comm_of(t, e->pid, c, sizeof(c)),
		e->pid);
	switch (e->type) {
	case TEV_TIMER_START:
		fprintf(f, "hrtimer_start: hrtimer=0x%" PRIx64 " function=%s expires=%lld softexpires=%lld\n",
			e->u.start.timer, sym_name(t, e->u.start.function),
			(long long)e->u.start.expires, (long long)e->u.start.softexpires);
		break;
	case TEV_TIMER_EXPIRE:
		fprintf(f, "hrtimer_expire_entry: hrtimer=0x%" PRIx64 " function=%s now=%lld\n",
			e->u.expire.timer, sym_name(t, e->u.expire.function),
			(long long)e->u.expire.now);
		break;
	case TEV_WAKING:
		fprintf(f, "sched_waking: comm=%s pid=%d prio=%d target_cpu=%03d\n",
			e->u.waking.comm, e->u.waking.pid, e->u.waking.prio,
			e->u.waking.target_cpu);
		break;
	case TEV_SWITCH:
		fprintf(f, "sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d next_prio=%d\n",
			e->u.sw.prev_comm, e->u.sw.prev_pid, e->u.sw.prev_prio,
			state_str(e->u.sw.prev_state, st), e->u.sw.next_comm,
			e->u.sw.next_pid, e->u.sw.next_prio);
		break;
	case TEV_IRQ:
		fprintf(f, "irq_handler_entry: irq=%d name=%s\n", e->u.irq.irq,
			e->u.irq.name);
		break;
	case TEV_SOFTIRQ:
		fprintf(f, "softirq_entry: vec=%u [action=%s]\n", e->u.softirq.vec,
			e->u.softirq.vec < NSOFTIRQ ? tev_softirq_name[e->u.softirq.vec] : "?");
		break;
	case TEV_LOCAL_TIMER:
		fprintf(f, "local_timer_entry\n");
		break;
	case TEV_LOST:
		fprintf(f, "LOST %lld events before this point\n",
			(long long)e->u.lost.count);
		break;
	case TEV_TIMERLAT:
		fprintf(f, "timerlat: context=%s timer_latency=%lld\n",
			e->u.timerlat.context ? "thread" : "irq",
			(long long)e->u.timerlat.latency);
		break;
	default:
		fprintf(f, "?\n");
		break;
	}
}

int trace_save(struct run *r, char *err, size_t len)
{
	struct trace *t = trace_of(r);
	const struct focus *f;
	const char *json = r->o->json_file;
	struct atomic_file af;
	size_t j;
	int i;
	FILE *fp;

	/* a --json written in place (stdout, a FIFO, a device) has no
	 * directory of its own to put the events beside it */
	if (!t || !json || !t->worst.valid || output_is_special(json))
		return 0;
	f = &t->worst;
	trace_events_path(json, t->events_file, sizeof(t->events_file));
	fp = atomic_open(&af, t->events_file, err, len);
	if (!fp) {
		t->events_file[0] = '\0';
		return -1;
	}
	focus_syms(t, f);
	fprintf(fp, "# rtlat %s --trace: kernel events around the worst sample\n",
		RTLAT_VERSION);
	fprintf(fp, "# sampler %d (tid %d), cycle %" PRIu64 ", deadline %lld ns, clock read %lld ns, latency %lld ns\n",
		f->sampler, (int)r->s[f->sampler].tid, f->s.cycle,
		(long long)f->s.deadline, (long long)f->s.now,
		(long long)f->latency);
	for (i = 0; i < TM_NCOMP; i++)
		fprintf(fp, "# %s: %lld ns\n", tm_comp_name[i],
			(long long)f->comp[i]);
	fprintf(fp, "# instance %s, trace clock mono (= CLOCK_MONOTONIC); the filters keep only the sampler's events and those of its CPU\n",
		tsrc_instance(t->src));
	fprintf(fp, "# columns: time (s.ns), ns relative to the deadline, [cpu], task-pid current on that CPU, event: fields\n");
	for (j = 0; j < f->nev; j++)
		print_event(fp, t, &f->ev[j], f->s.deadline);
	if (atomic_commit(&af, err, len) < 0) {
		t->events_file[0] = '\0';
		return -1;
	}
	return 0;
}

/* --- JSON ---------------------------------------------------------------- */

static void focus_json(struct trace *t, struct jw *w, const char *key,
		       const struct focus *f)
{
	char c[64], st[4];
	int i, d;

	if (!f->valid) {
		jw_null(w, key);
		return;
	}
	focus_syms(t, f);
	d = dominant(f);
	jw_obj_begin(w, key);
	jw_int(w, "thread", f->sampler);
	jw_int(w, "tid", t->r->s[f->sampler].tid);
	jw_int(w, "cpu", focus_cpu(f));
	jw_uint(w, "cycle", f->s.cycle);
	jw_int(w, "deadline_ns", f->s.deadline);
	jw_int(w, "latency_ns", f->latency);
	for (i = 0; i < TM_NCOMP; i++) {
		char k[48];

		snprintf(k, sizeof(k), "%s_ns", tm_comp_key[i]);
		jw_int(w, k, f->comp[i]);
	}
	jw_str(w, "dominant", tm_comp_key[d]);
	jw_int(w, "dominant_ns", f->comp[d]);
	jw_double(w, "dominant_pct", pct(f->comp[d], f->latency), 1);
	jw_obj_begin(w, "expiry");
	jw_int(w, "cpu", f->k.cpu);
	jw_str(w, "function", sym_name(t, f->k.function));
	jw_str(w, "context", f->k.expire_flags & TEV_F_HARDIRQ ? "hardirq" : "task");
	jw_int(w, "pid", f->k.expire_pid);
	jw_str(w, "comm", comm_of(t, f->k.expire_pid, c, sizeof(c)));
	jw_bool(w, "cpu_idle", f->k.expire_pid == 0);
	if (f->t_local_timer)
		jw_int(w, "local_timer_entry_ns", f->t_local_timer - f->s.deadline);
	else
		jw_null(w, "local_timer_entry_ns");
	jw_obj_end(w);
	jw_bool(w, "idle_switch_assumed", tmatch_idle_assumed(&f->k));
	if (f->k.t_armed)
		jw_int(w, "armed_after_deadline_ns", tmatch_armed_late(&f->k));
	else
		jw_null(w, "armed_after_deadline_ns");
	if (f->k.t_switch) {
		jw_obj_begin(w, "switched_out");
		jw_int(w, "pid", f->k.prev_pid);
		jw_str(w, "comm", f->k.prev_pid ? f->k.prev_comm : "<idle>");
		jw_int(w, "kernel_prio", f->k.prev_prio);
		jw_str(w, "state", state_str(f->k.prev_state, st));
		jw_bool(w, "idle", f->k.prev_pid == 0);
		jw_obj_end(w);
	} else {
		jw_null(w, "switched_out");
	}
	jw_int(w, "preempted", f->k.preempted);
	jw_int(w, "preempted_ns", f->k.preempted_ns);
	if (f->k.preempted) {
		jw_obj_begin(w, "preempted_by");
		jw_int(w, "pid", f->k.preempt_pid);
		jw_str(w, "comm", f->k.preempt_pid ? f->k.preempt_comm : "<idle>");
		jw_int(w, "kernel_prio", f->k.preempt_prio);
		jw_obj_end(w);
	} else {
		jw_null(w, "preempted_by");
	}
	jw_arr_begin(w, "irqs");
	for (i = 0; i < f->nirqs; i++) {
		jw_obj_begin(w, NULL);
		jw_int(w, "irq", f->irqs[i].irq);
		jw_str(w, "name", f->irqs[i].name);
		jw_uint(w, "count", f->irqs[i].count);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_begin(w, "softirqs");
	for (i = 0; i < NSOFTIRQ; i++)
		if (f->softirqs[i])
			jw_uint(w, tev_softirq_name[i], f->softirqs[i]);
	jw_obj_end(w);
	jw_arr_begin(w, "timers");
	for (i = 0; i < f->ntimers; i++) {
		jw_obj_begin(w, NULL);
		jw_str(w, "function", sym_name(t, f->timers[i].function));
		jw_uint(w, "count", f->timers[i].count);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_arr_begin_inline(w, "tasks_after_wakeup");
	for (i = 0; i < f->nothers; i++)
		jw_str(w, NULL, comm_of(t, f->others[i], c, sizeof(c)));
	jw_arr_end(w);
	jw_uint(w, "events_saved", f->nev);
	jw_obj_end(w);
}

void trace_json(const struct run *r, struct jw *w)
{
	struct trace *t = trace_of(r);
	int i, j;

	if (!t) {
		jw_null(w, "trace");
		return;
	}
	aggregate(t);
	jw_obj_begin(w, "trace");
	jw_str(w, "method", trace_mode(r) == TRACE_TIMERLAT ? "events+timerlat" : "events");
	jw_str(w, "instance", tsrc_instance(t->src));
	jw_str(w, "trace_clock", "mono");
	jw_uint(w, "events_read", tsrc_events(t->src));
	jw_uint(w, "events_lost", t->m.lost);
	jw_int(w, "clock_read_ns", t->clock_cost);
	jw_int(w, "tolerance_ns", t->tol);
	jw_uint(w, "traced", t->why[TM_TRACED]);
	jw_uint(w, "idle_switch_assumed", t->idle_assumed);
	jw_uint(w, "armed_after_deadline", t->armed_late);
	jw_obj_begin(w, "not_traced");
	for (j = 1; j < TM_NWHY; j++)
		jw_uint(w, tm_why_key[j], t->why[j]);
	jw_obj_end(w);
	jw_obj_begin(w, "summary");
	for (j = 0; j < NSER; j++)
		accum_json(w, part_desc[j].name, &t->agg[j], &part_desc[j],
			   NULL, 0);
	jw_obj_end(w);
	jw_arr_begin(w, "threads");
	for (i = 0; i < t->m.n; i++) {
		jw_obj_begin(w, NULL);
		jw_int(w, "id", i);
		jw_int(w, "tid", r->s[i].tid);
		jw_obj_begin(w, "series");
		for (j = 0; j < NSER; j++)
			accum_json(w, part_desc[j].name, &t->acc[i][j],
				   &part_desc[j], NULL, 0);
		jw_obj_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	focus_json(t, w, "worst", &t->worst);
	focus_json(t, w, "break", &t->brk);
	if (t->umax.valid) {
		jw_obj_begin(w, "max_not_traced");
		jw_int(w, "thread", t->umax.sampler);
		jw_uint(w, "cycle", t->umax.s.cycle);
		jw_int(w, "latency_ns", t->umax.latency);
		jw_str(w, "reason", tm_why_key[t->umax_why]);
		jw_obj_end(w);
	} else {
		jw_null(w, "max_not_traced");
	}
	if (t->events_file[0])
		jw_str(w, "events_file", t->events_file);
	else
		jw_null(w, "events_file");
	if (t->tl) {
		jw_arr_begin(w, "timerlat");
		for (i = 0; i < t->ntl; i++) {
			jw_obj_begin(w, NULL);
			jw_int(w, "cpu", t->tl[i].cpu);
			accum_json(w, "irq", &t->tl[i].irq, &tl_desc[0],
				   NULL, 0);
			accum_json(w, "thread", &t->tl[i].thread,
				   &tl_desc[1], NULL, 0);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	} else {
		jw_null(w, "timerlat");
	}
	jw_obj_end(w);
}

#endif /* !TRACE_IN_HELPER */

/* --- the companion (engine.h) ----------------------------------------- */

static const struct optdesc trace_opts[] = {
	{ "trace", 0, optional_argument, "MODE",
	  "from the kernel's trace events (root, tracefs): split every\n"
	  "latency into irq latency, handler to wake-up, wake-up to\n"
	  "running and return to user and analyse the worst sample; noise:\n"
	  "what ran in each gap; irq: split each event at the interrupt\n"
	  "(t1) and the task's wake-up. MODE: events (default) or timerlat (timer\n"
	  "tests: also run the kernel's timerlat tracer as a reference)"
#if !defined(HAVE_TRACEFS) && !defined(RTLAT_TRACE_HELPER)
	  " [not built in]"
#endif
	  , OPT_TRACE },
	OPT_END
};

static int tc_opt(struct companion *c, const struct optdesc *d,
		  const char *arg)
{
	struct trace_state *ts = c->state;

	if (d->key != OPT_TRACE)
		return 1;
	if (!arg || !strcmp(arg, "events"))
		ts->mode = TRACE_EVENTS;
	else if (!strcmp(arg, "timerlat"))
		ts->mode = TRACE_TIMERLAT;
	else
		return opt_bad_value(d, arg, "expected events or timerlat");
#ifdef RTLAT_TRACE_HELPER
	/* libtracefs is in rtlat-trace only (engine/helper.h): it runs in
	 * place of this process, before anything is set up */
	if (!tsrc_built_in()) {
		char err[3 * PATH_MAX + 256];

		helper_exec("rtlat-trace", err, sizeof(err));
		log_error("--trace: %s", err);
		return -1;
	}
#endif
	return 0;
}

#ifdef TRACE_IN_HELPER

static void tc_json(struct companion *c, const struct run *r, struct jw *w)
{
	jw_null(w, "trace");
}

const struct companion_ops trace_companion = {
	.name = "trace",
	.state_size = sizeof(struct trace_state),
	.opts = trace_opts,
	.opt = tc_opt,
	.json = tc_json,
};

#else /* !TRACE_IN_HELPER */

static int tc_check(struct companion *c, const struct run *r, char *err,
		    size_t len)
{
	const struct trace_state *ts = c->state;
	const struct engine_opts *o = r->o;

	if (!ts->mode)
		return 0;
	if (r->test->gap_series || r->test->event_trace) {
		if (ts->mode == TRACE_TIMERLAT) {
			snprintf(err, len, "--trace=timerlat needs a timer test (latency, cyclic): %s has no timer; use --trace",
				 r->test->name);
			return -1;
		}
		if (o->clock != CLOCK_MONOTONIC) {
			snprintf(err, len, "--trace needs --clock monotonic (the trace clock is CLOCK_MONOTONIC)");
			return -1;
		}
		return tsrc_check(false, err, len);
	}
	if (o->json_file && o->gnuplot_file) {
		char ev[PATH_MAX + 16];

		trace_events_path(o->json_file, ev, sizeof(ev));
		if (output_same(ev, o->gnuplot_file)) {
			snprintf(err, len, "-g/--gnuplot '%s' is the file of --trace's raw events beside --json '%s': one would overwrite the other",
				 o->gnuplot_file, o->json_file);
			return -1;
		}
	}
	return trace_check(o, ts->mode, err, len);
}

static bool tc_wants_raw(const struct companion *c)
{
	const struct trace_state *ts = c->state;

	return ts->mode != TRACE_OFF;
}

static int tc_start(struct companion *c, struct run *r, char *err, size_t len)
{
	struct trace_state *ts = c->state;

	if (ts->mode && r->test->gap_series)
		return trace_gap_start(r, &ts->g, err, len);
	if (ts->mode && r->test->event_trace)
		return trace_irq_start(r, &ts->ti, err, len);
	return ts->mode ? trace_start(r, err, len) : 0;
}

static void tc_raw(struct companion *c, struct run *r, int i,
		   const struct rawrec *rec)
{
	struct trace_state *ts = c->state;

	if (ts->g)
		trace_gap_sample(ts->g, i, rec);
	else if (ts->ti)
		trace_irq_sample(ts->ti, i, rec);
	else
		trace_sample(r, i, rec);
}

static void tc_poll(struct companion *c, struct run *r, bool final)
{
	struct trace_state *ts = c->state;

	if (ts->g)
		trace_gap_poll(ts->g, r, final);
	else if (ts->ti)
		trace_irq_poll(ts->ti, r, final);
	else
		trace_poll(r, final);
}

static bool tc_interval_ready(struct companion *c, struct run *r, uint64_t k)
{
	return trace_interval_ready(r, k);
}

static int tc_finish(struct companion *c, struct run *r, char *err,
		     size_t len)
{
	return trace_of(r) ? trace_save(r, err, len) : 0;
}

static void tc_summary(struct companion *c, struct run *r)
{
	struct trace_state *ts = c->state;

	if (ts->g)
		trace_gap_summary(ts->g, r);
	else if (ts->ti)
		trace_irq_summary(ts->ti, r);
	else
		trace_summary(r);
}

static void tc_json(struct companion *c, const struct run *r, struct jw *w)
{
	struct trace_state *ts = c->state;

	if (ts->g)
		trace_gap_json(ts->g, r, w);
	else if (ts->ti)
		trace_irq_json(ts->ti, r, w);
	else
		trace_json(r, w);
}

static const char *tc_banner(struct companion *c, const struct run *r)
{
	return trace_active(r) ? trace_describe(r) : NULL;
}

/* the parts of a line's largest sample, after the line's own columns */
static const char *const tc_heads[TM_NCOMP] = {
	"max irq", "max handler", "max sched", "max return",
};

static int tc_cols(struct companion *c, const struct run *r,
		   const char *const **heads)
{
	if (!trace_active(r))
		return 0;
	*heads = tc_heads;
	return TM_NCOMP;
}

static bool tc_col_values(struct companion *c, struct run *r, int64_t k,
			  int sampler, int64_t max, int64_t *v)
{
	return sampler < -1 ? trace_interval_max(r, (uint64_t)k, max, v) :
	       trace_run_max(r, sampler, max, v);
}

static void tc_release(struct companion *c, struct run *r)
{
	struct trace_state *ts = c->state;

	trace_gap_stop(ts->g);
	ts->g = NULL;
	trace_irq_stop(ts->ti);
	ts->ti = NULL;
	trace_stop(r);
}

const struct companion_ops trace_companion = {
	.name = "trace",
	.state_size = sizeof(struct trace_state),
	.opts = trace_opts,
	.opt = tc_opt,
	.check = tc_check,
	.wants_raw = tc_wants_raw,
	.start = tc_start,
	.raw = tc_raw,
	.poll = tc_poll,
	.interval_ready = tc_interval_ready,
	.finish = tc_finish,
	.summary = tc_summary,
	.json = tc_json,
	.banner = tc_banner,
	.cols = tc_cols,
	.col_values = tc_col_values,
	.release = tc_release,
};

#endif /* !TRACE_IN_HELPER */
