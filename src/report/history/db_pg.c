// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The history database on PostgreSQL (libpq): the same tables, columns,
 * identity and commands as on SQLite (db.c, docs/db-schema.md), for a lab
 * whose boards and hosts share one history. Selected by a URL as the
 * database, "postgresql://[user@]host[:port]/dbname" (libpq's connection
 * URI; its environment variables and ~/.pgpass apply).
 *
 * Versions: PostgreSQL histories start at schema version 6 (the buckets of
 * a series in one BYTEA); the version is the one row of rtlat_schema.
 * Concurrency: the schema is created and migrated under a transaction-level
 * advisory lock; a run is added in one transaction (or a savepoint of
 * rdb_begin()'s), its content_hash UNIQUE: of writers adding the same run at
 * once one stores it and the others find it; a connection lost in the middle
 * leaves nothing of the run (the server rolls the transaction back).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"
#include "util/timeutil.h"
#include "util/url.h"
#include "report/history/db_impl.h"
#include "report/import/import.h"
#include "report/report.h"

bool rdb_is_url(const char *s)
{
	return s && (!strncmp(s, "postgresql://", 13) ||
		     !strncmp(s, "postgres://", 11));
}

#ifdef HAVE_LIBPQ
#include <libpq-fe.h>

struct pgdb {
	PGconn *c;
	char *name;		/* the URL without its password, for messages */
	char *url;		/* as given: its password is left out of
				 * libpq's messages (url_redact()) */
	bool batch;		/* in rdb_begin()'s transaction */
	bool retry;		/* the last failure was a deadlock or a
				 * serialization failure: try again */
	char retry_msg[256];	/* its message, said if the tries run out */
};

/* Any advisory-lock key of rtlat's: schema creation and migration. */
#define PG_SCHEMA_LOCK 0x72746c6174LL	/* "rtlat" */
/* ... and rdb_begin()'s adds */
#define PG_ADD_LOCK (PG_SCHEMA_LOCK + 1)

static const char *const pg_schema_v6[] = {
	"CREATE TABLE rtlat_schema (version INTEGER NOT NULL)",
	"INSERT INTO rtlat_schema VALUES (6)",
	"CREATE TABLE runs ("
	" id BIGSERIAL PRIMARY KEY,"
	" added_at TEXT NOT NULL,"
	" file TEXT, line INTEGER, format TEXT NOT NULL, tool TEXT,"
	" label TEXT NOT NULL, board TEXT, system TEXT, kernel TEXT, arch TEXT,"
	" test TEXT NOT NULL, series TEXT NOT NULL, load TEXT,"
	" start_time TEXT, status TEXT,"
	" duration_ns BIGINT, period_ns BIGINT, resolution_ns BIGINT NOT NULL,"
	" interval_ns BIGINT, miss_kind TEXT, ideal_ns BIGINT,"
	" content_hash TEXT UNIQUE, section TEXT)",
	"CREATE INDEX runs_test_load ON runs(test, load)",
	"CREATE TABLE series ("
	" run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" thread INTEGER NOT NULL, cpu INTEGER,"
	" samples BIGINT, min_ns BIGINT, avg_ns DOUBLE PRECISION, max_ns BIGINT,"
	" stddev_ns DOUBLE PRECISION, misses BIGINT,"
	" p50_ns BIGINT, p90_ns BIGINT, p99_ns BIGINT, p99_9_ns BIGINT,"
	" p99_99_ns BIGINT, p99_999_ns BIGINT, p99_9999_ns BIGINT,"
	" hist_layout TEXT, hist_lo_ns BIGINT, hist_width_ns BIGINT,"
	" hist_nbuckets BIGINT, hist_quantized INTEGER, hist_abs_folded INTEGER,"
	" hist_underflow BIGINT, hist_overflow BIGINT,"
	" pct_lower_bounds TEXT, hist_buckets BYTEA,"
	" PRIMARY KEY (run_id, thread))",
	"CREATE TABLE intervals ("
	" run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" thread INTEGER NOT NULL, idx INTEGER NOT NULL,"
	" start_ns BIGINT NOT NULL, len_ns BIGINT NOT NULL, samples BIGINT,"
	" min_ns BIGINT, avg_ns DOUBLE PRECISION, max_ns BIGINT, misses BIGINT,"
	" PRIMARY KEY (run_id, thread, idx))",
	NULL,
};

/* The statements that take a version-6 history to the next versions, by
 * the version they make. */
static const struct {
	int to;
	const char *sql;
} pg_migrations[] = {
	{ 7, "CREATE TABLE IF NOT EXISTS baselines ("
	     " run_id BIGINT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
	     " set_at TEXT NOT NULL)" },
	/* a run's test_data figures and rtlat check's findings (db.c) */
	{ 8, "ALTER TABLE runs ADD COLUMN IF NOT EXISTS system_check TEXT" },
	{ 8, "CREATE TABLE IF NOT EXISTS figures ("
	     " run_id BIGINT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	     " idx INTEGER NOT NULL, cpu INTEGER NOT NULL, name TEXT NOT NULL,"
	     " value TEXT NOT NULL, PRIMARY KEY (run_id, idx))" },
	/* the indexes of a large history's queries (db.c's version 9) */
	{ 9, "CREATE INDEX IF NOT EXISTS runs_board ON runs(board, kernel, test,"
	     " series, load, (COALESCE(start_time, added_at)))" },
	{ 9, "CREATE INDEX IF NOT EXISTS runs_time ON runs((COALESCE(start_time,"
	     " added_at)))" },
};

static int pg_fail(struct pgdb *d, const char *what, const PGresult *res)
{
	const char *m = res ? PQresultErrorMessage(res) : NULL;
	char hid[1024];
	char *t;

	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (!m || !*m)
		m = PQerrorMessage(d->c);
	t = xstrdup(m);
	t[strcspn(t, "\n")] = '\0';
	/* 40P01 deadlock_detected, 40001 serialization_failure (PostgreSQL
	 * "Error codes" appendix): the transaction may succeed if tried again */
	d->retry = d->batch && state &&
		   (!strcmp(state, "40P01") || !strcmp(state, "40001"));
	m = url_redact(d->url, t, hid, sizeof(hid));
	if (d->retry)
		snprintf(d->retry_msg, sizeof(d->retry_msg), "%s: %s: %s",
			 d->name, what, *m ? m : "failed");
	else
		log_error("%s: %s: %s", d->name, what, *m ? m : "failed");
	free(t);
	return -1;
}

/* Run @sql with text parameters @v (@n of them, NULL = SQL NULL); the
 * result, or NULL after an error message. PGRES_COMMAND_OK and
 * PGRES_TUPLES_OK are successes. */
static PGresult *q(struct pgdb *d, const char *what, const char *sql, int n,
		   const char *const *v)
{
	PGresult *res = PQexecParams(d->c, sql, n, NULL, v, NULL, NULL, 0);
	ExecStatusType s = PQresultStatus(res);

	if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		pg_fail(d, what, res);
		PQclear(res);
		return NULL;
	}
	return res;
}

