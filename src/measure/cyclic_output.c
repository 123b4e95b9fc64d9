// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output of rtlat cyclic in cyclictest's formats, so that its parsers keep
 * working:
 *
 *   # /dev/cpu_dma_latency set to 0us
 *   policy: fifo: loadavg: 0.42 0.14 0.04 2/101 9367          (live only)
 *
 *   # Overruns: 00000                                          (rtlat)
 *   T: 0 ( 9361) P:80 I:1000 C:   1000 Min:     45 Act:   55 Avg:   59 Max:      73
 *
 * The live block is redrawn about every 100 ms with the cursor moved up
 * (ANSI "ESC [ n A") unless -q. The T: fields and widths are cyclictest's;
 * the values come from the engine's exact statistics (us rounded down, or ns
 * with -N). A thread without a cycle prints n/a. Missed periods, which
 * cyclictest skips silently, are counted as overruns and printed on a
 * "#"-comment line above the T: lines, so that T: parsers are not
 * disturbed and the output ends with the last T: line, as cyclictest's.
 *
 * -h/-H print cyclictest's histogram dump (1 us buckets, also with -N) with
 * its footer; -b prints the thread ids and the thread, value and cycle that
 * broke; --json writes the rt-tests JSON layout (docs/cyclic-json.md).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "measure/cyclic.h"
#include "util/jsonw.h"
#include "util/url.h"
#include "util/log.h"
#include "output/output.h"
#include "output/result.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

int64_t cyclic_unit(int64_t ns, bool nsecs)
{
	int64_t q;

	if (nsecs)
		return ns;
	q = ns / NSEC_PER_USEC;
	if (ns % NSEC_PER_USEC < 0)
		q--;		/* round down, also below zero */
	return q;
}

int cyclic_tline(char *buf, size_t len, const struct cyclic_tvals *v,
		 bool nsecs)
{
	int aw = nsecs ? 8 : 5;

	if (!v->cycles)
		return snprintf(buf, len,
				"T:%2d (%5d) P:%2d I:%lld C:%7" PRIu64
				" Min:%7s Act:%*s Avg:%*s Max:%8s",
				v->index, v->tid, v->prio,
				(long long)(v->interval_ns / NSEC_PER_USEC),
				v->cycles, "n/a", aw, "n/a", aw, "n/a", "n/a");
	return snprintf(buf, len,
			"T:%2d (%5d) P:%2d I:%lld C:%7" PRIu64
			" Min:%7lld Act:%*lld Avg:%*lld Max:%8lld",
			v->index, v->tid, v->prio,
			(long long)(v->interval_ns / NSEC_PER_USEC), v->cycles,
			(long long)cyclic_unit(v->min, nsecs),
			aw, (long long)cyclic_unit(v->act, nsecs),
			aw, (long long)cyclic_unit(v->avg, nsecs),
			(long long)cyclic_unit(v->max, nsecs));
}

static const struct cyclic_opts *opts_of(const struct run *r)
{
	return ((const struct cyclic_state *)r->priv)->c;
}

/* Mean in ns, rounded down. */
static int64_t mean_floor(const struct stats *st)
{
	double m = 0;
	int64_t q;

	stats_mean(st, &m);
	q = (int64_t)m;		/* toward zero */
	return (double)q > m ? q - 1 : q;
}

static void tvals_base(const struct run *r, int i, struct cyclic_tvals *v)
{
	const struct sampler *s = &r->s[i];

	memset(v, 0, sizeof(*v));
	v->index = i;
	v->tid = (int)s->tid;
	v->prio = s->prio_now;
	v->interval_ns = s->period_ns;
}

/* T: values of thread @i: live (from the interval records so far) or
 * final (the engine's totals). */
static void tvals(const struct run *r, int i, bool final,
		  struct cyclic_tvals *v)
{
	const struct cyclic_state *st = r->priv;
	const struct window *w = &st->live[i];

	tvals_base(r, i, v);
	if (final) {
		const struct stats *x = &r->total[i][0].st;

		v->cycles = x->n;
		v->min = x->min;
		v->max = x->max;
		v->avg = x->n ? mean_floor(x) : 0;
	} else {
		int64_t q;

		v->cycles = w->n;
		v->min = w->min;
		v->max = w->max;
		q = w->n ? w->sum / (int64_t)w->n : 0;
		if (w->n && q * (int64_t)w->n > w->sum)
			q--;
		v->avg = q;
	}
	v->act = w->n ? w->last : (v->cycles ? v->max : 0);
}

