// SPDX-License-Identifier: GPL-2.0-or-later
/* Options shared by the report commands; see cli.h. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/label.h"
#include "util/log.h"
#include "report/cli.h"
#include "report/format.h"

const struct optdesc rep_input_opts[] = {
	{ "format", 'F', required_argument, "NAME",
	  "read the inputs as NAME (default: detect): rtlat, cyclictest,\n"
	  "xenomai, rtai, jitterdebugger, oslat, rt-tests, rtla, stress-ng,\n"
	  "table", OPT_REP_FORMAT },
	{ "input-unit", 0, required_argument, "ns|us",
	  "unit of unit-less figures in text logs (default: as the log\n"
	  "says; Xenomai integers are ns, cyclictest us)", OPT_REP_INUNIT },
	{ "set-label", 0, required_argument, "TEXT",
	  "label (row name) for every run read from files", OPT_REP_SETLABEL },
	{ "set-load", 0, required_argument, "NAME",
	  "load for every run read from files (\"none\" = without load)",
	  OPT_REP_SETLOAD },
	{ "set-test", 0, required_argument, "KIND",
	  "test kind for every run read from files (latency, klatency, ...)",
	  OPT_REP_SETTEST },
	{ "db", 0, required_argument, "FILE|URL",
	  "history database: an SQLite FILE or a postgresql:// URL\n"
	  "(default $RTLAT_DB_URL, else $XDG_DATA_HOME/rtlat/history.db)", OPT_REP_DB },
	{ "url", 0, required_argument, "URL",
	  "the history on a PostgreSQL server, postgresql://[USER@]HOST/DB\n"
	  "(the same as --db URL)", OPT_REP_URL },
	OPT_END,
};

const struct optdesc rep_filter_opts[] = {
	{ "label", 0, required_argument, "GLOB", "only runs whose label matches",
	  OPT_REP_LABEL },
	{ "board", 0, required_argument, "GLOB",
	  "only runs on a matching board (or host name)", OPT_REP_BOARD },
	{ "kernel", 0, required_argument, "GLOB",
	  "only runs on a matching kernel release", OPT_REP_KERNEL },
	{ "test", 0, required_argument, "GLOB", "only runs of a matching test kind",
	  OPT_REP_TEST },
	{ "load", 0, required_argument, "GLOB",
	  "only runs with a matching load (none, unnamed, unknown, a name)",
	  OPT_REP_LOAD },
	{ "since", 0, required_argument, "DATE",
	  "only runs started on or after DATE (2026-11-01[T12:00])", OPT_REP_SINCE },
	{ "until", 0, required_argument, "DATE",
	  "only runs started on or before DATE", OPT_REP_UNTIL },
	OPT_END,
};

const struct optdesc rep_output_opts[] = {
	{ "markdown", 0, no_argument, NULL, "tables in Markdown", OPT_REP_MD },
	{ "csv", 0, no_argument, NULL, "one CSV table, values in ns", OPT_REP_CSV },
	{ "unit", 'u', required_argument, "us|ns",
	  "unit of the tables (default us, 3 decimals, as rtlat suite,\n"
	  "Xenomai and cyclictest; --unit ns for whole nanoseconds)", OPT_REP_UNIT },
	{ "threads", 't', no_argument, NULL,
	  "a row per thread/CPU under each run", OPT_REP_THREADS },
	OPT_END,
};

const struct optdesc rep_common_opts[] = {
	{ "quiet", 'q', no_argument, NULL,
	  "no notes on stderr (a write that waits for another writer\n"
	  "still says so)", OPT_REP_QUIET },
	OPT_END,
};

void rep_cli_init(struct rep_cli *c)
{
	memset(c, 0, sizeof(*c));
	c->out.unit_ns = 1000;	/* us, as rtlat suite, Xenomai and cyclictest */
	c->out.html_runs = -1;
	c->fmt = rep_formats[0];
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

const char *rep_date_check(char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";
	static const char *const bad_shape =
		"a date or time prefix: 2026, 2026-11, 2026-11-01, 2026-11-01T12, 2026-11-01T12:00 or 2026-11-01T12:00:00 (UTC)";
	static const unsigned char mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31,
					       30, 31, 30, 31 };
	size_t i, n = strlen(s);
	int y, mo, da;

	if (n != 4 && n != 7 && n != 10 && n != 13 && n != 16 && n != 19)
		return bad_shape;
	for (i = 0; i < n; i++) {
		if (shape[i] == 'T' && s[i] == ' ')
			s[i] = 'T';	/* "2026-11-01 12:00" */
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' : s[i] != shape[i])
			return bad_shape;
	}
