/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where rtlat's own threads run: the main thread, the display thread
 * (which also reads --trace's events), and the load guards (--load-cmd),
 * everything that is not a sampler. The policy (--housekeeping):
 *
 *   auto      (default) on the CPUs rtlat may use that no sampler is pinned
 *             to (housekeeping CPUs) when there are any; otherwise on the
 *             measured CPUs, as cyclictest -a does (it restricts its main
 *             thread to the -a set before starting its threads)
 *   measured  on the samplers' CPUs, always (cyclictest -a)
 *   any       wherever rtlat may run, not restricted (cyclictest without -a)
 *   LIST      on these CPUs (cyclictest --mainaffinity)
 *
 * A sampler not pinned to one CPU keeps the affinity rtlat started with.
 * The load workers are not rtlat's own threads: they keep it too.
 */
#ifndef RTLAT_HOUSEKEEPING_H
#define RTLAT_HOUSEKEEPING_H

#include <stdbool.h>
#include <stddef.h>

#include "system/cpulist.h"

enum hk_policy { HK_AUTO, HK_MEASURED, HK_ANY, HK_LIST };

struct housekeeping {
	enum hk_policy policy;
	struct cpuset list;		/* HK_LIST: as given */
	/* from hk_plan() */
	struct cpuset orig;		/* the affinity rtlat started with */
	struct cpuset cpus;		/* where its own threads run */
	bool restricted;		/* cpus differs from orig */
	const char *why;		/* "not measured", ... */
};

/* "auto", "measured", "any" or a CPU list into @h. Returns 0, or -1 with
 * what is allowed in @err. */
int hk_parse(struct housekeeping *h, const char *arg, char *err, size_t len);

/* Name of the policy ("auto", "measured", "any", "list"). */
const char *hk_policy_name(enum hk_policy p);

/*
 * Decide where the threads go from the CPUs the samplers are pinned to
 * (@measured; @unpinned: a sampler may run anywhere). Returns 0, or -1
 * with a message (a LIST with no CPU rtlat may use).
 */
int hk_plan(struct housekeeping *h, const struct cpuset *measured,
	    bool unpinned, char *err, size_t len);

/* Move the calling thread onto the planned CPUs (threads it creates
 * later inherit them). Returns 0 or -errno. */
int hk_apply(const struct housekeeping *h);

/* Give the calling thread (a sampler not pinned to one CPU) the affinity
 * rtlat started with. Returns 0 or -errno. */
int hk_restore(const struct housekeeping *h);

struct jw;

/* "@key": {"policy": "auto", "cpus": "0", "why": "auto: not measured"},
 * or null before hk_plan(). */
void hk_json(struct jw *w, const char *key, const struct housekeeping *h);

/* "CPU 0 (auto: not measured)" into @buf. */
char *hk_describe(const struct housekeeping *h, char *buf, size_t len);

#endif
