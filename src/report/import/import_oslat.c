// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oslat (rt-tests) output, text and --json. oslat spins on a CPU reading
 * the time stamp counter and records every gap: bucket "k (us)" counts the
 * gaps oslat rounds to k us, and its Minimum/Maximum use the same numbers,
 * so a bucket is read as the value k us. The last bucket includes the
 * overflows: it is accounted as overflow here (a percentile that lands
 * there is reported as the maximum).
 *
 * Text:
 *         Core:	 1 2
 *     001 (us):	 123071311 1234
 *     032 (us):	 796 12 (including overflows)
 *      Minimum:	 1 1 (us)
 *      Average:	 1.001 1.002 (us)
 *      Maximum:	 557 20 (us)
 *     Duration:	 2.998 (sec)
 * JSON: rt-tests layout, thread.N.{cpu, freq, min, avg, max, duration,
 * histogram}.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import/import.h"

#define OS_MAXCPU 1024

static void oslat_run_defaults(struct rep_run *r)
{
	str_set(&r->test, "oslat");
	str_set(&r->series, "latency");
	r->resolution_ns = 1000;
	r->miss = MISS_NONE;
}

/* Turn the last bucket (which includes the overflows) into overflow. */
static void last_is_overflow(struct rep_hist *h)
{
	if (!h->n)
		return;
	h->overflow += h->b[h->n - 1].count;
	h->bucket_total -= h->b[h->n - 1].count;
	h->nbuckets = (uint64_t)(h->b[h->n - 1].lo / h->width);
	h->n--;
}

#ifdef HAVE_CJSON

static int probe_json(const cJSON *root)
{
	const cJSON *cmd = rt_member(root, "cmdline");
	const cJSON *thr = cJSON_GetObjectItemCaseSensitive(root, "thread");

	if (!cJSON_IsObject(thr))
		return 0;
	if (cJSON_IsString(cmd) && strstr(cmd->valuestring, "oslat"))
		return 95;
	/* oslat threads carry "freq" */
	return cJSON_IsObject(thr->child) &&
	       cJSON_GetObjectItemCaseSensitive(thr->child, "freq") ? 90 : 0;
}

static int parse_json(struct imp_ctx *c, const cJSON *root)
{
	struct rep_run *r = imp_new_run(c, &imp_oslat, 0);
	const cJSON *thr, *e, *sys, *ver;
	bool bad = false;

	ver = rt_member(root, "rt_test_version");
	r->tool = xasprintf("oslat%s%s", cJSON_IsString(ver) ? " " : "",
			    cJSON_IsString(ver) ? ver->valuestring : "");
	oslat_run_defaults(r);
	sys = jr_obj(c, root, "", "sysinfo", &bad);
	if (sys)
		jr_sysinfo(c, sys, r);
	thr = jr_obj(c, root, "", "thread", &bad);
	if (bad || !thr)
		return -1;
	cJSON_ArrayForEach(e, thr) {
		const char *k = e->string, *p = k;
		struct rep_series *s;
		double dur;
		bool pd;
		uint64_t id;
		char w[64];

		snprintf(w, sizeof(w), "thread.%.40s", k ? k : "?");
		if (!k || imp_count(&p, &id) || *p || id >= OS_MAXCPU ||
		    r->nthr >= OS_MAXCPU) {
			imp_error(c, 0, "'%s' is not a thread number", w);
			return -1;
		}
		s = run_add_thread(r, (int)id);
		if (jr_us_thread(c, e, w, NULL, 1000, s) ||
		    jr_double(c, e, w, "duration", 1e9, &dur, &pd))
			return -1;
		if (pd && dur >= 0 && (int64_t)dur > r->duration_ns)
			r->duration_ns = (int64_t)dur;
		if (s->hist.n) {
			last_is_overflow(&s->hist);
			s->samples = rep_hist_total(&s->hist);
			s->has_samples = true;
		}
	}
	return 0;
}

#endif /* HAVE_CJSON */

/* Numbers after the ':' of a text line, one per core, each read through
 * imp_figure() (oslat prints no negative figure) or imp_figure_count()
 * (@counts), named @what in a refusal. Returns how many, or -1 (said). */
static int os_values(struct imp_ctx *c, unsigned no, const char *what,
		     const char *p, int64_t unit, int64_t *v, int max,
		     bool counts)
{
	int n = 0, e;

	p = strchr(p, ':');
	if (!p)
		return 0;
	p++;
	for (;;) {
		p = skip_blank(p);
		if (!isdigit((unsigned char)*p) && *p != '-')
			break;
		if (n >= max)
			return n;
		if (counts) {
			uint64_t x;

			e = imp_figure_count(c, no, what, &p, &x);
			v[n] = (int64_t)x;
		} else {
			e = imp_figure(c, no, what, &p, unit, 0, &v[n]);
		}
		if (e)
			return e < 0 ? -1 : n;
		n++;
	}
	return n;
}

/* A bucket line ("N (us): COUNT COUNT ...") at line @no of @ncore
 * columns into the threads' histograms of @r (@v: scratch). Returns 0
 * (a line that does not fit is skipped, said), or -1 (said). */
