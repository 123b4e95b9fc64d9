/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * noise --mode hwlat: the kernel's hwlat tracer as the reference
 * (noise_hwlat.c). The tracer spins in a kernel thread with interrupts
 * off, width out of every window, on the measured CPUs in turn, and
 * records every gap above tracing_thresh (the hardware, the firmware, an
 * SMI, the hypervisor). rtlat runs it in a tracefs instance of its own for
 * a while before its own measurement, with the same threshold, width and
 * window, and puts back every global knob it changed (tracing_thresh,
 * hwlat_detector/width and window).
 */
#ifndef RTLAT_NOISE_H
#define RTLAT_NOISE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpulist.h"

#define HWREF_CPUS 16		/* CPUs whose samples are counted apart */

struct hwlat_ref {
	bool ran;		/* the tracer ran: the figures hold */
	char why[256];		/* not run: why; ran: where ("tracefs ...") */
	int64_t duration_ns;	/* how long it ran */
	uint64_t samples;	/* gaps above the threshold it recorded */
	int64_t max_ns;		/* the largest (inner or outer), ns */
	int ncpu;
	struct {
		int cpu;
		uint64_t samples;
		int64_t max_ns;
	} cpu[HWREF_CPUS];
};

/* Does this kernel offer the hwlat tracer (available_tracers)? */
bool hwlat_ref_available(char *why, size_t len);

/*
 * Run the hwlat tracer on @cpus for @duration_ns with a threshold of
 * @thr_ns (whole us, at least 1), @width_ns out of every @window_ns, and
 * fill @h. Never fails: when it cannot run, h->ran is false and h->why
 * says why. Blocks for the duration.
 */
void hwlat_ref_run(struct hwlat_ref *h, const struct cpuset *cpus,
		   int64_t thr_ns, int64_t width_ns, int64_t window_ns,
		   int64_t duration_ns);

#endif
