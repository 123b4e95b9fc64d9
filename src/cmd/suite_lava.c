// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat suite results for board farms and CI: the suite's runs as lab runs
 * (lab.h), written as LAVA test cases (--lava), JUnit XML (--junit FILE)
 * and KCIDB JSON (--kcidb FILE) by lab.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd/lab.h"
#include "cmd/suite.h"
#include "util/log.h"
#include "util/parse.h"

struct suite_lab {
	struct lab_run *run;
	char (*name)[96];
	struct lab_case *gate;
};

/* The --gate verdicts as cases, TEST-LOAD-SERIES-gate-METRIC: fail for a
 * metric worse than the baseline, skip for a weak or n/a verdict, with
 * the reason and the value compared; after the last run's cases. */
static void gate_cases(const struct suite *s, struct suite_lab *l)
{
	int i;

	if (!s->ngate_cases || !s->nruns)
		return;
	l->gate = calloc((size_t)s->ngate_cases, sizeof(*l->gate));
	if (!l->gate) {
		log_error("out of memory: the --gate cases are left out");
		return;
	}
	for (i = 0; i < s->ngate_cases; i++) {
		const struct suite_gate_case *g = &s->gate_cases[i];
		struct lab_case *c = &l->gate[i];

		lab_case_id(c->id, sizeof(c->id), g->id);
		c->result = g->result;
		c->status = !strcmp(g->result, "fail") ? "FAIL" :
			    !strcmp(g->result, "skip") ? "SKIP" : "PASS";
		c->has_value = g->units != NULL;
		snprintf(c->value, sizeof(c->value), "%s", g->value);
		snprintf(c->units, sizeof(c->units), "%s",
			 g->units ? g->units : "");
		snprintf(c->why, sizeof(c->why), "%s", g->why);
		/* KCIDB path: rtlat.TEST.LOAD.SERIES.gate.METRIC, that of
		 * the table it gates (not of the run it follows) */
		{
			const char *m = strstr(g->id, "-gate-");

			snprintf(c->gseries, sizeof(c->gseries), "%s", g->series);
			c->series = c->gseries;
			snprintf(c->gtest, sizeof(c->gtest), "%s", g->test);
			snprintf(c->gload, sizeof(c->gload), "%s", g->load);
			snprintf(c->what, sizeof(c->what), "gate-%s",
				 m ? m + 6 : "verdict");
		}
	}
	l->run[s->nruns - 1].extra = l->gate;
	l->run[s->nruns - 1].nextra = s->ngate_cases;
}

/* The lab runs of @s, named TEST-LOAD. Returns 0 or -1 (said). */
static int lab_runs(const struct suite *s, struct suite_lab *l)
{
	int i;

	l->run = calloc((size_t)s->nruns + 1, sizeof(*l->run));
	l->name = calloc((size_t)s->nruns + 1, sizeof(*l->name));
	if (!l->run || !l->name) {
		free(l->run);
		free(l->name);
		log_error("out of memory");
		return -1;
	}
	for (i = 0; i < s->nruns; i++) {
		const struct suite_run *r = &s->runs[i];

		snprintf(l->name[i], sizeof(l->name[i]), "%s-%s", r->cmd->name,
			 r->load);
		l->run[i].name = l->name[i];
		l->run[i].test = r->cmd->name;
		l->run[i].h = &r->hl;
		l->run[i].ran = r->ran;
		l->run[i].error = r->ran ? r->error :
				  "not run: the suite was interrupted";
		l->run[i].max_latency_ns = s->max_latency_ns;
		l->run[i].load = r->load;
		l->run[i].wall_start = r->ran ? r->wall_start_ns : 0;
	}
	l->gate = NULL;
	gate_cases(s, l);
	return 0;
}

static void lab_runs_free(struct suite_lab *l)
{
	free(l->run);
	free(l->name);
	free(l->gate);
}

int suite_lava(const struct suite *s, FILE *f)
{
	struct suite_lab l;
	int r;

	if (lab_runs(s, &l) < 0)
		return -1;
	r = lab_lava(l.run, s->nruns, f);
	lab_runs_free(&l);
	return r;
}

int suite_junit(const struct suite *s, const char *path)
{
	struct suite_lab l;
	int r;

	if (lab_runs(s, &l) < 0)
		return -1;
	r = lab_junit(l.run, s->nruns, path, s->label, "rtlat.suite",
		      s->wall_start, s->wall_end);
	lab_runs_free(&l);
	return r;
}

int suite_kcidb(const struct suite *s)
{
	struct lab_kcidb k = {
		.origin = s->kcidb.kcidb_origin ? s->kcidb.kcidb_origin : "rtlat",
		.build_id = s->kcidb.kcidb_build,
		.host = s->sys.hostname,
		.board = s->sys.board,
		.kernel = s->sys.release,
		.started = s->wall_start,
	};
	struct suite_lab l;
	int r;

	if (lab_runs(s, &l) < 0)
		return -1;
	r = lab_kcidb(l.run, s->nruns, s->kcidb.kcidb, &k);
	lab_runs_free(&l);
	return r;
}
