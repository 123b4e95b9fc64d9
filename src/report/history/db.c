// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The history database (SQLite): every run with its threads, percentiles,
 * histogram buckets and interval series, in ns. The schema is described in
 * docs/db-schema.md; its version is PRAGMA user_version and every older
 * version is migrated on open, in one transaction.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/parse.h"
#include "util/url.h"
#include "util/timeutil.h"
#include "report/history/db_impl.h"
#include "report/import/import.h"
#include "report/report.h"

const char *rdb_shown(const char *path)
{
	static char buf[4096];

	return url_redact(path, path, buf, sizeof(buf));
}

const char *rdb_name_check(const char *path)
{
	const char *p;

	if (!path || !*path)
		return "an empty name (an SQLite FILE or a postgresql:// URL)";
	if (rdb_is_url(path))
		return url_user_ambiguous(path) ?
		       "a URL with more than one '@' before its host: an '@' in the user name or password must be percent-encoded as %40 (postgresql://USER:PA%40SS@HOST/DB); libpq would take the rest of the password for the host name" :
		       NULL;
	/* scheme "://": letters, digits, '+', '-', '.' (RFC 3986) */
	for (p = path; *p && (isalnum((unsigned char)*p) || strchr("+-.", *p)); p++)
		;
	if (p > path && !strncmp(p, "://", 3))
		return "not a database URL (postgresql://... or postgres://; an SQLite history is a file name)";
	/* a URL mistyped ("postgresql:/x", "postgres//h/d"), not a file name */
	if (!strncasecmp(path, "postgres", 8) && strpbrk(path, ":/"))
		return "not a database URL (postgresql://... or postgres://; an SQLite history is a file name)";
	if (isspace((unsigned char)path[0]) ||
	    isspace((unsigned char)path[strlen(path) - 1]))
		return "a name that begins or ends with a blank (a URL pasted with one?)";
	if (!strcmp(path, ":memory:") || !strncmp(path, "file:", 5))
		return "an in-memory or URI name keeps nothing (give a file name)";
	return NULL;
}

bool rdb_exists(const char *path)
{
	return path && (rdb_is_url(path) || rdb_name_check(path) ||
			!access(path, F_OK));
}

const char *rdb_default_path(void)
{
	static char path[4096];
	const char *x = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	const char *url = getenv("RTLAT_DB_URL");

	if (url && *url)
		return url;

	if (x && x[0] == '/') {
		snprintf(path, sizeof(path), "%s/rtlat/history.db", x);
		return path;
	}
	if (!home || !*home) {
		struct passwd *pw = getpwuid(getuid());

		home = pw ? pw->pw_dir : NULL;
	}
	if (!home)
		return NULL;
	snprintf(path, sizeof(path), "%s/.local/share/rtlat/history.db", home);
	return path;
}

#ifdef HAVE_SQLITE
#include <sqlite3.h>

struct sqdb {
	sqlite3 *db;
	char *path;
	int64_t busy_since;	/* CLOCK_MONOTONIC ns, the wait's start */
	bool said;		/* "waiting for another writer" said */
	bool gave_up;		/* the wait ran out (db_lock_timeout()) */
	bool ran_out;		/* it did once: no second wait, no second note */
};

/*
 * Who holds a lock on the SQLite file @path, from /proc/locks (no file
 * descriptor of ours: closing one would drop SQLite's POSIX locks): the
 * process holding the lock bytes of SQLite's locking protocol (from
 * 0x40000000, "pending", "reserved", then the shared range), a writer
 * first. "PID N", or NULL.
 */
static const char *lock_holder(const char *path, char *buf, size_t len)
{
	char line[256];
	struct stat st;
	bool writer = false;
	long found = 0;
	FILE *f;

	if (stat(path, &st) || !(f = fopen("/proc/locks", "re")))
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		/* "1: POSIX  ADVISORY  WRITE 1234 08:01:5678 1073741825 1073741825"
		 * (a waiter's line has "->" after the number) */
		char *tok[8], *save = NULL, *p, *e;
		unsigned long long start, maj, min, ino;
		long pid;
		int n = 0;

		for (p = strtok_r(line, " \t\n", &save); p && n < 8;
		     p = strtok_r(NULL, " \t\n", &save))
			tok[n++] = p;
		if (n < 8 || strcmp(tok[1], "POSIX") != 0)
			continue;
		pid = strtol(tok[4], &e, 10);
		if (*e || pid <= 0 || pid == (long)getpid())
			continue;
		maj = strtoull(tok[5], &e, 16);
		min = *e == ':' ? strtoull(e + 1, &e, 16) : 0;
		ino = *e == ':' ? strtoull(e + 1, &e, 10) : 0;
		start = strtoull(tok[6], NULL, 10);
		if (*e || ino != st.st_ino || makedev(maj, min) != st.st_dev ||
		    start < 0x40000000ULL || start > 0x40000000ULL + 512 ||
		    (writer && strcmp(tok[3], "WRITE") != 0))
			continue;
		found = pid;
		writer = !strcmp(tok[3], "WRITE");
	}
	fclose(f);
	if (!found)
		return NULL;
	snprintf(buf, len, "PID %ld", found);
	return buf;
}

/* SQLite's busy handler: another connection holds the lock this one
 * needs. Wait (in steps of 20 ms) up to db_lock_timeout(), saying so
 * after 1 s; then give up (SQLITE_BUSY, said by sq_said()). */
static int on_busy(void *ctx, int count)
{
	struct sqdb *d = ctx;
	int64_t now = clock_now_ns(CLOCK_MONOTONIC), left;
	char who[32];

	/* one command waits once: after a wait that ran out (a read, say),
	 * the statements after it give up at once, unsaid again */
	if (d->ran_out) {
		d->gave_up = true;
		return 0;
	}
	if (!count) {
		d->busy_since = now;
		d->said = d->gave_up = false;
	}
	left = db_lock_timeout() - (now - d->busy_since);
	if (left <= 0) {
		d->gave_up = d->ran_out = true;
		return 0;
	}
	if (!d->said && now - d->busy_since >= 1000000000LL) {
		db_say_waiting(d->path, lock_holder(d->path, who, sizeof(who)));
		d->said = true;
	}
	sleep_ns(left < 20000000LL ? left : 20000000LL);
	return 1;
}

/* A failure after the wait for another writer ran out: said as such
 * (once), true; else false. */
static bool sq_said(struct sqdb *d)
{
	char who[32];

	if (!d->gave_up)
		return false;
	d->gave_up = false;
	if (sqlite3_errcode(d->db) != SQLITE_BUSY)
		return false;
	db_say_gave_up(d->path, lock_holder(d->path, who, sizeof(who)));
	return true;
}

