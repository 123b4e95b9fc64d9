// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the layout of the Xenomai-style lines (output_xeno.c). Each
 * data line lines up with its header: its '|' are where the header's are
 * and its last column ends where the header does (a label aside). RTH
 * heads RTD lines, the "---|" line RTS lines, HSH lines HSD and HSS
 * lines, the first RTP line the second. The "---|" line is as wide as the
 * RTH line, and with --trace its trace columns are RTH's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "output/output.h"
#include "util/timeutil.h"
#include "trace/trace.h"

#define P (100 * NSEC_PER_USEC)

/* The column shapes of the tests: one series (latency, switch), several
 * series on one line with a lost column (handshake), several series
 * without a miss column (cruncher). */
static const struct xeno_col handshake_cols[] = {
	{ "a->b avg", 0, XENO_AVG },
	{ "a->b max", 0, XENO_MAX },
	{ "b->a avg", 1, XENO_AVG },
	{ "b->a max", 1, XENO_MAX },
	{ "rtt min", 2, XENO_MIN },
	{ "rtt avg", 2, XENO_AVG },
	{ "rtt max", 2, XENO_MAX },
	{ "lost", 2, XENO_MISSED },
};
static const struct xeno_col cruncher_cols[] = {
	{ "sleep min", 0, XENO_MIN },
	{ "sleep avg", 0, XENO_AVG },
	{ "sleep max", 0, XENO_MAX },
	{ "dev min", 1, XENO_MIN },
	{ "dev avg", 1, XENO_AVG },
	{ "dev max", 1, XENO_MAX },
};

static const struct series_desc lat = { .name = "latency", .miss_name = "overruns", .threshold = true };
static const struct series_desc a_to_b = { .name = "a_to_b", .miss_name = "lost", .threshold = true };
static const struct series_desc b_to_a = { .name = "b_to_a", .miss_name = "lost", .threshold = true };
static const struct series_desc round_trip = { .name = "round_trip", .miss_name = "lost" };
static const struct series_desc sleep_s = { .name = "sleep", .miss_name = "overruns", .threshold = true };
static const struct series_desc deviation = { .name = "deviation", .miss_name = "overruns", .threshold = true };

static const struct output_ops latency_out;	/* the default columns */
static const struct output_ops handshake_out = {
	.cols = handshake_cols,
	.ncols = (int)(sizeof(handshake_cols) / sizeof(handshake_cols[0])),
};
static const struct output_ops cruncher_out = {
	.cols = cruncher_cols,
	.ncols = (int)(sizeof(cruncher_cols) / sizeof(cruncher_cols[0])),
};

struct fake {
	struct run r;
	struct engine_opts o;
	struct test_desc t;
};

/* A run of @nseries series @d on @nsamplers samplers, -h -s, with samples
 * in and out of the linear histogram (underflow, overflow) unless
 * @no_samples (then only overruns). */
static void fake_init(struct fake *f, const struct output_ops *out,
		      int nsamplers, int nseries,
		      const struct series_desc *const *d, bool no_samples)
{
	static const int64_t v[] = { -3500, 1500, 2500, 2600, 12345678,
				     40000000 };
	int i, j, k;

	memset(f, 0, sizeof(*f));
	engine_opts_init(&f->o, P, 99);
	f->o.duration_ns = 10 * NSEC_PER_SEC;
	f->o.print_hist = true;
	f->o.print_stats = true;
	f->o.linear_hist = true;
	f->o.hist_buckets = 20;
	f->t.name = "fake";
	f->t.mode = "synthetic";
	f->t.out = out;
	f->r.o = &f->o;
	f->r.test = &f->t;
	for (i = 0; i < nsamplers; i++)
		assert_non_null(engine_add_sampler(&f->r, i, 1, 99, nseries, d));
	assert_int_equal(engine_alloc(&f->r), 0);
	for (i = 0; i < nsamplers; i++) {
		f->r.s[i].cpu_now = i;
		for (j = 0; j < nseries; j++) {
			struct accum *a = &f->r.total[i][j];

			a->overruns = 3;
			for (k = 0; !no_samples && k < (int)(sizeof(v) / sizeof(v[0])); k++)
				accum_add(a, v[k] * (j + 1), k, (uint64_t)k);
		}
	}
	engine_aggregate(&f->r);
	for (j = 0; j < f->r.nnames; j++) {
		struct series_name *nm = &f->r.names[j];

		nm->overruns = nm->agg.overruns;
		nm->any = nm->agg.st.n > 0;
		nm->best = nm->agg.st.min;
		nm->worst = nm->agg.st.max;
		if (nm->any) {
			stats_add(&nm->min_st, nm->agg.st.min);
			stats_add(&nm->max_st, nm->agg.st.max);
		}
	}
}

