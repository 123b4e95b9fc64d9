// SPDX-License-Identifier: GPL-2.0-or-later
/* Result files; see result.h and docs/result-schema.md. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "output/figures.h"
#include "output/output.h"
#include "output/result.h"
#include "engine/cobalt.h"
#include "system/rtsetup.h"
#include "system/syscheck.h"
#include "system/sysinfo.h"
#include "util/timeutil.h"
#include "util/url.h"

void result_check_json(struct jw *w, const struct run *r)
{
	if (r->check) {
		jw_obj_begin(w, "check");
		syscheck_json_compact(r->check, w);
		jw_obj_end(w);
	} else {
		jw_null(w, "check");
	}
}

void result_outcome_json(struct jw *w, const struct run *r)
{
	int i;

	jw_arr_begin(w, "warnings");
	for (i = 0; i < r->nwarnings; i++)
		jw_str(w, NULL, r->warnings[i]);
	jw_arr_end(w);
	if (r->error[0])
		jw_str(w, "error", r->error);
	else
		jw_null(w, "error");
	if (atomic_load(&r->brk_hit)) {
		const struct sampler *s = &r->s[r->brk_sampler];

		jw_obj_begin(w, "break");
		jw_int(w, "thread", s->id);
		jw_int(w, "tid", s->tid);
		jw_int(w, "cpu", s->cpu_now);
		jw_str(w, "series", s->series[r->brk_series].desc->name);
		jw_int(w, "value_ns", r->brk_value);
		jw_uint(w, "cycle", r->brk_cycle);
		jw_obj_end(w);
	} else {
		jw_null(w, "break");
	}
}

static const char *clock_name(clockid_t c)
{
	return c == CLOCK_REALTIME ? "realtime" : "monotonic";
}

/* The test's declared figures (test_desc.figures: also the headline's
 * param.NAME lines and the "==" lines): test_data. */
static void params_json(struct run *r, struct jw *w)
{
	struct test_figs f = TEST_FIGS_INIT;

	figures_collect(r, &f);
	figures_json(r, &f, w);
	figs_free(&f);
}

void result_cobalt_json(struct jw *w, const struct run *r)
{
	const struct engine_opts *o = r->o;
	int i;

	if (!cobalt_build())
		return;
	jw_str(w, "cokernel", cobalt_system());
	if (r->msw_known && !r->msw_lost)
		jw_uint(w, "msw", engine_msw_total(r));
	else
		jw_null(w, "msw");
	/* the test's other watched threads (a forked partner) */
	jw_arr_begin(w, "msw_partners");
	for (i = 0; i < r->msw_nextra; i++) {
		jw_obj_begin(w, NULL);
		jw_str(w, "name", r->msw_extra[i].name);
		if (r->msw_known && !r->msw_lost)
			jw_uint(w, "msw", atomic_load(&r->msw_extra[i].n));
		else
			jw_null(w, "msw");
		jw_obj_end(w);
	}
	jw_arr_end(w);
	if (o->max_msw >= 0)
		jw_int(w, "max_msw", o->max_msw);
	else
		jw_null(w, "max_msw");
}

/* The result's "config": the options the run had. */
static void config_json(const struct run *r, struct jw *w)
{
	const struct engine_opts *o = r->o;
	char buf[256];

	jw_obj_begin(w, "config");
	if (o->period_ns)
		jw_int(w, "period_ns", o->period_ns);
	else
		jw_null(w, "period_ns");
	jw_int(w, "warmup_ns", o->warmup_ns);
	jw_int(w, "interval_ns", o->interval_ns);
	jw_str(w, "policy", policy_name(o->policy));
	jw_int(w, "priority", o->policy == SCHED_OTHER ? 0 : o->prio);
	jw_str(w, "cpus", cpulist_format(&o->cpus, buf, sizeof(buf)));
	jw_str(w, "wait", wait_backend_name(o->wait));
	jw_str(w, "clock", clock_name(o->clock));
	jw_int(w, "clock_resolution_ns", r->clock_res_ns);
	jw_bool(w, "mlockall", o->mlock);
	jw_bool(w, "cpu_dma_latency_held", r->dma_held);
	hk_json(w, "housekeeping", &o->hk);
	if (o->max_latency_ns >= 0)
		jw_int(w, "max_latency_ns", o->max_latency_ns);
	else
		jw_null(w, "max_latency_ns");
	if (o->break_ns >= 0)
		jw_int(w, "break_ns", o->break_ns);
	else
		jw_null(w, "break_ns");
	jw_obj_end(w);
}

