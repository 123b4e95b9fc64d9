/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "What changed in the system" (docs/report.md): the differences between
 * the systems of two sides of a comparison that matter to latency.
 */
#ifndef RTLAT_REPORT_SYSDIFF_H
#define RTLAT_REPORT_SYSDIFF_H

#include <stddef.h>
#include <stdio.h>

#include "report/model/model.h"

/*
 * Print to @f the differences between the system of the runs of @a and
 * that of @b (the first run of each side that describes its system): the
 * kernel release, preemption model, the command line's isolcpus,
 * nohz_full, rcu_nocbs, irqaffinity, idle=, processor.max_cstate and the
 * like, the clocksource, cpufreq governor, the rtlat check's verdicts
 * that differ (RT throttling, idle states, SMT ...), the load and
 * rtlat's version: one line each, "@prefix NAME: A -> B", "(none)" for
 * a value one side has not. Nothing when they match. Returns the number
 * of lines.
 */
size_t sysdiff_print(FILE *f, const struct rep_runs *a,
		     const struct rep_runs *b, const char *prefix);

#endif
