// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat latency: periodic timer wake-up latency, the measurement of Xenomai's
 * latency test and of cyclictest. One sampler per CPU waits for each
 * deadline of a fixed period; latency = wake-up time - deadline.
 */
#include <stdio.h>

#include "cmd/cmd.h"
#include "core/engine.h"
#include "core/log.h"
#include "core/output.h"
#include "core/timer_test.h"
#include "core/timeutil.h"

static const struct series_desc latency_series = {
	.name = "latency", .miss_name = "overruns", .threshold = true,
};
static const struct series_desc *const latency_descs[] = { &latency_series };

static int latency_setup(struct run *r)
{
	return engine_setup_per_cpu(r, 1, latency_descs);
}

static const struct test_desc latency_test = {
	.name = "latency",
	.mode = "periodic user-mode task",
	.setup = latency_setup,
	.body = timer_test_body,
	.out = &xeno_output,
};

static int latency_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	int r = engine_opt(ctx, d, arg);

	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

static int latency_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = {
		engine_timer_opts, engine_trace_opts, engine_common_opts, NULL,
	};
	struct engine_opts o;
	int first, r;

	engine_opts_init(&o, 100 * NSEC_PER_USEC, 99);
	r = opt_parse(argc, argv, tables, latency_opt, &o,
		      "rtlat latency [OPTIONS]",
		      "Measure how late a periodic real-time task wakes up: one sampler\n"
		      "per CPU waits for each deadline of a fixed period, latency =\n"
		      "wake-up time - deadline. Output follows Xenomai's latency test\n"
		      "(RTT/RTH/RTD lines per interval, RTS summary), in microseconds.\n"
		      "Exit status: 0 ok, 1 error, 2 --max-latency exceeded or --break hit.",
		      &first);
	if (r)
		return r > 0 ? 0 : 1;
	if (first < argc) {
		log_error("unexpected argument '%s' (see --help)", argv[first]);
		return 1;
	}
	return engine_run(&latency_test, &o, rtlat_argc, rtlat_argv);
}

const struct rtlat_cmd cmd_latency = {
	.name = "latency",
	.summary = "periodic timer wake-up latency (Xenomai latency, cyclictest)",
	.main = latency_main,
};
