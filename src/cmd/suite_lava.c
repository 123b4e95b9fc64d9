// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat suite results for board farms and CI: the suite's runs as lab runs
 * (lab.h), written as LAVA test cases (--lava), JUnit XML (--junit FILE)
 * and KCIDB JSON (--kcidb FILE) by lab.c.
 */
#include <stdlib.h>

#include "cmd/lab.h"
#include "cmd/suite.h"
#include "core/log.h"

struct suite_lab {
	struct lab_run *run;
	char (*name)[96];
};

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
	}
	return 0;
}

int suite_lava(const struct suite *s, FILE *f)
{
	struct suite_lab l;
	int r;

	if (lab_runs(s, &l) < 0)
		return -1;
	r = lab_lava(l.run, s->nruns, f);
	free(l.run);
	free(l.name);
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
	free(l.run);
	free(l.name);
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
	free(l.run);
	free(l.name);
	return r;
}
