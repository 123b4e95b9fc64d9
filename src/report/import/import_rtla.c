// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtla timerlat (Linux tools/tracing/rtla) text output. The IRQ, thread
 * and (with -u) user-space latencies are series of their own: one run per
 * series, one thread per CPU.
 *
 *  - timerlat top (the last screen counts; a CPU's row replaces the one
 *    before it):
 *                                      Timer Latency
 *       0 00:00:06   |          IRQ Timer Latency (us)        |         Thread Timer Latency (us)
 *     CPU COUNT      |      cur       min       avg       max |      cur       min       avg       max
 *       0 #5823      |       24         0         1        24 |     1035         3         7      1035
 *  - timerlat hist: "# Time unit is microseconds (us)" (or nanoseconds),
 *    a column per series and CPU ("IRQ-000", "Thr-000", "Usr-000") and
 *    the rows "count:", "min:", "avg:", "max:" (the histogram rows are
 *    not read: their bucket size is not in the output).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import.h"

#define TL_MAXCPU 4096
#define TL_NSER 3

static const char *const tl_series[TL_NSER] = { "irq", "thread", "user" };

struct tl_fig {
	bool has_count, has_stats;
	uint64_t count;
	int64_t min, avg, max;
	bool seen_min, seen_avg, seen_max;
};

struct tl_state {
	struct imp_ctx *c;
	int64_t unit;
	struct tl_fig *f[TL_NSER];	/* per CPU */
	int ncpu[TL_NSER];
	struct tl_fig all[TL_NSER];	/* hist's ALL: summary */
};

static struct tl_fig *tl_fig(struct tl_state *s, int ser, uint64_t cpu)
{
	if (cpu >= TL_MAXCPU)
		return NULL;
	if ((int)cpu >= s->ncpu[ser]) {
		s->f[ser] = xrealloc(s->f[ser], (cpu + 1) * sizeof(*s->f[ser]));
		memset(s->f[ser] + s->ncpu[ser], 0,
		       (cpu + 1 - (uint64_t)s->ncpu[ser]) * sizeof(*s->f[ser]));
		s->ncpu[ser] = (int)cpu + 1;
	}
	return &s->f[ser][cpu];
}

/* The series of a top header group: "IRQ Timer Latency (us)". */
static int group_series(const char *g)
{
	if (strstr(g, "IRQ"))
		return 0;
	if (strstr(g, "Thread"))
		return 1;
	if (strcasestr(g, "user") || strstr(g, "Usr"))
		return 2;
	return -1;
}

/* A top row: "  0 #5823      |  24  0  1  24 |  1035  3  7  1035". */
static int top_row(struct tl_state *s, const char *line, const int *gser,
		   int ng, unsigned no)
{
	const char *p = skip_blank(line);
	uint64_t cpu, count;
	int g;

	static const char *const col[4] = { "cur", "min", "avg", "max" };
	char w[48];
	int e;

	if (imp_count(&p, &cpu))
		return 0;
	p = skip_blank(p);
	if (*p != '#')
		return 0;
	p++;
	e = imp_figure_count(s->c, no, "COUNT", &p, &count);
	if (e)
		return e < 0 ? -1 : 0;
	for (g = 0; g < ng; g++) {
		int64_t v[4];
		struct tl_fig *f;
		int i;

		p = strchr(p, '|');
		if (!p)
			break;
		p++;
		for (i = 0, e = 0; i < 4 && !e; i++) {
			snprintf(w, sizeof(w), "CPU %llu %s",
				 (unsigned long long)cpu, col[i]);
			e = imp_figure(s->c, no, w, &p, s->unit, 0, &v[i]);
		}
		if (e < 0)
			return -1;
		if (e || gser[g] < 0 || !(f = tl_fig(s, gser[g], cpu)))
			continue;
		snprintf(w, sizeof(w), "CPU %llu", (unsigned long long)cpu);
		if (imp_check_stats(s->c, no, w, v[1], (double)v[2], v[3]))
			return -1;
		f->count = count;
		f->has_count = true;
		f->min = v[1];
		f->avg = v[2];
		f->max = v[3];
		f->has_stats = true;
	}
	return 0;
}

/* hist columns: "Index   IRQ-000   Thr-000 ..." into series/CPU pairs. */
static int hist_columns(const char *line, int *ser, uint64_t *cpu, int max)
{
	const char *p = skip_blank(line);
	int n = 0;

	while (*p && !isspace((unsigned char)*p))
		p++;		/* "Index" */
	for (;;) {
		const char *w;

		p = skip_blank(p);
		if (!*p || n >= max)
			break;
		w = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		ser[n] = !strncmp(w, "IRQ-", 4) ? 0 : !strncmp(w, "Thr-", 4) ? 1 :
			 !strncmp(w, "Usr-", 4) ? 2 : -1;
		w += 4;
		if (ser[n] < 0 || imp_count(&w, &cpu[n]))
			ser[n] = -1;
		n++;
	}
	return n;
}