static int x(struct pgdb *d, const char *what, const char *sql)
{
	PGresult *res = q(d, what, sql, 0, NULL);

	PQclear(res);
	return res ? 0 : -1;
}

/* Rolls back quietly (the connection may be gone). */
static void rollback(struct pgdb *d, const char *sql)
{
	PQclear(PQexec(d->c, sql));
}

/* The rows a command changed (PQcmdTuples()). */
static size_t changed(PGresult *res)
{
	return (size_t)strtoul(PQcmdTuples(res), NULL, 10);
}

/* ---- text parameters ---- */

struct params {
	int n, nown;
	char *v[32];
	char buf[32][32];
	char *own[32];		/* cleaned copies of texts, freed by p_free() */
};

static void p_init(struct params *p)
{
	p->n = 0;
	p->nown = 0;
}

static void p_free(struct params *p)
{
	while (p->nown)
		free(p->own[--p->nown]);
}

/*
 * A text parameter. PostgreSQL refuses a text that is not valid UTF-8
 * (the client encoding rtlat sets), where SQLite stores any bytes: a
 * hostname or label read from a Latin-1 file has each byte that is not
 * part of a valid sequence stored as U+FFFD, so that the run is kept (its
 * identity comes from the file as read, not from this text).
 */
static void p_text(struct params *p, const char *s)
{
	char *c = utf8_cleaned(s);

	if (!c) {
		p->v[p->n++] = (char *)s;
		return;
	}
	p->own[p->nown++] = c;
	p->v[p->n++] = c;
}

static void p_i64(struct params *p, bool known, int64_t v)
{
	if (!known) {
		p->v[p->n++] = NULL;
		return;
	}
	snprintf(p->buf[p->n], sizeof(p->buf[0]), "%" PRId64, v);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

static void p_dbl(struct params *p, bool known, double v)
{
	if (!known) {
		p->v[p->n++] = NULL;
		return;
	}
	snprintf(p->buf[p->n], sizeof(p->buf[0]), "%.17g", v);
	p->v[p->n] = p->buf[p->n];
	p->n++;
}

/* ---- reading rows ---- */

static bool c_null(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) != 0;
}

