// SPDX-License-Identifier: GPL-2.0-or-later
/* The command-line side shared by test commands; see cmd.h. */
#include "cmd/cmd.h"
#include "core/engine.h"
#include "core/log.h"

struct cmd_opt_ctx {
	opt_handler h;
	void *ctx;
	struct engine_opts *o;
};

static int cmd_opt(void *p, const struct optdesc *d, const char *arg)
{
	struct cmd_opt_ctx *c = p;
	int r = c->h ? c->h(c->ctx, d, arg) : 1;

	if (r <= 0)
		return r;
	r = engine_opt(c->o, d, arg);
	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

int cmd_run_test(int argc, char **argv, const struct optdesc *const *tables,
		 opt_handler h, void *ctx, struct engine_opts *o,
		 const char *usage, const char *about,
		 const struct test_desc *t)
{
	struct cmd_opt_ctx c = { h, ctx, o };
	int r;

	r = opt_parse_options(argc, argv, tables, cmd_opt, &c, usage, about);
	if (r)
		return r > 0 ? 0 : 1;
	return engine_run(t, o, rtlat_argc, rtlat_argv);
}