static uint64_t overruns_of(const struct run *r, int i, bool final)
{
	const struct cyclic_state *st = r->priv;

	return final ? r->total[i][0].overruns : st->live[i].overruns;
}

/* The overrun line and the T: lines, the last T: line last (as cyclictest
 * ends: scripts read its max with tail -1); returns the lines printed. */
static int print_tlines(struct run *r, bool final)
{
	const struct cyclic_opts *c = opts_of(r);
	struct cyclic_tvals v;
	char line[256];
	int i;

	printf("# Overruns:");
	for (i = 0; i < r->nsamplers; i++)
		printf(" %05" PRIu64, overruns_of(r, i, final));
	printf("\n");
	for (i = 0; i < r->nsamplers; i++) {
		tvals(r, i, final, &v);
		cyclic_tline(line, sizeof(line), &v, c->nsecs);
		printf("%s\n", line);
	}
	return r->nsamplers + 1;
}

static void policy_line(struct run *r)
{
	char lavg[256] = "";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (fgets(lavg, sizeof(lavg), f))
			lavg[strcspn(lavg, "\n")] = '\0';
		fclose(f);
	}
	printf("policy: %s: loadavg: %s          \n\n",
	       policy_name(r->s[0].policy_now), lavg);
}

static void cyclic_start(struct run *r)
{
	if (r->dma_held)
		printf("# /dev/cpu_dma_latency set to 0us\n");
	stdout_flush();
}

static void cyclic_interval(struct run *r, uint64_t k,
			    const struct window *agg,
			    const struct winrec *const *thr)
{
	struct cyclic_state *st = r->priv;
	int i;

	(void)k;
	(void)agg;
	for (i = 0; i < r->nsamplers; i++)
		if (thr[i])
			window_merge(&st->live[i], &thr[i]->w[0]);
}

static bool live_display(const struct run *r)
{
	const struct cyclic_opts *c = opts_of(r);

	return !c->eo.quiet && !c->verbose;
}

static void cyclic_tick(struct run *r)
{
	struct cyclic_state *st = r->priv;

	if (!live_display(r))
		return;
	policy_line(r);
	st->live_lines = 2 + print_tlines(r, false);
	printf("\033[%dA", st->live_lines);
	stdout_flush();
}

/* SIGUSR1/SIGUSR2: the current T: lines on stderr between "#---" rules,
 * as cyclictest prints its current status on SIGUSR1; the run goes on. */
static void cyclic_snapshot(struct run *r)
{
	const struct cyclic_opts *c = opts_of(r);
	struct cyclic_tvals v;
	char line[256];
	int i;

	fprintf(stderr, "#---------------------------\n"
			"# rtlat cyclic current status:\n");
	for (i = 0; i < r->nsamplers; i++) {
		tvals(r, i, false, &v);
		cyclic_tline(line, sizeof(line), &v, c->nsecs);
		fprintf(stderr, "%s\n", line);
	}
	fprintf(stderr, "# Overruns:");
	for (i = 0; i < r->nsamplers; i++)
		fprintf(stderr, " %05" PRIu64, overruns_of(r, i, false));
	fprintf(stderr, "\n#---------------------------\n");
}

static void cyclic_raw(struct run *r, int i, const struct rawrec *rec)
{
	printf("%8d:%8" PRIu64 ":%8lld\n", i, rec->cycle,
	       (long long)cyclic_unit(rec->value, opts_of(r)->nsecs));
}

/* " %05lld" of a statistic, or " n/a" without samples. */
static void put_stat(FILE *f, bool valid, int64_t v)
{
	if (valid)
		fprintf(f, " %05lld", (long long)v);
	else
		fprintf(f, " n/a");
}