static void fake_free(struct fake *f)
{
	f->r.comp = NULL;
	f->r.ncomp = 0;
	engine_free(&f->r);
}

/* Run the interval line and the summary of every series of @f; returns
 * what they printed on stdout (free()). */
static char *capture(struct fake *f)
{
	struct window w[RTLAT_MAX_SERIES];
	FILE *saved = stdout, *cap;
	char *buf = NULL;
	size_t len = 0;
	int j;

	memset(w, 0, sizeof(w));
	for (j = 0; j < f->r.nnames; j++) {
		const struct accum *a = &f->r.names[j].agg;

		w[j].n = a->st.n;
		w[j].min = a->st.min;
		w[j].max = a->st.max;
		w[j].sum = (int64_t)stats_sum(&a->st);
		w[j].overruns = a->overruns;
	}
	cap = open_memstream(&buf, &len);
	assert_non_null(cap);
	stdout = cap;
	xeno_interval(&f->r, 0, w, NULL);
	for (j = 0; j < f->r.nnames; j++)
		xeno_summary_series(&f->r, j);
	fflush(cap);
	stdout = saved;
	fclose(cap);
	return buf;
}

/* The '|' of @line, up to @max. */
static int pipes(const char *line, int *pos, int max)
{
	int n = 0, i;

	for (i = 0; line[i] && line[i] != '\n'; i++)
		if (line[i] == '|' && n < max)
			pos[n++] = i;
	return n;
}

static int line_len(const char *l)
{
	return (int)strcspn(l, "\n");
}

/* @data lines up with @head: the same '|', and its last column ends where
 * the header does (then the line ends or a " label" follows). */
static void assert_under(const char *head, const char *data)
{
	int hp[64], dp[64], hn, dn, i, hl = line_len(head);

	hn = pipes(head, hp, 64);
	dn = pipes(data, dp, 64);
	if (hn != dn)
		fail_msg("%d '|' under %d:\n%.*s\n%.*s", dn, hn, hl, head,
			 line_len(data), data);
	for (i = 0; i < hn; i++)
		if (hp[i] != dp[i])
			fail_msg("'|' %d at column %d, header's at %d:\n%.*s\n%.*s",
				 i + 1, dp[i], hp[i], hl, head, line_len(data),
				 data);
	if (line_len(data) < hl || data[hl - 1] == ' ' ||
	    (data[hl] != '\n' && data[hl] != ' ' && data[hl] != '\0'))
		fail_msg("last column does not end with its header's:\n%.*s\n%.*s",
			 hl, head, line_len(data), data);
}

/* @sep, the "---|" line, is as wide as @rth and each of its '|' is one of
 * @rth's. */
static void assert_sep_in_rth(const char *rth, const char *sep)
{
	int hp[64], sp[64], hn, sn, i, j;

	assert_int_equal(line_len(sep), line_len(rth));
	hn = pipes(rth, hp, 64);
	sn = pipes(sep, sp, 64);
	for (i = 0; i < sn; i++) {
		for (j = 0; j < hn && hp[j] != sp[i]; j++)
			;
		if (j == hn)
			fail_msg("'|' at column %d is not the RTH line's:\n%.*s\n%.*s",
				 sp[i], line_len(rth), rth, line_len(sep), sep);
	}
}

/* Every line of @out lines up with its header; returns the number of
 * data lines checked. @rth_sep: the "---|" lines belong to the RTH line. */
