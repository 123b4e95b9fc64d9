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
 */
#include <stdio.h>
#include <string.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import.h"

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
		int64_t cnt, mn, mx;
		uint64_t id;
		double avg;
		bool p1, p2, p3, p4;
		char w[64];
		const cJSON *h;

		snprintf(w, sizeof(w), "cpu.%.40s", k ? k : "?");
		if (!k || imp_count(&p, &id) || *p || id > 100000 ||
		    !cJSON_IsObject(e) || r->nthr >= 4096) {
			imp_error(c, 0, "'%s' is not a CPU object", w);
			return -1;
		}
		s = run_add_thread(r, (int)r->nthr);
		s->cpu = (int)id;
		if (jr_int(c, e, w, "count", 1, 0, REP_MAX_VALUE, &cnt, &p1) ||
		    jr_int(c, e, w, "min", 1000, -REP_MAX_VALUE, REP_MAX_VALUE,
			   &mn, &p2) ||
		    jr_int(c, e, w, "max", 1000, -REP_MAX_VALUE, REP_MAX_VALUE,
			   &mx, &p3) ||
		    jr_double(c, e, w, "avg", 1000, &avg, &p4))
			return -1;
		s->has_samples = p1;
		s->samples = p1 ? (uint64_t)cnt : 0;
		if (p1 && cnt > 0 && p2 && p3 && p4) {
			if (mn > mx || avg < (double)mn - 1000 ||
			    avg > (double)mx + 1000) {
				imp_error(c, 0, "'%s': min <= avg <= max does not hold", w);
				return -1;
			}
			s->min = mn;
			s->max = mx;
			s->avg = avg;
			s->has_stats = true;
		}
		h = cJSON_GetObjectItemCaseSensitive(e, "histogram");
		if (h && cJSON_GetArraySize(h) > 0) {
			char hw[80];

			snprintf(hw, sizeof(hw), "%s.histogram", w);
			if (jr_us_histogram(c, h, hw, &s->hist))
				return -1;
			/* jitterdebugger's histogram ends at 1000 us */
			if (s->hist.nbuckets < 1000)
				s->hist.nbuckets = 1000;
			if (s->has_samples && s->hist.bucket_total <= s->samples)
				s->hist.overflow = s->samples - s->hist.bucket_total;
			else if (s->has_samples)
				imp_warn(c, 0, "'%s' holds more samples than count", hw);
		}
	}
	return 0;
}

const struct importer imp_jitterdebugger = {
	.name = "jitterdebugger",
	.what = "jitterdebugger results.json",
	.probe_json = probe,
	.parse_json = parse,
	.json = true,
};

#else

const struct importer imp_jitterdebugger = {
	.name = "jitterdebugger",
	.what = "jitterdebugger results.json (needs cJSON)",
	.json = true,
};

#endif
