// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat latency: periodic timer wake-up latency, the measurement of Xenomai's
 * latency test and of cyclictest. One sampler per CPU waits for each
 * deadline of a fixed period; latency = wake-up time - deadline.
 */

#include "engine/test.h"
#include "output/output.h"
#include "measure/lib/timer_test.h"
#include "util/timeutil.h"

static const struct series_desc latency_series = {
	.name = "latency", .miss_name = "overruns", .threshold = true,
};
static const struct series_desc *const latency_descs[] = { &latency_series };

static int latency_setup(struct run *r)
{
	return engine_setup_per_cpu(r, 1, latency_descs);
}

static const struct optdesc *const latency_opts[] = {
	engine_timer_opts, engine_common_opts, NULL,
};

const struct test_desc latency_test = {
	.name = "latency",
	.mode = "periodic user-mode task",
	.summary = "periodic timer wake-up latency (Xenomai latency, cyclictest)",
	.about =
	"Measure how late a periodic real-time task wakes up: one sampler\n"
	"per CPU waits for each deadline of a fixed period, latency =\n"
	"wake-up time - deadline. Output follows Xenomai's latency test\n"
	"(RTT/RTH/RTD lines per interval, RTS summary), in microseconds.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.",
	.period_ns = 100 * NSEC_PER_USEC,
	.prio = 99,
	.opts = latency_opts,
	.setup = latency_setup,
	.body = timer_test_body,
	.out = &xeno_output,
	.timer_wake = true,
	.suite = &(const struct suite_spec){ .title = "LATENCY" },
};
