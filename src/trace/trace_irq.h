/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --trace for a test of events from a stimulus to the task that serves
 * it (irq, test_desc.event_trace): where each event's latency went, from
 * the same kernel events as the timer breakdown (trace_source.h), read
 * in the display thread.
 *
 * An event is the span [t0, t2] of a raw sample of the serving sampler
 * (thread id T): t0 the stimulus, t2 the task has it. Inside it the
 * kernel tells, on trace clock mono (CLOCK_MONOTONIC):
 *
 *   irq:irq_handler_entry   irq == N: the interrupt's hard handler, t1: the
 *                           first one after t0 where the line carries only
 *                           the event's interrupt (two serial ports, a GPIO
 *                           line: a later one, before the wake-up, is the
 *                           next bytes' once the interrupt thread ran);
 *                           else the last one before the wake-up (one
 *                           port's TX-RX loop: its TX interrupt comes
 *                           first; a NIC's transmit completion)
 *   sched:sched_waking      pid == T: the task woken, tw (the last one)
 *   sched:sched_switch      next_pid == T after tw: it runs, ts
 *
 * and t2 - t0 splits into parts that add up exactly:
 *
 *   stimulus to irq      t1 - t0   (serial: one character's time and more)
 *   irq to wake-up       tw - t1   the interrupt thread, softirq, workqueue
 *   wake-up to running   ts - tw   scheduling
 *   return to user       t2 - ts   back to user space up to the clock read
 *
 * and irq to task = t2 - t1. Without interrupt N in [t0, tw] (none known:
 * veth; or it was not raised for this event: bytes that came together in
 * one interrupt), the event's t1 is missing and stimulus to wake-up is
 * tw - t0; without the wake-up (the task was not asleep) only t2 - t1 is
 * known; with trace events lost around it nothing is.
 */
#ifndef RTLAT_TRACE_IRQ_H
#define RTLAT_TRACE_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/run_view.h"
#include "trace/trace_match.h"

struct jw;
struct trace_irq;

/* What the events of one span say: instants, INT64_MIN where missing. */
struct ti_split {
	int64_t t1, tw, ts;
};

/*
 * Split the event [@t0, @t2] of the task with thread id @tid at interrupt
 * @irq (-1: none; @first: t1 is its first entry after @t0, else its last
 * before the wake-up) from @n events in time order in the ring @ev of
 * @cap entries starting at @head (a plain array: @head 0, @cap @n). Into
 * @out.
 */
void trace_irq_split(const struct tev *ev, size_t cap, size_t head, size_t n,
		     int irq, bool first, int tid, int64_t t0, int64_t t2,
		     struct ti_split *out);

/* Open the kernel trace for @r (r->test->event_trace says what). 0, or -1
 * with @err. */
int trace_irq_start(struct run *r, struct trace_irq **out, char *err,
		    size_t len);
/* Display thread: a raw sample of sampler @i. */
void trace_irq_sample(struct trace_irq *g, int i, const struct rawrec *rec);
/* Display thread: read the events, split the spans they complete
 * (@final: all of them). */
void trace_irq_poll(struct trace_irq *g, struct run *r, bool final);
/* stdout, after the test's summary: RTK lines (each part's statistics),
 * the counts, the RTW line of the worst irq to task. */
void trace_irq_summary(const struct trace_irq *g, const struct run *r);
/* The "trace" member of the result. */
void trace_irq_json(const struct trace_irq *g, const struct run *r,
		    struct jw *w);
/* Stop tracing, free; safe with NULL. */
void trace_irq_stop(struct trace_irq *g);

#endif
