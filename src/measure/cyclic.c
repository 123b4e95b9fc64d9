// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat cyclic: a drop-in for the common cyclictest (rt-tests) command
 * lines, measured by the rtlat engine. cyclictest's options keep their
 * meaning; the output is cyclictest's (T: lines, -h histogram, --json), with
 * what cyclictest gets wrong fixed: missed periods are counted (overruns),
 * threads without a cycle show n/a, -b stops every thread and exits 2.
 * See man/rtlat-cyclic.1 for the mapping.
 */
#include <ctype.h>
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "measure/cyclic.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "output/result.h"
#include "system/rtsetup.h"
#include "measure/lib/timer_test.h"
#include "util/timeutil.h"

/* live display and interval records: 100 ms */
#define CYCLIC_INTERVAL_NS	(100 * NSEC_PER_MSEC)

const struct optdesc cyclic_opt_table[] = {
	{ "affinity", 'a', optional_argument, "CPUSET",
	  "pin the threads round-robin to the CPUs of\n"
	  "CPUSET (0,2-3); without CPUSET (and by default)\n"
	  "to every usable CPU", 'a' },
	{ "breaktrace", 'b', required_argument, "US",
	  "stop every thread when a latency exceeds US,\n"
	  "print thread, value and cycle, exit status 2\n"
	  "(0 = off)", 'b' },
	{ "clock", 'c', required_argument, "CLOCK",
	  "0 or monotonic (default), 1 or realtime", 'c' },
	{ "distance", 'd', required_argument, "US",
	  "thread N's interval is -i + N * US\n"
	  "(default 500; 0 with -h)", 'd' },
	{ "duration", 'D', required_argument, "TIME",
	  "run for TIME: 30 (s), 30s, 10m, 2h, 1d\n"
	  "(default: until Ctrl-C)", 'D' },
	{ "histogram", 'h', required_argument, "US",
	  "print a histogram of 1 us buckets up to US\n"
	  "after the run", 'h' },
	{ "histofall", 'H', required_argument, "US",
	  "as -h, with a summary column over all threads", 'H' },
	{ "histfile", 0, required_argument, "PATH",
	  "write the histogram to PATH instead of stdout", OPT_CYCLIC_HISTFILE },
	{ "interval", 'i', required_argument, "US",
	  "interval of thread 0 in us (default 1000)", 'i' },
	{ "json", 0, required_argument, "FILE",
	  "write the results to FILE (-: standard output):\n"
	  "rt-tests JSON layout plus rtlat fields\n"
	  "(docs/cyclic-json.md)", OPT_CYCLIC_JSON },
	{ "loops", 'l', required_argument, "LOOPS",
	  "stop each thread after LOOPS wake-ups (C:\n"
	  "ends at LOOPS; missed periods are counted\n"
	  "as overruns on top; default 0 = endless)", 'l' },
	{ "mlockall", 'm', no_argument, NULL,
	  "lock memory (always done; see --no-mlock)", 'm' },
	{ "nanosleep", 'n', no_argument, NULL,
	  "clock_nanosleep (always the default; accepted)", 'n' },
	{ "nsecs", 'N', no_argument, NULL,
	  "print latencies in ns (histogram buckets stay 1 us)", 'N' },
	{ "priority", 'p', required_argument, "PRIO",
	  "SCHED_FIFO priority of the threads\n"
	  "(default 0: SCHED_OTHER, as cyclictest)", 'p' },
	{ "policy", 0, required_argument, "NAME",
	  "other, normal, batch, idle, fifo or rr", OPT_CYCLIC_POLICY },
	{ "priospread", 0, no_argument, NULL,
	  "thread N runs at priority PRIO - N", OPT_CYCLIC_PRIOSPREAD },
	{ "quiet", 'q', no_argument, NULL,
	  "print only the summary on exit", 'q' },
	{ "relative", 'r', no_argument, NULL,
	  "relative timer: sleep the interval from each wake-up", 'r' },
	{ "system", 's', no_argument, NULL,
	  "sys_nanosleep: relative nanosleep() (as -r)", 's' },
	{ "smp", 'S', no_argument, NULL,
	  "one thread per CPU, pinned, same priority (-t -a)", 'S' },
	{ "threads", 't', optional_argument, "NUM",
	  "number of threads (default 1; without NUM\n"
	  "one per CPU)", 't' },
	{ "tracemark", 0, no_argument, NULL,
	  "with -b, write a trace marker (always done\n"
	  "when tracefs is mounted)", OPT_CYCLIC_TRACEMARK },
	{ "unbuffered", 'u', no_argument, NULL,
	  "unbuffered standard output", 'u' },
	{ "verbose", 'v', no_argument, NULL,
	  "print every sample: thread:cycle:latency", 'v' },
	{ "posix_timers", 'x', no_argument, NULL,
	  "POSIX interval timer (timer_create + sigwaitinfo)", 'x' },
	{ "default-system", 0, no_argument, NULL,
	  "leave /dev/cpu_dma_latency alone", OPT_CYCLIC_DEFAULT_SYSTEM },
	{ "laptop", 0, no_argument, NULL,
	  "leave /dev/cpu_dma_latency alone (saves battery)", OPT_CYCLIC_LAPTOP },
	{ "warmup", 0, required_argument, "TIME",
	  "rtlat: warm-up excluded from all results\n"
	  "(default 0)", OPT_CYCLIC_WARMUP },
	{ "no-mlock", 0, no_argument, NULL,
	  "rtlat: do not lock memory (page faults show\n"
	  "as latency)", OPT_CYCLIC_NO_MLOCK },
	{ "max-msw", 0, required_argument, "N",
	  "rtlat, Xenomai Cobalt build: exit status 2 if\n"
	  "the threads switched to secondary mode more\n"
	  "than N times (0: any)", OPT_CYCLIC_MAX_MSW },
	{ "mainaffinity", 0, required_argument, "CPUSET",
	  "run the main thread (and rtlat's display\n"
	  "thread) on CPUSET; as --housekeeping CPUSET", OPT_CYCLIC_MAINAFFINITY },
	{ "housekeeping", 0, required_argument, "WHERE",
	  "rtlat: where the main and display threads\n"
	  "run: auto (default), measured, any or a CPU\n"
	  "list (see the manual page)", OPT_CYCLIC_HOUSEKEEPING },
	OPT_END
};