#define F(at) ((s[at] - '0') * 10 + (s[(at) + 1] - '0'))
	y = F(0) * 100 + F(2);
	if (n >= 7 && (F(5) < 1 || F(5) > 12))
		return "no such month (01 to 12)";
	mo = n >= 7 ? F(5) : 1;
	if (n >= 10) {
		da = F(8);
		if (da < 1 || da > mdays[mo - 1] ||
		    (mo == 2 && da == 29 &&
		     (y % 4 || (y % 100 == 0 && y % 400))))
			return "no such day in that month";
	}
	if (n >= 13 && F(11) > 23)
		return "no such hour (00 to 23)";
	if (n >= 16 && F(14) > 59)
		return "no such minute (00 to 59)";
	if (n >= 19 && F(17) > 59)
		return "no such second (00 to 59)";
#undef F
	return NULL;
}

int rep_selector_parse(char *spec, struct filter *f)
{
	static const char *const keys[] = { "label", "board", "kernel", "test",
					    "load", "baseline", "since", "until" };
	char *tok, *save = NULL;
	size_t len = strlen(spec), k;
	unsigned seen = 0;

	memset(f, 0, sizeof(*f));
	if (!len || spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,")) {
		log_error("bad selector '%s': an empty KEY=GLOB between commas", spec);
		return -1;
	}
	for (tok = strtok_r(spec, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq)
			goto bad;
		*eq++ = '\0';
		/* a key twice would keep only the last: say so */
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(tok, keys[k]))
				break;
		if (k < sizeof(keys) / sizeof(keys[0])) {
			if (seen & 1u << k) {
				log_error("bad selector: %s= given twice (one GLOB per key; a glob such as 'b[12]' or 'b*' matches several)",
					  tok);
				return -1;
			}
			seen |= 1u << k;
		}
		if (!strcmp(tok, "label"))
			f->label = eq;
		else if (!strcmp(tok, "board"))
			f->board = eq;
		else if (!strcmp(tok, "kernel"))
			f->kernel = eq;
		else if (!strcmp(tok, "test"))
			f->test = eq;
		else if (!strcmp(tok, "load"))
			f->load = eq;
		else if (!strcmp(tok, "baseline")) {
			if (strcmp(eq, "yes") != 0 && strcmp(eq, "no") != 0) {
				log_error("bad selector baseline=%s: yes (the runs marked as their board's baseline) or no",
					  eq);
				return -1;
			}
			f->baseline = eq;
		} else if (!strcmp(tok, "since") || !strcmp(tok, "until")) {
			const char *why = rep_date_check(eq);

			if (why) {
				log_error("bad selector date %s=%s: %s", tok, eq, why);
				return -1;
			}
			if (tok[0] == 's')
				f->since = eq;
			else
				f->until = eq;
		} else {
			goto bad;
		}
	}
	return 0;
bad:
	log_error("bad selector '%s': expected KEY=GLOB[,KEY=GLOB] with KEY one of label, board, kernel, test, load, since, until, baseline",
		  tok);
	return -1;
}

/* --since/--until: checked, and kept with 'T' between date and time. */
static int date_arg(const struct optdesc *d, const char *arg, char *buf,
		    size_t len, const char **out)
{
	const char *why;

	if (strlen(arg) >= len)
		return opt_bad_value(d, arg, "a date like 2026-11-01 or 2026-11-01T12:00");
	memcpy(buf, arg, strlen(arg) + 1);
	why = rep_date_check(buf);
	if (why)
		return opt_bad_value(d, arg, why);
	*out = buf;
	return 0;
}

/* An output format's option (--markdown, --csv: format.h): 0, -1 after
 * an error, 1 when @d is none. */
static int format_opt(struct rep_cli *c, const struct optdesc *d)
{
	const struct rep_format *f = d->key ? rep_format_of_key(d->key) : NULL;

	if (!f)
		return 1;
	if (c->cmd && !(f->cmds & c->cmd)) {
		log_error("--%s: not an output format of this command", d->lng);
		return -1;
	}
	c->fmt = f;
	return 0;
}

