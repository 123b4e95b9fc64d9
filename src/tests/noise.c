// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat noise: OS noise and hardware latency seen by a busy task, the
 * measurement of oslat and of the osnoise/hwlat tracers from user space.
 * On each chosen CPU a sampler spins reading the clock; the time between
 * two consecutive reads is a gap. A gap above --threshold is a noise
 * event (the CPU was taken away: an interrupt, a softirq, another task,
 * or the hardware/firmware): its length goes into the series "gap" (the
 * engine's statistics, histogram, percentiles, intervals) and into the
 * list of events (start and length); the others are the loop's own time,
 * reading the clock.
 *
 * Accounting: each gap is counted once, as noise or as loop time, and the
 * gaps tile the measurement: the first starts at its start, the last is
 * cut at its end, so noise time + loop time = measured time.
 *
 * The loop is the measurement: per iteration one clock read, one
 * subtraction, two comparisons (a gap above the threshold, the next
 * check) and the loop-time sums; everything else (an event, the end, the
 * stop, an interval to hand over) is behind those comparisons.
 *
 * --mode hwlat is hwlatdetect's method from user space: the loop spins
 * --width out of every --window (1 s, 0.5 s: hwlatdetect's defaults) and
 * sleeps the rest, so that the kernel's own work is done outside the
 * spins; the default CPU is an isolated one. The measured time is the
 * spun time; each spin's gaps tile it. With --trace a gap no trace event
 * explains is the hardware's or the firmware's (hwlat's conclusion).
 * Where the kernel has the hwlat tracer, it runs first for as long on the
 * same CPUs with the same threshold, width and window: the reference
 * (noise_hwlat.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/engine.h"
#include "core/jsonw.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/parse.h"
#include "core/sysinfo.h"
#include "core/timeutil.h"
#include "output/output.h"
#include "tests/noise.h"

enum { OPT_THRESHOLD = 720, OPT_MODE, OPT_WINDOW, OPT_WIDTH, OPT_NO_REF };

/* The kernel's hwlat tracer uses 10 us when tracing_thresh is 0, and
 * hwlatdetect (rt-tests) passes 10 us by default. */
#define DEFAULT_THRESHOLD_NS	(10 * NSEC_PER_USEC)
#define CHECK_NS		NSEC_PER_MSEC	/* stop, end, intervals */
#define LIST_CAP		10000		/* events listed per CPU */
/* hwlatdetect's defaults (and the hwlat tracer's) */
#define DEFAULT_WINDOW_NS	NSEC_PER_SEC
#define DEFAULT_WIDTH_NS	(NSEC_PER_SEC / 2)
#define REF_UNBOUNDED_WINDOWS	10	/* reference of a run without -T */

/* Upper bounds (exclusive, us) of the ranges events are counted in; the
 * first range starts at the threshold, the last is open. */
static const int64_t range_us[] = { 20, 50, 100, 200, 500, 1000, 10000 };
#define NRANGES	((int)(sizeof(range_us) / sizeof(range_us[0])) + 1)

struct noise_ev {
	int64_t start;		/* test clock, ns */
	int64_t len;		/* ns */
};

/* Per sampler (CPU). Written by the sampler only, read after the join. */
struct noise_cpu {
	int cpu;
	bool measured;		/* reached the measurement */
	int64_t spun_ns;	/* the measured time: the spins' (tiled by
				 * the gaps) */
	uint64_t spins;		/* --mode hwlat: spins begun */
	uint64_t iterations;	/* gaps (clock reads) in the measurement */
	uint64_t events;	/* gaps above the threshold */
	int64_t noise_ns;	/* their sum */
	int64_t loop_ns;	/* sum of the other gaps */
	int64_t loop_min, loop_max;	/* of the other gaps */
	uint64_t range[NRANGES];
	struct noise_ev *ev;	/* the first LIST_CAP events */
	size_t nev;
};

enum noise_mode { MODE_BUSY, MODE_HWLAT };

struct noise {
	int64_t threshold_ns;
	enum noise_mode mode;
	int64_t window_ns, width_ns;	/* --mode hwlat */
	bool no_ref;			/* --no-reference */
	bool hw_opts;			/* --window, --width or
					 * --no-reference given */
	bool isolated;			/* the measured CPUs are isolated */
	struct hwlat_ref ref;		/* the kernel's hwlat tracer */
	int n;
	struct noise_cpu *cpu;
};

/* The loop's sums, carried from one spin to the next. */
struct loop {
	int64_t close_at;	/* next interval to hand over */
	int64_t loop_ns, lmin, lmax;
	uint64_t iters;
};

static const struct series_desc gap_series = {
	.name = "gap", .miss_name = "overruns", .threshold = true,
};
static const struct series_desc *const noise_descs[] = { &gap_series };

static int range_of(int64_t ns)
{
	int i;

	for (i = 0; i < NRANGES - 1; i++)
		if (ns < range_us[i] * NSEC_PER_USEC)
			break;
	return i;
}

/* The first range an event can fall in: the ranges below the threshold
 * hold none (an event is longer than the threshold). */
static int first_range(const struct noise *n)
{
	int i;

	for (i = 0; i < NRANGES - 1; i++)
		if (range_us[i] * NSEC_PER_USEC > n->threshold_ns)
			break;
	return i;
}

/* A gap of @len ns from @start above the threshold (out of the loop). */
static __attribute__((noinline, cold)) void
noise_event(struct sampler *s, struct noise_cpu *nc, int64_t start,
	    int64_t len)
{
	sampler_add(s, 0, len, start);
	nc->events++;
	nc->noise_ns += len;
	nc->range[range_of(len)]++;
	if (nc->nev < LIST_CAP) {
		nc->ev[nc->nev].start = start;
		nc->ev[nc->nev].len = len;
		nc->nev++;
	}
}

/*
 * Spin from @a to @b (test clock, ns), @t the first clock read (>= @a):
 * the first gap starts at @a, the last is cut at @b. Returns false when
 * the run is stopping.
 */
static bool spin(struct sampler *s, struct noise_cpu *nc, struct loop *l,
		 int64_t a, int64_t b, int64_t t)
{
	struct run *r = s->run;
	const struct noise *n = r->priv;
	const clockid_t clk = r->o->clock;
	const int64_t thr = n->threshold_ns, iv = r->o->interval_ns;
	const int64_t t0 = r->t_measure;
	int64_t d, prev = a, check = t, close_at = l->close_at;
	int64_t loop_ns = 0, lmin = l->lmin, lmax = l->lmax;
	uint64_t iters = 0;
	bool last, going = true;

	for (;;) {
		last = t >= check;
		if (__builtin_expect(last, 0) && t > b)
			t = b;	/* the last gap ends with the spin */
		d = t - prev;
		if (__builtin_expect(d > thr, 0)) {
			noise_event(s, nc, prev, d);
		} else {
			loop_ns += d;
			if (d < lmin)
				lmin = d;
			if (d > lmax)
				lmax = d;
		}
		iters++;
		prev = t;
		if (__builtin_expect(last, 0)) {
			if (sampler_stopping(s))
				going = false;
			if (t >= b || !going)
				break;
			/* the first read in a new interval is a check: the
			 * interval of every gap before it is handed over */
			if (t >= close_at) {
				sampler_close(s, t);
				close_at = t0 + ((t - t0) / iv + 1) * iv;
			}
			check = b - t > CHECK_NS ? t + CHECK_NS : b;
			if (check > close_at)
				check = close_at;
		}
		t = clock_now_ns(clk);
	}
	nc->spun_ns += prev - a;
	l->close_at = close_at;
	l->loop_ns += loop_ns;
	l->lmin = lmin;
	l->lmax = lmax;
	l->iters += iters;
	return going;
}

/* Sleep until @at (test clock); false when the run is stopping. */
static bool sleep_until(struct sampler *s, int64_t at)
{
	const clockid_t clk = s->run->o->clock;
	struct timespec ts = ns_to_ts(at);

	while (clock_nanosleep(clk, TIMER_ABSTIME, &ts, NULL) == EINTR)
		if (sampler_stopping(s))
			return false;
	return !sampler_stopping(s);
}

static int noise_body(struct sampler *s)
{
	struct noise_cpu *nc = s->priv;
	struct run *r = s->run;
	const struct noise *n = r->priv;
	const clockid_t clk = r->o->clock;
	const int64_t end = r->t_end, t0 = r->t_measure;
	struct loop l = { t0 + r->o->interval_ns, 0, INT64_MAX, 0, 0 };
	int64_t t = 0, a, b;
	uint64_t k;

	if (n->mode == MODE_BUSY) {
		/* the start lead and the warm-up: spin, nothing accounted */
		do {
			if (sampler_stopping(s))
				return 0;
			t = clock_now_ns(clk);
		} while (t < t0);
		nc->measured = true;
		spin(s, nc, &l, t0, end, t);
	} else {
		/* a spin of --width at the start of every --window */
		for (k = 0;; k++) {
			a = t0 + (int64_t)k * n->window_ns;
			if (a >= end || !sleep_until(s, a))
				break;
			do
				t = clock_now_ns(clk);
			while (t < a);
			/* the spin starts at its first clock read: the wake-up
			 * from the sleep is the timer's latency, not noise (as
			 * the hwlat tracer's sampling starts when it runs) */
			b = end - a > n->width_ns ? a + n->width_ns : end;
			if (t >= b)
				continue;	/* woken after the spin's end */
			nc->measured = true;
			nc->spins++;
			if (!spin(s, nc, &l, t, b, t))
				break;
		}
	}
	nc->iterations = l.iters;
	nc->loop_ns = l.loop_ns;
	nc->loop_min = l.lmin;
	nc->loop_max = l.lmax;
	return 0;
}

/* The CPUs of /sys/devices/system/cpu/isolated into @iso (empty: none). */
static void isolated_cpus(struct cpuset *iso)
{
	char buf[256], err[128];

	cpuset_zero(iso);
	if (sys_read_file("/", "/sys/devices/system/cpu/isolated", buf,
			  sizeof(buf)) <= 0 ||
	    cpulist_parse(buf, iso, err, sizeof(err)) < 0)
		cpuset_zero(iso);
}

/* The CPUs to measure when -c is not given: the last CPU rtlat may use;
 * --mode hwlat: the last isolated one it may use, when there is one. */
static void default_cpu(struct engine_opts *o, const struct noise *n,
			const struct cpuset *iso)
{
	int i, cpu = -1, icpu = -1;

	for (i = cpuset_next(&o->cpus, 0); i >= 0;
	     i = cpuset_next(&o->cpus, i + 1)) {
		cpu = i;
		if (cpuset_isset(iso, i))
			icpu = i;
	}
	if (n->mode == MODE_HWLAT && icpu >= 0)
		cpu = icpu;
	cpuset_zero(&o->cpus);
	cpuset_set(&o->cpus, cpu);
}

/* --mode hwlat: where rtlat measures, and the kernel's reference first. */
static void hwlat_prepare(struct run *r, struct noise *n,
			  const struct cpuset *iso)
{
	struct engine_opts *o = r->o;
	char cpus[128], t[32];
	int64_t dur;
	int c;

	n->isolated = true;
	for (c = cpuset_next(&o->cpus, 0); c >= 0;
	     c = cpuset_next(&o->cpus, c + 1))
		if (!cpuset_isset(iso, c))
			n->isolated = false;
	if (!n->isolated)
		engine_warn(r, "--mode hwlat: CPU %s not isolated (isolcpus=, cpuset): the interrupts and tasks of a shared CPU show as gaps; --trace says which",
			    cpulist_format(&o->cpus, cpus, sizeof(cpus)));
	if (n->no_ref) {
		snprintf(n->ref.why, sizeof(n->ref.why), "not run (--no-reference)");
		return;
	}
	dur = o->duration_ns > 0 ? o->duration_ns :
	      REF_UNBOUNDED_WINDOWS * n->window_ns;
	if (!hwlat_ref_available(n->ref.why, sizeof(n->ref.why)))
		return;
	log_note("--mode hwlat: the kernel's hwlat tracer first, on CPU %s for %s (the reference)...",
		 cpulist_format(&o->cpus, cpus, sizeof(cpus)),
		 fmt_time(t, dur));
	hwlat_ref_run(&n->ref, &o->cpus, n->threshold_ns, n->width_ns,
		      n->window_ns, dur);
	if (!n->ref.ran)
		engine_warn(r, "--mode hwlat: no reference: %s", n->ref.why);
}

static int noise_setup(struct run *r)
{
	struct engine_opts *o = r->o;
	struct noise *n = r->priv;
	struct cpuset iso;
	struct sampler *s;
	int cpu, i;

	isolated_cpus(&iso);
	if (!o->cpus_given)
		default_cpu(o, n, &iso);
	n->n = cpuset_count(&o->cpus);
	n->cpu = calloc((size_t)n->n, sizeof(*n->cpu));
	if (!n->cpu) {
		log_error("out of memory");
		return -1;
	}
	for (i = 0, cpu = cpuset_next(&o->cpus, 0); cpu >= 0;
	     cpu = cpuset_next(&o->cpus, cpu + 1), i++) {
		struct noise_cpu *nc = &n->cpu[i];

		nc->cpu = cpu;
		/* before the memory lock: locked and faulted in with it */
		nc->ev = calloc(LIST_CAP, sizeof(*nc->ev));
		if (!nc->ev) {
			log_error("out of memory");
			return -1;
		}
		s = engine_add_sampler(r, cpu, o->policy, o->prio, 1,
				       noise_descs);
		if (!s)
			return -1;
		s->priv = nc;
	}
	if (n->mode == MODE_HWLAT)
		hwlat_prepare(r, n, &iso);
	return 0;
}

static void noise_teardown(struct run *r)
{
	struct noise *n = r->priv;
	int i;

	for (i = 0; n->cpu && i < n->n; i++)
		free(n->cpu[i].ev);
	free(n->cpu);
	n->cpu = NULL;
}

/* Measured time of @nc (ns); 0 when it never reached the measurement. */
static int64_t cpu_measured(const struct noise_cpu *nc)
{
	return nc->measured ? nc->spun_ns : 0;
}

/* Noise time in % of the measured time; false when nothing was measured. */
static bool cpu_noise_pct(const struct noise_cpu *nc, double *pct)
{
	int64_t m = cpu_measured(nc);

	if (m <= 0)
		return false;
	*pct = 100.0 * (double)nc->noise_ns / (double)m;
	return true;
}

/* Every gap's min and max (oslat's figures): the loop's or an event's. */
static void cpu_gap_range(const struct noise_cpu *nc, const struct accum *a,
			  int64_t *min, int64_t *max)
{
	*min = nc->loop_min;
	*max = nc->loop_max;
	if (a->st.n && a->st.min < *min)
		*min = a->st.min;
	if (a->st.n && a->st.max > *max)
		*max = a->st.max;
}

/* The sampler of @nc (same index). */
static const struct accum *cpu_accum(const struct run *r, int i)
{
	return &r->total[i][0];
}

static void noise_start(struct run *r)
{
	xeno_banner(r, NULL);	/* and noise_lines */
}

/* The threshold and the mode (--mode hwlat: the spin): test_data and the
 * banner line. */
static void noise_figures(struct run *r, struct test_figs *f)
{
	const struct noise *n = r->priv;
	char t[32];

	if (!n)
		return;
	fig_num(f, "threshold_ns", "%lld", (long long)n->threshold_ns);
	fig_str(f, "mode", n->mode == MODE_HWLAT ? "hwlat" : "busy");
	if (n->mode != MODE_HWLAT) {
		fig_null(f, "window_ns");
		fig_null(f, "width_ns");
		fig_null(f, "isolated");
		return;
	}
	fig_num(f, "window_ns", "%lld", (long long)n->window_ns);
	fig_text(f, "%s", fmt_time(t, n->window_ns));
	fig_num(f, "width_ns", "%lld", (long long)n->width_ns);
	fig_text(f, "%s", fmt_time(t, n->width_ns));
	fig_bool(f, "isolated", n->isolated);
}

static const struct test_line noise_lines[] = {
	{ LINE_BANNER, false,
	  "[?mode=busy:Busy loop reading the clock][?mode=hwlat:hwlat: a spin of {width_ns} out of every {window_ns} reading the clock]; a gap above {threshold_ns} us is a noise event" },
	{ 0, false, NULL },
};

/*
 * --mode hwlat, after the per-CPU lines: the method and the kernel's
 * reference ("==" lines of the summary, all of them here).
 */
static void hwlat_lines(const struct noise *n)
{
	const struct hwlat_ref *h = &n->ref;
	char a[32], b[32], c[32];
	int i;

	if (n->mode != MODE_HWLAT)
		return;
	printf("== hwlat method: spin %s every %s, %llu spins, CPU %s; a gap no kernel event explains (--trace: nothing traced) is the hardware's or firmware's\n",
	       fmt_time(a, n->width_ns), fmt_time(b, n->window_ns),
	       (unsigned long long)(n->n ? n->cpu[0].spins : 0),
	       n->isolated ? "isolated" : "NOT isolated (interrupts and tasks show)");
	if (!h->ran) {
		printf("== hwlat reference: none: %s\n", h->why);
		return;
	}
	printf("== hwlat reference (%s, interrupts off, over %.3f s before the measurement): %llu samples above %s us, max %s us\n",
	       h->why, (double)h->duration_ns / NSEC_PER_SEC,
	       (unsigned long long)h->samples, fmt_us3(a, n->threshold_ns),
	       h->samples ? fmt_us3(b, h->max_ns) : "n/a");
	for (i = 0; i < h->ncpu; i++)
		printf("== hwlat reference CPU %d: %llu samples, max %s us\n",
		       h->cpu[i].cpu, (unsigned long long)h->cpu[i].samples,
		       fmt_us3(c, h->cpu[i].max_ns));
}

/* --mode hwlat: the kernel's reference in test_data (an object with a
 * list: not a figure), null in the busy mode. */
static void hwlat_json(struct jw *w, const struct noise *n)
{
	const struct hwlat_ref *h = &n->ref;
	int i;

	if (n->mode != MODE_HWLAT) {
		jw_null(w, "hwlat_reference");
		return;
	}
	jw_obj_begin(w, "hwlat_reference");
	jw_bool(w, "ran", h->ran);
	jw_str(w, h->ran ? "source" : "why", h->why);
	if (h->ran) {
		jw_int(w, "duration_ns", h->duration_ns);
		jw_uint(w, "samples", h->samples);
		if (h->samples)
			jw_int(w, "max_ns", h->max_ns);
		else
			jw_null(w, "max_ns");
		jw_arr_begin(w, "cpus");
		for (i = 0; i < h->ncpu; i++) {
			jw_obj_begin(w, NULL);
			jw_int(w, "cpu", h->cpu[i].cpu);
			jw_uint(w, "samples", h->cpu[i].samples);
			jw_int(w, "max_ns", h->cpu[i].max_ns);
			jw_obj_end(w);
		}
		jw_arr_end(w);
	}
	jw_obj_end(w);
}

static void print_ranges(const struct noise *n, const struct noise_cpu *nc)
{
	char lo[32];
	int i;

	const int first = first_range(n);

	printf("== Events by length CPU %d:", nc->cpu);
	for (i = first; i < NRANGES; i++) {
		if (i == first)
			fmt_us3(lo, n->threshold_ns);
		else
			snprintf(lo, sizeof(lo), "%lld",
				 (long long)range_us[i - 1]);
		if (i < NRANGES - 1)
			printf("%s %s-%lld us %llu", i > first ? "," : "", lo,
			       (long long)range_us[i],
			       (unsigned long long)nc->range[i]);
		else
			printf("%s >= %s us %llu", i > first ? "," : "", lo,
			       (unsigned long long)nc->range[i]);
	}
	printf("\n");
}

static void noise_summary(struct run *r)
{
	const struct noise *n = r->priv;
	char a[32], b[32], c[32];
	int i;

	xeno_summary_series(r, 0);
	for (i = 0; i < n->n; i++) {
		const struct noise_cpu *nc = &n->cpu[i];
		const struct accum *acc = cpu_accum(r, i);
		int64_t min, max;
		double pct;

		if (!cpu_noise_pct(nc, &pct)) {
			printf("== Noise CPU %d: not measured\n", nc->cpu);
			continue;
		}
		printf("== Noise CPU %d: max gap %s us, noise %s us in %.3f s (%.4f %%), %llu events above %s us\n",
		       nc->cpu, acc->st.n ? fmt_us3(a, acc->st.max) : "n/a",
		       fmt_us3(b, nc->noise_ns),
		       (double)cpu_measured(nc) / NSEC_PER_SEC, pct, (unsigned long long)nc->events,
		       fmt_us3(c, n->threshold_ns));
		print_ranges(n, nc);
		cpu_gap_range(nc, acc, &min, &max);
		printf("== Loop CPU %d (oslat's figures): %llu iterations, gap min %s us, avg %s us, max %s us\n",
		       nc->cpu, (unsigned long long)nc->iterations,
		       fmt_us3(a, min),
		       fmt_us3(b, (int64_t)((nc->noise_ns + nc->loop_ns) /
					   (int64_t)nc->iterations)),
		       fmt_us3(c, max));
	}
	hwlat_lines(n);
	run_report_outcome(r);
}

static void noise_json(struct run *r, struct jw *w)
{
	const struct noise *n = r->priv;
	size_t k;
	int i, j;

	/* threshold_ns, mode, window_ns, width_ns, isolated: noise_figures() */
	hwlat_json(w, n);
	/* the events' start times are relative to it (test clock, ns) */
	jw_int(w, "measure_start_ns", r->t_measure);
	jw_arr_begin_inline(w, "range_bounds_ns");
	for (j = first_range(n); j < NRANGES - 1; j++)
		jw_int(w, NULL, range_us[j] * NSEC_PER_USEC);
	jw_arr_end(w);
	jw_int(w, "events_listed_max", LIST_CAP);
	jw_arr_begin(w, "cpus");
	for (i = 0; n->cpu && i < n->n; i++) {
		const struct noise_cpu *nc = &n->cpu[i];
		const struct accum *acc = cpu_accum(r, i);
		int64_t min, max;
		double pct;

		jw_obj_begin(w, NULL);
		jw_int(w, "cpu", nc->cpu);
		jw_int(w, "measured_ns", cpu_measured(nc));
		if (n->mode == MODE_HWLAT)
			jw_uint(w, "spins", nc->spins);
		jw_uint(w, "iterations", nc->iterations);
		jw_uint(w, "events", nc->events);
		jw_int(w, "noise_ns", nc->noise_ns);
		jw_int(w, "loop_ns", nc->loop_ns);
		if (cpu_noise_pct(nc, &pct) && nc->iterations) {
			jw_double(w, "noise_pct", pct, 6);
			cpu_gap_range(nc, acc, &min, &max);
			jw_int(w, "gap_min_ns", min);
			jw_double(w, "gap_avg_ns",
				  (double)(nc->noise_ns + nc->loop_ns) /
				  (double)nc->iterations, 3);
			jw_int(w, "gap_max_ns", max);
		} else {
			jw_null(w, "noise_pct");
			jw_null(w, "gap_min_ns");
			jw_null(w, "gap_avg_ns");
			jw_null(w, "gap_max_ns");
		}
		if (nc->iterations > nc->events)
			jw_int(w, "loop_max_ns", nc->loop_max);
		else
			jw_null(w, "loop_max_ns");
		jw_arr_begin_inline(w, "events_by_range");
		for (j = first_range(n); j < NRANGES; j++)
			jw_uint(w, NULL, nc->range[j]);
		jw_arr_end(w);
		/* [start since the measurement start, length], ns */
		jw_arr_begin(w, "event_list");
		for (k = 0; k < nc->nev; k++) {
			jw_arr_begin_inline(w, NULL);
			jw_int(w, NULL, nc->ev[k].start - r->t_measure);
			jw_int(w, NULL, nc->ev[k].len);
			jw_arr_end(w);
		}
		jw_arr_end(w);
		jw_uint(w, "events_not_listed", nc->events - nc->nev);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* Headline: the largest noise % (and its CPU), events and noise time over
 * all CPUs, for the suite's NOISE table. */
static int noise_params(struct run *r, struct test_param *p, int max)
{
	const struct noise *n = r->priv;
	uint64_t events = 0;
	int64_t noise = 0;
	double pct, worst = -1;
	int i, wcpu = -1, k = 0;

	if (!n || !n->cpu || max < 4)
		return 0;
	for (i = 0; i < n->n; i++) {
		events += n->cpu[i].events;
		noise += n->cpu[i].noise_ns;
		if (cpu_noise_pct(&n->cpu[i], &pct) && pct > worst) {
			worst = pct;
			wcpu = n->cpu[i].cpu;
		}
	}
	if (wcpu < 0)
		return 0;
	test_param_set(&p[k++], "noise_pct", "%.4f", worst);
	test_param_set(&p[k++], "noise_cpu", "%d", wcpu);
	test_param_set(&p[k++], "events", "%llu", (unsigned long long)events);
	test_param_set(&p[k++], "noise_ns", "%lld", (long long)noise);
	return k;
}

static int noise_opt(void *priv, struct engine_opts *o,
		     const struct optdesc *d, const char *arg)
{
	struct noise *n = priv;

	(void)o;
	switch (d->key) {
	case OPT_MODE:
		if (!strcmp(arg, "busy"))
			n->mode = MODE_BUSY;
		else if (!strcmp(arg, "hwlat"))
			n->mode = MODE_HWLAT;
		else
			return opt_bad_value(d, arg, "expected busy or hwlat");
		return 0;
	case OPT_WINDOW:
	case OPT_WIDTH:
		n->hw_opts = true;
		if (parse_time_ns(arg, NSEC_PER_MSEC, d->key == OPT_WINDOW ?
				  &n->window_ns : &n->width_ns) < 0 ||
		    (d->key == OPT_WINDOW ? n->window_ns : n->width_ns) <
		    NSEC_PER_MSEC ||
		    (d->key == OPT_WINDOW ? n->window_ns : n->width_ns) >
		    3600 * NSEC_PER_SEC)
			return opt_bad_value(d, arg,
					     "expected a time from 1ms to 1h, in ms or with a unit (500ms)");
		return 0;
	case OPT_NO_REF:
		n->hw_opts = n->no_ref = true;
		return 0;
	case OPT_THRESHOLD:
		break;
	default:
		return 1;
	}
	if (parse_time_ns(arg, NSEC_PER_USEC, &n->threshold_ns) < 0 ||
	    n->threshold_ns < 100 || n->threshold_ns > NSEC_PER_SEC)
		return opt_bad_value(d, arg,
				     "expected a time in us from 0.1 to 1000000, or with a unit (20us)");
	return 0;
}

static void noise_init(void *priv, struct engine_opts *o, int argc,
		       char **argv)
{
	struct noise *n = priv;

	(void)o;
	(void)argc;
	(void)argv;
	n->threshold_ns = DEFAULT_THRESHOLD_NS;
	n->window_ns = DEFAULT_WINDOW_NS;
	n->width_ns = DEFAULT_WIDTH_NS;
}

static int noise_configure(void *priv, struct engine_opts *o)
{
	struct noise *n = priv;
	char a[32], b[32];

	(void)o;
	if (n->mode != MODE_HWLAT) {
		if (n->hw_opts) {
			log_error("--window, --width and --no-reference go with --mode hwlat");
			return -1;
		}
		return 0;
	}
	if (n->width_ns >= n->window_ns) {
		log_error("--width %s must be shorter than --window %s (the spin sleeps the rest of the window)",
			  fmt_time(a, n->width_ns), fmt_time(b, n->window_ns));
		return -1;
	}
	return 0;
}

static const struct optdesc noise_opts_table[] = {
	{ "threshold", 0, required_argument, "US",
	  "a gap above it is a noise event, in us or with a unit;\nhwlatdetect's and the hwlat tracer's (default 10)",
	  OPT_THRESHOLD },
	{ "mode", 0, required_argument, "MODE",
	  "busy (default): spin all the time (oslat); hwlat: spin --width\nout of every --window, on an isolated CPU by default\n(hwlatdetect), after the kernel's hwlat tracer as the reference",
	  OPT_MODE },
	{ "window", 0, required_argument, "MS",
	  "--mode hwlat: the period of the spins, in ms or with a unit\n(default 1s, hwlatdetect's)", OPT_WINDOW },
	{ "width", 0, required_argument, "MS",
	  "--mode hwlat: how long each spin lasts, shorter than --window\n(default 500ms, hwlatdetect's)", OPT_WIDTH },
	{ "no-reference", 0, no_argument, NULL,
	  "--mode hwlat: do not run the kernel's hwlat tracer first",
	  OPT_NO_REF },
	OPT_END
};

static const struct optdesc *const noise_opts[] = {
	noise_opts_table, engine_common_opts, NULL,
};

static const struct opt_help noise_help[] = {
	{ 'c', "CPUs to measure, one busy sampler each, e.g. 1 or 1-3\n"
	       "(default: the last CPU rtlat may use; --mode hwlat: the last\n"
	       "isolated one, when there is one)" },
	{ 0, NULL },
};

static const struct xeno_col noise_cols[] = {
	{ "gap min", 0, XENO_MIN },
	{ "gap avg", 0, XENO_AVG },
	{ "gap max", 0, XENO_MAX },
	{ "gap best", 0, XENO_BEST },
	{ "gap worst", 0, XENO_WORST },
};

static const struct output_ops noise_output = {
	.start = noise_start,
	.interval = xeno_interval,
	.summary = noise_summary,
	.cols = noise_cols,
	.ncols = (int)(sizeof(noise_cols) / sizeof(noise_cols[0])),
};

static const struct suite_col noise_suite_cols[] = {
	{ "max gap", "gap", SUITE_MAX },
	{ "noise %", "noise_pct", SUITE_PARAM },
	{ "on CPU", "noise_cpu", SUITE_PARAM },
	{ "events", "events", SUITE_PARAM },
	{ "p99.9", "gap", SUITE_P999 },
	{ "test-time", NULL, SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

static const char noise_about[] =
	"Measure the OS noise and hardware latency a busy task sees (oslat,\n"
	"the osnoise and hwlat tracers): on each CPU a sampler spins reading\n"
	"the clock for -T; a gap between two reads above --threshold is a\n"
	"noise event (an interrupt, a softirq, another task, the hardware).\n"
	"Series gap: the events' lengths (statistics, percentiles, RTD lines\n"
	"with the events of each interval), in us. Per CPU: max gap, noise\n"
	"time and its % of the measured time, events by length, the loop's\n"
	"iterations and every gap's min/avg/max (oslat's figures); --json\n"
	"lists the events. --policy other spins at SCHED_OTHER. The display\n"
	"and main threads stay off the measured CPUs (--housekeeping auto).\n"
	"--mode hwlat: hwlatdetect's method (spins of --width every --window\n"
	"on an isolated CPU; with --trace, a gap no kernel event explains is\n"
	"the hardware's or firmware's), with the kernel's hwlat tracer run\n"
	"first as the reference where the kernel has it.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.";

const struct test_desc noise_test = {
	.name = "noise",
	.mode = "busy loop reading the clock",
	.summary = "OS noise and hardware latency seen by a busy task (oslat, osnoise)",
	.about = noise_about,
	.period_ns = 0,
	.prio = 99,
	.opts = noise_opts,
	.help = noise_help,
	.priv_size = sizeof(struct noise),
	.init = noise_init,
	.opt = noise_opt,
	.configure = noise_configure,
	.setup = noise_setup,
	.body = noise_body,
	.teardown = noise_teardown,
	.json = noise_json,
	.params = noise_params,
	.figures = noise_figures,
	.lines = noise_lines,
	.out = &noise_output,
	.spins = true,
	.gap_series = true,		/* --trace: what ran in each gap */
	.suite = &(const struct suite_spec){
		.title = "NOISE",
		.units = "gaps in us, noise % = noise time / measured time on the noisiest CPU",
		.cols = noise_suite_cols,
		.sample_name = "events above the threshold",
	},
};
