/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtlat suite, shared between the runner (suite.c) and the report and
 * index writers (suite_report.c).
 */
#ifndef RTLAT_SUITE_H
#define RTLAT_SUITE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/headline.h"
#include "cmd/lab.h"
#include "system/sysinfo.h"
#include "engine/rtthrottle.h"

#define SUITE_MAX_FWD 64		/* forwarded option words */
#define SUITE_MAX_TARGS 16		/* --test-args entries */

struct suite_run {
	int index;			/* 1-based */
	const struct rtlat_cmd *cmd;
	char load[64];			/* "none", "hell", "cpu+io", "cmd" */
	char base[160];			/* "01-latency-none": .json, .log */
	bool ran;
	int exit_status;		/* of the test process, -1 if none */
	int term_signal;		/* it was killed by this signal, or 0 */
	bool stopped_by_suite;		/* the suite passed the user's signal on */
	int stop_signal;		/* it was stopped by this signal (WUNTRACED):
					 * the suite killed it; or 0 */
	bool timed_out;			/* it ran far past its expected time: the
					 * suite killed it */
	int64_t expected_ns;		/* its warm-up + duration */
	int64_t limit_ns;		/* the time it was given (see run_limit()) */
	int leftovers;			/* processes it left behind, killed */
	int64_t elapsed_ns;		/* wall time of the process */
	int64_t wall_start_ns;		/* CLOCK_REALTIME it started, 0: not */
	struct headline hl;		/* hl.valid when it wrote one */
	char error[512];		/* "" or why the run failed */
};

/* One verdict of --gate, as a lab case (--lava, --junit). */
struct suite_gate_case {
	char id[200];		/* TEST-LOAD-SERIES-gate-METRIC */
	char test[32], load[64], series[32];	/* of its table (KCIDB path) */
	const char *result;	/* pass (same), fail (worse; cannot tell with
				 * --cannot-tell fail), skip (cannot tell,
				 * n/a) */
	char why[448];		/* "fail: worse by ..." */
	const char *units;	/* of the value compared: "us", "count";
				 * NULL: none (n/a) */
	char value[32];
};

struct suite {
	/* configuration */
	int64_t duration_ns;
	int64_t warmup_ns;		/* -1: the test's default (1 s) */
	int64_t max_latency_ns;		/* -1: none */
	const char *tests;		/* NULL: every suite test */
	const char *loads;		/* "none,hell" */
	const char *label;
	const char *label_given;	/* --label, or NULL */
	char label_buf[320];		/* the default label of a Cobalt build */
	const char *out;
	bool quiet;
	bool no_throttling;		/* --no-rt-throttling */
	struct rt_throttle_off thr_off;	/* what it changed */
	const char *fwd[SUITE_MAX_FWD];	/* load options for loaded runs */
	int nfwd;
	struct {
		const char *test;
		const char *args;
	} targs[SUITE_MAX_TARGS];
	int ntargs;
	bool sched_in_targs;		/* they set -P/--priority or --policy */
	bool lava;			/* --lava: LAVA test cases at the end */
	const char *junit;		/* --junit FILE, or NULL */
	bool gate;			/* --gate */
	const char *gate_baseline;	/* --baseline DIR|FILE */
	const char *gate_db;		/* --db FILE */
	const char *gate_margin;	/* --margin PCT, or NULL */
	const char *gate_metrics;	/* --gate-metrics LIST, or NULL */
	const char *gate_cannot_tell;	/* --cannot-tell pass|fail, or NULL */
	struct lab_opts kcidb;		/* --kcidb FILE, its origin and build */
	/* the tests' options taken as the suite's (suite_spec.forward: irq's
	 * --source, the suite's --irq-source), in the registry's order */
	const char *forward[SUITE_MAX_FORWARD];

