/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The output formats of the host side's tables, one registry: each format
 * is one file (report/format_NAME.c) with one struct rep_format, and one
 * line in rep_formats[] (report/format.c). rtlat report, compare and db
 * list choose by the format, never by its name: they call its hooks.
 *
 * The others of the host side are files of their own, each with its
 * option (--html: report/render/html.c, compare's page cmp_html.c;
 * compare --gate --json: gate.c); the lab outputs of a run or a suite
 * (--lava, --junit, --kcidb: cmd/lab.c) are the measuring side's, from
 * headlines; the live metrics (--metrics) are OpenMetrics text
 * (metrics/metrics.c).
 */
#ifndef RTLAT_REPORT_FORMAT_H
#define RTLAT_REPORT_FORMAT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

/* the commands a format serves (rep_format.cmds) */
#define REP_FMT_REPORT	1u	/* rtlat report: the tables of the runs */
#define REP_FMT_COMPARE	2u	/* rtlat compare (and --gate): its tables */
#define REP_FMT_DB	4u	/* rtlat db list */

struct rep_format {
	const char *name;	/* "text", "markdown", "csv" */
	int key;		/* its option's key (--markdown's),
				 * 0: the default */
	unsigned cmds;		/* REP_FMT_* it serves */
	/* rtlat report: @rs as tables */
	void (*runs)(FILE *f, const struct rep_runs *rs,
		     const struct out_opts *o);
	/* rtlat compare: before its rows (@a, @b its sides, @gate: with
	 * verdicts), row @k (@lo: a note of what it leaves out, or NULL;
	 * @g: its verdicts, or NULL) and after them (@g: all @n verdicts
	 * of the @nref references, or NULL) */
	void (*cmp_begin)(FILE *f, const struct rep_runs *a,
			  const struct rep_runs *b, bool gate);
	void (*cmp_row)(FILE *f, size_t k, const struct cmp_row *row,
			const struct gate_row *g, const char *lo,
			const struct out_opts *o);
	void (*cmp_end)(FILE *f, const struct gate_row *g, size_t n,
			int nref);
	/* rtlat db list (and db baseline show): the runs one a line;
	 * NULL: the list's own text table */
	void (*list)(FILE *f, const struct rep_runs *rs,
		     const struct out_opts *o);
};

/* The formats, NULL-terminated; the first is the default. */
extern const struct rep_format *const rep_formats[];

/* The format of the option with key @key, or NULL. */
const struct rep_format *rep_format_of_key(int key);

/* For the formats: @rs grouped into tables (one per test kind, series and
 * load, report.h), each printed by @print, a blank line between them. */
void rep_format_tables(FILE *f, const struct rep_runs *rs,
		       const struct out_opts *o,
		       void (*print)(FILE *f, const struct rtable *t));
/* For the formats: compare's "what changed in the system" lines, each
 * starting with @prefix, and a blank line after them when there are any
 * (and both sides have runs). */
void rep_format_sysdiff(FILE *f, const struct rep_runs *a,
			const struct rep_runs *b, const char *prefix);

#endif