int rep_cli_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct rep_cli *c = ctx;
	int r = format_opt(c, d);

	if (r <= 0)
		return r;
	switch (d->key) {
	case OPT_REP_FORMAT:
		if (!importer_find(arg))
			return opt_bad_value(d, arg, "rtlat, cyclictest, xenomai, rtai, jitterdebugger, oslat, rt-tests, rtla, stress-ng or table");
		c->imp.format = arg;
		return 0;
	case OPT_REP_INUNIT:
		return unit_arg(d, arg, &c->imp.input_unit_ns);
	case OPT_REP_SETLABEL: {
		const char *why = label_check(arg);

		if (why)
			return opt_bad_value(d, arg, why);
		c->imp.label = arg;
		return 0;
	}
	case OPT_REP_SETLOAD:
		if (!*arg || text_has_ctrl(arg) || strchr(arg, '|') || strstr(arg, ", "))
			return opt_bad_value(d, arg, "a load name (none, cpu, cpu+io, ...): not empty, without '|' or \", \"");
		c->imp.load = arg;
		return 0;
	case OPT_REP_SETTEST:
		if (!*arg || arg[strspn(arg, "abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")])
			return opt_bad_value(d, arg, "a test kind: one word of letters, digits, '-' and '_' (latency, klatency, switch, ...)");
		c->imp.test = arg;
		return 0;
	case OPT_REP_URL:
		if (!rdb_is_url(arg))
			return opt_bad_value(d, arg, "a postgresql:// URL (an SQLite file goes with --db FILE)");
		c->db = arg;
		return 0;
	case OPT_REP_DB: {
		const char *why = rdb_name_check(arg);

		if (why)
			return opt_bad_value(d, rdb_shown(arg), why);
		c->db = arg;
		return 0;
	}
	case OPT_REP_LABEL:
		c->flt.label = arg;
		return 0;
	case OPT_REP_BOARD:
		c->flt.board = arg;
		return 0;
	case OPT_REP_KERNEL:
		c->flt.kernel = arg;
		return 0;
	case OPT_REP_TEST:
		c->flt.test = arg;
		return 0;
	case OPT_REP_LOAD:
		c->flt.load = arg;
		return 0;
	case OPT_REP_SINCE:
		return date_arg(d, arg, c->since, sizeof(c->since), &c->flt.since);
	case OPT_REP_UNTIL:
		return date_arg(d, arg, c->until, sizeof(c->until), &c->flt.until);
	case OPT_REP_UNIT:
		return unit_arg(d, arg, &c->out.unit_ns);
	case OPT_REP_THREADS:
		c->out.threads = true;
		return 0;
	case OPT_REP_QUIET:
		log_set_quiet(true);
		return 0;
	default:
		return 1;
	}
}

/* The option of @tables that "--@name" (up to '=' or the end) stands for:
 * exact, else an unambiguous prefix (as getopt_long() takes it). */
static const struct optdesc *long_opt(const struct optdesc *const *tables,
				      const char *name)
{
	const struct optdesc *d, *hit = NULL;
	size_t n = strcspn(name, "=");
	int t, hits = 0;

	for (t = 0; tables[t]; t++) {
		for (d = tables[t]; d->lng || d->shrt; d++) {
			if (!d->lng || strncmp(d->lng, name, n) != 0)
				continue;
			if (!d->lng[n])
				return d;
			hit = d;
			hits++;
		}
	}
	return hits == 1 ? hit : NULL;
}

static const struct optdesc *short_opt(const struct optdesc *const *tables,
				       int c)
{
	const struct optdesc *d;
	int t;

	for (t = 0; tables[t]; t++)
		for (d = tables[t]; d->lng || d->shrt; d++)
			if (d->shrt == c)
				return d;
	return NULL;
}

char **rep_cli_argv(int argc, char **argv, const struct optdesc *const *tables,
		    int *nopt, int *nargs)
{
	char **v = xcalloc((size_t)argc + 1, sizeof(*v)), **ops;
	int i, no = 1, nops = 0;

	ops = xcalloc((size_t)argc + 1, sizeof(*ops));
	v[0] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool value = false;

		if (!strcmp(a, "--")) {
			while (++i < argc)
				ops[nops++] = argv[i];
			break;
		}
		if (a[0] != '-' || !a[1]) {
			ops[nops++] = argv[i];	/* an operand ("-" too) */
			continue;
		}
		if (a[1] == '-') {
			const struct optdesc *d = long_opt(tables, a + 2);

			value = d && d->has_arg == required_argument &&
				!strchr(a, '=');
		} else {
			const char *p;

			/* a cluster "-tq", "-uus", "-u us" */
			for (p = a + 1; *p; p++) {
				const struct optdesc *d = short_opt(tables, *p);

				if (!d || d->has_arg == no_argument)
					continue;
				value = d->has_arg == required_argument && !p[1];
				break;
			}
		}
		v[no++] = argv[i];
		if (value && i + 1 < argc)
			v[no++] = argv[++i];
	}
	*nopt = no;
	*nargs = no + nops;
	memcpy(v + no, ops, (size_t)nops * sizeof(*v));
	v[no + nops] = NULL;
	free(ops);
	return v;
}

