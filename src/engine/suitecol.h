/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cells of a test's table columns (struct suite_col, engine/engine.h)
 * that show a figure of the run rather than a series' statistic: written
 * the same way in rtlat suite's tables (cmd/suite_report.c) and in rtlat
 * report's (report/render/table.c), from the headline's param lines or the
 * result's test_data.
 */
#ifndef RTLAT_SUITECOL_H
#define RTLAT_SUITECOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A SUITE_FIGURE cell: figure @name's value @v, with @decimals decimals
 * when above 0 and @v is a number, else in us with 3 decimals for a
 * NAME_ns, else as written; "n/a" when @v is NULL or empty. Into @buf;
 * returns @buf. */
const char *suite_fig_text(const char *name, const char *v, int decimals,
			   char *buf, size_t len);

struct suite_col;

/* Does column @c show a declared figure of the run (SUITE_FIGURE,
 * SUITE_PERCENT, SUITE_CPU) rather than a series' statistic or the
 * time? */
bool suite_col_figure(const struct suite_col *c);

struct suite_spec;

/* Has the table of @sp (NULL: none) a column of a figure (suite_col_figure())
 * or of a figure's time: its own columns, which rtlat report's table,
 * rtlat compare and --lava take in place of the latency ones (noise's
 * max gap, noise %, on CPU, events)? */
bool suite_spec_figures(const struct suite_spec *sp);

/* Is the figure of column @c a time (named NAME_ns, in ns)? */
bool suite_col_time(const struct suite_col *c);

/* The cell of such a column @c of value @v (suite_fig_text(), a
 * SUITE_PERCENT with 4 decimals). Into @buf; returns @buf. */
const char *suite_col_text(const struct suite_col *c, const char *v,
			   char *buf, size_t len);

/* A SUITE_TIME cell, hh:mm:ss: the figure @v (ns) to the nearest second
 * when the column names one and the run has it (noise --mode hwlat: the
 * time spun), else @duration_ns (the run's); "n/a" when neither is known
 * (negative). Into @buf; returns @buf. */
const char *suite_time_text(const char *v, int64_t duration_ns, char *buf,
			    size_t len);

#endif
