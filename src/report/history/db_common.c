// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the history's two stores (SQLite: db.c, PostgreSQL: db_pg.c) share:
 * a stored run's identity, the percentile bounds and histogram buckets as
 * stored, the defaults of a run read back. See db_impl.h.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "util/timeutil.h"
#include "report/history/db_impl.h"
#include "report/import/import.h"
#include "report/report.h"

/* Was @label derived from the file name (the importer's default: the name
 * without extension, "NAME #k" for several runs)? */
static bool label_from_file(const char *label, const char *file)
{
	const char *b = file ? strrchr(file, '/') : NULL, *dot;
	size_t n;

	if (!label || !file)
		return false;
	b = b ? b + 1 : file;
	dot = strrchr(b, '.');
	n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	if (strncmp(label, b, n) != 0)
		return false;
	if (!label[n])
		return true;
	if (label[n] != ' ' || label[n + 1] != '#' || !label[n + 2])
		return false;
	return strspn(label + n + 2, "0123456789") == strlen(label + n + 2);
}

/* The identity of a run read back from the database, which does not say
 * where its label came from: one that looks derived from the file name
 * is taken as derived. */
void db_run_hash(const struct rep_run *r, char out[REP_IDENT_LEN])
{
	run_identity(r, label_from_file(r->label, r->file) ? NULL : r->label,
		     out);
}

const char *db_file_path(const char *file, char *buf, size_t len)
{
	char *abs;

	if (!file || file[0] == '/' || !strcmp(file, "-") ||
	    !(abs = realpath(file, NULL)))
		return file;
	snprintf(buf, len, "%s", abs);
	free(abs);
	return buf;
}

void rdb_identity(const struct rep_run *r, char out[REP_IDENT_LEN])
{
	if (r->ident[0])
		memcpy(out, r->ident, REP_IDENT_LEN);
	else
		db_run_hash(r, out);
}

/* The names of the percentiles of @s that are lower bounds, blank
 * separated ("p99.9 p99.99"), or NULL for none. */
const char *db_pct_bounds(const struct rep_series *s, char *buf,
			      size_t len)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < RTLAT_NPCT && n < len; k++)
		if (s->has_pct[k] && s->pct_bound[k])
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? " " : "",
					      rtlat_percentiles[k].name);
	return buf[0] ? buf : NULL;
}

/* Read pct_lower_bounds @t into @s. */
void db_read_bounds(struct rep_series *s, const char *t)
{
	int k;

	for (k = 0; k < RTLAT_NPCT; k++) {
		const char *p = t, *name = rtlat_percentiles[k].name;
		size_t n = strlen(name);

		s->pct_bound[k] = false;
		while (p && *p) {
			size_t w = strcspn(p, " ");

			if (w == n && !strncmp(p, name, n))
				s->pct_bound[k] = s->has_pct[k];
			p += w;
			p += strspn(p, " ");
		}
	}
}

/*
 * The buckets of @h as a BLOB (hist_buckets): per bucket three LEB128
 * varints, the zigzag-coded distance of its lower bound from the end of
 * the bucket before (from 0 for the first), its width hi - lo, and its
 * count. Returns a malloc'ed buffer, its size in *@n.
 */
unsigned char *db_put_buckets(const struct rep_hist *h, size_t *n)
{
	unsigned char *b = xmalloc(h->n * 30), *w = b;
	int64_t prev = 0;
	size_t i;

	for (i = 0; i < h->n; i++) {
		uint64_t v[3];
		int k;

		/* bounds are within +-2^53: no overflow in the differences;
		 * zigzag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ... */
		int64_t d = h->b[i].lo - prev;

		v[0] = (uint64_t)d << 1 ^ (d < 0 ? UINT64_MAX : 0);
		v[1] = (uint64_t)(h->b[i].hi - h->b[i].lo);
		v[2] = h->b[i].count;
		for (k = 0; k < 3; k++) {
			while (v[k] >= 0x80) {
				*w++ = (unsigned char)(v[k] | 0x80);
				v[k] >>= 7;
			}
			*w++ = (unsigned char)v[k];
		}
		prev = h->b[i].hi + 1;
	}
	*n = (size_t)(w - b);
	return b;
}