/* Schema version 1: runs, series, buckets, intervals. */
static const char schema_v1[] =
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" added_at TEXT NOT NULL,"
	" file TEXT, line INTEGER, format TEXT NOT NULL, tool TEXT,"
	" label TEXT NOT NULL, board TEXT, system TEXT, kernel TEXT, arch TEXT,"
	" test TEXT NOT NULL, series TEXT NOT NULL, load TEXT,"
	" start_time TEXT, status TEXT,"
	" duration_ns INTEGER, period_ns INTEGER, resolution_ns INTEGER NOT NULL,"
	" interval_ns INTEGER, miss_kind TEXT, ideal_ns INTEGER);"
	"CREATE TABLE series ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" thread INTEGER NOT NULL, cpu INTEGER,"
	" samples INTEGER, min_ns INTEGER, avg_ns REAL, max_ns INTEGER,"
	" stddev_ns REAL, misses INTEGER,"
	" p50_ns INTEGER, p90_ns INTEGER, p99_ns INTEGER, p99_9_ns INTEGER,"
	" p99_99_ns INTEGER, p99_999_ns INTEGER, p99_9999_ns INTEGER,"
	" hist_layout TEXT, hist_lo_ns INTEGER, hist_width_ns INTEGER,"
	" hist_nbuckets INTEGER, hist_quantized INTEGER, hist_abs_folded INTEGER,"
	" hist_underflow INTEGER, hist_overflow INTEGER,"
	" PRIMARY KEY (run_id, thread));"
	"CREATE TABLE buckets ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" thread INTEGER NOT NULL, lo_ns INTEGER NOT NULL, hi_ns INTEGER NOT NULL,"
	" count INTEGER NOT NULL, PRIMARY KEY (run_id, thread, lo_ns)) WITHOUT ROWID;"
	"CREATE TABLE intervals ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" thread INTEGER NOT NULL, idx INTEGER NOT NULL,"
	" start_ns INTEGER NOT NULL, len_ns INTEGER NOT NULL, samples INTEGER,"
	" min_ns INTEGER, avg_ns REAL, max_ns INTEGER, misses INTEGER,"
	" PRIMARY KEY (run_id, thread, idx)) WITHOUT ROWID;";

/* Version 2: content hash (a run added twice is stored once) and an index
 * for the usual filters. Version 3 changes what the hash covers (the run's
 * identity, see run_identity()): rehash() recomputes it for every row. */
static const char schema_v2[] =
	"ALTER TABLE runs ADD COLUMN content_hash TEXT;"
	"CREATE INDEX runs_test_load ON runs(test, load);";

/* Version 5: a content hash is unique (NULL for the later copies of a run
 * stored twice before; rehash() settles them). */
static const char schema_v5[] =
	"CREATE UNIQUE INDEX IF NOT EXISTS runs_content_hash ON runs(content_hash);";

/* Version 4: the section of a run (a titled part of a summary that sets
 * its table apart), and which percentiles are only lower bounds (their
 * rank lies in the histogram's overflow); percentiles are settled again
 * (series_check_percentiles()) and runs rehashed. */
static const char *const schema_v4[][3] = {
	{ "runs", "section", "ALTER TABLE runs ADD COLUMN section TEXT" },
	{ "series", "pct_lower_bounds",
	  "ALTER TABLE series ADD COLUMN pct_lower_bounds TEXT" },
};

/* Version 6: a series' histogram buckets in one BLOB (hist_buckets, see
 * db_put_buckets()) instead of a row each in buckets (a result file's
 * 1000s of rows made db add slow); rows of older runs stay where they
 * are and are read as before. */
static const char schema_v6[] =
	"ALTER TABLE series ADD COLUMN hist_buckets BLOB";

/* Version 7: the runs marked as their board's baseline (rtlat db baseline
 * set; the board is the run's). Plain SQL: a row per marked run. Created
 * before rehash() of older versions, which reads runs as sq_load(). */
static const char schema_v7[] =
	"CREATE TABLE IF NOT EXISTS baselines ("
	" run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
	" set_at TEXT NOT NULL)";

/* Version 8: what a report shows of a run besides its series: the
 * figures of its test_data (noise's noise_pct, noise_cpu, events,
 * measured_ns; of the whole run, cpu -1, and of each CPU), in the order
 * read, and rtlat check's findings of the result file (rep_run.check).
 * Before rehash() of older versions too, which reads runs as sq_load(). */
static const char schema_v8_check[] =
	"ALTER TABLE runs ADD COLUMN system_check TEXT";
static const char schema_v8_figures[] =
	"CREATE TABLE IF NOT EXISTS figures ("
	" run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" idx INTEGER NOT NULL, cpu INTEGER NOT NULL, name TEXT NOT NULL,"
	" value TEXT NOT NULL, PRIMARY KEY (run_id, idx)) WITHOUT ROWID";

/* Version 9: the indexes of a large history's queries (docs/db-schema.md,
 * "Queries"): a board's runs (drill-down, the summary's filters) and
 * the summary's time order, the latest runs (--limit). */
static const char schema_v9[] =
	"CREATE INDEX IF NOT EXISTS runs_board ON runs(board, kernel, test,"
	" series, load, COALESCE(start_time, added_at));"
	"CREATE INDEX IF NOT EXISTS runs_time ON runs(COALESCE(start_time,"
	" added_at));";

/* What SQLite's message of the last failure of @d leaves unsaid, or "". */
static const char *fail_hint(struct sqdb *d)
{
	switch (sqlite3_errcode(d->db) & 0xff) {
	case SQLITE_FULL:
		return " (no space left on the history's file system: free some, then add again)";
	case SQLITE_READONLY:
		return " (the file, its directory or its file system is read-only: a write needs both the file and a journal beside it; reading commands work)";
	default:
		return "";
	}
}

static int db_fail(struct sqdb *d, const char *what)
{
	if (sq_said(d))
		return -1;
	log_error("%s: %s: %s%s", d->path, what, sqlite3_errmsg(d->db),
		  fail_hint(d));
	return -1;
}