static int64_t c_i64(const PGresult *r, int row, int col)
{
	return c_null(r, row, col) ? 0 :
	       strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static double c_dbl(const PGresult *r, int row, int col)
{
	return c_null(r, row, col) ? 0 : strtod(PQgetvalue(r, row, col), NULL);
}

static char *c_text(const PGresult *r, int row, int col)
{
	return c_null(r, row, col) ? NULL : xstrdup(PQgetvalue(r, row, col));
}

/* ---- schema ---- */

int pg_version(struct pgdb *d)
{
	PGresult *res = PQexec(d->c,
			       "SELECT version FROM rtlat_schema"
			       " WHERE to_regclass('rtlat_schema') IS NOT NULL");
	int v = -1;

	if (PQresultStatus(res) == PGRES_TUPLES_OK)
		v = PQntuples(res) ? (int)c_i64(res, 0, 0) : 0;
	else
		pg_fail(d, "read the schema version", res);
	PQclear(res);
	return v;
}

/* Has the database a table @name (in the search path)? -1 on error. */
static int has_table(struct pgdb *d, const char *name)
{
	const char *v[1] = { name };
	PGresult *res = q(d, "read the tables",
			  "SELECT to_regclass($1) IS NOT NULL", 1, v);
	int yes;

	if (!res)
		return -1;
	yes = PQntuples(res) && !strcmp(PQgetvalue(res, 0, 0), "t");
	PQclear(res);
	return yes;
}

/* Any table at all in the public schema? -1 on error. */
static int has_any_table(struct pgdb *d)
{
	PGresult *res = q(d, "read the tables",
			  "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()",
			  0, NULL);
	int yes;

	if (!res)
		return -1;
	yes = PQntuples(res) && strcmp(PQgetvalue(res, 0, 0), "0") != 0;
	PQclear(res);
	return yes;
}

/* Who holds advisory lock @key (of this database): the holder's
 * application name (rtlat's says its PID and host) and server process,
 * as far as the server shows them; NULL if none is seen. */
static const char *lock_holder(struct pgdb *d, long long key, char *buf,
			       size_t len)
{
	char k[32];
	const char *v[1] = { k };
	PGresult *res;

	snprintf(k, sizeof(k), "%lld", key);
	res = PQexecParams(d->c,
			   "SELECT a.application_name, l.pid, host(a.client_addr)"
			   " FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
			   " WHERE l.locktype = 'advisory' AND l.granted"
			   " AND l.database = (SELECT oid FROM pg_database"
			   " WHERE datname = current_database())"
			   " AND (l.classid::bigint << 32 | l.objid::bigint) = $1::bigint"
			   " AND l.objsubid = 1 AND l.pid <> pg_backend_pid() LIMIT 1",
			   1, NULL, v, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK || !PQntuples(res)) {
		PQclear(res);
		return NULL;
	}
	snprintf(buf, len, "%s%sserver process %s%s%s",
		 PQgetvalue(res, 0, 0), *PQgetvalue(res, 0, 0) ? ", " : "",
		 PQgetvalue(res, 0, 1), c_null(res, 0, 2) ? "" : " from ",
		 c_null(res, 0, 2) ? "" : PQgetvalue(res, 0, 2));
	PQclear(res);
	return buf;
}

/*
 * Take the transaction-level advisory lock @key, waiting for another
 * writer that holds it up to db_lock_timeout() (saying so after 1 s,
 * with who holds it): tried every 50 ms, never a wait without end (a
 * writer stalled in its transaction would hold the others forever).
 * 0, or -1 after an error message (the transaction is the caller's).
 */
static int lock_wait(struct pgdb *d, long long key, const char *what)
{
	int64_t start = clock_now_ns(CLOCK_MONOTONIC), waited = 0;
	char sql[96], who[256];
	bool said = false;

	snprintf(sql, sizeof(sql), "SELECT pg_try_advisory_xact_lock(%lld)", key);
	for (;;) {
		PGresult *res = q(d, what, sql, 0, NULL);
		bool got;

		if (!res)
			return -1;
		got = PQntuples(res) && !strcmp(PQgetvalue(res, 0, 0), "t");
		PQclear(res);
		if (got)
			return 0;
		waited = clock_now_ns(CLOCK_MONOTONIC) - start;
		if (waited >= db_lock_timeout()) {
			db_say_gave_up(d->name, lock_holder(d, key, who, sizeof(who)));
			return -1;
		}
		if (!said && waited >= 1000000000LL) {
			db_say_waiting(d->name, lock_holder(d, key, who, sizeof(who)));
			said = true;
		}
		sleep_ns(db_lock_timeout() - waited < 50000000LL ?
			 db_lock_timeout() - waited : 50000000LL);
	}
}

/* Create or migrate the schema, in one transaction under the lock. */
static int pg_migrate(struct pgdb *d, bool create)
{
	char set[64];
	int v, t, any, from;
	size_t i;

	if (x(d, "begin", "BEGIN"))
		return -1;
	if (lock_wait(d, PG_SCHEMA_LOCK, "lock the schema"))
		goto fail;
	t = has_table(d, "rtlat_schema");
	if (t < 0)
		goto fail;
	if (!t) {
		any = has_any_table(d);
		if (any < 0)
			goto fail;
		if (any || !create) {
			log_error(any ? "%s: a PostgreSQL database, but not an rtlat history (no rtlat_schema table; rtlat db add creates one in a database without tables)" :
				  "%s: no rtlat history in this database (rtlat db add creates it)",
				  d->name);
			goto fail;
		}
		for (i = 0; pg_schema_v6[i]; i++)
			if (x(d, "create the schema", pg_schema_v6[i]))
				goto fail;
	}
	v = from = pg_version(d);
	if (v < 6) {
		if (v >= 0)	/* else said */
			log_error("%s: schema version %d in rtlat_schema: not one of rtlat's (6 or later)",
				  d->name, v);
		goto fail;
	}
	if (v > RDB_SCHEMA_VERSION) {
		log_error("%s: schema version %d is newer than this rtlat knows (%d): use a newer rtlat",
			  d->name, v, RDB_SCHEMA_VERSION);
		goto fail;
	}
	for (i = 0; i < sizeof(pg_migrations) / sizeof(pg_migrations[0]); i++) {
		int to = pg_migrations[i].to;

		/* every statement of each version after the one found */
		if (from < to && to <= RDB_SCHEMA_VERSION) {
			if (x(d, "migrate the schema", pg_migrations[i].sql))
				goto fail;
			v = to;
		}
	}
	/* written only when migrated: a reader needs SELECT only */
	snprintf(set, sizeof(set), "UPDATE rtlat_schema SET version = %d", v);
	if ((from < v && x(d, "set the schema version", set)) ||
	    x(d, "commit", "COMMIT"))
		goto fail;
	if (t && from < v)
		log_note("%s: schema migrated from version %d to %d", d->name,
			 from, v);
	return 0;
fail:
	rollback(d, "ROLLBACK");
	return -1;
}

struct pgdb *pg_open(const char *url, bool create)
{
	struct pgdb *d = xcalloc(1, sizeof(*d));

	d->name = xstrdup(rdb_shown(url));
	d->url = xstrdup(url);
	/*
	 * libpq waits for a server that accepts and never answers as long as
	 * TCP does: a connection is given 10 s unless the URL or
	 * PGCONNECT_TIMEOUT says otherwise (a keyword before "dbname" is
	 * overridden by the URL's own). Texts travel as UTF-8 (p_text()).
	 */
	{
		char app[64], host[40] = "";
		const char *const keys[] = { "connect_timeout", "client_encoding",
					     "fallback_application_name",
					     "dbname", NULL };
		const char *const vals[] = { getenv("PGCONNECT_TIMEOUT") ?
					     getenv("PGCONNECT_TIMEOUT") : "10",
					     "UTF8", app, url, NULL };

		/* who holds a lock, for another writer waiting for it */
		gethostname(host, sizeof(host) - 1);
		snprintf(app, sizeof(app), "rtlat PID %d on %s", (int)getpid(),
			 host);
		d->c = PQconnectdbParams(keys, vals, 1);
	}
	if (!d->c || PQstatus(d->c) != CONNECTION_OK) {
		char *m = xstrdup(d->c ? PQerrorMessage(d->c) : "out of memory");
		char hid[4096];

		m[strcspn(m, "\n")] = '\0';
		/* libpq's parse errors quote the URL, password and all, or
		 * a part of it taken for another field */
		log_error("%s: cannot connect: %s", d->name,
			  url_redact(url, m, hid, sizeof(hid)));
		free(m);
		pg_close(d);
		return NULL;
	}
	/* a server's notices (CREATE ... IF NOT EXISTS) are not ours; a
	 * lock held by another writer (a row of a run being added, a table
	 * being migrated) is waited for boundedly too */
	PQclear(PQexec(d->c, "SET client_min_messages = warning"));
	{
		char set[64];

		snprintf(set, sizeof(set), "SET lock_timeout = %" PRId64,
			 db_lock_timeout() / 1000000 + 1);
		PQclear(PQexec(d->c, set));
	}
	if (pg_migrate(d, create)) {
		pg_close(d);
		return NULL;
	}
	return d;
}

void pg_close(struct pgdb *d)
{
	if (!d)
		return;
	if (d->c)
		PQfinish(d->c);
	free(d->name);
	free(d->url);
	free(d);
}

/* ---- store ---- */

/* The row of series @s of run @id into @p, its histogram BLOB (malloc'ed,
 * NULL: none; its size in *@nblob) returned: it goes as binary. */
static unsigned char *series_params(struct params *p, const char *id,
				    const struct rep_series *s, size_t *nblob)
{
	const struct rep_hist *h = &s->hist;
	bool hist = h->layout != REP_HIST_NONE;
	unsigned char *blob = NULL;
	char bounds[128];
	int k;

	*nblob = 0;
	p_init(p);
	p_text(p, id);
	p_i64(p, true, s->id);
	p_i64(p, s->cpu >= 0, s->cpu);
	p_i64(p, s->has_samples, (int64_t)s->samples);
	p_i64(p, s->has_stats, s->min);
	p_dbl(p, s->has_stats, s->avg);
	p_i64(p, s->has_stats, s->max);
	p_dbl(p, s->has_stddev, s->stddev);
	p_i64(p, s->has_misses, (int64_t)s->misses);
	for (k = 0; k < RTLAT_NPCT; k++)
		p_i64(p, s->has_pct[k], s->pct[k]);
	p_text(p, !hist ? NULL :
	       h->layout == REP_HIST_LOGLIN ? "log-linear" : "linear");
	p_i64(p, hist, h->lo);
	p_i64(p, hist, h->width);
	p_i64(p, hist, (int64_t)h->nbuckets);
	p_i64(p, hist, h->quantized);
	p_i64(p, hist, h->abs_folded);
	p_i64(p, hist, (int64_t)h->underflow);
	p_i64(p, hist, (int64_t)h->overflow);
	if (db_pct_bounds(s, bounds, sizeof(bounds))) {
		/* a copy: @bounds ends with this call, the row is sent later */
		p->own[p->nown++] = xstrdup(bounds);
		p->v[p->n++] = p->own[p->nown - 1];
	} else {
		p->v[p->n++] = NULL;
	}
	if (h->n)
		blob = db_put_buckets(h, nblob);
	p->v[p->n++] = (char *)blob;	/* binary: length and format apart */
	return blob;
}

#define SERIES_COLS 26

/* The series of @r (the whole run, then each thread) as rows of run @id,
 * in one statement: a round trip per run, not one per series (db add of
 * a lab's history). */
static int put_series(struct pgdb *d, const char *id, const struct rep_run *r)
{
	static const char head[] =
		"INSERT INTO series (run_id, thread, cpu, samples, min_ns, avg_ns,"
		" max_ns, stddev_ns, misses, p50_ns, p90_ns, p99_ns, p99_9_ns,"
		" p99_99_ns, p99_999_ns, p99_9999_ns, hist_layout, hist_lo_ns,"
		" hist_width_ns, hist_nbuckets, hist_quantized, hist_abs_folded,"
		" hist_underflow, hist_overflow, pct_lower_bounds, hist_buckets)"
		" VALUES ";
	size_t ns = 1 + r->nthr, i, o, len = sizeof(head) + ns * SERIES_COLS * 8;
	struct params *p = xcalloc(ns, sizeof(*p));
	unsigned char **blob = xcalloc(ns, sizeof(*blob));
	char **v = xcalloc(ns * SERIES_COLS, sizeof(*v));
	int *lens = xcalloc(ns * SERIES_COLS, sizeof(*lens));
	int *fmts = xcalloc(ns * SERIES_COLS, sizeof(*fmts));
	char *sql = xmalloc(len);
	PGresult *res;
	int c, ret = 0;

	o = (size_t)snprintf(sql, len, "%s", head);
	for (i = 0; i < ns; i++) {
		size_t nblob;

		blob[i] = series_params(&p[i], id, i ? &r->thr[i - 1] : &r->sum,
					&nblob);
		for (c = 0; c < SERIES_COLS; c++) {
			size_t at = i * SERIES_COLS + (size_t)c;

			v[at] = p[i].v[c];
			o += (size_t)snprintf(sql + o, len - o, "%s$%zu",
					      c ? "," : i ? "),(" : "(", at + 1);
		}
		lens[i * SERIES_COLS + SERIES_COLS - 1] = (int)nblob;
		fmts[i * SERIES_COLS + SERIES_COLS - 1] = 1;
	}
	snprintf(sql + o, len - o, ")");
	res = PQexecParams(d->c, sql, (int)(ns * SERIES_COLS), NULL,
			   (const char *const *)v, lens, fmts, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		pg_fail(d, "insert series", res);
		ret = -1;
	}
	PQclear(res);
	for (i = 0; i < ns; i++) {
		p_free(&p[i]);
		free(blob[i]);
	}
	free(p);
	free(blob);
	free(v);
	free(lens);
	free(fmts);
	free(sql);
	return ret;
}

/* One interval's row: its 10 values in @b, pointers in @v (NULL: SQL
 * NULL). */
static void interval_params(const char *id, const struct rep_series *s,
			    size_t k, char (*b)[32], char **v)
{
	const struct rep_interval *iv = &s->iv[k];
	int64_t val[10] = {
		0, s->id, (int64_t)k, iv->start_ns, iv->len_ns,
		(int64_t)iv->samples, iv->min, 0, iv->max, (int64_t)iv->misses,
	};
	bool known[10] = {
		true, true, true, true, true, iv->has_samples, iv->has_stats,
		iv->has_stats, iv->has_stats, iv->has_misses,
	};
	int c;

	for (c = 0; c < 10; c++) {
		v[c] = NULL;
		if (!known[c])
			continue;
		if (c == 0)
			snprintf(b[c], sizeof(b[0]), "%s", id);
		else if (c == 7)
			snprintf(b[c], sizeof(b[0]), "%.17g", iv->avg);
		else
			snprintf(b[c], sizeof(b[0]), "%" PRId64, val[c]);
		v[c] = b[c];
	}
}

/* The intervals of every series of @r as rows of run @id, 200 rows a
 * statement whatever series they belong to. */
static int put_intervals(struct pgdb *d, const char *id, const struct rep_run *r)
{
	const size_t rows = 200, cells = rows * 10;
	size_t ns = 1 + r->nthr, si = 0, k = 0;

	for (;;) {
		char **v = xcalloc(cells, sizeof(*v));
		char (*b)[32] = xcalloc(cells, sizeof(*b));
		size_t len = 64 + rows * 112, o, n = 0;
		char *sql = xmalloc(len);
		PGresult *res;

		o = (size_t)snprintf(sql, len, "INSERT INTO intervals VALUES ");
		while (n < rows && si < ns) {
			const struct rep_series *s = si ? &r->thr[si - 1] : &r->sum;
			int c;

			if (k >= s->nint) {
				si++;
				k = 0;
				continue;
			}
			interval_params(id, s, k++, b + n * 10, v + n * 10);
			o += (size_t)snprintf(sql + o, len - o, "%s(", n ? "," : "");
			for (c = 0; c < 10; c++)
				o += (size_t)snprintf(sql + o, len - o, "%s$%zu",
						      c ? "," : "", n * 10 + (size_t)c + 1);
			o += (size_t)snprintf(sql + o, len - o, ")");
			n++;
		}
		res = n ? q(d, "insert intervals", sql, (int)(n * 10),
			    (const char *const *)v) : NULL;
		free(v);
		free(b);
		free(sql);
		if (!n)
			return 0;
		if (!res)
			return -1;
		PQclear(res);
	}
}

/* The figures of @r (rep_run.fig) as rows of figures of run @id, many
 * rows per statement. */
static int put_figures(struct pgdb *d, const char *id, const struct rep_run *r)
{
	size_t i, j;

	for (i = 0; i < r->nfig;) {
		size_t n = r->nfig - i > 200 ? 200 : r->nfig - i, o = 0;
		size_t len = 48 + n * 40;
		char *sql = xmalloc(len);
		char **v = xcalloc(n * 5, sizeof(*v));
		char (*b)[24] = xcalloc(n * 2, sizeof(*b));
		char **own = xcalloc(n * 2, sizeof(*own));
		PGresult *res;

		o = (size_t)snprintf(sql, len, "INSERT INTO figures VALUES ");
		for (j = 0; j < n; j++) {
			const struct rep_fig *f = &r->fig[i + j];
			size_t k = j * 5;

			snprintf(b[2 * j], sizeof(b[0]), "%zu", i + j);
			snprintf(b[2 * j + 1], sizeof(b[0]), "%d", f->cpu);
			/* as p_text(): a byte of no UTF-8 sequence as U+FFFD */
			own[2 * j] = utf8_cleaned(f->name);
			own[2 * j + 1] = utf8_cleaned(f->value);
			v[k] = (char *)id;
			v[k + 1] = b[2 * j];
			v[k + 2] = b[2 * j + 1];
			v[k + 3] = own[2 * j] ? own[2 * j] : (char *)f->name;
			v[k + 4] = own[2 * j + 1] ? own[2 * j + 1] : (char *)f->value;
			o += (size_t)snprintf(sql + o, len - o,
					      "%s($%zu,$%zu,$%zu,$%zu,$%zu)",
					      j ? "," : "", k + 1, k + 2, k + 3,
					      k + 4, k + 5);
		}
		res = q(d, "insert figures", sql, (int)(n * 5),
			(const char *const *)v);
		for (j = 0; j < n * 2; j++)
			free(own[j]);
		free(own);
		free(b);
		free(v);
		free(sql);
		if (!res)
			return -1;
		PQclear(res);
		i += n;
	}
	return 0;
}

/* A run @id stored before version 8 (no figures, no check), given to db
 * add again with them: they are filled in (as on SQLite, db.c). */
static int fill_in(struct pgdb *d, int64_t id, const struct rep_run *r)
{
	char idbuf[32];
	const char *v[2] = { idbuf, NULL };
	struct params p;
	PGresult *res;
	bool empty;

	if (!r->nfig && !r->check)
		return 0;
	snprintf(idbuf, sizeof(idbuf), "%" PRId64, id);
	res = q(d, "read run", "SELECT 1 FROM runs WHERE id = $1 AND"
		" system_check IS NULL AND NOT EXISTS (SELECT 1 FROM figures"
		" WHERE run_id = $1)", 1, v);
	if (!res)
		return -1;
	empty = PQntuples(res) > 0;
	PQclear(res);
	if (!empty)
		return 0;
	if (put_figures(d, idbuf, r))
		return -1;
	p_init(&p);
	p_text(&p, idbuf);
	p_text(&p, r->check);
	res = q(d, "update run", "UPDATE runs SET system_check = $2 WHERE id = $1",
		p.n, (const char *const *)p.v);
	p_free(&p);
	PQclear(res);
	return res ? 0 : -1;
}

int pg_add(struct pgdb *d, const struct rep_run *r, bool *dup, int64_t *id)
{
	static const char sql[] =
		"INSERT INTO runs (added_at, file, line, format, tool, label, board,"
		" system, kernel, arch, test, series, load, start_time, status,"
		" duration_ns, period_ns, resolution_ns, interval_ns, miss_kind,"
		" ideal_ns, content_hash, section, system_check) VALUES ($1,$2,$3,"
		"$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,"
		"$22,$23,$24)"
		" ON CONFLICT (content_hash) DO NOTHING RETURNING id";
	const char *begin = d->batch ? "SAVEPOINT add_run" : "BEGIN";
	const char *end = d->batch ? "RELEASE add_run" : "COMMIT";
	char now[32], hash[REP_IDENT_LEN], idbuf[32], path[PATH_MAX];
	struct params p;
	PGresult *res;

	*dup = false;
	*id = 0;
	if (r->ident[0])
		memcpy(hash, r->ident, sizeof(hash));
	else
		db_run_hash(r, hash);
	if (x(d, "begin", begin))
		return -1;
	db_now_iso(now);
	p_init(&p);
	p_text(&p, now);
	p_text(&p, db_file_path(r->file, path, sizeof(path)));
	p_i64(&p, r->line > 0, r->line);
	p_text(&p, r->format);
	p_text(&p, r->tool);
	p_text(&p, r->label);
	p_text(&p, r->board);
	p_text(&p, r->system);
	p_text(&p, r->kernel);
	p_text(&p, r->arch);
	p_text(&p, r->test);
	p_text(&p, r->series);
	p_text(&p, r->load);
	p_text(&p, r->start_time);
	p_text(&p, r->status);
	p_i64(&p, r->duration_ns >= 0, r->duration_ns);
	p_i64(&p, r->period_ns >= 0, r->period_ns);
	p_i64(&p, true, r->resolution_ns);
	p_i64(&p, r->interval_ns > 0, r->interval_ns);
	p_text(&p, r->miss == MISS_OVERRUNS ? "overruns" :
	       r->miss == MISS_LOST ? "lost" : NULL);
	p_i64(&p, r->has_ideal, r->ideal_ns);
	p_text(&p, hash);
	p_text(&p, r->section);
	p_text(&p, r->check);
	/* of writers adding this run at once, the others wait here for the
	 * first one's commit, then insert nothing */
	res = q(d, "insert run", sql, p.n, (const char *const *)p.v);
	p_free(&p);
	if (!res)
		goto fail;
	if (!PQntuples(res)) {
		const char *v[1] = { hash };

		PQclear(res);
		res = q(d, "find run", "SELECT id FROM runs WHERE content_hash = $1",
			1, v);
		if (!res)
			goto fail;
		*dup = true;
		*id = PQntuples(res) ? c_i64(res, 0, 0) : 0;
		PQclear(res);
		if (*id && fill_in(d, *id, r))
			goto fail;
		return x(d, "commit", end) ? -1 : 0;
	}
	*id = c_i64(res, 0, 0);
	PQclear(res);
	snprintf(idbuf, sizeof(idbuf), "%" PRId64, *id);
	if (put_series(d, idbuf, r) || put_intervals(d, idbuf, r))
		goto fail;
	if (put_figures(d, idbuf, r))
		goto fail;
	if (x(d, "commit", end))
		goto fail;
	return 0;
fail:
	if (d->batch) {
		rollback(d, "ROLLBACK TO add_run");
		rollback(d, "RELEASE add_run");
	} else {
		rollback(d, "ROLLBACK");
	}
	return -1;
}

int pg_begin(struct pgdb *d)
{
	d->retry = false;
	if (x(d, "begin", "BEGIN"))
		return -1;
	d->batch = true;
	/* one add at a time: adds of overlapping runs by several boards at
	 * once would otherwise wait for each other's unique keys in a cycle
	 * (a deadlock the server resolves by failing one); the lock goes with
	 * the transaction */
	if (lock_wait(d, PG_ADD_LOCK, "wait for the other adds")) {
		pg_rollback(d);
		return -1;
	}
	return 0;
}

int pg_commit(struct pgdb *d)
{
	int r = x(d, "commit", "COMMIT");

	d->batch = false;
	if (r) {
		rollback(d, "ROLLBACK");
		return -1;
	}
	return 0;
}

void pg_rollback(struct pgdb *d)
{
	d->batch = false;
	rollback(d, "ROLLBACK");
}

const char *pg_retryable(const struct pgdb *d)
{
	return d->retry ? d->retry_msg : NULL;
}

/* ---- load ---- */

static int get_series(struct pgdb *d, struct rep_run *r, const char *id)
{
	const char *v[1] = { id };
	PGresult *res = q(d, "read series",
			  "SELECT thread, cpu, samples, min_ns, avg_ns, max_ns,"
			  " stddev_ns, misses, p50_ns, p90_ns, p99_ns, p99_9_ns,"
			  " p99_99_ns, p99_999_ns, p99_9999_ns, hist_layout,"
			  " hist_lo_ns, hist_width_ns, hist_nbuckets,"
			  " hist_quantized, hist_abs_folded, hist_underflow,"
			  " hist_overflow, pct_lower_bounds, hist_buckets FROM series"
			  " WHERE run_id = $1 ORDER BY thread", 1, v);
	int row, k;

	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++) {
		int th = (int)c_i64(res, row, 0);
		struct rep_series *s = th < 0 ? &r->sum : run_add_thread(r, th);

		s->cpu = c_null(res, row, 1) ? -1 : (int)c_i64(res, row, 1);
		s->has_samples = !c_null(res, row, 2);
		s->samples = (uint64_t)c_i64(res, row, 2);
		s->has_stats = !c_null(res, row, 3) && !c_null(res, row, 4) &&
			       !c_null(res, row, 5);
		s->min = c_i64(res, row, 3);
		s->avg = c_dbl(res, row, 4);
		s->max = c_i64(res, row, 5);
		s->has_stddev = !c_null(res, row, 6);
		s->stddev = c_dbl(res, row, 6);
		s->has_misses = !c_null(res, row, 7);
		s->misses = (uint64_t)c_i64(res, row, 7);
		for (k = 0; k < RTLAT_NPCT; k++) {
			s->has_pct[k] = !c_null(res, row, 8 + k);
			s->pct[k] = c_i64(res, row, 8 + k);
		}
		db_read_bounds(s, c_null(res, row, 23) ? NULL :
			       PQgetvalue(res, row, 23));
		if (!c_null(res, row, 15)) {
			struct rep_hist *h = &s->hist;

			h->layout = !strcmp(PQgetvalue(res, row, 15), "log-linear") ?
				    REP_HIST_LOGLIN : REP_HIST_LINEAR;
			h->lo = c_i64(res, row, 16);
			h->width = c_i64(res, row, 17);
			h->nbuckets = (uint64_t)c_i64(res, row, 18);
			h->quantized = (int)c_i64(res, row, 19);
			h->abs_folded = (int)c_i64(res, row, 20);
			h->underflow = (uint64_t)c_i64(res, row, 21);
			h->overflow = (uint64_t)c_i64(res, row, 22);
			if (!c_null(res, row, 24)) {
				size_t n = 0;
				unsigned char *b = PQunescapeBytea(
					(const unsigned char *)PQgetvalue(res, row, 24), &n);
				int bad = !b || n > INT32_MAX ||
					  db_get_buckets_blob(b, (int)n, h);

				PQfreemem(b);
				if (bad) {
					PQclear(res);
					log_error("%s: run %s: unreadable histogram buckets",
						  d->name, id);
					return -1;
				}
			}
		}
	}
	PQclear(res);
	return 0;
}

