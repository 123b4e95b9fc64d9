// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The --trace event source: a private tracefs instance read through the
 * per-CPU raw buffers with libtracefs and libtraceevent (never the text
 * "trace" file, whose time stamps are only microseconds). See
 * trace_source.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/log.h"
#include "system/tracefs.h"
#include "trace/trace_source.h"

#ifndef HAVE_TRACEFS

bool tsrc_built_in(void)
{
	return false;
}

int tsrc_check(bool timerlat, char *err, size_t len)
{
	(void)timerlat;
	snprintf(err, len, "--trace is not built in: this rtlat was built without libtracefs and libtraceevent (install pkg-config, libtracefs-dev and libtraceevent-dev, or run make deps, then rebuild: make clean all)");
	return -1;
}

bool tsrc_has_timerlat(void)
{
	return false;
}

int tsrc_open(struct tsrc **out, const struct tsrc_cfg *cfg, char *err,
	      size_t len)
{
	(void)cfg;
	*out = NULL;
	return tsrc_check(false, err, len);
}

int tsrc_fill(struct tsrc *s, bool final, int64_t *upto)
{
	(void)s;
	(void)final;
	*upto = INT64_MIN;
	return -1;
}

void tsrc_deliver(struct tsrc *s, int64_t upto,
		  void (*fn)(void *ctx, const struct tev *e), void *ctx)
{
	(void)s;
	(void)upto;
	(void)fn;
	(void)ctx;
}

const char *tsrc_instance(const struct tsrc *s)
{
	(void)s;
	return "";
}

uint64_t tsrc_events(const struct tsrc *s)
{
	(void)s;
	return 0;
}

void tsrc_close(struct tsrc *s)
{
	(void)s;
}

#else /* HAVE_TRACEFS */

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "system/cpulist.h"
#include "system/kinfo.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

/* Events after the read started may still be in flight on other CPUs. */
#define HOLDBACK_NS	(200 * NSEC_PER_USEC)
/* Pages read from one CPU per fill (the rest waits for the next fill). */
#define MAX_PAGES	4096

enum filt {
	FILT_PID,		/* common_pid is a sampler */
	FILT_WAKING,		/* pid is a sampler */
	FILT_SWITCH,		/* prev_pid or next_pid is a sampler */
	FILT_CPU,		/* on a sampler's CPU */
	FILT_NONE,
};

static const struct evdef {
	const char *sys, *name;
	int type;		/* enum tev_type, -1: timerlat sample */
	bool required;
	enum filt filt;
} evdefs[] = {
	{ "timer", "hrtimer_start", TEV_TIMER_START, true, FILT_PID },
	{ "timer", "hrtimer_expire_entry", TEV_TIMER_EXPIRE, true, FILT_CPU },
	{ "sched", "sched_waking", TEV_WAKING, true, FILT_WAKING },
	{ "sched", "sched_switch", TEV_SWITCH, true, FILT_SWITCH },
	{ "irq", "irq_handler_entry", TEV_IRQ, false, FILT_CPU },
	{ "irq", "softirq_entry", TEV_SOFTIRQ, false, FILT_CPU },
	{ "irq_vectors", "local_timer_entry", TEV_LOCAL_TIMER, false, FILT_CPU },
};
#define NEVDEFS (sizeof(evdefs) / sizeof(evdefs[0]))
#define EV_TIMERLAT NEVDEFS	/* ftrace:timerlat, the tracer's samples */

/* Field names per event, in the order decode() uses them. */
static const char *const evfields[NEVDEFS + 1][7] = {
	{ "hrtimer", "function", "expires", "softexpires" },
	{ "hrtimer", "function", "now" },
	{ "pid", "prio", "target_cpu", "comm" },
	{ "prev_pid", "prev_prio", "next_pid", "next_prio", "prev_state",
	  "prev_comm", "next_comm" },
	{ "irq", "name" },
	{ "vec" },
	{ "vector" },
	{ "context", "timer_latency" },
};

struct evinfo {
	int id;			/* tep event id, -1 if not enabled */
	struct tep_format_field *pid, *flags;
	struct tep_format_field *f[7];
};

