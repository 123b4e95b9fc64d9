/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The history database's stores behind report.h's rdb_*(): SQLite (db.c,
 * sq_*) and PostgreSQL (db_pg.c, pg_*, for a URL), with the same schema
 * (docs/db-schema.md) and the same meaning of every call (report.h); and
 * what they share (db_common.c).
 */
#ifndef RTLAT_REPORT_DB_IMPL_H
#define RTLAT_REPORT_DB_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/model/model.h"
#include "report/report.h"

struct filter;
struct sqdb;
struct pgdb;

struct sqdb *sq_open(const char *path, bool create);
void sq_close(struct sqdb *d);
int sq_add(struct sqdb *d, const struct rep_run *r, bool *dup, int64_t *id);
int sq_begin(struct sqdb *d);
int sq_commit(struct sqdb *d);
void sq_rollback(struct sqdb *d);
int sq_load(struct sqdb *d, const struct filter *f, long limit,
	    struct rep_runs *out);
int sq_count(struct sqdb *d, const struct filter *f, int64_t *n);
int sq_summary(struct sqdb *d, const struct filter *f, struct rdb_summary *out);
int sq_envelope(struct sqdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n);
int sq_remove(struct sqdb *d, int64_t id);
int sq_version(struct sqdb *d);
int sq_baseline_set(struct sqdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone);
int sq_baseline_clear(struct sqdb *d, const struct rep_runs *rs, size_t *n);

struct pgdb *pg_open(const char *url, bool create);
void pg_close(struct pgdb *d);
int pg_add(struct pgdb *d, const struct rep_run *r, bool *dup, int64_t *id);
int pg_begin(struct pgdb *d);
int pg_commit(struct pgdb *d);
/* Roll back rdb_begin()'s transaction (quietly: the connection may be gone). */
void pg_rollback(struct pgdb *d);
/* After a failed call in that transaction: its message when the failure
 * was a deadlock or a serialization failure (the whole transaction may be
 * tried again, nothing said yet), else NULL (said). */
const char *pg_retryable(const struct pgdb *d);
int pg_load(struct pgdb *d, const struct filter *f, long limit,
	    struct rep_runs *out);
int pg_count(struct pgdb *d, const struct filter *f, int64_t *n);
int pg_summary(struct pgdb *d, const struct filter *f, struct rdb_summary *out);
int pg_envelope(struct pgdb *d, const struct filter *f,
		struct rdb_env_row **rows, size_t *n);
int pg_remove(struct pgdb *d, int64_t id);
int pg_version(struct pgdb *d);
int pg_baseline_set(struct pgdb *d, const struct rep_runs *rs, size_t *unmarked,
		    int64_t *gone);
int pg_baseline_clear(struct pgdb *d, const struct rep_runs *rs, size_t *n);

/* The wait for another writer (rdb_set_lock_timeout(), settled by
 * rdb_open()), ns. */
int64_t db_lock_timeout(void);
/* After 1 s of waiting: "NAME: waiting for another writer (WHO)..." on
 * stderr, even with -q (a wait of seconds says why), WHO (NULL: not
 * known) as the store found it. */
void db_say_waiting(const char *name, const char *who);
/* The wait ran out: the error, and what to do. */
void db_say_gave_up(const char *name, const char *who);

/* The columns of runs read into a struct rep_run, in this order. */
#define DB_RUN_COLS "id, added_at, file, line, format, tool, label, board, system," \
	" kernel, arch, test, series, load, start_time, status, duration_ns," \
	" period_ns, resolution_ns, interval_ns, miss_kind, ideal_ns, section," \
	" EXISTS (SELECT 1 FROM baselines WHERE run_id = runs.id), system_check"

/* The identity of a run read back from a store (run_identity(); a label
 * that looks derived from the file name is taken as derived). */
void db_run_hash(const struct rep_run *r, char out[REP_IDENT_LEN]);

/* The path a run's file is stored under: absolute (the history is read
 * from elsewhere), @file itself when it cannot be resolved. */
const char *db_file_path(const char *file, char *buf, size_t len);
/* The names of the percentiles of @s that are lower bounds, blank
 * separated ("p99.9 p99.99") in @buf, or NULL for none. */
const char *db_pct_bounds(const struct rep_series *s, char *buf, size_t len);
/* Read such a list @t (NULL: none) into @s. */
void db_read_bounds(struct rep_series *s, const char *t);
/* The buckets of @h as the hist_buckets BLOB/BYTEA (LEB128 varints, see
 * db_common.c); malloc'ed, its size in *@n. */
unsigned char *db_put_buckets(const struct rep_hist *h, size_t *n);
/* Such a BLOB of @n bytes into @h: 0, or -1 when it is not one. */
int db_get_buckets_blob(const void *blob, int n, struct rep_hist *h);
/* Now, ISO 8601 UTC with ms (31 bytes and the NUL at most). */
void db_now_iso(char *buf);
/* The series of thread @th of @r (the whole run for th < 0), or NULL. */
struct rep_series *db_series_of(struct rep_run *r, int th);
/* The importer's static name for format @f ("unknown" if none). */
const char *db_static_format(const char *f);
/* A run read back: the defaults of what its row left NULL. */
void db_run_defaults(struct rep_run *r);

/* A filter (report.h) as an SQL condition on table runs, in the dialect
 * of SQLite (?N parameters, the function rtlat_glob(PATTERN, TEXT) that
 * filter_glob() is) or of PostgreSQL (@pg: $N, a glob as a regular
 * expression): sql, and its n text parameters v. A glob without a
 * wildcard (of ASCII) is an equality, which an index serves. */
struct db_where {
	char sql[4096];
	const char *v[16];
	char *own[16];		/* malloc'ed, freed by db_where_free() */
	int n;
	bool pg;
};
void db_where(const struct filter *f, bool pg, struct db_where *w);
void db_where_free(struct db_where *w);

/* The summary's query (rdb_summary()) with condition @where (db_where()),
 * malloc'ed. Its columns, in order, are read by db_sum_col(). */
char *db_sum_query(const char *where);
#define DB_SUM_NCOLS 24
/* Column @col of a summary row, as text (NULL: SQL NULL), into @r. */
void db_sum_col(struct rdb_sum_row *r, int col, const char *t);
/* Settle a row read: its trend, what it does not know. */
void db_sum_done(struct rdb_summary *s);

/* The envelope's query (rdb_envelope()) with condition @where,
 * malloc'ed; its columns read by db_env_col(). */
char *db_env_query(const char *where);
#define DB_ENV_NCOLS 10
void db_env_col(struct rdb_env_row *r, int col, const char *t);

/* The latest @limit runs that pass @w's condition, the ids of a load:
 * "SELECT id FROM runs WHERE ... ORDER BY ... LIMIT ..." in @buf. */
void db_latest_sql(const struct db_where *w, long limit, char *buf,
		   size_t len);

#endif
