// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for one importer, chosen at build time with
 * -DFUZZ_FORMAT='"cyclictest"' (one binary per importer: make fuzz), or
 * -DFUZZ_FORMAT='"detect"' for the detection of formats in pasted text.
 * Each input is imported with the format forced, then everything derived
 * from the runs is exercised: tables in every style, CSV, a copy of every
 * run, the comparison within each table.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/import/import.h"
#include "report/report.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT='\"NAME\"'"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* "detect": no format forced, the content decides */
	struct imp_opts o = {
		.format = strcmp(FUZZ_FORMAT, "detect") ? FUZZ_FORMAT : NULL,
		.quiet = true,
	};
	struct out_opts out = { .unit_ns = 1000, .threads = true };
	struct rep_runs rs, copy;
	struct cmp_row *rows;
	struct group *g;
	size_t ng, i;

	runs_init(&rs);
	runs_init(&copy);
	if (import_buffer("fuzz-input", (const char *)data, size, &o, &rs) == 0) {
		ng = groups_make(&rs, &g);
		for (i = 0; i < ng; i++) {
			struct rtable t;

			table_build(&g[i], &out, &t);
			table_print_text(sink(), &t);
			table_print_markdown(sink(), &t);
			table_print_html(sink(), &t);
			table_free(&t);
		}
		groups_free(g, ng);
		csv_print(sink(), &rs, true);
		for (i = 0; i < rs.n; i++)
			runs_push(&copy, run_dup(rs.v[i]));
		ng = cmp_within(&copy, &rows);
		for (i = 0; i < ng; i++)
			cmp_print_text(sink(), &rows[i], 1);
		free(rows);
	}
	runs_free(&rs);
	runs_free(&copy);
	return 0;
}
