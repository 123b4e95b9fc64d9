/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sub-commands of the rtlat multi-call binary. Each command is one file in
 * src/cmd/ that defines a struct rtlat_cmd; registry.c lists them.
 */
#ifndef RTLAT_CMD_H
#define RTLAT_CMD_H

#include <stdbool.h>

struct rtlat_cmd {
	const char *name;		/* "latency" */
	const char *summary;		/* one line for "rtlat --help" */
	/* argv[0] is the command name; returns the exit status */
	int (*main)(int argc, char **argv);
};

/* NULL-terminated list of commands, in help order. */
extern const struct rtlat_cmd *const rtlat_cmds[];

const struct rtlat_cmd *cmd_find(const char *name);

/* The process command line, as given (for result files). */
extern int rtlat_argc;
extern char **rtlat_argv;

#endif