static int check_layout(const char *out, bool rth_sep)
{
	const char *l, *rth = NULL, *sep = NULL, *hsh = NULL, *rtp = NULL;
	int n = 0;

	for (l = out; *l; l += line_len(l) + (l[line_len(l)] == '\n')) {
		if (!strncmp(l, "RTH|", 4)) {
			rth = l;
		} else if (!strncmp(l, "RTD|", 4)) {
			assert_non_null(rth);
			assert_under(rth, l);
			n++;
		} else if (!strncmp(l, "---|", 4)) {
			sep = l;
			if (rth_sep) {
				assert_non_null(rth);
				assert_sep_in_rth(rth, l);
			}
		} else if (!strncmp(l, "RTS|", 4)) {
			assert_non_null(sep);
			assert_under(sep, l);
			n++;
		} else if (!strncmp(l, "HSH|", 4)) {
			hsh = l;
		} else if (!strncmp(l, "HSD|", 4) || !strncmp(l, "HSS|", 4)) {
			assert_non_null(hsh);
			assert_under(hsh, l);
			n++;
		} else if (!strncmp(l, "RTP|", 4) && l[4 + strspn(l + 4, " ")] == 'p') {
			rtp = l;
		} else if (!strncmp(l, "RTP|", 4)) {
			assert_non_null(rtp);
			assert_under(rtp, l);
			n++;
		}
	}
	return n;
}

/* The first line from @from on that starts with @prefix, or fail. */
static const char *find_line(const char *from, const char *prefix)
{
	const char *l;

	for (l = from; *l; l += line_len(l) + (l[line_len(l)] == '\n'))
		if (!strncmp(l, prefix, strlen(prefix)))
			return l;
	fail_msg("no line '%s' in:\n%s", prefix, from);
	return NULL;
}

/* HSH/HSD lines of @a (first column @kind); returns them (free()). */
static char *capture_histogram(const struct accum *a, const char *kind)
{
	FILE *saved = stdout, *cap;
	char *buf = NULL;
	size_t len = 0;

	cap = open_memstream(&buf, &len);
	assert_non_null(cap);
	stdout = cap;
	xeno_histogram(a, kind);
	fflush(cap);
	stdout = saved;
	fclose(cap);
	return buf;
}

/* Each HSD line of @out under the HSH line; returns how many. */
static int check_histogram(const char *out)
{
	const char *l;
	int n = 0;

	assert_memory_equal(out, "HSH|", 4);
	for (l = out + line_len(out) + 1; *l; l += line_len(l) + 1) {
		assert_memory_equal(l, "HSD|", 4);
		assert_under(out, l);
		n++;
	}
	return n;
}

/* The range header was one column short of the HSD lines' (the '|' after
 * it one to the left); a series name wider than "--param" shifted the
 * HSD lines of handshake's round_trip and cruncher's deviation. */
static void test_histogram_layout(void **state)
{
	static const struct series_desc *const d[] = { &lat };
	struct fake f;
	char *out;

	(void)state;
	fake_init(&f, &latency_out, 1, 1, d, false);
	out = capture_histogram(&f.r.names[0].agg, "lat");
	/* underflow, two buckets, overflow */
	assert_int_equal(check_histogram(out), 4);
	assert_string_equal(out,
		"HSH|--param|--------range (us)--------|---samples\n"
		"HSD|    lat|            <       0.000 |         1\n"
		"HSD|    lat|      1.000 -       2.000 |         1\n"
		"HSD|    lat|      2.000 -       3.000 |         2\n"
		"HSD|    lat|            >=     20.000 |         2\n");
	free(out);
	out = capture_histogram(&f.r.names[0].agg, "round_trip");
	assert_int_equal(check_histogram(out), 4);
	assert_memory_equal(out, "HSH|-----param|", 14);
	free(out);
	fake_free(&f);
}

static void test_latency_layout(void **state)
{
	static const struct series_desc *const d[] = { &lat };
	struct fake f;
	char *out;
	const char *l;

	(void)state;
	fake_init(&f, &latency_out, 2, 1, d, false);
	out = capture(&f);
	/* RTD, 4 HSD (underflow, 2 buckets, overflow), 3 HSS, 3 RTS, RTP */
	assert_int_equal(check_layout(out, true), 1 + 4 + 3 + 3 + 1);
	/* Xenomai's: the RTS columns are the RTH line's first ones, the
	 * separator above them is dashes */
	l = find_line(out, "---|");
	assert_memory_equal(l, "---|-----------|-----------|-----------|--------|-----------------------\n",
			    73);
	l = find_line(out, "HSH|--param|--------range (us)--------|---samples\n");
	l = find_line(l, "HSD|    lat|            <       0.000 |         2\n");
	l = find_line(l, "RTS|");
	assert_non_null(strstr(l, "|      00:00:00/00:00:10 cpu 0\n"));
	free(out);
	fake_free(&f);
}

