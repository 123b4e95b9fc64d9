// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat db: the history of runs in an SQLite file or a PostgreSQL
 * database.
 *   rtlat db add PATH...      import and store (a run stored before is kept once)
 *   rtlat db list [FILTERS]   one line per stored run
 *   rtlat db remove ID...     forget runs
 *   rtlat db info             where the database is, schema version, counts
 *   rtlat db baseline set|show|clear [SELECTOR]
 *                             mark runs as their board's baseline (the gate's)
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "util/log.h"

#ifdef HAVE_REPORT
#include "util/label.h"
#include "util/parse.h"
#include "util/url.h"
#include "report/cli.h"

static const char db_usage[] =
	"rtlat db add [OPTIONS] FILE|DIR...\n"
	"       rtlat db list [OPTIONS]\n"
	"       rtlat db remove [OPTIONS] ID...\n"
	"       rtlat db info [OPTIONS]\n"
	"       rtlat db baseline set|show|clear [OPTIONS] [SELECTOR]";

static const char db_about[] =
	"Keep runs in a history database (an SQLite file, or a PostgreSQL\n"
	"server's database given as postgresql://...): add imports result files,\n"
	"suite directories and other tools' logs like rtlat report does and\n"
	"stores every run with its threads, percentiles, histogram and interval\n"
	"series (a run added twice is stored once); list shows the stored runs\n"
	"with their ids (series: latency; a->b, b->a, round trip of a handshake\n"
	"run; sleep, deviation of a cruncher run; load: none = without load, a\n"
	"name, unnamed = \"with load\" without a name, unknown = the source does\n"
	"not say, as --load matches them); remove deletes runs by id; info\n"
	"names the database and its schema version. baseline set marks the\n"
	"runs a SELECTOR KEY=GLOB[,KEY=GLOB] (label, board, kernel, test,\n"
	"load, since, until) and the filter options pick as the baseline of\n"
	"their board, for their test kind, series and load (replacing the\n"
	"board's earlier baseline of that table); baseline show lists the\n"
	"marked runs, baseline clear unmarks the runs picked. rtlat compare\n"
	"--gate and rtlat suite --gate compare new runs with the baseline\n"
	"(selector baseline=yes). rtlat report (without\n"
	"FILE or with --db) and rtlat compare read the database. Default\n"
	"database: $RTLAT_DB_URL, else "
	"$XDG_DATA_HOME/rtlat/history.db, else ~/.local/share/rtlat/history.db.\n"
	"Options may come before or after the subcommand and its arguments;\n"
	"\"--\" ends them.\n"
	"Exit status: 0 ok, 1 an input or the database failed.";

static const struct optdesc db_opts[] = {
	{ "lock-timeout", 0, required_argument, "TIME",
	  "how long to wait for another writer holding the history before\n"
	  "giving up, nothing written (default $RTLAT_DB_LOCK_TIMEOUT, else\n"
	  "60 s; 0: not at all)", OPT_DB_LOCK_TIMEOUT },
	OPT_END,
};

static int db_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	int r;

	if (d->key == OPT_DB_LOCK_TIMEOUT) {
		int64_t ns;

		if (parse_time_ns(arg, 1000000000LL, &ns))
			return opt_bad_value(d, arg, "seconds, or a time with a unit (90s, 5m; 0: not at all)");
		rdb_set_lock_timeout(ns);
		return 0;
	}
	r = rep_cli_opt(ctx, d, arg);

	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

static const char *db_path(const struct rep_cli *c)
{
	return c->db ? c->db : rdb_default_path();
}

/* The database in messages (no password). */
static const char *db_name(const struct rep_cli *c)
{
	return rdb_shown(db_path(c));
}

/* @path begins as an SQLite database does ("SQLite format 3\0", the
 * file format's header string). */