/* One varint of get_buckets(); false at the end or on a bad one. */
static bool get_varint(const unsigned char **p, const unsigned char *end,
		       uint64_t *v)
{
	int shift = 0;

	*v = 0;
	while (*p < end && shift < 64) {
		unsigned char c = *(*p)++;

		*v |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* The buckets of a hist_buckets BLOB (db_put_buckets()) into @h. 0 or -1. */
int db_get_buckets_blob(const void *blob, int n, struct rep_hist *h)
{
	const unsigned char *p = blob, *end = p + (n > 0 ? n : 0);
	int64_t prev = 0;

	while (p < end) {
		uint64_t v[3];
		int64_t lo, hi;
		int k;

		for (k = 0; k < 3; k++)
			if (!get_varint(&p, end, &v[k]))
				return -1;
		lo = prev + (int64_t)(v[0] >> 1 ^ -(v[0] & 1));
		if (v[1] > (uint64_t)REP_MAX_VALUE * 2 || lo < -REP_MAX_VALUE ||
		    lo > REP_MAX_VALUE)
			return -1;
		hi = lo + (int64_t)v[1];
		if (hist_push(h, lo, hi, v[2]))
			return -1;
		prev = hi + 1;
	}
	return 0;
}

void db_say_waiting(const char *name, const char *who)
{
	char t[32];

	/* even with -q: a command that stalls for seconds says why (what
	 * cannot be learnt otherwise, as stderr is for; log.h) */
	log_note_always("%s: waiting for another writer%s%s%s, up to %s (--lock-timeout, RTLAT_DB_LOCK_TIMEOUT)...",
		 name, who ? " (" : "", who ? who : "", who ? ")" : "",
		 fmt_time(t, db_lock_timeout()));
}

void db_say_gave_up(const char *name, const char *who)
{
	char t[32];

	if (!db_lock_timeout()) {
		log_error("%s: another writer%s%s%s holds the history and --lock-timeout 0 says not to wait: nothing written",
			  name, who ? " (" : "", who ? who : "", who ? ")" : "");
		return;
	}
	log_error("%s: gave up after %s waiting for another writer%s%s%s that holds the history: nothing written (--lock-timeout or RTLAT_DB_LOCK_TIMEOUT waits longer)",
		  name, fmt_time(t, db_lock_timeout()),
		  who ? " (" : "", who ? who : "", who ? ")" : "");
}

void db_now_iso(char *buf)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	fmt_utc(buf, ts_to_ns(&ts));
}

struct rep_series *db_series_of(struct rep_run *r, int th)
{
	size_t i;

	if (th < 0)
		return &r->sum;
	for (i = 0; i < r->nthr; i++)
		if (r->thr[i].id == th)
			return &r->thr[i];
	return NULL;
}

/* The format names are static strings of the importers. */
const char *db_static_format(const char *f)
{
	const struct importer *imp = f ? importer_find(f) : NULL;

	return imp ? imp->name : "unknown";
}

void db_run_defaults(struct rep_run *r)
{
	if (!r->label)
		r->label = xstrdup("?");
	if (!r->test)
		r->test = xstrdup("latency");
	if (!r->series)
		r->series = xstrdup("latency");
	/* the history keeps no "counts_misses" */
	imp_legacy_no_misses(r);
	if (r->resolution_ns < 1)
		r->resolution_ns = 1;
}

/* ---- the queries of a large history (rdb_count(), rdb_summary()) ---- */

/* Glob @pat (fnmatch(3) without flags) as an anchored PostgreSQL regular
 * expression (malloc'ed). */
static char *glob_regex(const char *pat)
{
	size_t n = strlen(pat), k = 0;
	char *out = xmalloc(4 * n + 3);
	const char *p, *e;

	out[k++] = '^';
	for (p = pat; *p; p++) {
		switch (*p) {
		case '*':
			out[k++] = '.';
			out[k++] = '*';
			continue;
		case '?':
			out[k++] = '.';
			continue;
		case '\\':
			if (!p[1])
				break;
			p++;
			break;
		case '[':
			/* a bracket expression: to its ']' (a first one is a
			 * member), else '[' itself */
			e = p + 1;
			if (*e == '!' || *e == '^')
				e++;
			if (*e == ']')
				e++;
			while (*e && *e != ']') {
				if (*e == '[' && e[1] == ':' && strstr(e + 2, ":]"))
					e = strstr(e + 2, ":]") + 1;
				e++;
			}
			if (!*e)
				break;
			out[k++] = '[';
			if (p[1] == '!' || p[1] == '^') {
				out[k++] = '^';
				p++;
			}
			for (p++; p < e; p++) {
				if (*p == '\\')
					out[k++] = '\\';
				out[k++] = *p;
			}
			out[k++] = ']';
			continue;
		default:
			break;
		}
		if (strchr(".^$|()+{}[]\\*?", *p))
			out[k++] = '\\';
		out[k++] = *p;
	}
	out[k++] = '$';
	out[k] = '\0';
	return out;
}

/* A pattern that matches itself only (ASCII, no wildcard or escape)? */
static bool glob_plain(const char *pat)
{
	const unsigned char *p;

	for (p = (const unsigned char *)pat; *p; p++)
		if (*p >= 0x80 || strchr("*?[\\", *p))
			return false;
	return true;
}

/* " AND @col @op PARAMETER", the parameter @v (@own: malloc'ed) */
static void where_add(struct db_where *w, const char *col, const char *op,
		      const char *v, char *own)
{
	size_t k = strlen(w->sql);

	w->own[w->n] = own;
	w->v[w->n++] = v;
	snprintf(w->sql + k, sizeof(w->sql) - k, " AND %s %s %c%d", col, op,
		 w->pg ? '$' : '?', w->n);
}

static void where_glob(struct db_where *w, bool pg, const char *col,
		       const char *pat)
{
	char *c;

	if (!pat)
		return;
	if (glob_plain(pat)) {
		where_add(w, col, "=", pat, NULL);
		return;
	}
	if (!pg) {
		/* ?N first in the call: rtlat_glob(pattern, text) */
		size_t k = strlen(w->sql);

		w->own[w->n] = NULL;
		w->v[w->n++] = pat;
		snprintf(w->sql + k, sizeof(w->sql) - k,
			 " AND rtlat_glob(?%d, %s)", w->n, col);
		return;
	}
	c = utf8_cleaned(pat);
	{
		char *re = glob_regex(c ? c : pat);

		free(c);
		where_add(w, col, "~", re, re);
	}
}

void db_where(const struct filter *f, bool pg, struct db_where *w)
{
	static const char date[] = "COALESCE(runs.start_time, runs.added_at)";
	char col[128];

	memset(w, 0, sizeof(*w));
	w->pg = pg;
	strcpy(w->sql, "1 = 1");
	if (!f)
		return;
	where_glob(w, pg, "runs.label", f->label);
	where_glob(w, pg, "runs.board", f->board);
	where_glob(w, pg, "runs.kernel", f->kernel);
	where_glob(w, pg, "runs.test", f->test);
	where_glob(w, pg, "COALESCE(runs.load, 'unknown')", f->load);
	if (f->baseline) {
		size_t k = strlen(w->sql);

		snprintf(w->sql + k, sizeof(w->sql) - k,
			 " AND %sEXISTS (SELECT 1 FROM baselines WHERE run_id = runs.id)",
			 strcmp(f->baseline, "yes") ? "NOT " : "");
	}
	/* strncmp() of filter_match(): the date's first strlen(DATE) bytes */
	if (f->since) {
		snprintf(col, sizeof(col), "substr(%s, 1, %zu)%s", date,
			 strlen(f->since), pg ? " COLLATE \"C\"" : "");
		where_add(w, col, ">=", f->since, NULL);
	}
	if (f->until) {
		snprintf(col, sizeof(col), "substr(%s, 1, %zu)%s", date,
			 strlen(f->until), pg ? " COLLATE \"C\"" : "");
		where_add(w, col, "<=", f->until, NULL);
	}
}

void db_where_free(struct db_where *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->own[i]);
	w->n = 0;
}

