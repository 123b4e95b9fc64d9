// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: the layout of the Xenomai-style lines (output_xeno.c). Each
 * data line lines up with its header: its '|' are where the header's are
 * and its last column ends where the header does (a label aside).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/engine.h"
#include "core/output.h"
#include "core/timeutil.h"

#define P (100 * NSEC_PER_USEC)

static const struct series_desc lat = { "latency", "overruns", true };

static const struct output_ops latency_out;	/* the default columns */

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
			accum_merge(&f->r.names[j].agg, a);
		}
	}
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
	f->r.trace = NULL;
	engine_free(&f->r);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_histogram_layout),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