struct cpurd {
	int cpu;
	struct tracefs_cpu *tc;
};

struct tsrc {
	struct tracefs_instance *inst;
	char name[32];
	struct tep_handle *tep;
	struct kbuffer *kbuf;
	struct evinfo ev[NEVDEFS + 1];
	struct cpurd *rd;
	int nrd;
	void *page;
	int page_size;
	struct tev *batch;	/* decoded, not delivered yet */
	size_t nbatch, capbatch;
	uint64_t seq, events;
	bool timerlat;
	char saved_period[32], saved_cpus[256];
};

bool tsrc_built_in(void)
{
	return true;
}

bool tsrc_has_timerlat(void)
{
	char err[8];
	const char *dir = tracefs_dir(err, sizeof(err));

	return dir && tracefs_tracer_available(dir, "timerlat");
}

int tsrc_check(bool timerlat, char *err, size_t len)
{
	const char *dir = tracefs_dir(err, len);
	char p[512];
	struct stat st;
	size_t i;

	if (!dir)
		return -1;
	snprintf(p, sizeof(p), "%s/instances", dir);
	if (access(p, W_OK) != 0) {
		snprintf(err, len, "--trace needs root (or write access to %s) to create a tracefs instance: %s",
			 p, strerror(errno));
		return -1;
	}
	for (i = 0; i < NEVDEFS; i++) {
		if (!evdefs[i].required)
			continue;
		snprintf(p, sizeof(p), "%s/events/%s/%s", dir, evdefs[i].sys,
			 evdefs[i].name);
		if (stat(p, &st) != 0) {
			snprintf(err, len, "trace event %s:%s is missing (%s): the kernel needs CONFIG_TRACING with the timer and sched trace events",
				 evdefs[i].sys, evdefs[i].name, p);
			return -1;
		}
	}
	if (timerlat && !tracefs_tracer_available(dir, "timerlat")) {
		snprintf(err, len, "--trace=timerlat: this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER); use --trace");
		return -1;
	}
	return 0;
}

/* "a == 1 || a == 2 ..." of the samplers' pids or CPUs into @buf. */
static void or_list(char *buf, size_t len, const char *field, const int *v,
		    int n)
{
	size_t o = 0;
	int i, j;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (v[j] == v[i])
				break;
		if (j < i)
			continue;
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s == %d",
				      o ? " || " : "", field, v[i]);
	}
}

static int set_filter(struct tsrc *s, const struct tsrc_cfg *c,
		      const struct evdef *d, char *err, size_t len)
{
	char f[4096], g[2048];
	int i;

	/* every switch of the CPUs: what ran in a gap of a busy loop */
	switch (d->filt == FILT_SWITCH && c->switches_by_cpu ? FILT_CPU :
		d->filt) {
	case FILT_PID:
		or_list(f, sizeof(f), "common_pid", c->tids, c->n);
		break;
	case FILT_WAKING:
		or_list(f, sizeof(f), "pid", c->tids, c->n);
		break;
	case FILT_SWITCH:
		or_list(f, sizeof(f), "prev_pid", c->tids, c->n);
		or_list(g, sizeof(g), "next_pid", c->tids, c->n);
		snprintf(f + strlen(f), sizeof(f) - strlen(f), " || %s", g);
		break;
	case FILT_CPU:
		for (i = 0; i < c->n; i++)
			if (c->cpus[i] < 0)
				return 0;	/* not pinned: every CPU */
		or_list(f, sizeof(f), "CPU", c->cpus, c->n);
		if (d->type == TEV_IRQ && c->irq_all_cpus > 0)
			snprintf(f + strlen(f), sizeof(f) - strlen(f),
				 " || irq == %d", c->irq_all_cpus - 1);
		break;
	default:
		return 0;
	}
	if (tracefs_event_file_write(s->inst, d->sys, d->name, "filter", f) < 0) {
		snprintf(err, len, "cannot set the filter of trace event %s:%s to '%s': %s",
			 d->sys, d->name, f, strerror(errno));
		return -1;
	}
	return 0;
}