static int bucket_line(struct imp_ctx *c, struct rep_run *r, unsigned no,
		       const char *p, int64_t *v, int ncore)
{
	const char *q = p;
	uint64_t bucket;
	int n, i;

	if (imp_count(&q, &bucket) || bucket >= REP_MAX_LINEAR_BUCKETS) {
		imp_warn(c, no, "unreadable bucket line skipped");
		return 0;
	}
	n = os_values(c, no, "bucket count", q, 1, v, OS_MAXCPU, true);
	if (n < 0)
		return -1;
	if (!ncore || n != ncore) {
		imp_warn(c, no, "bucket line with %d values for %d cores skipped",
			 n, ncore);
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct rep_hist *h = &r->thr[i].hist;
		int64_t lo = (int64_t)bucket * 1000;
		int e = hist_push(h, lo, lo + 999, (uint64_t)v[i]);

		h->layout = REP_HIST_LINEAR;
		h->width = 1000;
		h->quantized = true;
		if (e == -ERANGE) {
			imp_error(c, no, "bucket counts add up beyond range");
			return -1;
		}
		if (e) {
			imp_warn(c, no, "bucket out of order skipped");
			break;
		}
		h->nbuckets = bucket + 1;
	}
	return 0;
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct rep_run *r = imp_new_run(c, &imp_oslat, 1);
	int64_t *v = xcalloc(OS_MAXCPU, sizeof(*v));
	int64_t mn[OS_MAXCPU] = { 0 }, mx[OS_MAXCPU] = { 0 };
	double avg[OS_MAXCPU];
	bool have_min = false, have_max = false, have_avg = false;
	int ncore = 0, n, i, ret = 0;
	unsigned stats_line = 0;	/* the last of Minimum/Average/Maximum */
	struct lines l;
	char *line;

	r->tool = xstrdup("oslat");
	oslat_run_defaults(r);
	lines_init(&l, buf, len);
	while (!ret && (line = lines_next(&l))) {
		const char *p = skip_blank(line);

		if (starts_with(p, "oslat V")) {
			free(r->tool);
			r->tool = xasprintf("oslat %s", skip_blank(p + 7));
		} else if (starts_with(p, "Core:") || starts_with(p, "core_i:")) {
			/* "core_i:" is oslat v0.1.0's name of the row */
			if (*p == 'c')
				p += 5;
			n = os_values(c, l.no, "core", p, 1, v, OS_MAXCPU, true);
			if (n < 0) {
				ret = -1;
				break;
			}
			for (i = 0; i < n && !ncore; i++)
				run_add_thread(r, i)->cpu = (int)v[i];
			if (!ncore)
				ncore = n;
		} else if (isdigit((unsigned char)*p) && strstr(p, "(us):")) {
			if (bucket_line(c, r, l.no, p, v, ncore) < 0)
				ret = -1;
		} else if (starts_with(p, "Minimum:") || starts_with(p, "Maximum:") ||
			   starts_with(p, "Average:")) {
			int64_t *dst = p[1] == 'i' ? mn : p[1] == 'a' ? mx : v;

			n = os_values(c, l.no, p[1] == 'i' ? "Minimum" :
				      p[1] == 'a' ? "Maximum" : "Average", p,
				      1000, dst, OS_MAXCPU, false);
			if (n < 0) {
				ret = -1;
				break;
			}
			if (n != ncore) {
				imp_warn(c, l.no, "%d values for %d cores: line skipped",
					 n, ncore);
				continue;
			}
			stats_line = l.no;
			if (p[1] == 'i')
				have_min = true;
			else if (p[1] == 'a')
				have_max = true;
			else {
				for (i = 0; i < n; i++)
					avg[i] = (double)v[i];
				have_avg = true;
			}
		} else if (starts_with(p, "Duration:")) {
			const char *q = strchr(p, ':') + 1;
			int64_t d;

			if (!imp_num(&q, 1000000000, &d) && d >= 0)
				r->duration_ns = d;
		}
	}
	for (i = 0; !ret && i < ncore && i < (int)r->nthr; i++) {
		struct rep_series *s = &r->thr[i];

		last_is_overflow(&s->hist);
		if (s->hist.layout != REP_HIST_NONE) {
			s->samples = rep_hist_total(&s->hist);
			s->has_samples = true;
		}
		if (have_min && have_max && have_avg) {
			char w[32];

			snprintf(w, sizeof(w), "core %d", i);
			if (imp_check_stats(c, stats_line, w, mn[i], avg[i],
					    mx[i])) {
				ret = -1;
				break;
			}
			s->min = mn[i];
			s->max = mx[i];
			s->avg = avg[i];
			s->has_stats = true;
		}
	}
	free(v);
	if (!ret && !ncore) {
		imp_error(c, 0, "no \"Core:\" line: not oslat output");
		ret = -1;
	}
	return ret;
}

static int probe_text(const char *text)
{
	const char *v = strstr(text, "oslat V");

	if (v && (v == text || v[-1] == '\n' || v[-1] == ' '))
		return 95;
	if (strstr(text, "(us):") && strstr(text, "Maximum:") &&
	    (strstr(text, "Core:") || strstr(text, "core_i:")))
		return 85;
	return 0;
}

const struct importer imp_oslat = {
	.name = "oslat",
	.what = "oslat text output and --json files",
	.probe_text = probe_text,
	.parse_text = parse_text,
#ifdef HAVE_CJSON
	.probe_json = probe_json,
	.parse_json = parse_json,
#endif
};
