// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the history's two stores (SQLite: db.c, PostgreSQL: db_pg.c) share:
 * a stored run's identity, the percentile bounds and histogram buckets as
 * stored, the defaults of a run read back. See db_impl.h.
 */
#include <limits.h>
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