static bool is_sqlite_file(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	char head[16];
	FILE *f = fopen(path, "rbe");
	bool yes;

	if (!f)
		return false;
	yes = fread(head, 1, sizeof(head), f) == sizeof(head) &&
	      !memcmp(head, magic, sizeof(head));
	fclose(f);
	return yes;
}

/* An input that is an SQLite database, or a missing one named like a
 * database (FILE.db, .sqlite, .sqlite3, a PostgreSQL URL), without --db:
 * that database was meant, not an input. */
static void hint_db_meant(const struct rep_cli *c, char **paths, int n)
{
	static const char *const ext[] = { ".db", ".sqlite", ".sqlite3" };
	const char *shown;
	char buf[1024];
	struct stat st;
	size_t i, l, e;
	int k;

	if (c->db)
		return;
	for (k = 0; k < n; k++) {
		l = strlen(paths[k]);
		if (rdb_is_url(paths[k]))
			goto meant;
		if (stat(paths[k], &st) == 0) {
			if (is_sqlite_file(paths[k]))
				goto meant;
			continue;
		}
		for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
			e = strlen(ext[i]);
			if (l > e && !strcmp(paths[k] + l - e, ext[i]))
				goto meant;
		}
	}
	return;
meant:
	shown = url_redact(paths[k], paths[k], buf, sizeof(buf));
	log_note("%s is read as an input to add, into the default database %s; to add to %s, name it with --db: rtlat db add --db %s FILE|DIR...",
		 shown, db_name(c), shown, shown);
}

static int db_add(struct rep_cli *c, char **paths, int n)
{
	struct rep_runs rs;
	struct rdb *db;
	size_t i, added = 0, ndup = 0;
	int64_t *ids;
	bool *dups;
	int ret = 0;

	if (!n) {
		log_error("db add: no FILE or DIR to add");
		return 1;
	}
	/* read first: inputs that all fail leave no new database behind */
	runs_init(&rs);
	if (import_paths(paths, n, &c->imp, &rs)) {
		hint_db_meant(c, paths, n);
		/* all or none, as the store's transaction: no run of the
		 * inputs is lost without an error, none stored half */
		if (rs.n)
			log_note("nothing added (of %zu run%s read): an input could not be read (above); fix it or leave it out and add again (a run is stored once)",
				  rs.n, rs.n == 1 ? "" : "s");
		runs_free(&rs);
		return 1;
	}
	if (!rs.n) {
		runs_free(&rs);
		return 1;
	}
	db = rdb_open(db_path(c), true);
	if (!db) {
		runs_free(&rs);
		return 1;
	}
	ids = xcalloc(rs.n, sizeof(*ids));
	dups = xcalloc(rs.n, sizeof(*dups));
	/* one transaction: the lines only for runs really stored */
	if (rdb_add_all(db, &rs, ids, dups)) {
		log_note("%s: nothing added (of %zu run%s read)", db_name(c),
			 rs.n, rs.n == 1 ? "" : "s");
		ret = 1;
	} else {
		for (i = 0; i < rs.n; i++) {
			if (dups[i]) {
				ndup++;
				log_note("%s: %s %s is already stored as run %" PRId64,
					 rs.v[i]->file, rs.v[i]->label,
					 rs.v[i]->test, ids[i]);
			} else {
				added++;
				printf("%" PRId64 "\t%s\t%s\t%s\n", ids[i],
				       rs.v[i]->test, rs.v[i]->label,
				       rs.v[i]->file);
			}
		}
		log_note("%s: %zu run%s added, %zu already there", db_name(c),
			 added, added == 1 ? "" : "s", ndup);
	}
	free(ids);
	free(dups);
	runs_free(&rs);
	rdb_close(db);
	return ret;
}

/* db list columns: every cell of a row, then sized to their content. */
enum { L_ID, L_DATE, L_TEST, L_SERIES, L_LOAD, L_LABEL, L_BOARD, L_KERNEL,
       L_MAX, L_SAMPLES, L_NOTE, L_FILE, L_NCOL };

