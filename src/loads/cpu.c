// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpu load: busy loops mixing integer (multiply-add, shift, xor) and
 * floating-point (multiply-add, divide) work. One op = one integer and one
 * floating-point step.
 */
#include "loads/load.h"

#define BATCH 4096

static void cpu_run(struct load_worker *w)
{
	volatile uint64_t isink;
	volatile double fsink;
	uint64_t a = 0x9e3779b97f4a7c15ULL + (uint64_t)w->index;
	double x = 1.0 + w->index;
	int i;

	load_running(w, "integer + floating-point loop, SCHED_OTHER");
	while (!load_stopping()) {
		for (i = 0; i < BATCH; i++) {
			a = a * 6364136223846793005ULL + 1442695040888963407ULL;
			a ^= a >> 29;
			x = x * 1.000000119 + 0.25;
			if (x > 1e9)
				x = x / 3.0e8;
		}
		isink = a;
		fsink = x;
		w->slot->count += BATCH;
	}
	(void)isink;
	(void)fsink;
}

const struct load_gen load_cpu = {
	.name = "cpu",
	.help = "busy loops, integer and floating point",
	.unit = "ops/s",
	.per_count = 1.0,
	.run = cpu_run,
};
