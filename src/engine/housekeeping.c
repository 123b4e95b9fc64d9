// SPDX-License-Identifier: GPL-2.0-or-later
/* Where rtlat's non-sampling threads run (housekeeping.h). */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "engine/housekeeping.h"
#include "util/jsonw.h"
#include "system/rtsetup.h"

int hk_parse(struct housekeeping *h, const char *arg, char *err, size_t len)
{
	char why[128];

	if (!strcmp(arg, "auto"))
		h->policy = HK_AUTO;
	else if (!strcmp(arg, "measured"))
		h->policy = HK_MEASURED;
	else if (!strcmp(arg, "any"))
		h->policy = HK_ANY;
	else if (cpulist_parse(arg, &h->list, why, sizeof(why)) == 0)
		h->policy = HK_LIST;
	else {
		snprintf(err, len, "expected auto, measured, any or a CPU list such as 0 or 0,2-3 (%s)",
			 why);
		return -1;
	}
	return 0;
}

const char *hk_policy_name(enum hk_policy p)
{
	switch (p) {
	case HK_AUTO:
		return "auto";
	case HK_MEASURED:
		return "measured";
	case HK_ANY:
		return "any";
	case HK_LIST:
		return "list";
	}
	return "?";
}

static void cpuset_and(struct cpuset *d, const struct cpuset *a,
		       const struct cpuset *b)
{
	struct cpuset t;	/* @d may be @a or @b */
	int c;

	cpuset_zero(&t);
	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(a, c) && cpuset_isset(b, c))
			cpuset_set(&t, c);
	*d = t;
}

static bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return !memcmp(a, b, sizeof(*a));
}

int hk_plan(struct housekeeping *h, const struct cpuset *measured,
	    bool unpinned, char *err, size_t len)
{
	struct cpuset online, rest;
	char buf[128], may[128];
	int c;

	if (cpus_allowed(&h->orig) < 0 || !cpuset_count(&h->orig))
		cpus_online(&h->orig);
	cpus_online(&online);
	cpuset_and(&h->orig, &h->orig, &online);
	h->cpus = h->orig;
	cpuset_zero(&rest);
	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(&h->orig, c) && !cpuset_isset(measured, c))
			cpuset_set(&rest, c);
	switch (h->policy) {
	case HK_ANY:
		h->why = "any: not restricted";
		break;
	case HK_LIST:
		cpuset_and(&h->cpus, &h->list, &h->orig);
		if (!cpuset_count(&h->cpus)) {
			snprintf(err, len, "--housekeeping %s: no CPU rtlat may use (it may use %s)",
				 cpulist_format(&h->list, buf, sizeof(buf)),
				 cpulist_format(&h->orig, may, sizeof(may)));
			return -1;
		}
		h->why = "as given";
		break;
	case HK_MEASURED:
		if (!unpinned)
			cpuset_and(&h->cpus, measured, &h->orig);
		h->why = unpinned ? "measured: every CPU" : "measured";
		break;
	case HK_AUTO:
		if (!unpinned && cpuset_count(&rest)) {
			h->cpus = rest;
			h->why = "auto: not measured";
		} else if (!unpinned) {
			cpuset_and(&h->cpus, measured, &h->orig);
			h->why = "auto: every CPU is measured";
		} else {
			h->why = "auto: a sampler may run on every CPU";
		}
		break;
	}
	if (!cpuset_count(&h->cpus))
		h->cpus = h->orig;
	h->restricted = !cpuset_equal(&h->cpus, &h->orig);
	return 0;
}

static int set_affinity(const struct cpuset *s)
{
	cpu_set_t cs;
	int c;

	CPU_ZERO(&cs);
	for (c = 0; c < RTLAT_MAX_CPUS && c < CPU_SETSIZE; c++)
		if (cpuset_isset(s, c))
			CPU_SET(c, &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs) < 0)
		return -errno;
	return 0;
}

int hk_apply(const struct housekeeping *h)
{
	return h->restricted ? set_affinity(&h->cpus) : 0;
}

int hk_restore(const struct housekeeping *h)
{
	return h->restricted ? set_affinity(&h->orig) : 0;
}

char *hk_describe(const struct housekeeping *h, char *buf, size_t len)
{
	char cpus[128];

	snprintf(buf, len, "CPU %s (%s)",
		 cpulist_format(&h->cpus, cpus, sizeof(cpus)), h->why);
	return buf;
}

void hk_json(struct jw *w, const char *key, const struct housekeeping *h)
{
	char cpus[128];

	if (!h->why) {
		jw_null(w, key);
		return;
	}
	jw_obj_begin(w, key);
	jw_str(w, "policy", hk_policy_name(h->policy));
	jw_str(w, "cpus", cpulist_format(&h->cpus, cpus, sizeof(cpus)));
	jw_str(w, "why", h->why);
	jw_obj_end(w);
}