static void list_text(const struct rep_runs *rs, int64_t unit)
{
	static const char *const head[L_NCOL] = {
		"id", "date", "test", "series", "load", "label", "board",
		"kernel", NULL, "samples", "note", "file",
	};
	/* numbers right-aligned, words left-aligned */
	static const bool right[L_NCOL] = {
		[L_ID] = true, [L_MAX] = true, [L_SAMPLES] = true,
	};
	char **cell = xcalloc((rs->n + 1) * L_NCOL, sizeof(*cell));
	size_t w[L_NCOL], i;
	int c;

	for (c = 0; c < L_NCOL; c++)
		cell[c] = xstrdup(c == L_MAX ? (unit == 1000 ? "max us" : "max ns") :
				  head[c]);
	for (i = 0; i < rs->n; i++) {
		const struct rep_run *r = rs->v[i];
		const char *date = r->start_time ? r->start_time : r->added_at;
		char **row = &cell[(i + 1) * L_NCOL], b[TB_CELL];

		row[L_ID] = xasprintf("%" PRId64, r->db_id);
		row[L_DATE] = xasprintf("%.19s", date ? date : "");
		row[L_TEST] = xstrdup(r->test);
		series_title(b, sizeof(b), r->series);
		row[L_SERIES] = xstrdup(b);
		/* as --load matches it: "unknown" when the source does not
		 * say, "unnamed" for a load it does not name */
		row[L_LOAD] = xstrdup(r->load ? r->load : "unknown");
		row[L_LABEL] = xstrdup(r->label);
		row[L_BOARD] = xstrdup(r->board ? r->board : "");
		row[L_KERNEL] = xstrdup(r->kernel ? r->kernel : "");
		fmt_fig(b, sizeof(b), r->sum.has_stats, (double)r->sum.max, unit);
		row[L_MAX] = xstrdup(b);
		row[L_SAMPLES] = r->sum.has_samples ?
				 xasprintf("%" PRIu64, r->sum.samples) :
				 xstrdup("n/a");
		row[L_NOTE] = xstrdup(run_note(r) ? run_note(r) : "");
		row[L_FILE] = xstrdup(r->file ? r->file : "");
		/* control characters of a label or a file name as blanks */
		for (c = 0; c < L_NCOL; c++)
			label_clean(row[c]);
	}
	for (c = 0; c < L_NCOL; c++) {
		w[c] = 0;
		for (i = 0; i <= rs->n; i++)
			if (strlen(cell[i * L_NCOL + c]) > w[c])
				w[c] = strlen(cell[i * L_NCOL + c]);
	}
	for (i = 0; i <= rs->n; i++) {
		for (c = 0; c < L_NCOL; c++) {
			const char *v = cell[i * L_NCOL + c];

			if (c == L_FILE)
				printf("|%s\n", v);
			else
				printf("%s%*s", c ? "|" : "",
				       right[c] ? (int)w[c] : -(int)w[c], v);
		}
	}
	for (i = 0; i < (rs->n + 1) * L_NCOL; i++)
		free(cell[i]);
	free(cell);
}

static int db_list(struct rep_cli *c, bool info)
{
	struct rep_runs rs;
	struct rdb *db = rdb_open(db_path(c), false);
	int ret = 0;

	if (!db)
		return 1;
	runs_init(&rs);
	if (rdb_load(db, &c->flt, &rs))
		ret = 1;
	if (info) {
		size_t i, nint = 0;

		for (i = 0; i < rs.n; i++)
			nint += run_interrupted(rs.v[i]);
		printf("database: %s\nschema version: %d\nruns: %zu", db_name(c),
		       rdb_version(db), rs.n);
		/* kept apart: a run cut short is no measurement of its
		 * whole duration */
		if (nint)
			printf(" (%zu interrupted: cut short by a signal, left out of the release gate unless compare --with-interrupted)",
			       nint);
		putchar('\n');
	} else if (c->fmt->list) {
		c->fmt->list(stdout, &rs, &c->out);
	} else {
		list_text(&rs, c->out.unit_ns);
	}
	runs_free(&rs);
	rdb_close(db);
	return ret;
}