static int lookup_event(struct tsrc *s, size_t i, const char *sys,
			const char *name)
{
	struct tep_event *e = tep_find_event_by_name(s->tep, sys, name);
	struct evinfo *x = &s->ev[i];
	int j;

	x->id = -1;
	if (!e)
		return -1;
	x->id = e->id;
	x->pid = tep_find_common_field(e, "common_pid");
	x->flags = tep_find_common_field(e, "common_flags");
	for (j = 0; j < 7 && evfields[i][j]; j++)
		x->f[j] = tep_find_field(e, evfields[i][j]);
	return 0;
}

/* Save and set a global osnoise knob for timerlat; restored on close. */
static int osnoise_set(const char *file, const char *val, char *saved,
		       size_t slen)
{
	char *old = tracefs_instance_file_read(NULL, file, NULL);

	if (!old)
		return -1;
	snprintf(saved, slen, "%s", old);
	saved[strcspn(saved, "\n")] = '\0';
	free(old);
	return tracefs_instance_file_write(NULL, file, val) < 0 ? -1 : 0;
}

static int start_timerlat(struct tsrc *s, const struct tsrc_cfg *c, char *err,
			  size_t len)
{
	char v[256];
	int i;

	snprintf(v, sizeof(v), "%lld", (long long)(c->period_ns / NSEC_PER_USEC));
	if (osnoise_set("osnoise/timerlat_period_us", v, s->saved_period,
			sizeof(s->saved_period)) < 0) {
		snprintf(err, len, "cannot set osnoise/timerlat_period_us: %s",
			 strerror(errno));
		return -1;
	}
	v[0] = '\0';
	for (i = 0; i < c->n; i++)
		snprintf(v + strlen(v), sizeof(v) - strlen(v), "%s%d",
			 i ? "," : "", c->cpus[i]);
	if (osnoise_set("osnoise/cpus", v, s->saved_cpus,
			sizeof(s->saved_cpus)) < 0) {
		snprintf(err, len, "cannot set osnoise/cpus: %s", strerror(errno));
		return -1;
	}
	if (tracefs_instance_file_write(s->inst, "current_tracer", "timerlat") < 0) {
		snprintf(err, len, "cannot start the timerlat tracer in instance %s: %s (another timerlat user, e.g. rtla, may be running)",
			 s->name, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * The event formats rtlat decodes, and only those: the header page and the
 * format of each event of evdefs and ftrace:timerlat. (libtracefs's
 * tracefs_local_events_system() also parses /proc/kallsyms, the saved
 * command lines and every event of the systems: about 0.5 s, and 2 s on an
 * emulated CPU, before the first sample.) Missing events are left out;
 * NULL on an error of the header page.
 */
static struct tep_handle *load_formats(const char *dir)
{
	struct tep_handle *tep = tep_alloc();
	char p[512], *buf;
	size_t i, n;

	if (!tep)
		return NULL;
	tep_set_long_size(tep, (int)sizeof(long));
	tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
			       TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN :
				TEP_LITTLE_ENDIAN);
	snprintf(p, sizeof(p), "%s/events/header_page", dir);
	buf = file_read_whole(p, &n);
	if (!buf || tep_parse_header_page(tep, buf, n, (int)sizeof(long)) < 0) {
		free(buf);
		tep_free(tep);
		return NULL;
	}
	free(buf);
	for (i = 0; i <= NEVDEFS; i++) {
		const char *sys = i < NEVDEFS ? evdefs[i].sys : "ftrace";
		const char *name = i < NEVDEFS ? evdefs[i].name : "timerlat";

		snprintf(p, sizeof(p), "%s/events/%s/%s/format", dir, sys, name);
		buf = file_read_whole(p, &n);
		if (buf)
			tep_parse_event(tep, buf, n, sys);
		free(buf);
	}
	return tep;
}

int tsrc_open(struct tsrc **out, const struct tsrc_cfg *c, char *err,
	      size_t len)
{
	const char *dir = tracefs_dir(err, len);
	struct cpuset online;
	struct tsrc *s;
	size_t i;
	int cpu;

	*out = NULL;
	if (!dir)
		return -1;
	{
		char gone[256];
		int n = tracefs_remove_stale(dir, gone, sizeof(gone));

		if (n)
			log_note_always("removed %d stale tracefs instance%s of rtlat runs that are gone (killed): %s",
					n, n == 1 ? "" : "s", gone);
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	snprintf(s->name, sizeof(s->name), "rtlat-%d", (int)getpid());
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		snprintf(err, len, "cannot create tracefs instance %s/instances/%s: %s",
			 dir, s->name, strerror(errno));
		goto fail;
	}
	tracefs_trace_off(s->inst);
	if (tracefs_instance_file_write(s->inst, "trace_clock", "mono") < 0) {
		snprintf(err, len, "cannot set trace clock 'mono' in instance %s: %s (kernel too old?)",
			 s->name, strerror(errno));
		goto fail;
	}
	for (i = 0; i < (size_t)c->n; i++) {
		if (c->cpus[i] < 0) {
			tracefs_instance_set_buffer_size(s->inst, (size_t)c->buffer_kb, -1);
			break;
		}
		tracefs_instance_set_buffer_size(s->inst, (size_t)c->buffer_kb,
						 c->cpus[i]);
	}
	s->tep = load_formats(dir);
	if (!s->tep) {
		snprintf(err, len, "cannot read the trace event formats in %s/events: %s",
			 dir, strerror(errno));
		goto fail;
	}
	for (i = 0; i < NEVDEFS; i++) {
		const struct evdef *d = &evdefs[i];

		if (lookup_event(s, i, d->sys, d->name) < 0) {
			if (!d->required)
				continue;
			snprintf(err, len, "trace event %s:%s is missing", d->sys,
				 d->name);
			goto fail;
		}
		if (set_filter(s, c, d, err, len) < 0)
			goto fail;
		if (tracefs_event_enable(s->inst, d->sys, d->name) < 0) {
			if (!d->required) {
				s->ev[i].id = -1;
				continue;
			}
			snprintf(err, len, "cannot enable trace event %s:%s in instance %s: %s",
				 d->sys, d->name, s->name, strerror(errno));
			goto fail;
		}
	}
	s->ev[EV_TIMERLAT].id = -1;
	if (c->timerlat) {
		if (lookup_event(s, EV_TIMERLAT, "ftrace", "timerlat") < 0) {
			snprintf(err, len, "the timerlat tracer's sample format (events/ftrace/timerlat) is missing");
			goto fail;
		}
		s->timerlat = true;
		if (start_timerlat(s, c, err, len) < 0)
			goto fail;
	}
	s->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST,
				KBUFFER_ENDIAN_SAME_AS_HOST);
	cpus_online(&online);
	s->rd = calloc(RTLAT_MAX_CPUS, sizeof(*s->rd));
	if (!s->kbuf || !s->rd)
		goto nomem;
	for (cpu = cpuset_next(&online, 0); cpu >= 0;
	     cpu = cpuset_next(&online, cpu + 1)) {
		struct tracefs_cpu *tc = tracefs_cpu_open(s->inst, cpu, true);

		if (!tc) {
			snprintf(err, len, "cannot open the raw trace buffer of CPU %d in instance %s: %s",
				 cpu, s->name, strerror(errno));
			goto fail;
		}
		s->rd[s->nrd].cpu = cpu;
		s->rd[s->nrd].tc = tc;
		if (tracefs_cpu_read_size(tc) > s->page_size)
			s->page_size = tracefs_cpu_read_size(tc);
		s->nrd++;
	}
	s->page = malloc((size_t)s->page_size);
	if (!s->page)
		goto nomem;
	if (tracefs_trace_on(s->inst) < 0) {
		snprintf(err, len, "cannot turn tracing on in instance %s: %s",
			 s->name, strerror(errno));
		goto fail;
	}
	*out = s;
	return 0;
nomem:
	snprintf(err, len, "out of memory");
fail:
	tsrc_close(s);
	return -1;
}

static int64_t num(const struct tep_format_field *f, const void *data,
		   int size)
{
	unsigned long long v = 0;

	if (!f || f->offset + f->size > size ||
	    tep_read_number_field((struct tep_format_field *)f, data, &v) < 0)
		return 0;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		if (f->size == 4)
			return (int32_t)(uint32_t)v;
		if (f->size == 2)
			return (int16_t)(uint16_t)v;
		if (f->size == 1)
			return (int8_t)(uint8_t)v;
	}
	return (int64_t)v;
}

