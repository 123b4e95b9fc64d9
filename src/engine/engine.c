// SPDX-License-Identifier: GPL-2.0-or-later
/* The measuring engine; see engine.h for the threads and the accounting. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cobalt.h"
#include "engine/engine.h"
#include "engine/run.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "system/clockcheck.h"
#include "system/rtsetup.h"
#include "system/syscheck.h"
#include "system/sysinfo.h"
#include "util/timeutil.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
/* sanitizer run-times keep large per-thread state on the stack */
#define SAMPLER_STACK		((size_t)8 * 1024 * 1024)
#define DISPLAY_STACK		((size_t)8 * 1024 * 1024)
#else
/* Thread stacks are locked in whole (mlockall): no larger than needed. The
 * sampler's frames are small (no stdio), the display thread formats output. */
#define SAMPLER_STACK		((size_t)32 * 1024)
#define DISPLAY_STACK		((size_t)64 * 1024)
#endif
#define RING_RECORDS		256
#define RAW_RECORDS		(64UL * 1024)
#define DISPLAY_POLL_NS		(20 * NSEC_PER_MSEC)
#define TICK_NS			(100 * NSEC_PER_MSEC)
#define START_LEAD_NS		(5 * NSEC_PER_MSEC)
/* A sampler that has not ended this long after the end of the measurement
 * or after the stop (and at least two of its periods) is starved: a task of
 * higher priority holds its CPU */
#define STARVED_NS		(2 * NSEC_PER_SEC)

const struct optdesc engine_common_opts[] = {
	{ "duration", 'T', required_argument, "TIME",
	  "measure for TIME: 30 (s), 30s, 10m, 2h; 0 = until Ctrl-C (default)", 'T' },
	{ "priority", 'P', required_argument, "PRIO",
	  "real-time priority of the samplers (default 99)", 'P' },
	{ "policy", 0, required_argument, "POLICY",
	  "scheduling policy: fifo (default), rr, other (no -P with it)", OPT_POLICY },
	{ "cpus", 'c', required_argument, "LIST",
	  "CPUs to sample on, one sampler each, e.g. 0 or 0,2-3\n(default: every CPU rtlat may use)", 'c' },
	{ "warmup", 0, required_argument, "TIME",
	  "warm-up excluded from all results (default 1s)", OPT_WARMUP },
	{ "interval", 0, required_argument, "TIME",
	  "length of one interval (RTD line) (default 1s)", OPT_INTERVAL },
	{ "quiet", 'q', no_argument, NULL,
	  "print only the summary", 'q' },
	{ "lines", 'l', required_argument, "N",
	  "data lines per header (default 21; 0 = header once)", 'l' },
	{ "histogram", 'h', no_argument, NULL,
	  "print the histogram (HSH/HSD lines) at the end", 'h' },
	{ "stats", 's', no_argument, NULL,
	  "print statistics (HSH/HSS lines) at the end", 's' },
	{ "hist-bucket", 0, required_argument, "US",
	  "bucket width of the printed histogram (default 1 us)", OPT_HIST_BUCKET },
	{ "hist-size", 0, required_argument, "N",
	  "buckets of the printed histogram (default 1000)", OPT_HIST_SIZE },
	{ "gnuplot", 'g', required_argument, "FILE",
	  "write the histogram (raw counts) for gnuplot to FILE\n"
	  "(-: standard output)", 'g' },
	{ "json", 0, required_argument, "FILE",
	  "write the result as JSON to FILE (see docs/result-schema.md);\n"
	  "- or /dev/stdout: after the text, once", OPT_JSON },
	{ "checkpoint", 0, required_argument, "TIME",
	  "rewrite the JSON result every TIME (default 10s; 0 = at the end)", OPT_CHECKPOINT },
	{ "max-latency", 0, required_argument, "US",
	  "exit with status 2 if a latency exceeded US", OPT_MAXLAT },
	{ "max-msw", 0, required_argument, "N",
	  "Xenomai Cobalt build: exit with status 2 if the samplers\nswitched to secondary mode more than N times (0: any)", OPT_MAX_MSW },
	{ "break", 0, required_argument, "US",
	  "stop at the first latency above US (exit status 2); writes a\ntrace marker and stops tracing if tracefs is mounted", OPT_BREAK },
	{ "no-mlock", 0, no_argument, NULL,
	  "do not lock memory (page faults then show as latency)", OPT_NO_MLOCK },
	{ "no-dma-latency", 0, no_argument, NULL,
	  "leave /dev/cpu_dma_latency alone (default: hold it at 0)", OPT_NO_DMA },
	{ "housekeeping", 0, required_argument, "WHERE",
	  "where rtlat's own threads run (main and display threads,\n"
	  "load command guards): auto (default), on the CPUs no sampler\n"
	  "is on, else on the measured ones (as cyclictest -a);\n"
	  "measured; any (not restricted); or a CPU list", OPT_HOUSEKEEPING },
	{ "headline-fd", 0, required_argument, "FD",
	  "at the end, write the headline figures to file descriptor FD\n"
	  "(key value lines, for rtlat suite; docs/suite.md)", OPT_HEADLINE_FD },
	OPT_END
};

#define OPT_PERIOD_WAIT \
	{ "period", 'p', required_argument, "US", \
	  "sampling period in us, or with a unit: 250us, 1ms (default 100)", 'p' }, \
	{ "wait", 'w', required_argument, "BACKEND", \
	  "how the sampler waits: abs (clock_nanosleep TIMER_ABSTIME,\ndefault), timerfd, posix (timer_create+sigwait), rel\n(relative nanosleep), busy (busy-poll: the floor)", 'w' }

const struct optdesc engine_timer_opts[] = {
	OPT_PERIOD_WAIT,
	{ "clock", 0, required_argument, "CLOCK",
	  "monotonic (default) or realtime", OPT_CLOCK },
	OPT_END
};

const struct optdesc engine_period_opts[] = {
	OPT_PERIOD_WAIT,
	OPT_END
};


void engine_opts_init(struct engine_opts *o, int64_t period_ns, int prio)
{
	memset(o, 0, sizeof(*o));
	o->period_ns = period_ns;
	o->duration_ns = 0;
	o->warmup_ns = NSEC_PER_SEC;
	o->interval_ns = NSEC_PER_SEC;
	o->policy = SCHED_FIFO;
	o->prio = prio;
	o->wait = WAIT_ABS;
	o->clock = CLOCK_MONOTONIC;
	o->mlock = true;
	o->dma_latency = true;
	o->lines_per_header = 21;
	o->hist_bucket_ns = NSEC_PER_USEC;
	o->hist_buckets = 1000;
	o->max_latency_ns = -1;
	o->max_msw = -1;
	o->break_ns = -1;
	o->checkpoint_ns = 10 * NSEC_PER_SEC;
	o->headline_fd = -1;
	o->interval_rows = 4096;
}

static int time_opt(const struct optdesc *d, const char *arg, int64_t unit,
		    int64_t min, int64_t max, int64_t *out, const char *what)
{
	int64_t v;

	if (parse_time_ns(arg, unit, &v) < 0 || v < min || v > max)
		return opt_bad_value(d, arg, what);
	*out = v;
	return 0;
}

