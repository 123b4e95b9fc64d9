/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A test's declared figures and "==" lines (test_desc.figures, .lines;
 * engine/engine.h), rendered from that one declaration by every
 * writer: the text output, the result's test_data and the headline.
 */
#ifndef RTLAT_OUTPUT_FIGURES_H
#define RTLAT_OUTPUT_FIGURES_H

#include <stdio.h>

#include "engine/run_view.h"
#include "util/jsonw.h"

/* The figures of @r now: test_desc.figures(), its lists ended.
 * figs_free() after. */
void figures_collect(struct run *r, struct test_figs *f);

/* test_data's members: the figures in their order, lists as arrays,
 * "OBJ.KEY" figures as objects. */
void figures_json(const struct run *r, const struct test_figs *f,
		  struct jw *w);

/* "param.NAME VALUE" lines of the run's figures for the headline
 * (fig_headline()) that are known. */
void figures_headline(const struct test_figs *f, FILE *out);

/* The declared lines of @r at @at, "== TEXT" on stdout (LINE_BANNER and
 * LINE_START not with -q). */
void figures_lines(struct run *r, enum test_line_at at);

/* The item @k of the run's list @list in @f (a row of figures_render()),
 * or -1. */
int figures_item(const struct test_figs *f, const char *list, int k);

/* Render @text (a test_line's) for the item @row (figures_item(); -1:
 * none) of @f into @out. */
void figures_render(const struct run *r, const struct test_figs *f, int row,
		    const char *text, char *out, size_t len);

#endif
