// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Comparison of two sides (one or more runs each, same table) with a noise
 * estimate per metric; the rule is documented in docs/report.md:
 *
 *  1. repeated runs on a side: the noise is the larger range (max - min)
 *     of the metric over the runs of either side;
 *  2. else interval series of at least 3 intervals on both sides (min, avg,
 *     max): twice the larger standard deviation of the per-interval values
 *     (interval minima, averages, maxima) - a difference smaller than the
 *     run's own interval-to-interval spread is not a difference;
 *  3. else a fixed rule: 10 % of the A value for lat min and lat avg,
 *     25 % for lat max and p99.9;
 *  overrun/lost counts are compared as Poisson counts: noise 2 * sqrt(a + b).
 *  The noise is never below the resolution of the sources' figures (1 us
 *  for cyclictest).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "report/report.h"

enum { M_MIN, M_AVG, M_MAX, M_P999, M_MISS };

#define RULE_SMALL	0.10	/* lat min, lat avg */
#define RULE_TAIL	0.25	/* lat max, p99.9 */
#define MIN_INTERVALS	3

/* Metric @m of run @r; false when unknown. */
static bool metric(const struct rep_run *r, int m, double *v)
{
	const struct rep_series *s = &r->sum;

	switch (m) {
	case M_MIN:
		*v = (double)s->min;
		return s->has_stats;
	case M_AVG:
		*v = s->avg;
		return s->has_stats;
	case M_MAX:
		*v = (double)s->max;
		return s->has_stats;
	case M_P999:
		*v = (double)s->pct[PCT_P999];
		return s->has_pct[PCT_P999];
	default:
		*v = (double)s->misses;
		return s->has_misses;
	}
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median and range of metric @m over @n runs; false when no run has it. */
static bool side_value(struct rep_run *const *v, size_t n, int m,
		       double *median, double *range, size_t *known)
{
	double *x = xmalloc(n * sizeof(*x));
	size_t k = 0, i;

	for (i = 0; i < n; i++)
		if (metric(v[i], m, &x[k]))
			k++;
	*known = k;
	if (!k) {
		free(x);
		return false;
	}
	qsort(x, k, sizeof(*x), dbl_cmp);
	*median = k % 2 ? x[k / 2] : (x[k / 2 - 1] + x[k / 2]) / 2;
	*range = x[k - 1] - x[0];
	free(x);
	return true;
}

/* Standard deviation of the per-interval values of metric @m (min, avg or
 * max) over the runs of a side; false with fewer than MIN_INTERVALS. */
static bool interval_sd(struct rep_run *const *v, size_t n, int m, double *sd)
{
	double sum = 0, sq = 0, mean;
	size_t k = 0, i, j;

	for (i = 0; i < n; i++) {
		const struct rep_series *s = &v[i]->sum;

		for (j = 0; j < s->nint; j++) {
			const struct rep_interval *iv = &s->iv[j];
			double x;

			if (!iv->has_stats)
				continue;
			x = m == M_MIN ? (double)iv->min :
			    m == M_AVG ? iv->avg : (double)iv->max;
			sum += x;
			sq += x * x;
			k++;
		}
	}
	if (k < MIN_INTERVALS)
		return false;
	mean = sum / (double)k;
	*sd = sqrt(fmax(0, (sq - (double)k * mean * mean) / (double)(k - 1)));
	return true;
}

static int64_t side_resolution(struct rep_run *const *v, size_t n)
{
	int64_t r = 1;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i]->resolution_ns > r)
			r = v[i]->resolution_ns;
	return r;
}

static void side_name(char *buf, size_t len, struct rep_run *const *v,
		      size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (strcmp(v[i]->label, v[0]->label) != 0)
			break;
	if (n == 1)
		snprintf(buf, len, "%s", v[0]->label);
	else if (i == n)
		snprintf(buf, len, "%s (%zu runs)", v[0]->label, n);
	else
		snprintf(buf, len, "%s and %zu more runs", v[0]->label, n - 1);
}