static int get_intervals(struct pgdb *d, struct rep_run *r, const char *id)
{
	const char *v[1] = { id };
	PGresult *res = q(d, "read intervals",
			  "SELECT thread, start_ns, len_ns, samples, min_ns,"
			  " avg_ns, max_ns, misses FROM intervals"
			  " WHERE run_id = $1 ORDER BY thread, idx", 1, v);
	int row;

	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++) {
		struct rep_series *s = db_series_of(r, (int)c_i64(res, row, 0));
		struct rep_interval *iv;

		if (!s)
			continue;
		iv = series_add_interval(s);
		iv->start_ns = c_i64(res, row, 1);
		iv->len_ns = c_i64(res, row, 2);
		iv->has_samples = !c_null(res, row, 3);
		iv->samples = (uint64_t)c_i64(res, row, 3);
		iv->has_stats = !c_null(res, row, 4) && !c_null(res, row, 5) &&
				!c_null(res, row, 6);
		iv->min = c_i64(res, row, 4);
		iv->avg = c_dbl(res, row, 5);
		iv->max = c_i64(res, row, 6);
		iv->has_misses = !c_null(res, row, 7);
		iv->misses = (uint64_t)c_i64(res, row, 7);
	}
	PQclear(res);
	return 0;
}

static int get_figures(struct pgdb *d, struct rep_run *r, const char *id)
{
	const char *v[1] = { id };
	PGresult *res = q(d, "read figures",
			  "SELECT cpu, name, value FROM figures WHERE run_id = $1"
			  " ORDER BY idx", 1, v);
	int row;

	if (!res)
		return -1;
	for (row = 0; row < PQntuples(res); row++)
		if (!c_null(res, row, 1) && !c_null(res, row, 2))
			run_add_figure(r, PQgetvalue(res, row, 1),
				       (int)c_i64(res, row, 0),
				       PQgetvalue(res, row, 2));
	PQclear(res);
	return 0;
}

