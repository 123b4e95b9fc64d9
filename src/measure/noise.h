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
#include <sys/types.h>

#include "system/cpulist.h"
#include "engine/guard.h"

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

/* The tracefs directory (tracefs_dir(): mounted when it is not, as root)
 * if this kernel offers the hwlat tracer there (available_tracers); NULL
 * with the cause in @why (@len bytes) otherwise. */
const char *hwlat_tracefs(char *why, size_t len);

/*
 * Run the hwlat tracer on @cpus for @duration_ns with a threshold of
 * @thr_ns (whole us, at least 1), @width_ns out of every @window_ns, and
 * fill @h. Never fails: when it cannot run, h->ran is false and h->why
 * says why. Blocks for the duration.
 */
void hwlat_ref_run(struct hwlat_ref *h, const struct cpuset *cpus,
		   int64_t thr_ns, int64_t width_ns, int64_t window_ns,
		   int64_t duration_ns);

/*
 * The tracefs knobs the reference changes, as they were, and the guard
 * that puts them back should rtlat die (SIGKILL included) while they are
 * changed: a child that restores them when the pipe from rtlat closes
 * without rtlat's word that it restored them itself.
 */
struct hwlat_knobs {
	char dir[96];		/* the tracefs */
	char inst[160];		/* rtlat's instance: DIR/instances/rtlat-hwlat-PID */
	char thresh[32];	/* tracing_thresh as it was */
	int64_t width_us, window_us;	/* hwlat_detector/ as they were */
	struct guard guard;	/* restores should rtlat die */
};

/* Save the knobs of the tracefs @dir into @k; -1 with @why set when they
 * cannot be read. */
int hwlat_knobs_save(struct hwlat_knobs *k, const char *dir, char *why,
		     size_t len);

/* Fork the guard of @k (engine/guard.h); -1 with @why set when it cannot
 * be. */
int hwlat_guard_start(struct hwlat_knobs *k, char *why, size_t len);

/* Put the knobs of @k back, remove the instance, end the guard: 0 or
 * the errno of the instance's removal. */
int hwlat_knobs_restore(struct hwlat_knobs *k);

#endif