void db_latest_sql(const struct db_where *w, long limit, char *buf,
		   size_t len)
{
	snprintf(buf, len,
		 "SELECT id FROM runs WHERE %s ORDER BY"
		 " COALESCE(runs.start_time, runs.added_at) DESC, id DESC LIMIT %ld",
		 w->sql, limit);
}

/*
 * Per board, kernel, test, series and load (k): the runs in time order
 * (tn of n; the older half A, half 0, the newer B), their whole-run
 * maxima in order (rn of nn; the runs without one last), and in order
 * within each half (hr0 of hn0, hr1 of hn1: running counts in the same
 * order, so that one sort serves every rank of k). The figures are then
 * read at ranks: the
 * median (the mean of the two middle ones), the quartiles at nearest
 * rank ceil(n/4) and ceil(3n/4), the worst at nn (of equal maxima the
 * first run). Window functions of SQLite 3.25 and PostgreSQL. The time
 * order is index runs_board's (no sort on SQLite); the maxima's order is
 * one sort.
 */
char *db_sum_query(const char *where)
{
	return xasprintf(
	"WITH r AS (SELECT runs.id AS id, runs.board AS board,"
	" runs.kernel AS kernel, runs.test AS test, runs.series AS ser,"
	" runs.load AS ld, COALESCE(runs.start_time, runs.added_at) AS ts,"
	" runs.miss_kind AS mk, runs.resolution_ns AS res, s.max_ns AS mx,"
	" s.p99_9_ns AS p999, s.misses AS ms"
	" FROM runs LEFT JOIN series s ON s.run_id = runs.id AND s.thread = -1"
	" WHERE %s),"
	" t AS (SELECT r.*, ROW_NUMBER() OVER wt AS tn,"
	" COUNT(*) OVER (wt ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS n"
	" FROM r WINDOW wt AS (PARTITION BY board, kernel, test, ser, ld"
	" ORDER BY ts, id)),"
	" h AS (SELECT t.*, CASE WHEN 2 * tn <= n THEN 0 ELSE 1 END AS half FROM t),"
	" k AS (SELECT h.*, ROW_NUMBER() OVER w AS rn,"
	" COUNT(mx) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS nn,"
	" SUM(CASE WHEN half = 0 THEN 1 ELSE 0 END) OVER (w ROWS UNBOUNDED PRECEDING) AS hr0,"
	" SUM(CASE WHEN half = 1 THEN 1 ELSE 0 END) OVER (w ROWS UNBOUNDED PRECEDING) AS hr1,"
	" SUM(CASE WHEN half = 0 AND mx IS NOT NULL THEN 1 ELSE 0 END) OVER"
	" (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS hn0,"
	" SUM(CASE WHEN half = 1 AND mx IS NOT NULL THEN 1 ELSE 0 END) OVER"
	" (w ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS hn1"
	" FROM h WINDOW w AS (PARTITION BY board, kernel, test, ser, ld"
	" ORDER BY mx IS NULL, mx, ts DESC, id DESC))"
	" SELECT board, kernel, test, ser, ld, COUNT(*), COUNT(mx), MAX(mx),"
	" MAX(CASE WHEN rn = nn THEN ts END), MAX(CASE WHEN rn = nn THEN id END),"
	" AVG(CASE WHEN rn = (nn + 1) / 2 OR rn = (nn + 2) / 2 THEN mx END),"
	" MAX(CASE WHEN rn = (nn + 3) / 4 THEN mx END),"
	" MAX(CASE WHEN rn = (3 * nn + 3) / 4 THEN mx END),"
	" MAX(p999), SUM(ms), MAX(mk), MAX(ts), MAX(res),"
	" COUNT(CASE WHEN half = 0 THEN mx END),"
	" COUNT(CASE WHEN half = 1 THEN mx END),"
	" AVG(CASE WHEN half = 0 AND (hr0 = (hn0 + 1) / 2 OR hr0 = (hn0 + 2) / 2)"
	" THEN mx END),"
	" AVG(CASE WHEN half = 1 AND (hr1 = (hn1 + 1) / 2 OR hr1 = (hn1 + 2) / 2)"
	" THEN mx END),"
	" MAX(CASE WHEN half = 0 THEN mx END) - MIN(CASE WHEN half = 0 THEN mx END),"
	" MAX(CASE WHEN half = 1 THEN mx END) - MIN(CASE WHEN half = 1 THEN mx END)"
	" FROM k GROUP BY board, kernel, test, ser, ld", where);
}