static int exec(struct sqdb *d, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(d->db, sql, NULL, NULL, &err) != SQLITE_OK) {
		if (!sq_said(d))
			log_error("%s: %s%s", d->path,
				  err ? err : sqlite3_errmsg(d->db),
				  fail_hint(d));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

int sq_version(struct sqdb *d)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(d->db, "PRAGMA user_version", -1, &st, NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* ---- binding helpers ---- */

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static void bind_i64(sqlite3_stmt *st, int i, bool known, int64_t v)
{
	if (known)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static void bind_dbl(sqlite3_stmt *st, int i, bool known, double v)
{
	if (known)
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? xstrdup((const char *)t) : NULL;
}

static bool col_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL;
}

/* ---- identity of a stored run ---- */

/* ---- store ---- */

static int put_series(struct sqdb *d, int64_t id, const struct rep_series *s)
{
	static const char sql[] =
		"INSERT INTO series (run_id, thread, cpu, samples, min_ns, avg_ns,"
		" max_ns, stddev_ns, misses, p50_ns, p90_ns, p99_ns, p99_9_ns,"
		" p99_99_ns, p99_999_ns, p99_9999_ns, hist_layout, hist_lo_ns,"
		" hist_width_ns, hist_nbuckets, hist_quantized, hist_abs_folded,"
		" hist_underflow, hist_overflow, pct_lower_bounds, hist_buckets)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	char bounds[128];
	const struct rep_hist *h = &s->hist;
	sqlite3_stmt *st;
	bool hist = h->layout != REP_HIST_NONE;
	unsigned char *blob;
	size_t i, nblob;
	int k, rc;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, s->id);
	bind_i64(st, 3, s->cpu >= 0, s->cpu);
	bind_i64(st, 4, s->has_samples, (int64_t)s->samples);
	bind_i64(st, 5, s->has_stats, s->min);
	bind_dbl(st, 6, s->has_stats, s->avg);
	bind_i64(st, 7, s->has_stats, s->max);
	bind_dbl(st, 8, s->has_stddev, s->stddev);
	bind_i64(st, 9, s->has_misses, (int64_t)s->misses);
	for (k = 0; k < RTLAT_NPCT; k++)
		bind_i64(st, 10 + k, s->has_pct[k], s->pct[k]);
	bind_text(st, 17, !hist ? NULL :
		  h->layout == REP_HIST_LOGLIN ? "log-linear" : "linear");
	bind_i64(st, 18, hist, h->lo);
	bind_i64(st, 19, hist, h->width);
	bind_i64(st, 20, hist, (int64_t)h->nbuckets);
	bind_i64(st, 21, hist, h->quantized);
	bind_i64(st, 22, hist, h->abs_folded);
	bind_i64(st, 23, hist, (int64_t)h->underflow);
	bind_i64(st, 24, hist, (int64_t)h->overflow);
	bind_text(st, 25, db_pct_bounds(s, bounds, sizeof(bounds)));
	blob = h->n ? db_put_buckets(h, &nblob) : NULL;
	if (blob)
		sqlite3_bind_blob(st, 26, blob, (int)nblob, free);
	else
		sqlite3_bind_null(st, 26);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "insert series");

	if (s->nint) {
		if (sqlite3_prepare_v2(d->db,
				       "INSERT INTO intervals VALUES (?,?,?,?,?,?,?,?,?,?)",
				       -1, &st, NULL))
			return db_fail(d, "prepare");
		for (i = 0; i < s->nint; i++) {
			const struct rep_interval *iv = &s->iv[i];

			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_int(st, 2, s->id);
			sqlite3_bind_int64(st, 3, (int64_t)i);
			sqlite3_bind_int64(st, 4, iv->start_ns);
			sqlite3_bind_int64(st, 5, iv->len_ns);
			bind_i64(st, 6, iv->has_samples, (int64_t)iv->samples);
			bind_i64(st, 7, iv->has_stats, iv->min);
			bind_dbl(st, 8, iv->has_stats, iv->avg);
			bind_i64(st, 9, iv->has_stats, iv->max);
			bind_i64(st, 10, iv->has_misses, (int64_t)iv->misses);
			if (sqlite3_step(st) != SQLITE_DONE) {
				sqlite3_finalize(st);
				return db_fail(d, "insert interval");
			}
			sqlite3_reset(st);
		}
		sqlite3_finalize(st);
	}
	return 0;
}

/* The figures of @r (rep_run.fig) as rows of figures of run @id. */
static int put_figures(struct sqdb *d, int64_t id, const struct rep_run *r)
{
	sqlite3_stmt *st;
	size_t i;

	if (!r->nfig)
		return 0;
	if (sqlite3_prepare_v2(d->db, "INSERT INTO figures VALUES (?,?,?,?,?)",
			       -1, &st, NULL))
		return db_fail(d, "prepare");
	for (i = 0; i < r->nfig; i++) {
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)i);
		sqlite3_bind_int(st, 3, r->fig[i].cpu);
		bind_text(st, 4, r->fig[i].name);
		bind_text(st, 5, r->fig[i].value);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return db_fail(d, "insert figure");
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return 0;
}

/* A run @id stored before version 8 (no figures, no check), given to db
 * add again with them: they are filled in (the same file added again
 * completes a noise run that read back with n/a). */
static int fill_in(struct sqdb *d, int64_t id, const struct rep_run *r)
{
	sqlite3_stmt *st;
	int rc;

	if (!r->nfig && !r->check)
		return 0;
	if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM runs WHERE id = ?1 AND"
			       " system_check IS NULL AND NOT EXISTS (SELECT 1"
			       " FROM figures WHERE run_id = ?1)", -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? 0 : db_fail(d, "read run");
	if (put_figures(d, id, r))
		return -1;
	if (sqlite3_prepare_v2(d->db, "UPDATE runs SET system_check = ? WHERE id = ?",
			       -1, &st, NULL))
		return db_fail(d, "prepare");
	bind_text(st, 1, r->check);
	sqlite3_bind_int64(st, 2, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : db_fail(d, "update run");
}

/* Row id of a stored run with hash @hash, or 0. */
static int64_t find_hash(struct sqdb *d, const char *hash)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (sqlite3_prepare_v2(d->db, "SELECT id FROM runs WHERE content_hash = ?",
			       -1, &st, NULL))
		return 0;
	bind_text(st, 1, hash);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int sq_add(struct sqdb *d, const struct rep_run *r, bool *dup, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO runs (added_at, file, line, format, tool, label, board,"
		" system, kernel, arch, test, series, load, start_time, status,"
		" duration_ns, period_ns, resolution_ns, interval_ns, miss_kind,"
		" ideal_ns, content_hash, section, system_check) VALUES (?,?,?,?,?,"
		" ?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	char now[32], hash[REP_IDENT_LEN], path[PATH_MAX];
	sqlite3_stmt *st;
	bool own;
	size_t i;
	int rc;

	*dup = false;
	if (r->ident[0])
		memcpy(hash, r->ident, sizeof(hash));
	else
		db_run_hash(r, hash);
	/* the look-up inside the write transaction: of processes adding
	 * the same run at once, one stores it and the others find it. In
	 * the transaction of sq_begin() (one commit for many runs) the run
	 * is a savepoint: whole or not at all. */
	own = sqlite3_get_autocommit(d->db) != 0;
	if (exec(d, own ? "BEGIN IMMEDIATE" : "SAVEPOINT add_run"))
		return -1;
	*id = find_hash(d, hash);
	if (*id) {
		*dup = true;
		if (fill_in(d, *id, r))
			goto fail;
		return exec(d, own ? "COMMIT" : "RELEASE add_run") ? -1 : 0;
	}
	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL)) {
		db_fail(d, "prepare");
		goto fail;
	}
	db_now_iso(now);
	bind_text(st, 1, now);
	bind_text(st, 2, db_file_path(r->file, path, sizeof(path)));
	bind_i64(st, 3, r->line > 0, r->line);
	bind_text(st, 4, r->format);
	bind_text(st, 5, r->tool);
	bind_text(st, 6, r->label);
	bind_text(st, 7, r->board);
	bind_text(st, 8, r->system);
	bind_text(st, 9, r->kernel);
	bind_text(st, 10, r->arch);
	bind_text(st, 11, r->test);
	bind_text(st, 12, r->series);
	bind_text(st, 13, r->load);
	bind_text(st, 14, r->start_time);
	bind_text(st, 15, r->status);
	bind_i64(st, 16, r->duration_ns >= 0, r->duration_ns);
	bind_i64(st, 17, r->period_ns >= 0, r->period_ns);
	sqlite3_bind_int64(st, 18, r->resolution_ns);
	bind_i64(st, 19, r->interval_ns > 0, r->interval_ns);
	bind_text(st, 20, r->miss == MISS_OVERRUNS ? "overruns" :
		  r->miss == MISS_LOST ? "lost" : NULL);
	bind_i64(st, 21, r->has_ideal, r->ideal_ns);
	bind_text(st, 22, hash);
	bind_text(st, 23, r->section);
	bind_text(st, 24, r->check);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		db_fail(d, "insert run");
		goto fail;
	}
	*id = sqlite3_last_insert_rowid(d->db);
	if (put_series(d, *id, &r->sum))
		goto fail;
	for (i = 0; i < r->nthr; i++)
		if (put_series(d, *id, &r->thr[i]))
			goto fail;
	if (put_figures(d, *id, r))
		goto fail;
	if (exec(d, own ? "COMMIT" : "RELEASE add_run"))
		goto fail;
	return 0;