static struct rep_run *run_from_row(const PGresult *res, int row)
{
	struct rep_run *r = run_new();
	const char *miss = c_null(res, row, 20) ? NULL : PQgetvalue(res, row, 20);

	r->db_id = c_i64(res, row, 0);
	r->added_at = c_text(res, row, 1);
	r->file = c_text(res, row, 2);
	r->line = c_null(res, row, 3) ? 0 : (unsigned)c_i64(res, row, 3);
	r->format = db_static_format(c_null(res, row, 4) ? NULL :
				     PQgetvalue(res, row, 4));
	r->tool = c_text(res, row, 5);
	r->label = c_text(res, row, 6);
	r->board = c_text(res, row, 7);
	r->system = c_text(res, row, 8);
	r->kernel = c_text(res, row, 9);
	r->arch = c_text(res, row, 10);
	r->test = c_text(res, row, 11);
	r->series = c_text(res, row, 12);
	r->load = c_text(res, row, 13);
	r->start_time = c_text(res, row, 14);
	r->status = c_text(res, row, 15);
	r->duration_ns = c_null(res, row, 16) ? -1 : c_i64(res, row, 16);
	r->period_ns = c_null(res, row, 17) ? -1 : c_i64(res, row, 17);
	r->resolution_ns = c_i64(res, row, 18);
	r->interval_ns = c_null(res, row, 19) ? 0 : c_i64(res, row, 19);
	r->miss = !miss ? MISS_NONE :
		  !strcmp(miss, "lost") ? MISS_LOST : MISS_OVERRUNS;
	r->has_ideal = !c_null(res, row, 21);
	r->ideal_ns = c_i64(res, row, 21);
	r->section = c_text(res, row, 22);
	r->baseline = !c_null(res, row, 23) && !strcmp(PQgetvalue(res, row, 23), "t");
	r->check = c_text(res, row, 24);
	db_run_defaults(r);
	return r;
}