int engine_opt(struct engine_opts *o, const struct optdesc *d,
	       const char *arg)
{
	char err[256];
	long long v;

	switch (d->key) {
	case 'T':
		return time_opt(d, arg, NSEC_PER_SEC, 0, DURATION_MAX_NS,
				&o->duration_ns,
				DURATION_HINT ", at least 1 ns (0 = until interrupted)");
	case 'P':
		if (parse_int(arg, 0, 99, &v) < 0)
			return opt_bad_value(d, arg, "expected a priority 0..99 (1..99 for fifo/rr)");
		o->prio = (int)v;
		o->prio_given = true;
		return 0;
	case OPT_POLICY:
		if (policy_parse(arg, &o->policy) < 0)
			return opt_bad_value(d, arg, "expected fifo, rr or other");
		return 0;
	case 'c':
		if (cpulist_parse(arg, &o->cpus, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		o->cpus_given = true;
		snprintf(o->cpus_arg, sizeof(o->cpus_arg), "%s", arg);
		return 0;
	case OPT_WARMUP:
		return time_opt(d, arg, NSEC_PER_SEC, 0, WARMUP_MAX_NS,
				&o->warmup_ns, "expected a time such as 0, 1s, 500ms, at most 1d");
	case OPT_INTERVAL:
		return time_opt(d, arg, NSEC_PER_SEC, 10 * NSEC_PER_MSEC,
				86400 * NSEC_PER_SEC, &o->interval_ns,
				"expected a time from 10ms to 1d, e.g. 1s");
	case 'q':
		o->quiet = true;
		return 0;
	case 'l':
		if (parse_int(arg, 0, 1000000, &v) < 0)
			return opt_bad_value(d, arg, "expected a line count 0..1000000");
		o->lines_per_header = (int)v;
		return 0;
	case 'h':
		o->print_hist = true;
		o->linear_hist = true;
		return 0;
	case 's':
		o->print_stats = true;
		return 0;
	case OPT_HIST_BUCKET:
		o->linear_hist = true;
		return time_opt(d, arg, NSEC_PER_USEC, 1, NSEC_PER_SEC,
				&o->hist_bucket_ns,
				"expected a bucket width in us (or with unit, e.g. 500ns), 1ns..1s");
	case OPT_HIST_SIZE:
		if (parse_int(arg, 1, 1000000, &v) < 0)
			return opt_bad_value(d, arg, "expected a bucket count 1..1000000");
		o->hist_buckets = (long)v;
		o->linear_hist = true;
		return 0;
	case 'g':
		o->gnuplot_file = arg;
		o->linear_hist = true;
		return 0;
	case OPT_JSON:
		o->json_file = arg;
		return 0;
	case OPT_CHECKPOINT:
		return time_opt(d, arg, NSEC_PER_SEC, 0, 86400 * NSEC_PER_SEC,
				&o->checkpoint_ns,
				"expected a time such as 10, 10s, 1m (0 = only at the end)");
	case OPT_MAXLAT:
		return time_opt(d, arg, NSEC_PER_USEC, 0, 3600 * NSEC_PER_SEC,
				&o->max_latency_ns,
				"expected a latency in us (or with unit, e.g. 1ms), at most 1h");
	case OPT_MAX_MSW:
		return engine_max_msw_opt(o, d, arg);
	case OPT_BREAK:
		return time_opt(d, arg, NSEC_PER_USEC, 0, 3600 * NSEC_PER_SEC,
				&o->break_ns,
				"expected a latency in us (or with unit, e.g. 1ms), at most 1h");
	case OPT_NO_MLOCK:
		o->mlock = false;
		return 0;
	case OPT_HEADLINE_FD:
		if (parse_int(arg, 0, 1 << 20, &v) < 0 ||
		    fcntl((int)v, F_GETFD) < 0)
			return opt_bad_value(d, arg, "expected an open file descriptor");
		o->headline_fd = (int)v;
		return 0;
	case OPT_NO_DMA:
		o->dma_latency = false;
		return 0;
	case OPT_HOUSEKEEPING:
		if (hk_parse(&o->hk, arg, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		return 0;
	case 'p':
		return time_opt(d, arg, NSEC_PER_USEC, NSEC_PER_USEC,
				10 * NSEC_PER_SEC, &o->period_ns,
				"expected a period in us from 1 to 10000000, or with a unit (250us, 1ms)");
	case 'w':
		if (wait_backend_parse(arg, &o->wait) < 0)
			return opt_bad_value(d, arg, "expected abs, timerfd, posix, rel or busy");
		return 0;
	case OPT_CLOCK:
		if (!strcmp(arg, "monotonic"))
			o->clock = CLOCK_MONOTONIC;
		else if (!strcmp(arg, "realtime"))
			o->clock = CLOCK_REALTIME;
		else
			return opt_bad_value(d, arg, "expected monotonic or realtime");
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------------- */

int engine_max_msw_opt(struct engine_opts *o, const struct optdesc *d,
		       const char *arg)
{
	long long v;

	if (!cobalt_build())
		return opt_bad_value(d, arg, "this rtlat is not built for Xenomai Cobalt (make XENO_CONFIG=.../xeno-config): its samplers are Linux threads, which have no mode switches");
	if (parse_int(arg, 0, INT32_MAX, &v) < 0)
		return opt_bad_value(d, arg, "expected a count from 0 to 2147483647");
	o->max_msw = v;
	return 0;
}

void engine_warn(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char *w;

	if (r->nwarnings >= RTLAT_MAX_WARNINGS)
		return;
	w = r->warnings[r->nwarnings++];
	va_start(ap, fmt);
	vsnprintf(w, sizeof(r->warnings[0]), fmt, ap);
	va_end(ap);
	log_warn("%s", w);
}

/* A new figure @name (NULL: a value of a list) of kind @kind in the
 * innermost open list or item, or NULL (out of memory: none from then
 * on). */
static struct test_param *fig_add(struct test_figs *f, const char *name,
				  enum fig_kind kind, char *value)
{
	struct test_param *p;

	if (f->oom || !value)
		goto oom;
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 16;

		p = realloc(f->p, (size_t)cap * sizeof(*p));
		if (!p)
			goto oom;
		f->p = p;
		f->cap = cap;
	}
	p = &f->p[f->n++];
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name ? name : "");
	p->kind = kind;
	p->value = value;
	p->parent = f->open;
	return p;
oom:
	free(value);
	f->oom = true;
	return NULL;
}

void fig_num(struct test_figs *f, const char *name, const char *fmt, ...)
{
	char *v = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	fig_add(f, name, FIG_AUTO, v);
}

void fig_str(struct test_figs *f, const char *name, const char *v)
{
	fig_add(f, name, FIG_STRING, strdup(v ? v : ""));
}

void fig_bool(struct test_figs *f, const char *name, bool v)
{
	fig_add(f, name, FIG_BOOL, strdup(v ? "true" : "false"));
}

void fig_null(struct test_figs *f, const char *name)
{
	fig_add(f, name, FIG_NULL, strdup(""));
}

/* The last figure, if it is in the innermost open list or item. */
static struct test_param *fig_last(struct test_figs *f)
{
	if (f->oom || !f->n || f->p[f->n - 1].parent != f->open)
		return NULL;
	return &f->p[f->n - 1];
}

void fig_text(struct test_figs *f, const char *fmt, ...)
{
	struct test_param *p = fig_last(f);
	va_list ap;

	if (!p)
		return;
	free(p->text);
	va_start(ap, fmt);
	if (vasprintf(&p->text, fmt, ap) < 0)
		p->text = NULL;
	va_end(ap);
}

void fig_headline(struct test_figs *f)
{
	struct test_param *p = fig_last(f);

	if (p && p->parent < 0)
		p->headline = true;
}

void fig_said(struct test_figs *f)
{
	struct test_param *p = fig_last(f);

	if (p)
		p->said = true;
}

void fig_list(struct test_figs *f, const char *name, bool one_line)
{
	struct test_param *p = fig_add(f, name, FIG_LIST, strdup(""));

	if (!p)
		return;
	p->one_line = one_line;
	f->open = f->n - 1;
}

/* The innermost open list, or -1. */
static int fig_open_list(const struct test_figs *f)
{
	int i = f->open;

	if (i >= 0 && f->p[i].kind == FIG_ITEM)
		i = f->p[i].parent;
	return i;
}

void fig_item(struct test_figs *f)
{
	int list = fig_open_list(f);

	if (list < 0 || f->oom)
		return;
	f->open = list;
	if (fig_add(f, NULL, FIG_ITEM, strdup("")))
		f->open = f->n - 1;
}

void fig_end(struct test_figs *f)
{
	int list = fig_open_list(f);

	if (list >= 0)
		f->open = f->p[list].parent;
}

void fig_json(struct test_figs *f, const char *name,
	      void (*json)(const struct run *r, struct jw *w, const char *key,
			   const void *ctx),
	      const void *ctx)
{
	struct test_param *p = fig_add(f, name, FIG_JSON, strdup(""));

	if (p) {
		p->json = json;
		p->ctx = ctx;
	}
}

void figs_free(struct test_figs *f)
{
	int i;

	for (i = 0; i < f->n; i++) {
		free(f->p[i].value);
		free(f->p[i].text);
	}
	free(f->p);
	memset(f, 0, sizeof(*f));
	f->open = -1;
}

void headline_put(FILE *f, const char *key, const char *v)
{
	fprintf(f, "%s ", key);
	for (; *v; v++)
		fputc(*v == '\n' || *v == '\r' ? ' ' : *v, f);
	fputc('\n', f);
}

void engine_error(struct run *r, const char *msg)
{
	if (r->error[0])
		engine_warn(r, "%s", msg);
	else
		snprintf(r->error, sizeof(r->error), "%s", msg);
	r->stop_reason = STOP_ERROR;
}

int companion_init(struct companion *c, const struct companion_ops *ops)
{
	c->ops = ops;
	c->state = calloc(1, ops->state_size ? ops->state_size : 1);
	if (!c->state)
		return -ENOMEM;
	if (ops->init)
		ops->init(c);
	return 0;
}

void companion_free(struct companion *c)
{
	free(c->state);
	c->state = NULL;
}

void *engine_companion(const struct run *r, const struct companion_ops *ops)
{
	int i;

	for (i = 0; i < r->ncomp; i++)
		if (r->comp[i].ops == ops)
			return r->comp[i].state;
	return NULL;
}

#define for_each_companion(r, c) \
	for ((c) = (r)->comp; (c) < (r)->comp + (r)->ncomp; (c)++)

static bool companions_want_raw(const struct run *r)
{
	const struct companion *c;

	for_each_companion(r, c)
		if (c->ops->wants_raw && c->ops->wants_raw(c))
			return true;
	return false;
}

struct sampler *engine_add_sampler(struct run *r, int cpu, int policy,
				   int prio, int nseries,
				   const struct series_desc *const *desc)
{
	struct sampler *s, *ns;
	int i, j;

	if (nseries < 0 || nseries > RTLAT_MAX_SERIES)
		return NULL;
	ns = realloc(r->s, (size_t)(r->nsamplers + 1) * sizeof(*r->s));
	if (!ns) {
		log_error("out of memory");
		return NULL;
	}
	r->s = ns;
	s = &r->s[r->nsamplers];
	memset(s, 0, sizeof(*s));
	s->id = r->nsamplers;
	s->cpu = cpu;
	s->policy = policy;
	s->prio = prio;
	s->period_ns = r->o->period_ns;
	s->nseries = nseries;
	s->cpu_now = -1;
	for (i = 0; i < nseries; i++) {
		s->series[i].desc = desc[i];
		for (j = 0; j < r->nnames; j++)
			if (!strcmp(r->names[j].desc->name, desc[i]->name))
				break;
		if (j == r->nnames) {
			if (r->nnames == RTLAT_MAX_SERIES) {
				log_error("too many series names");
				return NULL;
			}
			r->names[r->nnames++].desc = desc[i];
		}
		s->name_idx[i] = j;
	}
	r->nsamplers++;
	return s;
}

/* ---------------------------------------------------------------------- */
/* Sampler side */

/* Push the open interval record, handing the active accumulator over if the
 * display has given the other one back. */
static void sampler_push(struct sampler *s)
{
	int a = s->active, b = a ^ 1;
	bool flip = !atomic_load_explicit(&s->delta_busy[b],
					  memory_order_acquire);

	s->cur.cycles = s->cycles;
	s->cur.delta = flip ? a : -1;
	if (flip)
		atomic_store_explicit(&s->delta_busy[a], 1,
				      memory_order_relaxed);
	if (ring_push(&s->ring, &s->cur)) {
		if (flip)
			s->active = b;
	} else if (flip) {
		/* not handed over: keep accumulating into it */
		atomic_store_explicit(&s->delta_busy[a], 0,
				      memory_order_relaxed);
	}
	s->cur_open = false;
}

void sampler_roll(struct sampler *s, uint64_t idx)
{
	const struct run *r = s->run;

	if (s->cur_open)
		sampler_push(s);
	memset(&s->cur, 0, sizeof(s->cur));
	s->cur.index = idx;
	s->cur_open = true;
	s->cur_end = r->t_measure + (int64_t)(idx + 1) * r->o->interval_ns;
}

void sampler_close(struct sampler *s, int64_t next)
{
	const struct run *r = s->run;
	uint64_t w = next > r->t_measure ?
		(uint64_t)(next - r->t_measure) / (uint64_t)r->o->interval_ns : 0;

	if (s->cur_open)
		sampler_push(s);
	/* after the push: the display reads the watermark, then the ring */
	if (w > s->watermark_full) {
		s->watermark_full = w;
		atomic_store_explicit(&s->watermark, (unsigned long)w,
				      memory_order_release);
	}
}

/* Decimal digits of @v into @buf (no stdio in the sampler). */
static size_t put_i64(char *buf, int64_t v)
{
	char tmp[24];
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	size_t n = 0, i = 0;

	do {
		tmp[n++] = (char)('0' + m % 10);
		m /= 10;
	} while (m);
	if (v < 0)
		buf[i++] = '-';
	while (n)
		buf[i++] = tmp[--n];
	return i;
}

void sampler_break(struct sampler *s, int k, int64_t v)
{
	struct run *r = s->run;
	static const char head[] = "rtlat: break: latency ";
	char msg[96];
	size_t n;

	if (atomic_exchange(&r->brk_hit, 1))
		return;
	r->brk_sampler = s->id;
	r->brk_series = k;
	r->brk_value = v;
	r->brk_cycle = s->cycles - 1;
	/* The measurement is over: these writes no longer disturb it. */
	if (r->eng->trace_marker_fd >= 0) {
		memcpy(msg, head, sizeof(head) - 1);
		n = sizeof(head) - 1;
		n += put_i64(msg + n, v);
		memcpy(msg + n, " ns\n", 4);
		n += 4;
		if (write(r->eng->trace_marker_fd, msg, n) < 0) {
			/* nothing to do: tracing is best effort */
		}
	}
	if (r->eng->tracing_on_fd >= 0 && write(r->eng->tracing_on_fd, "0", 1) < 0) {
		/* best effort */
	}
	atomic_store(&r->stop, 1);
}

void sampler_overrun_span(struct sampler *s, int k, uint64_t n, int64_t t,
			  int64_t period)
{
	while (n) {
		uint64_t c = n;

		(void)sampler_acc(s, k, t);	/* opens @t's interval */
		/* keep one record free for the interval after the span */
		if (period > 0 && t < s->cur_end && ring_room(&s->ring) > 2) {
			uint64_t fit = (uint64_t)((s->cur_end - t + period - 1) /
						  period);

			if (fit < c)
				c = fit;
		}
		sampler_overrun(s, k, c, t);
		n -= c;
		t += (int64_t)c * period;
	}
}

/* The first deadline @period apart from *@d inside the measurement, into
 * *@d, when @now has passed it (true); false when @now has not, or when
 * there is none before the end. */
static bool late_into_measurement(const struct run *r, int64_t *d,
				  int64_t now, int64_t period)
{
	int64_t first = *d + (r->t_measure - *d + period - 1) / period * period;

	if (first >= r->t_end || now < first)
		return false;
	*d = first;
	return true;
}

int64_t run_now(const struct run *r)
{
	/* CLOCK_REALTIME may be stepped: the run's scale is kept by
	 * CLOCK_MONOTONIC from the start of the measurement on */
	if (r->o->clock == CLOCK_REALTIME && r->mono_start_ns)
		return clock_now_ns(CLOCK_MONOTONIC) - r->mono_start_ns +
		       r->t_measure;
	return clock_now_ns(r->o->clock);
}

/* A pinned sampler woke on another CPU: said to the main thread once. */
static __attribute__((noinline, cold)) void sampler_moved(struct sampler *s,
							   int cpu, int64_t d)
{
	if (atomic_load_explicit(&s->moved_to, memory_order_relaxed))
		return;
	s->moved_at = d;
	atomic_store_explicit(&s->moved_to, cpu + 1, memory_order_release);
}

bool sampler_timer_wake(struct sampler *s, int k, const struct wake *wk,
			int64_t period, int64_t next)
{
	const struct run *r = s->run;
	struct wake w0;
	int64_t d;
	uint64_t n;

	if (wk->shift) {
		/* CLOCK_REALTIME was stepped: the deadlines and the wake-up
		 * on the run's own scale (t_measure, t_end, intervals) */
		w0 = *wk;
		w0.deadline -= wk->shift;
		w0.now -= wk->shift;
		next -= wk->shift;
		wk = &w0;
	}
	if (wk->steps) {
		s->clock_steps += wk->steps;
		if (llabs(wk->step) > llabs(s->clock_step_max))
			s->clock_step_max = wk->step;
	}
	d = wk->deadline;
	if (d >= r->t_end)
		return true;
	/* its CPU at each wake-up (rseq or the vDSO: no system call) */
	if (s->cpu >= 0) {
		int cpu = sched_getcpu();

		if (__builtin_expect(cpu != s->cpu && cpu >= 0, 0))
			sampler_moved(s, cpu, d);
	}
	if (wk->step_late) {
		/* late because the clock was stepped: its lateness is the
		 * step's, not the system's; left out with the deadlines it
		 * missed, counted */
		if (d >= r->t_measure)
			s->step_left_out++;
		s->step_left_out += wake_missed_inside(wk, period, r->t_measure,
						       r->t_end);
		if (!s->cur_open || next >= s->cur_end)
			sampler_close(s, next);
		return next >= r->t_end;
	}
	n = wake_missed_inside(wk, period, r->t_measure, r->t_end);
	if (d >= r->t_measure) {
		sampler_add(s, k, wk->now - d, d);
		s->wakeups++;
		/* a wake-up late by a piece of the throttling budget */
		if (__builtin_expect(s->thr.piece_ns &&
				     wk->now - d >= s->thr.piece_ns, 0))
			rt_throttle_see(&s->thr, d, wk->now - d, n);
	}
	if (d < r->t_measure && n) {
		/* A wake-up late from the warm-up into the measurement: its
		 * first deadline inside the measurement is a sample with its
		 * own lateness (else the stall would show only as overruns,
		 * its size lost); the deadlines after it are overruns. */
		d += (r->t_measure - d + period - 1) / period * period;
		sampler_add(s, k, wk->now - d, d);
		s->wakeups++;
		n--;
	} else if (d < r->t_measure && !period && s->period_ns > 0 &&
		   late_into_measurement(r, &d, wk->now, s->period_ns)) {
		/* No grid (rel): a wait due in the warm-up that ended in the
		 * measurement is the sample of the deadline it would have had
		 * there, one period after another from its own; else a stall
		 * across the whole measurement left no sample at all, and a
		 * run without its worst case ended as complete. */
		sampler_add(s, k, wk->now - d, d);
		s->wakeups++;
	}
	/* -l LOOPS: the periods counted stop at exactly LOOPS */
	if (r->o->max_cycles)
		n = s->cycles >= r->o->max_cycles ? 0 :
		    (n < r->o->max_cycles - s->cycles ? n :
		     r->o->max_cycles - s->cycles);
	/* the missed deadlines: d + period on (d is inside the measurement
	 * when there are any) */
	if (n)
		sampler_overrun_span(s, k, n, d + period, period);
	if ((r->o->max_cycles && s->cycles >= r->o->max_cycles) ||
	    (r->o->max_wakeups && s->wakeups >= r->o->max_wakeups) ||
	    next >= r->t_end)
		return true;
	/* the next wake-up accounts into a later interval: hand this one
	 * over now rather than after the wait (long periods) */
	if (!s->cur_open || next >= s->cur_end)
		sampler_close(s, next);
	return false;
}

int engine_stop_signal(void)
{
	return SIGRTMIN + 1;
}

static void kick_handler(int sig)
{
	(void)sig;
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	struct run *r = s->run;
	struct sched_param sp;
	struct cpuset allowed;
	sigset_t set;
	int e;

	s->tid = gettid();
	if (s->cpu >= 0) {
		e = thread_pin(s->cpu);
		if (e) {
			s->err = e;
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "cannot pin sampler %d to CPU %d: %s", s->id,
				 s->cpu, strerror(-e));
			goto out;
		}
	} else if ((e = hk_restore(&r->o->hk)) < 0) {
		/* not pinned: where rtlat started, not the housekeeping CPUs */
		s->err = e;
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "cannot give sampler %d the CPUs rtlat started with: %s",
			 s->id, strerror(-e));
		goto out;
	}
	stack_prefault(SAMPLER_STACK / 2);
	if (pthread_getschedparam(pthread_self(), &s->policy_now, &sp) == 0)
		s->prio_now = sp.sched_priority;
	s->cpu_now = sched_getcpu();
	if (cpus_allowed(&allowed) == 0)
		cpulist_format(&allowed, s->allowed_now, sizeof(s->allowed_now));
	sigemptyset(&set);
	sigaddset(&set, engine_stop_signal());
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	if (r->test->prepare) {
		e = r->test->prepare(s);
		if (e < 0) {
			s->err = e;
			if (!s->errmsg[0])
				snprintf(s->errmsg, sizeof(s->errmsg),
					 "sampler %d failed to prepare: %s",
					 s->id, strerror(-e));
			goto out;
		}
	}

	atomic_store(&s->state, SAMPLER_READY);
	/* before sampling: waiting on a lock here costs nothing */
	pthread_mutex_lock(&r->eng->gate_lock);
	while (!atomic_load(&r->eng->start) && !atomic_load(&r->stop))
		pthread_cond_wait(&r->eng->gate_cond, &r->eng->gate_lock);
	pthread_mutex_unlock(&r->eng->gate_lock);
	if (!atomic_load(&r->stop)) {
		e = r->test->body(s);
		if (e < 0) {
			s->err = e;
			if (!s->errmsg[0])
				snprintf(s->errmsg, sizeof(s->errmsg),
					 "sampler %d failed: %s", s->id,
					 strerror(-e));
			/* one failed sampler ends the run */
			atomic_store(&r->stop, 1);
		}
	}
out:
	sampler_finish(s);
	return NULL;
}

void sampler_finish(struct sampler *s)
{
	/* last interval: the display merges what was not handed over */
	if (s->cur_open) {
		s->cur.cycles = s->cycles;
		s->cur.delta = -1;
		ring_push(&s->ring, &s->cur);
		s->cur_open = false;
	}
	atomic_store_explicit(&s->state, SAMPLER_DONE, memory_order_release);
}

/* ---------------------------------------------------------------------- */
/* Display side */

/* Merge accumulator @b of sampler @s into the totals and give it back. */
static void take_delta(struct run *r, struct sampler *s, int b)
{
	int j;

	for (j = 0; j < s->nseries; j++) {
		accum_merge(&r->total[s->id][j], &s->series[j].delta[b]);
		accum_reset(&s->series[j].delta[b]);
	}
	atomic_store_explicit(&s->delta_busy[b], 0, memory_order_release);
}

/* Process every interval whose records are all in. @final: samplers are
 * joined, take everything. */
static bool companions_ready(struct run *r, uint64_t k)
{
	struct companion *c;

	for_each_companion(r, c)
		if (c->ops->interval_ready && !c->ops->interval_ready(c, r, k))
			return false;
	return true;
}

void engine_drain(struct run *r, bool final)
{
	const struct winrec **thr = r->eng->thr;
	struct window agg[RTLAT_MAX_SERIES];
	int i, j;

	for (;;) {
		uint64_t k = UINT64_MAX, wait_below = UINT64_MAX;
		bool any = false;

		for (i = 0; i < r->nsamplers; i++) {
			struct sampler *s = &r->s[i];
			/* watermark and state before the ring (see
			 * sampler_close() and sampler_main()) */
			unsigned long raw = atomic_load_explicit(&s->watermark,
						memory_order_acquire);
			/* widen relative to our position (wraps on 32-bit) */
			uint64_t wm = r->next_k +
				(uint64_t)(int64_t)(long)(raw - (unsigned long)r->next_k);
			int st = atomic_load_explicit(&s->state,
						      memory_order_acquire);
			const struct winrec *rec = ring_peek(&s->ring);

			if (!s->nseries)	/* measures nothing: no records */
				continue;
			if (rec) {
				any = true;
				if (rec->index < k)
					k = rec->index;
			} else if (st != SAMPLER_DONE && !final &&
				   wm < wait_below) {
				/* may still push a record of an interval
				 * at or above its watermark */
				wait_below = wm;
			}
		}
		if (!any || k >= wait_below)
			break;
		/* --trace: wait until every sample of @k is broken down */
		if (!final && !companions_ready(r, k))
			break;
		memset(agg, 0, sizeof(agg));
		for (i = 0; i < r->nsamplers; i++) {
			struct sampler *s = &r->s[i];
			const struct winrec *rec = ring_peek(&s->ring);

			thr[i] = NULL;
			if (!rec || rec->index != k)
				continue;
			thr[i] = rec;
			if (rec->delta >= 0)
				take_delta(r, s, rec->delta);
			for (j = 0; j < s->nseries; j++) {
				window_merge(&agg[s->name_idx[j]], &rec->w[j]);
				ivstore_add(&r->iv[i][j], k, &rec->w[j]);
			}
		}
		for (j = 0; j < r->nnames; j++) {
			struct series_name *nm = &r->names[j];

			if (agg[j].n) {
				stats_add(&nm->min_st, agg[j].min);
				stats_add(&nm->max_st, agg[j].max);
				if (!nm->any || agg[j].min < nm->best)
					nm->best = agg[j].min;
				if (!nm->any || agg[j].max > nm->worst)
					nm->worst = agg[j].max;
				nm->any = true;
			}
			nm->overruns += agg[j].overruns;
			ivstore_add(&nm->iv, k, &agg[j]);
		}
		if (r->test->out->interval)
			r->test->out->interval(r, k, agg, thr);
		for (i = 0; i < r->nsamplers; i++)
			if (thr[i])
				ring_pop(&r->s[i].ring);
		r->next_k = k + 1;
	}
	if (final) {
		/* what the samplers did not hand over */
		for (i = 0; i < r->nsamplers; i++) {
			struct sampler *s = &r->s[i];

			for (j = 0; j < 2; j++)
				if (!atomic_load(&s->delta_busy[j]))
					take_delta(r, s, j);
		}
	}
}

void engine_drain_raw(struct run *r)
{
	const struct rawrec *rec;
	struct companion *c;
	int i;

	for (i = 0; i < r->nsamplers; i++) {
		if (!r->s[i].raw.buf)
			continue;
		while ((rec = ring_peek(&r->s[i].raw))) {
			if (r->o->raw_samples && r->test->out->raw)
				r->test->out->raw(r, i, rec);
			for_each_companion(r, c)
				if (c->ops->raw)
					c->ops->raw(c, r, i, rec);
			ring_pop(&r->s[i].raw);
		}
	}
}

/* Merge the per-sampler totals into the per-name aggregates. */
void engine_aggregate(struct run *r)
{
	int i, j;

	for (j = 0; j < r->nnames; j++)
		if (r->names[j].agg_of)
			r->names[j].agg = *r->names[j].agg_of;
		else
			accum_reset(&r->names[j].agg);
	for (i = 0; i < r->nsamplers; i++)
		for (j = 0; j < r->s[i].nseries; j++)
			if (!r->names[r->s[i].name_idx[j]].agg_of)
				accum_merge(&r->names[r->s[i].name_idx[j]].agg,
					    &r->total[i][j]);
}

/* The series of name @j when only one sampler series has that name, else
 * NULL. */
static struct accum *name_only_series(struct run *r, int j)
{
	struct accum *one = NULL;
	int i, k;

	for (i = 0; i < r->nsamplers; i++)
		for (k = 0; k < r->s[i].nseries; k++)
			if (r->s[i].name_idx[k] == j) {
				if (one)
					return NULL;
				one = &r->total[i][k];
			}
	return one;
}

/* The result status of a finished run (docs/result-schema.md). */
static const char *run_status(const struct run *r)
{
	switch (r->stop_reason) {
	case STOP_SIGNAL: return "interrupted";
	case STOP_BREAK: return "break";
	case STOP_ERROR: return "error";
	default: return r->exit_code == 1 ? "error" : "complete";
	}
}

static int write_result(struct run *r, const char *status)
{
	char err[320];

	if (!r->o->json_file || !r->eng->result)
		return 0;
	engine_aggregate(r);
	if (r->eng->result->write(r, r->o->json_file, status, err,
			     sizeof(err)) < 0) {
		snprintf(r->error, sizeof(r->error), "--json: %s", err);
		return -1;
	}
	return 0;
}

/* Close /dev/cpu_dma_latency: the kernel drops the constraint. */
static void dma_release(struct run *r)
{
	if (r->eng->dma_fd >= 0)
		close(r->eng->dma_fd);
	r->eng->dma_fd = -1;
}

void engine_snapshot(struct run *r)
{
	char t[32], mn[32], av[32], mx[32];
	int i;

	engine_aggregate(r);
	fprintf(stderr, "# snapshot at %s of the measurement, intervals closed so far (us):\n",
		fmt_hms(t, run_actual_ns(r)));
	for (i = 0; i < r->nnames; i++) {
		const struct accum *a = &r->names[i].agg;
		double mean;

		if (!a->st.n) {
			fprintf(stderr, "#   %s: no sample yet, %" PRIu64 " %s\n",
				r->names[i].desc->name, a->overruns,
				r->names[i].desc->miss_name ?
				r->names[i].desc->miss_name : "overruns");
			continue;
		}
		stats_mean(&a->st, &mean);
		fprintf(stderr, "#   %s: %" PRIu64 " samples, min %s, avg %s, max %s, %" PRIu64 " %s\n",
			r->names[i].desc->name, a->st.n, fmt_us3(mn, a->st.min),
			fmt_us3(av, (int64_t)mean), fmt_us3(mx, a->st.max),
			a->overruns, r->names[i].desc->miss_name ?
			r->names[i].desc->miss_name : "overruns");
	}
}

/* The mode-switch counter of watched thread @i: a sampler, then the
 * test's extra threads. */
static struct msw_count *msw_of(struct run *r, int i)
{
	return i < r->nsamplers ? &r->s[i].msw : &r->msw_extra[i - r->nsamplers];
}

static void msw_base(struct run *r, int i, uint64_t v)
{
	msw_of(r, i)->base = v;
}

/* Thread @i's counter now reads @v: the switches since the base, kept as
 * the largest read; the first one's time noted. */
static void msw_seen(struct run *r, int i, uint64_t v)
{
	struct msw_count *m = msw_of(r, i);
	uint64_t d = v > m->base ? v - m->base : 0, old = atomic_load(&m->n);

	if (d && !old)
		atomic_store(&m->seen_ns, run_now(r) - r->t_measure);
	while (d > old && !atomic_compare_exchange_weak(&m->n, &old, d))
		;
}

/*
 * Cobalt build: read the mode switches (cobalt_msw()) of the samplers and
 * of the threads the test adds (test_desc.msw_tids: a forked partner).
 * @base: the counts before the start (the samplers wait at the gate),
 * else the switches since then, kept as the largest read (the display
 * reads while running, the main thread once at the end of the
 * measurement). Returns true when every thread was found.
 */
static bool msw_read(struct run *r, bool base)
{
	int i, n = r->nsamplers, nx = 0;
	pid_t *tids;
	uint64_t *v;
	bool *found, all = false;

	if (!cobalt_build() || n <= 0 || (!base && !r->eng->msw_based))
		return false;
	tids = calloc((size_t)n + RTLAT_MSW_EXTRA, sizeof(*tids));
	v = calloc((size_t)n + RTLAT_MSW_EXTRA, sizeof(*v));
	found = calloc((size_t)n + RTLAT_MSW_EXTRA, sizeof(*found));
	if (tids && v && found) {
		for (i = 0; i < n; i++)
			tids[i] = r->s[i].tid;
		if (r->test->msw_tids)
			nx = r->test->msw_tids(r, tids + n, RTLAT_MSW_EXTRA);
		all = cobalt_msw(tids, n + nx, v, found) == n + nx;
		if (base) {
			for (i = 0; i < n + nx; i++)
				msw_base(r, i, v[i]);
			r->msw_nextra = nx;
			r->eng->msw_based = r->msw_known = all;
		} else {
			for (i = 0; i < n + r->msw_nextra && i < n + nx; i++)
				if (found[i])
					msw_seen(r, i, v[i]);
			/* a partner that came after the gate: its count
			 * when first seen is its base */
			for (i = n + r->msw_nextra; i < n + nx && found[i]; i++) {
				msw_base(r, i, v[i]);
				r->msw_nextra++;
			}
		}
	}
	free(tids);
	free(v);
	free(found);
	return all;
}

uint64_t engine_msw_total(const struct run *r)
{
	uint64_t t = 0, n;
	int i;

	for (i = 0; i < r->nsamplers + r->msw_nextra; i++) {
		n = atomic_load(&msw_of((struct run *)r, i)->n);
		t = t + n < t ? UINT64_MAX : t + n;	/* saturates */
	}
	return t;
}

static void *display_main(void *arg)
{
	struct run *r = arg;
	int64_t next_tick = clock_now_ns(CLOCK_MONOTONIC);
	struct companion *c;

	for (;;) {
		bool stopping = atomic_load(&r->eng->display_stop);
		int64_t now;

		engine_drain_raw(r);
		for_each_companion(r, c)
			if (c->ops->poll)
				c->ops->poll(c, r, stopping);
		engine_drain(r, stopping);
		/* one snapshot per SIGUSR1/SIGUSR2 taken, also those taken
		 * just before the end */
		while (atomic_load(&r->eng->snapshot_req) > 0) {
			atomic_fetch_sub(&r->eng->snapshot_req, 1);
			if (r->test->out->snapshot)
				r->test->out->snapshot(r);
			else
				engine_snapshot(r);
		}
		if (stopping)
			break;
		now = clock_now_ns(CLOCK_MONOTONIC);
		if (now >= next_tick) {
			if (!atomic_load(&r->eng->msw_final))
				msw_read(r, false);
			if (r->test->out->tick)
				r->test->out->tick(r);
			next_tick = now + TICK_NS;
		}
		if (r->o->json_file && r->o->checkpoint_ns > 0 &&
		    now - r->eng->last_checkpoint >= r->o->checkpoint_ns) {
			r->eng->last_checkpoint = now;
			/* a failed checkpoint (a full disk) does not end the
			 * measurement: said once, tried again at the next one
			 * and at the end */
			if (write_result(r, "running") < 0) {
				if (!r->eng->checkpoint_failed)
					log_warn("checkpoint not written, the measurement goes on (tried again every --checkpoint and at the end): %s",
						 r->error);
				r->eng->checkpoint_failed = true;
				r->error[0] = '\0';
			} else if (r->eng->checkpoint_failed) {
				log_note("checkpoint written again");
				r->eng->checkpoint_failed = false;
			}
		}
		{
			struct timespec ts = ns_to_ts(DISPLAY_POLL_NS);

			nanosleep(&ts, NULL);
		}
	}
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Main side */

/*
 * The end of the measurement (@wall, @mono, taken when the main thread
 * stopped the run) moved to the last time a spinning sampler accounted:
 * it spins on to its next check of the stop, and what it measured until
 * then is in its figures. After a --break, also back to it: the sampler
 * that hit the break stopped there, and the main thread notices the
 * break up to a poll (50 ms) later; nothing was measured meanwhile.
 */
static void measured_end(const struct run *r, int64_t *wall, int64_t *mono)
{
	int64_t last = 0, m;
	int i;

	for (i = 0; i < r->nsamplers; i++)
		if (r->s[i].measured_end > last)
			last = r->s[i].measured_end;
	if (!last || last <= r->t_measure)
		return;
	m = r->mono_start_ns + (last - r->t_measure);
	if (m > *mono || r->stop_reason == STOP_BREAK) {
		*wall += m - *mono;
		*mono = m;
	}
}

int64_t run_actual_ns(const struct run *r)
{
	int64_t end, d;

	if (!r->mono_start_ns)
		return 0;
	end = r->mono_end_ns ? r->mono_end_ns : clock_now_ns(CLOCK_MONOTONIC);
	d = end - r->mono_start_ns;
	return d > 0 ? d : 0;
}

void run_report_outcome(struct run *r)
{
	char a[32], b[32];
	int i;

	if (atomic_load(&r->brk_hit)) {
		const struct sampler *s = &r->s[r->brk_sampler];

		log_warn("break: %s %s us > %s us on CPU %d (sampler %d, tid %d) at cycle %llu",
			 s->series[r->brk_series].desc->name,
			 fmt_us3(a, r->brk_value), fmt_us3(b, r->o->break_ns),
			 s->cpu >= 0 ? s->cpu : s->cpu_now, s->id, (int)s->tid,
			 (unsigned long long)r->brk_cycle);
	}
	for (i = 0; i < r->nnames && r->o->max_latency_ns >= 0; i++) {
		const struct accum *x = &r->names[i].agg;

		if (r->names[i].desc->threshold && x->st.n &&
		    x->st.max > r->o->max_latency_ns)
			log_warn("%s max %s us exceeded --max-latency %s us",
				 r->names[i].desc->name, fmt_us3(a, x->st.max),
				 fmt_us3(b, r->o->max_latency_ns));
	}
	if (r->stop_reason == STOP_SIGNAL)
		log_note("stopped by %s", strsignal(r->stop_signal));
}

static void open_trace_fds(struct run *r)
{
	static const char *const roots[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char p[128];
	size_t i;

	r->eng->trace_marker_fd = r->eng->tracing_on_fd = -1;
	if (r->o->break_ns < 0)
		return;
	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(p, sizeof(p), "%s/trace_marker", roots[i]);
		r->eng->trace_marker_fd = open(p, O_WRONLY | O_CLOEXEC);
		if (r->eng->trace_marker_fd < 0)
			continue;
		snprintf(p, sizeof(p), "%s/tracing_on", roots[i]);
		r->eng->tracing_on_fd = open(p, O_WRONLY | O_CLOEXEC);
		return;
	}
}

int engine_alloc(struct run *r)
{
	int i, j, e;

	if (!r->eng) {		/* a run not made by engine_run() */
		r->eng = calloc(1, sizeof(*r->eng));
		if (!r->eng)
			return -ENOMEM;
		r->eng->owned = true;
		r->eng->trace_marker_fd = r->eng->tracing_on_fd = -1;
		r->eng->dma_fd = -1;
	}
	r->total = calloc((size_t)r->nsamplers, sizeof(*r->total));
	r->iv = calloc((size_t)r->nsamplers, sizeof(*r->iv));
	r->eng->thr = calloc((size_t)r->nsamplers, sizeof(const struct winrec *));
	if (!r->total || !r->iv || !r->eng->thr)
		return -ENOMEM;
	for (j = 0; j < r->nnames; j++) {
		/* one sampler series of this name (one thread): its total is
		 * the aggregate, 61 KiB of histogram less to lock */
		r->names[j].agg_of = name_only_series(r, j);
		if (!r->names[j].agg_of) {
			e = accum_init(&r->names[j].agg, r->o);
			if (e)
				return e;
		}
		if (r->o->interval_rows) {
			e = ivstore_init(&r->names[j].iv, r->o->interval_rows);
			if (e)
				return e;
		}
	}
	for (i = 0; i < r->nsamplers; i++) {
		struct sampler *s = &r->s[i];

		s->run = r;
		for (j = 0; j < s->nseries; j++) {
			e = accum_init_handover(&s->series[j].delta[0], r->o);
			if (!e)
				e = accum_init_handover(&s->series[j].delta[1],
							r->o);
			if (!e)
				e = accum_init(&r->total[i][j], r->o);
			if (!e && r->o->interval_rows)
				e = ivstore_init(&r->iv[i][j],
						 r->o->interval_rows);
			if (e)
				return e;
			if (r->o->linear_hist && r->o->overflow_cycles) {
				uint64_t *c = calloc(r->o->overflow_cycles,
						     sizeof(*c));

				if (!c)
					return -ENOMEM;
				/* fault the pages in before the samples */
				memset(c, 0, r->o->overflow_cycles * sizeof(*c));
				s->series[j].ovf_cycles = c;
			}
		}
		/* records carry the sampler's series only */
		e = ring_init(&s->ring, offsetof(struct winrec, w) +
			      (size_t)s->nseries * sizeof(struct window),
			      RING_RECORDS);
		if (e)
			return e;
		if (r->o->raw_samples || companions_want_raw(r)) {
			e = ring_init(&s->raw, sizeof(struct rawrec), RAW_RECORDS);
			if (e)
				return e;
		}
	}
	for (j = 0; j < r->nnames; j++)
		if (r->names[j].agg_of)
			r->names[j].agg = *r->names[j].agg_of;
	return 0;
}

void engine_free(struct run *r)
{
	int i, j;

	for (i = 0; i < r->nsamplers; i++) {
		struct sampler *s = &r->s[i];

		for (j = 0; j < s->nseries; j++) {
			accum_free(&s->series[j].delta[0]);
			accum_free(&s->series[j].delta[1]);
			if (r->total)
				accum_free(&r->total[i][j]);
			if (r->iv)
				ivstore_free(&r->iv[i][j]);
			free(s->series[j].ovf_cycles);
			s->series[j].ovf_cycles = NULL;
		}
		ring_free(&s->ring);
		ring_free(&s->raw);
	}
	for (j = 0; j < r->nnames; j++) {
		if (!r->names[j].agg_of)
			accum_free(&r->names[j].agg);
		r->names[j].agg_of = NULL;
		ivstore_free(&r->names[j].iv);
	}
	free(r->total);
	free(r->iv);
	if (r->eng) {
		free(r->eng->thr);
		r->eng->thr = NULL;
		if (r->eng->owned) {
			free(r->eng);
			r->eng = NULL;
		}
	}
	free(r->s);
	r->sys = NULL;		/* engine_run()'s */
	r->check = NULL;
}

/* A thread at @policy/@prio; @on_linux: a Linux thread also in a Cobalt
 * build (cobalt.h), else (the samplers) a Cobalt one there. */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg,
			int policy, int prio, size_t stack, bool on_linux)
{
	pthread_attr_t attr;
	struct sched_param sp;
	int e;

	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = prio;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, stack);
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, policy);
	pthread_attr_setschedparam(&attr, &sp);
#ifdef RTLAT_COBALT
	e = on_linux ? RTLAT_STD(pthread_create)(t, &attr, fn, arg) :
		    pthread_create(t, &attr, fn, arg);
#else
	(void)on_linux;
	e = pthread_create(t, &attr, fn, arg);
#endif
	pthread_attr_destroy(&attr);
	return e;
}

