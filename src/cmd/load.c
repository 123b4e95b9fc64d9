// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat load: run load generators on their own, for TIME or until Ctrl-C,
 * and print what each achieved. The same generators run beside any test
 * with --load (see src/load/load.h).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/log.h"
#include "util/jsonw.h"
#include "util/parse.h"
#include "system/rtsetup.h"
#include "output/result.h"
#include "util/timeutil.h"
#include "loads/load.h"

struct load_args {
	struct load_opts lo;
	int64_t duration_ns;
	bool list;
	bool none;			/* "none" was named */
	const char *json;
};

static const struct optdesc load_cmd_opts[] = {
	{ "duration", 'T', required_argument, "TIME",
	  "run for TIME: 30 (s), 30s, 10m, 2h; 0 = until Ctrl-C (default)", 'T' },
	{ "list", 0, no_argument, NULL, "list the load generators", OPT_LOADCMD_LIST },
	{ "json", 0, required_argument, "FILE",
	  "also write what each load achieved as JSON to FILE\n"
	  "(-: standard output)", OPT_LOADCMD_JSON },
	LOAD_OPTDESCS_CMD,
	OPT_END
};

static int load_cmd_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct load_args *a = ctx;
	int64_t v;
	int r;

	switch (d->key) {
	case 'T':
		if (parse_duration_ns(arg, DURATION_MAX_NS, &v) < 0)
			return opt_bad_value(d, arg, DURATION_HINT " (0 = until interrupted)");
		a->duration_ns = v;
		return 0;
	case OPT_LOADCMD_LIST:
		a->list = true;
		return 0;
	case OPT_LOADCMD_JSON:
		a->json = arg;
		return 0;
	}
	r = load_opt(&a->lo, d, arg);
	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

static void list_gens(void)
{
	int i;

	printf("# load generators (rtlat load NAME..., --load NAME[,NAME] on every test)\n");
	for (i = 0; load_gens[i]; i++)
		printf("%-6s %-10s %s\n", load_gens[i]->name, load_gens[i]->unit,
		       load_gens[i]->help);
	printf("%-6s %-10s %s\n", "hell", "", "all of the above together (Xenomai's dohell mix)");
}

#define MAX_MSGS 32

/* What the loads came to: warnings, errors (load_problem()). */
struct load_outcome {
	char warnings[MAX_MSGS][320];
	int nwarnings;
	char error[320];		/* the first error, or "" */
};

/* {"schema": "rtlat-load", ..., "loads": [...], "warnings": [...],
 * "error": ...} (docs/result-schema.md) */
static int write_json(const char *path, const struct load_run *lr,
		      const char *status, const struct load_outcome *oc)
{
	char err[512];
	struct atomic_file af;
	struct jw w;
	FILE *f;
	int i;

	f = atomic_open(&af, path, err, sizeof(err));
	if (!f) {
		log_error("cannot write the --json file: %s", err);
		return -1;
	}
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", "rtlat-load");
	jw_int(&w, "schema_version", 1);
	jw_str(&w, "status", status);
	load_json(lr, &w);
	jw_arr_begin(&w, "warnings");
	for (i = 0; i < oc->nwarnings; i++)
		jw_str(&w, NULL, oc->warnings[i]);
	jw_arr_end(&w);
	if (oc->error[0])
		jw_str(&w, "error", oc->error);
	else
		jw_null(&w, "error");
	jw_obj_end(&w);
	if (!jw_finish(&w) && !ferror(f)) {
		atomic_abort(&af);
		log_error("cannot write the --json file %s: internal error", path);
		return -1;
	}
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		log_error("cannot write the --json file: %s", err);
		return -1;
	}
	return 0;
}

/* Check the loads after load_stop(): warnings and errors on stderr and in
 * @oc. A generator that did no work over a whole run did not run. */
static void check_loads(const struct load_result *res, int n, int sig,
			struct load_outcome *oc)
{
	char msg[320];
	int i;

	for (i = 0; i < n; i++) {
		int k = load_problem(&res[i], msg, sizeof(msg));

		if (k == LOAD_OK && !sig && !res[i].is_command &&
		    res[i].count == 0) {
			snprintf(msg, sizeof(msg), "load %s did no work in the whole run",
				 res[i].name);
			k = LOAD_ERROR;
		} else if (k == LOAD_WARNING && res[i].error[0]) {
			k = LOAD_ERROR;	/* rtlat load: a load that failed */
		}
		if (k == LOAD_ERROR) {
			log_error("%s", msg);
			if (!oc->error[0])
				snprintf(oc->error, sizeof(oc->error), "%s", msg);
		} else if (k == LOAD_WARNING) {
			log_warn("%s", msg);
			if (oc->nwarnings < MAX_MSGS)
				snprintf(oc->warnings[oc->nwarnings++],
					 sizeof(oc->warnings[0]), "%s", msg);
		}
	}
}

