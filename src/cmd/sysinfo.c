// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat sysinfo: print the description of the system under test, the same
 * one the suite puts in its report header and every result file carries
 * under "system".
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/opt.h"
#include "system/sysinfo.h"

struct sysinfo_args {
	const char *root;
	bool json;
};

static const struct optdesc sysinfo_opts[] = {
	{ "json", 0, no_argument, NULL,
	  "print the description as a JSON object", OPT_SYSINFO_JSON },
	{ "root", 0, required_argument, "DIR",
	  "read /proc and /sys below DIR instead of / (default /)", OPT_SYSINFO_ROOT },
	OPT_END
};

static int sysinfo_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct sysinfo_args *a = ctx;

	if (d->key == OPT_SYSINFO_ROOT) {
		if (cmd_root_check(d, arg) < 0)
			return -1;
		a->root = arg;
	} else {
		a->json = true;
	}
	return 0;
}

static int sysinfo_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = { sysinfo_opts, NULL };
	struct sysinfo_args a = { "/", false };
	struct sysdesc d;
	int r;

	r = opt_parse_options(argc, argv, tables, sysinfo_opt, &a,
			      "rtlat sysinfo [--json] [--root DIR]",
			      "Describe the system under test: board, processor, CPU clock,\n"
			      "caches, memory, kernel and its real-time flavour (PREEMPT_RT,\n"
			      "PREEMPT_DYNAMIC mode, Xenomai, I-pipe, EVL/Dovetail), clocksource,\n"
			      "cpufreq governor, isolated CPUs and the kernel command line.");
	if (r)
		return r > 0 ? 0 : 1;
	cmd_root_note(a.root, "describe");
	sysdesc_read(&d, a.root);
	if (a.json) {
		struct jw w;

		jw_init(&w, stdout);
		jw_obj_begin(&w, NULL);
		sysdesc_json(&d, &w);
		jw_obj_end(&w);
		if (!jw_finish(&w)) {
			log_error("cannot write to stdout");
			return 1;
		}
	} else {
		printf("Host       : %s\n", d.hostname[0] ? d.hostname : "n/a");
		sysdesc_print(&d, stdout, "");
	}
	return fflush(stdout) == 0 ? 0 : 1;
}

const struct rtlat_cmd cmd_sysinfo = {
	.name = "sysinfo",
	.summary = "describe the system under test (board, CPU, kernel, RT flavour)",
	.main = sysinfo_main,
};
