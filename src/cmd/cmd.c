// SPDX-License-Identifier: GPL-2.0-or-later
/* The command-line side shared by test commands; see cmd.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/headline.h"
#include "cmd/lab.h"
#include "system/kinfo.h"
#include "util/outfile.h"
#include "system/sysinfo.h"
#include "util/timeutil.h"
#include "engine/engine.h"
#include "util/log.h"
#include "loads/load.h"
#include "metrics/metrics.h"
#include "output/result.h"
#include "trace/trace.h"

#define MAX_TABLES CMD_MAX_TABLES

struct cmd_opt_ctx {
	opt_handler h;
	void *ctx;
	struct engine_opts *o;
	struct companion *comp;
	int ncomp;
	struct lab_opts lab;	/* --lava, --junit */
};

static int cmd_opt(void *p, const struct optdesc *d, const char *arg)
{
	struct cmd_opt_ctx *c = p;
	int i, r = c->h ? c->h(c->ctx, d, arg) : 1;

	if (r <= 0)
		return r;
	r = engine_opt(c->o, d, arg);
	for (i = 0; r > 0 && i < c->ncomp; i++)
		if (c->comp[i].ops->opt)
			r = c->comp[i].ops->opt(&c->comp[i], d, arg);
	if (r > 0)
		r = lab_opt(&c->lab, d, arg);
	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

/* The companions of every test run, in call order: the trace (its summary
 * comes first), the loads, the metrics (after the loads: their processes,
 * forked first, never hold its listening socket). */
static const struct companion_ops *const run_companions[] = {
	&trace_companion, &load_companion, &metrics_companion,
};
#define NCOMP ((int)(sizeof(run_companions) / sizeof(run_companions[0])))

int cmd_companions_init(struct companion *comp, int max)
{
	int i;

	for (i = 0; i < NCOMP && i < max; i++)
		if (companion_init(&comp[i], run_companions[i]) < 0) {
			log_error("out of memory");
			cmd_companions_free(comp, i);
			return -1;
		}
	return i;
}

void cmd_companions_free(struct companion *comp, int n)
{
	int i;

	for (i = 0; i < n; i++)
		companion_free(&comp[i]);
}

/* Does @t take the options of companion @ops? The trace needs a timer
 * series (test_desc.timer_wake), gaps (test_desc.gap_series) or events
 * (test_desc.event_trace); the loads
 * go with every test but one whose tables are the whole command line
 * (cyclic: cyclictest's); the metrics with every test, that one too (no
 * cyclictest option starts with --metrics). */
static bool takes_opts(const struct test_desc *t,
		       const struct companion_ops *ops)
{
	if (ops == &metrics_companion)
		return true;
	return !t->own_options &&
	       (ops != &trace_companion || t->timer_wake || t->gap_series ||
		t->event_trace);
}

static int run_with(const struct test_desc *t, struct engine_opts *o,
		    struct companion *comp, int ncomp, void *priv)
{
	struct engine_env env = {
		.comp = comp,
		.ncomp = ncomp,
		.result = &result_files,
		.priv = priv,
		.argc = rtlat_argc,
		.argv = rtlat_argv,
	};

	return engine_run(t, o, &env);
}

int cmd_test_tables(const struct test_desc *t, const struct optdesc **all,
		    int max)
{
	int i, n = 0;

	for (i = 0; n < max && t->opts[i]; i++)
		all[n++] = t->opts[i];
	for (i = 0; i < NCOMP && n < max; i++)
		if (run_companions[i]->opts && takes_opts(t, run_companions[i]))
			all[n++] = run_companions[i]->opts;
	all[n] = NULL;
	return n;
}

/* A file in memory for the headline (a temporary file where there is no
 * memfd_create()), or -1 (said). */
static int headline_tmp(void)
{
	FILE *f;
	int fd = memfd_create("rtlat-headline", MFD_CLOEXEC);

	if (fd >= 0 || errno != ENOSYS)
		goto out;
	f = tmpfile();
	fd = f ? dup(fileno(f)) : -1;
	if (f)
		fclose(f);
out:
	if (fd < 0)
		log_error("--lava/--junit: cannot make a file for the run's figures: %s",
			  strerror(errno));
	return fd;
}

/* The run's load state as the suite names it: "none", "cpu+io". */
static void load_state(const struct headline *h, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	snprintf(buf, len, "none");
	for (i = 0; i < h->nloads && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "+" : "",
				      h->loads[i].name);
}

/* --kcidb of a single run, its environment this system's. */
static int lab_kcidb_run(const struct lab_run *lr, const struct lab_opts *lab)
{
	struct sysdesc *sys = calloc(1, sizeof(*sys));
	struct lab_kcidb k = {
		.origin = lab->kcidb_origin ? lab->kcidb_origin : "rtlat",
		.build_id = lab->kcidb_build,
		.started = lr->wall_start,
	};
	int r;

	if (!sys) {
		log_error("out of memory");
		return -1;
	}
	sysdesc_read(sys, "/");
	k.host = sys->hostname;
	k.board = sys->board;
	k.kernel = sys->release;
	r = lab_kcidb(lr, 1, lab->kcidb, &k);
	free(sys);
	return r;
}

/*
 * Run @t and report it for a lab (--lava, --junit): its headline (also
 * passed on to a --headline-fd of the user's) read back into test cases
 * (lab.c). The exit status is the run's, 1 when a lab output failed.
 */
static int run_lab(const struct test_desc *t, struct engine_opts *o,
		   struct companion *comp, int ncomp, void *priv,
		   const struct lab_opts *lab)
{
	int user_fd = o->headline_fd, fd, status;
	struct headline *h = NULL;
	char *text = NULL, name[96], loads[64], err[PATH_MAX + 128];
	int64_t start, end;
	struct lab_run lr;
	size_t len;

	if (lab->junit &&
	    result_check_writable(lab->junit, err, sizeof(err)) < 0) {
		log_error("--junit: %s", err);
		return 1;
	}
	if (lab->kcidb &&
	    result_check_writable(lab->kcidb, err, sizeof(err)) < 0) {
		log_error("--kcidb: %s", err);
		return 1;
	}
	/* the run's own outputs (--json, --metrics, ...) claim theirs after */
	if ((lab->junit &&
	     output_claim("--junit", lab->junit, err, sizeof(err)) < 0) ||
	    (lab->kcidb &&
	     output_claim("--kcidb", lab->kcidb, err, sizeof(err)) < 0)) {
		log_error("%s", err);
		return 1;
	}
	fd = headline_tmp();
	if (fd < 0)
		return 1;
	o->headline_fd = fd;
	start = clock_now_ns(CLOCK_REALTIME);
	status = run_with(t, o, comp, ncomp, priv);
	end = clock_now_ns(CLOCK_REALTIME);
	o->headline_fd = user_fd;
	if (output_claim_refused()) {
		/* refused: one of its files is also a lab output's */
		close(fd);
		return status;
	}
	/* the whole of it, from its start, through a descriptor of its own */
	snprintf(err, sizeof(err), "/proc/self/fd/%d", fd);
	text = file_read_whole(err, &len);
	close(fd);
	h = calloc(1, sizeof(*h));
	if (!text || !h) {
		log_error("out of memory");
		free(text);
		free(h);
		return 1;
	}
	if (user_fd >= 0) {
		FILE *f = fdopen(dup(user_fd), "w");

		if (f) {
			fputs(text, f);
			fclose(f);
		}
	}
	if (headline_parse(h, text) < 0)
		h->valid = false;
	load_state(h, loads, sizeof(loads));
	snprintf(name, sizeof(name), "%s-%s", t->name, loads);
	lr = (struct lab_run){
		.name = name, .test = t->name, .h = h, .ran = true,
		.error = h->valid ? "" : "the run failed before it measured",
		.max_latency_ns = o->max_latency_ns,
		.load = loads, .wall_start = start,
	};
	stdout_flush();
	if (lab->lava && lab_lava(&lr, 1, stdout) < 0)
		status = 1;
	if (lab->junit) {
		char cls[64];

		snprintf(cls, sizeof(cls), "rtlat.%s", t->name);
		if (lab_junit(&lr, 1, lab->junit, t->name, cls, start, end) < 0)
			status = 1;
	}
	if (lab->kcidb && lab_kcidb_run(&lr, lab) < 0)
		status = 1;
	free(text);
	free(h);
	return status;
}

/* Parse @argv with @tables and the companions' tables, each option to @h
 * first, then the engine's, then the companions'; run @t with @priv. */
static int parse_and_run(int argc, char **argv,
			 const struct optdesc *const *tables, opt_handler h,
			 void *ctx, struct engine_opts *o, const char *usage,
			 const char *about, const struct test_desc *t,
			 void *priv)
{
	const struct optdesc *all[MAX_TABLES + 1];
	struct companion comp[NCOMP];
	struct cmd_opt_ctx c = { h, ctx, o, comp, 0, { 0 } };
	int i, n = 0, r;

	output_claims_reset();	/* this command's outputs, none yet */
	c.ncomp = cmd_companions_init(comp, NCOMP);
	if (c.ncomp < 0)
		return 1;
	for (i = 0; n < MAX_TABLES && tables[i]; i++)
		all[n++] = tables[i];
	for (i = 0; i < c.ncomp && n < MAX_TABLES; i++)
		if (comp[i].ops->opts && takes_opts(t, comp[i].ops))
			all[n++] = comp[i].ops->opts;
	if (n < MAX_TABLES)
		all[n++] = lab_optdescs;
	all[n] = NULL;
	r = opt_parse_options(argc, argv, all, cmd_opt, &c, usage, about);
	if (r)
		r = r > 0 ? 0 : 1;
	else if (t->configure && t->configure(priv, o) < 0)
		r = 1;
	else if (c.lab.lava || c.lab.junit || c.lab.kcidb)
		r = run_lab(t, o, comp, c.ncomp, priv, &c.lab);
	else
		r = run_with(t, o, comp, c.ncomp, priv);
	cmd_companions_free(comp, c.ncomp);
	output_claims_reset();	/* nothing left allocated (valgrind) */
	return r;
}

struct test_opt_ctx {
	const struct test_desc *t;
	void *priv;
	struct engine_opts *o;
};

static int test_opt(void *p, const struct optdesc *d, const char *arg)
{
	struct test_opt_ctx *c = p;

	return c->t->opt ? c->t->opt(c->priv, c->o, d, arg) : 1;
}

int cmd_test_main(const struct test_desc *t, int argc, char **argv)
{
	static struct optdesc helped[2][64];	/* common, timer */
	const struct optdesc *tables[MAX_TABLES + 1];
	struct test_opt_ctx c = { t, NULL, NULL };
	struct engine_opts o;
	char usage[64];
	int i, r;

	c.priv = calloc(1, t->priv_size ? t->priv_size : 1);
	if (!c.priv) {
		log_error("out of memory");
		return 1;
	}
	c.o = &o;
	engine_opts_init(&o, t->period_ns, t->prio);
	if (t->init)
		t->init(c.priv, &o, argc, argv);
	/* the help of a shared option as it applies to @t */
	for (i = 0; i < MAX_TABLES && t->opts[i]; i++) {
		int h = t->opts[i] == engine_common_opts ? 0 :
			t->opts[i] == engine_timer_opts ||
			t->opts[i] == engine_period_opts ? 1 : -1;

		tables[i] = t->help && h >= 0 ?
			    opt_table_help(helped[h], sizeof(helped[h]) /
					   sizeof(helped[h][0]),
					   t->opts[i], t->help) :
			    t->opts[i];
	}
	tables[i] = NULL;
	snprintf(usage, sizeof(usage), "rtlat %s [OPTIONS]", t->name);
	r = parse_and_run(argc, argv, tables, test_opt, &c, &o, usage,
			  t->about, t, c.priv);
	free(c.priv);
	return r;
}

const struct suite_spec *cmd_spec_of(const char *test)
{
	const struct rtlat_cmd *c = cmd_find(test);

	return c && c->test ? c->suite : NULL;
}

const char *const *cmd_load_names(void)
{
	static const char *names[32];
	int i;

	for (i = 0; i < 31 && load_gens[i]; i++)
		names[i] = load_gens[i]->name;
	names[i] = NULL;
	return names;
}
