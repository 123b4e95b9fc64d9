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
 *  overrun/lost counts are compared as counts in bursts: noise
 *  2 * sqrt(s * (a + b)), s the larger max / period (at least 1).
 *  The noise is never below the resolution of the sources' figures (1 us
 *  for cyclictest).
 *
 * Where the runs hold interval series and histograms, the noise model of
 * verdict.c decides lat max, lat avg and p99.9 instead (judge()); every
 * metric gets a verdict: worse, better, same or cannot tell.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_view.h"
#include "util/label.h"
#include "util/log.h"
#include "engine/suitecol.h"
#include "report/report.h"
#include "report/verdict.h"

#define M_MIN CMP_MIN
#define M_AVG CMP_AVG
#define M_MAX CMP_MAX
#define M_P999 CMP_P999
#define M_MISS CMP_MISS

#define RULE_SMALL	0.10	/* lat min, lat avg */
#define RULE_TAIL	0.25	/* lat max, p99.9 */
#define MIN_INTERVALS	3

/* The test's table spec, as rtlat report's (cmp_set_spec_of()). */
static const struct suite_spec *(*cmp_spec_of)(const char *);

void cmp_set_spec_of(const struct suite_spec *(*spec_of)(const char *))
{
	cmp_spec_of = spec_of;
}

/* Figure @fig of the whole run @r as a number; false when it has none. */
static bool fig_value(const struct rep_run *r, const char *fig, double *v)
{
	const char *t = run_figure(r, fig, -1);
	char *end;

	if (!t || !*t)
		return false;
	*v = strtod(t, &end);
	return !*end && isfinite(*v);
}

/* Metric @m (@x) of run @r; false when unknown. *@bound: the value is
 * only a lower bound. */
