/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output styles shared by tests (see output_xeno.c for the line protocol). */
#ifndef RTLAT_OUTPUT_H
#define RTLAT_OUTPUT_H

#include "engine/run_view.h"

/* Xenomai-style output of the first series: banner, RTT/RTH/RTD, RTS/RTP. */
extern const struct output_ops xeno_output;
/* Xenomai 3's latency layouts (latency link, rtlat latency --xenomai;
 * cmd/xeno_cli.c): msw column and RTS line as Xenomai's, -l 0 no
 * headers, -h/-s/-g as Xenomai's; set before the run */
extern bool xeno_compat_layout;
/* Xenomai 3's gnuplot dump (latency -g) of @r's histogram into @f: the
 * "#" title, header and figures lines, rtlat's version and the system,
 * then "x count+1" pairs. Returns 0. */
int xeno_gnuplot(struct run *r, FILE *f);

/* Building blocks for tests with their own Xenomai-style columns. */
/* output_ops.start: the "==" banner, the test's LINE_BANNER lines in it
 * and its LINE_START lines after it. */
void xeno_banner(struct run *r);
/* Print RTT and @head every -l lines; counts the data line. */
void xeno_title(struct run *r, uint64_t k, const char *head);
/* The RTD line of the test's output_ops.cols (default: latency's). */
void xeno_interval(struct run *r, uint64_t k, const struct window *agg,
		   const struct winrec *const *thr);
/* As xeno_interval(), and an interval a sampler handed over without a
 * sample or a miss in it (a test that waits for events: none came) is a
 * line too, "n/a" in its time fields. */
void xeno_interval_all(struct run *r, uint64_t k, const struct window *agg,
		       const struct winrec *const *thr);

/* A column of an RTD line: a field of series name @name (r->names[]). */
enum xeno_field {
	XENO_MIN,		/* interval minimum */
	XENO_AVG,		/* interval mean */
	XENO_MAX,		/* interval maximum */
	XENO_MISSED,		/* overruns / lost events so far (cumulative) */
	XENO_BEST,		/* lowest minimum so far */
	XENO_WORST,		/* highest maximum so far */
};

struct xeno_col {
	const char *head;	/* "lat min": right-aligned, '-' padded */
	int name;
	enum xeno_field field;
};

#define XENO_MAX_COLS 12

/* The RTD line of interval @k with @ncols columns (time fields 11 wide in
 * us, XENO_MISSED 8 wide), preceded by RTT/RTH when due. Nothing is
 * printed with -q or when none of the series had a sample or a miss. */
void xeno_columns(struct run *r, uint64_t k, const struct window *agg,
		  const struct xeno_col *cols, int ncols);

/* The columns of the RTS lines of series @name: min, avg, max, the miss
 * column of the RTD line if it has one, measured/requested time. */
struct xeno_rts_layout {
	const char *miss;	/* head of the miss column ("lost"), or NULL */
	bool named;		/* not the RTH line's first columns: the "---|"
				 * line names them */
	char what[24];		/* the series in RTH heads: "a->b", "rtt" */
};

void xeno_rts_layout(const struct run *r, int name, struct xeno_rts_layout *l);
/* One RTS line of @a (series of layout @l); @label (" cpu 1") comes last. */
void xeno_rts(struct run *r, const struct xeno_rts_layout *l,
	      const struct accum *a, const char *label);
void xeno_rtp(const struct accum *a, const char *label);
/* HSH/HSD lines of @a's linear histogram, first column @kind ("lat"). */
void xeno_histogram(const struct accum *a, const char *kind);
/* HSH/HSS lines of series @nm, each ending with @label (or NULL). */
void xeno_stats(const struct series_name *nm, const char *label);
/* -h, -s, per-sampler RTS lines, overall RTS and RTP of series @name. */
void xeno_summary_series(struct run *r, int name);
/* The summary of every series, the test's declared summary lines
 * (test_desc.lines), the outcome: an output_ops.summary. */
void xeno_summary_all(struct run *r);

#endif
