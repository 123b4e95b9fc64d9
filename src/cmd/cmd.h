/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sub-commands of the rtlat multi-call binary. Each command is one file in
 * src/cmd/ that defines a struct rtlat_cmd; each test is one file in
 * src/measure/ that defines a struct test_desc (engine/engine.h), run by
 * cmd_test_main(). registry.c lists them.
 */
#ifndef RTLAT_CMD_H
#define RTLAT_CMD_H

#include <stdbool.h>

#include "engine/engine.h"
#include "util/opt.h"

struct companion;
struct engine_opts;
struct test_desc;

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
	/* a test: name, summary and suite come from it, main() is
	 * cmd_test_main() */
	const struct test_desc *test;
};

/* The registry's test commands take their name, summary and suite from
 * their descriptor: call once before rtlat_cmds is read. */
void cmd_registry_init(void);

/* The generic main of a test (test_desc): defaults, option tables with
 * the companions', the test's options into its private state, the run.
 * Returns the exit status (0, 1 or 2). */
int cmd_test_main(const struct test_desc *t, int argc, char **argv);

/* The option tables of test @t as its command line takes them: its own,
 * then the companions' it takes; at most @max, NULL-terminated (@all has
 * @max + 1 entries). Returns how many. */
#define CMD_MAX_TABLES 16
int cmd_test_tables(const struct test_desc *t, const struct optdesc **all,
		    int max);

/* "latency" (a link) and "rtlat latency --xenomai": Xenomai 3's latency
 * command line (@argv after the command name or the option) turned into
 * rtlat latency's, run by cmd_test_main() of @c's test with Xenomai's
 * output layouts. Returns the exit status (0, 1 or 2). */
int xeno_cli_main(const struct rtlat_cmd *c, int argc, char **argv);

/* NULL-terminated list of commands, in help order. */
extern const struct rtlat_cmd *rtlat_cmds[];

const struct rtlat_cmd *cmd_find(const char *name);


/*
 * The companions of a test run (the trace, the loads; engine.h) into @comp,
 * which has room for @max: returns how many, or -1 (out of memory,
 * reported). cmd_companions_free() releases them after the run.
 */
int cmd_companions_init(struct companion *comp, int max);
void cmd_companions_free(struct companion *comp, int n);

/* The rtlat suite table of test @test (its columns, units, what a sample
 * is), or NULL when it is none or has none: the report's tables and
 * comparisons of its runs (out_opts.spec_of, cmp_set_spec_of()). */
const struct suite_spec *cmd_spec_of(const char *test);

/* The names of the load generators, NULL-terminated (for the report's
 * "hell"; import_set_load_names()). */
const char *const *cmd_load_names(void);

/* --root DIR (sysinfo, check): a directory rtlat can read; otherwise
 * reports it naming the option (@d) and returns -1. */
int cmd_root_check(const struct optdesc *d, const char *dir);

/* Whether @root (not "/") holds neither proc/ nor sys/. */
bool cmd_root_empty(const char *root);

/* Warn on stderr when @root (not "/") holds neither proc/ nor sys/:
 * nothing to @what ("describe"). */
void cmd_root_note(const char *root, const char *what);

/*
 * main() of report, compare and db in an rtlat without the host side
 * linked in: runs rtlat-host in its place (engine/helper.h), or says that
 * the host side is not built in (HOST_FEATURES=0). Returns 1 (error).
 */
int cmd_host_main(int argc, char **argv);

/*
 * The same for an option of a command that needs the host side (suite
 * --gate, --db: @what): runs rtlat-host with this process's command line
 * in its place before anything is set up. Returns -1 (said) if it cannot.
 */
int cmd_host_exec(const char *what);

/* The process command line, as given (for result files). */
extern int rtlat_argc;
extern char **rtlat_argv;

#endif
