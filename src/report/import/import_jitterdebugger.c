// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * jitterdebugger results.json:
 *
 *   {"version": 3, "sysinfo": {...uname..., "cpus_online", "resolution_in_ns"},
 *    "cpu": {"0": {"histogram": {"11": 14, ...}, "count": 2992,
 *                  "min": 11, "max": 80, "avg": 16.66}, ...}}
 *
 * Figures in whole microseconds. The histogram has 1 us buckets and
 * silently drops samples of 1000 us and more: what "count" has beyond the
 * buckets is accounted as overflow here.
 *
 * Text (-v, or the last refresh; affinity line first):
 *
 *   affinity: 0-3 = 4 [0xF]
 *   T: 0 ( 1599) A: 0 C:    593447 Min:         2 Avg:    2.97 Max:        59
 *
 * A thread's line again after other lines (a heading, a blank line)
 * starts another run: users paste several runs one after the other.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import/import.h"

#ifdef HAVE_CJSON

static int probe(const cJSON *root)
{
	const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(root, "cpu");
	const cJSON *first = cJSON_IsObject(cpu) ? cpu->child : NULL;

	if (!first || !cJSON_IsObject(first))
		return 0;
	return cJSON_GetObjectItemCaseSensitive(first, "count") &&
	       cJSON_GetObjectItemCaseSensitive(first, "histogram") ? 95 : 0;
}

static int parse(struct imp_ctx *c, const cJSON *root)
{
	struct rep_run *r = imp_new_run(c, &imp_jitterdebugger, 0);
	const cJSON *cpus, *e, *sys, *ver;
	bool bad = false;

	ver = cJSON_GetObjectItemCaseSensitive(root, "version");
	r->tool = cJSON_IsNumber(ver) ?
		  xasprintf("jitterdebugger (results v%d)", ver->valueint) :
		  xstrdup("jitterdebugger");
	str_set(&r->test, "latency");
	r->resolution_ns = 1000;
	sys = jr_obj(c, root, "", "sysinfo", &bad);
	if (sys)
		jr_sysinfo(c, sys, r);
	cpus = jr_obj(c, root, "", "cpu", &bad);
	if (bad || !cpus)
		return -1;
	cJSON_ArrayForEach(e, cpus) {
		const char *k = e->string, *p = k;
		struct rep_series *s;
		uint64_t id;
		char w[64];

		snprintf(w, sizeof(w), "cpu.%.40s", k ? k : "?");
		if (!k || imp_count(&p, &id) || *p || id > 100000 ||
		    r->nthr >= 4096) {
			imp_error(c, 0, "'%s' is not a CPU number", w);
			return -1;
		}
		s = run_add_thread(r, (int)r->nthr);
		s->cpu = (int)id;
		if (jr_us_thread(c, e, w, "count", 1000, s))
			return -1;
		if (!s->hist.n)
			continue;
		/* jitterdebugger's histogram ends at 1000 us and drops the rest */
		if (s->hist.nbuckets < 1000)
			s->hist.nbuckets = 1000;
		if (s->has_samples && s->hist.bucket_total <= s->samples)
			s->hist.overflow = s->samples - s->hist.bucket_total;
		else if (s->has_samples)
			imp_warn(c, 0, "'%s.histogram' holds more samples than count", w);
	}
	return 0;
}

#endif /* HAVE_CJSON */

/* ---- text ---- */

#define JD_MAXTHR 4096

/* "T: 0 ( 1599) A: 0 C: 593447 Min: 2 Avg: 2.97 Max: 59": the count and
 * the figures through imp_figure_count()/imp_figure() (jitterdebugger
 * prints no negative latency). Returns 0, 1 (not such a line) or -1
 * (refused, said). */
static int jd_line(struct imp_ctx *c, unsigned no, const char *p,
		   uint64_t *id, uint64_t *cpu, uint64_t *count, int64_t v[3])
{
	static const char *const keys[] = { "Min:", "Avg:", "Max:" };
	const char *q;
	int i, e;

	p += 2;
	if (imp_count(&p, id))
		return 1;
	q = strstr(p, " A:");
	if (!q)
		return 1;
	q += 3;
	if (imp_count(&q, cpu))
		return 1;
	q = strstr(q, " C:");
	if (!q)
		return 1;
	q += 3;
	e = imp_figure_count(c, no, "C", &q, count);
	if (e)
		return e;
	for (i = 0; i < 3; i++) {
		const char *k = strstr(q, keys[i]);

		if (!k)
			return 1;
		k += 4;
		e = imp_figure(c, no, i == 0 ? "Min" : i == 1 ? "Avg" : "Max",
			       &k, 1000, 0, &v[i]);
		if (e)
			return e;
	}
	return 0;
}

static struct rep_run *jd_run(struct imp_ctx *c, unsigned line)
{
	struct rep_run *r = imp_new_run(c, &imp_jitterdebugger, line);

	r->tool = xstrdup("jitterdebugger");
	str_set(&r->test, "latency");
	r->resolution_ns = 1000;
	return r;
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct rep_run *r = NULL;
	bool after_other = false;
	struct lines l;
	char *line;

	lines_init(&l, buf, len);
	while ((line = lines_next(&l))) {
		const char *p = skip_blank(line);
		struct rep_series *s = NULL;
		uint64_t id, cpu, count;
		int64_t v[3];
		size_t i;
		int e;

		if (!starts_with(p, "T:") || !strstr(p, " A:")) {
			if (starts_with(p, "affinity:"))
				r = NULL;
			else if (*p)
				after_other = true;
			continue;
		}
		e = jd_line(c, l.no, p, &id, &cpu, &count, v);
		if (e < 0)
			return -1;
		if (e || id >= JD_MAXTHR || cpu >= JD_MAXTHR) {
			imp_warn(c, l.no, "unreadable T: line skipped");
			continue;
		}
		if (count > 0 && imp_check_stats(c, l.no, "T: line", v[0],
						 (double)v[1], v[2]))
			return -1;
		for (i = 0; r && i < r->nthr; i++)
			if (r->thr[i].id == (int)id)
				s = &r->thr[i];
		if (!r || (s && after_other)) {
			r = jd_run(c, l.no);
			s = NULL;
		}
		after_other = false;
		if (!s)
			s = run_add_thread(r, (int)id);
		s->cpu = (int)cpu;
		s->samples = count;
		s->has_samples = true;
		s->min = v[0];
		s->avg = (double)v[1];
		s->max = v[2];
		s->has_stats = count > 0;
	}
	if (!c->runs.n) {
		imp_error(c, 0, "no \"T: N (pid) A: cpu C: count\" line");
		return -1;
	}
	return 0;
}

static int probe_text(const char *text)
{
	static const char *const keys[] = { " A:", " C:", "Max:", NULL };

	return text_line_with(text, "T:", keys, " I:") ? 85 : 0;
}

const struct importer imp_jitterdebugger = {
	.name = "jitterdebugger",
	.what = "jitterdebugger results.json and its text (-v T: lines)",
	.probe_text = probe_text,
	.parse_text = parse_text,
#ifdef HAVE_CJSON
	.probe_json = probe,
	.parse_json = parse,
#endif
};