/* hist rows "min:", "avg:", "max:", "count:" with a value per column
 * ("-" for none). */
static int hist_row(struct tl_state *s, const char *p, int which,
		    const int *ser, const uint64_t *cpu, int n, bool all,
		    unsigned no)
{
	static const char *const names[4] = { "count", "min", "avg", "max" };
	int i;

	p = strchr(p, ':') + 1;
	for (i = 0; i < n; i++) {
		struct tl_fig *f;
		int64_t v = 0;
		uint64_t cnt = 0;
		int e;

		p = skip_blank(p);
		if (*p == '-' && !isdigit((unsigned char)p[1])) {
			p++;
			continue;
		}
		e = which ? imp_figure(s->c, no, names[which], &p, s->unit, 0, &v) :
			    imp_figure_count(s->c, no, names[which], &p, &cnt);
		if (e < 0)
			return -1;
		if (e)
			break;
		if (ser[i] < 0)
			continue;
		f = all ? &s->all[ser[i]] : tl_fig(s, ser[i], cpu[i]);
		if (!f)
			continue;
		switch (which) {
		case 0: f->count = cnt; f->has_count = true; break;
		case 1: f->min = v; f->seen_min = true; break;
		case 2: f->avg = v; f->seen_avg = true; break;
		default: f->max = v; f->seen_max = true; break;
		}
	}
	return 0;
}

#define TL_MAXCOL 1024

/*
 * A histogram row, "INDEX COUNT ...", or "over:" (and "under:"): not kept
 * (the bucket size is not in the output), but what rtla cannot print (a
 * negative index, a count above 2^53 or not a number) refuses the file.
 * Returns 0 or -1 (said).
 */
static int bucket_row(struct tl_state *s, const char *p, unsigned no)
{
	uint64_t v;
	int64_t idx;
	int e;

	if (*p == 'o' || *p == 'u') {
		p = strchr(p, ':') + 1;
	} else {
		e = imp_figure(s->c, no, "histogram index", &p, 1, 0, &idx);
		if (e)
			return e < 0 ? -1 : 0;
	}
	for (;;) {
		p = skip_blank(p);
		if (!*p)
			return 0;
		if (*p == '-' && !isdigit((unsigned char)p[1])) {
			p++;
			continue;
		}
		e = imp_figure_count(s->c, no, "histogram count", &p, &v);
		if (e)
			return e < 0 ? -1 : 0;
	}
}

/* One run per series with figures, one thread per CPU of it. Returns 0,
 * or -1 (said). */
static int tl_runs(struct imp_ctx *c, struct tl_state *s)
{
	int k, i;

	for (k = 0; k < TL_NSER; k++) {
		struct rep_run *r = NULL;

		for (i = 0; i < s->ncpu[k]; i++) {
			struct tl_fig *f = &s->f[k][i];
			struct rep_series *x;

			if (f->seen_min && f->seen_avg && f->seen_max)
				f->has_stats = true;
			if (!f->has_stats && !f->has_count)
				continue;
			if (f->has_stats && (f->min > f->max || f->avg < f->min ||
					     f->avg > f->max)) {
				imp_error(c, 0, "CPU %d: min <= avg <= max does not hold", i);
				return -1;
			}
			if (!r) {
				r = imp_new_run(c, &imp_rtla, 1);
				r->tool = xstrdup("rtla timerlat");
				str_set(&r->test, "timerlat");
				str_set(&r->series, tl_series[k]);
				r->resolution_ns = s->unit;
				r->miss = MISS_NONE;
			}
			x = run_add_thread(r, i);
			x->cpu = i;
			/* top's COUNT is the IRQ count: a CPU with thread
			 * figures only shows #0 (user-space threads) */
			x->has_samples = f->has_count && f->count;
			x->samples = f->count;
			if (f->has_stats) {
				x->min = f->min;
				x->avg = (double)f->avg;
				x->max = f->max;
				x->has_stats = true;
			}
		}
	}
	return 0;
}