fail:
	if (own) {
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
	} else {
		sqlite3_exec(d->db, "ROLLBACK TO add_run", NULL, NULL, NULL);
		sqlite3_exec(d->db, "RELEASE add_run", NULL, NULL, NULL);
	}
	return -1;
}

int sq_begin(struct sqdb *d)
{
	return exec(d, "BEGIN IMMEDIATE");
}

int sq_commit(struct sqdb *d)
{
	if (exec(d, "COMMIT")) {
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

void sq_rollback(struct sqdb *d)
{
	/* SQLite may have rolled back already (a full disk): no message */
	if (!sqlite3_get_autocommit(d->db))
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- load ---- */

static int get_series(struct sqdb *d, struct rep_run *r)
{
	sqlite3_stmt *st;
	int rc, k;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT thread, cpu, samples, min_ns, avg_ns, max_ns,"
			       " stddev_ns, misses, p50_ns, p90_ns, p99_ns, p99_9_ns,"
			       " p99_99_ns, p99_999_ns, p99_9999_ns, hist_layout,"
			       " hist_lo_ns, hist_width_ns, hist_nbuckets,"
			       " hist_quantized, hist_abs_folded, hist_underflow,"
			       " hist_overflow, pct_lower_bounds, hist_buckets FROM series"
			       " WHERE run_id = ?"
			       " ORDER BY thread", -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, r->db_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int th = sqlite3_column_int(st, 0);
		struct rep_series *s = th < 0 ? &r->sum : run_add_thread(r, th);
		const unsigned char *lay = sqlite3_column_text(st, 15);

		s->cpu = col_null(st, 1) ? -1 : sqlite3_column_int(st, 1);
		s->has_samples = !col_null(st, 2);
		s->samples = (uint64_t)sqlite3_column_int64(st, 2);
		s->has_stats = !col_null(st, 3) && !col_null(st, 4) && !col_null(st, 5);
		s->min = sqlite3_column_int64(st, 3);
		s->avg = sqlite3_column_double(st, 4);
		s->max = sqlite3_column_int64(st, 5);
		s->has_stddev = !col_null(st, 6);
		s->stddev = sqlite3_column_double(st, 6);
		s->has_misses = !col_null(st, 7);
		s->misses = (uint64_t)sqlite3_column_int64(st, 7);
		for (k = 0; k < RTLAT_NPCT; k++) {
			s->has_pct[k] = !col_null(st, 8 + k);
			s->pct[k] = sqlite3_column_int64(st, 8 + k);
		}
		db_read_bounds(s, (const char *)sqlite3_column_text(st, 23));
		if (lay) {
			struct rep_hist *h = &s->hist;

			h->layout = !strcmp((const char *)lay, "log-linear") ?
				    REP_HIST_LOGLIN : REP_HIST_LINEAR;
			h->lo = sqlite3_column_int64(st, 16);
			h->width = sqlite3_column_int64(st, 17);
			h->nbuckets = (uint64_t)sqlite3_column_int64(st, 18);
			h->quantized = sqlite3_column_int(st, 19);
			h->abs_folded = sqlite3_column_int(st, 20);
			h->underflow = (uint64_t)sqlite3_column_int64(st, 21);
			h->overflow = (uint64_t)sqlite3_column_int64(st, 22);
			if (!col_null(st, 24) &&
			    db_get_buckets_blob(sqlite3_column_blob(st, 24),
					     sqlite3_column_bytes(st, 24), h)) {
				sqlite3_finalize(st);
				log_error("%s: run %lld: unreadable histogram buckets",
					  d->path, (long long)r->db_id);
				return -1;
			}
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "read series");
	return 0;
}

static int get_buckets(struct sqdb *d, struct rep_run *r)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT thread, lo_ns, hi_ns, count FROM buckets"
			       " WHERE run_id = ? ORDER BY thread, lo_ns", -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, r->db_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rep_series *s = db_series_of(r, sqlite3_column_int(st, 0));

		if (s && hist_push(&s->hist, sqlite3_column_int64(st, 1),
				   sqlite3_column_int64(st, 2),
				   (uint64_t)sqlite3_column_int64(st, 3))) {
			log_error("%s: run %lld: histogram buckets out of range or order",
				  d->path, (long long)r->db_id);
			sqlite3_finalize(st);
			return -1;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "read buckets");
	return 0;
}

static int get_intervals(struct sqdb *d, struct rep_run *r)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT thread, start_ns, len_ns, samples, min_ns,"
			       " avg_ns, max_ns, misses FROM intervals"
			       " WHERE run_id = ? ORDER BY thread, idx", -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, r->db_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rep_series *s = db_series_of(r, sqlite3_column_int(st, 0));
		struct rep_interval *iv;

		if (!s)
			continue;
		iv = series_add_interval(s);
		iv->start_ns = sqlite3_column_int64(st, 1);
		iv->len_ns = sqlite3_column_int64(st, 2);
		iv->has_samples = !col_null(st, 3);
		iv->samples = (uint64_t)sqlite3_column_int64(st, 3);
		iv->has_stats = !col_null(st, 4) && !col_null(st, 5) && !col_null(st, 6);
		iv->min = sqlite3_column_int64(st, 4);
		iv->avg = sqlite3_column_double(st, 5);
		iv->max = sqlite3_column_int64(st, 6);
		iv->has_misses = !col_null(st, 7);
		iv->misses = (uint64_t)sqlite3_column_int64(st, 7);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "read intervals");
	return 0;
}

static int get_figures(struct sqdb *d, struct rep_run *r)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT cpu, name, value FROM figures WHERE run_id = ?"
			       " ORDER BY idx", -1, &st, NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, r->db_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *n = sqlite3_column_text(st, 1);
		const unsigned char *v = sqlite3_column_text(st, 2);

		if (n && v)
			run_add_figure(r, (const char *)n,
				       sqlite3_column_int(st, 0), (const char *)v);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "read figures");
	return 0;
}

static struct rep_run *run_from_row(sqlite3_stmt *st)
{
	struct rep_run *r = run_new();
	const unsigned char *miss;

