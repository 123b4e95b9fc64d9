/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sub-commands of the rtlat multi-call binary. Each command is one file in
 * src/cmd/ that defines a struct rtlat_cmd; registry.c lists them.
 */
#ifndef RTLAT_CMD_H
#define RTLAT_CMD_H

#include <stdbool.h>

#include "core/opt.h"

struct companion;
struct engine_opts;
struct test_desc;

/* What a column of a suite table shows, from a run's headline. */
enum suite_stat {
	SUITE_MIN,		/* min of the series, us */
	SUITE_AVG,		/* mean, us */
	SUITE_MAX,		/* max, us */
	SUITE_MISSES,		/* overruns / lost, a count */
	SUITE_P999,		/* 99.9th percentile, us */
	SUITE_TIME,		/* measured time, hh:mm:ss */
	SUITE_PARAM,		/* a param of the headline (test_desc.params):
				 * NAME_ns in us, anything else as written */
	SUITE_END,		/* ends a column list */
};

struct suite_col {
	const char *head;	/* "lat min"; NULL for SUITE_MISSES: the
				 * series' miss name ("overrun", "lost") */
	const char *name;	/* series name (NULL = the test's first), or
				 * for SUITE_PARAM the param's: "calibrated_ns" */
	enum suite_stat stat;
};

/*
 * How a test joins "rtlat suite": a command with a non-NULL .suite is in
 * the default matrix. The minimum is a title:
 *
 *   .suite = &(const struct suite_spec){ .title = "SWITCH" },
 */
struct suite_spec {
	const char *title;		/* table title: "LATENCY" */
	/* units of the table, after the title; NULL: "latencies in us" */
	const char *units;
	/* extra arguments of every suite run, NULL-terminated (may be NULL) */
	const char *const *args;
	/* table columns up to one with .stat = SUITE_END; NULL: lat min |
	 * lat avg | lat max | overrun (or lost) | p99.9 | test-time of the
	 * first series */
	const struct suite_col *cols;
	/* miss name of its series (series_desc.miss_name, "lost"): header of
	 * a SUITE_MISSES column when no run's headline gives it (not run,
	 * failed); NULL: "overruns" */
	const char *miss_name;
};

struct rtlat_cmd {
	const char *name;		/* "latency" */
	const char *summary;		/* one line for "rtlat --help" */
	/* argv[0] is the command name; returns the exit status */
	int (*main)(int argc, char **argv);
	const struct suite_spec *suite;	/* in rtlat suite (NULL: not) */
};

/* NULL-terminated list of commands, in help order. */
extern const struct rtlat_cmd *const rtlat_cmds[];

const struct rtlat_cmd *cmd_find(const char *name);

/*
 * The main of a test command: parse @argv with @tables and the options of
 * the run's companions - each option goes to @h (with @ctx) first; those it
 * does not take (it returns 1) to the shared engine options in @o, then to
 * the companions - reject stray arguments and run @t with @o. @h may be
 * NULL. Returns the exit status (0, 1 or 2).
 */
int cmd_run_test(int argc, char **argv, const struct optdesc *const *tables,
		 opt_handler h, void *ctx, struct engine_opts *o,
		 const char *usage, const char *about,
		 const struct test_desc *t);

/*
 * The companions of a test run (the trace, the loads; engine.h) into @comp,
 * which has room for @max: returns how many, or -1 (out of memory,
 * reported). cmd_companions_free() releases them after the run.
 */
int cmd_companions_init(struct companion *comp, int max);
void cmd_companions_free(struct companion *comp, int n);

/* Run @t with @o and the companions @comp, writing the result files.
 * Returns the exit status (0, 1 or 2). */
int cmd_run(const struct test_desc *t, struct engine_opts *o,
	    struct companion *comp, int ncomp);

/* The process command line, as given (for result files). */
extern int rtlat_argc;
extern char **rtlat_argv;

#endif
