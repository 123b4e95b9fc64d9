// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stress-ng --cyclic: the cyclic stressor's report, one block per
 * instance (its pid in brackets), figures in ns:
 *
 *   stress-ng: info:  [2436] cyclic: sched SCHED_FIFO: 20000 ns delay, 10000 samples
 *   stress-ng: info:  [2436] cyclic:   mean: 3826.39 ns, mode: 2968 ns
 *   stress-ng: info:  [2436] cyclic:   min: 2603 ns, max: 2073993 ns, std.dev. 29163.42
 *   stress-ng: info:  [2436] cyclic: latency percentiles:
 *   stress-ng: info:  [2436] cyclic:   25.00%:       2968 ns
 *   stress-ng: info:  [2436] cyclic:   99.90%:       ...
 *
 * One run; a thread per instance.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import.h"

#define SN_MAXINST 1024

struct sn_inst {
	uint64_t pid;
	unsigned line;		/* of its "min:" line */
	bool has_samples, has_mean, has_min, has_max, has_sd;
	uint64_t samples;
	int64_t delay;
	double mean, sd;
	int64_t min, max;
	bool has_pct[RTLAT_NPCT];
	int64_t pct[RTLAT_NPCT];
};

/* "123.45" as a double (no exponent, never negative): 1 (read), 0 (no
 * number here) or -1 (refused, said: imp_figure()). */
static int sn_double(struct imp_ctx *c, unsigned no, const char *what,
		     const char **pp, double *out)
{
	int64_t v;
	int e;

	/* in units of 1/1000: range checked */
	e = imp_figure(c, no, what, pp, 1000, 0, &v);
	if (e)
		return e < 0 ? -1 : 0;
	*out = (double)v / 1000.0;
	return 1;
}

/* A figure in ns, never negative: as sn_double(). */
static int sn_ns(struct imp_ctx *c, unsigned no, const char *what,
		 const char **pp, int64_t *out)
{
	int e = imp_figure(c, no, what, pp, 1, 0, out);

	return e ? (e < 0 ? -1 : 0) : 1;
}

static struct sn_inst *sn_find(struct sn_inst **v, size_t *n, uint64_t pid)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i].pid == pid)
			return &(*v)[i];
	if (*n >= SN_MAXINST)
		return NULL;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].pid = pid;
	return &(*v)[(*n)++];
}

/* The percentile "99.90%" as an index into rtlat_percentiles[], or -1. */
static int sn_pct(const char *p)
{
	static const char *const names[RTLAT_NPCT] = {
		"50.00%", "90.00%", "99.00%", "99.90%", "99.99%", "99.999%",
		"99.9999%",
	};
	int i;

	for (i = 0; i < RTLAT_NPCT; i++)
		if (starts_with(p, names[i]) && p[strlen(names[i])] == ':')
			return i;
	return -1;
}