	r->db_id = sqlite3_column_int64(st, 0);
	r->added_at = col_text(st, 1);
	r->file = col_text(st, 2);
	r->line = col_null(st, 3) ? 0 : (unsigned)sqlite3_column_int(st, 3);
	r->format = db_static_format((const char *)sqlite3_column_text(st, 4));
	r->tool = col_text(st, 5);
	r->label = col_text(st, 6);
	r->board = col_text(st, 7);
	r->system = col_text(st, 8);
	r->kernel = col_text(st, 9);
	r->arch = col_text(st, 10);
	r->test = col_text(st, 11);
	r->series = col_text(st, 12);
	r->load = col_text(st, 13);
	r->start_time = col_text(st, 14);
	r->status = col_text(st, 15);
	r->duration_ns = col_null(st, 16) ? -1 : sqlite3_column_int64(st, 16);
	r->period_ns = col_null(st, 17) ? -1 : sqlite3_column_int64(st, 17);
	r->resolution_ns = sqlite3_column_int64(st, 18);
	r->interval_ns = col_null(st, 19) ? 0 : sqlite3_column_int64(st, 19);
	miss = sqlite3_column_text(st, 20);
	r->miss = !miss ? MISS_NONE :
		  !strcmp((const char *)miss, "lost") ? MISS_LOST : MISS_OVERRUNS;
	r->has_ideal = !col_null(st, 21);
	r->ideal_ns = sqlite3_column_int64(st, 21);
	r->section = col_text(st, 22);
	r->baseline = sqlite3_column_int(st, 23) != 0;
	r->check = col_text(st, 24);
	db_run_defaults(r);
	return r;
}

/* Prepare @sql with @w's parameters bound: the statement, or NULL after
 * an error message. */
static sqlite3_stmt *prepare_where(struct sqdb *d, const char *sql,
				   const struct db_where *w)
{
	sqlite3_stmt *st;
	int i;

	if (sqlite3_prepare_v2(d->db, sql, -1, &st, NULL)) {
		db_fail(d, "prepare");
		return NULL;
	}
	for (i = 0; i < w->n; i++)
		sqlite3_bind_text(st, i + 1, w->v[i], -1, SQLITE_STATIC);
	return st;
}

int sq_load(struct sqdb *d, const struct filter *f, long limit,
	    struct rep_runs *out)
{
	struct db_where w;
	sqlite3_stmt *st;
	int rc, ret = 0;
	size_t i, len;
	char *sql;

	/* the filter in SQL (an index serves a board's runs), and again
	 * below as it always was */
	db_where(f, false, &w);
	len = 2 * sizeof(w.sql) + 512;
	sql = xmalloc(len);
	if (limit > 0) {
		char latest[sizeof(w.sql) + 256];

		db_latest_sql(&w, limit, latest, sizeof(latest));
		snprintf(sql, len, "SELECT " DB_RUN_COLS " FROM runs WHERE id IN"
			 " (%s) ORDER BY id", latest);
	} else {
		snprintf(sql, len, "SELECT " DB_RUN_COLS " FROM runs WHERE %s"
			 " ORDER BY id", w.sql);
	}
	st = prepare_where(d, sql, &w);
	free(sql);
	if (!st) {
		db_where_free(&w);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rep_run *r = run_from_row(st);

		/* filter on the run's header: only matching runs are read whole */
		if (f && !filter_match(f, r)) {
			run_free(r);
			continue;
		}
		if (get_series(d, r) || get_buckets(d, r) || get_intervals(d, r) ||
		    get_figures(d, r)) {
			run_free(r);
			ret = -1;
			break;
		}
		/* as an import settles them (rows of an older rtlat too) */
		series_check_percentiles(&r->sum);
		for (i = 0; i < r->nthr; i++)
			series_check_percentiles(&r->thr[i]);
		runs_push(out, r);
	}
	sqlite3_finalize(st);
	db_where_free(&w);
	if (!ret && rc != SQLITE_DONE)
		return db_fail(d, "read runs");
	return ret;
}

int sq_count(struct sqdb *d, const struct filter *f, int64_t *n)
{
	char sql[sizeof(((struct db_where *)0)->sql) + 64];
	struct db_where w;
	sqlite3_stmt *st;
	int rc;

	db_where(f, false, &w);
	snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM runs WHERE %s", w.sql);
	st = prepare_where(d, sql, &w);
	if (!st) {
		db_where_free(&w);
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	db_where_free(&w);
	return rc == SQLITE_ROW ? 0 : db_fail(d, "count runs");
}

int sq_envelope(struct sqdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n)
{
	struct db_where w;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, c;
	char *sql;

	*rows = NULL;
	*n = 0;
	db_where(f, false, &w);
	sql = db_env_query(w.sql);
	st = prepare_where(d, sql, &w);
	free(sql);
	if (!st) {
		db_where_free(&w);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rdb_env_row *r;

		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*rows = xrealloc(*rows, cap * sizeof(**rows));
		}
		r = &(*rows)[(*n)++];
		memset(r, 0, sizeof(*r));
		for (c = 0; c < DB_ENV_NCOLS; c++)
			db_env_col(r, c, (const char *)sqlite3_column_text(st, c));
	}
	sqlite3_finalize(st);
	db_where_free(&w);
	if (rc != SQLITE_DONE)
		return db_fail(d, "aggregate runs");
	return 0;
}

int sq_summary(struct sqdb *d, const struct filter *f, struct rdb_summary *out)
{
	struct db_where w;
	sqlite3_stmt *st;
	size_t cap = 0;
	int rc, c;
	char *sql;

	db_where(f, false, &w);
	sql = db_sum_query(w.sql);
	st = prepare_where(d, sql, &w);
	free(sql);
	if (!st) {
		db_where_free(&w);
		return -1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct rdb_sum_row *r;

		if (out->n == cap) {
			cap = cap ? 2 * cap : 16;
			out->v = xrealloc(out->v, cap * sizeof(*out->v));
		}
		r = &out->v[out->n++];
		memset(r, 0, sizeof(*r));
		for (c = 0; c < DB_SUM_NCOLS; c++)
			db_sum_col(r, c, (const char *)sqlite3_column_text(st, c));
	}
	sqlite3_finalize(st);
	db_where_free(&w);
	if (rc != SQLITE_DONE)
		return db_fail(d, "summarise runs");
	db_sum_done(out);
	return 0;
}

int sq_remove(struct sqdb *d, int64_t id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db, "DELETE FROM runs WHERE id = ?", -1, &st,
			       NULL))
		return db_fail(d, "prepare");
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "delete");
	return sqlite3_changes(d->db) ? 0 : 1;
}

/* ---- baselines ---- */

/* Unmark the baseline runs of @r's board of @r's table (test, series,
 * load, section). */
