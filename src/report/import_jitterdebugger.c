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
