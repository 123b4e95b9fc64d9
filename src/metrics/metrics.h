/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live figures of a run for a monitoring system: --metrics FILE (the
 * OpenMetrics text, rewritten atomically at every interval, for
 * node_exporter's textfile collector) and --metrics-port PORT (the same
 * text over HTTP, on --metrics-addr, 127.0.0.1 by default). A companion of
 * every test run (engine.h): everything is done by the display thread from
 * the totals it merged, nothing by a sampler. docs/metrics.md describes the
 * metric families and labels.
 */
#ifndef RTLAT_METRICS_H
#define RTLAT_METRICS_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/run_view.h"

extern const struct companion_ops metrics_companion;

/* The OpenMetrics text of @r so far (display thread, or the main thread
 * once the display is joined) to @f; @running: the run goes on; @label:
 * --metrics-label or NULL. */
void metrics_render(FILE *f, const struct run *r, const char *label,
		    bool running);

#endif