void cmp_runs(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	      size_t nb, struct cmp_row *out)
{
	static const char *const names[CMP_METRICS] = {
		"lat min", "lat avg", "lat max", "p99.9", NULL,
	};
	double res;
	int m;

	memset(out, 0, sizeof(*out));
	out->a = a[0];
	out->b = b[0];
	out->na = na;
	out->nb = nb;
	{
		struct group g = { a[0]->test, a[0]->series, a[0]->load, na,
				   (struct rep_run **)a };

		group_title(out->title, sizeof(out->title), &g);
	}
	side_name(out->a_name, sizeof(out->a_name), a, na);
	side_name(out->b_name, sizeof(out->b_name), b, nb);
	res = (double)(side_resolution(a, na) > side_resolution(b, nb) ?
		       side_resolution(a, na) : side_resolution(b, nb));
	for (m = 0; m < CMP_METRICS; m++) {
		struct cmp_metric *x = &out->m[m];
		double ra, rb, sa, sb;
		size_t ka, kb;

		x->name = names[m] ? names[m] :
			  miss_name(a[0]->miss ? a[0]->miss : b[0]->miss);
		x->has_a = side_value(a, na, m, &x->a, &ra, &ka);
		x->has_b = side_value(b, nb, m, &x->b, &rb, &kb);
		if (!x->has_a || !x->has_b)
			continue;	/* the known side is shown, not compared */
		x->known = true;
		x->delta = x->b - x->a;
		if (x->a != 0) {
			x->pct = 100.0 * x->delta / fabs(x->a);
			x->pct_known = true;
		}
		if (m == M_MISS) {
			x->noise = 2 * sqrt(x->a + x->b);
			x->src = NOISE_RULE;
			x->beyond = fabs(x->delta) > x->noise;
			continue;
		}
		if (ka > 1 || kb > 1) {
			x->noise = fmax(ra, rb);
			x->src = NOISE_REPEATS;
		} else if (m != M_P999 && interval_sd(a, na, m, &sa) &&
			   interval_sd(b, nb, m, &sb)) {
			x->noise = 2 * fmax(sa, sb);
			x->src = NOISE_INTERVALS;
		} else {
			x->noise = fabs(x->a) *
				   (m == M_MIN || m == M_AVG ? RULE_SMALL : RULE_TAIL);
			x->src = NOISE_RULE;
		}
		if (x->noise < res)
			x->noise = res;
		x->beyond = fabs(x->delta) > x->noise;
	}
}

static const char *src_name(const struct cmp_metric *x, bool miss)
{
	switch (x->src) {
	case NOISE_REPEATS:
		return "runs";
	case NOISE_INTERVALS:
		return "intervals";
	case NOISE_RULE:
		return miss ? "poisson" : "rule";
	default:
		return "";
	}
}

/* Cells of metric @i: a, b, delta, change, noise, source, beyond. */
static void cells(const struct cmp_row *c, int i, int64_t unit,
		  char cell[7][TB_CELL])
{
	const struct cmp_metric *x = &c->m[i];
	bool miss = i == M_MISS;
	char d[TB_CELL];

	memset(cell, 0, sizeof(char[7][TB_CELL]));
	if (!x->known) {
		/* a side that has it shows it; nothing to compare */
		if (x->has_a && miss)
			snprintf(cell[0], TB_CELL, "%.0f", x->a);
		else
			fmt_fig(cell[0], TB_CELL, x->has_a, x->a, unit);
		if (x->has_b && miss)
			snprintf(cell[1], TB_CELL, "%.0f", x->b);
		else
			fmt_fig(cell[1], TB_CELL, x->has_b, x->b, unit);
		return;
	}
	if (miss) {
		snprintf(cell[0], TB_CELL, "%.0f", x->a);
		snprintf(cell[1], TB_CELL, "%.0f", x->b);
		snprintf(cell[2], TB_CELL, "%+.0f", x->delta);
		snprintf(cell[4], TB_CELL, "%.0f", x->noise);
	} else {
		fmt_fig(cell[0], TB_CELL, true, x->a, unit);
		fmt_fig(cell[1], TB_CELL, true, x->b, unit);
		fmt_fig(d, TB_CELL, true, fabs(x->delta), unit);
		snprintf(cell[2], TB_CELL, "%c%s", x->delta < 0 ? '-' : '+', d);
		fmt_fig(cell[4], TB_CELL, true, x->noise, unit);
	}
	if (x->pct_known)
		snprintf(cell[3], TB_CELL, "%+.1f %%", x->pct);
	else
		snprintf(cell[3], TB_CELL, "n/a");
	snprintf(cell[5], TB_CELL, "%s", src_name(x, miss));
	snprintf(cell[6], TB_CELL, "%s", x->beyond ? "yes" : "no");
}

static const char *const cmp_cols[7] = {
	"A", "B", "delta", "change", "noise", "from", "beyond noise",
};

void cmp_print_text(FILE *f, const struct cmp_row *c, int64_t unit_ns)
{
	static const int w[7] = { 12, 12, 12, 9, 12, 10, 13 };
	char cell[7][TB_CELL];
	int i, k;

	fprintf(f, "%s (%s): A = %s, B = %s\n", c->title,
		unit_ns == 1000 ? "us" : "ns", c->a_name, c->b_name);
	fprintf(f, "%-12s", "metric");
	for (k = 0; k < 7; k++) {
		int dashes = w[k] - (int)strlen(cmp_cols[k]);

		fputc('|', f);
		while (dashes-- > 0)
			fputc('-', f);
		fputs(cmp_cols[k], f);
	}
	fputc('\n', f);
	for (i = 0; i < CMP_METRICS; i++) {
		cells(c, i, unit_ns, cell);
		fprintf(f, "%-12s", c->m[i].name);
		for (k = 0; k < 7; k++)
			fprintf(f, "|%*s", w[k], cell[k]);
		fputc('\n', f);
	}
}

