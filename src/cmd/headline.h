/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reader of the headline figures a test writes with --headline-fd
 * (result_headline(); format in docs/suite.md): "key value" lines between
 * "rtlat-headline 1" and "end". rtlat suite reads its runs with it, so that
 * the on-target binary needs no JSON parser.
 */
#ifndef RTLAT_HEADLINE_H
#define RTLAT_HEADLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "loads/load.h"

#define HL_MAX_SERIES 4
#define HL_MAX_LOADS 16
#define HL_MAX_WARNINGS 8
#define HL_MAX_PARAMS 8

struct hl_series {
	char name[32];			/* "latency" */
	char miss_name[16];		/* "overruns", "lost" */
	uint64_t samples, misses;
	bool threshold;			/* --max-latency applies (default) */
	bool has_stats;			/* samples > 0: min, avg, max valid */
	int64_t min_ns, max_ns;
	double avg_ns;
	bool has_p999;
	int64_t p999_ns;
};

/* A "param.NAME VALUE" line: a figure of the run that is not a series
 * (fig_headline()); NAME carries the unit ("calibrated_ns"). */
struct hl_param {
	char name[32];
	char value[64];
};

#define HL_MAX_SAMPLERS 64

/* One sampler's figures ("sampler.I.cpu", "sampler.I.NAME.FIELD"). */
struct hl_sampler {
	int cpu;			/* -1: not pinned or not told */
	int nseries;
	struct hl_series series[HL_MAX_SERIES];
};

struct headline {
	bool valid;			/* the first line was "rtlat-headline 1" */
	bool complete;			/* "end" was read */
	char test[32];
	char status[16];		/* complete, interrupted, break, error */
	int stop_signal;		/* interrupted by this signal, or 0 */
	int exit_status;
	int64_t duration_ns;
	bool threshold_exceeded;
	char policy[8];			/* weakest scheduling in force */
	int priority;
	int64_t period_ns;		/* 0: none (back to back) or not told */
	char cpus[64];			/* the samplers' CPUs ("0-1"), "" */
	int nsamplers;			/* those that measure */
	struct hl_sampler samplers[HL_MAX_SAMPLERS];
	int nseries;
	struct hl_series series[HL_MAX_SERIES];
	int nparams;
	struct hl_param params[HL_MAX_PARAMS];
	int nloads;
	struct load_result loads[HL_MAX_LOADS];	/* what each load achieved */
	int nwarnings;
	char warnings[HL_MAX_WARNINGS][320];
	char error[256];
};

/* Parse @text. Returns 0, or -1 when it is not a headline. Unknown keys
 * are ignored (later versions may add some). */
int headline_parse(struct headline *h, const char *text);

/* Series @name, or the first one for NULL; NULL if absent. */
const struct hl_series *headline_series(const struct headline *h,
					const char *name);

/* The value of param @name, or NULL if absent. */
const char *headline_param(const struct headline *h, const char *name);

#endif