static void hist_dump(struct run *r, FILE *f)
{
	const struct cyclic_opts *c = opts_of(r);
	int n = r->nsamplers, i;
	bool fall = c->histofall && n > 1, under = false;
	uint64_t tot[n + 1], all;
	int64_t maxmax = 0;
	bool anymax = false;
	long b;

	memset(tot, 0, sizeof(tot));
	if (c->nsecs)
		fprintf(f, "# Histogram buckets are 1 us wide; latencies in ns\n");
	fprintf(f, "# Histogram\n");
	for (b = 0; b < c->hist_buckets; b++) {
		all = 0;
		fprintf(f, "%06ld ", b);
		for (i = 0; i < n; i++) {
			uint64_t v = r->total[i][0].lin.count[b];

			fprintf(f, "%06" PRIu64 "%s", v, i < n - 1 ? "\t" : "");
			tot[i] += v;
			all += v;
		}
		if (fall) {
			fprintf(f, "\t%06" PRIu64, all);
			tot[n] += all;
		}
		fprintf(f, "\n");
	}
	fprintf(f, "# Total:");
	for (i = 0; i < n + fall; i++)
		fprintf(f, " %09" PRIu64, tot[i]);
	fprintf(f, "\n# Min Latencies:");
	for (i = 0; i < n; i++) {
		const struct stats *x = &r->total[i][0].st;

		put_stat(f, x->n, cyclic_unit(x->min, c->nsecs));
	}
	fprintf(f, "\n# Avg Latencies:");
	for (i = 0; i < n; i++) {
		const struct stats *x = &r->total[i][0].st;

		put_stat(f, x->n, x->n ? cyclic_unit(mean_floor(x), c->nsecs) : 0);
	}
	fprintf(f, "\n# Max Latencies:");
	for (i = 0; i < n; i++) {
		const struct stats *x = &r->total[i][0].st;

		put_stat(f, x->n, cyclic_unit(x->max, c->nsecs));
		if (x->n && (!anymax || x->max > maxmax)) {
			maxmax = x->max;
			anymax = true;
		}
	}
	if (fall)
		put_stat(f, anymax, cyclic_unit(maxmax, c->nsecs));
	fprintf(f, "\n# Histogram Overflows:");
	all = 0;
	for (i = 0; i < n; i++) {
		const struct histogram *h = &r->total[i][0].lin;

		fprintf(f, " %05" PRIu64, h->overflow);
		all += h->overflow;
		under |= h->underflow > 0;
	}
	if (fall)
		fprintf(f, " %05" PRIu64, all);
	fprintf(f, "\n");
	if (under) {
		/* negative latencies (a stepped CLOCK_REALTIME): counted */
		fprintf(f, "# Histogram Underflows:");
		all = 0;
		for (i = 0; i < n; i++) {
			fprintf(f, " %05" PRIu64, r->total[i][0].lin.underflow);
			all += r->total[i][0].lin.underflow;
		}
		if (fall)
			fprintf(f, " %05" PRIu64, all);
		fprintf(f, "\n");
	}
	fprintf(f, "# Histogram Overflow at cycle number:\n");
	for (i = 0; i < n; i++) {
		const struct series *sr = &r->s[i].series[0];
		uint64_t ovf = r->total[i][0].lin.overflow;
		size_t j;

		fprintf(f, "# Thread %d:", i);
		for (j = 0; j < sr->novf; j++)
			fprintf(f, " %05" PRIu64, sr->ovf_cycles[j]);
		if (sr->novf < ovf)
			fprintf(f, " # %05" PRIu64 " others", ovf - sr->novf);
		fprintf(f, "\n");
	}
	fprintf(f, "# Overruns:");
	for (i = 0; i < n; i++)
		fprintf(f, " %05" PRIu64, r->total[i][0].overruns);
	fprintf(f, "\n\n");
}

static void break_lines(struct run *r)
{
	const struct cyclic_opts *c = opts_of(r);
	int i;

	if (c->eo.break_ns < 0)
		return;
	printf("# Thread Ids:");
	for (i = 0; i < r->nsamplers; i++)
		printf(" %05d", (int)r->s[i].tid);
	printf("\n");
	if (atomic_load(&r->brk_hit)) {
		const struct sampler *s = &r->s[r->brk_sampler];

		printf("# Break thread: %d\n", (int)s->tid);
		printf("# Break value: %lld\n",
		       (long long)cyclic_unit(r->brk_value, c->nsecs));
		printf("# Break cycle: %" PRIu64 "\n", r->brk_cycle);
		printf("# Break thread number: %d\n", s->id);
	}
}

static void cyclic_summary(struct run *r)
{
	const struct cyclic_opts *c = opts_of(r);
	int i;

	if (c->verbose) {
		for (i = 0; i < r->nsamplers; i++) {
			unsigned long d = atomic_load(&r->s[i].raw.dropped);

			if (d)
				printf("# Thread %d: %lu samples not printed (output too slow)\n",
				       i, d);
		}
	} else if (!c->eo.quiet) {
		policy_line(r);
		print_tlines(r, true);
	} else if (!c->hist_buckets) {
		print_tlines(r, true);	/* as cyclictest: -q -h prints none */
	}
	if (c->hist_buckets && !c->histfile)
		hist_dump(r, stdout);
	break_lines(r);
	stdout_flush();
	run_report_outcome(r);
}

/* --histfile and --json, after every line printed (either may be the
 * standard output) */
