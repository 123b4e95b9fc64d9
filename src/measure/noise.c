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

#include "engine/test.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "system/sysinfo.h"
#include "util/timeutil.h"
#include "output/output.h"
#include "measure/noise.h"
#include "system/clockcheck.h"
#include "engine/rtthrottle.h"

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
	struct rt_throttle_seen thr;	/* the events RT throttling made */
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
	bool no_throttling;		/* --no-rt-throttling */
	struct rt_throttle_off thr_off;	/* what it changed */
	long long rt_runtime_us;	/* sched_rt_runtime_us in the run */
	bool rt_runtime_known;
	struct rt_throttle thr;		/* the throttling read (of the
					 * last real-time sampler's CPU) */
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
	rt_throttle_see(&nc->thr, start, len, 0);
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
 * A read @t not above the one before (@prev): a clock that went back, or
 * stood still for CLOCK_STILL_READS reads in a row (*@still counts them), is
 * a clock fault (system/clockcheck.h): said in the sampler's error, true.
 */
static __attribute__((noinline, cold)) bool
clock_stuck(struct sampler *s, int64_t prev, int64_t t, long *still)
{
	if (t < prev)
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "clock fault: %s went back from %" PRId64 " ns to %"
			 PRId64 " ns", clock_id_name(s->run->o->clock), prev, t);
	else if (++*still >= CLOCK_STILL_READS)
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "clock fault: %s stood still at %" PRId64
			 " ns for %ld reads in a row",
			 clock_id_name(s->run->o->clock), t, *still);
	else
		return false;
	s->err = WAIT_CLOCK_FAULT;
	return true;
}

/* A gap ended by read @t: a second read must not be below it (else @t was
 * a garbage read far ahead of the clock: a clock fault, said; false). */
static __attribute__((noinline, cold)) bool
gap_confirmed(struct sampler *s, int64_t t)
{
	int64_t again = clock_now_ns(s->run->o->clock);

	if (again >= t)
		return true;
	snprintf(s->errmsg, sizeof(s->errmsg),
		 "clock fault: %s read %" PRId64 " ns, then %" PRId64
		 " ns right after (a read ahead of the clock)",
		 clock_id_name(s->run->o->clock), t, again);
	s->err = WAIT_CLOCK_FAULT;
	return false;
}