static int unmark_table(struct sqdb *d, const struct rep_run *r, size_t *n)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(d->db,
			       "DELETE FROM baselines WHERE run_id IN (SELECT id FROM runs"
			       " WHERE board = ?1 AND test = ?2 AND series = ?3"
			       " AND (load = ?4 OR (load IS NULL AND ?4 IS NULL))"
			       " AND (section = ?5 OR (section IS NULL AND ?5 IS NULL)))",
			       -1, &st, NULL))
		return db_fail(d, "prepare");
	bind_text(st, 1, r->board);
	bind_text(st, 2, r->test);
	bind_text(st, 3, r->series);
	bind_text(st, 4, r->load);
	bind_text(st, 5, r->section);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_fail(d, "unmark baseline");
	*n += (size_t)sqlite3_changes(d->db);
	return 0;
}

int sq_baseline_set(struct sqdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone)
{
	sqlite3_stmt *st = NULL;
	char now[32];
	size_t i;

	*unmarked = 0;
	if (exec(d, "BEGIN IMMEDIATE"))
		return -1;
	/* a run removed since it was picked (db remove beside us): said by
	 * the caller, who picks again; a writer's lock is held from here */
	if (sqlite3_prepare_v2(d->db, "SELECT 1 FROM runs WHERE id = ?", -1,
			       &st, NULL)) {
		db_fail(d, "prepare");
		goto fail;
	}
	for (i = 0; i < rs->n; i++) {
		int rc;

		if (!rs->v[i]->board)
			continue;
		sqlite3_bind_int64(st, 1, rs->v[i]->db_id);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
		if (rc == SQLITE_DONE) {
			*gone = rs->v[i]->db_id;
			sqlite3_finalize(st);
			sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
			return 1;
		}
		if (rc != SQLITE_ROW) {
			db_fail(d, "find run");
			goto fail;
		}
	}
	sqlite3_finalize(st);
	st = NULL;
	for (i = 0; i < rs->n; i++)
		if (rs->v[i]->board && unmark_table(d, rs->v[i], unmarked))
			goto fail;
	if (sqlite3_prepare_v2(d->db,
			       "INSERT INTO baselines (run_id, set_at) VALUES (?, ?)",
			       -1, &st, NULL)) {
		db_fail(d, "prepare");
		goto fail;
	}
	db_now_iso(now);
	for (i = 0; i < rs->n; i++) {
		if (!rs->v[i]->board)
			continue;
		sqlite3_bind_int64(st, 1, rs->v[i]->db_id);
		bind_text(st, 2, now);
		if (sqlite3_step(st) != SQLITE_DONE) {
			db_fail(d, "mark baseline");
			goto fail;
		}
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return sq_commit(d);
fail:
	sqlite3_finalize(st);
	sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int sq_baseline_clear(struct sqdb *d, const struct rep_runs *rs, size_t *n)
{
	sqlite3_stmt *st;
	size_t i;

	*n = 0;
	if (exec(d, "BEGIN IMMEDIATE"))
		return -1;
	if (sqlite3_prepare_v2(d->db, "DELETE FROM baselines WHERE run_id = ?",
			       -1, &st, NULL)) {
		db_fail(d, "prepare");
		sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	for (i = 0; i < rs->n; i++) {
		sqlite3_bind_int64(st, 1, rs->v[i]->db_id);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
			return db_fail(d, "unmark baseline");
		}
		*n += (size_t)sqlite3_changes(d->db);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return sq_commit(d);
}

/* ---- schema and migrations ---- */

/* Write the percentiles of @s (settled on load) back to its row. */
static int put_pcts(struct sqdb *d, sqlite3_stmt *st, int64_t id,
		    const struct rep_series *s)
{
	char bounds[128];
	int k, rc;

	for (k = 0; k < RTLAT_NPCT; k++)
		bind_i64(st, 1 + k, s->has_pct[k], s->pct[k]);
	bind_text(st, 1 + RTLAT_NPCT, db_pct_bounds(s, bounds, sizeof(bounds)));
	sqlite3_bind_int64(st, 2 + RTLAT_NPCT, id);
	sqlite3_bind_int(st, 3 + RTLAT_NPCT, s->id);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : db_fail(d, "update series");
}

/* -> 4: the percentiles of every stored run as sq_load() settles them
 * (a rank in the overflow is a lower bound, not the max; too few samples
 * for a percentile: unknown). */
static int repct(struct sqdb *d, const struct rep_runs *rs)
{
	sqlite3_stmt *st;
	size_t i, k;
	int ret = 0;

	if (sqlite3_prepare_v2(d->db,
			       "UPDATE series SET p50_ns = ?, p90_ns = ?, p99_ns = ?,"
			       " p99_9_ns = ?, p99_99_ns = ?, p99_999_ns = ?,"
			       " p99_9999_ns = ?, pct_lower_bounds = ?"
			       " WHERE run_id = ? AND thread = ?", -1, &st, NULL))
		return db_fail(d, "prepare");
	for (i = 0; i < rs->n && !ret; i++) {
		const struct rep_run *r = rs->v[i];

		ret = put_pcts(d, st, r->db_id, &r->sum);
		for (k = 0; k < r->nthr && !ret; k++)
			ret = put_pcts(d, st, r->db_id, &r->thr[k]);
	}
	sqlite3_finalize(st);
	return ret;
}

/*
 * 2 -> 3 (and 1 -> 3): content_hash becomes the run's identity
 * (run_identity(): a label derived from the file name no longer counts).
 * 3 -> 4: the identity covers the section and percentile bounds, and the
 * percentiles are settled (repct()). 4 -> 5: the hash is made unique.
 * Of several stored runs with one identity, the first keeps it and the
 * others get NULL; a note names them.
 */
static int rehash(struct sqdb *d)
{
	struct rep_runs rs;
	sqlite3_stmt *st;
	char *dups = NULL;
	size_t i, ndup = 0;
	int ret = 0;

	if (exec(d, "UPDATE runs SET content_hash = NULL"))
		return -1;
	runs_init(&rs);
	if (sq_load(d, NULL, 0, &rs) || repct(d, &rs)) {
		runs_free(&rs);
		return -1;
	}
	if (sqlite3_prepare_v2(d->db,
			       "UPDATE runs SET content_hash = ? WHERE id = ?",
			       -1, &st, NULL)) {
		runs_free(&rs);
		return db_fail(d, "prepare");
	}
	for (i = 0; i < rs.n && !ret; i++) {
		char hash[REP_IDENT_LEN];
		int64_t first;

		db_run_hash(rs.v[i], hash);
		first = find_hash(d, hash);
		if (first) {
			char *t = xasprintf("%s%s%lld (as %lld)", dups ? dups : "",
					    dups ? ", " : "",
					    (long long)rs.v[i]->db_id,
					    (long long)first);

			free(dups);
			dups = t;
			ndup++;
		}
		bind_text(st, 1, first ? NULL : hash);
		sqlite3_bind_int64(st, 2, rs.v[i]->db_id);
		if (sqlite3_step(st) != SQLITE_DONE)
			ret = db_fail(d, "update");
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	runs_free(&rs);
	if (!ret && ndup)
		log_note("%s: %zu stored run%s the same as an earlier one: %s (rtlat db remove ID drops one)",
			 d->path, ndup, ndup == 1 ? " is" : "s are", dups);
	free(dups);
	return ret;
}

/* Has table @table a column @col? */
static bool has_column(struct sqdb *d, const char *table, const char *col)
{
	sqlite3_stmt *st;
	bool yes = false;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
			       -1, &st, NULL))
		return false;
	bind_text(st, 1, table);
	bind_text(st, 2, col);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* The schema version of @d, or -1 when it cannot be read or is newer
 * than this rtlat knows (said). */
static int usable_version(struct sqdb *d)
{
	int v = sq_version(d);

	if (v < 0)
		return db_fail(d, "cannot read the schema version");
	if (v > RDB_SCHEMA_VERSION) {
		log_error("%s: schema version %d is newer than this rtlat knows (%d): use a newer rtlat",
			  d->path, v, RDB_SCHEMA_VERSION);
		return -1;
	}
	return v;
}

static int migrate(struct sqdb *d)
{
	int v = usable_version(d);
	char sql[64];
	size_t k;

	if (v < 0)
		return -1;
	if (v == RDB_SCHEMA_VERSION)
		return 0;
	if (exec(d, "BEGIN IMMEDIATE"))
		return -1;
	/* decided under the write lock: another process may have created
	 * or migrated the schema since it was read (racing first adds) */
	v = usable_version(d);
	if (v < 0)
		goto fail;
	if (v == RDB_SCHEMA_VERSION)
		return exec(d, "COMMIT");	/* nothing migrated: nothing said */
	if (v == 0 && exec(d, schema_v1))
		goto fail;
	if (v < 7 && exec(d, schema_v7))
		goto fail;
	if (v < 8 && ((!has_column(d, "runs", "system_check") &&
		       exec(d, schema_v8_check)) || exec(d, schema_v8_figures)))
		goto fail;
	if (v < 2 && exec(d, schema_v2))
		goto fail;
	for (k = 0; v < 4 && k < sizeof(schema_v4) / sizeof(schema_v4[0]); k++)
		if (!has_column(d, schema_v4[k][0], schema_v4[k][1]) &&
		    exec(d, schema_v4[k][2]))
			goto fail;
	if (v < 5 && rehash(d))
		goto fail;
	if (v < 5 && exec(d, schema_v5))
		goto fail;
	if (v < 6 && !has_column(d, "series", "hist_buckets") &&
	    exec(d, schema_v6))
		goto fail;
	if (v < 9 && exec(d, schema_v9))
		goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", RDB_SCHEMA_VERSION);
	if (exec(d, sql) || exec(d, "COMMIT"))
		goto fail;
	if (v > 0)
		log_note("%s: schema migrated from version %d to %d", d->path, v,
			 RDB_SCHEMA_VERSION);
	return 0;
fail:
	sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* rtlat_glob(PATTERN, TEXT): filter_glob() in SQL (db_where()). */
static void sql_glob(sqlite3_context *ctx, int n, sqlite3_value **v)
{
	(void)n;
	sqlite3_result_int(ctx, filter_glob((const char *)sqlite3_value_text(v[0]),
					    (const char *)sqlite3_value_text(v[1])));
}

/* Is there a table "runs" (@name), or any table (NULL)? False also when
 * the file is no database. */
static bool has_table(struct sqdb *d, const char *name)
{
	sqlite3_stmt *st;
	bool yes = false;

	if (sqlite3_prepare_v2(d->db,
			       "SELECT 1 FROM sqlite_master WHERE type = 'table'"
			       " AND (?1 IS NULL OR name = ?1)", -1, &st, NULL))
		return false;
	bind_text(st, 1, name);
	yes = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/* mkdir -p of the directory part of @path. */
static int make_parent(const char *path)
{
	char *p = xstrdup(path), *s;

	for (s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST) {
			log_error("%s: cannot create its directory %s: %s", path, p,
				  strerror(errno));
			free(p);
			return -1;
		}
		*s = '/';
	}
	free(p);
	return 0;
}

struct sqdb *sq_open(const char *path, bool create)
{
	struct sqdb *d;
	int flags = SQLITE_OPEN_READWRITE;
	bool foreign;

	if (create) {
		flags |= SQLITE_OPEN_CREATE;
		if (access(path, F_OK) && make_parent(path))
			return NULL;
	} else {
		struct stat st;

		if (stat(path, &st)) {
			log_error("%s: no such database (rtlat db add creates it)",
				  path);
			return NULL;
		}
		/* only db add makes a database of an empty file */
		if (S_ISREG(st.st_mode) && st.st_size == 0) {
			log_error("%s: an empty file, not a history database (rtlat db add creates one)",
				  path);
			return NULL;
		}
	}
	d = xcalloc(1, sizeof(*d));
	d->path = xstrdup(path);
	if (sqlite3_open_v2(path, &d->db, flags, NULL) != SQLITE_OK) {
		/* SQLite says "unable to open database file": the system's
		 * reason is the file's or (for a new one) its directory's */
		char dir[4096], *slash;
		int e = 0;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash)
			*(slash == dir ? slash + 1 : slash) = '\0';
		else
			snprintf(dir, sizeof(dir), ".");
		if (!access(path, F_OK) ? access(path, R_OK | W_OK) :
		    access(dir, W_OK | X_OK))
			e = errno;
		log_error("%s: cannot open: %s%s%s", path,
			  d->db ? sqlite3_errmsg(d->db) : "out of memory",
			  e ? ": " : "", e ? strerror(e) : "");
		sq_close(d);
		return NULL;
	}
	/* another writer: wait for it, boundedly, saying so */
	sqlite3_busy_handler(d->db, on_busy, d);
	sqlite3_create_function(d->db, "rtlat_glob", 2,
				SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL,
				sql_glob, NULL, NULL);
	/* a database without rtlat's schema: only db add makes one of it,
	 * and only of an empty one (not of another program's tables); read
	 * in one transaction, as another db add may be creating the schema */
	if (exec(d, "BEGIN")) {
		sq_close(d);
		return NULL;
	}
	foreign = sq_version(d) == 0 && !has_table(d, "runs") &&
		  (!create || has_table(d, NULL));
	sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL);
	if (foreign) {
		log_error("%s: an SQLite database, but not an rtlat history (no runs table; rtlat db add creates one in a new or empty file)",
			  path);
		sq_close(d);
		return NULL;
	}
	/* a page cache of up to 32 MiB (SQLite's default is 2 MiB): the
	 * indexes of a large history (100 000 runs: content_hash alone is
	 * 7 MB) stay in memory while runs are added and summarised */
	if (exec(d, "PRAGMA foreign_keys = ON") ||
	    exec(d, "PRAGMA cache_size = -32768") || migrate(d)) {
		sq_close(d);
		return NULL;
	}
	return d;
}

void sq_close(struct sqdb *d)
{
	if (!d)
		return;
	sqlite3_close(d->db);
	free(d->path);
	free(d);
}

#else /* !HAVE_SQLITE */

struct sqdb *sq_open(const char *path, bool create)
{
	log_error("a history database file needs SQLite, which is not built into this rtlat (install pkg-config and libsqlite3-dev, or run make deps, then rebuild: make clean all)");
	return NULL;
}

void sq_close(struct sqdb *d)
{
}

int sq_add(struct sqdb *d, const struct rep_run *r, bool *dup, int64_t *id)
{
	return -1;
}

int sq_begin(struct sqdb *d)
{
	return -1;
}

int sq_commit(struct sqdb *d)
{
	return -1;
}

void sq_rollback(struct sqdb *d)
{
}

int sq_load(struct sqdb *d, const struct filter *f, long limit,
	    struct rep_runs *out)
{
	return -1;
}

int sq_count(struct sqdb *d, const struct filter *f, int64_t *n)
{
	return -1;
}

int sq_summary(struct sqdb *d, const struct filter *f, struct rdb_summary *out)
{
	return -1;
}

int sq_envelope(struct sqdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n)
{
	return -1;
}

int sq_remove(struct sqdb *d, int64_t id)
{
	return -1;
}

int sq_version(struct sqdb *d)
{
	return -1;
}

int sq_baseline_set(struct sqdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone)
{
	(void)gone;
	return -1;
}

int sq_baseline_clear(struct sqdb *d, const struct rep_runs *rs, size_t *n)
{
	return -1;
}

#endif

/* ---- the history, on either store (db_impl.h) ---- */

struct rdb {
	struct sqdb *sq;	/* a file: SQLite */
	struct pgdb *pg;	/* a postgresql:// URL */
};

static int64_t lock_timeout_ns = -1;

void rdb_set_lock_timeout(int64_t ns)
{
	lock_timeout_ns = ns;
}

int64_t db_lock_timeout(void)
{
	return lock_timeout_ns;
}

/* The default of rdb_set_lock_timeout(): 0 or -1 after an error message. */
static int lock_timeout_default(void)
{
	const char *e = getenv("RTLAT_DB_LOCK_TIMEOUT");
	int64_t ns;

	if (lock_timeout_ns >= 0)
		return 0;
	if (!e || !*e) {
		lock_timeout_ns = 60 * 1000000000LL;
		return 0;
	}
	if (parse_time_ns(e, 1000000000LL, &ns)) {
		log_error("RTLAT_DB_LOCK_TIMEOUT=%s: how long a writer waits for another one: seconds, or a time with a unit (90s, 5m; 0: not at all)",
			  e);
		return -1;
	}
	lock_timeout_ns = ns;
	return 0;
}

struct rdb *rdb_open(const char *path, bool create)
{
	const char *why;
	struct rdb *d;

	if (lock_timeout_default())
		return NULL;
	if (!path) {
		log_error("no history database: HOME and XDG_DATA_HOME are not set (use --db FILE or URL)");
		return NULL;
	}
	why = rdb_name_check(path);
	if (why) {
		log_error("%s: %s", rdb_shown(path), why);
		return NULL;
	}
	d = xcalloc(1, sizeof(*d));
	if (rdb_is_url(path))
		d->pg = pg_open(path, create);
	else
		d->sq = sq_open(path, create);
	if (!d->sq && !d->pg) {
		free(d);
		return NULL;
	}
	return d;
}

void rdb_close(struct rdb *d)
{
	if (!d)
		return;
	if (d->pg)
		pg_close(d->pg);
	else
		sq_close(d->sq);
	free(d);
}

int rdb_add(struct rdb *d, const struct rep_run *r, bool *dup, int64_t *id)
{
	return d->pg ? pg_add(d->pg, r, dup, id) : sq_add(d->sq, r, dup, id);
}

int rdb_begin(struct rdb *d)
{
	return d->pg ? pg_begin(d->pg) : sq_begin(d->sq);
}

int rdb_commit(struct rdb *d)
{
	return d->pg ? pg_commit(d->pg) : sq_commit(d->sq);
}

int rdb_add_all(struct rdb *d, const struct rep_runs *rs, int64_t *ids,
		bool *dups)
{
	const char *again = NULL;
	int tries, ret = -1;
	size_t k;

	for (tries = 1; tries <= 5; tries++) {
		if (again) {
			struct timespec ts = { 0, (long)tries * 50000000L };

			nanosleep(&ts, NULL);
		}
		again = NULL;
		if (rdb_begin(d))
			break;
		for (k = 0; k < rs->n; k++)
			if (rdb_add(d, rs->v[k], &dups[k], &ids[k]))
				break;
		if (k == rs->n && !rdb_commit(d)) {
			ret = 0;
			break;
		}
		if (d->pg)
			again = pg_retryable(d->pg);
		if (k < rs->n) {
			if (d->pg)
				pg_rollback(d->pg);
			else
				sq_rollback(d->sq);
		}
		if (!again)
			break;
	}
	if (again)
		log_error("%s (tried %d times)", again, tries - 1);
	return ret;
}

int rdb_load(struct rdb *d, const struct filter *f, struct rep_runs *out)
{
	return rdb_load_latest(d, f, 0, out);
}

int rdb_load_latest(struct rdb *d, const struct filter *f, long limit,
		    struct rep_runs *out)
{
	return d->pg ? pg_load(d->pg, f, limit, out) :
		       sq_load(d->sq, f, limit, out);
}

int rdb_count(struct rdb *d, const struct filter *f, int64_t *n)
{
	*n = 0;
	return d->pg ? pg_count(d->pg, f, n) : sq_count(d->sq, f, n);
}

int rdb_summary(struct rdb *d, const struct filter *f, struct rdb_summary *out)
{
	memset(out, 0, sizeof(*out));
	return d->pg ? pg_summary(d->pg, f, out) : sq_summary(d->sq, f, out);
}

int rdb_envelope(struct rdb *d, const struct filter *f,
		 struct rdb_env_row **rows, size_t *n)
{
	return d->pg ? pg_envelope(d->pg, f, rows, n) :
		       sq_envelope(d->sq, f, rows, n);
}

void rdb_envelope_free(struct rdb_env_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].board);
		free(rows[i].kernel);
		free(rows[i].test);
		free(rows[i].series);
		free(rows[i].load);
	}
	free(rows);
}

void rdb_summary_free(struct rdb_summary *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		struct rdb_sum_row *r = &s->v[i];

		free(r->board);
		free(r->kernel);
		free(r->test);
		free(r->series);
		free(r->load);
		free(r->worst_at);
		free(r->miss_kind);
		free(r->last_at);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int rdb_remove(struct rdb *d, int64_t id)
{
	return d->pg ? pg_remove(d->pg, id) : sq_remove(d->sq, id);
}

int rdb_version(struct rdb *d)
{
	return d->pg ? pg_version(d->pg) : sq_version(d->sq);
}

int rdb_baseline_set(struct rdb *d, const struct rep_runs *rs, size_t *unmarked,
		     int64_t *gone)
{
	return d->pg ? pg_baseline_set(d->pg, rs, unmarked, gone) :
		       sq_baseline_set(d->sq, rs, unmarked, gone);
}

int rdb_baseline_clear(struct rdb *d, const struct rep_runs *rs, size_t *n)
{
	return d->pg ? pg_baseline_clear(d->pg, rs, n) :
		       sq_baseline_clear(d->sq, rs, n);
}
