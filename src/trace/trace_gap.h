/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --trace for a test whose series 0 are gaps of a busy loop (noise,
 * test_desc.gap_series): what ran on the CPU in each gap, from the same
 * kernel events as the timer breakdown (trace_source.h), read in the
 * display thread.
 *
 * A gap [start, start + length] of the sampler with thread id T on CPU c
 * is decided once the events of every CPU up to its end are in; the
 * events of c inside it say what took the CPU:
 *
 *   task      a sched_switch away from T: the task switched in (the first)
 *   softirq   a softirq_entry (its vector)
 *   irq       an irq_handler_entry, local_timer_entry or hrtimer expiry
 *   none      no event: nothing the kernel shows ran - the hardware or
 *             firmware (SMI), or the hypervisor (hwlat's conclusion)
 *   lost      trace events were lost around it: not decided
 *
 * The first of these that holds is the gap's cause (a task that preempted
 * the loop usually came with the interrupt that woke it: the task is what
 * took the time). Per CPU: gaps and time per cause and per task, irq and
 * softirq; the first gaps each with its cause in the result.
 */
#ifndef RTLAT_TRACE_GAP_H
#define RTLAT_TRACE_GAP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/engine.h"

struct jw;
struct trace_gap;

/* Open the kernel trace for the samplers of @r. 0 or -1 with @err. */
int trace_gap_start(struct run *r, struct trace_gap **out, char *err,
		    size_t len);
/* Display thread: a gap (raw sample) of sampler @i. */
void trace_gap_sample(struct trace_gap *g, int i, const struct rawrec *rec);
/* Display thread: read the events, decide the gaps they complete
 * (@final: all of them). */
void trace_gap_poll(struct trace_gap *g, struct run *r, bool final);
/* stdout, after the test's summary: "== Trace CPU N: ..." lines. */
void trace_gap_summary(const struct trace_gap *g, const struct run *r);
/* The "trace" member of the result. */
void trace_gap_json(const struct trace_gap *g, const struct run *r,
		    struct jw *w);
/* Stop tracing, free; safe with NULL. */
void trace_gap_stop(struct trace_gap *g);

#endif
