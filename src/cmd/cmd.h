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

struct rtlat_cmd {
	const char *name;		/* "latency" */
	const char *summary;		/* one line for "rtlat --help" */
	/* argv[0] is the command name; returns the exit status */
	int (*main)(int argc, char **argv);
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

/* The process command line, as given (for result files). */
extern int rtlat_argc;
extern char **rtlat_argv;

#endif