void cyclic_opts_init(struct cyclic_opts *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	engine_opts_init(&c->eo, CYCLIC_DEFAULT_INTERVAL_US * NSEC_PER_USEC, 0);
	c->eo.warmup_ns = 0;
	c->eo.interval_ns = CYCLIC_INTERVAL_NS;
	c->eo.policy = SCHED_OTHER;
	c->eo.checkpoint_ns = 0;
	c->eo.interval_rows = 0;	/* the JSON has no interval series */
	c->threads = 1;
	c->policy = -1;
	c->interval_ns = CYCLIC_DEFAULT_INTERVAL_US * NSEC_PER_USEC;
	c->distance_ns = CYCLIC_DEFAULT_DISTANCE_US * NSEC_PER_USEC;
	c->argc = argc;
	c->argv = argv;
}

int cyclic_parse_duration(const char *s, int64_t *ns)
{
	char buf[64];
	size_t n = strlen(s), i;

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	/* cyclictest also takes 10M, 2H, 1D */
	for (i = 0; i < n; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	buf[n] = '\0';
	return parse_duration_ns(buf, DURATION_MAX_NS, ns) < 0 ? -EINVAL : 0;
}

/* The value of an optional argument given as the next word ("-t 2"), as
 * cyclictest takes it: only when that word looks like one. */
static const char *next_word_arg(struct cyclic_opts *c, bool cpuset)
{
	const char *w;

	if (optind >= c->argc)
		return NULL;
	w = c->argv[optind];
	if (!isdigit((unsigned char)w[0]))
		return NULL;
	if (!cpuset && strspn(w, "0123456789") != strlen(w))
		return NULL;
	optind++;
	return w;
}

static int us_opt(const struct optdesc *d, const char *arg, int64_t min_us,
		  int64_t max_us, int64_t *ns)
{
	long long v;

	if (parse_int(arg, min_us, max_us, &v) < 0) {
		char what[96];

		snprintf(what, sizeof(what), "expected microseconds %lld..%lld",
			 (long long)min_us, (long long)max_us);
		return opt_bad_value(d, arg, what);
	}
	*ns = v * NSEC_PER_USEC;
	return 0;
}

static int hist_opt(struct cyclic_opts *c, const struct optdesc *d,
		    const char *arg)
{
	long long v;

	if (parse_int(arg, 0, CYCLIC_HIST_MAX, &v) < 0)
		return opt_bad_value(d, arg, "expected the histogram range in us, 0..1000000");
	c->hist_buckets = (long)v;
	return 0;
}

/* cyclic_opt() for the flags and rtlat's own options; 1 for an option
 * that is not cyclic's (a companion's). */
static int cyclic_opt_more(struct cyclic_opts *c, const struct optdesc *d,
			   const char *arg)
{
	char err[256];
	long long v;

	switch (d->key) {
	case 'm':
	case 'n':
	case OPT_CYCLIC_TRACEMARK:
		return 0;
	case 'N':
		c->nsecs = true;
		return 0;
	case 'p':
		if (parse_int(arg, 0, 99, &v) < 0)
			return opt_bad_value(d, arg, "expected a priority 0..99");
		c->prio = (int)v;
		return 0;
	case OPT_CYCLIC_POLICY:
		if (!strcasecmp(arg, "batch"))
			c->policy = SCHED_BATCH;
		else if (!strcasecmp(arg, "idle"))
			c->policy = SCHED_IDLE;
		else if (!strcasecmp(arg, "normal"))
			c->policy = SCHED_OTHER;
		else if (policy_parse(arg, &c->policy) < 0)
			return opt_bad_value(d, arg, "expected other, normal, batch, idle, fifo or rr");
		c->policy_arg = arg;
		return 0;
	case OPT_CYCLIC_PRIOSPREAD:
		c->priospread = true;
		return 0;
	case 'q':
		c->eo.quiet = true;
		return 0;
	case 'r':
		c->relative = true;
		return 0;
	case 's':
		c->sys_nanosleep = true;
		return 0;
	case 'S':
		c->smp = true;
		return 0;
	case 't':
		if (!arg)
			arg = next_word_arg(c, false);
		c->threads_given = true;
		if (!arg) {
			c->threads = 0;
			return 0;
		}
		if (parse_int(arg, 1, CYCLIC_MAX_THREADS, &v) < 0)
			return opt_bad_value(d, arg, "expected a number of threads 1..1024");
		c->threads = (int)v;
		return 0;
	case 'u':
		setvbuf(stdout, NULL, _IONBF, 0);
		return 0;
	case 'v':
		c->verbose = true;
		c->eo.raw_samples = true;
		return 0;
	case 'x':
		c->posix_timers = true;
		return 0;
	case OPT_CYCLIC_DEFAULT_SYSTEM:
	case OPT_CYCLIC_LAPTOP:
		c->eo.dma_latency = false;
		return 0;
	case OPT_CYCLIC_WARMUP:
		if (parse_time_ns(arg, NSEC_PER_SEC, &c->eo.warmup_ns) < 0 ||
		    c->eo.warmup_ns > 3600 * NSEC_PER_SEC)
			return opt_bad_value(d, arg, "expected a time such as 0, 1s, 500ms");
		return 0;
	case OPT_CYCLIC_NO_MLOCK:
		c->eo.mlock = false;
		return 0;
	case OPT_CYCLIC_MAX_MSW:
		return engine_max_msw_opt(&c->eo, d, arg);
	case OPT_CYCLIC_MAINAFFINITY:
		if (cpulist_parse(arg, &c->eo.hk.list, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		c->eo.hk.policy = HK_LIST;
		return 0;
	case OPT_CYCLIC_HOUSEKEEPING:
		if (hk_parse(&c->eo.hk, arg, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		return 0;
	}
	return 1;	/* a companion's (--metrics) */
}

int cyclic_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct cyclic_opts *c = ctx;
	char err[256];
	long long v;
	int64_t t = 0;

	switch (d->key) {
	case 'a':
		c->affinity = true;
		if (!arg)
			arg = next_word_arg(c, true);
		if (!arg)
			return 0;
		if (cpulist_parse(arg, &c->aff, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		c->affinity_set = true;
		return 0;
	case 'b':
		if (us_opt(d, arg, 0, 3600 * 1000000LL, &t) < 0)
			return -1;
		c->eo.break_ns = t ? t : -1;
		return 0;
	case 'c':
		if (!strcmp(arg, "0") || !strcmp(arg, "monotonic"))
			c->eo.clock = CLOCK_MONOTONIC;
		else if (!strcmp(arg, "1") || !strcmp(arg, "realtime"))
			c->eo.clock = CLOCK_REALTIME;
		else
			return opt_bad_value(d, arg, "expected 0 (monotonic) or 1 (realtime)");
		return 0;
	case 'd':
		c->distance_given = true;
		return us_opt(d, arg, 0, 10 * 1000000LL, &c->distance_ns);
	case 'D':
		if (cyclic_parse_duration(arg, &c->eo.duration_ns) < 0)
			return opt_bad_value(d, arg, DURATION_HINT);
		return 0;
	case 'H':
		c->histofall = true;
		return hist_opt(c, d, arg);
	case 'h':
		return hist_opt(c, d, arg);
	case OPT_CYCLIC_HISTFILE:
		c->histfile = arg;
		return 0;
	case 'i':
		return us_opt(d, arg, 1, 10 * 1000000LL, &c->interval_ns);
	case OPT_CYCLIC_JSON:
		c->json_file = arg;
		return 0;
	case 'l':
		if (parse_int(arg, 0, INT64_MAX, &v) < 0)
			return opt_bad_value(d, arg, "expected a number of cycles (0 = endless)");
		c->eo.max_wakeups = (uint64_t)v;
		return 0;
	}
	return cyclic_opt_more(c, d, arg);
}

/* Append a note (sentences separated by "; "). */
static void add_note(char *note, size_t len, const char *s)
{
	size_t n = strlen(note);

	snprintf(note + n, len - n, "%s%s", n ? "; " : "", s);
}

/* The CPUs cyclic_layout() places threads on. */
static const struct cpuset *cyclic_layout_set(const struct cyclic_opts *c,
					      const struct cpuset *usable)
{
	return !c->smp && c->affinity_set ? &c->aff : usable;
}

int cyclic_layout_count(const struct cyclic_opts *c,
			const struct cpuset *usable)
{
	int ncpus = cpuset_count(cyclic_layout_set(c, usable));

	if (ncpus == 0)
		return 0;
	return !c->smp && c->threads ? c->threads : ncpus;
}

int cyclic_layout(const struct cyclic_opts *c, const struct cpuset *usable,
		  struct cyclic_thread *t, int max, char *err, size_t errlen,
		  char *note, size_t notelen)
{
	const struct cpuset *set = cyclic_layout_set(c, usable);
	int n = cyclic_layout_count(c, usable), policy, prio, i, cpu;
	char msg[96];

	note[0] = '\0';
	if (c->smp) {
		if (c->threads_given && c->threads)
			add_note(note, notelen, "-t ignored due to smp mode");
		if (c->affinity_set)
			add_note(note, notelen, "-a ignored due to smp mode");
	}
	if (n == 0) {
		snprintf(err, errlen, "no CPU to run on");
		return -1;
	}
	if (n > max) {
		snprintf(err, errlen, "%d threads: at most %d", n, max);
		return -1;
	}

	/* cyclictest's rules: a priority means SCHED_FIFO (or rr);
	 * fifo/rr or --priospread without one default it to threads + 1 */
	policy = c->policy >= 0 ? c->policy : SCHED_OTHER;
	prio = c->prio;
	if (c->priospread && prio == 0) {
		prio = n + 1;
		snprintf(msg, sizeof(msg), "defaulting realtime priority to %d",
			 prio);
		add_note(note, notelen, msg);
	}
	/* (given with --policy, this is cyclic_policy_warning()'s) */
	if (prio && policy != SCHED_FIFO && policy != SCHED_RR)
		policy = SCHED_FIFO;
	/* the samplers run SCHED_OTHER for batch and idle */
	if (policy != SCHED_FIFO && policy != SCHED_RR)
		policy = SCHED_OTHER;
	if ((policy == SCHED_FIFO || policy == SCHED_RR) && prio == 0) {
		prio = n + 1;
		snprintf(msg, sizeof(msg), "defaulting realtime priority to %d",
			 prio);
		add_note(note, notelen, msg);
	}
	if (c->priospread && prio - (n - 1) < 1) {
		snprintf(err, errlen,
			 "--priospread: %d threads from priority %d go below priority 1",
			 n, prio);
		return -1;
	}

	cpu = -1;
	for (i = 0; i < n; i++) {
		cpu = cpuset_next(set, cpu + 1);
		if (cpu < 0)
			cpu = cpuset_next(set, 0);
		t[i].cpu = cpu;
		t[i].policy = policy;
		t[i].prio = policy == SCHED_OTHER ? 0 :
			    prio - (c->priospread ? i : 0);
		/* with -h every thread has the same interval */
		t[i].period_ns = c->interval_ns +
			(c->hist_buckets ? 0 : (int64_t)i * c->distance_ns);
	}
	if (c->hist_buckets && c->distance_given && c->distance_ns)
		add_note(note, notelen,
			 "distance is ignored and set to 0, if histogram enabled");
	return n;
}

const char *cyclic_policy_warning(const struct cyclic_opts *c,
				  const struct cyclic_thread *t, char *buf,
				  size_t len)
{
	buf[0] = '\0';
	if (c->policy < 0 || c->policy == t->policy)
		return NULL;
	if (t->policy == SCHED_FIFO)
		snprintf(buf, len,
			 "--policy %s with priority %d: policy and priority don't match, running SCHED_FIFO (as cyclictest does)",
			 c->policy_arg ? c->policy_arg : policy_name(c->policy),
			 t->prio);
	else
		snprintf(buf, len,
			 "--policy %s: running SCHED_OTHER (rtlat cyclic runs fifo, rr or other)",
			 c->policy_arg ? c->policy_arg : policy_name(c->policy));
	return buf;
}

/* ---------------------------------------------------------------------- */

static const struct series_desc cyclic_series = {
	.name = "latency", .miss_name = "overruns", .threshold = true,
};
static const struct series_desc *const cyclic_descs[] = { &cyclic_series };

static int cyclic_setup(struct run *r)
{
	struct cyclic_run *cr = r->priv;
	struct cyclic_opts *c = &cr->c;
	struct cyclic_state *st = &cr->st;
	struct cyclic_thread *t;
	struct cpuset usable;
	char err[1024], note[512];
	int n, i, max;

	if (c->json_file &&
	    result_check_writable(c->json_file, err, sizeof(err)) < 0) {
		log_error("--json: %s", err);
		return -1;
	}
	if (c->histfile &&
	    result_check_writable(c->histfile, err, sizeof(err)) < 0) {
		log_error("--histfile: %s", err);
		return -1;
	}
	/* one file for two outputs (also --metrics, --junit, ...) */
	if ((c->histfile && c->hist_buckets &&
	     output_claim("--histfile", c->histfile, err, sizeof(err)) < 0) ||
	    (c->json_file &&
	     output_claim("--json", c->json_file, err, sizeof(err)) < 0)) {
		log_error("%s", err);
		return -1;
	}
	/* engine_run() filled o->cpus with the usable CPUs (not given) */
	usable = r->o->cpus;
	/* as many as are laid out (not CYCLIC_MAX_THREADS: freed, the
	 * space stays in the heap mlockall() locks; none is the error
	 * cyclic_layout() says) */
	max = cyclic_layout_count(c, &usable);
	if (max > CYCLIC_MAX_THREADS)
		max = CYCLIC_MAX_THREADS;
	t = calloc((size_t)max + 1, sizeof(*t));
	if (!t) {
		log_error("out of memory");
		return -1;
	}
	n = cyclic_layout(c, &usable, t, max, err, sizeof(err),
			  note, sizeof(note));
	if (n <= 0) {
		log_error("%s", n < 0 ? err : "no measuring thread");
		goto fail;
	}
	if (note[0])
		log_note("%s", note);
	/* the policy given is not the one run: a warning, in the result too */
	if (cyclic_policy_warning(c, &t[0], err, sizeof(err)))
		engine_warn(r, "%s", err);
	if (t[0].policy == SCHED_OTHER)
		log_note("running SCHED_OTHER as cyclictest does without -p; give -p PRIO for a real-time measurement");
	if (c->affinity_set && !c->smp) {
		if (cpus_check(&c->aff, err, sizeof(err)) < 0) {
			log_error("-a %s", err);
			goto fail;
		}
		r->o->cpus = c->aff;
	}
	for (i = 0; i < n; i++) {
		struct sampler *s = engine_add_sampler(r, t[i].cpu, t[i].policy,
						       t[i].prio, 1,
						       cyclic_descs);

		if (!s)
			goto fail;
		s->period_ns = t[i].period_ns;
	}
	/* the engine checks policy and priority of thread 0 */
	r->o->policy = t[0].policy;
	r->o->prio = t[0].prio;
	st->c = c;
	st->live = calloc((size_t)n, sizeof(*st->live));
	if (!st->live) {
		log_error("out of memory");
		goto fail;
	}
	free(t);
	return 0;
fail:
	free(t);
	return -1;
}

static void cyclic_teardown(struct run *r)
{
	struct cyclic_state *st = r->priv;	/* first of struct cyclic_run */

	free(st->live);
	st->live = NULL;
}

static void cyclic_init(void *priv, struct engine_opts *o, int argc,
			char **argv)
{
	struct cyclic_run *cr = priv;

	cyclic_opts_init(&cr->c, argc, argv);
}

static int cyclic_opt_priv(void *priv, struct engine_opts *o,
			   const struct optdesc *d, const char *arg)
{
	struct cyclic_run *cr = priv;

	return cyclic_opt(&cr->c, d, arg);
}

/* cyclictest's options onto what the engine runs with, @o */
static int cyclic_configure(void *priv, struct engine_opts *o)
{
	struct cyclic_run *cr = priv;
	struct cyclic_opts *c = &cr->c;

	/* -s wins over -x, as in cyclictest; -r and -s sleep relative */
	if (c->sys_nanosleep && c->posix_timers)
		log_note("-s uses nanosleep and is not compatible with -x: using nanosleep");
	if (c->relative || c->sys_nanosleep)
		c->eo.wait = WAIT_REL;
	else if (c->posix_timers)
		c->eo.wait = WAIT_POSIX;
	if (c->relative && c->posix_timers && !c->sys_nanosleep)
		c->eo.wait = WAIT_POSIX;
	if (c->hist_buckets) {
		c->eo.linear_hist = true;
		c->eo.hist_bucket_ns = NSEC_PER_USEC;
		c->eo.hist_buckets = c->hist_buckets;
		c->eo.overflow_cycles = (size_t)c->hist_buckets;
	}
	if (c->histfile && !c->hist_buckets)
		log_note("--histfile without -h/-H: no histogram to write");
	c->eo.period_ns = c->interval_ns;
	if (c->eo.interval_ns < c->interval_ns)
		c->eo.interval_ns = c->interval_ns;
	*o = c->eo;
	return 0;
}

static const struct optdesc *const cyclic_opts[] = {
	cyclic_opt_table, NULL,
};

const struct test_desc cyclic_test = {
	.name = "cyclic",
	.mode = "cyclictest-compatible periodic task",
	.summary = "cyclictest-compatible latency test (same options and output)",
	.about =
	"cyclictest (rt-tests) compatible: the same options and output\n"
	"(T: lines, -h histogram, --json), measured by the rtlat engine.\n"
	"Missed periods are counted and printed (# Overruns), threads\n"
	"without a cycle print n/a, -b stops every thread.\n"
	"Exit status: 0 ok, 1 error, 2 -b latency exceeded.",
	.opts = cyclic_opts,
	.own_options = true,
	.priv_size = sizeof(struct cyclic_run),
	.init = cyclic_init,
	.opt = cyclic_opt_priv,
	.configure = cyclic_configure,
	.setup = cyclic_setup,
	.body = timer_test_body,
	.teardown = cyclic_teardown,
	.out = &cyclic_output,
};
