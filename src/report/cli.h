/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Options shared by rtlat report, compare and db: input (format, unit,
 * overrides, database), filters and output style. One handler serves the
 * tables, so the commands spell and check them alike.
 */
#ifndef RTLAT_REPORT_CLI_H
#define RTLAT_REPORT_CLI_H

#include "util/opt.h"
#include "report/import/import.h"
#include "report/format.h"
#include "report/report.h"

struct rep_cli {
	struct imp_opts imp;
	struct filter flt;
	struct out_opts out;
	const struct rep_format *fmt;	/* --markdown, --csv (format.h) */
	unsigned cmd;		/* the command: REP_FMT_REPORT, ... (0: any) */
	const char *db;		/* --db FILE */
	const char *html;	/* --html FILE */
	char since[24], until[24];	/* --since, --until as checked */
	long limit;		/* --limit: the latest N runs of the history */
	bool runs;		/* --runs: the runs, not the summary */
	bool summary;		/* --summary: the summary, however few runs */
};

/*
 * Check a date filter in place: an ISO 8601 prefix (2026, 2026-11,
 * 2026-11-01, ...T12, ...T12:00, ...T12:00:00) of a real date and time; a
 * blank between date and time becomes 'T'. Returns NULL, or what is wrong.
 */
const char *rep_date_check(char *s);

/*
 * A selector "label=*1.0-00,load=none" (KEY=GLOB[,KEY=GLOB], KEY one of
 * label, board, kernel, test, load, since, until; baseline=yes|no) into
 * @f; the strings point into @spec, which is cut up. Returns 0, or -1
 * after an error message.
 */
int rep_selector_parse(char *spec, struct filter *f);

/* --format, --input-unit, --set-label, --set-load, --set-test, --db */
extern const struct optdesc rep_input_opts[];
/* --label, --board, --kernel, --test, --load, --since, --until */
extern const struct optdesc rep_filter_opts[];
/* --markdown, --csv, --unit, --threads */
extern const struct optdesc rep_output_opts[];
/* -q */
extern const struct optdesc rep_common_opts[];

void rep_cli_init(struct rep_cli *c);

/*
 * Options may follow the operands ("rtlat db add a.json --db x.db"): a new
 * argv (free it; the strings are @argv's) holding argv[0], then the
 * options of @argv with their values, then the operands, each part in its
 * order. *@nopt receives the index of the first operand (parse the
 * options with opt_parse(*nopt, ...)), *@nargs the number of entries. "--" ends the options; whatever
 * follows it is an operand, even "-x". A word that only looks like an
 * option is left for opt_parse() to refuse.
 */
char **rep_cli_argv(int argc, char **argv, const struct optdesc *const *tables,
		    int *nopt, int *nargs);

/* Option handler for the tables above (ctx is a struct rep_cli).
 * Returns 0, -1 after an error, or 1 for an option it does not know. */
int rep_cli_opt(void *ctx, const struct optdesc *d, const char *arg);

/*
 * Import @paths (files or directories) and, with --db or when @paths is
 * empty, the history database; apply the filters. Every failed input is
 * reported. Returns 0, or 1 when some input failed (the others are in
 * @out).
 */
int rep_cli_load(struct rep_cli *c, char **paths, int n,
		 struct rep_runs *out);

/*
 * rtlat report over the history alone (no file; not --runs, --limit,
 * --threads, or --html without --longterm): when more than
 * RDB_SUMMARY_RUNS runs pass the filters (or with --summary), print their
 * summary (rdb_summary()) on stdout, with --html --longterm write the
 * long-term page of the database's aggregates (html_longterm_db()), and
 * set *@done. Returns 0, or 1 after an error message (*@done set too);
 * *@sig the signal that stopped the page (html_report()), else 0.
 */
int rep_cli_summary(struct rep_cli *c, bool *done, int *sig);

/* Print @rs as tables in the chosen style on stdout. */
void rep_cli_print(const struct rep_cli *c, const struct rep_runs *rs);

#endif