	/* state */
	char exe[PATH_MAX];
	char outdir[PATH_MAX];
	struct sysdesc sys;
	struct check_report *check;	/* rtlat check before the runs
					 * (system/check.txt, check.json), or
					 * NULL */
	struct suite_run *runs;
	int nruns;
	int nloads;			/* load states per test */
	int64_t wall_start, wall_end;	/* CLOCK_REALTIME ns */
	bool interrupted;
	int interrupt_signal;		/* the signal that interrupted it */
	bool threshold_exceeded;
	bool max_latency_hit;		/* ... by --max-latency (else --test-args') */
	int exit_code;
	char snapshot[16][32];		/* files written under system/ */
	int nsnapshot;
	void *gate_state;		/* suite_gate.c's */
	const char *gate_verdict;	/* pass, fail, refused, error,
					 * interrupted (not made); NULL: no
					 * gate */
	char *gate_text;		/* the verdicts, for stdout and
					 * report.txt */
	struct suite_gate_case *gate_cases;
	int ngate_cases;
	char exit_why[512];		/* why the exit status is 1 besides
					 * failed runs (the gate, --db), "" */
	char **owned;			/* strings the options point into */
	int nowned;
};

/* --gate (suite_gate.c): read the baseline before the runs (0, or -1
 * after an error message); after them, gate the fresh runs: the verdicts
 * into gate_text, gate_cases and OUT/gate.json, gate_verdict set. Returns
 * 0, or -1 when the gate could not be made (refused tables, no baseline
 * of the board: said). */
int suite_gate_prepare(struct suite *s);
/* Once the runs are known, before the first: does the baseline have this
 * board (with --db) and every test and load state the suite will gate?
 * 0, or -1 after an error message naming what is missing. */
int suite_gate_check(const struct suite *s);
int suite_gate_run(struct suite *s);
void suite_gate_free(struct suite *s);

/* --db FILE|URL (suite_gate.c): first, is it a history's name and is the
 * host side built in (without it linked: rtlat-host runs the suite in this
 * process's place); once the outputs are checked against it, before the
 * runs, the history reachable and writable (each 0, or -1 after an error
 * message);
 * after them, store the fresh runs in the history (created if needed, one
 * transaction): 0, or -1 after an error message. */
int suite_db_name(const struct suite *s);
int suite_db_check(const struct suite *s);
int suite_db_store(struct suite *s);

/* Print the report (board header, one table per test and load state, the
 * loads achieved, notes) to @f. */
void suite_report(const struct suite *s, FILE *f);

/* --lava: each run's figures as LAVA test cases (suite_lava.c): through
 * lava-test-case when it is on PATH, else as <LAVA_SIGNAL_TESTCASE ...>
 * lines on @f. Returns 0, or -1 when lava-test-case failed (said). */
int suite_lava(const struct suite *s, FILE *f);

/* --junit: the same cases as JUnit XML in @path (atomically). Returns 0 or
 * -1 (said). */
int suite_junit(const struct suite *s, const char *path);

/* --kcidb: the same cases as a KCIDB I/O document in s->kcidb.kcidb
 * (atomically). Returns 0 or -1 (said). */
int suite_kcidb(const struct suite *s);

/* Write OUT/suite.json atomically with @status. Returns 0 or -1 with a
 * message. */
int suite_json_write(const struct suite *s, const char *status, char *err,
		     size_t errlen);

/* Series @se, one --max-latency applies to, exceeded @max_ns (>= 0; -1:
 * no threshold). */
static inline bool suite_over_threshold(const struct hl_series *se,
					int64_t max_ns)
{
	return max_ns >= 0 && se->threshold && se->has_stats &&
	       se->max_ns > max_ns;
}

/* "without load" / "with load (hell)" */
const char *suite_load_title(const char *load, char *buf, size_t len);

/* Why the suite exits 2: "a run exceeded --max-latency", or a threshold
 * of --test-args. */
const char *suite_exit2_reason(const struct suite *s);
/* Why an interrupted suite exits with status 1: "the suite was
 * interrupted by signal 15 (Terminated): 1 of 2 runs not run" (a static
 * buffer). */
const char *suite_interrupted_reason(const struct suite *s);

/* Is the gate's baseline read from the history (--gate --db without
 * --baseline)? Else --db only stores the runs. */
static inline bool suite_gate_from_db(const struct suite *s)
{
	return s->gate && s->gate_db && !s->gate_baseline;
}

#endif
