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
 *   task      a sched_switch away from T: of the tasks switched in (all
 *             the switches of c are traced; one the kernel did not
 *             record is assumed, see trace_gap_cause()), the one that
 *             had the CPU longest in the gap, all its turns added (a
 *             real-time task preempted by the fair server's turn of
 *             SCHED_OTHER tasks still counts whole)
 *   softirq   a softirq_entry (its vector)
 *   irq       an irq_handler_entry, local_timer_entry or hrtimer expiry
 *   none      no event: nothing the kernel shows ran - the hardware or
 *             firmware (SMI), or the hypervisor (hwlat's conclusion)
 *   lost      trace events were lost around it: not decided
 *
 * The first of these that holds is the gap's cause (a task that preempted
 * the loop usually came with the interrupt that woke it: the task is what
 * took the time). A switch to the idle task (pid 0) is a task too: the
 * loop was not running (throttled). Per CPU: gaps and time per cause and per task, irq and
 * softirq; the first gaps each with its cause in the result.
 */
#ifndef RTLAT_TRACE_GAP_H
#define RTLAT_TRACE_GAP_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/run_view.h"
#include "trace/trace_match.h"

struct jw;
struct trace_gap;

/* Causes, in the order they are tried (see above). */
enum gap_cause { GC_TASK, GC_SOFTIRQ, GC_IRQ, GC_NONE, GC_LOST, GC_N };

/* What took the CPU in a gap: its cause and who (a task's pid and comm,
 * an irq's number and name, a softirq's vector and name; id -1 and name ""
 * for GC_NONE and GC_LOST; a task's name is "" when no switch in the gap
 * named it). @switch_assumed: a switch the kernel did not record was
 * assumed in it (see trace_gap_cause()). */
struct gap_who {
	int cause;
	int id;
	char name[TEV_NAME_LEN > TEV_COMM_LEN ? TEV_NAME_LEN : TEV_COMM_LEN];
	bool switch_assumed;
};

/* A task that ran in a gap, and how long in all its turns. */
struct gap_task {
	int pid;
	char name[TEV_COMM_LEN];
	int64_t ns;
};

#define GAP_TOP 3		/* tasks kept per gap, the longest first */

/*
 * The cause of the gap [@a, @b] of the sampler with thread id @tid from
 * the events of its CPU, @n of them in time order in the ring @ev of @cap
 * entries starting at @head (a plain array: @head 0, @cap @n); @full: the
 * ring has dropped older events (a gap it no longer reaches back to is
 * GC_LOST). Lost events are the caller's. Into @w, and into @top the
 * GAP_TOP tasks that had the CPU longest (ns 0: no more).
 *
 * A task has the CPU from the switch to it to the switch away from it.
 * Every event also shows the task on the CPU (a switch's prev_pid, an
 * interrupt's common_pid): one that is not the task switched in last
 * means a switch the kernel did not record - some kernels never record
 * the switch out of the idle task. That switch is taken at the last event
 * of the task that was on (the time after it counts for the next one) and
 * @w->switch_assumed is set.
 */
void trace_gap_cause(const struct tev *ev, size_t cap, size_t head, size_t n,
		     bool full, int tid, int64_t a, int64_t b,
		     struct gap_who *w, struct gap_task top[GAP_TOP]);

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