static void test_several_series_layout(void **state)
{
	static const struct series_desc *const d[] = {
		&a_to_b, &b_to_a, &round_trip,
	};
	static const char *const name[] = { "a_to_b", "b_to_a", "round_trip" };
	struct fake f;
	char *out;
	const char *l;
	int i;

	(void)state;
	fake_init(&f, &handshake_out, 1, 3, d, false);
	out = capture(&f);
	assert_int_equal(check_layout(out, false), 1 + 3 * (4 + 3 + 1 + 1));
	/* the separators name the RTS columns in the words of the RTH line,
	 * lost included */
	l = find_line(out, "---|---a->b min|---a->b avg|---a->b max|----lost|-----measured/requested\n");
	l = find_line(l, "---|---b->a min|---b->a avg|---b->a max|----lost|");
	l = find_line(l, "---|----rtt min|----rtt avg|----rtt max|----lost|");
	/* a series name longer than "--param" widens the column */
	l = find_line(out, "HSH|-----param|--------range (us)--------|---samples\n");
	l = find_line(l, "HSD|round_trip|");
	/* HSS, RTS and RTP value lines end with their series' name */
	for (l = out; *l; l += line_len(l) + 1) {
		int n = line_len(l), ok = 0;

		if (strncmp(l, "HSS|", 4) && strncmp(l, "RTS|", 4) &&
		    (strncmp(l, "RTP|", 4) || strstr(l, "p50") == l + 12))
			continue;
		for (i = 0; i < 3; i++) {
			int k = (int)strlen(name[i]);

			ok |= n > k && l[n - k - 1] == ' ' &&
			      !strncmp(l + n - k, name[i], (size_t)k);
		}
		if (!ok)
			fail_msg("no series name at the end of:\n%.*s", n, l);
	}
	free(out);
	fake_free(&f);
}

static void test_no_miss_column(void **state)
{
	static const struct series_desc *const d[] = { &sleep_s, &deviation };
	struct fake f;
	char *out;
	const char *l;
	int pos[16];

	(void)state;
	fake_init(&f, &cruncher_out, 2, 2, d, false);
	out = capture(&f);
	assert_int_equal(check_layout(out, false), 1 + 2 * (4 + 3 + 3 + 1));
	/* the RTD line has no overrun column: nor have the RTS lines (the
	 * count would always be 0) */
	l = find_line(out, "---|--sleep min|--sleep avg|--sleep max|-----measured/requested\n");
	l = find_line(l, "RTS|");
	assert_int_equal(pipes(l, pos, 16), 4);
	l = find_line(out, "---|----dev min|----dev avg|----dev max|-----measured/requested\n");
	l = find_line(l, "RTS|");
	assert_int_equal(pipes(l, pos, 16), 4);
	assert_non_null(strstr(l, "00:00:00/00:00:10 cpu 0 deviation\n"));
	free(out);
	fake_free(&f);
}

/*
 * --trace: four more columns on RTH/RTD, the "---|" line and RTS lines,
 * at the same places. The trace state is only read for a line with
 * samples (to break its maximum down), so a run with overruns only shows
 * the layout with "n/a" parts without a real trace.
 */
static void test_trace_columns(void **state)
{
	static const struct series_desc *const d[] = { &lat };
	static char not_a_trace;
	static struct trace_state ts = {
		.mode = TRACE_EVENTS,
		.t = (struct trace *)(void *)&not_a_trace,
	};
	static struct companion comp = { &trace_companion, &ts };
	struct fake f;
	char *out;
	const char *l;

	(void)state;
	fake_init(&f, &latency_out, 2, 1, d, true);
	f.r.comp = &comp;
	f.r.ncomp = 1;
	out = capture(&f);
	assert_int_equal(check_layout(out, true), 1 + 3 + 3 + 1);
	l = find_line(out, "RTH|----lat min|----lat avg|----lat max|-overrun|---lat best|--lat worst|----max irq|max handler|--max sched|-max return\n");
	l = find_line(out, "---|-----------|-----------|-----------|--------|-----------------------|----max irq|max handler|--max sched|-max return\n");
	/* the label comes after the trace columns */
	l = find_line(l, "RTS|");
	assert_non_null(strstr(l, "|      00:00:00/00:00:10|        n/a|        n/a|        n/a|        n/a cpu 0\n"));
	free(out);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_histogram_layout),
		cmocka_unit_test(test_latency_layout),
		cmocka_unit_test(test_several_series_layout),
		cmocka_unit_test(test_no_miss_column),
		cmocka_unit_test(test_trace_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