static void cyclic_files(struct run *r)
{
	const struct cyclic_opts *c = opts_of(r);
	struct atomic_file af;
	char err[PATH_MAX + 128];

	if (c->hist_buckets && c->histfile) {
		if (atomic_open(&af, c->histfile, err, sizeof(err))) {
			hist_dump(r, af.f);
			if (atomic_commit(&af, err, sizeof(err)) == 0)
				err[0] = '\0';
		}
		if (err[0]) {
			log_error("--histfile: %s", err);
			r->exit_code = 1;
		}
	}
	if (c->json_file &&
	    cyclic_json_write(r, c->json_file, r->exit_code, err,
			      sizeof(err)) < 0) {
		log_error("--json: %s", err);
		r->exit_code = 1;
	}
}

const struct output_ops cyclic_output = {
	.start = cyclic_start,
	.interval = cyclic_interval,
	.tick = cyclic_tick,
	.raw = cyclic_raw,
	.snapshot = cyclic_snapshot,
	.summary = cyclic_summary,
	.files = cyclic_files,
};

/* ---------------------------------------------------------------------- */
/* --json: the rt-tests layout, always valid JSON, plus rtlat's fields */

/* rt-tests' time format: "Sun, 29 Nov 2026 19:18:53 +0000" (local time). */
static void json_time(struct jw *w, const char *key, int64_t realtime_ns)
{
	time_t t = (time_t)(realtime_ns / NSEC_PER_SEC);
	struct tm tm;
	char buf[64];

	if (!realtime_ns || !localtime_r(&t, &tm) ||
	    !strftime(buf, sizeof(buf), "%a, %d %b %Y %T %z", &tm)) {
		jw_null(w, key);
		return;
	}
	jw_str(w, key, buf);
}

static int numa_node_of(int cpu)
{
	char p[96];
	int n;

	for (n = 0; n < 64 && cpu >= 0; n++) {
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/node%d",
			 cpu, n);
		if (access(p, F_OK) == 0)
			return n;
	}
	return 0;
}

static int kernel_realtime(void)
{
	FILE *f = fopen("/sys/kernel/realtime", "r");
	char buf[16];
	long v = 0;

	if (f) {
		if (fgets(buf, sizeof(buf), f))
			v = strtol(buf, NULL, 10);
		fclose(f);
	}
	return v == 1;
}

static const char *status_of(const struct run *r)
{
	switch (r->stop_reason) {
	case STOP_SIGNAL:
		return "interrupted";
	case STOP_BREAK:
		return "break";
	case STOP_ERROR:
		return "error";
	default:
		return "complete";
	}
}

static void json_thread(struct run *r, struct jw *w, int i)
{
	const struct cyclic_opts *c = opts_of(r);
	const struct sampler *s = &r->s[i];
	const struct accum *a = &r->total[i][0];
	const struct series *sr = &s->series[0];
	char key[16];
	size_t j;

	snprintf(key, sizeof(key), "%d", i);
	jw_obj_begin(w, key);
	jw_obj_begin(w, "histogram");
	for (j = 0; a->lin.count && j < a->lin.nbuckets; j++) {
		if (!a->lin.count[j])
			continue;
		snprintf(key, sizeof(key), "%zu", j);
		jw_uint(w, key, a->lin.count[j]);
	}
	jw_obj_end(w);
	jw_uint(w, "cycles", a->st.n);
	if (a->st.n) {
		double m = 0;

		stats_mean(&a->st, &m);
		jw_int(w, "min", cyclic_unit(a->st.min, c->nsecs));
		jw_int(w, "max", cyclic_unit(a->st.max, c->nsecs));
		jw_double(w, "avg", c->nsecs ? m : m / NSEC_PER_USEC, 2);
	} else {
		jw_null(w, "min");
		jw_null(w, "max");
		jw_null(w, "avg");
	}
	jw_int(w, "cpu", s->cpu);
	jw_int(w, "node", numa_node_of(s->cpu));
	/* rtlat */
	jw_int(w, "tid", s->tid);
	jw_str(w, "policy", policy_name(s->policy_now));
	jw_int(w, "priority", s->prio_now);
	jw_int(w, "interval_us", s->period_ns / NSEC_PER_USEC);
	jw_uint(w, "overruns", a->overruns);
	/* the faults of rtlat(1)'s FAULTS, as in rtlat's own result */
	jw_uint(w, "clock_steps", s->clock_steps);
	if (s->clock_steps)
		jw_int(w, "clock_step_max_ns", s->clock_step_max);
	else
		jw_null(w, "clock_step_max_ns");
	jw_uint(w, "step_left_out", s->step_left_out);
	if (s->cpu_lost) {
		jw_int(w, "cpu_lost_at_ns", s->cpu_lost_at);
		jw_str(w, "cpus_allowed_at_loss", s->allowed_at_loss);
	} else {
		jw_null(w, "cpu_lost_at_ns");
		jw_null(w, "cpus_allowed_at_loss");
	}
	jw_uint(w, "histogram_underflow", a->lin.count ? a->lin.underflow : 0);
	jw_uint(w, "histogram_overflow", a->lin.count ? a->lin.overflow : 0);
	jw_arr_begin_inline(w, "histogram_overflow_cycles");
	for (j = 0; sr->ovf_cycles && j < sr->novf; j++)
		jw_uint(w, NULL, sr->ovf_cycles[j]);
	jw_arr_end(w);
	accum_json(w, "latency", a, sr->desc, NULL, 0);
	jw_obj_end(w);
}