static void str(char *dst, size_t dlen, const struct tep_format_field *f,
		const char *data, int size)
{
	int off, n;

	dst[0] = '\0';
	if (!f)
		return;
	off = f->offset;
	n = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc = (uint32_t)num(f, data, size);

		off = (int)(loc & 0xffff);
		n = (int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off < 0 || n <= 0 || off + n > size)
		return;
	if ((size_t)n >= dlen)
		n = (int)dlen - 1;
	memcpy(dst, data + off, (size_t)n);
	dst[n] = '\0';
}

static struct tev *batch_add(struct tsrc *s)
{
	struct tev *e;

	if (s->nbatch == s->capbatch) {
		size_t cap = s->capbatch ? s->capbatch * 2 : 4096;
		struct tev *b = realloc(s->batch, cap * sizeof(*b));

		if (!b)
			return NULL;
		s->batch = b;
		s->capbatch = cap;
	}
	e = &s->batch[s->nbatch++];
	memset(e, 0, sizeof(*e));
	e->seq = s->seq++;
	return e;
}

static void decode(struct tsrc *s, int cpu, const char *data, int size,
		   int64_t ts)
{
	struct tep_record rec;
	const struct evinfo *x = NULL;
	struct tev *e;
	size_t i;
	int id;

	memset(&rec, 0, sizeof(rec));
	rec.data = (void *)data;
	rec.size = size;
	id = tep_data_type(s->tep, &rec);
	for (i = 0; i <= NEVDEFS; i++)
		if (s->ev[i].id == id && id >= 0)
			break;
	if (i > NEVDEFS)
		return;
	x = &s->ev[i];
	e = batch_add(s);
	if (!e)
		return;
	s->events++;
	e->ts = ts;
	e->type = i == EV_TIMERLAT ? TEV_TIMERLAT : (uint8_t)evdefs[i].type;
	e->cpu = (int16_t)cpu;
	e->pid = (int32_t)num(x->pid, data, size);
	e->flags = (uint8_t)num(x->flags, data, size);
	switch (e->type) {
	case TEV_TIMERLAT:
		e->u.timerlat.context = (int32_t)num(x->f[0], data, size);
		e->u.timerlat.latency = num(x->f[1], data, size);
		break;
	case TEV_TIMER_START:
		e->u.start.timer = (uint64_t)num(x->f[0], data, size);
		e->u.start.function = (uint64_t)num(x->f[1], data, size);
		e->u.start.expires = num(x->f[2], data, size);
		e->u.start.softexpires = num(x->f[3], data, size);
		break;
	case TEV_TIMER_EXPIRE:
		e->u.expire.timer = (uint64_t)num(x->f[0], data, size);
		e->u.expire.function = (uint64_t)num(x->f[1], data, size);
		e->u.expire.now = num(x->f[2], data, size);
		break;
	case TEV_WAKING:
		e->u.waking.pid = (int32_t)num(x->f[0], data, size);
		e->u.waking.prio = (int32_t)num(x->f[1], data, size);
		e->u.waking.target_cpu = (int32_t)num(x->f[2], data, size);
		str(e->u.waking.comm, TEV_COMM_LEN, x->f[3], data, size);
		break;
	case TEV_SWITCH:
		e->u.sw.prev_pid = (int32_t)num(x->f[0], data, size);
		e->u.sw.prev_prio = (int32_t)num(x->f[1], data, size);
		e->u.sw.next_pid = (int32_t)num(x->f[2], data, size);
		e->u.sw.next_prio = (int32_t)num(x->f[3], data, size);
		e->u.sw.prev_state = num(x->f[4], data, size);
		str(e->u.sw.prev_comm, TEV_COMM_LEN, x->f[5], data, size);
		str(e->u.sw.next_comm, TEV_COMM_LEN, x->f[6], data, size);
		break;
	case TEV_IRQ:
		e->u.irq.irq = (int32_t)num(x->f[0], data, size);
		str(e->u.irq.name, TEV_NAME_LEN, x->f[1], data, size);
		break;
	case TEV_SOFTIRQ:
		e->u.softirq.vec = (uint32_t)num(x->f[0], data, size);
		break;
	case TEV_LOCAL_TIMER:
	default:
		break;
	}
}

