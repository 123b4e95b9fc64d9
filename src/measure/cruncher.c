// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat cruncher: how steady a real-time task's own computation runs, the
 * measurement of Xenomai 2.0's cruncher. A floating-point computation is
 * calibrated (per CPU, in the sampler thread before the start: see
 * test_desc.prepare) to take the ideal time;
 * then each cycle sleeps a short while and runs it once. Series (ns,
 * signed): sleep = nanosleep's wake-up - the requested end of the sleep
 * (its jitter), deviation = computation time - ideal time (faster runs are
 * negative, never folded into slower ones). Every result is checked
 * against the calibration's: a mismatch (FPU corruption) fails the run.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure/lib/crunch.h"
#include "engine/test.h"
#include "util/log.h"
#include "util/outfile.h"
#include "output/output.h"
#include "util/parse.h"
#include "system/clockcheck.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

#define TOLERANCE_PPM	50000		/* calibration: +-5 % */

enum { SLEEP, DEVIATION };

/* Per sampler (CPU). */
struct crunch_cpu {
	int cpu;
	struct crunch_cal cal;		/* cal.done: calibrated */
	uint64_t computations;		/* in the measurement */
	uint64_t failures;		/* results that differed */
	uint64_t first_failure;		/* its cycle */
	double first_bad;		/* its result */
};

struct cruncher {
	int64_t ideal_ns, sleep_ns;
	int n;
	struct crunch_cpu *cpu;
};


/* a computation has no deadline to miss: its "overruns" are always 0 */
static const struct series_desc sleep_series = {
	.name = "sleep", .miss_name = "overruns", .threshold = true,
	.no_misses = true,
};
static const struct series_desc deviation_series = {
	.name = "deviation", .miss_name = "overruns", .threshold = true,
	.no_misses = true, .reference = "ideal_ns",
};
static const struct series_desc *const cruncher_descs[] = {
	&sleep_series, &deviation_series,
};

static const struct optdesc cruncher_opts_table[] = {
	{ "ideal", 0, required_argument, "US",
	  "ideal computation time in us, or with a unit (default 10000)",
	  OPT_CRUNCHER_IDEAL },
	{ "sleep", 0, required_argument, "US",
	  "sleep before each computation in us, or with a unit\n(default 1000)",
	  OPT_CRUNCHER_SLEEP },
	OPT_END
};

static int cruncher_body(struct sampler *s)
{
	struct crunch_cpu *cc = s->priv;
	struct run *r = s->run;
	const struct cruncher *c = r->priv;
	struct timespec ts;
	int64_t ta, tb, tc;
	double res;
	int e;

	if (!cc->cal.done)
		return 0;	/* stopped during calibration */
	/* the first cycle starts at t0, the start of the warm-up (with
	 * --warmup 0 of the measurement), not a little before it */
	ts = ns_to_ts(r->t0);
	while (!sampler_stopping(s) &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	ts = ns_to_ts(c->sleep_ns);
	while (!sampler_stopping(s)) {
		ta = clock_now_ns(CLOCK_MONOTONIC);
		if (ta >= r->t_end)
			break;
		e = clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
		if (e == EINTR)
			continue;
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "clock_nanosleep failed: %s", strerror(e));
			return -e;
		}
		tb = clock_now_ns(CLOCK_MONOTONIC);
		if (!crunch_run_until(cc->cal.iterations, &r->stop, &res))
			break;	/* stopped: a computation never completed */
		tc = clock_now_ns(CLOCK_MONOTONIC);
		if (tb - ta < c->sleep_ns - CLOCK_EARLY_NS || tc < tb) {
			/* a sleep cannot end before its time: the clock's
			 * reads are wrong (system/clockcheck.h) */
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "clock fault: CLOCK_MONOTONIC read %" PRId64
				 ", %" PRId64 " and %" PRId64
				 " ns around a %" PRId64 " ns sleep and a computation",
				 ta, tb, tc, c->sleep_ns);
			return WAIT_CLOCK_FAULT;
		}
		if (ta < r->t_measure)
			continue;
		cc->computations++;
		if (!crunch_same(res, cc->cal.reference) && !cc->failures++) {
			cc->first_failure = s->cycles;
			cc->first_bad = res;
		}
		sampler_add(s, SLEEP, tb - ta - c->sleep_ns, ta);
		sampler_add_same_cycle(s, DEVIATION, tc - tb - c->ideal_ns, ta);
		if (r->o->max_cycles && s->cycles >= r->o->max_cycles)
			break;
	}
	if (cc->failures) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "FPU verification failed on CPU %d in %llu of %llu computations (first at cycle %llu: %a instead of %a)",
			 cc->cpu, (unsigned long long)cc->failures,
			 (unsigned long long)cc->computations,
			 (unsigned long long)cc->first_failure, cc->first_bad,
			 cc->cal.reference);
		return -EIO;
	}
	return 0;
}

