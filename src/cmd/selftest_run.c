// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Self-test of the measuring core, run on the target itself ("rtlat
 * selftest"), so that a 32-bit or big-endian board checks the arithmetic the
 * measurement relies on: time differences beyond 2^31 ns, 128-bit sums over
 * 10^10 samples, histogram accounting and percentile bounds, CPU lists,
 * option values, JSON escaping and a complete synthetic result file whose
 * bytes must be identical on every architecture.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "engine/engine.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/parse.h"
#include "system/clockcheck.h"
#include "output/result.h"
#include "cmd/selftest.h"
#include "util/timeutil.h"

struct st {
	int checks;
	int failures;
	bool verbose;
};

static void check(struct st *t, bool ok, const char *what, ...)
	__attribute__((format(printf, 3, 4)));

static void check(struct st *t, bool ok, const char *what, ...)
{
	va_list ap;

	t->checks++;
	if (ok && !t->verbose)
		return;
	if (!ok)
		t->failures++;
	printf("%s: ", ok ? "ok  " : "FAIL");
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	printf("\n");
}

static void check_time(struct st *t)
{
	static const struct {
		struct timespec a, b;
		int64_t diff;
	} d[] = {
		{ { 10, 100 }, { 9, 999999900 }, 200 },
		{ { 1002, 600000000 }, { 1000, 500000000 }, INT64_C(2100000000) },
		{ { 1002, 700000000 }, { 1000, 500000000 }, INT64_C(2200000000) },
		{ { 4600, 500000000 }, { 1000, 500000000 }, INT64_C(3600000000000) },
		{ { 0, 0 }, { 2147483647, 999999999 }, -INT64_C(2147483647999999999) },
	};
	char b[32];
	size_t i;

	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		check(t, ts_sub_ns(&d[i].a, &d[i].b) == d[i].diff,
		      "time difference %zu = %lld ns", i, (long long)d[i].diff);
	check(t, ns_to_ts(-1).tv_sec == -1 && ns_to_ts(-1).tv_nsec == 999999999,
	      "ns_to_ts(-1) = -1 s + 999999999 ns");
	check(t, !strcmp(fmt_us3(b, -35125), "-35.125"), "fmt_us3(-35125)");
	check(t, !strcmp(fmt_hms(b, 3725 * NSEC_PER_SEC), "01:02:05"),
	      "fmt_hms(3725 s)");
}

/* The clocks rtlat measures with advance across a sleep by about it
 * (system/clockcheck.h): a faked or broken clock fails here, not later as
 * invented latencies. */
static void check_clocks(struct st *t)
{
	static const clockid_t clocks[] = { CLOCK_MONOTONIC, CLOCK_REALTIME };
	char msg[256];
	int64_t adv;
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		bool ok = clock_verify(clocks[i], &adv, msg, sizeof(msg)) == 0;

		check(t, ok, "%s advances across a sleep%s%s",
		      clock_id_name(clocks[i]), ok ? "" : ": ", msg);
	}
}