static void json_body(struct run *r, struct jw *w, int return_code)
{
	const struct cyclic_opts *c = opts_of(r);
	struct utsname u;
	char host[256];
	size_t len = 0;
	int i;

	jw_obj_begin(w, NULL);
	jw_int(w, "file_version", 1);
	for (i = 0; i < r->argc; i++)
		len += strlen(r->argv[i]) + 1;
	{
		char cmd[len + 1];

		cmd[0] = '\0';
		for (i = 0; i < r->argc; i++) {
			strcat(cmd, r->argv[i]);
			if (i < r->argc - 1)
				strcat(cmd, " ");
		}
		jw_str(w, "cmdline", cmd);
	}
	jw_str(w, "rt_test_version", RTLAT_VERSION);
	json_time(w, "start_time", r->wall_start_ns);
	json_time(w, "end_time", r->wall_end_ns);
	jw_int(w, "return_code", return_code);
	jw_obj_begin(w, "sysinfo");
	if (uname(&u) == 0) {
		jw_str(w, "sysname", u.sysname);
		jw_str(w, "nodename", u.nodename);
		jw_str(w, "release", u.release);
		jw_str(w, "version", u.version);
		jw_str(w, "machine", u.machine);
	}
	jw_int(w, "realtime", kernel_realtime());
	jw_obj_end(w);
	jw_int(w, "num_threads", r->nsamplers);
	jw_int(w, "resolution_in_ns", c->nsecs);
	jw_obj_begin(w, "thread");
	for (i = 0; i < r->nsamplers; i++)
		json_thread(r, w, i);
	jw_obj_end(w);

	/* rtlat */
	jw_obj_begin(w, "tool");
	jw_str(w, "name", "rtlat");
	jw_str(w, "version", RTLAT_VERSION);
	jw_str(w, "test", r->test->name);
	jw_obj_end(w);
	url_json_argv(w, "command_line", r->argc, r->argv);
	jw_str(w, "status", status_of(r));
	jw_str(w, "unit", c->nsecs ? "ns" : "us");
	if (c->hist_buckets)
		jw_int(w, "histogram_bucket_width_us", 1);
	else
		jw_null(w, "histogram_bucket_width_us");
	jw_int(w, "histogram_buckets", c->hist_buckets);
	if (r->o->duration_ns)
		jw_int(w, "duration_requested_ns", r->o->duration_ns);
	else
		jw_null(w, "duration_requested_ns");
	jw_int(w, "duration_actual_ns", run_actual_ns(r));
	jw_int(w, "warmup_ns", r->o->warmup_ns);
	jw_str(w, "clock", r->o->clock == CLOCK_REALTIME ? "realtime" : "monotonic");
	jw_str(w, "wait", wait_backend_name(r->o->wait));
	jw_bool(w, "mlockall", r->o->mlock);
	jw_bool(w, "cpu_dma_latency_held", r->dma_held);
	jw_str(w, "cpus", cpulist_format(&r->o->cpus, host, sizeof(host)));
	hk_json(w, "housekeeping", &r->o->hk);
	if (r->o->break_ns >= 0)
		jw_int(w, "break_ns", r->o->break_ns);
	else
		jw_null(w, "break_ns");
	result_cobalt_json(w, r);
	result_outcome_json(w, r);
	result_check_json(w, r);
	jw_obj_end(w);
}

struct json_ctx {
	struct run *r;
	int return_code;
};

static void json_cb(struct jw *w, void *ctx)
{
	struct json_ctx *c = ctx;

	json_body(c->r, w, c->return_code);
}

int cyclic_json_write(struct run *r, const char *path, int return_code,
		      char *err, size_t errlen)
{
	struct json_ctx c = { r, return_code };

	return result_write_json(path, json_cb, &c, err, errlen);
}
