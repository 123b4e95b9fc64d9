/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plots drawn by gnuplot (a child process running a generated script with
 * inline data blocks), as SVG. All plots of a report are collected first
 * and drawn by one gnuplot run.
 */
#ifndef RTLAT_REPORT_PLOT_H
#define RTLAT_REPORT_PLOT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/report.h"

struct plots {
	char dir[64];		/* private temporary directory */
	FILE *script;		/* of the plot being written */
	bool svg_failed;	/* a script could not be written */
	int n;			/* plots queued */
	char **svg;		/* after plots_draw(): SVG text per plot, or NULL */
	char **caption;
	bool handlers;		/* SIGINT, SIGTERM, SIGHUP caught (plots_begin) */
};

/* Start a plot set: a private temporary directory, and SIGINT, SIGTERM
 * and SIGHUP caught until plots_end() (one kills gnuplot at once). Returns
 * 0 or -1 (no directory; plots_end() still restores the signals). */
int plots_begin(struct plots *p);

/* The signal that came since plots_begin(), or 0: the report stops, and
 * after plots_end() its caller dies of it. */
int plots_stopped(const struct plots *p);

/* Queue plots; each returns its index, or -1 when there is nothing to draw
 * (e.g. a run without histogram). */
int plot_histogram(struct plots *p, const struct rep_run *r);
int plot_timeline(struct plots *p, const struct rep_run *r);
int plot_tail(struct plots *p, const struct group *g);
int plot_bars(struct plots *p, const struct group *g);
/* The histograms of the runs of @g in one plot (a test without and with
 * load: the comparison users make first); -1 with fewer than two. */
int plot_histograms(struct plots *p, const struct group *g);

/*
 * The long-term view of the runs of @g on board @board (NULL: runs without
 * a board), as OSADL plots its farm: plot_longterm() the maxima of every
 * interval against wall-clock time (run start + interval start), one line
 * per kernel (and load, in a group of several), plot_over_runs() each
 * run's max and p99.9 against its start time. Only runs with a start time
 * count; -1 with fewer than two such runs.
 */
int plot_longterm(struct plots *p, const struct group *g, const char *board);
int plot_over_runs(struct plots *p, const struct group *g, const char *board);

/* A line of a long-term envelope (plot_envelope()): its name and @n
 * points, @t seconds since the epoch (a day's or week's start), @lo..@hi
 * the least and highest interval max, @p999 the highest p99.9 (ns, -1:
 * none). */
struct env_line {
	char name[200];
	size_t n;
	double *t;
	int64_t *lo, *hi, *p999;
};

/* The long-term view the database aggregated (rtlat report --db
 * --longterm): per line a filled band lo..hi and the p99.9 dashed,
 * against time; -1 with no point. */
int plot_envelope(struct plots *p, const char *title, const char *caption,
		  const struct env_line *l, size_t nl, bool week);

/*
 * Run gnuplot ($GNUPLOT, else "gnuplot" in PATH) on the queued plots and
 * read the SVGs (their ids prefixed so that several can be inlined in one
 * page). A plot gnuplot refuses is left out (the others are drawn).
 * Returns 0, or -1 with a reason in @why when gnuplot is missing or a plot
 * is missing.
 */
int plots_draw(struct plots *p, char *why, size_t len);

/* Remove the temporary files, free everything, restore the signals. */
void plots_end(struct plots *p);

#endif
