/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The engine's own state of a run: its phases, the samplers' start gate,
 * the display thread, the result files, the trace marker, the held
 * /dev/cpu_dma_latency and the Cobalt mode-switch baseline. Private to
 * the engine: only files in src/engine/ include this header
 * (scripts/check-layers.py refuses any other); the tests, outputs,
 * metrics and companions see struct run (engine/run_view.h) and never
 * this.
 */
#ifndef RTLAT_RUN_H
#define RTLAT_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"

struct run_engine {
	struct rt_throttle rt_thr;	/* what throttles the real-time
					 * samplers (engine/rtthrottle.h) */
	_Atomic int start;		/* start gate for samplers */
	pthread_mutex_t gate_lock;	/* samplers wait for start or stop */
	pthread_cond_t gate_cond;
	int trace_marker_fd, tracing_on_fd;	/* --break's trace marker */
	int dma_fd;			/* /dev/cpu_dma_latency held, -1 once
					 * released (end of measurement) */

	/* display thread */
	pthread_t display;
	bool display_started;
	_Atomic int display_stop;
	_Atomic int snapshot_req;	/* SIGUSR1/2 taken, not yet printed by
					 * the display (one snapshot each) */
	bool display_failed;		/* the display thread failed */
	bool checkpoint_failed;		/* the last checkpoint was not written */
	const struct winrec **thr;	/* per sampler, scratch */
	int64_t last_checkpoint;

	const struct result_ops *result;	/* result files, or NULL */
	int reached;			/* phase reached (engine.c) */

	/* Cobalt build: the baseline of the mode-switch counts taken at the
	 * measurement's start, the last read taken at its end; their total */
	bool msw_based;
	bool msw_unchecked;		/* --max-msw given, count not known */
	_Atomic int msw_final;
	uint64_t msw_total;

	/* --clock realtime: CLOCK_REALTIME - CLOCK_MONOTONIC last seen by the
	 * main thread; a step wakes the samplers (a backward one leaves a
	 * CLOCK_REALTIME sleep asleep for the step's length) */
	int64_t rt_off;

	bool owned;			/* allocated by engine_alloc() (a run
					 * not made by engine_run()) */
};

#endif
