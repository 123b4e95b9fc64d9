// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The loads as a companion of a run (engine.h): the options --load,
 * --load-cmd, ..., started before the memory lock, watched while the test
 * measures, stopped when it ends, and reported in the summary, the result
 * file ("loads") and the headline ("load" lines).
 */
#include <stdio.h>

#include "engine/run_view.h"
#include "util/log.h"
#include "util/jsonw.h"
#include "loads/load.h"

#define MAX_RESULTS 32

struct load_state {
	struct load_opts o;
	struct load_run *lr;		/* running, or NULL */
};

static void lc_init(struct companion *c)
{
	struct load_state *ls = c->state;

	load_opts_init(&ls->o);
}

static int lc_opt(struct companion *c, const struct optdesc *d,
		  const char *arg)
{
	struct load_state *ls = c->state;

	return load_opt(&ls->o, d, arg);
}

/*
 * Before the warm-up, while rtlat has one thread, and before mlockall():
 * locking a writable private page breaks its copy-on-write sharing with
 * the forked load processes, so no sampler ever takes a copy-on-write
 * fault because of them.
 */
static int lc_start_early(struct companion *c, struct run *r, char *err,
			  size_t len)
{
	struct load_state *ls = c->state;
	char names[256];

	ls->o.hk = &r->o->hk;	/* planned by now: the guards go there */
	if (load_start(&ls->o, &ls->lr, err, len) < 0)
		return -1;
	if (load_start_interrupted(ls->lr))
		log_note("stopped while the loads were starting (%s)",
			 load_names(&ls->o, names, sizeof(names)));
	else if (ls->lr)
		log_note("loads running: %s",
			 load_names(&ls->o, names, sizeof(names)));
	return 0;
}

static void lc_tick(struct companion *c, struct run *r)
{
	struct load_state *ls = c->state;

	load_check(ls->lr);	/* a load process that died */
}

/* A load that failed or a command that ended early is a warning (the "with
 * load" figure would be a lie), a command the shell could not run makes
 * the run an error (load_problem()). */
static void lc_stop(struct companion *c, struct run *r)
{
	struct load_state *ls = c->state;
	struct load_result res[MAX_RESULTS];
	char msg[sizeof(r->warnings[0])];
	int i, n;

	if (!ls->lr)
		return;
	load_stop(ls->lr);
	n = load_results(ls->lr, res, MAX_RESULTS);
	for (i = 0; i < n; i++) {
		switch (load_problem(&res[i], msg, sizeof(msg))) {
		case LOAD_WARNING:
			engine_warn(r, "%s", msg);
			break;
		case LOAD_ERROR:
			engine_error(r, msg);
			break;
		}
	}
}

/* On stdout after the summary: what each load achieved (# comments). */
static void lc_summary(struct companion *c, struct run *r)
{
	struct load_state *ls = c->state;
	struct load_result res[MAX_RESULTS];
	int n;

	if (!ls->lr)
		return;
	n = load_results(ls->lr, res, MAX_RESULTS);
	printf("# Loads (achieved during the run; policy as in force):\n");
	load_print(stdout, res, n, "#   ");
}

static void lc_json(struct companion *c, const struct run *r, struct jw *w)
{
	const struct load_state *ls = c->state;

	load_json(ls->lr, w);
}

static void lc_headline(struct companion *c, const struct run *r, FILE *f)
{
	const struct load_state *ls = c->state;
	struct load_result res[MAX_RESULTS];
	char key[96];
	int i, n;

	n = load_results(ls->lr, res, MAX_RESULTS);
	for (i = 0; i < n; i++) {
		const struct load_result *l = &res[i];

		headline_put(f, "load", l->name);
		fprintf(f, "load.%s.workers %d\n", l->name, l->workers);
		snprintf(key, sizeof(key), "load.%s.policy", l->name);
		headline_put(f, key, l->policy);
		fprintf(f, "load.%s.nice %d\n", l->name, l->nice);
		fprintf(f, "load.%s.duration_ns %lld\n", l->name,
			(long long)l->duration_ns);
		if (l->is_command) {
			snprintf(key, sizeof(key), "load.%s.command", l->name);
			headline_put(f, key, l->command);
			fprintf(f, "load.%s.exit_status %d\n", l->name,
				l->exit_status);
			fprintf(f, "load.%s.ran_ns %lld\n", l->name,
				(long long)l->ran_ns);
			if (l->worker_died)
				fprintf(f, "load.%s.worker_died 1\n", l->name);
		} else {
			fprintf(f, "load.%s.count %llu\n", l->name,
				(unsigned long long)l->count);
			fprintf(f, "load.%s.rate %.3f\n", l->name, l->rate);
			snprintf(key, sizeof(key), "load.%s.unit", l->name);
			headline_put(f, key, l->unit);
		}
		snprintf(key, sizeof(key), "load.%s.note", l->name);
		headline_put(f, key, l->note);
		if (l->error[0]) {
			snprintf(key, sizeof(key), "load.%s.error", l->name);
			headline_put(f, key, l->error);
		}
	}
}

/* Stops them on the error paths. */
static void lc_release(struct companion *c, struct run *r)
{
	struct load_state *ls = c->state;

	load_free(ls->lr);
	ls->lr = NULL;
}

const struct optdesc load_optdescs[] = {
	LOAD_OPTDESCS,
	OPT_END
};

const struct companion_ops load_companion = {
	.name = "loads",
	.state_size = sizeof(struct load_state),
	.init = lc_init,
	.opts = load_optdescs,
	.opt = lc_opt,
	.start_early = lc_start_early,
	.tick = lc_tick,
	.stop = lc_stop,
	.summary = lc_summary,
	.json = lc_json,
	.headline = lc_headline,
	.release = lc_release,
};
