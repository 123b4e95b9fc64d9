// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat check: is this system set up for real time? Per item what was
 * found, a verdict (ok, warning, bad, n/a) and the fix; exit status 2 when
 * an item is bad.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "system/syscheck.h"
#include "util/timeutil.h"

#define CHECK_INTERVAL_MAX_NS (3600 * NSEC_PER_SEC)

struct check_args {
	const char *root;
	bool json;
	int64_t interval_ns;
};

static const struct optdesc check_opts[] = {
	{ "interval", 'T', required_argument, "TIME",
	  "sample /proc/interrupts over TIME (default 2s; a bare number is\n"
	  "seconds; 0: one reading, counts since boot and no rate)", 'T' },
	{ "json", 0, no_argument, NULL,
	  "print the findings as a JSON document", OPT_CHECK_JSON },
	{ "root", 0, required_argument, "DIR",
	  "read /proc, /sys, /dev and /boot below DIR instead of / (default /);\n"
	  "the clock read cost is then not measured", OPT_CHECK_ROOT },
	OPT_END
};

static int check_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct check_args *a = ctx;

	switch (d->key) {
	case OPT_CHECK_ROOT:
		if (cmd_root_check(d, arg) < 0)
			return -1;
		a->root = arg;
		return 0;
	case OPT_CHECK_JSON:
		a->json = true;
		return 0;
	default:
		if (parse_time_ns(arg, NSEC_PER_SEC, &a->interval_ns) < 0 ||
		    a->interval_ns > CHECK_INTERVAL_MAX_NS)
			return opt_bad_value(d, arg, "a time from 0 to 1h, e.g. 2s, 500ms, 0");
		return 0;
	}
}

static int check_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = { check_opts, NULL };
	struct check_args a = { "/", false, 2 * NSEC_PER_SEC };
	struct check_report *rep;
	enum check_verdict worst;
	bool ok;
	int r;

	r = opt_parse_options(argc, argv, tables, check_opt, &a,
			      "rtlat check [-T TIME] [--json] [--root DIR]",
			      "Is this system set up for real time? For each item - preemption\n"
			      "model, RT throttling, cpufreq, cpuidle and /dev/cpu_dma_latency, CPU\n"
			      "isolation and the interrupts the isolated CPUs still take, their SMT\n"
			      "siblings, interrupt affinity, clocksource and the cost of a clock read,\n"
			      "transparent huge pages, swap, timer migration, RT group scheduling,\n"
			      "debug options of the kernel, latency tracers, co-kernel - what was\n"
			      "found, a verdict (ok, warning, bad, n/a) and the fix.\n"
			      "Exit status: 0 nothing bad, 2 something bad, 1 error.");
	if (r)
		return r > 0 ? 0 : 1;
	/* every item would be n/a or a conclusion drawn from absence, and
	 * exit 0 would say nothing is bad: a wrong --root is an error */
	if (cmd_root_empty(a.root)) {
		log_error("--root %s holds neither proc/ nor sys/: nothing to check (expected the root of a system: its proc/ and sys/, or copies of them)",
			  a.root);
		return 1;
	}
	rep = malloc(sizeof(*rep));
	if (!rep) {
		log_error("out of memory");
		return 1;
	}
	worst = syscheck_run(rep, a.root, a.interval_ns);
	if (a.json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		jw_str(&w, "root", a.root);
		syscheck_json(rep, &w);
		jw_obj_end(&w);
		ok = jw_finish(&w);
	} else {
		char root[PATH_MAX];

		snprintf(root, sizeof(root), "%s", a.root);
		syscheck_printable(root);
		printf("# rtlat check of %s%s\n", root,
		       strcmp(a.root, "/") ? " (not this system)" : "");
		syscheck_print(rep, stdout);
		ok = true;
	}
	free(rep);
	/* a write error is reported once, by main() (its cause kept) */
	if (stdout_flush() != 0)
		return 1;
	if (!ok) {
		log_error("the JSON document is incomplete");
		return 1;
	}
	return worst == CHECK_BAD ? 2 : 0;
}

const struct rtlat_cmd cmd_check = {
	.name = "check",
	.summary = "is this system set up for real time? (findings, verdicts, fixes)",
	.main = check_main,
};
