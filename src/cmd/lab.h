/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results for board farms and CI (lab.c): LAVA test cases (--lava), JUnit
 * XML (--junit FILE), from runs' headlines (cmd/headline.h), for rtlat
 * suite (suite_lava.c) and for a single test (cmd.c). The test cases are
 * described in docs/suite.md, "Lab output".
 */
#ifndef RTLAT_LAB_H
#define RTLAT_LAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/headline.h"
#include "core/opt.h"

/* A run as the lab outputs see it. */
struct lab_run {
	const char *name;		/* "latency-none": the ids start with it */
	const char *test;		/* "latency" */
	const struct headline *h;	/* its figures (h->valid: it wrote them) */
	bool ran;			/* false: not run (a skipped case) */
	const char *error;		/* why it failed, or "" */
	int64_t max_latency_ns;		/* the --max-latency it ran with, -1 */
};

/* One test case. */
struct lab_case {
	char id[160];
	const char *result;	/* "pass", "fail", "skip" */
	bool has_value;
	char value[32];		/* "24.474" (us) or "3" (count) */
	char units[24];		/* "us", "count", a load's "ops/s" */
	char why[256];		/* failure or skip reason, "" */
	/* what it is, for KCIDB: run (NULL), or the figure's parts */
	const char *series;	/* "latency", or NULL for a load's case */
	char what[48];		/* "max", "cpu1-max", "load-cpu" */
};

typedef void (*lab_case_fn)(void *ctx, const struct lab_case *c);

/* The cases of @r, in order, to @fn. */
void lab_run_cases(const struct lab_run *r, lab_case_fn fn, void *ctx);

/* --lava: the cases of @n runs through lava-test-case when it is on PATH,
 * else as <LAVA_SIGNAL_TESTCASE ...> lines on @f. Returns 0, or -1 when
 * lava-test-case failed (said). */
int lab_lava(const struct lab_run *runs, int n, FILE *f);

/* --junit: the cases of @n runs as JUnit XML in @path (atomically): a
 * <testsuite> @suite (its cases' classname @classname) of the run from
 * @wall_start to @wall_end (CLOCK_REALTIME ns). Returns 0 or -1 (said). */
int lab_junit(const struct lab_run *runs, int n, const char *path,
	      const char *suite, const char *classname, int64_t wall_start,
	      int64_t wall_end);

/* The lab options of a single test (--lava, --junit), their state and
 * handler: 0, -1 after an error (reported), 1 when not one of them. */
struct lab_opts {
	bool lava;
	const char *junit;
};
extern const struct optdesc lab_optdescs[];
int lab_opt(struct lab_opts *l, const struct optdesc *d, const char *arg);

#endif