static bool metric(const struct rep_run *r, int m, const struct cmp_metric *x,
		   double *v, bool *bound)
{
	const struct rep_series *s = &r->sum;

	*bound = false;
	if (run_no_samples(r))
		return false;	/* no data: not even its overrun count */
	if (x->fig)
		return fig_value(r, x->fig, v);
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
		*bound = s->pct_bound[PCT_P999];
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

/* Median and range of metric @m over @n runs; false when no run has it.
 * *@bound: a run's value is only a lower bound (the median is then one
 * too). */
static bool side_value(struct rep_run *const *v, size_t n, int m,
		       const struct cmp_metric *mx, double *median,
		       double *range, size_t *known, bool *bound)
{
	double *x = xmalloc(n * sizeof(*x));
	size_t k = 0, i;

	*bound = false;
	for (i = 0; i < n; i++) {
		bool b;

		if (metric(v[i], m, mx, &x[k], &b)) {
			k++;
			*bound |= b;
		}
	}
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

/* Has no run of a side a sample? */
static bool side_empty(struct rep_run *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!run_no_samples(v[i]))
			return false;
	return true;
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
		snprintf(buf, len, "%s and %zu more run%s", v[0]->label, n - 1,
			 n == 2 ? "" : "s");
	label_clean(buf);
}


/* The title of a comparison of @a and @b: the table's, or with loads (or
 * sections) that differ "LATENCY: without load (A) vs with load hell (B)".
 * A load not recorded on one side is the other's. */
static void cmp_title(char *buf, size_t len, const struct rep_run *a,
		      const struct rep_run *b)
{
	struct group g = { .test = a->test, .series = a->series,
			   .load = a->load ? a->load : b->load,
			   .section = a->section, .n = 1,
			   .v = (struct rep_run **)&a };
	char t[96], la[96], lb[96];

	if ((!a->load || !b->load || str_same(a->load, b->load)) &&
	    str_same(a->section, b->section)) {
		group_title(buf, len, &g);
		return;
	}
	test_title(t, sizeof(t), a);
	load_title(la, sizeof(la), a->load);
	load_title(lb, sizeof(lb), b->load);
	snprintf(buf, len, "%s: %s%s%s%s (A) vs %s%s%s%s (B)", t, la,
		 a->section ? " [" : "", a->section ? a->section : "",
		 a->section ? "]" : "", lb, b->section ? " [" : "",
		 b->section ? b->section : "", b->section ? "]" : "");
}

/* The rows of @out: the metrics of the series, or the columns of the
 * test's table (@sp, table_spec()), named as they are there. */
static void cmp_rows(struct cmp_row *out, const struct suite_spec *sp,
		     const char *series)
{
	static const char *const names[CMP_METRICS] = {
		"min", "avg", "max", "p99.9", NULL,
	};
	static const int of[] = {
		[SUITE_MIN] = CMP_MIN, [SUITE_AVG] = CMP_AVG,
		[SUITE_MAX] = CMP_MAX, [SUITE_P999] = CMP_P999,
		[SUITE_MISSES] = CMP_MISS,
	};
	const char *prefix = series_prefix(series);
	const struct suite_col *c;
	int m, nfig = 0;

	if (!sp) {
		for (m = 0; m < CMP_METRICS; m++) {
			struct cmp_metric *x = &out->m[m];

			if (m == CMP_MISS && out->a->no_misses)
				continue;	/* nothing to miss: no row */
			if (m == CMP_MISS)
				snprintf(x->name, sizeof(x->name), "%s",
					 miss_name(out->a->miss ? out->a->miss :
						   out->b->miss));
			else if (m == CMP_P999)
				snprintf(x->name, sizeof(x->name), "%s", names[m]);
			else
				snprintf(x->name, sizeof(x->name), "%s %s",
					 prefix, names[m]);
			x->kind = m == CMP_MISS ? CMP_COUNT : CMP_TIME;
			out->row[out->nrow++] = m;
		}
		return;
	}
	for (c = sp->cols; c->stat != SUITE_END; c++) {
		struct cmp_metric *x;

		if (c->stat == SUITE_TIME)
			continue;	/* how long, not what was measured */
		if (suite_col_figure(c)) {
			if (nfig == CMP_FIGS || !c->name)
				continue;
			m = CMP_METRICS + nfig++;
		} else {
			m = of[c->stat];
		}
		x = &out->m[m];
		if (x->name[0])
			continue;	/* a column of it came before */
		snprintf(x->name, sizeof(x->name), "%s", c->head ? c->head :
			 miss_name(out->a->miss ? out->a->miss : out->b->miss));
		x->fig = m >= CMP_METRICS ? c->name : NULL;
		x->kind = c->stat == SUITE_PERCENT ? CMP_PERCENT :
			  c->stat == SUITE_CPU ? CMP_WHERE :
			  c->stat == SUITE_MISSES ? CMP_COUNT :
			  c->stat != SUITE_FIGURE ? CMP_TIME :
			  suite_col_time(c) ? CMP_TIME : CMP_COUNT;
		out->row[out->nrow++] = m;
	}
}

/* The size of a burst of misses: the larger max of a side's first run
 * over its period (one stall of L costs L / period misses), at least 1. */
static double miss_burst(struct rep_run *const *a, size_t na,
			 struct rep_run *const *b, size_t nb)
{
	const struct rep_run *r[2] = { na ? a[0] : NULL, nb ? b[0] : NULL };
	double s = 1;
	int i;

	for (i = 0; i < 2; i++)
		if (r[i] && r[i]->sum.has_stats && r[i]->period_ns > 0)
			s = fmax(s, (double)r[i]->sum.max /
				    (double)r[i]->period_ns);
	return s;
}

/* The verdict of metric @m (x->known): the noise model of verdict.c from
 * the runs' interval series and histograms where it has data (its limit
 * replaces the noise), else the noise above: beyond it worse (higher)
 * or better. */
static void judge(struct cmp_metric *x, int m, struct rep_run *const *a,
		  size_t na, struct rep_run *const *b, size_t nb, double res)
{
	struct vd_ask q = { .gate = false, .unit_ns = 1000, .floor_ns = res };
	struct vd_judgement j = { .v = VD_NA };
	bool ok = false;

	if (x->kind == CMP_WHERE) {
		x->verdict = VD_NA;
		return;
	}
	if (x->kind == CMP_TIME && !x->fig && m == M_MAX)
		ok = vd_max(a, na, b, nb, x->a, x->b, &q, &j);
	else if (x->kind == CMP_TIME && !x->fig && m == M_AVG)
		ok = vd_avg(a, na, b, nb, x->a, x->b, &q, &j);
	else if (x->kind == CMP_TIME && !x->fig && m == M_P999)
		ok = vd_pct(a, na, b, nb, x->a, x->b, 1000, &q, &j);
	if (ok) {
		x->verdict = j.v;
		x->noise = j.limit;
		x->src = !strcmp(j.src, "blocks") ? NOISE_BLOCKS :
			 !strcmp(j.src, "batches") ? NOISE_BATCHES :
			 !strcmp(j.src, "ranks") ? NOISE_RANKS : NOISE_RUNS;
		/* a max: the spread of 3 runs or more on a side still
		 * counts (verdict.h) */
		if (m == M_MAX && (x->ka >= VD_MIN_RUNS || x->kb >= VD_MIN_RUNS) &&
		    fmax(x->range_a, x->range_b) > x->noise) {
			x->noise = fmax(x->range_a, x->range_b);
			x->src = NOISE_REPEATS;
			if (fabs(x->delta) <= x->noise &&
			    (j.v == VD_WORSE || j.v == VD_BETTER))
				x->verdict = VD_SAME;
		}
		x->beyond = x->verdict == VD_WORSE || x->verdict == VD_BETTER;
		return;
	}
	/* the fixed rule guesses the noise, and the intervals' spread is
	 * one run's, not from one run to the next: beyond them, cannot tell
	 * (the runs' spread and a count's noise are measured) */
	if (x->beyond && x->kind != CMP_COUNT &&
	    (x->src == NOISE_RULE || x->src == NOISE_INTERVALS))
		x->verdict = VD_CANNOT_TELL;
	else
		x->verdict = !x->beyond ? VD_SAME : x->delta > 0 ? VD_WORSE :
			     VD_BETTER;
}

void cmp_runs(struct rep_run *const *a, size_t na, struct rep_run *const *b,
	      size_t nb, struct cmp_row *out)
{
	double res;
	int m, i;

	memset(out, 0, sizeof(*out));
	out->a = a[0];
	out->b = b[0];
	out->na = na;
	out->nb = nb;
	out->nothing = true;
	cmp_title(out->title, sizeof(out->title), a[0], b[0]);
	side_name(out->a_name, sizeof(out->a_name), a, na);
	side_name(out->b_name, sizeof(out->b_name), b, nb);
	out->empty_a = side_empty(a, na);
	out->empty_b = side_empty(b, nb);
	res = (double)(side_resolution(a, na) > side_resolution(b, nb) ?
		       side_resolution(a, na) : side_resolution(b, nb));
	cmp_rows(out, table_spec(a[0]->test, a[0]->series, cmp_spec_of),
		 a[0]->series);
	for (i = 0; i < out->nrow; i++) {
		struct cmp_metric *x = &out->m[out->row[i]];
		double ra, rb, sa, sb;
		size_t ka, kb;

		m = out->row[i];
		x->has_a = side_value(a, na, m, x, &x->a, &ra, &ka, &x->bound_a);
		x->has_b = side_value(b, nb, m, x, &x->b, &rb, &kb, &x->bound_b);
		x->ka = x->has_a ? ka : 0;
		x->kb = x->has_b ? kb : 0;
		x->range_a = x->has_a ? ra : 0;
		x->range_b = x->has_b ? rb : 0;
		/* the known side is shown, not compared; so is a lower
		 * bound, and where (a CPU) */
		if (!x->has_a || !x->has_b || x->bound_a || x->bound_b ||
		    x->kind == CMP_WHERE)
			continue;
		x->known = true;
		out->nothing = false;
		x->delta = x->b - x->a;
		if (x->a != 0) {
			x->pct = 100.0 * x->delta / fabs(x->a);
			x->pct_known = true;
		}
		if (x->kind == CMP_COUNT) {
			/* counts (overruns, lost, events): Poisson, misses
			 * in bursts (verdict.c) */
			x->noise = 2 * sqrt(x->a + x->b);
			x->src = NOISE_RULE;
			if (m == CMP_MISS)
				x->noise *= sqrt(miss_burst(a, na, b, nb));
			x->beyond = fabs(x->delta) > x->noise;
			judge(x, m, a, na, b, nb, res);
			continue;
		}
		if (ka > 1 || kb > 1) {
			x->noise = fmax(ra, rb);
			x->src = NOISE_REPEATS;
		} else if (!x->fig && m != M_P999 && interval_sd(a, na, m, &sa) &&
			   interval_sd(b, nb, m, &sb)) {
			x->noise = 2 * fmax(sa, sb);
			x->src = NOISE_INTERVALS;
		} else {
			x->noise = fabs(x->a) *
				   (m == M_MIN || m == M_AVG ? RULE_SMALL : RULE_TAIL);
			x->src = NOISE_RULE;
		}
		/* never below the figures' resolution: the sources' for a
		 * time, the 4 decimals written for a % */
		if (x->noise < (x->kind == CMP_PERCENT ? 1e-4 : res))
			x->noise = x->kind == CMP_PERCENT ? 1e-4 : res;
		x->beyond = fabs(x->delta) > x->noise;
		judge(x, m, a, na, b, nb, res);
	}
}

static const char *src_name(const struct cmp_metric *x)
{
	bool miss = x->kind == CMP_COUNT;

	switch (x->src) {
	case NOISE_REPEATS:
		return "runs";
	case NOISE_INTERVALS:
		return "intervals";
	case NOISE_RULE:
		return miss ? "poisson" : "rule";
	case NOISE_BLOCKS:
		return "blocks";
	case NOISE_BATCHES:
		return "batches";
	case NOISE_RANKS:
		return "ranks";
	case NOISE_RUNS:
		return "runs";
	default:
		return "";
	}
}

/* The value of one side in @cell: a count or a CPU, a %, a time, a
 * lower bound ">=N" or "n/a". */
static void side_cell(char *cell, bool has, bool bound, double v,
		      enum cmp_kind kind, int64_t unit)
{
	char d[TB_CELL];

	if (has && (kind == CMP_COUNT || kind == CMP_WHERE)) {
		snprintf(cell, TB_CELL, "%.0f", v);
		return;
	}
	if (has && kind == CMP_PERCENT) {
		snprintf(cell, TB_CELL, "%.4f", v);
		return;
	}
	fmt_fig(d, sizeof(d), has, v, unit);
	snprintf(cell, TB_CELL, "%s%s", has && bound ? ">=" : "", d);
}

void cmp_cells(const struct cmp_row *c, int i, int64_t unit,
	       char cell[8][TB_CELL])
{
	const struct cmp_metric *x = &c->m[i];
	char d[TB_CELL];

	memset(cell, 0, sizeof(char[8][TB_CELL]));
	side_cell(cell[0], x->has_a, x->bound_a, x->a, x->kind, unit);
	side_cell(cell[1], x->has_b, x->bound_b, x->b, x->kind, unit);
	if (!x->known)
		return;	/* a side that has it shows it; nothing to compare */
	if (x->kind == CMP_COUNT) {
		snprintf(cell[2], TB_CELL, "%+.0f", x->delta);
		snprintf(cell[4], TB_CELL, "%.0f", x->noise);
	} else if (x->kind == CMP_PERCENT) {
		snprintf(cell[2], TB_CELL, "%+.4f", x->delta);
		snprintf(cell[4], TB_CELL, "%.4f", x->noise);
	} else {
		fmt_fig(d, TB_CELL, true, fabs(x->delta), unit);
		snprintf(cell[2], TB_CELL, "%c%s", x->delta < 0 ? '-' : '+', d);
		fmt_fig(cell[4], TB_CELL, true, x->noise, unit);
	}
	if (x->pct_known)
		snprintf(cell[3], TB_CELL, "%+.1f %%", x->pct);
	else
		snprintf(cell[3], TB_CELL, "n/a");
	snprintf(cell[5], TB_CELL, "%s", src_name(x));
	snprintf(cell[6], TB_CELL, "%s", x->beyond ? "yes" : "no");
	snprintf(cell[7], TB_CELL, "%s", vd_name(x->verdict));
}

const char *const cmp_cols[8] = {
	"A", "B", "delta", "change", "noise", "from", "beyond noise",
	"verdict",
};

#define NOTHING "nothing to compare (no figure known on both sides)"

const char *cmp_nothing_why(const struct cmp_row *c, char *buf, size_t len)
{
	const struct rep_run *r = c->empty_a ? c->a : c->b;
	const char *note = run_note(r);

	if (!c->empty_a && !c->empty_b)
		return NOTHING;
	snprintf(buf, len, "nothing to compare (%s no samples%s%s)",
		 c->empty_a && c->empty_b ? "A and B have" :
		 c->empty_a ? "A has" : "B has", note ? ": " : "",
		 note ? note : "");
	return buf;
}

void cmp_print_text(FILE *f, const struct cmp_row *c, int64_t unit_ns)
{
	static const int w[8] = { 12, 12, 12, 9, 12, 10, 13, 12 };
	char cell[8][TB_CELL], why[128];
	int i, j, k;

	fprintf(f, "%s (%s): A = %s, B = %s%s%s\n", c->title,
		unit_ns == 1000 ? "us" : "ns", c->a_name, c->b_name,
		c->nothing ? ": " : "",
		c->nothing ? cmp_nothing_why(c, why, sizeof(why)) : "");
	if (c->nothing)
		return;
	fprintf(f, "%-12s", "metric");
	for (k = 0; k < 8; k++) {
		int dashes = w[k] - (int)strlen(cmp_cols[k]);

		fputc('|', f);
		while (dashes-- > 0)
			fputc('-', f);
		fputs(cmp_cols[k], f);
	}
	fputc('\n', f);
	for (j = 0; j < c->nrow; j++) {
		i = c->row[j];
		cmp_cells(c, i, unit_ns, cell);
		fprintf(f, "%-12s", c->m[i].name);
		for (k = 0; k < 8; k++)
			fprintf(f, "|%*s", w[k], cell[k]);
		fputc('\n', f);
	}
}

void cmp_print_markdown(FILE *f, const struct cmp_row *c, int64_t unit_ns)
{
	char cell[8][TB_CELL], why[128];
	int i, j, k;

	fprintf(f, "### %s (values in %s)\n\nA = %s, B = %s%s%s\n", c->title,
		unit_ns == 1000 ? "us" : "ns", c->a_name, c->b_name,
		c->nothing ? ": " : "",
		c->nothing ? cmp_nothing_why(c, why, sizeof(why)) : "");
	if (c->nothing)
		return;
	fprintf(f, "\n| metric |");
	for (k = 0; k < 8; k++)
		fprintf(f, " %s |", cmp_cols[k]);
	fprintf(f, "\n|:---|");
	for (k = 0; k < 8; k++)
		fprintf(f, "---:|");
	fputc('\n', f);
	for (j = 0; j < c->nrow; j++) {
		i = c->row[j];
		cmp_cells(c, i, unit_ns, cell);
		fprintf(f, "| %s |", c->m[i].name);
		for (k = 0; k < 8; k++)
			fprintf(f, " %s |", cell[k]);
		fputc('\n', f);
	}
}

void cmp_print_csv_header(FILE *f, bool gate)
{
	fprintf(f, "table,a,b,metric,a_value,b_value,delta,change_pct,noise,noise_from,beyond_noise,verdict%s\n",
		gate ? ",gate,gate_reason" : "");
}

void cmp_print_csv(FILE *f, const struct cmp_row *c, const struct gate_row *g)
{
	int i, k;

	if (c->nothing)
		return;		/* no row: compare says so on stderr */
	for (k = 0; k < c->nrow; k++) {
		const struct cmp_metric *x = &c->m[c->row[k]];
		/* a % with its 4 decimals, a CPU or a count whole */
		int dec = x->kind == CMP_PERCENT ? 4 :
			  x->fig && x->kind != CMP_TIME ? 0 : 1;

		i = c->row[k];
		csv_field(f, c->title);
		fputc(',', f);
		csv_field(f, c->a_name);
		fputc(',', f);
		csv_field(f, c->b_name);
		fprintf(f, ",%s,", x->name);
		if (x->known) {
			fprintf(f, "%.*f,%.*f,%.*f,", dec, x->a, dec, x->b, dec,
				x->delta);
			if (x->pct_known)
				fprintf(f, "%.2f", x->pct);
			fprintf(f, ",%.*f,%s,%s,%s", dec, x->noise, src_name(x),
				x->beyond ? "yes" : "no", vd_name(x->verdict));
		} else {
			/* the side that has the metric, if any; a lower
			 * bound as ">=N" */
			if (x->has_a)
				fprintf(f, "%s%.*f", x->bound_a ? ">=" : "", dec,
					x->a);
			fputc(',', f);
			if (x->has_b)
				fprintf(f, "%s%.*f", x->bound_b ? ">=" : "", dec,
					x->b);
			fputs(",,,,,,", f);
		}
		if (g && i < CMP_METRICS && g->g[i].gated) {
			fprintf(f, ",%s,", gate_verdict_name(g->g[i].v));
			csv_field(f, g->g[i].reason);
		} else if (g) {
			fputs(",,", f);
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

bool cmp_same_kind(const struct rep_run *x, const struct rep_run *y)
{
	return str_same(x->test, y->test) && str_same(x->series, y->series);
}

bool cmp_same_table(const struct rep_run *x, const struct rep_run *y)
{
	return cmp_same_kind(x, y) &&
	       (same_table(x, y) ||
		((!x->load || !y->load) && str_same(x->section, y->section)));
}

size_t group_uninterrupted(const struct group *g, bool keep,
			   struct group *out)
{
	size_t i;

	*out = *g;
	out->v = xcalloc(g->n + 1, sizeof(struct rep_run *));
	out->n = 0;
	for (i = 0; i < g->n; i++)
		if (keep || !run_interrupted(g->v[i]))
			out->v[out->n++] = g->v[i];
	return g->n - out->n;
}

const char *cmp_left_out(const struct cmp_row *c, char *buf, size_t len)
{
	if (!c->left_a && !c->left_b)
		return NULL;
	snprintf(buf, len, "left out, cut short by a signal: %zu interrupted run%s of A, %zu of B (compare --with-interrupted compares them)",
		 c->left_a, c->left_a == 1 ? "" : "s", c->left_b);
	return buf;
}

/* Compare group @a with @b, without the interrupted runs of a side that
 * has complete ones (unless @keep). */
static void push_sides(struct cmp_row **rows, size_t *n, const struct group *a,
		       const struct group *b, bool keep)
{
	struct group ua, ub;
	size_t xa = group_uninterrupted(a, keep, &ua);
	size_t xb = group_uninterrupted(b, keep, &ub);

	push_row(rows, n, xa < a->n ? ua.v : a->v, xa < a->n ? ua.n : a->n,
		 xb < b->n ? ub.v : b->v, xb < b->n ? ub.n : b->n);
	(*rows)[*n - 1].left_a = xa < a->n ? xa : 0;
	(*rows)[*n - 1].left_b = xb < b->n ? xb : 0;
	free(ua.v);
	free(ub.v);
}

size_t cmp_sides(const struct rep_runs *a, const struct rep_runs *b,
		 bool with_interrupted, struct cmp_row **out)
{
	struct group *ga, *gb;
	size_t na = groups_make(a, &ga), nb = groups_make(b, &gb), i, k, n = 0;
	size_t *match = xcalloc(na + 1, sizeof(*match));
	bool *used = xcalloc(nb + 1, sizeof(*used));
	bool *exact = xcalloc(na + 1, sizeof(*exact));
	char t[448];
	int pass;

	*out = NULL;
	for (i = 0; i < na; i++)
		match[i] = nb;
	/* 1: the same table; 2: the same test with loads that differ only
	 * in being recorded; 3: a test kind whose tables share no load on
	 * the two sides, compared across loads (without load vs with load:
	 * the obvious question) */
	for (pass = 1; pass <= 3; pass++) {
		for (i = 0; i < na; i++) {
			const struct rep_run *x = ga[i].v[0];

			if (match[i] != nb)
				continue;
			if (pass == 3) {
				bool shared = false;
				size_t j;

				for (j = 0; j < na; j++)
					if (exact[j] && cmp_same_kind(x, ga[j].v[0]))
						shared = true;
				if (shared)
					continue;
			}
			for (k = 0; k < nb && match[i] == nb; k++) {
				const struct rep_run *y = gb[k].v[0];

				if (used[k] || !cmp_same_kind(x, y))
					continue;
				if ((pass == 1 && same_table(x, y)) ||
				    (pass == 2 && (!x->load || !y->load) &&
				     str_same(x->section, y->section)) ||
				    pass == 3) {
					match[i] = k;
					used[k] = true;
					exact[i] = pass < 3;
				}
			}
		}
	}
	for (i = 0; i < na; i++) {
		if (match[i] == nb) {
			group_title(t, sizeof(t), &ga[i]);
			log_note("only in A: %s", t);
			continue;
		}
		push_sides(out, &n, &ga[i], &gb[match[i]], with_interrupted);
	}
	for (k = 0; k < nb; k++) {
		if (used[k])
			continue;
		group_title(t, sizeof(t), &gb[k]);
		log_note("only in B: %s", t);
	}
	free(match);
	free(used);
	free(exact);
	groups_free(ga, na);
	groups_free(gb, nb);
	return n;
}

size_t cmp_within(const struct rep_runs *rs, struct cmp_row **out)
{
	struct group *g;
	size_t ng = groups_make(rs, &g), i, k, n = 0;

	*out = NULL;
	for (i = 0; i < ng; i++) {
		size_t first = n;
		bool any = false;

		for (k = 1; k < g[i].n; k++) {
			push_row(out, &n, &g[i].v[0], 1, &g[i].v[k], 1);
			any |= !(*out)[n - 1].nothing;
		}
		/* a table without a figure to compare says so once */
		if (!any && g[i].n > 2) {
			n = first;
			push_row(out, &n, &g[i].v[0], 1, &g[i].v[1], g[i].n - 1);
		}
	}
	groups_free(g, ng);
	return n;
}