/*
 * test_desc.spins: the display and the main thread must not run in (nor
 * wake up on) the time the samplers measure. The --housekeeping policy
 * places them (auto: off the measured CPUs when there are others); when
 * it lets them onto a measured CPU (every CPU measured, or a policy
 * given that allows it), that is said, not overridden.
 */
static void warn_helpers_on_measured(struct run *r)
{
	const struct housekeeping *h = &r->o->hk;
	struct cpuset both;
	char cpus[128];
	int i;

	cpuset_zero(&both);
	for (i = 0; i < r->nsamplers; i++)
		if (r->s[i].cpu >= 0 && cpuset_isset(&h->cpus, r->s[i].cpu))
			cpuset_set(&both, r->s[i].cpu);
	if (cpuset_count(&both))
		engine_warn(r, "the display and main threads may run on the measured CPU %s (--housekeeping %s): their work shows in the measurement",
			    cpulist_format(&both, cpus, sizeof(cpus)), h->why);
}

/* Set @flag (start or stop) and wake the samplers waiting at the gate. */
static void gate_set(struct run *r, _Atomic int *flag)
{
	pthread_mutex_lock(&r->eng->gate_lock);
	atomic_store(flag, 1);
	pthread_cond_broadcast(&r->eng->gate_cond);
	pthread_mutex_unlock(&r->eng->gate_lock);
}