/*
 * Calibration, in the sampler's own thread (pinned, at its priority) before
 * the start: a signal meanwhile stops it at once and ends the run cleanly
 * (the engine watches signals while samplers prepare).
 */
static int cruncher_prepare(struct sampler *s)
{
	struct crunch_cpu *cc = s->priv;
	struct run *r = s->run;
	const struct cruncher *c = r->priv;
	int e;

	e = crunch_calibrate(&cc->cal, c->ideal_ns, TOLERANCE_PPM, c->sleep_ns,
			     &r->stop);
	if (e == -EIO) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "calibration on CPU %d: identical computations gave different results: the FPU state is being corrupted",
			 cc->cpu);
		return e;
	}
	if (e == -ENOTRECOVERABLE) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "clock fault: CLOCK_MONOTONIC advanced less than a sleep across it in the calibration on CPU %d (the clock is wrong)",
			 cc->cpu);
		return e;
	}
	return 0;	/* done, or stopped (-EINTR): not calibrated */
}

/* @ns as seconds with one decimal, "2.5 s" (messages). 32 bytes. */
static char *fmt_sec(char *buf, int64_t ns)
{
	snprintf(buf, 32, "%.1f s", (double)ns / NSEC_PER_SEC);
	return buf;
}

static int cruncher_setup(struct run *r)
{
	struct engine_opts *o = r->o;
	struct cruncher *c = r->priv;
	char a[32], b[32], d[32], e[32];
	int64_t cycle, cal;
	struct sampler *s;
	int cpu, i;

	cycle = c->sleep_ns + c->ideal_ns;
	cal = crunch_calibration_estimate(c->ideal_ns, c->sleep_ns);
	if (o->duration_ns > 0 && o->duration_ns < cycle) {
		log_error("-T/--duration %s is shorter than one cycle (--sleep %s + --ideal %s): expected at least %s, or a shorter --ideal",
			  fmt_time(a, o->duration_ns), fmt_time(b, c->sleep_ns),
			  fmt_time(d, c->ideal_ns), fmt_time(e, cycle));
		return -1;
	}
	/* the cycle under way at the end completes: up to one cycle more */
	if (o->duration_ns > 0 && o->duration_ns < cal + cycle)
		log_warn("-T/--duration %s is shorter than calibration (about %s, before the warm-up and the measurement) + one cycle (%s): the run takes up to about %s + the warm-up",
			 fmt_time(a, o->duration_ns), fmt_sec(b, cal),
			 fmt_time(d, cycle),
			 fmt_sec(e, cal + o->duration_ns + cycle));
	if (!o->quiet)
		fprintf(stderr, "calibrating (about %s)...\n", fmt_sec(a, cal));
	if (!o->cpus_given) {	/* default: the first usable CPU */
		cpu = cpuset_next(&o->cpus, 0);
		cpuset_zero(&o->cpus);
		cpuset_set(&o->cpus, cpu);
	}
	c->n = cpuset_count(&o->cpus);
	c->cpu = calloc((size_t)c->n, sizeof(*c->cpu));
	if (!c->cpu) {
		log_error("out of memory");
		return -1;
	}
	for (i = 0, cpu = cpuset_next(&o->cpus, 0); cpu >= 0;
	     cpu = cpuset_next(&o->cpus, cpu + 1), i++) {
		c->cpu[i].cpu = cpu;
		s = engine_add_sampler(r, cpu, o->policy, o->prio, 2,
				       cruncher_descs);
		if (!s)
			return -1;
		s->priv = &c->cpu[i];
	}
	return 0;
}

static void cruncher_teardown(struct run *r)
{
	struct cruncher *c = r->priv;

	free(c->cpu);
	c->cpu = NULL;
}

static void cruncher_start(struct run *r)
{
	const struct cruncher *c = r->priv;
	char a[32], b[32], p[32];
	int i;

	for (i = 0; i < c->n; i++) {
		const struct crunch_cpu *cc = &c->cpu[i];

		if (cc->cal.done && !cc->cal.within)
			log_warn("calibration on CPU %d: the ideal computation time %s us is not reachable within 5 %%: reached %s us (%s) with %llu iterations",
				 cc->cpu, fmt_us3(a, c->ideal_ns),
				 fmt_us3(b, cc->cal.reached_ns),
				 crunch_fmt_pct(p, crunch_ppm(cc->cal.reached_ns -
							      c->ideal_ns,
							      c->ideal_ns)),
				 (unsigned long long)cc->cal.iterations);
	}
	xeno_banner(r);	/* and cruncher_lines */
}