int pg_load(struct pgdb *d, const struct filter *f, long limit,
	    struct rep_runs *out)
{
	char sql[3 * sizeof(((struct db_where *)0)->sql) + 1024];
	struct db_where w;
	PGresult *res;
	int row, ret = 0;
	size_t i;

	/* one snapshot: runs added meanwhile are not half read */
	if (x(d, "begin", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
		return -1;
	/* the filter in SQL (an index serves a board's runs), and again
	 * below as it always was */
	db_where(f, true, &w);
	if (limit > 0) {
		char latest[sizeof(w.sql) + 256];

		db_latest_sql(&w, limit, latest, sizeof(latest));
		snprintf(sql, sizeof(sql), "SELECT " DB_RUN_COLS " FROM runs"
			 " WHERE id IN (%s) ORDER BY id", latest);
	} else {
		snprintf(sql, sizeof(sql), "SELECT " DB_RUN_COLS " FROM runs"
			 " WHERE %s ORDER BY id", w.sql);
	}
	res = q(d, "read runs", sql, w.n, w.v);
	db_where_free(&w);
	if (!res) {
		rollback(d, "ROLLBACK");
		return -1;
	}
	for (row = 0; row < PQntuples(res) && !ret; row++) {
		struct rep_run *r = run_from_row(res, row);
		char id[32];

		if (f && !filter_match(f, r)) {
			run_free(r);
			continue;
		}
		snprintf(id, sizeof(id), "%" PRId64, r->db_id);
		if (get_series(d, r, id) || get_intervals(d, r, id) ||
		    get_figures(d, r, id)) {
			run_free(r);
			ret = -1;
			break;
		}
		series_check_percentiles(&r->sum);
		for (i = 0; i < r->nthr; i++)
			series_check_percentiles(&r->thr[i]);
		runs_push(out, r);
	}
	PQclear(res);
	rollback(d, "COMMIT");
	return ret;
}

int pg_count(struct pgdb *d, const struct filter *f, int64_t *n)
{
	char sql[sizeof(((struct db_where *)0)->sql) + 64];
	struct db_where w;
	PGresult *res;

	db_where(f, true, &w);
	snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM runs WHERE %s", w.sql);
	res = q(d, "count runs", sql, w.n, w.v);
	db_where_free(&w);
	if (!res)
		return -1;
	*n = PQntuples(res) ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : 0;
	PQclear(res);
	return 0;
}

int pg_envelope(struct pgdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n)
{
	struct db_where w;
	PGresult *res;
	char *sql;
	int row, c;

	*rows = NULL;
	*n = 0;
	db_where(f, true, &w);
	sql = db_env_query(w.sql);
	res = q(d, "aggregate runs", sql, w.n, w.v);
	free(sql);
	db_where_free(&w);
	if (!res)
		return -1;
	*rows = xcalloc((size_t)PQntuples(res) + 1, sizeof(**rows));
	for (row = 0; row < PQntuples(res); row++) {
		struct rdb_env_row *r = &(*rows)[(*n)++];

		for (c = 0; c < DB_ENV_NCOLS; c++)
			db_env_col(r, c, PQgetisnull(res, row, c) ? NULL :
				   PQgetvalue(res, row, c));
	}
	PQclear(res);
	return 0;
}

int pg_summary(struct pgdb *d, const struct filter *f, struct rdb_summary *out)
{
	struct db_where w;
	PGresult *res;
	char *sql;
	int row, c;

	db_where(f, true, &w);
	sql = db_sum_query(w.sql);
	res = q(d, "summarise runs", sql, w.n, w.v);
	free(sql);
	db_where_free(&w);
	if (!res)
		return -1;
	out->v = xcalloc((size_t)PQntuples(res) + 1, sizeof(*out->v));
	for (row = 0; row < PQntuples(res); row++) {
		struct rdb_sum_row *r = &out->v[out->n++];

		for (c = 0; c < DB_SUM_NCOLS; c++)
			db_sum_col(r, c, PQgetisnull(res, row, c) ? NULL :
				   PQgetvalue(res, row, c));
	}
	PQclear(res);
	db_sum_done(out);
	return 0;
}

int pg_remove(struct pgdb *d, int64_t id)
{
	char buf[32];
	const char *v[1] = { buf };
	PGresult *res;
	int n;

	snprintf(buf, sizeof(buf), "%" PRId64, id);
	res = q(d, "delete", "DELETE FROM runs WHERE id = $1", 1, v);
	if (!res)
		return -1;
	n = (int)changed(res);
	PQclear(res);
	return n ? 0 : 1;
}

/* ---- baselines ---- */

/* Unmark the baseline runs of @r's board of @r's table (test, series,
 * load, section), counted into @n. */
static int unmark_table(struct pgdb *d, const struct rep_run *r, size_t *n)
{
	const char *v[5] = { r->board, r->test, r->series, r->load, r->section };
	PGresult *res = q(d, "unmark baseline",
			  "DELETE FROM baselines WHERE run_id IN (SELECT id FROM runs"
			  " WHERE board = $1 AND test = $2 AND series = $3"
			  " AND load IS NOT DISTINCT FROM $4"
			  " AND section IS NOT DISTINCT FROM $5)", 5, v);

	if (!res)
		return -1;
	*n += changed(res);
	PQclear(res);
	return 0;
}

int pg_baseline_set(struct pgdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone)
{
	char now[32], id[32];
	const char *v[2] = { id, now };
	PGresult *res;
	size_t i;

	*unmarked = 0;
	if (x(d, "begin", "BEGIN"))
		return -1;
	/* the picked runs, locked against a db remove beside us (it waits
	 * for our commit); one removed since it was picked: said by the
	 * caller, who picks again */
	for (i = 0; i < rs->n; i++) {
		bool there;

		if (!rs->v[i]->board)
			continue;
		snprintf(id, sizeof(id), "%" PRId64, rs->v[i]->db_id);
		res = q(d, "find run",
			"SELECT 1 FROM runs WHERE id = $1 FOR KEY SHARE", 1, v);
		if (!res)
			goto fail;
		there = PQntuples(res) > 0;
		PQclear(res);
		if (!there) {
			*gone = rs->v[i]->db_id;
			rollback(d, "ROLLBACK");
			return 1;
		}
	}
	for (i = 0; i < rs->n; i++)
		if (rs->v[i]->board && unmark_table(d, rs->v[i], unmarked))
			goto fail;
	db_now_iso(now);
	for (i = 0; i < rs->n; i++) {
		if (!rs->v[i]->board)
			continue;
		snprintf(id, sizeof(id), "%" PRId64, rs->v[i]->db_id);
		res = q(d, "mark baseline",
			"INSERT INTO baselines (run_id, set_at) VALUES ($1, $2)"
			" ON CONFLICT (run_id) DO NOTHING", 2, v);
		if (!res)
			goto fail;
		PQclear(res);
	}
	if (x(d, "commit", "COMMIT"))
		goto fail;
	return 0;
fail:
	rollback(d, "ROLLBACK");
	return -1;
}

int pg_baseline_clear(struct pgdb *d, const struct rep_runs *rs, size_t *n)
{
	char id[32];
	const char *v[1] = { id };
	PGresult *res;
	size_t i;

	*n = 0;
	if (x(d, "begin", "BEGIN"))
		return -1;
	for (i = 0; i < rs->n; i++) {
		snprintf(id, sizeof(id), "%" PRId64, rs->v[i]->db_id);
		res = q(d, "unmark baseline",
			"DELETE FROM baselines WHERE run_id = $1", 1, v);
		if (!res) {
			rollback(d, "ROLLBACK");
			return -1;
		}
		*n += changed(res);
		PQclear(res);
	}
	if (x(d, "commit", "COMMIT")) {
		rollback(d, "ROLLBACK");
		return -1;
	}
	return 0;
}

#else /* !HAVE_LIBPQ */

struct pgdb *pg_open(const char *url, bool create)
{
	log_error("a PostgreSQL history needs libpq, which is not built into this rtlat (install pkg-config and libpq-dev, or run make deps, then rebuild: make clean all)");
	return NULL;
}

void pg_close(struct pgdb *d)
{
}

int pg_add(struct pgdb *d, const struct rep_run *r, bool *dup, int64_t *id)
{
	return -1;
}

int pg_begin(struct pgdb *d)
{
	return -1;
}

int pg_commit(struct pgdb *d)
{
	return -1;
}

void pg_rollback(struct pgdb *d)
{
}

const char *pg_retryable(const struct pgdb *d)
{
	return NULL;
}

int pg_load(struct pgdb *d, const struct filter *f, long limit,
	    struct rep_runs *out)
{
	return -1;
}

int pg_count(struct pgdb *d, const struct filter *f, int64_t *n)
{
	return -1;
}

int pg_summary(struct pgdb *d, const struct filter *f, struct rdb_summary *out)
{
	return -1;
}

int pg_envelope(struct pgdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n)
{
	return -1;
}

int pg_remove(struct pgdb *d, int64_t id)
{
	return -1;
}

int pg_version(struct pgdb *d)
{
	return -1;
}

int pg_baseline_set(struct pgdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone)
{
	(void)gone;
	return -1;
}

int pg_baseline_clear(struct pgdb *d, const struct rep_runs *rs, size_t *n)
{
	return -1;
}

#endif
