// SPDX-License-Identifier: GPL-2.0-or-later
/* Text tables: the default output format of rtlat report, compare and db
 * list (report/format.h). */
#include "report/format.h"

static void text_runs(FILE *f, const struct rep_runs *rs,
		      const struct out_opts *o)
{
	rep_format_tables(f, rs, o, table_print_text);
	checks_print_text(f, rs);
}

static void text_cmp_begin(FILE *f, const struct rep_runs *a,
			   const struct rep_runs *b, bool gate)
{
	(void)gate;
	rep_format_sysdiff(f, a, b, "system: ");
}

static void text_cmp_row(FILE *f, size_t k, const struct cmp_row *row,
			 const struct gate_row *g, const char *lo,
			 const struct out_opts *o)
{
	if (k)
		fputc('\n', f);
	cmp_print_text(f, row, o->unit_ns);
	if (lo)
		fprintf(f, "note: %s\n", lo);
	if (g)
		gate_print_text(f, g, false);
}

static void text_cmp_end(FILE *f, const struct gate_row *g, size_t n,
			 int nref)
{
	if (!g)
		return;
	fputc('\n', f);
	gate_print_summary(f, g, n, nref);
}

const struct rep_format rep_format_text = {
	.name = "text",
	.cmds = REP_FMT_REPORT | REP_FMT_COMPARE | REP_FMT_DB,
	.runs = text_runs,
	.cmp_begin = text_cmp_begin,
	.cmp_row = text_cmp_row,
	.cmp_end = text_cmp_end,
};