static int64_t starved_ns(const struct run *r)
{
	return r->o->period_ns > STARVED_NS / 2 ? 2 * r->o->period_ns :
	       STARVED_NS;
}

/* "sampler 0 (CPU 1, tid 1234)" */
static const char *sampler_who(const struct sampler *s, char *buf,
			       size_t len)
{
	snprintf(buf, len, "sampler %d (CPU %d, tid %d)", s->id,
		 s->cpu >= 0 ? s->cpu : s->cpu_now, (int)s->tid);
	return buf;
}

/*
 * A sampler that does not stop gets no CPU: a task of higher priority
 * holds it (a runaway real-time task). It cannot even end, so a signal
 * would never end rtlat: it runs on as SCHED_OTHER, on the main thread's
 * CPUs, just to end (said).
 */
static void unstarve(struct run *r, struct sampler *s)
{
	struct sched_param sp = { 0 };
	cpu_set_t cs;
	char who[64];

	engine_warn(r, "%s did not stop %.0f s after the stop: it got no CPU (a task of higher priority holds it); made SCHED_OTHER to let it end",
		    sampler_who(s, who, sizeof(who)),
		    (double)starved_ns(r) / NSEC_PER_SEC);
	sched_setscheduler(s->tid, SCHED_OTHER, &sp);
	if (sched_getaffinity(0, sizeof(cs), &cs) == 0)
		sched_setaffinity(s->tid, sizeof(cs), &cs);
}