/* The run of the @n instances in @v. Returns 0 or -1. */
static int sn_run(struct imp_ctx *c, const struct sn_inst *v, size_t n,
		  char **tool)
{
	struct rep_run *r = imp_new_run(c, &imp_stressng, 1);
	size_t i;
	int k, ret = 0;

	r->tool = *tool ? xstrdup(*tool) : xstrdup("stress-ng");
	str_set(&r->test, "cyclic");
	r->resolution_ns = 1;
	r->miss = MISS_NONE;
	for (i = 0; i < n && !ret; i++) {
		struct rep_series *s = run_add_thread(r, (int)i);

		if (v[i].delay > 0 && !i)
			r->period_ns = v[i].delay;
		s->has_samples = v[i].has_samples;
		s->samples = v[i].samples;
		if (v[i].has_min && v[i].has_max && v[i].has_mean &&
		    (!v[i].has_samples || v[i].samples)) {
			char w[48];

			snprintf(w, sizeof(w), "instance %llu",
				 (unsigned long long)v[i].pid);
			if (imp_check_stats(c, v[i].line, w, v[i].min,
					    v[i].mean, v[i].max)) {
				ret = -1;
				break;
			}
			s->min = v[i].min;
			s->max = v[i].max;
			s->avg = v[i].mean;
			s->has_stats = true;
			for (k = 0; k < RTLAT_NPCT; k++) {
				s->has_pct[k] = v[i].has_pct[k];
				s->pct[k] = v[i].pct[k];
			}
		}
		s->has_stddev = v[i].has_sd;
		s->stddev = v[i].sd;
	}
	return ret;
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct sn_inst *v = NULL;
	size_t n = 0;
	struct lines l;
	char *line;
	char *tool = NULL;
	int ret = 0, k, e;

	lines_init(&l, buf, len);
	while ((line = lines_next(&l))) {
		const char *p = strstr(line, "] cyclic:"), *q;
		struct sn_inst *x;
		uint64_t pid;
		int64_t t;

		if (starts_with(line, "stress-ng, version ") && !tool) {
			q = line + 19;
			tool = xasprintf("stress-ng %.*s", (int)strcspn(q, " "), q);
		}
		if (strstr(line, "] dispatching hogs:") && n) {
			/* another stress-ng run */
			ret = sn_run(c, v, n, &tool);
			n = 0;
			if (ret)
				break;
		}
		if (!p)
			continue;
		q = p;
		while (q > line && q[-1] != '[')
			q--;
		if (imp_count(&q, &pid) || q != p || !(x = sn_find(&v, &n, pid)))
			continue;
		p = skip_blank(p + 9);
		if ((q = strstr(p, " ns delay, "))) {
			const char *d = q;

			while (d > p && isdigit((unsigned char)d[-1]))
				d--;
			if ((e = sn_ns(c, l.no, "delay", &d, &t)) < 0)
				break;
			if (e)
				x->delay = t;
			q += 11;
			if ((e = imp_figure_count(c, l.no, "samples", &q,
						  &x->samples)) < 0)
				break;
			x->has_samples = !e;
		} else if (starts_with(p, "mean:")) {
			q = p + 5;
			if ((e = sn_double(c, l.no, "mean", &q, &x->mean)) < 0)
				break;
			x->has_mean = e;
		} else if (starts_with(p, "min:")) {
			x->line = l.no;
			q = p + 4;
			if ((e = sn_ns(c, l.no, "min", &q, &x->min)) < 0)
				break;
			x->has_min = e;
			q = strstr(p, "max:");
			if (q) {
				q += 4;
				if ((e = sn_ns(c, l.no, "max", &q, &x->max)) < 0)
					break;
				x->has_max = e;
			}
			q = strstr(p, "std.dev.");
			if (q) {
				q += 8;
				if ((e = sn_double(c, l.no, "std.dev.", &q,
						   &x->sd)) < 0)
					break;
				x->has_sd = e;
			}
		} else if ((k = sn_pct(p)) >= 0) {
			q = strchr(p, ':') + 1;
			if ((e = sn_ns(c, l.no, "percentile", &q, &t)) < 0)
				break;
			if (e && starts_with(skip_blank(q), "ns")) {
				x->pct[k] = t;
				x->has_pct[k] = true;
			}
		}
	}
	if (c->errors)
		ret = -1;
	if (!ret && n)
		ret = sn_run(c, v, n, &tool);
	free(tool);
	free(v);
	if (!ret && !n) {
		imp_error(c, 0, "no \"cyclic:\" report of stress-ng");
		ret = -1;
	}
	return ret;
}

static int probe_text(const char *text)
{
	const char *p = strstr(text, "] cyclic:");

	if (p && (strstr(text, " ns delay, ") || strstr(text, "mean:")))
		return 85;
	return 0;
}

const struct importer imp_stressng = {
	.name = "stress-ng",
	.what = "stress-ng --cyclic reports (one series per instance, ns)",
	.probe_text = probe_text,
	.parse_text = parse_text,
};
