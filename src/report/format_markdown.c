// SPDX-License-Identifier: GPL-2.0-or-later
/* Markdown tables (--markdown) of rtlat report and compare; rtlat db list
 * lists as text (report/format.h). */
#include "report/format.h"
#include "util/optkey.h"

static void md_runs(FILE *f, const struct rep_runs *rs,
		    const struct out_opts *o)
{
	rep_format_tables(f, rs, o, table_print_markdown);
}

static void md_cmp_begin(FILE *f, const struct rep_runs *a,
			 const struct rep_runs *b, bool gate)
{
	(void)gate;
	rep_format_sysdiff(f, a, b, "- system: ");
}

static void md_cmp_row(FILE *f, size_t k, const struct cmp_row *row,
		       const struct gate_row *g, const char *lo,
		       const struct out_opts *o)
{
	if (k)
		fputc('\n', f);
	cmp_print_markdown(f, row, o->unit_ns);
	if (lo)
		fprintf(f, "\n- note: %s\n", lo);
	if (g)
		gate_print_text(f, g, true);
}

static void md_cmp_end(FILE *f, const struct gate_row *g, size_t n,
		       int nref)
{
	if (!g)
		return;
	fputc('\n', f);
	gate_print_summary(f, g, n, nref);
}

const struct rep_format rep_format_markdown = {
	.name = "markdown",
	.key = OPT_REP_MD,
	.cmds = REP_FMT_REPORT | REP_FMT_COMPARE | REP_FMT_DB,
	.runs = md_runs,
	.cmp_begin = md_cmp_begin,
	.cmp_row = md_cmp_row,
	.cmp_end = md_cmp_end,
};