/* Wake samplers blocked in a wait until they are all done; one that gets
 * no CPU is let end (unstarve). */
static void stop_samplers(struct run *r)
{
	int64_t t0 = clock_now_ns(CLOCK_MONOTONIC);
	bool unstarved = false;
	int i, pending;

	gate_set(r, &r->stop);
	do {
		struct timespec ts = { 0, 10 * 1000000L };
		bool starved = !unstarved &&
			       clock_now_ns(CLOCK_MONOTONIC) - t0 >= starved_ns(r);

		pending = 0;
		for (i = 0; i < r->nsamplers; i++) {
			struct sampler *s = &r->s[i];

			if (!s->created || atomic_load(&s->state) == SAMPLER_DONE)
				continue;
			pending++;
			if (starved)
				unstarve(r, s);
			pthread_kill(s->thread, engine_stop_signal());
		}
		unstarved = unstarved || starved;
		if (pending)
			nanosleep(&ts, NULL);
	} while (pending);
	for (i = 0; i < r->nsamplers; i++) {
		if (r->s[i].created)
			pthread_join(r->s[i].thread, NULL);
		r->s[i].created = false;
	}
}

static bool all_done(struct run *r)
{
	int i;

	for (i = 0; i < r->nsamplers; i++)
		if (atomic_load(&r->s[i].state) != SAMPLER_DONE)
			return false;
	return true;
}