/* Drop from @files the runs that are also in @stored (the same identity,
 * as db add matches them): the history's copy, with its baseline mark,
 * stays. */
static void drop_stored(struct rep_runs *files, const struct rep_runs *stored)
{
	char (*id)[REP_IDENT_LEN];
	size_t i, j, k = 0;

	if (!files->n || !stored->n)
		return;
	id = xcalloc(stored->n, sizeof(*id));
	for (j = 0; j < stored->n; j++)
		rdb_identity(stored->v[j], id[j]);
	for (i = 0; i < files->n; i++) {
		char x[REP_IDENT_LEN];
		bool dup = false;

		rdb_identity(files->v[i], x);
		for (j = 0; j < stored->n && !dup; j++)
			dup = !strcmp(x, id[j]);
		if (dup)
			run_free(files->v[i]);
		else
			files->v[k++] = files->v[i];
	}
	files->n = k;
	free(id);
}

int rep_cli_load(struct rep_cli *c, char **paths, int n,
		 struct rep_runs *out)
{
	const char *db = c->db;
	struct rep_runs files;
	int ret = 0;

	runs_init(&files);
	if (n && import_paths(paths, n, &c->imp, &files))
		ret = 1;
	if (!n && !db) {
		db = rdb_default_path();
		/* a URL (RTLAT_DB_URL) is tried: the server says what is
		 * wrong; a name that is none (a mistyped URL) is refused by
		 * rdb_open() as db refuses it, not taken for an empty history */
		if (!rdb_exists(db)) {
			log_error("no input: give result or log files (or directories), or a history database with --db (the default %s does not exist; fill it with: rtlat db add FILE...)",
				  db ? db : "$XDG_DATA_HOME/rtlat/history.db");
			runs_free(&files);
			return 1;
		}
	}
	if (db) {
		struct rdb *h = rdb_open(db, false);
		struct rep_runs stored;

		runs_init(&stored);
		if (!h || rdb_load_latest(h, &c->flt, c->limit, &stored))
			ret = 1;
		rdb_close(h);
		/* a file given that is in the history too counts once */
		drop_stored(&files, &stored);
		runs_move(out, &files);
		runs_move(out, &stored);
	}
	runs_move(out, &files);
	runs_filter(out, &c->flt);
	return ret;
}

int rep_cli_summary(struct rep_cli *c, bool *done, int *sig)
{
	const char *db = c->db ? c->db : rdb_default_path();
	struct rdb_summary s;
	struct rdb *h;
	int64_t n;
	int ret = 0;

	*done = false;
	*sig = 0;
	if (c->runs || c->limit || c->out.threads ||
	    (c->html && !c->out.html_longterm) ||
	    (!c->db && !rdb_exists(db)))
		return 0;	/* rep_cli_load() says what is missing */
	h = rdb_open(db, false);
	if (!h || rdb_count(h, &c->flt, &n)) {
		rdb_close(h);
		*done = true;
		return 1;
	}
	if (n <= RDB_SUMMARY_RUNS && !c->summary) {
		rdb_close(h);
		return 0;
	}
	*done = true;
	if (!n) {
		rdb_close(h);
		log_error("no run matches the filters");
		return 1;
	}
	if (rdb_summary(h, &c->flt, &s)) {
		rdb_close(h);
		return 1;
	}
	if (!c->summary)
		log_note("%s: %lld runs (more than %d): a row per board, kernel, test and load; the runs with --runs or --limit N",
			 rdb_shown(db), (long long)n, RDB_SUMMARY_RUNS);
	summary_print(stdout, &s, c->fmt->name, &c->out);
	if (c->html) {
		struct rdb_env_row *rows = NULL;
		size_t nrows = 0;
		int nplots = 0, r = -1;

		if (!rdb_envelope(h, &c->flt, &rows, &nrows))
			r = html_longterm_db(c->html, rows, nrows, &s, &c->out,
					     &nplots);
		rdb_envelope_free(rows, nrows);
		if (r > 0)
			*sig = r;
		else if (r)
			ret = 1;
		else
			log_note("%s: %lld runs, %d plots (a point per day or week, aggregated by the database)",
				 c->html, (long long)s.runs, nplots);
	}
	rdb_close(h);
	rdb_summary_free(&s);
	return ret;
}

void rep_cli_print(const struct rep_cli *c, const struct rep_runs *rs)
{
	c->fmt->runs(stdout, rs, &c->out);
}
