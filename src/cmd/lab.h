/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Results for board farms and CI (lab.c): LAVA test cases (--lava), JUnit
 * XML (--junit FILE), KCIDB JSON (--kcidb FILE), from runs' headlines (cmd/headline.h), for rtlat
 * suite (suite_lava.c) and for a single test (cmd.c). The test cases are
 * described in docs/suite.md, "Lab output".
 */
#ifndef RTLAT_LAB_H
#define RTLAT_LAB_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/headline.h"
#include "util/opt.h"

/* One test case. */
struct lab_case {
	char id[160];
	const char *result;	/* "pass", "fail", "skip" */
	bool has_value;
	char value[32];		/* "24.474" (us) or "3" (count) */
	char units[24];		/* "us", "count", a load's "ops/s" */
	char why[512];		/* failure or skip reason, "" */
	/* its KCIDB status: PASS, FAIL, SKIP, ERROR (the run did not
	 * complete, a load failed) or DONE (a measurement not judged) */
	const char *status;
	/* what it is, for KCIDB: run (NULL), or the figure's parts */
	const char *series;	/* "latency", or NULL for a load's case */
	char what[48];		/* "max", "cpu1-max", "load-cpu" */
	char gseries[96];	/* storage of series for a case made
				 * elsewhere (the suite's --gate) */
	/* the test and load of its table when not those of the run it
	 * follows (the suite's --gate: KCIDB path rtlat.TEST.LOAD...), "" */
	char gtest[32], gload[64];
};

/* @src as a case id (only [A-Za-z0-9_.-]) into @dst. */
void lab_case_id(char *dst, size_t len, const char *src);

/* A run as the lab outputs see it. */
struct lab_run {
	const char *name;		/* "latency-none": the ids start with it */
	const char *test;		/* "latency" */
	const struct headline *h;	/* its figures (h->valid: it wrote them) */
	bool ran;			/* false: not run (a skipped case) */
	const char *error;		/* why it failed, or "" */
	int64_t max_latency_ns;		/* the --max-latency it ran with, -1 */
	const char *load;		/* its load state: "none", "cpu+io" */
	int64_t wall_start;		/* CLOCK_REALTIME ns it started, 0: not
					 * known */
	/* cases that follow the run's own (the suite's --gate verdicts,
	 * after its last run), or NULL */
	const struct lab_case *extra;
	int nextra;
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

/* Where KCIDB test objects come from (--kcidb-origin, --kcidb-build) and
 * the environment they ran in. */
struct lab_kcidb {
	const char *origin;		/* "rtlat" ([a-z0-9_]+) */
	const char *build_id;		/* "ORIGIN:...", NULL: ORIGIN:KERNEL */
	const char *host, *board, *kernel;
	int64_t started;		/* CLOCK_REALTIME ns the suite or test
					 * started: with the host and the
					 * path, it makes the ids unique */
};

/* --kcidb: the cases of @n runs as a KCIDB I/O document (schema v5.3:
 * "version" and "tests") in @path (atomically); docs/suite.md. Returns 0
 * or -1 (said). */
int lab_kcidb(const struct lab_run *runs, int n, const char *path,
	      const struct lab_kcidb *k);

/* --kcidb-origin NAME: a KCIDB origin ([a-z0-9_]+)? --kcidb-build ID:
 * ORIGIN:anything? */
bool lab_kcidb_origin_ok(const char *s);
bool lab_kcidb_build_ok(const char *s);

/* Keys of the lab options (lab_opt()). */

/* The option descriptors of --kcidb, --kcidb-origin and --kcidb-build
 * with the keys @f, @o, @b (the suite's table and the tests'). */
#define LAB_KCIDB_OPTDESCS(f, o, b)					\
	{ "kcidb", 0, required_argument, "FILE",			\
	  "write the same test cases as a KCIDB I/O document\n"	\
	  "(schema v5.3: tests with status and number) to FILE", f },	\
	{ "kcidb-origin", 0, required_argument, "NAME",			\
	  "KCIDB origin of the tests (default rtlat)", o },		\
	{ "kcidb-build", 0, required_argument, "ID",			\
	  "KCIDB build id of the tested kernel (default\n"		\
	  "ORIGIN:KERNEL-RELEASE)", b }

/* The lab options of a single test (--lava, --junit, --kcidb), their
 * state and handler: 0, -1 after an error (reported), 1 when not one of
 * them. */
struct lab_opts {
	bool lava;
	const char *junit;
	const char *kcidb;
	const char *kcidb_origin;	/* NULL: "rtlat" */
	const char *kcidb_build;	/* NULL: ORIGIN:KERNEL-RELEASE */
};
extern const struct optdesc lab_optdescs[];
int lab_opt(struct lab_opts *l, const struct optdesc *d, const char *arg);

#endif
