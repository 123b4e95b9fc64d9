/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option tables: one descriptor per option drives both getopt_long() and the
 * generated --help text, so the two never disagree.
 */
#ifndef RTLAT_OPT_H
#define RTLAT_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/optkey.h"

struct optdesc {
	const char *lng;	/* long name without "--", or NULL */
	int shrt;		/* short option character, or 0 */
	int has_arg;		/* no_argument, required_argument, optional_argument */
	const char *metavar;	/* "US" in "-p, --period=US" */
	const char *help;	/* one line; may contain "\n" for more */
	int key;		/* passed to the handler: shrt, or a value >= 256 */
};

#define OPT_END { NULL, 0, 0, NULL, NULL, 0 }

/* A help text replacing an option's in a copy of a table (opt_table_help). */
struct opt_help {
	int key;		/* the option's key; 0 ends a list */
	const char *help;
};

/*
 * Copy the option table @src (up to OPT_END) into @dst, which has room for
 * @cap entries, replacing the help text of each option of @over: for a
 * command where a shared option means something more precise (-c of a
 * two-thread test). Returns @dst, or @src unchanged when it does not fit.
 */
const struct optdesc *opt_table_help(struct optdesc *dst, size_t cap,
				     const struct optdesc *src,
				     const struct opt_help *over);

/* Handler for one parsed option; returns 0 or -1 after reporting an error. */
typedef int (*opt_handler)(void *ctx, const struct optdesc *d,
			   const char *arg);

/*
 * Parse @argv against the NULL-terminated list of option tables @tables.
 * Unknown options and missing arguments are reported (naming the option and
 * pointing at --help). "--help" prints help (usage, @about, tables) and makes
 * the function return 1. Returns 0 on success, 1 after --help, -1 on error.
 * On success *@first_arg is the index of the first non-option argument.
 */
int opt_parse(int argc, char **argv, const struct optdesc *const *tables,
	      opt_handler h, void *ctx, const char *usage, const char *about,
	      int *first_arg);

/* opt_parse() for a command that takes options only: a left-over argument
 * is reported as an error. Returns 0, 1 after --help, -1 on error. */
int opt_parse_options(int argc, char **argv,
		      const struct optdesc *const *tables, opt_handler h,
		      void *ctx, const char *usage, const char *about);

/* Print the help text of @tables. */
void opt_print_help(FILE *f, const char *usage, const char *about,
		    const struct optdesc *const *tables);

/* True once a help text went to stdout (a failed write of it is then named
 * as the help's, not the results'). */
bool opt_help_on_stdout(void);

/* "-p/--period" for messages. Returns a static buffer. */
const char *opt_spelling(const struct optdesc *d);

/* Report "invalid value 'ARG' for OPT: EXPECTED" and return -1. */
int opt_bad_value(const struct optdesc *d, const char *arg,
		  const char *expected);

#endif