static int tev_cmp(const void *a, const void *b)
{
	const struct tev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int tsrc_fill(struct tsrc *s, bool final, int64_t *upto)
{
	int64_t t_read = clock_now_ns(CLOCK_MONOTONIC);
	int i, pages, n;

	for (i = 0; i < s->nrd; i++) {
		struct cpurd *rd = &s->rd[i];

		for (pages = 0; pages < MAX_PAGES; pages++) {
			unsigned long long ts;
			void *data;
			int missed;
			size_t before = s->nbatch;

			n = tracefs_cpu_read(rd->tc, s->page, true);
			if (n <= 0)
				break;
			if (kbuffer_load_subbuffer(s->kbuf, s->page) < 0)
				continue;
			missed = kbuffer_missed_events(s->kbuf);
			data = kbuffer_read_event(s->kbuf, &ts);
			while (data) {
				decode(s, rd->cpu, data,
				       kbuffer_event_size(s->kbuf),
				       (int64_t)ts);
				data = kbuffer_next_event(s->kbuf, &ts);
			}
			if (missed) {
				struct tev *e = batch_add(s);

				if (e) {
					e->type = TEV_LOST;
					e->cpu = (int16_t)rd->cpu;
					/* just before the page's first event */
					e->ts = s->nbatch - 1 > before ?
						s->batch[before].ts - 1 :
						(int64_t)kbuffer_subbuf_timestamp(s->kbuf, s->page);
					e->u.lost.count = missed;
				}
			}
		}
	}
	/* kept-back events first, each CPU in reading order on ties */
	if (s->nbatch > 1)	/* (the batch is NULL before the first event) */
		qsort(s->batch, s->nbatch, sizeof(*s->batch), tev_cmp);
	*upto = final ? INT64_MAX : t_read - HOLDBACK_NS;
	return 0;
}

void tsrc_deliver(struct tsrc *s, int64_t upto,
		  void (*fn)(void *ctx, const struct tev *e), void *ctx)
{
	size_t i;

	for (i = 0; i < s->nbatch && s->batch[i].ts < upto; i++)
		fn(ctx, &s->batch[i]);
	if (i && i < s->nbatch)
		memmove(s->batch, s->batch + i,
			(s->nbatch - i) * sizeof(*s->batch));
	s->nbatch -= i;
}

const char *tsrc_instance(const struct tsrc *s)
{
	return s ? s->name : "";
}

uint64_t tsrc_events(const struct tsrc *s)
{
	return s ? s->events : 0;
}

void tsrc_close(struct tsrc *s)
{
	int i;

	if (!s)
		return;
	if (s->inst) {
		tracefs_trace_off(s->inst);
		if (s->timerlat)
			tracefs_instance_file_write(s->inst, "current_tracer", "nop");
		tracefs_event_disable(s->inst, NULL, NULL);
	}
	if (s->saved_period[0])
		tracefs_instance_file_write(NULL, "osnoise/timerlat_period_us",
					    s->saved_period);
	if (s->saved_cpus[0])
		tracefs_instance_file_write(NULL, "osnoise/cpus", s->saved_cpus);
	for (i = 0; i < s->nrd; i++)
		tracefs_cpu_close(s->rd[i].tc);
	free(s->rd);
	if (s->inst) {
		tracefs_instance_destroy(s->inst);
		tracefs_instance_free(s->inst);
	}
	if (s->kbuf)
		kbuffer_free(s->kbuf);
	if (s->tep)
		tep_free(s->tep);
	free(s->page);
	free(s->batch);
	free(s);
}

#endif /* HAVE_TRACEFS */