/* Wait for the end of @duration_ns (0 = none) or a signal, watching the
 * loads of @lr; returns the signal. */
static int wait_end(struct load_run *lr, int64_t duration_ns)
{
	int64_t end = duration_ns ? clock_now_ns(CLOCK_MONOTONIC) + duration_ns : 0;
	sigset_t sigs;
	int sig;

	stop_sigset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGUSR2);
	for (;;) {
		struct timespec ts = ns_to_ts(100 * NSEC_PER_MSEC);

		sig = sigtimedwait(&sigs, NULL, &ts);
		if (sig == SIGUSR1 || sig == SIGUSR2) {
			/* a snapshot: what each load achieved so far */
			struct load_result res[32];
			int n = load_results(lr, res, 32);

			fprintf(stderr, "# snapshot: loads so far (rates since they started):\n");
			load_print(stderr, res, n, "#   ");
			continue;
		}
		if (sig > 0)
			return sig;
		if (end && clock_now_ns(CLOCK_MONOTONIC) >= end)
			return 0;
		load_check(lr);
	}
}

/* Does the list "cpu,none" / "none" name none? */
static bool names_none(const char *list)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",+ ", &save); tok;
	     tok = strtok_r(NULL, ",+ ", &save))
		if (!strcmp(tok, "none"))
			return true;
	return false;
}

static int load_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = { load_cmd_opts, NULL };
	struct load_result res[32];
	struct load_outcome oc;
	struct load_args a;
	struct load_run *lr;
	char err[512], names[128];
	const char *status;
	sigset_t sigs;
	int64_t t0;
	int first, r, n, sig, base = 0, ret;

	memset(&a, 0, sizeof(a));
	load_opts_init(&a.lo);
	/* names and options in any order: parse options up to the next
	 * name, take it, go on with it as argv[0] */
	for (;;) {
		r = opt_parse(argc - base, argv + base, tables, load_cmd_opt, &a,
			      "rtlat load [OPTIONS] NAME...",
			      "Run load generators and print what each achieved, at the end or\n"
			      "on Ctrl-C. NAME: cpu, cache, fork, io, net, msg, or hell (all of\n"
			      "them); see --list. Loads run as SCHED_OTHER processes in their own\n"
			      "process group and die with rtlat; nothing is left behind.\n"
			      "Results on stdout, in the units of each generator.",
			      &first);
		if (r)
			return r > 0 ? 0 : 1;
		base += first;
		if (base >= argc)
			break;
		if (load_parse_names(&a.lo, argv[base], err, sizeof(err)) < 0) {
			log_error("invalid load NAME '%s': %s", argv[base], err);
			return 1;
		}
		a.none |= names_none(argv[base]);
	}
	if (a.list) {
		list_gens();
		return 0;
	}
	if (!load_requested(&a.lo) && !a.none) {
		log_error("no load given: name one or more of cpu, cache, fork, io, net, msg, hell, none, or use --load-cmd (see --list)");
		return 1;
	}
	/* the result is not lost at the end: check where it goes first */
	if (a.json && result_check_writable(a.json, err, sizeof(err)) < 0) {
		log_error("--json: %s", err);
		return 1;
	}
	/* signals wait for the main loop, also during the start */
	stop_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	t0 = clock_now_ns(CLOCK_MONOTONIC);
	if (load_start(&a.lo, &lr, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return 1;
	}
	load_names(&a.lo, names, sizeof(names));
	if (!names[0])
		snprintf(names, sizeof(names), "none");
	log_note("running %s%s", lr ? names : "no load (none)",
		 a.duration_ns ? "" : " until Ctrl-C");
	sig = wait_end(lr, a.duration_ns);
	load_stop(lr);
	n = load_results(lr, res, 32);
	printf("# rtlat load: %s for %.1f s%s\n", names,
	       (double)(n ? res[0].duration_ns :
			clock_now_ns(CLOCK_MONOTONIC) - t0) / 1e9,
	       sig ? " (interrupted)" : "");
	printf("# %-6s %3s %-5s %18s  %s\n", "load", "n", "sched", "achieved",
	       "what");
	load_print(stdout, res, n, "  ");
	memset(&oc, 0, sizeof(oc));
	check_loads(res, n, sig, &oc);
	status = oc.error[0] ? "error" : sig ? "interrupted" : "complete";
	ret = oc.error[0] ? 1 : 0;
	if (a.json && write_json(a.json, lr, status, &oc) < 0)
		ret = 1;
	load_free(lr);
	return fflush(stdout) == 0 ? ret : 1;
}

const struct rtlat_cmd cmd_load = {
	.name = "load",
	.measures = true,
	.summary = "run load generators alone and report what they achieved",
	.main = load_main,
};