void db_sum_col(struct rdb_sum_row *r, int col, const char *t)
{
	char **str[] = { &r->board, &r->kernel, &r->test, &r->series,
			 &r->load };
	int64_t *num[] = { &r->runs, &r->nmax, &r->worst_ns };

	if (col < 5) {
		/* a run whose source does not say its load: "unknown" */
		*str[col] = t ? xstrdup(t) : col == 4 ? xstrdup("unknown") : NULL;
		return;
	}
	if (col < 8) {
		*num[col - 5] = t ? strtoll(t, NULL, 10) : -1;
		return;
	}
	switch (col) {
	case 8:
		r->worst_at = t ? xstrdup(t) : NULL;
		break;
	case 9:
		r->worst_id = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 10:
		r->median_ns = t ? strtod(t, NULL) : -1;
		break;
	case 11:
		r->q1_ns = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 12:
		r->q3_ns = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 13:
		r->p99_9_ns = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 14:
		r->misses = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 15:
		r->miss_kind = t ? xstrdup(t) : NULL;
		break;
	case 16:
		r->last_at = t ? xstrdup(t) : NULL;
		break;
	case 17:
		r->resolution_ns = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 18:
		r->a_n = t ? strtoll(t, NULL, 10) : 0;
		break;
	case 19:
		r->b_n = t ? strtoll(t, NULL, 10) : 0;
		break;
	case 20:
		r->a_med = t ? strtod(t, NULL) : -1;
		break;
	case 21:
		r->b_med = t ? strtod(t, NULL) : -1;
		break;
	case 22:
		r->a_range = t ? strtoll(t, NULL, 10) : -1;
		break;
	case 23:
		r->b_range = t ? strtoll(t, NULL, 10) : -1;
		break;
	default:
		break;
	}
}