static const struct xeno_col cruncher_cols[] = {
	{ "sleep min", SLEEP, XENO_MIN },
	{ "sleep avg", SLEEP, XENO_AVG },
	{ "sleep max", SLEEP, XENO_MAX },
	{ "dev min", DEVIATION, XENO_MIN },
	{ "dev avg", DEVIATION, XENO_AVG },
	{ "dev max", DEVIATION, XENO_MAX },
};

/*
 * The figures of the run: for rtlat suite too, the ideal time asked for,
 * the time calibration reached (with several CPUs the one farthest from
 * the ideal) and the largest deviation in % of the ideal as the summary
 * says it; the sleep and the tolerance; a row per CPU: its calibration and
 * computations.
 */
static void cruncher_figures(struct run *r, struct test_figs *f)
{
	const struct cruncher *c = r->priv;
	const struct crunch_cpu *far = NULL;
	char pct[32];
	int i;

	if (!c)
		return;
	fig_num(f, "ideal_ns", "%lld", (long long)c->ideal_ns);
	fig_headline(f);
	for (i = 0; c->cpu && i < c->n; i++) {
		const struct crunch_cpu *cc = &c->cpu[i];

		if (!cc->cal.done)
			continue;	/* not calibrated */
		if (!far || llabs(cc->cal.reached_ns - c->ideal_ns) >
			    llabs(far->cal.reached_ns - c->ideal_ns))
			far = cc;
	}
	if (far) {
		fig_num(f, "calibrated_ns", "%lld",
			(long long)far->cal.reached_ns);
		fig_headline(f);
	}
	if (r->nnames > DEVIATION && r->names[DEVIATION].agg.st.n) {
		/* "+2.77 %" -> "2.77": a number in the index */
		crunch_fmt_pct(pct, crunch_ppm(r->names[DEVIATION].agg.st.max,
					       c->ideal_ns));
		pct[strcspn(pct, " ")] = '\0';
		fig_num(f, "dev_max_pct", "%s", pct + (pct[0] == '+'));
		fig_headline(f);
	}
	fig_num(f, "sleep_ns", "%lld", (long long)c->sleep_ns);
	fig_num(f, "tolerance_ppm", "%d", TOLERANCE_PPM);
	fig_list(f, "cpus", false);
	for (i = 0; c->cpu && i < c->n; i++) {
		const struct crunch_cpu *cc = &c->cpu[i];
		int64_t ppm = crunch_ppm(cc->cal.reached_ns - c->ideal_ns,
					 c->ideal_ns);

		fig_item(f);
		fig_num(f, "cpu", "%d", cc->cpu);
		fig_bool(f, "calibrated", cc->cal.done);
		fig_num(f, "iterations", "%llu", cc->cal.done ?
			(unsigned long long)cc->cal.iterations : 0ULL);
		if (cc->cal.done) {
			fig_num(f, "calibrated_ns", "%lld",
				(long long)cc->cal.reached_ns);
			fig_num(f, "calibrated_deviation_ppm", "%lld",
				(long long)ppm);
			fig_text(f, "%s", crunch_fmt_pct(pct, ppm));
		} else {	/* interrupted during calibration */
			fig_null(f, "calibrated_ns");
			fig_null(f, "calibrated_deviation_ppm");
		}
		fig_bool(f, "within_tolerance", cc->cal.done && cc->cal.within);
		fig_num(f, "calibration_steps", "%d", cc->cal.steps);
		fig_num(f, "calibration_full_runs", "%d", cc->cal.full_runs);
		fig_num(f, "computations", "%llu",
			(unsigned long long)cc->computations);
		fig_num(f, "verify_failures", "%llu",
			(unsigned long long)cc->failures);
	}
}

static const struct test_line cruncher_lines[] = {
	{ LINE_BANNER, NULL,
	  "Ideal computation time {ideal_ns} us (calibrated within 5 %), sleep {sleep_ns} us before each" },
	{ LINE_START, "cpus",
	  "Calibration CPU {cpu}: [?calibrated:{iterations} iterations take {calibrated_ns} us ({calibrated_deviation_ppm})[!within_tolerance:: ideal NOT reached]][!calibrated:interrupted, not calibrated]" },
	{ LINE_SUMMARY, NULL,
	  "Execution deviation from the ideal {ideal_ns} us: {series.deviation.rel:ideal_ns}" },
	{ LINE_SUMMARY, NULL,
	  "Nanosleep jitter of {sleep_ns} us sleeps: {series.sleep.rel:sleep_ns}" },
	{ LINE_SUMMARY, NULL,
	  "FPU verification: {sum.computations} computations, {sum.verify_failures} wrong results" },
	{ 0, NULL, NULL },
};