static void check_stats(struct st *t)
{
	struct stats s;
	double m, sd;

	stats_init(&s);
	stats_add(&s, -35125);
	stats_add(&s, 24400);
	stats_add(&s, -5);
	stats_mean(&s, &m);
	check(t, s.min == -35125 && s.max == 24400 && stats_sum(&s) == -10730,
	      "min, max and sum of negative samples");
	check(t, m > -3577 && m < -3576 && m >= s.min && m <= s.max,
	      "mean of negative samples within [min, max]");
	stats_init(&s);
	stats_add_n(&s, 2000000000, UINT64_C(10000000000));
	stats_add_n(&s, -1, 1);
	check(t, s.n == UINT64_C(10000000001), "10^10 samples counted");
	check(t, s.sum_hi == 1 && s.sum_lo == UINT64_C(1553255926290448383),
	      "sum of 10^10 samples of 2 s exact beyond 2^64");
	stats_stddev(&s, &sd);
	check(t, sd > 19999.0 && sd < 20001.0, "stddev over 10^10 samples");
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void check_histogram(struct st *t)
{
	enum { N = 20000 };
	struct histogram h;
	int64_t *v = malloc(N * sizeof(*v)), got;
	uint64_t seed = 42;
	bool ok = true;
	int i, p;

	if (!v || hist_init_loglin(&h) < 0) {
		check(t, false, "histogram allocation");
		free(v);
		return;
	}
	for (i = 0; i < N; i++) {
		/* xorshift: the same sequence on every target */
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		v[i] = (int64_t)(seed % 4000000) - 200000;
		hist_add(&h, v[i]);
	}
	hist_add_n(&h, 15000, UINT64_C(10000000000));
	check(t, hist_total(&h) == UINT64_C(10000000000) + N,
	      "histogram accounts 10^10 + %d samples", N);
	hist_reset(&h);
	for (i = 0; i < N; i++)
		hist_add(&h, v[i]);
	qsort(v, N, sizeof(*v), cmp64);
	for (p = 0; p < RTLAT_NPCT; p++) {
		uint64_t d = rtlat_percentiles[p].den_inv;
		int64_t exact = v[N - N / d - 1];
		int64_t mag = exact < 0 ? -exact : exact;

		hist_percentile(&h, d, v[0], v[N - 1], &got);
		if (got < exact || (got - exact) * 128 > mag + 128)
			ok = false;
	}
	check(t, ok, "percentiles within [exact, exact + 0.79 %%]");
	check(t, hist_index(&h, INT64_MIN) == -1 && hist_index(&h, INT64_MAX) == -2,
	      "extremes go to underflow and overflow");
	hist_free(&h);
	free(v);
}

static void check_parsing(struct st *t)
{
	static const char *const bad[] = { "\n", "0,,1", "1-3,", "3-1", "1024" };
	struct cpuset cs;
	char err[160], b[64];
	int64_t v;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check(t, cpulist_parse(bad[i], &cs, err, sizeof(err)) == -EINVAL,
		      "CPU list \"%s\" refused", bad[i][0] == '\n' ? "\\n" : bad[i]);
	check(t, cpulist_parse("0,2-3", &cs, err, sizeof(err)) == 0 &&
	      !strcmp(cpulist_format(&cs, b, sizeof(b)), "0,2-3"),
	      "CPU list 0,2-3");
	check(t, parse_time_ns("2h", NSEC_PER_SEC, &v) == 0 &&
	      v == INT64_C(7200000000000), "duration 2h");
	check(t, parse_time_ns("2.5ms", NSEC_PER_USEC, &v) == 0 && v == 2500000,
	      "period 2.5ms");
	check(t, parse_time_ns("10x", NSEC_PER_SEC, &v) == -EINVAL,
	      "duration 10x refused");
}

static void check_json(struct st *t)
{
	char buf[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	if (!f) {
		check(t, false, "fmemopen");
		return;
	}
	json_put_string(f, "a\"\\\x01\xc2\xb5\xff");
	fclose(f);
	check(t, !strcmp(buf, "\"a\\\"\\\\\\u0001\xc2\xb5\\ufffd\""),
	      "JSON string escaping");
}

/* ---------------------------------------------------------------------- */
/* A synthetic run written by the real result writer. */

static const struct series_desc syn_series = {
	.name = "latency", .miss_name = "overruns", .threshold = true,
};
static const struct series_desc *const syn_descs[] = { &syn_series };
static const struct output_ops syn_out;
static const struct test_desc syn_test = {
	.name = "latency", .mode = "synthetic self-test", .out = &syn_out,
};

int selftest_result(const char *path, bool with_host, uint64_t *samples,
		     uint64_t *overruns, uint64_t *hist)
{
	static char *argv[] = { "rtlat", "selftest", NULL };
	struct engine_opts o;
	struct companion comp[4];
	struct run r;
	struct sampler *s;
	char err[320];
	int64_t next, late;
	uint64_t seed = 7;
	int i, ret;

	memset(&r, 0, sizeof(r));
	engine_opts_init(&o, 100 * NSEC_PER_USEC, 99);
	o.warmup_ns = 10 * o.period_ns;
	o.interval_ns = 1000 * o.period_ns;
	o.duration_ns = 5000 * o.period_ns;
	o.linear_hist = true;
	cpulist_parse("0", &o.cpus, err, sizeof(err));
	r.o = &o;
	r.test = &syn_test;
	r.argc = 2;
	r.argv = argv;
	r.no_host = !with_host;
	if (!engine_add_sampler(&r, 0, 1, 99, 1, syn_descs) ||
	    engine_alloc(&r) < 0)
		return -1;
	s = &r.s[0];
	s->policy_now = 1;
	s->prio_now = 99;
	s->cpu_now = 0;
	snprintf(s->allowed_now, sizeof(s->allowed_now), "0");
	r.t0 = INT64_C(5000000000000);
	r.t_measure = r.t0 + o.warmup_ns;
	r.t_end = r.t_measure + o.duration_ns;
	r.wall_start_ns = INT64_C(1796155448000000000);
	r.wall_end_ns = r.wall_start_ns + o.duration_ns;
	r.mono_start_ns = r.t_measure;
	r.mono_end_ns = r.t_end;
	next = r.t0;
	for (i = 0; i < 100000; i++) {
		struct wake wk = { 0 };

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		late = (int64_t)(seed % 40000) - 2000;
		if (i % 997 == 0)
			late += 250 * NSEC_PER_USEC;
		wk.deadline = next;
		wk.now = next + late;
		wk.missed = late >= o.period_ns ? (uint64_t)(late / o.period_ns) : 0;
		next += (int64_t)(wk.missed + 1) * o.period_ns;
		if (sampler_timer_wake(s, 0, &wk, o.period_ns, next))
			break;
	}
	if (s->cur_open) {
		s->cur.delta = -1;
		s->cur.cycles = s->cycles;
		ring_push(&s->ring, &s->cur);
		s->cur_open = false;
	}
	atomic_store(&s->state, SAMPLER_DONE);
	engine_drain(&r, true);
	engine_aggregate(&r);
	r.stop_reason = STOP_END;
	/* the members of the companions (no loads, no trace) as in a run */
	r.ncomp = cmd_companions_init(comp, 4);
	r.comp = comp;
	ret = r.ncomp < 0 ? -1 :
	      result_write(&r, path, "complete", err, sizeof(err));
	if (r.ncomp > 0)
		cmd_companions_free(comp, r.ncomp);
	if (ret < 0)
		log_error("%s", err);
	if (samples)
		*samples = r.names[0].agg.st.n;
	if (overruns)
		*overruns = r.names[0].agg.overruns;
	if (hist)
		*hist = hist_total(&r.names[0].agg.hist);
	engine_free(&r);
	return ret;
}

static void check_result(struct st *t)
{
	char path[] = "/tmp/rtlat-selftest-XXXXXX";
	uint64_t n = 0, over = 0, hist = 0;
	char tail[3] = "";
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0) {
		check(t, false, "temporary file: %s", strerror(errno));
		return;
	}
	close(fd);
	check(t, selftest_result(path, false, &n, &over, &hist) == 0,
	      "synthetic result written");
	check(t, n > 0 && n + over == 5000,
	      "synthetic run: samples + overruns = 5000 periods (%llu + %llu)",
	      (unsigned long long)n, (unsigned long long)over);
	check(t, hist == n, "synthetic run: histogram accounts every sample");
	f = fopen(path, "r");
	if (f && fseek(f, -2, SEEK_END) == 0 && fread(tail, 1, 2, f) == 2)
		tail[2] = '\0';
	if (f)
		fclose(f);
	check(t, !strcmp(tail, "}\n"), "synthetic result file complete");
	unlink(path);
}

int selftest_run(bool verbose)
{
	struct st t = { 0, 0, verbose };

	check_time(&t);
	check_clocks(&t);
	check_stats(&t);
	check_histogram(&t);
	check_parsing(&t);
	check_json(&t);
	check_result(&t);
	printf("selftest: %d checks, %d failed (%s, %zu-bit, %s-endian)\n",
	       t.checks, t.failures,
#if defined(__x86_64__)
	       "x86_64",
#elif defined(__i386__)
	       "i386",
#elif defined(__aarch64__)
	       "aarch64",
#elif defined(__arm__)
	       "arm",
#elif defined(__powerpc64__)
	       "powerpc64",
#elif defined(__powerpc__)
	       "powerpc",
#else
	       "other",
#endif
	       8 * sizeof(long),
	       __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? "big" : "little");
	return t.failures;
}