static int first_sampler_error(struct run *r)
{
	int i;

	for (i = 0; i < r->nsamplers; i++) {
		if (r->s[i].err) {
			snprintf(r->error, sizeof(r->error), "%s", r->s[i].errmsg);
			return -1;
		}
	}
	return 0;
}

static bool all_ready_or_done(struct run *r)
{
	int i;

	for (i = 0; i < r->nsamplers; i++)
		if (atomic_load(&r->s[i].state) == SAMPLER_INIT)
			return false;
	return true;
}

int engine_setup_per_cpu(struct run *r, int nseries,
			 const struct series_desc *const *desc)
{
	int c;

	for (c = cpuset_next(&r->o->cpus, 0); c >= 0;
	     c = cpuset_next(&r->o->cpus, c + 1))
		if (!engine_add_sampler(r, c, r->o->policy, r->o->prio,
					nseries, desc))
			return -1;
	return 0;
}

/*
 * engine_run() in phases; each returns 0 or -1 (the run fails: exit status
 * 1) and leaves what it set up in @r for the one release path, which
 * undoes whatever was reached (r->eng->reached, engine/run.h).
 */
enum run_reached {
	RUN_NOTHING,		/* options not yet valid */
	RUN_VALID,		/* checked; test set-up may have failed */
	RUN_SET_UP,		/* samplers laid out: a headline is owed */
	RUN_STARTED,		/* threads may be running */
	RUN_FINISHED,		/* stopped, summarised, files written */
};

static void run_init(struct run *r, struct run_engine *eng,
		     const struct test_desc *t, struct engine_opts *o,
		     const struct engine_env *env)
{
	memset(r, 0, sizeof(*r));
	memset(eng, 0, sizeof(*eng));
	r->eng = eng;
	r->test = t;
	r->o = o;
	r->argc = env->argc;
	r->argv = env->argv;
	r->comp = env->comp;
	r->ncomp = env->ncomp;
	r->eng->result = env->result;
	r->priv = env->priv;
	r->eng->trace_marker_fd = r->eng->tracing_on_fd = -1;
	r->eng->dma_fd = -1;
	r->t_end = INT64_MAX;
	pthread_mutex_init(&r->eng->gate_lock, NULL);
	pthread_cond_init(&r->eng->gate_cond, NULL);
	log_set_quiet(o->quiet);
}

/* Validate: the checks that need no privilege, before anything is
 * touched. */
static int run_validate(struct run *r)
{
	struct engine_opts *o = r->o;
	struct companion *c;
	char msg[512];

	if (!o->cpus_given) {
		struct cpuset on, al;
		int cpu;

		cpus_online(&on);
		if (cpus_allowed(&al) < 0)
			al = on;
		cpuset_zero(&o->cpus);
		for (cpu = 0; cpu < RTLAT_MAX_CPUS; cpu++)
			if (cpuset_isset(&on, cpu) && cpuset_isset(&al, cpu))
				cpuset_set(&o->cpus, cpu);
	}
	if (cpus_check(&o->cpus, msg, sizeof(msg)) < 0) {
		log_error("%s", msg);
		return -1;
	}
	/* a priority that cannot apply is refused, not dropped */
	if (o->policy == SCHED_OTHER && o->prio_given && o->prio != 0) {
		log_error("-P/--priority %d: --policy other has no real-time priority (leave -P out, or give fifo or rr)",
			  o->prio);
		return -1;
	}
	if (sched_check_range(o->policy, o->policy == SCHED_OTHER ? 0 : o->prio,
			      msg, sizeof(msg)) < 0) {
		log_error("%s", msg);
		return -1;
	}
	if (o->json_file &&
	    result_check_writable(o->json_file, msg, sizeof(msg)) < 0) {
		log_error("--json: %s", msg);
		return -1;
	}
	if (o->gnuplot_file &&
	    result_check_writable(o->gnuplot_file, msg, sizeof(msg)) < 0) {
		log_error("-g/--gnuplot: %s", msg);
		return -1;
	}
	/* one file for two outputs: one would overwrite the other */
	if ((o->json_file &&
	     output_claim("--json", o->json_file, msg, sizeof(msg)) < 0) ||
	    (o->gnuplot_file &&
	     output_claim("-g/--gnuplot", o->gnuplot_file, msg,
			  sizeof(msg)) < 0)) {
		log_error("%s", msg);
		return -1;
	}
	/* a FIFO or a device gets the result once, at the end */
	if (o->json_file && output_is_special(o->json_file))
		o->checkpoint_ns = 0;
	for_each_companion(r, c)
		if (c->ops->check && c->ops->check(c, r, msg, sizeof(msg)) < 0) {
			log_error("%s", msg);
			return -1;
		}
	if (o->period_ns > 0 && o->interval_ns < o->period_ns) {
		log_error("--interval (%lld ns) is shorter than the period (%lld ns)",
			  (long long)o->interval_ns, (long long)o->period_ns);
		return -1;
	}
	r->eng->reached = RUN_VALID;
	return 0;
}

/* A failure of the run: logged, and kept for the result and headline. */
static int run_fail(struct run *r, const char *msg)
{
	log_error("%s", msg);
	snprintf(r->error, sizeof(r->error), "%s", msg);
	return -1;
}

/* Prepare: the test's set-up, warnings, the privilege probe, memory,
 * companions that start before the memory lock, the lock itself,
 * cpu_dma_latency, and the result file of the configuration. */
/* Where the threads that do not sample run (engine/housekeeping.h), from
 * the CPUs the samplers are pinned to. Returns 0 or -1 with @msg. */
static int housekeeping_plan(struct run *r, char *msg, size_t len)
{
	struct cpuset measured;
	bool unpinned = false;
	int i;

	cpuset_zero(&measured);
	for (i = 0; i < r->nsamplers; i++) {
		if (r->s[i].cpu < 0)
			unpinned = true;
		else
			cpuset_set(&measured, r->s[i].cpu);
	}
	return hk_plan(&r->o->hk, &measured, unpinned, msg, len);
}

static int run_prepare(struct run *r, struct sysdesc *sys,
		       struct check_report *check)
{
	const struct test_desc *t = r->test;
	struct engine_opts *o = r->o;
	struct companion *c;
	struct sigaction sa;
	char msg[512];
	int i;

	if (t->setup(r) < 0 || r->nsamplers == 0)
		return -1;
	r->eng->reached = RUN_SET_UP;
	if (housekeeping_plan(r, msg, sizeof(msg)) < 0)
		return run_fail(r, msg);
	/* RT throttling stops real-time tasks only: said when a sampler is
	 * one (not for --policy other) */
	msg[0] = '\0';
	for (i = 0; i < r->nsamplers; i++)
		if (r->s[i].policy != SCHED_OTHER) {
			if (!msg[0])
				rt_throttling_check(msg, sizeof(msg));
			rt_throttle_read(&r->eng->rt_thr,
					 r->s[i].cpu >= 0 ? r->s[i].cpu : 0);
			rt_throttle_seen_init(&r->s[i].thr,
					      r->eng->rt_thr.budget_ns);
		}
	if (msg[0])
		engine_warn(r, "%s", msg);
	clock_res_check(o->clock, &r->clock_res_ns, msg, sizeof(msg));
	if (msg[0])
		engine_warn(r, "%s", msg);
	{
		int64_t adv;
		char cm[256];

		if (clock_verify(o->clock, &adv, cm, sizeof(cm)) < 0) {
			snprintf(msg, sizeof(msg),
				 "clock fault: %s: not fit to measure with", cm);
			return run_fail(r, msg);
		}
	}
	if (o->clock == CLOCK_REALTIME)
		engine_warn(r, "CLOCK_REALTIME can be stepped (NTP, date): a step moves the deadlines with it, the wake-up it made late is left out (clock_steps in the result)");
	if (!o->mlock)
		engine_warn(r, "memory not locked (--no-mlock): page faults show as latency");