static const struct output_ops cruncher_output = {
	.start = cruncher_start,
	.interval = xeno_interval,
	.summary = xeno_summary_all,
	.cols = cruncher_cols,
	.ncols = (int)(sizeof(cruncher_cols) / sizeof(cruncher_cols[0])),
};


/* --ideal and --sleep into @priv, the struct cruncher. */
static int cruncher_opt(void *priv, struct engine_opts *o,
			const struct optdesc *d, const char *arg)
{
	struct cruncher *c = priv;
	int64_t *v, min;

	if (d->key != OPT_CRUNCHER_IDEAL && d->key != OPT_CRUNCHER_SLEEP)
		return 1;
	v = d->key == OPT_CRUNCHER_IDEAL ? &c->ideal_ns : &c->sleep_ns;
	min = d->key == OPT_CRUNCHER_IDEAL ? NSEC_PER_USEC : 0;
	if (parse_time_ns(arg, NSEC_PER_USEC, v) < 0 || *v < min ||
	    *v > 10 * NSEC_PER_SEC)
		return opt_bad_value(d, arg, d->key == OPT_CRUNCHER_IDEAL ?
				     "expected a time in us from 1 to 10000000, or with a unit (10ms)" :
				     "expected a time in us up to 10000000, or with a unit (1ms)");
	return 0;
}

static const char cruncher_about[] =
	"Measure how steady a real-time task's computation runs: a\n"
	"floating-point computation is calibrated to the ideal time (default\n"
	"10000 us, within 5 %); then each cycle sleeps (--sleep) and\n"
	"computes once. Series: sleep = nanosleep jitter, deviation =\n"
	"computation time - ideal (signed: faster runs are negative), in us\n"
	"and %. Each result is checked: a wrong one (FPU corruption) is an\n"
	"error. -c: one sampler per CPU (default: the first usable CPU).\n"
	"Calibration runs in each sampler before the warm-up (a signal\n"
	"ends it cleanly); -T, the measurement, must hold one cycle.\n"
	"--max-latency applies to both series.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.";

/* -c: the default is one CPU, not all */
static const struct opt_help cruncher_help[] = {
	{ 'c', "CPUs to compute on, one sampler each, e.g. 0 or 0,2-3\n"
	       "(default: the first CPU rtlat may use)" },
	{ 0, NULL },
};

static void cruncher_init(void *priv, struct engine_opts *o, int argc,
			  char **argv)
{
	struct cruncher *c = priv;

	c->ideal_ns = 10 * NSEC_PER_MSEC;
	c->sleep_ns = NSEC_PER_MSEC;
}

/* The seed's "Ideal computation time" and the execution jitter. */
static const struct suite_col cruncher_suite_cols[] = {
	{ "ideal", "ideal_ns", SUITE_FIGURE },
	{ "calibrated", "calibrated_ns", SUITE_FIGURE },
	{ "dev min", "deviation", SUITE_MIN },
	{ "dev avg", "deviation", SUITE_AVG },
	{ "dev max", "deviation", SUITE_MAX },
	{ "dev max %", "dev_max_pct", SUITE_FIGURE },
	{ "sleep max", "sleep", SUITE_MAX },
	{ "test-time", NULL, SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

static const struct optdesc *const cruncher_opts[] = {
	cruncher_opts_table, engine_common_opts, NULL,
};

const struct test_desc cruncher_test = {
	.name = "cruncher",
	.mode = "calibrated floating-point computation",
	.summary = "execution-time jitter of a calibrated FP computation (Xenomai cruncher)",
	.about = cruncher_about,
	.period_ns = 0,
	.prio = 99,
	.opts = cruncher_opts,
	.help = cruncher_help,
	.priv_size = sizeof(struct cruncher),
	.init = cruncher_init,
	.opt = cruncher_opt,
	.setup = cruncher_setup,
	.prepare = cruncher_prepare,
	.body = cruncher_body,
	.teardown = cruncher_teardown,
	.figures = cruncher_figures,
	.lines = cruncher_lines,
	.out = &cruncher_output,
	.suite = &(const struct suite_spec){
		.title = "CRUNCHER",
		.units = "times in us, dev = computation time - ideal, sleep max = latest wake-up from the sleep between computations",
		.cols = cruncher_suite_cols,
	},
};
