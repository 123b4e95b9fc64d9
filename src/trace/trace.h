/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --trace: where the latency of each sample came from, from the kernel's
 * own trace events (the klatency of today). A companion of the runs of
 * timer-driven tests: a test that accounts its series 0 with
 * sampler_timer_wake() says so (test_desc.timer_wake) and gets it.
 *
 * Every sample of series 0 is split into irq latency, handler to wake-up,
 * wake-up to running and return to user (trace_match.h), each accounted
 * with its own statistics, percentiles and histograms, per sampler and in
 * total. The worst sample (and the --break sample) is analysed: dominant
 * part, what ran on the CPU meanwhile, and the raw events around it, saved
 * next to the result file.
 *
 * Data flow: samplers push raw samples (struct rawrec) as for cyclic -v;
 * the display thread hands them to trace_sample(), reads the kernel events
 * in trace_poll() and holds an interval back (trace_interval_ready()) until
 * all its samples are decided, so that the RTD line can show the breakdown
 * of the interval's maximum. Nothing of this runs in a sampler.
 */
#ifndef RTLAT_TRACE_H
#define RTLAT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/run_view.h"
#include "trace/trace_match.h"

enum trace_mode {
	TRACE_OFF,
	TRACE_EVENTS,		/* trace events only */
	TRACE_TIMERLAT,		/* + the timerlat tracer as a reference */
};

struct jw;
struct trace;

/* The state of the trace companion of a run (engine_companion()). */
struct trace_state {
	int mode;			/* enum trace_mode, from --trace */
	struct trace *t;		/* once started, or NULL */
	struct trace_gap *g;		/* the same for a test of gaps
					 * (test_desc.gap_series,
					 * trace_gap.h) */
	struct trace_irq *ti;		/* the same for a test of events
					 * (test_desc.event_trace,
					 * trace_irq.h) */
};

/*
 * Before anything is touched: the feature is built in, the options suit it
 * (timer wait, CLOCK_MONOTONIC), tracefs and the events are there and
 * writable. Returns 0 or -1 with a message for the user.
 */
int trace_check(const struct engine_opts *o, int mode, char *err, size_t len);

/* With the samplers set up (thread ids known) and before they start:
 * create the instance and start tracing. Returns 0 or -1 (@err). */
int trace_start(struct run *r, char *err, size_t len);

/* Display thread: a raw sample of sampler @i. */
void trace_sample(struct run *r, int i, const struct rawrec *rec);

/* Display thread: read and match the events recorded so far; @final
 * (samplers joined) decides every sample. */
void trace_poll(struct run *r, bool final);

/* Display thread: are all samples of interval @k decided? */
bool trace_interval_ready(struct run *r, uint64_t k);

/* End of run, stdout: RTK lines (each part's statistics) and RTW lines
 * (the worst-case analysis). */
void trace_summary(struct run *r);

/* Write the raw events around the worst sample next to the JSON result
 * (FILE.json -> FILE.trace.txt). Returns 0 or -1 with @err. */
int trace_save(struct run *r, char *err, size_t len);

/* The "trace" member of the result (docs/result-schema.md). */
void trace_json(const struct run *r, struct jw *w);

/* Stop tracing and remove the instance; every exit path, idempotent. */
void trace_stop(struct run *r);

/* The raw-events file beside --json @json: FILE.json -> FILE.trace.txt,
 * else @json.trace.txt; into @buf. */
void trace_events_path(const char *json, char *buf, size_t len);

/* The trace as a companion of a run (--trace; engine.h): the command layer
 * passes it to the runs of tests with test_desc.timer_wake (the timer
 * breakdown) or test_desc.gap_series (what ran in each gap, trace_gap.h).
 * The output shows its banner line and, for the timer breakdown, the parts
 * of each line's largest sample as the companion's columns (.banner, .cols,
 * .col_values). */
extern const struct companion_ops trace_companion;

#endif