/* The result's "threads": one object per sampler, its series' totals. */
static void threads_json(const struct run *r, struct jw *w)
{
	const struct engine_opts *o = r->o;
	int i, j;

	jw_arr_begin(w, "threads");
	for (i = 0; i < r->nsamplers; i++) {
		const struct sampler *s = &r->s[i];

		jw_obj_begin(w, NULL);
		jw_int(w, "id", s->id);
		if (s->cpu >= 0)
			jw_int(w, "cpu", s->cpu);
		else
			jw_null(w, "cpu");
		jw_int(w, "tid", s->tid);
		jw_str(w, "policy", policy_name(s->policy_now));
		jw_int(w, "priority", s->prio_now);
		jw_int(w, "cpu_at_start", s->cpu_now);
		jw_str(w, "cpus_allowed", s->allowed_now);
		if (cobalt_build() && r->msw_known)
			jw_uint(w, "msw", atomic_load(&((struct sampler *)s)->msw.n));
		else if (cobalt_build())
			jw_null(w, "msw");
		/* interval records the display could not take in time: their
		 * lines and interval rows are missing, the totals are not */
		jw_uint(w, "intervals_dropped",
			atomic_load_explicit(&((struct sampler *)s)->ring.dropped,
					     memory_order_relaxed));
		/* --clock realtime (engine/wait.h): steps seen, the largest,
		 * the deadlines a step made late (no sample, no overrun) */
		jw_uint(w, "clock_steps", s->clock_steps);
		if (s->clock_steps)
			jw_int(w, "clock_step_max_ns", s->clock_step_max);
		else
			jw_null(w, "clock_step_max_ns");
		jw_uint(w, "step_left_out", s->step_left_out);
		/* the late wake-ups RT throttling made (engine/rtthrottle.h) */
		if (s->thr.budget_ns && s->period_ns > 0) {
			jw_obj_begin(w, "rt_throttling");
			jw_uint(w, "periods", s->thr.periods);
			jw_uint(w, "late_wakeups", s->thr.gaps);
			jw_uint(w, "overruns", s->thr.misses);
			jw_int(w, "time_ns", s->thr.time_ns);
			jw_obj_end(w);
		} else {
			jw_null(w, "rt_throttling");
		}
		if (s->cpu_lost) {
			jw_int(w, "cpu_lost_at_ns", s->cpu_lost_at);
			jw_str(w, "cpus_allowed_at_loss", s->allowed_at_loss);
		} else {
			jw_null(w, "cpu_lost_at_ns");
			jw_null(w, "cpus_allowed_at_loss");
		}
		jw_obj_begin(w, "series");
		for (j = 0; j < s->nseries; j++)
			accum_json(w, s->series[j].desc->name,
				   &r->total[i][j], s->series[j].desc,
				   &r->iv[i][j], o->interval_ns);
		jw_obj_end(w);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

static void write_body(struct run *r, struct jw *w, const char *status)
{
	const struct engine_opts *o = r->o;
	char buf[64], host[256], mode[192];
	struct utsname u;
	int64_t actual;
	int i, j;

	jw_obj_begin(w, NULL);
	jw_str(w, "schema", RTLAT_RESULT_SCHEMA);
	jw_int(w, "schema_version", RTLAT_RESULT_SCHEMA_VERSION);
	jw_obj_begin(w, "tool");
	jw_str(w, "name", "rtlat");
	jw_str(w, "version", RTLAT_VERSION);
	jw_obj_end(w);
	jw_str(w, "test", r->test->name);
	jw_str(w, "mode", cobalt_mode(run_mode(r), mode, sizeof(mode)));
	result_cobalt_json(w, r);
	jw_str(w, "status", status);
	url_json_argv(w, "command_line", r->argc, r->argv);
	if (r->wall_start_ns)
		jw_str(w, "start_time", fmt_utc(buf, r->wall_start_ns));
	else
		jw_null(w, "start_time");
	if (r->wall_end_ns)
		jw_str(w, "end_time", fmt_utc(buf, r->wall_end_ns));
	else
		jw_null(w, "end_time");
	if (o->duration_ns)
		jw_int(w, "duration_requested_ns", o->duration_ns);
	else
		jw_null(w, "duration_requested_ns");
	actual = run_actual_ns(r);
	if (!r->mono_end_ns) {
		/* a checkpoint: the totals hold whole intervals only */
		int64_t done = (int64_t)r->next_k * o->interval_ns;

		if (actual > done)
			actual = done;
	}
	jw_int(w, "duration_actual_ns", actual);

	jw_obj_begin(w, "host");
	if (r->no_host) {
		/* synthetic result: no identity */
	} else if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		jw_str(w, "hostname", host);
	}
	if (!r->no_host && uname(&u) == 0) {
		jw_str(w, "sysname", u.sysname);
		jw_str(w, "release", u.release);
		jw_str(w, "version", u.version);
		jw_str(w, "machine", u.machine);
	}
	jw_obj_end(w);
	if (r->sys) {
		jw_obj_begin(w, "system");
		sysdesc_json(r->sys, w);
		jw_obj_end(w);
	} else {
		jw_null(w, "system");
	}
	result_check_json(w, r);

	config_json(r, w);

	result_outcome_json(w, r);
	jw_bool(w, "threshold_exceeded", r->threshold_exceeded);
	jw_str(w, "unit", "ns");
	jw_str(w, "percentile_method",
	       "upper edge of the log-linear histogram bucket holding rank ceil(q*n), clamped to [min, max]: never below the exact value, above it by at most 1 ns under 128 ns and 0.79 % above");

	jw_obj_begin(w, "summary");
	for (j = 0; j < r->nnames; j++)
		accum_json(w, r->names[j].desc->name, &r->names[j].agg,
			   r->names[j].desc, &r->names[j].iv,
			   o->interval_ns);
	jw_obj_end(w);

	threads_json(r, w);
	for (i = 0; i < r->ncomp; i++)
		if (r->comp[i].ops->json)
			r->comp[i].ops->json(&r->comp[i], r, w);
	if (r->test->figures) {
		jw_obj_begin(w, "test_data");
		params_json(r, w);
		jw_obj_end(w);
	}
	jw_obj_end(w);
}

int result_write_json(const char *path,
		      void (*body)(struct jw *w, void *ctx), void *ctx,
		      char *err, size_t errlen)
{
	struct atomic_file af;
	struct jw w;

	if (!atomic_open(&af, path, err, errlen))
		return -1;
	jw_init(&w, af.f);
	body(&w, ctx);
	if (!jw_finish(&w) && !ferror(af.f)) {
		atomic_abort(&af);
		snprintf(err, errlen, "internal error writing %s", path);
		return -1;
	}
	return atomic_commit(&af, err, errlen);
}

struct result_ctx {
	struct run *r;
	const char *status;
};

static void result_body(struct jw *w, void *ctx)
{
	struct result_ctx *c = ctx;

	write_body(c->r, w, c->status);
}

int result_write(struct run *r, const char *path, const char *status,
		 char *err, size_t errlen)
{
	struct result_ctx c = { r, status };

	return result_write_json(path, result_body, &c, err, errlen);
}

int gnuplot_write(struct run *r, const char *path, char *err, size_t errlen)
{
	char buf[32], cpus[128];
	const struct histogram *h;
	struct atomic_file af;
	size_t i;
	FILE *f;
	int j;

	f = atomic_open(&af, path, err, errlen);
	if (!f)
		return -1;
	if (xeno_compat_layout) {	/* Xenomai's layout */
		xeno_gnuplot(r, f);
		return atomic_commit(&af, err, errlen);
	}
	fprintf(f, "# rtlat %s %s histogram, raw counts\n", RTLAT_VERSION,
		r->test->name);
	fprintf(f, "# test: %s (%s)\n", r->test->name, run_mode(r));
	if (r->o->period_ns)
		fprintf(f, "# period: %s us\n", fmt_us3(buf, r->o->period_ns));
	fprintf(f, "# policy: %s, priority: %d, cpus: %s, wait: %s\n",
		policy_name(r->o->policy), r->o->prio,
		cpulist_format(&r->o->cpus, cpus, sizeof(cpus)),
		wait_backend_name(r->o->wait));
	fprintf(f, "# bucket width: %s us, buckets: %ld\n",
		fmt_us3(buf, r->o->hist_bucket_ns), r->o->hist_buckets);
	for (j = 0; j < r->nnames; j++) {
		const struct accum *a = &r->names[j].agg;

		h = &a->lin;
		if (!h->count)
			continue;
		fprintf(f, "# series: %s, samples: %llu, underflow: %llu, overflow: %llu\n",
			r->names[j].desc->name, (unsigned long long)a->st.n,
			(unsigned long long)h->underflow,
			(unsigned long long)h->overflow);
		fprintf(f, "# columns: bucket lower edge (us), count\n");
		for (i = 0; i < h->nbuckets; i++) {
			int64_t lo, hi;

			hist_bucket_range(h, i, &lo, &hi);
			fprintf(f, "%s %llu\n", fmt_us3(buf, lo),
				(unsigned long long)h->count[i]);
		}
		if (j + 1 < r->nnames)
			fprintf(f, "\n\n");	/* gnuplot data set separator */
	}
	return atomic_commit(&af, err, errlen);
}

/* One headline value: no newline may break the line format. */
/* The figures of sampler @i (those that measure, in order): "sampler.I.cpu"
 * and per series samples, misses, min, avg, max (ns). */
static void headline_sampler(FILE *f, const struct run *r, int i)
{
	const struct sampler *s = &r->s[i];
	int j, k = 0;

	/* a run that failed before its samplers started has no totals */
	if (!s->nseries || !r->total)
		return;
	for (j = 0; j < i; j++)
		k += r->s[j].nseries > 0;	/* its index among those */
	fprintf(f, "sampler.%d.cpu %d\n", k, s->cpu_now);
	for (j = 0; j < s->nseries; j++) {
		const struct accum *a = &r->total[i][j];
		const char *name = s->series[j].desc->name;
		double mean;

		fprintf(f, "sampler.%d.%s.samples %llu\n", k, name,
			(unsigned long long)a->st.n);
		fprintf(f, "sampler.%d.%s.misses %llu\n", k, name,
			(unsigned long long)a->overruns);
		if (!a->st.n || !stats_mean(&a->st, &mean))
			continue;
		fprintf(f, "sampler.%d.%s.min_ns %lld\n", k, name,
			(long long)a->st.min);
		fprintf(f, "sampler.%d.%s.avg_ns %.1f\n", k, name, mean);
		fprintf(f, "sampler.%d.%s.max_ns %lld\n", k, name,
			(long long)a->st.max);
	}
}

void result_headline(struct run *r, int fd, const char *status)
{
	struct test_figs figs = TEST_FIGS_INIT;
	const struct sampler *low = NULL;
	int i, nfd = dup(fd);
	char key[96];
	double mean;
	int64_t v;
	FILE *f;

	if (nfd < 0)
		return;
	f = fdopen(nfd, "w");
	if (!f) {
		close(nfd);
		return;
	}
	fprintf(f, "rtlat-headline 1\n");
	headline_put(f, "test", r->test->name);
	headline_put(f, "status", status);
	if (r->stop_reason == STOP_SIGNAL)
		fprintf(f, "signal %d\n", r->stop_signal);
	fprintf(f, "exit %d\n", r->exit_code);
	fprintf(f, "duration_actual_ns %lld\n", (long long)run_actual_ns(r));
	fprintf(f, "threshold_exceeded %d\n", r->threshold_exceeded ? 1 : 0);
	/* the weakest scheduling in force over the samplers that measure
	 * (a helper without series, irq's sender, is not the measured task) */
	for (i = 0; i < r->nsamplers; i++) {
		const struct sampler *s = &r->s[i];

		if (!s->tid || !s->nseries)
			continue;
		if (!low || (s->policy_now == SCHED_OTHER) > (low->policy_now == SCHED_OTHER) ||
		    s->prio_now < low->prio_now)
			low = s;
	}
	if (low) {
		headline_put(f, "policy", policy_name(low->policy_now));
		fprintf(f, "priority %d\n", low->prio_now);
	}
	fprintf(f, "period_ns %lld\n", (long long)r->o->period_ns);
	{
		struct cpuset used;
		char list[64];
		bool any = false;

		cpuset_zero(&used);
		for (i = 0; i < r->nsamplers; i++)
			if (r->s[i].nseries && r->s[i].tid && r->s[i].cpu_now >= 0) {
				cpuset_set(&used, r->s[i].cpu_now);
				any = true;
			}
		if (any)
			headline_put(f, "cpus", cpulist_format(&used, list, sizeof(list)));
	}
	for (i = 0; i < r->nsamplers; i++)
		headline_sampler(f, r, i);
	for (i = 0; i < r->nnames; i++) {
		const struct series_name *nm = &r->names[i];
		const struct accum *a = &nm->agg;

		headline_put(f, "series", nm->desc->name);
		snprintf(key, sizeof(key), "series.%s.miss_name", nm->desc->name);
		headline_put(f, key, nm->desc->miss_name);
		fprintf(f, "series.%s.samples %llu\n", nm->desc->name,
			(unsigned long long)a->st.n);
		fprintf(f, "series.%s.misses %llu\n", nm->desc->name,
			(unsigned long long)a->overruns);
		fprintf(f, "series.%s.threshold %d\n", nm->desc->name,
			nm->desc->threshold ? 1 : 0);
		if (!a->st.n)
			continue;
		stats_mean(&a->st, &mean);
		fprintf(f, "series.%s.min_ns %lld\n", nm->desc->name,
			(long long)a->st.min);
		fprintf(f, "series.%s.avg_ns %.1f\n", nm->desc->name, mean);
		fprintf(f, "series.%s.max_ns %lld\n", nm->desc->name,
			(long long)a->st.max);
		if (hist_percentile(&a->hist, 1000, a->st.min, a->st.max, &v))
			fprintf(f, "series.%s.p99.9_ns %lld\n", nm->desc->name,
				(long long)v);
	}
	figures_collect(r, &figs);
	figures_headline(&figs, f);
	figs_free(&figs);
	for (i = 0; i < r->ncomp; i++)
		if (r->comp[i].ops->headline)
			r->comp[i].ops->headline(&r->comp[i], r, f);
	for (i = 0; i < r->nwarnings; i++)
		headline_put(f, "warning", r->warnings[i]);
	if (r->error[0])
		headline_put(f, "error", r->error);
	fprintf(f, "end\n");
	fclose(f);
}

const struct result_ops result_files = {
	.write = result_write,
	.gnuplot = gnuplot_write,
	.headline = result_headline,
};
