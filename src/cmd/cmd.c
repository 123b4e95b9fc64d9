// SPDX-License-Identifier: GPL-2.0-or-later
/* The command-line side shared by test commands; see cmd.h. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/engine.h"
#include "core/log.h"
#include "loads/load.h"
#include "output/result.h"
#include "trace/trace.h"

#define MAX_TABLES 16

struct cmd_opt_ctx {
	opt_handler h;
	void *ctx;
	struct engine_opts *o;
	struct companion *comp;
	int ncomp;
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
	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

/* The companions of every test run, in call order: the trace (its summary
 * comes first), the loads. */
static const struct companion_ops *const run_companions[] = {
	&trace_companion, &load_companion,
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
 * series (test_desc.timer_wake); the loads go with every test. */
static bool takes_opts(const struct test_desc *t,
		       const struct companion_ops *ops)
{
	return ops != &trace_companion || t->timer_wake;
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
	struct cmd_opt_ctx c = { h, ctx, o, comp, 0 };
	int i, n = 0, r;

	c.ncomp = cmd_companions_init(comp, NCOMP);
	if (c.ncomp < 0)
		return 1;
	for (i = 0; n < MAX_TABLES && tables[i]; i++)
		all[n++] = tables[i];
	for (i = 0; i < c.ncomp && n < MAX_TABLES && !t->own_options; i++)
		if (comp[i].ops->opts && takes_opts(t, comp[i].ops))
			all[n++] = comp[i].ops->opts;
	all[n] = NULL;
	r = opt_parse_options(argc, argv, all, cmd_opt, &c, usage, about);
	if (r)
		r = r > 0 ? 0 : 1;
	else if (t->configure && t->configure(priv, o) < 0)
		r = 1;
	else
		r = run_with(t, o, comp, c.ncomp, priv);
	cmd_companions_free(comp, c.ncomp);
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
			t->opts[i] == engine_timer_opts ? 1 : -1;

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

const char *const *cmd_load_names(void)
{
	static const char *names[32];
	int i;

	for (i = 0; i < 31 && load_gens[i]; i++)
		names[i] = load_gens[i]->name;
	names[i] = NULL;
	return names;
}
