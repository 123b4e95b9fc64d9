// SPDX-License-Identifier: GPL-2.0-or-later
/* Options shared by the report commands; see cli.h. */
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "report/cli.h"

enum {
	K_FORMAT = 256, K_INUNIT, K_SETLABEL, K_SETLOAD, K_SETTEST, K_DB,
	K_LABEL, K_BOARD, K_KERNEL, K_TEST, K_LOAD, K_SINCE, K_UNTIL,
	K_MD, K_CSV, K_UNIT, K_THREADS, K_QUIET,
};

const struct optdesc rep_input_opts[] = {
	{ "format", 'F', required_argument, "NAME",
	  "read the inputs as NAME (default: detect): rtlat, cyclictest,\n"
	  "xenomai, rtai, jitterdebugger, oslat, table", K_FORMAT },
	{ "input-unit", 0, required_argument, "ns|us",
	  "unit of unit-less figures in text logs (default: as the log\n"
	  "says; Xenomai integers are ns, cyclictest us)", K_INUNIT },
	{ "set-label", 0, required_argument, "TEXT",
	  "label (row name) for every run read from files", K_SETLABEL },
	{ "set-load", 0, required_argument, "NAME",
	  "load for every run read from files (\"none\" = without load)",
	  K_SETLOAD },
	{ "set-test", 0, required_argument, "KIND",
	  "test kind for every run read from files (latency, klatency, ...)",
	  K_SETTEST },
	{ "db", 0, required_argument, "FILE",
	  "history database (default $XDG_DATA_HOME/rtlat/history.db)", K_DB },
	OPT_END,
};

const struct optdesc rep_filter_opts[] = {
	{ "label", 0, required_argument, "GLOB", "only runs whose label matches",
	  K_LABEL },
	{ "board", 0, required_argument, "GLOB",
	  "only runs on a matching board (or host name)", K_BOARD },
	{ "kernel", 0, required_argument, "GLOB",
	  "only runs on a matching kernel release", K_KERNEL },
	{ "test", 0, required_argument, "GLOB", "only runs of a matching test kind",
	  K_TEST },
	{ "load", 0, required_argument, "GLOB",
	  "only runs with a matching load (none, unnamed, unknown, a name)",
	  K_LOAD },
	{ "since", 0, required_argument, "DATE",
	  "only runs started on or after DATE (2026-11-01[T12:00])", K_SINCE },
	{ "until", 0, required_argument, "DATE",
	  "only runs started on or before DATE", K_UNTIL },
	OPT_END,
};

const struct optdesc rep_output_opts[] = {
	{ "markdown", 0, no_argument, NULL, "tables in Markdown", K_MD },
	{ "csv", 0, no_argument, NULL, "one CSV table, values in ns", K_CSV },
	{ "unit", 'u', required_argument, "ns|us",
	  "unit of the tables (default ns; us has 3 decimals)", K_UNIT },
	{ "threads", 't', no_argument, NULL,
	  "a row per thread/CPU under each run", K_THREADS },
	OPT_END,
};

const struct optdesc rep_common_opts[] = {
	{ "quiet", 'q', no_argument, NULL, "no notes on stderr", K_QUIET },
	OPT_END,
};

void rep_cli_init(struct rep_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->out.unit_ns = 1;
	c->fmt = OUT_TEXT;
}

static int unit_arg(const struct optdesc *d, const char *arg, int64_t *out)
{
	if (!strcmp(arg, "ns"))
		*out = 1;
	else if (!strcmp(arg, "us"))
		*out = 1000;
	else
		return opt_bad_value(d, arg, "ns or us");
	return 0;
}

static int date_arg(const struct optdesc *d, const char *arg)
{
	size_t i, n = strlen(arg);
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	if (n < 4 || n > sizeof(shape) - 1)
		return opt_bad_value(d, arg, "a date like 2026-11-01 or 2026-11-01T12:00");
	for (i = 0; i < n; i++) {
		bool ok = shape[i] == 'd' ? arg[i] >= '0' && arg[i] <= '9' :
			  arg[i] == shape[i] || (shape[i] == 'T' && arg[i] == ' ');
		if (!ok)
			return opt_bad_value(d, arg, "a date like 2026-11-01 or 2026-11-01T12:00");
	}
	return 0;
}

int rep_cli_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct rep_cli *c = ctx;

	switch (d->key) {
	case K_FORMAT:
		if (!importer_find(arg))
			return opt_bad_value(d, arg, "rtlat, cyclictest, xenomai, rtai, jitterdebugger, oslat or table");
		c->imp.format = arg;
		return 0;
	case K_INUNIT:
		return unit_arg(d, arg, &c->imp.input_unit_ns);
	case K_SETLABEL:
		c->imp.label = arg;
		return 0;
	case K_SETLOAD:
		c->imp.load = arg;
		return 0;
	case K_SETTEST:
		c->imp.test = arg;
		return 0;
	case K_DB:
		c->db = arg;
		return 0;
	case K_LABEL:
		c->flt.label = arg;
		return 0;
	case K_BOARD:
		c->flt.board = arg;
		return 0;
	case K_KERNEL:
		c->flt.kernel = arg;
		return 0;
	case K_TEST:
		c->flt.test = arg;
		return 0;
	case K_LOAD:
		c->flt.load = arg;
		return 0;
	case K_SINCE:
		c->flt.since = arg;
		return date_arg(d, arg);
	case K_UNTIL:
		c->flt.until = arg;
		return date_arg(d, arg);
	case K_MD:
		c->fmt = OUT_MARKDOWN;
		return 0;
	case K_CSV:
		c->fmt = OUT_CSV;
		return 0;
	case K_UNIT:
		return unit_arg(d, arg, &c->out.unit_ns);
	case K_THREADS:
		c->out.threads = true;
		return 0;
	case K_QUIET:
		log_set_quiet(true);
		return 0;
	default:
		return 1;
	}
}

int rep_cli_load(struct rep_cli *c, char **paths, int n,
		 struct rep_runs *out)
{
	const char *db = c->db;
	int i, ret = 0;

	for (i = 0; i < n; i++) {
		if (paths[i][0] == '-' && paths[i][1] && access(paths[i], F_OK)) {
			log_error("'%s' after the files: options go before the FILE arguments",
				  paths[i]);
			ret = 1;
			continue;
		}
		if (import_path(paths[i], &c->imp, out))
			ret = 1;
	}
	if (!n && !db) {
		db = rdb_default_path();
		if (!db || access(db, F_OK)) {
			log_error("no input: give result or log files (or directories), or a history database with --db (the default %s does not exist; fill it with: rtlat db add FILE...)",
				  db ? db : "$XDG_DATA_HOME/rtlat/history.db");
			return 1;
		}
	}
	if (db) {
		struct rdb *h = rdb_open(db, false);

		if (!h)
			return 1;
		if (rdb_load(h, &c->flt, out))
			ret = 1;
		rdb_close(h);
	}
	runs_filter(out, &c->flt);
	return ret;
}

void rep_cli_print(const struct rep_cli *c, const struct rep_runs *rs)
{
	struct group *g;
	size_t ng, i;

	if (c->fmt == OUT_CSV) {
		csv_print(stdout, rs, c->out.threads);
		return;
	}
	ng = groups_make(rs, &g);
	for (i = 0; i < ng; i++) {
		struct rtable t;

		table_build(&g[i], &c->out, &t);
		if (i)
			putchar('\n');
		if (c->fmt == OUT_MARKDOWN)
			table_print_markdown(stdout, &t);
		else
			table_print_text(stdout, &t);
		table_free(&t);
	}
	groups_free(g, ng);
}