static int db_remove(struct rep_cli *c, char **ids, int n)
{
	struct rdb *db;
	int k, ret = 0;

	if (!n) {
		log_error("db remove: no run id given (see rtlat db list)");
		return 1;
	}
	for (k = 0; k < n; k++) {
		long long id;

		if (parse_int(ids[k], 1, INT64_MAX, &id)) {
			log_error("invalid run id '%s': a positive integer from rtlat db list",
				  ids[k]);
			return 1;
		}
	}
	db = rdb_open(db_path(c), false);
	if (!db)
		return 1;
	for (k = 0; k < n; k++) {
		long long id = 0;

		parse_int(ids[k], 1, INT64_MAX, &id);
		switch (rdb_remove(db, id)) {
		case 0:
			log_note("run %lld removed", id);
			break;
		case 1:
			log_error("no run %lld in %s", id, db_name(c));
			ret = 1;
			break;
		default:
			ret = 1;
			break;
		}
	}
	rdb_close(db);
	return ret;
}

/* db baseline set|show|clear [SELECTOR] */
static int db_baseline(struct rep_cli *c, char **ops, int n)
{
	const char *verb = n ? ops[0] : "";
	struct filter sel;
	struct rep_runs rs;
	struct rdb *db;
	char *spec = NULL;
	size_t i, k = 0, nb = 0;
	int64_t gone = 0;
	int ret = 0, r, picks = 0;

	if (strcmp(verb, "set") != 0 && strcmp(verb, "show") != 0 &&
	    strcmp(verb, "clear") != 0) {
		log_error("db baseline: %s%s%s: set, show or clear (see --help)",
			  n ? "unknown action '" : "no action", n ? verb : "",
			  n ? "'" : "");
		return 1;
	}
	if (n > 2) {
		log_error("db baseline %s: one SELECTOR, not '%s' too (join keys with ',': label=x,board=y)",
			  verb, ops[2]);
		return 1;
	}
	memset(&sel, 0, sizeof(sel));
	if (n == 2) {
		spec = xstrdup(ops[1]);
		if (rep_selector_parse(spec, &sel)) {
			free(spec);
			return 1;
		}
	}
	if (strcmp(verb, "show") != 0 && filter_empty(&sel) &&
	    filter_empty(&c->flt)) {
		log_error("db baseline %s: give a SELECTOR (e.g. board=NAME,label=GLOB) or filter options: not every run at once",
			  verb);
		free(spec);
		return 1;
	}
	db = rdb_open(db_path(c), false);
	if (!db) {
		free(spec);
		return 1;
	}
	runs_init(&rs);
	if (!strcmp(verb, "show"))
		sel.baseline = "yes";
pick:
	if (rdb_load(db, &c->flt, &rs)) {
		ret = 1;
		goto out;
	}
	runs_filter(&rs, &sel);
	if (!strcmp(verb, "show")) {
		if (!rs.n)
			log_note("%s: no run is marked as a baseline%s", db_name(c),
				 filter_empty(&c->flt) && n < 2 ? "" :
				 " among the runs picked");
		else
			list_text(&rs, c->out.unit_ns);
		goto out;
	}
	if (!rs.n) {
		log_error("db baseline %s: no stored run matches%s%s", verb,
			  n == 2 ? " " : "", n == 2 ? ops[1] : "");
		ret = 1;
		goto out;
	}
	if (!strcmp(verb, "clear")) {
		if (rdb_baseline_clear(db, &rs, &k))
			ret = 1;
		else
			log_note("%zu run%s unmarked (of %zu picked)", k,
				 k == 1 ? "" : "s", rs.n);
		goto out;
	}
	for (i = 0; i < rs.n; i++)
		if (!rs.v[i]->board) {
			log_error("run %lld (%s, %s) has no board or host name: a baseline is a board's; not marked",
				  (long long)rs.v[i]->db_id, rs.v[i]->label,
				  rs.v[i]->test);
			nb++;
		}
	if (nb) {
		ret = 1;
		goto out;
	}
	r = rdb_baseline_set(db, &rs, &k, &gone);
	if (r > 0 && ++picks < 5) {
		/* a db remove beside us took a run picked: pick again */
		log_note("run %lld was removed from the history by another writer after it was picked: picking the runs again",
			 (long long)gone);
		runs_free(&rs);
		runs_init(&rs);
		goto pick;
	}
	if (r > 0)
		log_error("db baseline set: the runs picked kept being removed by another writer (run %lld the last time, %d tries): nothing marked",
			  (long long)gone, picks);
	if (r) {
		ret = 1;
		goto out;
	}
	for (i = 0; i < rs.n; i++)
		if (run_interrupted(rs.v[i]))
			log_note("run %lld (%s, %s) was interrupted: marked, but the release gate leaves it out unless compare --with-interrupted",
				 (long long)rs.v[i]->db_id, rs.v[i]->label,
				 rs.v[i]->test);
	for (i = 0; i < rs.n; i++)
		printf("%lld\t%s\t%s\t%s\n", (long long)rs.v[i]->db_id,
		       rs.v[i]->board, rs.v[i]->test, rs.v[i]->label);
	log_note("%zu run%s marked as the baseline of %s board (%zu earlier mark%s of the same tables replaced)",
		 rs.n, rs.n == 1 ? "" : "s", rs.n == 1 ? "its" : "each one's",
		 k, k == 1 ? "" : "s");
out:
	runs_free(&rs);
	rdb_close(db);
	free(spec);
	return ret;
}