/* Read the clock until it reaches @at (into *@t); false on a clock fault. */
static bool spin_until(struct sampler *s, int64_t at, int64_t *t)
{
	const clockid_t clk = s->run->o->clock;
	int64_t prev = INT64_MIN;	/* no read more than before */
	long still = 0;

	while ((*t = clock_now_ns(clk)) < at) {
		if (sampler_stopping(s))
			return true;
		if (*t <= prev && clock_stuck(s, prev, *t, &still))
			return false;
		if (*t > prev)
			still = 0;
		prev = *t;
	}
	return true;
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
	int64_t d, tr, prev = a, check = t, close_at = l->close_at;
	int64_t loop_ns = 0, lmin = l->lmin, lmax = l->lmax;
	uint64_t iters = 0;
	long still = 0;
	bool last, going = true;

	for (;;) {
		last = t >= check;
		tr = t;
		if (__builtin_expect(last, 0) && t > b)
			t = b;	/* the last gap ends with the spin */
		d = t - prev;
		if (__builtin_expect(d > thr, 0)) {
			if (!gap_confirmed(s, tr)) {
				going = false;
				break;
			}
			noise_event(s, nc, prev, d);
		} else {
			if (__builtin_expect(d <= 0, 0) &&
			    clock_stuck(s, prev, t, &still)) {
				going = false;
				break;
			}
			if (d > 0)
				still = 0;
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
	s->measured_end = prev;	/* the run's end reaches to it */
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
		if (!spin_until(s, t0, &t))
			return s->err;
		if (sampler_stopping(s))
			return 0;
		nc->measured = true;
		if (!spin(s, nc, &l, t0, end, t) && s->err)
			return s->err;
	} else {
		/* a spin of --width at the start of every --window */
		for (k = 0;; k++) {
			a = t0 + (int64_t)k * n->window_ns;
			if (a >= end || !sleep_until(s, a))
				break;
			if (!spin_until(s, a, &t))
				return s->err;
			/* the spin starts at its first clock read: the wake-up
			 * from the sleep is the timer's latency, not noise (as
			 * the hwlat tracer's sampling starts when it runs) */
			b = end - a > n->width_ns ? a + n->width_ns : end;
			if (t >= b)
				continue;	/* woken after the spin's end */
			nc->measured = true;
			nc->spins++;
			/* that read is the spin's start, not a gap: the first
			 * gap ends at the next read */
			if (!spin(s, nc, &l, t, b, clock_now_ns(clk))) {
				if (s->err)
					return s->err;
				break;
			}
		}
	}
	rt_throttle_close(&nc->thr);
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
	if (!hwlat_tracefs(n->ref.why, sizeof(n->ref.why)))
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
	char err[256];
	int cpu, i;

	if (n->no_throttling &&
	    rt_throttle_disable(&n->thr_off, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	n->rt_runtime_known = rt_runtime_read(&n->rt_runtime_us);
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
		/* RT throttling stops real-time tasks only */
		if (s->policy != SCHED_OTHER) {
			rt_throttle_read(&n->thr, cpu);
			rt_throttle_seen_init(&nc->thr, n->thr.budget_ns);
		}
	}
	if (n->mode == MODE_HWLAT)
		hwlat_prepare(r, n, &iso);
	return 0;
}

static void noise_teardown(struct run *r)
{
	struct noise *n = r->priv;
	int i;

	rt_throttle_restore(&n->thr_off);
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

/* --mode hwlat: the kernel's reference (an object with a list), null in
 * the busy mode. */
static void hwlat_figures(struct test_figs *f, const struct noise *n)
{
	const struct hwlat_ref *h = &n->ref;
	int i;

	if (n->mode != MODE_HWLAT) {
		fig_null(f, "hwlat_reference");
		return;
	}
	fig_bool(f, "hwlat_reference.ran", h->ran);
	fig_str(f, h->ran ? "hwlat_reference.source" : "hwlat_reference.why",
		h->why);
	if (!h->ran)
		return;
	fig_num(f, "hwlat_reference.duration_ns", "%lld",
		(long long)h->duration_ns);
	fig_text(f, "%.3f", (double)h->duration_ns / NSEC_PER_SEC);
	fig_num(f, "hwlat_reference.samples", "%llu",
		(unsigned long long)h->samples);
	if (h->samples)
		fig_num(f, "hwlat_reference.max_ns", "%lld",
			(long long)h->max_ns);
	else
		fig_null(f, "hwlat_reference.max_ns");
	fig_list(f, "hwlat_reference.cpus", false);
	for (i = 0; i < h->ncpu; i++) {
		fig_item(f);
		fig_num(f, "cpu", "%d", h->cpu[i].cpu);
		fig_num(f, "samples", "%llu",
			(unsigned long long)h->cpu[i].samples);
		fig_num(f, "max_ns", "%lld", (long long)h->cpu[i].max_ns);
	}
	fig_end(f);
}

/* A CPU's events, [start since the measurement start, length] in ns: too
 * many to be figures (LIST_CAP). */
static void event_list_json(const struct run *r, struct jw *w,
			    const char *key, const void *ctx)
{
	const struct noise_cpu *nc = ctx;
	size_t k;

	jw_arr_begin(w, key);
	for (k = 0; k < nc->nev; k++) {
		jw_arr_begin_inline(w, NULL);
		jw_int(w, NULL, nc->ev[k].start - r->t_measure);
		jw_int(w, NULL, nc->ev[k].len);
		jw_arr_end(w);
	}
	jw_arr_end(w);
}

/* @ns in us as the other range bounds are written: "10", "12.5". */
static void range_bound(char *buf, int64_t ns)
{
	char *e;

	fmt_us3(buf, ns);
	e = buf + strlen(buf);
	if (!strchr(buf, '.'))
		return;
	while (e > buf && e[-1] == '0')
		*--e = '\0';
	if (e > buf && e[-1] == '.')
		e[-1] = '\0';
}

/* The events by length of @nc: "10-20 us 3, ..., >= 10000 us 0". */
static void range_figures(struct test_figs *f, const struct noise *n,
			  const struct noise_cpu *nc)
{
	const int first = first_range(n);
	char lo[32];
	int i;

	/* from the threshold: the ranges below it hold no event */
	fig_list(f, "events_by_range", true);
	for (i = first; i < NRANGES; i++) {
		if (i == first)
			range_bound(lo, n->threshold_ns);
		else
			snprintf(lo, sizeof(lo), "%lld",
				 (long long)range_us[i - 1]);
		fig_num(f, NULL, "%llu", (unsigned long long)nc->range[i]);
		if (i < NRANGES - 1)
			fig_text(f, "%s-%lld us %llu", lo,
				 (long long)range_us[i],
				 (unsigned long long)nc->range[i]);
		else
			fig_text(f, ">= %s us %llu", lo,
				 (unsigned long long)nc->range[i]);
	}
	fig_end(f);
}

/* A CPU's RT throttling: the gaps attributed to it (null when its sampler
 * is not throttled), and the noise figures without them. */
static void throttle_figures(struct test_figs *f, const struct noise_cpu *nc)
{
	const int64_t m = cpu_measured(nc);
	if (!nc->thr.budget_ns) {
		fig_null(f, "rt_throttling");
	} else {
		fig_num(f, "rt_throttling.periods", "%llu",
			(unsigned long long)nc->thr.periods);
		fig_num(f, "rt_throttling.gaps", "%llu",
			(unsigned long long)nc->thr.gaps);
		fig_num(f, "rt_throttling.time_ns", "%lld",
			(long long)nc->thr.time_ns);
		if (nc->thr.spacing) {
			fig_num(f, "rt_throttling.shortest_spacing_ns", "%lld",
				(long long)nc->thr.spacing);
			fig_text(f, "%.3f s",
				 (double)nc->thr.spacing / NSEC_PER_SEC);
		} else {
			fig_null(f, "rt_throttling.shortest_spacing_ns");
		}
	}
	fig_num(f, "unthrottled.events", "%llu",
		(unsigned long long)(nc->events - nc->thr.gaps));
	fig_num(f, "unthrottled.noise_ns", "%lld",
		(long long)(nc->noise_ns - nc->thr.time_ns));
	if (m > 0)
		fig_num(f, "unthrottled.noise_pct", "%.4f",
			100.0 * (double)(nc->noise_ns - nc->thr.time_ns) / (double)m);
	else
		fig_null(f, "unthrottled.noise_pct");
	if (nc->events > nc->thr.gaps)
		fig_num(f, "unthrottled.max_gap_ns", "%lld",
			(long long)nc->thr.other_max);
	else
		fig_null(f, "unthrottled.max_gap_ns");
	/* the NOISE tables' columns, per CPU (rtlat report --threads) */
	fig_num(f, "throttled_ns", "%lld", (long long)nc->thr.time_ns);
	if (nc->events > nc->thr.gaps)
		fig_num(f, "max_gap_unthrottled_ns", "%lld",
			(long long)nc->thr.other_max);
	else
		fig_null(f, "max_gap_unthrottled_ns");
}

/* A CPU's figures: an item of test_data.cpus and its summary lines. */
static void cpu_figures(struct run *r, struct test_figs *f,
			const struct noise *n, int i)
{
	const struct noise_cpu *nc = &n->cpu[i];
	const struct accum *acc = cpu_accum(r, i);
	char b[32];
	int64_t min, max;
	double pct;

	fig_item(f);
	fig_num(f, "cpu", "%d", nc->cpu);
	fig_num(f, "measured_ns", "%lld", (long long)cpu_measured(nc));
	fig_text(f, "%.3f", (double)cpu_measured(nc) / NSEC_PER_SEC);
	if (n->mode == MODE_HWLAT)
		fig_num(f, "spins", "%llu", (unsigned long long)nc->spins);
	fig_num(f, "iterations", "%llu", (unsigned long long)nc->iterations);
	fig_num(f, "events", "%llu", (unsigned long long)nc->events);
	fig_num(f, "noise_ns", "%lld", (long long)nc->noise_ns);
	fig_num(f, "loop_ns", "%lld", (long long)nc->loop_ns);
	if (cpu_noise_pct(nc, &pct) && nc->iterations) {
		fig_num(f, "noise_pct", "%.6f", pct == 0.0 ? 0.0 : pct);
		fig_text(f, "%.4f", pct);
		cpu_gap_range(nc, acc, &min, &max);
		fig_num(f, "gap_min_ns", "%lld", (long long)min);
		fig_num(f, "gap_avg_ns", "%.3f",
			(double)(nc->noise_ns + nc->loop_ns) /
			(double)nc->iterations);
		fig_text(f, "%s", fmt_us3(b, (int64_t)((nc->noise_ns +
							nc->loop_ns) /
						       (int64_t)nc->iterations)));
		fig_num(f, "gap_max_ns", "%lld", (long long)max);
	} else {
		fig_null(f, "noise_pct");
		fig_null(f, "gap_min_ns");
		fig_null(f, "gap_avg_ns");
		fig_null(f, "gap_max_ns");
	}
	if (nc->iterations > nc->events)
		fig_num(f, "loop_max_ns", "%lld", (long long)nc->loop_max);
	else
		fig_null(f, "loop_max_ns");
	range_figures(f, n, nc);
	fig_json(f, "event_list", event_list_json, nc);
	fig_num(f, "events_not_listed", "%llu",
		(unsigned long long)(nc->events - nc->nev));
	throttle_figures(f, nc);
	/* the largest event, for the line */
	if (acc->st.n)
		fig_num(f, "max_gap_ns", "%lld", (long long)acc->st.max);
	else
		fig_null(f, "max_gap_ns");
	fig_said(f);
}

/* The headline: the largest noise % (and its CPU), events, noise time
 * and the longest measured time over all CPUs, for the NOISE tables of
 * rtlat suite and rtlat report (none when no CPU was measured). */
static void worst_figures(struct test_figs *f, const struct noise *n)
{
	uint64_t events = 0;
	int64_t noise = 0, measured = 0, thr = 0, umax = -1;
	double pct, worst = -1;
	int i, wcpu = -1;

	for (i = 0; n->cpu && i < n->n; i++) {
		events += n->cpu[i].events;
		noise += n->cpu[i].noise_ns;
		thr += n->cpu[i].thr.time_ns;
		if (n->cpu[i].events > n->cpu[i].thr.gaps &&
		    n->cpu[i].thr.other_max > umax)
			umax = n->cpu[i].thr.other_max;
		if (cpu_measured(&n->cpu[i]) > measured)
			measured = cpu_measured(&n->cpu[i]);
		if (cpu_noise_pct(&n->cpu[i], &pct) && pct > worst) {
			worst = pct;
			wcpu = n->cpu[i].cpu;
		}
	}
	if (wcpu < 0)
		return;
	fig_num(f, "noise_pct", "%.4f", worst);
	fig_headline(f);
	fig_num(f, "noise_cpu", "%d", wcpu);
	fig_headline(f);
	fig_num(f, "events", "%llu", (unsigned long long)events);
	fig_headline(f);
	fig_num(f, "noise_ns", "%lld", (long long)noise);
	fig_headline(f);
	/* the test time: the longest measured (--mode hwlat: spun) */
	fig_num(f, "measured_ns", "%lld", (long long)measured);
	fig_headline(f);
	/* RT throttling kept apart: its time, the largest gap without it */
	fig_num(f, "throttled_ns", "%lld", (long long)thr);
	fig_headline(f);
	if (umax >= 0) {
		fig_num(f, "max_gap_unthrottled_ns", "%lld", (long long)umax);
		fig_headline(f);
	}
}

/* Everything noise shows: the kernel's reference, the CPUs (their events
 * listed), the threshold and the mode (--mode hwlat: the spin), the
 * headline's worst CPU: test_data, the banner and the summary lines. */
static void noise_figures(struct run *r, struct test_figs *f)
{
	const struct noise *n = r->priv;
	char t[32];
	int i, j;

	if (!n)
		return;
	hwlat_figures(f, n);
	/* the events' start times are relative to it (test clock, ns) */
	fig_num(f, "measure_start_ns", "%lld", (long long)r->t_measure);
	fig_list(f, "range_bounds_ns", true);
	for (j = first_range(n); j < NRANGES - 1; j++)
		fig_num(f, NULL, "%lld", (long long)(range_us[j] * NSEC_PER_USEC));
	fig_end(f);
	fig_num(f, "events_listed_max", "%d", LIST_CAP);
	fig_list(f, "cpus", false);
	for (i = 0; n->cpu && i < n->n; i++)
		cpu_figures(r, f, n, i);
	fig_end(f);
	fig_num(f, "threshold_ns", "%lld", (long long)n->threshold_ns);
	fig_str(f, "mode", n->mode == MODE_HWLAT ? "hwlat" : "busy");
	if (n->mode != MODE_HWLAT) {
		fig_null(f, "window_ns");
		fig_null(f, "width_ns");
		fig_null(f, "isolated");
	} else {
		fig_num(f, "window_ns", "%lld", (long long)n->window_ns);
		fig_text(f, "%s", fmt_time(t, n->window_ns));
		fig_num(f, "width_ns", "%lld", (long long)n->width_ns);
		fig_text(f, "%s", fmt_time(t, n->width_ns));
		fig_bool(f, "isolated", n->isolated);
	}
	if (n->thr.budget_ns) {
		fig_num(f, "rt_throttling.budget_ns", "%lld",
			(long long)n->thr.budget_ns);
		fig_text(f, "%s", fmt_time(t, n->thr.budget_ns));
		fig_num(f, "rt_throttling.period_ns", "%lld",
			(long long)n->thr.period_ns);
		fig_text(f, "%s", fmt_time(t, n->thr.period_ns));
		fig_str(f, "rt_throttling.source", n->thr.source);
	} else {
		fig_null(f, "rt_throttling");
	}
	/* kernel.sched_rt_runtime_us during the run (-1: off; null: not
	 * readable) */
	if (n->rt_runtime_known)
		fig_num(f, "sched_rt_runtime_us", "%lld", n->rt_runtime_us);
	else
		fig_null(f, "sched_rt_runtime_us");
	worst_figures(f, n);
	/* the hwlat method's line: the spins of the first CPU */
	fig_num(f, "spins", "%llu",
		(unsigned long long)(n->cpu && n->n ? n->cpu[0].spins : 0));
	fig_said(f);
}

static const struct test_line noise_lines[] = {
	{ LINE_BANNER, NULL,
	  "Noise event: a gap above {threshold_ns} us[?mode=hwlat:, in spins of {width_ns} out of every {window_ns}]" },
	/* per CPU, its three lines one after the other */
	{ LINE_SUMMARY, "cpus",
	  "[?measured_ns=0:Noise CPU {cpu}: not measured]"
	  "[!measured_ns=0:Noise CPU {cpu}: [?events=0:no gap above {threshold_ns} us][!events=0:max gap {max_gap_ns} us], noise {noise_ns} us in {measured_ns} s ({noise_pct} %), {events} events above {threshold_ns} us\n"
	  "Events by length CPU {cpu}: {events_by_range}\n"
	  "Loop CPU {cpu} (oslat's figures): {iterations} iterations, gap min {gap_min_ns} us, avg {gap_avg_ns} us, max {gap_max_ns} us]" },
	/* RT throttling: attributed, and the figures without it */
	{ LINE_SUMMARY, NULL,
	  "[?rt_throttling.budget_ns:RT throttling: real-time tasks lose up to {rt_throttling.budget_ns} of every {rt_throttling.period_ns}: {rt_throttling.source}]" },
	{ LINE_SUMMARY, "cpus",
	  "[!measured_ns=0:[?rt_throttling.periods:RT throttling CPU {cpu}: [?rt_throttling.periods=0:none seen][!rt_throttling.periods=0:{rt_throttling.gaps} of the events ({rt_throttling.time_ns} us) in {rt_throttling.periods} periods[?rt_throttling.shortest_spacing_ns:, {rt_throttling.shortest_spacing_ns} apart at the closest]; "
	  "without them: [?unthrottled.max_gap_ns:max gap {unthrottled.max_gap_ns} us][!unthrottled.max_gap_ns:no gap above {threshold_ns} us], noise {unthrottled.noise_ns} us ({unthrottled.noise_pct} %), {unthrottled.events} events (the figures above include them)]]]" },
	/* --mode hwlat: the method and the kernel's reference */
	{ LINE_SUMMARY, NULL,
	  "[?mode=hwlat:hwlat method: spin {width_ns} every {window_ns}, [?spins=1:1 spin][!spins=1:{spins} spins], CPU [?isolated:isolated][!isolated:NOT isolated (interrupts and tasks show)]; a gap no kernel event explains (--trace: nothing traced) is the hardware's or firmware's]" },
	{ LINE_SUMMARY, NULL,
	  "[?mode=hwlat:[!hwlat_reference.ran:hwlat reference: none: {hwlat_reference.why}]]" },
	{ LINE_SUMMARY, NULL,
	  "[?hwlat_reference.ran:hwlat reference ({hwlat_reference.source}, interrupts off, over {hwlat_reference.duration_ns} s before the measurement): {hwlat_reference.samples} samples above {threshold_ns} us, max {hwlat_reference.max_ns} us]" },
	{ LINE_SUMMARY, "hwlat_reference.cpus",
	  "hwlat reference CPU {cpu}: {samples} samples, max {max_ns} us" },
	{ 0, NULL, NULL },
};

static int noise_opt(void *priv, struct engine_opts *o,
		     const struct optdesc *d, const char *arg)
{
	struct noise *n = priv;

	(void)o;
	switch (d->key) {
	case OPT_NOISE_MODE:
		if (!strcmp(arg, "busy"))
			n->mode = MODE_BUSY;
		else if (!strcmp(arg, "hwlat"))
			n->mode = MODE_HWLAT;
		else
			return opt_bad_value(d, arg, "expected busy or hwlat");
		return 0;
	case OPT_NOISE_WINDOW:
	case OPT_NOISE_WIDTH:
		n->hw_opts = true;
		if (parse_time_ns(arg, NSEC_PER_MSEC, d->key == OPT_NOISE_WINDOW ?
				  &n->window_ns : &n->width_ns) < 0 ||
		    (d->key == OPT_NOISE_WINDOW ? n->window_ns : n->width_ns) <
		    NSEC_PER_MSEC ||
		    (d->key == OPT_NOISE_WINDOW ? n->window_ns : n->width_ns) >
		    3600 * NSEC_PER_SEC)
			return opt_bad_value(d, arg,
					     "expected a time from 1ms to 1h, in ms or with a unit (500ms)");
		return 0;
	case OPT_NOISE_NO_REF:
		n->hw_opts = n->no_ref = true;
		return 0;
	case OPT_NOISE_NO_THROTTLING:
		n->no_throttling = true;
		return 0;
	case OPT_NOISE_THRESHOLD:
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
	  OPT_NOISE_THRESHOLD },
	{ "mode", 0, required_argument, "MODE",
	  "busy (default): spin all the time (oslat); hwlat: spin --width\nout of every --window, on an isolated CPU by default\n(hwlatdetect), after the kernel's hwlat tracer as the reference",
	  OPT_NOISE_MODE },
	{ "window", 0, required_argument, "TIME",
	  "--mode hwlat: the period of the spins, in ms or with a unit\n(default 1s, hwlatdetect's)", OPT_NOISE_WINDOW },
	{ "width", 0, required_argument, "TIME",
	  "--mode hwlat: how long each spin lasts, shorter than --window\n(default 500ms, hwlatdetect's)", OPT_NOISE_WIDTH },
	{ "no-reference", 0, no_argument, NULL,
	  "--mode hwlat: do not run the kernel's hwlat tracer first",
	  OPT_NOISE_NO_REF },
	{ "no-rt-throttling", 0, no_argument, NULL,
	  "set kernel.sched_rt_runtime_us to -1 for the run (root), put\nback on every exit; the fair server of Linux 6.12+ stays",
	  OPT_NOISE_NO_THROTTLING },
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
	.start = xeno_banner,
	.interval = xeno_interval,
	.summary = xeno_summary_all,
	.cols = noise_cols,
	.ncols = (int)(sizeof(noise_cols) / sizeof(noise_cols[0])),
};

static const struct suite_col noise_suite_cols[] = {
	{ "max gap", "gap", SUITE_MAX },
	{ "noise %", "noise_pct", SUITE_PERCENT },
	{ "on CPU", "noise_cpu", SUITE_CPU },
	{ "max w/o RT thr.", "max_gap_unthrottled_ns", SUITE_FIGURE },
	{ "RT throttled", "throttled_ns", SUITE_FIGURE },
	{ "events", "events", SUITE_FIGURE },
	{ "p99.9", "gap", SUITE_P999 },
	{ "test-time", "measured_ns", SUITE_TIME },
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

/* The header's "Test mode": the mode run. */
static const char *noise_mode_of(const struct run *r)
{
	const struct noise *n = r->priv;

	return n && n->mode == MODE_HWLAT ?
	       "hwlat: the hwlatdetect method, spins reading the clock (--width out of every --window)" :
	       "busy loop reading the clock";
}

const struct test_desc noise_test = {
	.name = "noise",
	.mode = "busy loop reading the clock",
	.mode_of = noise_mode_of,
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