	/* privilege probe: never fall back silently */
	for (i = 0; i < r->nsamplers; i++) {
		if (r->s[i].policy == SCHED_OTHER)
			continue;
		if (sched_probe(r->s[i].policy, r->s[i].prio, msg, sizeof(msg)) < 0)
			return run_fail(r, msg);
		break;
	}
	/* the system description, read once before anything runs */
	r->sys = sys;
	sysdesc_read(r->sys, "/");
	/* the conditions of the measurement: rtlat check's findings */
	r->check = check;
	syscheck_run(r->check, "/", 0);
	if (engine_alloc(r) < 0) {
		log_error("out of memory");
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kick_handler;
	sigemptyset(&sa.sa_mask);
	sigaction(engine_stop_signal(), &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* companions that fork (the loads) start here, before the warm-up,
	 * while this process has one thread, and before mlockall() */
	for_each_companion(r, c)
		if (c->ops->start_early &&
		    c->ops->start_early(c, r, msg, sizeof(msg)) < 0)
			return run_fail(r, msg);
	/* the loads have their workers: from here this thread, and the
	 * display it starts, run on the housekeeping CPUs */
	i = hk_apply(&o->hk);
	if (i < 0) {
		char cpus[128];

		snprintf(msg, sizeof(msg), "cannot move rtlat's own threads to CPU %s: %s",
			 cpulist_format(&o->hk.cpus, cpus, sizeof(cpus)),
			 strerror(-i));
		return run_fail(r, msg);
	}
	if (o->mlock && memory_lock(msg, sizeof(msg)) < 0)
		return run_fail(r, msg);
	if (o->dma_latency) {
		r->eng->dma_fd = dma_latency_hold(msg, sizeof(msg));
		if (r->eng->dma_fd < 0)
			log_note("%s", msg);
		r->dma_held = r->eng->dma_fd >= 0;
	}
	open_trace_fds(r);
	r->eng->reached = RUN_STARTED;	/* from here a failure ends as a run */

	/* result file exists from the start: the configuration, no samples */
	if (o->json_file && !output_is_special(o->json_file) &&
	    write_result(r, "running") < 0) {
		log_error("%s", r->error);
		return -1;
	}
	r->eng->last_checkpoint = clock_now_ns(CLOCK_MONOTONIC);
	return 0;
}


/* Start: the sampler threads (their set-up and test_desc.prepare), the
 * companions that need their thread ids, the time grid, the display
 * thread, and the gate. */
static int run_start(struct run *r, const sigset_t *sigs)
{
	const struct test_desc *t = r->test;
	struct engine_opts *o = r->o;
	struct companion *c;
	char msg[512];
	int i, e, sig;

	for (i = 0; i < r->nsamplers; i++) {
		struct sampler *s = &r->s[i];

		e = start_thread(&s->thread, sampler_main, s, s->policy,
				 s->policy == SCHED_OTHER ? 0 : s->prio,
				 SAMPLER_STACK, false);
		if (e) {
			sched_explain(s->policy, s->prio, e, msg, sizeof(msg));
			log_error("%s", msg);
			return -1;
		}
		s->created = true;
	}
	/* wait until every sampler is set up (or failed); test_desc.prepare
	 * may take long: a signal meanwhile stops the samplers (one starved
	 * before it was set up too) and ends the run as at any other moment */
	while (!all_ready_or_done(r)) {
		struct timespec ts = { 0, 1000000 };
		siginfo_t si;

		sig = sigtimedwait(sigs, &si, &ts);
		if (is_stop_signal(sig) && !r->stop_reason) {
			r->stop_reason = STOP_SIGNAL;
			r->stop_signal = sig;
			stop_samplers(r);
		}
		/* during a long set-up (cruncher's calibration): printed
		 * once the display runs */
		if (sig == SIGUSR1 || sig == SIGUSR2)
			atomic_fetch_add(&r->eng->snapshot_req, 1);
	}
	if (first_sampler_error(r) < 0) {
		log_error("%s", r->error);
		return -1;
	}
	/* thread ids known, nothing measured yet */
	for_each_companion(r, c)
		if (c->ops->start && c->ops->start(c, r, msg, sizeof(msg)) < 0) {
			log_error("%s", msg);
			return -1;
		}

	r->t0 = clock_now_ns(o->clock) + START_LEAD_NS;
	if (o->period_ns > 0)
		r->t_measure = r->t0 + (o->warmup_ns + o->period_ns - 1) /
				       o->period_ns * o->period_ns;
	else
		r->t_measure = r->t0 + o->warmup_ns;
	if (o->duration_ns > 0)
		r->t_end = r->t_measure + o->duration_ns;
	r->wall_start_ns = clock_now_ns(CLOCK_REALTIME) +
			   (r->t_measure - clock_now_ns(o->clock));
	r->mono_start_ns = clock_now_ns(CLOCK_MONOTONIC) +
			   (r->t_measure - clock_now_ns(o->clock));

	r->eng->rt_off = clock_rt_offset();
	msw_read(r, true);	/* the samplers wait at the gate */
	if (t->out->start)
		t->out->start(r);
	e = start_thread(&r->eng->display, display_main, r, SCHED_OTHER, 0,
			 DISPLAY_STACK, true);
	if (e) {
		log_error("cannot start the display thread: %s", strerror(e));
		return -1;
	}
	r->eng->display_started = true;
	if (t->spins)
		warn_helpers_on_measured(r);
	if (o->warmup_ns > 0 && !o->quiet && !r->stop_reason)
		fprintf(stderr, "warming up...\n");
	gate_set(r, &r->eng->start);
	return 0;
}

/* The measurement is over, a sampler has not ended: it got no CPU. An
 * error (its latency is not known there, and no less than that), not a
 * run that never ends. */
static bool starved_error(struct run *r)
{
	char who[64], msg[256];
	int i;

	for (i = 0; i < r->nsamplers; i++)
		if (atomic_load(&r->s[i].state) != SAMPLER_DONE)
			break;
	if (i == r->nsamplers)
		return false;
	snprintf(msg, sizeof(msg), "%s did not end %.0f s after the end of the measurement: it got no CPU (a task of higher priority holds it), its latency there is not measured",
		 sampler_who(&r->s[i], who, sizeof(who)),
		 (double)starved_ns(r) / NSEC_PER_SEC);
	engine_error(r, msg);
	return true;
}

/* Wait for the end, a signal, a break or an error; then stop the
 * samplers and the display thread. */
/* A pinned sampler no longer allowed on its CPU alone (the CPU went offline
 * and the kernel broke the affinity, which stays broken when the CPU comes
 * back; or someone changed it): it no longer measures that CPU. An error
 * naming the sampler, when and where it may now run (true); the samples
 * taken until then are kept. */
static bool cpu_lost(struct run *r)
{
	struct cpuset cs;
	char b[32];
	int i;

	for (i = 0; i < r->nsamplers; i++) {
		struct sampler *s = &r->s[i];

		int moved;

		if (s->cpu < 0 || !s->created || s->tid <= 0)
			continue;
		moved = atomic_load_explicit(&s->moved_to,
					     memory_order_acquire);
		if (moved) {
			s->cpu_lost = true;
			s->cpu_lost_at = s->moved_at - r->t_measure;
			snprintf(s->allowed_at_loss, sizeof(s->allowed_at_loss),
				 "%d", moved - 1);
			snprintf(r->error, sizeof(r->error),
				 "sampler %d woke on CPU %d instead of CPU %d at %s s %s the measurement (its affinity was changed, even for a moment): that wake-up did not measure CPU %d; the samples taken until then are kept (threads[].cpu_lost_at_ns)",
				 s->id, moved - 1, s->cpu,
				 fmt_us3(b, llabs(s->cpu_lost_at) / 1000000),
				 s->cpu_lost_at < 0 ? "before" : "into",
				 s->cpu);
			return true;
		}
		if (atomic_load(&s->state) == SAMPLER_DONE ||
		    thread_cpus_allowed(s->tid, &cs) < 0)
			continue;
		if (cpuset_count(&cs) == 1 && cpuset_isset(&cs, s->cpu))
			continue;
		s->cpu_lost = true;
		s->cpu_lost_at = run_now(r) - r->t_measure;
		cpulist_format(&cs, s->allowed_at_loss,
			       sizeof(s->allowed_at_loss));
		snprintf(r->error, sizeof(r->error),
			 "sampler %d lost CPU %d %s s %s the measurement (the CPU went offline, or its affinity was changed: it may now run on %s): it no longer measures CPU %d; the samples taken until then are kept (threads[].cpu_lost_at_ns)",
			 s->id, s->cpu,
			 fmt_us3(b, llabs(s->cpu_lost_at) / 1000000),
			 s->cpu_lost_at < 0 ? "before" : "into",
			 s->allowed_at_loss[0] ? s->allowed_at_loss : "none",
			 s->cpu);
		return true;
	}
	return false;
}

/* --clock realtime: CLOCK_REALTIME stepped since the last look? Every
 * sampler is woken (its wait moves its grid, engine/wait.h): a backward
 * step would leave a sleep on CLOCK_REALTIME asleep for as long as the
 * step, a forward one wakes it in the kernel already. */
static void kick_on_step(struct run *r)
{
	int64_t off = clock_rt_offset(), d = off - r->eng->rt_off;
	int i;

	if (d <= CLOCK_STEP_NS && d >= -CLOCK_STEP_NS)
		return;
	r->eng->rt_off = off;
	for (i = 0; i < r->nsamplers; i++)
		if (r->s[i].created &&
		    atomic_load(&r->s[i].state) != SAMPLER_DONE)
			pthread_kill(r->s[i].thread, engine_stop_signal());
}

static void run_wait(struct run *r, const sigset_t *sigs)
{
	struct engine_opts *o = r->o;
	struct companion *c;
	int64_t wall_end, mono_end;
	bool late_signal = false;
	int sig;

	while (r->stop_reason != STOP_SIGNAL) {
		struct timespec ts = { 0, 50 * 1000000L };
		siginfo_t si;

		sig = sigtimedwait(sigs, &si, &ts);
		if (is_stop_signal(sig) && !late_signal &&
		    r->t_end != INT64_MAX &&
		    run_now(r) >= r->t_end) {
			/* the measurement is over already (the samplers are
			 * accounting their last wake-ups): a complete run;
			 * a second signal does not wait for them */
			late_signal = true;
			continue;
		}
		if (is_stop_signal(sig)) {
			r->stop_reason = STOP_SIGNAL;
			r->stop_signal = sig;
			break;
		}
		if (sig == SIGUSR1 || sig == SIGUSR2)
			atomic_fetch_add(&r->eng->snapshot_req, 1);	/* display */
		if (atomic_load(&r->brk_hit)) {
			r->stop_reason = STOP_BREAK;
			break;
		}
		if (atomic_load(&r->stop)) {
			if (!r->stop_reason)
				r->stop_reason = STOP_ERROR;
			break;
		}
		if (all_done(r)) {
			r->stop_reason = first_sampler_error(r) < 0 ?
					 STOP_ERROR : STOP_END;
			break;
		}
		if (r->t_end != INT64_MAX &&
		    run_now(r) - r->t_end >= starved_ns(r) &&
		    starved_error(r))
			break;
		for_each_companion(r, c)	/* a load process that died */
			if (c->ops->tick)
				c->ops->tick(c, r);
		if (o->clock == CLOCK_REALTIME)
			kick_on_step(r);
		if (cpu_lost(r)) {
			r->stop_reason = STOP_ERROR;
			break;
		}
	}
	/* a sampler that woke on another CPU just before it ended */
	if (r->stop_reason == STOP_END && cpu_lost(r))
		r->stop_reason = STOP_ERROR;
	/* the measurement ends now, not when the samplers have noticed */
	wall_end = clock_now_ns(CLOCK_REALTIME);
	mono_end = clock_now_ns(CLOCK_MONOTONIC);
	/* the mode switches of the measurement, before the stop's own; a
	 * count that cannot be read at the end is not known */
	atomic_store(&r->eng->msw_final, 1);
	if (r->msw_known && !msw_read(r, false))
		r->msw_lost = true;
	stop_samplers(r);
	/* nothing measures any more: give the CPUs' idle states back before
	 * anything may wait (a FIFO output for its reader) */
	dma_release(r);
	atomic_store(&r->eng->display_stop, 1);
	RTLAT_STD(pthread_join)(r->eng->display, NULL);
	r->eng->display_started = false;
	if (r->eng->display_failed)
		r->stop_reason = STOP_ERROR;
	measured_end(r, &wall_end, &mono_end);
	r->wall_end_ns = wall_end;
	r->mono_end_ns = mono_end;
	if (r->mono_start_ns > mono_end) {
		/* stopped before the measurement began (in the warm-up or
		 * before it): nothing measured, start = end, never after */
		r->mono_start_ns = mono_end;
		r->wall_start_ns = wall_end;
	}
	if (r->t_end != INT64_MAX &&
	    (r->stop_reason == STOP_END ||
	     r->mono_end_ns > r->mono_start_ns + o->duration_ns)) {
		/* the measurement ended with the last deadline, not when the
		 * main thread noticed (nor after a second waiting for a
		 * stopped partner) */
		r->mono_end_ns = r->mono_start_ns + o->duration_ns;
		r->wall_end_ns = r->wall_start_ns + o->duration_ns;
	}
}

/* Finish: companions stop, the outcome and exit status, the summary, the
 * files. */
/* Cobalt build: the mode-switch count of the run settled before the
 * summary: more than --max-msw fails the threshold (exit 2), a count not
 * known fails the check of --max-msw (exit 1). */
static void msw_settle(struct run *r)
{
	if (!cobalt_build())
		return;
	if (r->msw_lost)
		r->msw_known = false;
	r->eng->msw_total = r->msw_known ? engine_msw_total(r) : 0;
	if (r->o->max_msw < 0)
		return;
	if (!r->msw_known)
		r->eng->msw_unchecked = true;
	else if (r->eng->msw_total > (uint64_t)r->o->max_msw)
		r->threshold_exceeded = true;
}

/* The warnings of msw_settle(), after the summary (a live display, cyclic's,
 * redraws its lines over what came before it). */
static void msw_warn(struct run *r)
{
	int i;

	if (!cobalt_build())
		return;
	if (!r->msw_known)
		engine_warn(r, "mode switches not known: %s",
			    r->msw_lost ? "the Cobalt core's thread statistics (/proc/xenomai/sched/stat) could not be read at the end of the measurement" :
			    "the Cobalt core's thread statistics (/proc/xenomai/sched/stat) do not list the samplers");
	for (i = 0; r->msw_known && i < r->nsamplers + r->msw_nextra; i++) {
		struct msw_count *m = msw_of(r, i);
		uint64_t n = atomic_load(&m->n);
		int64_t at = atomic_load(&m->seen_ns);
		char who[96], when[48];

		if (!n)
			continue;
		if (i < r->nsamplers) {
			sampler_who(&r->s[i], who, sizeof(who));
		} else {
			snprintf(who, sizeof(who), "%s",
				 r->msw_extra[i - r->nsamplers].name);
		}
		if (at < 0)
			snprintf(when, sizeof(when), "the first in the warm-up");
		else
			fmt_hms(when + snprintf(when, sizeof(when),
						"the first seen at "), at);
		engine_warn(r, "%s switched to secondary mode %llu time%s (%s): it called Linux (see docs/xenomai.md)",
			    who, (unsigned long long)n, n == 1 ? "" : "s", when);
	}
	if (r->eng->msw_unchecked)
		log_error("--max-msw %lld cannot be checked: the mode switches are not known",
			  (long long)r->o->max_msw);
	else if (r->o->max_msw >= 0 && r->eng->msw_total > (uint64_t)r->o->max_msw)
		log_warn("mode switches: %llu in the measurement exceeded --max-msw %lld",
			 (unsigned long long)r->eng->msw_total,
			 (long long)r->o->max_msw);
}

/* CLOCK_REALTIME stepped during the run: said once for the run. */
static void steps_warn(struct run *r)
{
	uint64_t steps = 0, left = 0;
	int64_t big = 0;
	char b[32];
	int i;

	for (i = 0; i < r->nsamplers; i++) {
		const struct sampler *s = &r->s[i];

		steps = s->clock_steps > steps ? s->clock_steps : steps;
		left += s->step_left_out;
		if (llabs(s->clock_step_max) > llabs(big))
			big = s->clock_step_max;
	}
	if (!steps)
		return;
	/* seconds, or us below one (a step of 77 us is no "0.000 s") */
	engine_warn(r, "CLOCK_REALTIME was stepped %llu time%s in the run (the largest by %s%s %s): the deadlines moved with it; %llu wake-up%s made late by a step left out of the figures (threads[].clock_steps, step_left_out)",
		    (unsigned long long)steps, steps == 1 ? "" : "s",
		    big > 0 ? "+" : "",
		    fmt_us3(b, llabs(big) >= NSEC_PER_SEC ? big / 1000000 : big),
		    llabs(big) >= NSEC_PER_SEC ? "s" : "us",
		    (unsigned long long)left, left == 1 ? "" : "s");
}

/*
 * Periods missed: 1 % or more of a series' periods make its max that of
 * a starved task (said as rtlat suite's report says it); the late
 * wake-ups RT throttling made, and their overruns, said as such.
 */
static void starved_warn(struct run *r)
{
	uint64_t per = 0, miss = 0, late = 0;
	int64_t ns = 0, period = 0;
	const char *mn;
	char b[32], c[32], d[32];
	int i;

	for (i = 0; i < r->nsamplers; i++) {
		rt_throttle_close(&r->s[i].thr);
		per += r->s[i].thr.periods;
		miss += r->s[i].thr.misses;
		late += r->s[i].thr.gaps;
		ns += r->s[i].thr.time_ns;
		if (r->s[i].period_ns > period)
			period = r->s[i].period_ns;
	}
	if (per && period > 0)
		engine_warn(r, "RT throttling: %llu overrun%s in %llu throttled period%s (%llu late wake-up%s, %s us); up to %s of every %s: %s",
			    (unsigned long long)miss, miss == 1 ? "" : "s",
			    (unsigned long long)per, per == 1 ? "" : "s",
			    (unsigned long long)late, late == 1 ? "" : "s",
			    fmt_us3(b, ns),
			    fmt_time(c, r->eng->rt_thr.budget_ns),
			    fmt_time(d, r->eng->rt_thr.period_ns),
			    r->eng->rt_thr.source);
	for (i = 0; period > 0 && i < r->nnames; i++) {
		const struct accum *a = &r->names[i].agg;
		uint64_t all = a->st.n + a->overruns;

		mn = r->names[i].desc->miss_name;
		if (mn && strcmp(mn, "overruns") != 0)
			continue;	/* lost events, not periods */
		if (!all || a->overruns * 100 < all)
			continue;
		engine_warn(r, "%s: %.1f %% of the periods were missed (%llu of %llu): the max is that of a starved task, not a latency%s",
			    r->names[i].desc->name,
			    100.0 * (double)a->overruns / (double)all,
			    (unsigned long long)a->overruns,
			    (unsigned long long)all,
			    miss ? " (RT throttling: see above)" : "");
	}
}

static void run_finish(struct run *r)
{
	const struct test_desc *t = r->test;
	struct engine_opts *o = r->o;
	struct companion *c;
	char msg[512];
	int i;

	for_each_companion(r, c)
		if (c->ops->stop)
			c->ops->stop(c, r);
	if (r->stop_reason == STOP_ERROR && !r->error[0])
		first_sampler_error(r);
	if (r->stop_reason == STOP_ERROR && r->error[0])
		log_error("%s", r->error);

	engine_aggregate(r);
	steps_warn(r);
	starved_warn(r);
	for (i = 0; i < r->nnames; i++) {
		const struct accum *a = &r->names[i].agg;

		if (o->max_latency_ns >= 0 && r->names[i].desc->threshold &&
		    a->st.n && a->st.max > o->max_latency_ns)
			r->threshold_exceeded = true;
		/* a hand-over bucket filled up (engine/histogram.h) */
		if (a->hist.saturated)
			engine_warn(r, "%s: the display thread was held off for 2^32 samples of one histogram bucket: %llu samples counted in the histogram's overflow, percentiles at or above them read as the maximum",
				    r->names[i].desc->name,
				    (unsigned long long)a->hist.saturated);
	}
	msw_settle(r);
	if (r->stop_reason == STOP_ERROR || r->eng->msw_unchecked)
		r->exit_code = 1;
	else if (r->stop_reason == STOP_BREAK || r->threshold_exceeded)
		r->exit_code = 2;
	for_each_companion(r, c)
		if (c->ops->finish && c->ops->finish(c, r, msg, sizeof(msg)) < 0) {
			log_error("%s", msg);
			r->exit_code = 1;
		}
	if (t->out->summary)
		t->out->summary(r);
	msw_warn(r);
	for_each_companion(r, c)
		if (c->ops->summary)
			c->ops->summary(c, r);
	/* the files last: any of them may be the standard output */
	stdout_flush();
	if (o->gnuplot_file && r->eng->result &&
	    r->eng->result->gnuplot(r, o->gnuplot_file, msg, sizeof(msg)) < 0) {
		log_error("-g/--gnuplot: %s", msg);
		r->exit_code = 1;
	}
	if (o->json_file && write_result(r, run_status(r)) < 0) {
		log_error("%s", r->error);
		r->exit_code = 1;
	}
	if (t->out->files)
		t->out->files(r);
	r->eng->reached = RUN_FINISHED;
}

/* The one release path: whatever the run reached is undone, the headline
 * written if one is owed. */
static void run_release(struct run *r)
{
	struct companion *c;

	if (r->eng->reached < RUN_FINISHED)
		r->exit_code = 1;
	if (r->eng->reached == RUN_STARTED) {
		stop_samplers(r);
		if (r->eng->display_started) {
			atomic_store(&r->eng->display_stop, 1);
			RTLAT_STD(pthread_join)(r->eng->display, NULL);
			r->eng->display_started = false;
		}
		/* failed before the measurement (a sampler's set-up, a
		 * clock fault in calibration): the file written at the start
		 * says so, not "running" */
		if (r->o->json_file && !output_is_special(r->o->json_file))
			write_result(r, "error");
	}
	if (r->eng->reached >= RUN_SET_UP && r->o->headline_fd >= 0 && r->eng->result)
		r->eng->result->headline(r, r->o->headline_fd,
				    r->eng->reached >= RUN_STARTED ?
				    run_status(r) : "error");
	for_each_companion(r, c)	/* stops the loads on the error paths */
		if (c->ops->release)
			c->ops->release(c, r);
	if (r->test->teardown)
		r->test->teardown(r);
	dma_release(r);
	if (r->eng->trace_marker_fd >= 0)
		close(r->eng->trace_marker_fd);
	if (r->eng->tracing_on_fd >= 0)
		close(r->eng->tracing_on_fd);
	engine_free(r);
}

int engine_run(const struct test_desc *t, struct engine_opts *o,
	       const struct engine_env *env)
{
	struct run run, *r = &run;
	struct run_engine eng;		/* the engine's own (engine/run.h) */
	/* The system description and rtlat check's findings (34 KB, for the
	 * result at the end) in this frame, not on the heap: the main
	 * thread's stack mapping, which mlockall() locks whole in every
	 * program, has these pages resident anyway (its initial 132 KB are
	 * more than the main thread ever uses), where malloc() would add
	 * them to the locked heap (issue 15). */
	struct sysdesc sys;
	struct check_report check;
	sigset_t sigs;

	run_init(r, &eng, t, o, env);
	/* signals: handled by the main thread only, blocked before anything
	 * else, so that a SIGINT or SIGTERM at any moment from here on ends
	 * the run cleanly (with the summary, loads stopped) */
	run_sigset(&sigs);
	sigaddset(&sigs, wait_timer_signal());
	/* the IPC signals (SIGRTMIN + 3, + 4) are waited for where used:
	 * sent from outside, they stay pending, never kill the run */
	sigaddset(&sigs, SIGRTMIN + 3);
	sigaddset(&sigs, SIGRTMIN + 4);
	pthread_sigmask(SIG_BLOCK, &sigs, NULL);

	if (run_validate(r) < 0)
		return 1;
	if (run_prepare(r, &sys, &check) == 0 && run_start(r, &sigs) == 0) {
		run_wait(r, &sigs);
		run_finish(r);
	}
	run_release(r);
	return r->exit_code;
}
