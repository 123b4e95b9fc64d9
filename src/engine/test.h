/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test interface: what a measuring test (src/measure/, its shared
 * mechanisms src/measure/lib/) may do with the engine.
 *
 * Who includes it: the tests (src/measure/), the engine, and the command
 * layer that registers them (src/cmd/); scripts/check-layers.py refuses it
 * to the outputs, metrics, loads, trace and report, which see a run
 * through engine/run_view.h only.
 *
 * A test is one const struct test_desc (engine/test_desc.h: name, help,
 * options with defaults, hooks, declared figures, suite table) and one
 * line in src/cmd/registry.c. Of its run it may:
 *  - in setup(): lay out its samplers (engine_add_sampler(),
 *    engine_setup_per_cpu()) with the series each measures, and keep its
 *    per-sampler state in sampler.priv, its per-run state in run.priv;
 *  - in a sampler's thread (prepare(), body()): wait, read the clock and
 *    account what it measured with the sampler_*() calls below, poll
 *    sampler_stopping(), read its period (sampler.period_ns or
 *    run.o->period_ns), its timeline (run.t0 the first deadline,
 *    run.t_measure the end of the warm-up, run.t_end the end, INT64_MAX
 *    when unbounded; all ns on the test clock) - and nothing else: no
 *    I/O, no allocation, no locks, no system call but the wait and the
 *    clock read;
 *  - from the other hooks (figures(), teardown(), the output's): read the
 *    run as engine/run_view.h says, set run.exit_code, and report with
 *    engine_warn() / engine_error().
 * It may not: write any field of struct run, struct sampler or its series
 * other than its own priv, exit_code and sampler.err/errmsg (the engine's
 * display thread reads them concurrently), include another test, or reach
 * the engine's own state (engine/engine.h, engine/run.h).
 *
 * Units: every time is int64_t ns on the test clock (CLOCK_MONOTONIC by
 * default); each period in [t_measure, t_end) is either a sample or an
 * overrun, so for the grid backends samples + overruns == duration /
 * period exactly.
 */
#ifndef RTLAT_TEST_H
#define RTLAT_TEST_H

#include "engine/run_view.h"

/* Option tables shared by tests (the companions bring their own). */
extern const struct optdesc engine_common_opts[];
extern const struct optdesc engine_timer_opts[];
/* engine_timer_opts without --clock: a test whose events are stamped on
 * CLOCK_MONOTONIC by the kernel (irq) */
extern const struct optdesc engine_period_opts[];

/* Defaults (period @period_ns, priority @prio). */
void engine_opts_init(struct engine_opts *o, int64_t period_ns, int prio);

/* --max-msw N into @o (an option of the Cobalt build, refused by others):
 * 0, or -1 after opt_bad_value(). */
int engine_max_msw_opt(struct engine_opts *o, const struct optdesc *d,
		       const char *arg);

/* In test setup(): add a sampler on @cpu (-1 any) at @prio measuring
 * @nseries series. @nseries may be 0 for a thread that takes part in the
 * test without measuring (e.g. the event thread of 'switch'): it is set up,
 * started and stopped like any sampler but hands over no interval records.
 * Returns the sampler or NULL (error already reported). */
struct sampler *engine_add_sampler(struct run *r, int cpu, int policy,
				   int prio, int nseries,
				   const struct series_desc *const *desc);

/* In test setup(): one sampler per CPU of the --cpus list, each measuring
 * the same @nseries series. Returns 0 or -1. */
int engine_setup_per_cpu(struct run *r, int nseries,
			 const struct series_desc *const *desc);

/* The signal the engine sends to interrupt a sampler's wait (a handler
 * that does nothing is installed: waits return EINTR). */
int engine_stop_signal(void);

/* Sampler side ---------------------------------------------------------- */

/* Set by the engine; the test body polls it. */
static inline bool sampler_stopping(const struct sampler *s)
{
	return atomic_load_explicit(&((struct run *)s->run)->stop,
				    memory_order_relaxed) != 0;
}

/* Close the current interval and open interval @idx (internal). */
void sampler_roll(struct sampler *s, uint64_t idx);
/* Nothing more will be accounted before @next (test clock): close the open
 * interval if @next is beyond it and raise the watermark (internal). */
void sampler_close(struct sampler *s, int64_t next);
/* Record a --break and stop the run (internal). */
void sampler_break(struct sampler *s, int k, int64_t v);

/* The accumulator of series @k for a sample at @t; opens the interval of @t
 * when @t lies outside the current one (the division only happens then:
 * it is a library call on 32-bit targets). */
static inline struct accum *sampler_acc(struct sampler *s, int k, int64_t t)
{
	const struct run *r = s->run;

	/* a division only when @t leaves the open interval */
	if (!s->cur_open || t >= s->cur_end ||
	    t < s->cur_end - r->o->interval_ns) {
		uint64_t idx = t > r->t_measure ?
			(uint64_t)(t - r->t_measure) /
			(uint64_t)r->o->interval_ns : 0;

		if (idx != s->cur.index || !s->cur_open)
			sampler_roll(s, idx);
	}
	return &s->series[k].delta[s->active];
}

/*
 * Account one sample @v (ns) of series @k taken at @t (test clock; decides
 * the interval). Callers pass only samples inside [t_measure, t_end).
 */
static inline void sampler_add(struct sampler *s, int k, int64_t v, int64_t t)
{
	struct accum *a = sampler_acc(s, k, t);
	struct window *w = &s->cur.w[k];
	struct run *r = s->run;

	uint64_t ovf = a->lin.overflow;

	accum_add(a, v, t, s->cycles);
	if (a->lin.count && a->lin.overflow != ovf &&
	    s->series[k].ovf_cycles &&
	    s->series[k].novf < r->o->overflow_cycles)
		s->series[k].ovf_cycles[s->series[k].novf++] = s->cycles;
	if (w->n == 0 || v < w->min)
		w->min = v;
	if (w->n == 0 || v > w->max)
		w->max = v;
	w->n++;
	w->sum += v;
	w->last = v;
	if (s->raw.buf) {
		struct rawrec rr = { s->cycles, v, t, k };

		ring_push(&s->raw, &rr);
	}
	s->cycles++;
	if (r->o->break_ns >= 0 && s->series[k].desc->threshold &&
	    v > r->o->break_ns)
		sampler_break(s, k, v);
}

/* Account @n missed periods / lost events of series @k at @t. */
static inline void sampler_overrun(struct sampler *s, int k, uint64_t n,
				   int64_t t)
{
	struct accum *a;

	if (n == 0)
		return;
	a = sampler_acc(s, k, t);
	a->overruns += n;
	s->cur.w[k].overruns += n;
	s->cycles += n;
}

/*
 * Account @n missed periods of series @k whose deadlines are @t, @t +
 * @period, ...: each in the interval its deadline falls in (a stall over
 * several intervals shows in each of them). Should the record ring fill
 * (a stall over hundreds of intervals while the display is held off too),
 * the rest go to the last interval reached: the totals are always exact.
 */
void sampler_overrun_span(struct sampler *s, int k, uint64_t n, int64_t t,
			  int64_t period);

/*
 * A cycle that measures several series (a round trip and its two one-way
 * latencies) is one cycle: account its first series with sampler_add() or
 * sampler_overrun(), the others with these, which do not count the cycle
 * again (cycle numbers, max_cycle and max_cycles stay per cycle).
 */
static inline void sampler_add_same_cycle(struct sampler *s, int k,
					  int64_t v, int64_t t)
{
	s->cycles--;
	sampler_add(s, k, v, t);
}

static inline void sampler_overrun_same_cycle(struct sampler *s, int k,
					      uint64_t n, int64_t t)
{
	s->cycles -= n;
	sampler_overrun(s, k, n, t);
}

/* Now on the run's scale of the test clock (t0, t_measure, t_end): the
 * test clock itself, or for CLOCK_REALTIME (which can be stepped) the
 * time since the start of the measurement by CLOCK_MONOTONIC, ns. */
int64_t run_now(const struct run *r);

/*
 * Account a timer wake-up @wk of a grid with period @period into series @k:
 * the latency now - deadline if the deadline is inside the measurement, the
 * missed deadlines inside it as overruns. A wake-up whose deadline was in
 * the warm-up but which came so late that it missed deadlines inside the
 * measurement counts as the sample of the first of these (now - that
 * deadline), the rest as overruns. @next is the next deadline.
 * A wake-up after a CLOCK_REALTIME step (wk->steps) is taken on the run's
 * scale (deadline - shift); one the step made late (wk->step_late) is no
 * sample: it and its missed deadlines count in step_left_out.
 * Returns true when the sampler has reached the end (next >= t_end,
 * max_cycles or max_wakeups).
 */
bool sampler_timer_wake(struct sampler *s, int k, const struct wake *wk,
			int64_t period, int64_t next);

/* First deadline of the run for timer tests (valid once started). */
static inline int64_t sampler_t0(const struct sampler *s)
{
	return s->run->t0;
}

#endif
