// SPDX-License-Identifier: GPL-2.0-or-later
/* One CSV table (--csv), values in ns, of rtlat report, compare and db
 * list (report/format.h). */
#include "report/format.h"
#include "util/log.h"
#include "util/optkey.h"

static void csv_runs(FILE *f, const struct rep_runs *rs,
		     const struct out_opts *o)
{
	csv_print(f, rs, o->threads);
}

static void csv_cmp_begin(FILE *f, const struct rep_runs *a,
			  const struct rep_runs *b, bool gate)
{
	(void)a;
	(void)b;
	cmp_print_csv_header(f, gate);
}

/* a row's notes go to stderr: the CSV table has no place for them */
static void csv_cmp_row(FILE *f, size_t k, const struct cmp_row *row,
			const struct gate_row *g, const char *lo,
			const struct out_opts *o)
{
	char why[128];

	(void)k;
	(void)o;
	if (row->nothing)
		log_note("%s: A = %s, B = %s: %s", row->title, row->a_name,
			 row->b_name, cmp_nothing_why(row, why, sizeof(why)));
	if (lo)
		log_note("%s: %s", row->title, lo);
	cmp_print_csv(f, row, g);
}

const struct rep_format rep_format_csv = {
	.name = "csv",
	.key = OPT_REP_CSV,
	.cmds = REP_FMT_REPORT | REP_FMT_COMPARE | REP_FMT_DB,
	.runs = csv_runs,
	.cmp_begin = csv_cmp_begin,
	.cmp_row = csv_cmp_row,
	.list = csv_runs,
};
