/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measuring engine shared by every rtlat test.
 *
 * A test (src/measure/<test>.c) describes itself with a struct test_desc: its
 * samplers (threads, their CPU and priority, and the series each one
 * measures), the sampler body that takes the samples, and the output style.
 * The engine owns everything else: RT set-up, threads, start and end of the
 * measurement, warm-up, accounting, interval windows, the display thread,
 * checkpoints, signals, the summary and the result file.
 *
 * Threads:
 *  - samplers (SCHED_FIFO by default): wait, read the clock, account the
 *    sample with sampler_add()/sampler_timer_wake(). No I/O, no allocation,
 *    no locks, no system calls other than the wait and the clock read.
 *    At each interval boundary the sampler pushes one record through a
 *    lock-free SPSC ring, handing over the statistics and histograms it
 *    accumulated (see struct series).
 *  - display (SCHED_OTHER): drains the rings, merges the handed-over
 *    accumulators into the whole-run totals, prints interval lines, keeps
 *    the per-interval series for the result, writes checkpoints.
 *  - main: waits for the end, signals (SIGINT, SIGTERM, SIGHUP) and a break,
 *    stops and joins everything, prints the summary, writes the result.
 *
 * Time: all values are int64_t ns on the test clock (CLOCK_MONOTONIC by
 * default). The measurement covers deadlines in [t_measure, t_end): each
 * period in it is either a sample or an overrun, so for the grid backends
 * samples + overruns == duration / period exactly.
 *
 * This header is the command layer's entry into the engine (engine_run(),
 * the companions' life cycle, the engine's internal steps that
 * "rtlat selftest" and the unit tests drive): only src/engine/, src/cmd/
 * and src/main.c include it (scripts/check-layers.py). The tests see
 * engine/test.h, the outputs, metrics and companions engine/run_view.h;
 * the engine's own state of a run is engine/run.h (src/engine/ only).
 */
#ifndef RTLAT_ENGINE_H
#define RTLAT_ENGINE_H

#include "engine/test.h"

/* Allocate the state of @c for @ops. Returns 0 or -ENOMEM. */
int companion_init(struct companion *c, const struct companion_ops *ops);
/* Release and free the state of @c (after the run). */
void companion_free(struct companion *c);

/* What the command layer gives a run besides the test and its options. */
struct engine_env {
	struct companion *comp;		/* the companions, in call order */
	int ncomp;
	const struct result_ops *result;	/* NULL: no result files */
	void *priv;			/* the test's private state (r->priv) */
	int argc;			/* the process command line */
	char **argv;
};

/* Handle an option of the shared tables. Returns 0, -1 after an error, or 1
 * when @d is not one of them. */
int engine_opt(struct engine_opts *o, const struct optdesc *d,
	       const char *arg);

/* Run @t with @o, its companions and result files in @env. Returns the
 * process exit status (0, 1 or 2). */
int engine_run(const struct test_desc *t, struct engine_opts *o,
	       const struct engine_env *env);

/* Interval stores (accum.c): @cap entries at most. */
int ivstore_init(struct ivstore *v, size_t cap);
void ivstore_free(struct ivstore *v);
/* Add interval @k (non-decreasing across calls). */
void ivstore_add(struct ivstore *v, uint64_t k, const struct window *w);

/* Internal steps of engine_run(), exposed for "rtlat selftest"'s simulated
 * run (cmd/selftest_run.c) and the unit tests. */
/* Allocate accumulators, rings and stores for the samplers laid out; a run
 * not made by engine_run() (a unit test's) gets the engine's own state
 * (struct run_engine) here too, which engine_free() frees. */
int engine_alloc(struct run *r);
void engine_free(struct run *r);
/* Display side: process every interval whose records are all in, merging
 * handed-over accumulators into r->total; @final takes everything (the
 * samplers are joined). */
void engine_drain(struct run *r, bool final);
/* The figures so far of each series (samples, min, avg, max in us, misses)
 * as "#" lines on stderr: the default SIGUSR1/SIGUSR2 snapshot, from the
 * display thread. */
void engine_snapshot(struct run *r);
/* Merge r->total into the per-name aggregates. */
void engine_aggregate(struct run *r);
/* The sampler's end, as its thread does when it stops: its open interval
 * (the last) handed to the display, then SAMPLER_DONE (internal; unit
 * tests' simulated samplers end with it too). */
void sampler_finish(struct sampler *s);

#endif