void cmp_print_markdown(FILE *f, const struct cmp_row *c, int64_t unit_ns)
{
	char cell[7][TB_CELL];
	int i, k;

	fprintf(f, "### %s (values in %s)\n\nA = %s, B = %s\n\n| metric |",
		c->title, unit_ns == 1000 ? "us" : "ns", c->a_name, c->b_name);
	for (k = 0; k < 7; k++)
		fprintf(f, " %s |", cmp_cols[k]);
	fprintf(f, "\n|:---|");
	for (k = 0; k < 7; k++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (i = 0; i < CMP_METRICS; i++) {
		cells(c, i, unit_ns, cell);
		fprintf(f, "| %s |", c->m[i].name);
		for (k = 0; k < 7; k++)
			fprintf(f, " %s |", cell[k]);
		fputc('\n', f);
	}
}

void cmp_print_csv_header(FILE *f)
{
	fputs("table,a,b,metric,a_value,b_value,delta,change_pct,noise,noise_from,beyond_noise\n",
	      f);
}

void cmp_print_csv(FILE *f, const struct cmp_row *c)
{
	int i;

	for (i = 0; i < CMP_METRICS; i++) {
		const struct cmp_metric *x = &c->m[i];

		csv_field(f, c->title);
		fputc(',', f);
		csv_field(f, c->a_name);
		fputc(',', f);
		csv_field(f, c->b_name);
		fprintf(f, ",%s,", x->name);
		if (x->known) {
			fprintf(f, "%.1f,%.1f,%.1f,", x->a, x->b, x->delta);
			if (x->pct_known)
				fprintf(f, "%.2f", x->pct);
			fprintf(f, ",%.1f,%s,%s", x->noise,
				src_name(x, i == M_MISS), x->beyond ? "yes" : "no");
		} else {
			/* the side that has the metric, if any */
			if (x->has_a)
				fprintf(f, "%.1f", x->a);
			fputc(',', f);
			if (x->has_b)
				fprintf(f, "%.1f", x->b);
			fputs(",,,,,", f);
		}
		fputc('\n', f);
	}
}

static void push_row(struct cmp_row **rows, size_t *n, struct rep_run *const *a,
		     size_t na, struct rep_run *const *b, size_t nb)
{
	*rows = xrealloc(*rows, (*n + 1) * sizeof(**rows));
	cmp_runs(a, na, b, nb, &(*rows)[*n]);
	(*n)++;
}

size_t cmp_sides(const struct rep_runs *a, const struct rep_runs *b,
		 struct cmp_row **out)
{
	struct group *ga, *gb;
	size_t na = groups_make(a, &ga), nb = groups_make(b, &gb), i, k, n = 0;
	bool *used = xcalloc(nb + 1, sizeof(*used));
	char t[192];

	*out = NULL;
	for (i = 0; i < na; i++) {
		size_t match = nb;

		for (k = 0; k < nb; k++)
			if (!used[k] && same_table(ga[i].v[0], gb[k].v[0]))
				match = k;
		/* the same test with loads that differ only in being recorded */
		for (k = 0; k < nb && match == nb; k++) {
			const struct rep_run *x = ga[i].v[0], *y = gb[k].v[0];

			if (!used[k] && !strcmp(x->test, y->test) &&
			    !strcmp(x->series, y->series) && (!x->load || !y->load))
				match = k;
		}
		if (match == nb) {
			group_title(t, sizeof(t), &ga[i]);
			log_note("only in A: %s", t);
			continue;
		}
		used[match] = true;
		push_row(out, &n, ga[i].v, ga[i].n, gb[match].v, gb[match].n);
	}
	for (k = 0; k < nb; k++) {
		if (used[k])
			continue;
		group_title(t, sizeof(t), &gb[k]);
		log_note("only in B: %s", t);
	}
	free(used);
	groups_free(ga, na);
	groups_free(gb, nb);
	return n;
}

size_t cmp_within(const struct rep_runs *rs, struct cmp_row **out)
{
	struct group *g;
	size_t ng = groups_make(rs, &g), i, k, n = 0;

	*out = NULL;
	for (i = 0; i < ng; i++)
		for (k = 1; k < g[i].n; k++)
			push_row(out, &n, &g[i].v[0], 1, &g[i].v[k], 1);
	groups_free(g, ng);
	return n;
}