/* The runs from @first_run on: hist's ALL, when there. */
static void tl_all(struct imp_ctx *c, struct tl_state *s, size_t first_run)
{
	int k, i;

	/* hist's ALL: the run's own figures, as the output states them */
	for (i = (int)first_run; i < (int)c->runs.n; i++) {
		struct rep_run *r = c->runs.v[i];
		struct tl_fig *f;

		for (k = 0; k < TL_NSER; k++)
			if (!strcmp(r->series, tl_series[k]))
				break;
		if (k == TL_NSER)
			continue;
		f = &s->all[k];
		if (!(f->seen_min && f->seen_avg && f->seen_max))
			continue;
		if (f->min > f->max || f->avg < f->min || f->avg > f->max) {
			imp_warn(c, 0, "ALL %s: min <= avg <= max does not hold: not used",
				 tl_series[k]);
			continue;
		}
		r->sum.min = f->min;
		r->sum.avg = (double)f->avg;
		r->sum.max = f->max;
		r->sum.has_stats = true;
		r->sum.has_samples = f->has_count && f->count;
		r->sum.samples = f->count;
	}
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct tl_state s;
	struct lines l;
	char *line;
	int gser[8], ng = 0, ret = 0, k;
	int *hser = xcalloc(TL_MAXCOL, sizeof(*hser));
	uint64_t *hcpu = xcalloc(TL_MAXCOL, sizeof(*hcpu));
	int nh = 0, na = 0, aser[TL_NSER];
	uint64_t acpu[TL_NSER] = { 0 };
	bool all = false;
	size_t first_run = c->runs.n;	/* runs before ours: another tool's */

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.unit = c->o->input_unit_ns ? c->o->input_unit_ns : 1000;
	lines_init(&l, buf, len);
	while (!ret && (line = lines_next(&l))) {
		const char *p = skip_blank(line);

		if (strstr(p, "Timer Latency (")) {
			/* the top header: the groups after each '|' */
			const char *g = strchr(p, '|');

			ng = 0;
			s.unit = strstr(p, "(ns)") ? 1 : 1000;
			while (g && ng < 8) {
				gser[ng++] = group_series(g);
				g = strchr(g + 1, '|');
			}
		} else if (starts_with(p, "# Time unit is")) {
			s.unit = strstr(p, "nano") || strstr(p, "(ns)") ? 1 : 1000;
		} else if (starts_with(p, "Index")) {
			nh = hist_columns(p, hser, hcpu, TL_MAXCOL);
			all = false;
		} else if (starts_with(p, "ALL:")) {
			/* the summary over CPUs: "ALL:  IRQ  Thr  Usr" */
			const char *q = p + 4;

			all = true;
			for (na = 0; na < TL_NSER; na++) {
				q = skip_blank(q);
				if (!*q)
					break;
				aser[na] = starts_with(q, "IRQ") ? 0 :
					   starts_with(q, "Thr") ? 1 :
					   starts_with(q, "Usr") ? 2 : -1;
				while (*q && !isspace((unsigned char)*q))
					q++;
			}
		} else if (nh && (starts_with(p, "count:") ||
				  starts_with(p, "min:") ||
				  starts_with(p, "avg:") ||
				  starts_with(p, "max:"))) {
			int which = p[1] == 'o' ? 0 : p[1] == 'i' ? 1 :
				    p[1] == 'v' ? 2 : 3;

			if (all)
				ret = hist_row(&s, p, which, aser, acpu, na,
					       true, l.no);
			else
				ret = hist_row(&s, p, which, hser, hcpu, nh,
					       false, l.no);
		} else if (nh && !all && (isdigit((unsigned char)*p) ||
					  (*p == '-' && isdigit((unsigned char)p[1])) ||
					  starts_with(p, "over:") ||
					  starts_with(p, "under:"))) {
			ret = bucket_row(&s, p, l.no);
		} else if (ng && isdigit((unsigned char)*p) && strchr(p, '#')) {
			ret = top_row(&s, p, gser, ng, l.no);
		}
	}
	if (!ret)
		ret = tl_runs(c, &s);
	if (!ret)
		tl_all(c, &s, first_run);
	for (k = 0; k < TL_NSER; k++)
		free(s.f[k]);
	free(hser);
	free(hcpu);
	if (!ret && !c->runs.n) {
		imp_error(c, 0, "no timerlat figures (no top row, no hist min/avg/max)");
		ret = -1;
	}
	return ret;
}

static int probe_text(const char *text)
{
	if (strstr(text, "Timer Latency (") && strstr(text, "CPU COUNT"))
		return 90;
	if (strstr(text, "timerlat") && strstr(text, "Index") &&
	    (strstr(text, "IRQ-0") || strstr(text, "Thr-0")))
		return 90;
	return 0;
}

const struct importer imp_rtla = {
	.name = "rtla",
	.what = "rtla timerlat top and hist text (IRQ, thread and user latencies as series)",
	.probe_text = probe_text,
	.parse_text = parse_text,
};
