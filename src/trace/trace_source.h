/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where --trace gets its kernel events: a private tracefs instance read with
 * libtracefs/libtraceevent (trace_tracefs.c). Without those libraries the
 * functions exist but report that the feature is not built in.
 *
 * The instance ("rtlat-PID") has its own buffers, trace clock "mono" and
 * event filters that keep only the samplers' events: timer starts by the
 * samplers' threads, their wake-ups and switches, and the expiries and
 * interrupts of their CPUs. The global trace and every other instance are
 * left alone; closing removes the instance. An instance left by an rtlat
 * that was killed is removed by the next one.
 */
#ifndef RTLAT_TRACE_SOURCE_H
#define RTLAT_TRACE_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace_match.h"

struct tsrc;

struct tsrc_cfg {
	int n;			/* samplers */
	const int *tids;	/* their thread ids */
	const int *cpus;	/* their CPUs, -1 = not pinned */
	long buffer_kb;		/* per-CPU buffer of the instance */
	bool timerlat;		/* also run the timerlat tracer (reference):
				 * its samples come as TEV_TIMERLAT */
	int64_t period_ns;	/* timerlat period */
	int irq_all_cpus;	/* > 0: also every irq_handler_entry of
				 * interrupt irq_all_cpus - 1, on any CPU */
	bool switches_by_cpu;	/* every sched_switch of the samplers' CPUs,
				 * not only the samplers' own (what ran in a
				 * gap of a busy loop) */
};

/* True when built with libtracefs and libtraceevent. */
bool tsrc_built_in(void);

/*
 * Can --trace work here? Checks tracefs (mounted, writable), the events and,
 * for @timerlat, the tracer, without changing anything. Returns 0, or -1
 * with a message naming what is missing and the fix.
 */
int tsrc_check(bool timerlat, char *err, size_t len);

/* True when the kernel offers the timerlat tracer. */
bool tsrc_has_timerlat(void);

/* Create and start the instance. Returns 0 or -1 with a message; nothing
 * is left behind on failure. */
int tsrc_open(struct tsrc **out, const struct tsrc_cfg *cfg, char *err,
	      size_t len);

struct run;
/* tsrc_open() for the samplers of @r: @cfg's n, tids and cpus filled from
 * them (its other fields the caller's), the set-up said on stderr
 * (trace_run.c). Returns 0 or -1 with a message. */
int tsrc_open_samplers(struct tsrc **out, const struct run *r,
		       struct tsrc_cfg *cfg, char *err, size_t len);

/*
 * Read what the kernel has recorded so far. Events before *@upto (set
 * here; INT64_MAX with @final) are ready for tsrc_deliver(), later ones are
 * kept back until every CPU has been read past them.
 */
int tsrc_fill(struct tsrc *s, bool final, int64_t *upto);

/* Hand the events before @upto to @fn in time order. */
void tsrc_deliver(struct tsrc *s, int64_t upto,
		  void (*fn)(void *ctx, const struct tev *e), void *ctx);

/* "rtlat-1234" */
const char *tsrc_instance(const struct tsrc *s);
/* Events read, and pages read with events lost before them. */
uint64_t tsrc_events(const struct tsrc *s);

/* Stop tracing, remove the instance, free. Safe with NULL. */
void tsrc_close(struct tsrc *s);

#endif
