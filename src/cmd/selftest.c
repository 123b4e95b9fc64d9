// SPDX-License-Identifier: GPL-2.0-or-later
/* rtlat selftest: check the measuring core on this machine. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "util/log.h"
#include "util/opt.h"
#include "cmd/selftest.h"

struct selftest_args {
	bool verbose;
	const char *result;
};

static const struct optdesc selftest_opts[] = {
	{ "verbose", 'v', no_argument, NULL, "list every check", 'v' },
	{ "result", 0, required_argument, "FILE",
	  "also write the synthetic result to FILE (for comparing architectures)",
	  OPT_SELFTEST_RESULT },
	OPT_END
};

static int selftest_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct selftest_args *a = ctx;

	if (d->key == 'v')
		a->verbose = true;
	else
		a->result = arg;
	return 0;
}

static int selftest_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = { selftest_opts, NULL };
	struct selftest_args a = { false, NULL };
	int first, r;

	r = opt_parse(argc, argv, tables, selftest_opt, &a,
		      "rtlat selftest [-v] [--result FILE]",
		      "Check the measuring core on this machine: 64-bit time arithmetic,\n"
		      "statistics over 10^10 samples, histogram accounting and percentile\n"
		      "bounds, CPU lists, option values, JSON escaping, and a synthetic\n"
		      "result file. Meant for new boards, 32-bit and big-endian targets.\n"
		      "Exit status: 0 all checks passed, 1 a check failed.",
		      &first);
	if (r)
		return r > 0 ? 0 : 1;
	if (first < argc) {
		log_error("unexpected argument '%s' (see --help)", argv[first]);
		return 1;
	}
	if (a.result && selftest_result(a.result, false, NULL, NULL, NULL) < 0)
		return 1;	/* reported by selftest_result() */
	return selftest_run(a.verbose) ? 1 : 0;
}

const struct rtlat_cmd cmd_selftest = {
	.name = "selftest",
	.summary = "check the measuring core on this machine (32-bit, big-endian)",
	.main = selftest_main,
};