/* NULL first, then bytewise: the same order on either store */
static int cmp_text(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static int cmp_row(const void *x, const void *y)
{
	const struct rdb_sum_row *a = x, *b = y;
	int c;

	if ((c = cmp_text(a->board, b->board)) ||
	    (c = cmp_text(a->kernel, b->kernel)) ||
	    (c = cmp_text(a->test, b->test)) ||
	    (c = cmp_text(a->series, b->series)))
		return c;
	return cmp_text(a->load, b->load);
}

/*
 * The trend by compare's rule for repeated runs without interval series
 * (docs/report.md, "Verdicts"): B's median max against A's, the noise the
 * larger range of the maxima of either side, never below the figures'
 * resolution (within that: the same); 3 runs a side at least, else
 * cannot tell.
 */
static const char *sum_trend(const struct rdb_sum_row *r)
{
	double d = r->b_med - r->a_med, noise;

	if (r->a_n < 3 || r->b_n < 3)
		return "cannot tell";
	noise = (double)(r->a_range > r->b_range ? r->a_range : r->b_range);
	if (fabs(d) <= (double)(r->resolution_ns > 0 ? r->resolution_ns : 0))
		return "same";
	if (d > noise)
		return "worse";
	if (-d > noise)
		return "better";
	return "same";
}

void db_sum_done(struct rdb_summary *s)
{
	size_t i;

	qsort(s->v, s->n, sizeof(*s->v), cmp_row);
	s->runs = 0;
	for (i = 0; i < s->n; i++) {
		s->v[i].trend = sum_trend(&s->v[i]);
		s->runs += s->v[i].runs;
	}
}

/*
 * Per board, kernel, test, series, load and day (the first 10 bytes of the
 * start time, else the time added): the runs with a max, the least
 * interval max (a correlated look-up by the intervals' primary key; a run
 * without intervals gives its max), the highest max and p99.9.
 */
char *db_env_query(const char *where)
{
	return xasprintf(
	"SELECT runs.board, runs.kernel, runs.test, runs.series,"
	" COALESCE(runs.load, 'unknown'),"
	" substr(COALESCE(runs.start_time, runs.added_at), 1, 10) AS day,"
	" COUNT(*), MIN(COALESCE((SELECT MIN(i.max_ns) FROM intervals i"
	" WHERE i.run_id = runs.id AND i.thread = -1), s.max_ns)),"
	" MAX(s.max_ns), MAX(s.p99_9_ns)"
	" FROM runs JOIN series s ON s.run_id = runs.id AND s.thread = -1"
	" WHERE %s AND s.max_ns IS NOT NULL"
	" GROUP BY runs.board, runs.kernel, runs.test, runs.series,"
	" COALESCE(runs.load, 'unknown'),"
	" substr(COALESCE(runs.start_time, runs.added_at), 1, 10)", where);
}

void db_env_col(struct rdb_env_row *r, int col, const char *t)
{
	char **str[] = { &r->board, &r->kernel, &r->test, &r->series,
			 &r->load };
	int64_t *num[] = { &r->runs, &r->lo_ns, &r->hi_ns, &r->p99_9_ns };

	if (col < 5)
		*str[col] = t ? xstrdup(t) : NULL;
	else if (col == 5)
		snprintf(r->day, sizeof(r->day), "%s", t ? t : "");
	else if (col < DB_ENV_NCOLS)
		*num[col - 6] = t ? strtoll(t, NULL, 10) : -1;
}