static int db_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = {
		rep_input_opts, rep_filter_opts, rep_output_opts, db_opts,
		rep_common_opts, NULL,
	};
	int first, nopt, nargs, r, ret = 1;
	char **av = rep_cli_argv(argc, argv, tables, &nopt, &nargs);
	char **ops = av + nopt + 1;
	int nops = nargs - nopt - 1;
	struct rep_cli c;
	const char *sub;

	/* options anywhere: "db add a.json --db x.db", "db --db x.db list" */
	rep_cli_init(&c);
	c.cmd = REP_FMT_DB;
	import_set_load_names(cmd_load_names());
	r = opt_parse(nopt, av, tables, db_opt, &c, db_usage, db_about, &first);
	if (r) {
		ret = r > 0 ? 0 : 1;
		goto out;
	}
	if (nargs == nopt) {
		log_error("no subcommand: add, list, remove, info or baseline (see --help)");
		goto out;
	}
	sub = av[nopt];
	if (!strcmp(sub, "add")) {
		ret = db_add(&c, ops, nops);
	} else if (!strcmp(sub, "list") || !strcmp(sub, "info")) {
		if (nops) {
			log_error("db %s takes no argument, not '%s' (filters are options: --label GLOB, ...; see --help)",
				  sub, ops[0]);
			goto out;
		}
		ret = db_list(&c, !strcmp(sub, "info"));
	} else if (!strcmp(sub, "remove")) {
		ret = db_remove(&c, ops, nops);
	} else if (!strcmp(sub, "baseline")) {
		ret = db_baseline(&c, ops, nops);
	} else {
		log_error("unknown subcommand '%s': add, list, remove, info or baseline",
			  sub);
	}
out:
	free(av);
	return ret;
}

#else /* !HAVE_REPORT */

#define db_main cmd_host_main	/* rtlat-host, or not built in */

#endif

const struct rtlat_cmd cmd_db = {
	.name = "db",
	.summary = "history database of runs (add, list, remove, info, baseline)",
	.main = db_main,
};
