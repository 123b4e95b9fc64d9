/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sub-commands of the rtlat multi-call binary. Each command is one file in
 * src/cmd/ that defines a struct rtlat_cmd; registry.c lists them.
 */
#ifndef RTLAT_CMD_H
#define RTLAT_CMD_H

#include <stdbool.h>

#include "core/opt.h"

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
	/* measures (or runs measurements): SIGINT, SIGTERM, SIGHUP, SIGUSR1
	 * and SIGUSR2 stay blocked from before main() (main.c), for
	 * the command to take with sigtimedwait() (a signal during start-up
	 * then ends the run cleanly instead of killing it); the other
	 * commands get them back at their default action */
	bool measures;
};

/* NULL-terminated list of commands, in help order. */
extern const struct rtlat_cmd *const rtlat_cmds[];

const struct rtlat_cmd *cmd_find(const char *name);

/*
 * The main of a test command: parse @argv with @tables - each option goes
 * to @h (with @ctx) first; those it does not take (it returns 1) to the
 * shared engine options in @o - reject stray arguments and run @t with
 * @o. @h may be NULL. Returns the exit status (0, 1 or 2).
 */
int cmd_run_test(int argc, char **argv, const struct optdesc *const *tables,
		 opt_handler h, void *ctx, struct engine_opts *o,
		 const char *usage, const char *about,
		 const struct test_desc *t);

/* --root DIR (sysinfo, check): a directory rtlat can read; otherwise
 * reports it naming the option (@d) and returns -1. */
int cmd_root_check(const struct optdesc *d, const char *dir);

/* Warn on stderr when @root (not "/") holds neither proc/ nor sys/:
 * nothing to @what ("describe"). */
void cmd_root_note(const char *root, const char *what);

/* The process command line, as given (for result files). */
extern int rtlat_argc;
extern char **rtlat_argv;

#endif
