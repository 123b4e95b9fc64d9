// SPDX-License-Identifier: GPL-2.0-or-later
/* The normalized run; see model.h. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/jsonw.h"
#include "report/model/model.h"

static void oom(void)
{
	fputs("rtlat: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom();
	return d;
}

char *utf8_cleaned(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i, n, o = 0;
	char *c;

	for (i = 0; u && u[i]; i += n ? n : 1) {
		n = utf8_seq_len(u + i);
		if (!n && u[i] >= 0x80)
			break;
	}
	if (!u || !u[i])
		return NULL;
	c = xmalloc(strlen(s) * 3 + 1);
	for (i = 0; u[i]; i += n ? n : 1) {
		n = utf8_seq_len(u + i);
		if (n) {
			memcpy(c + o, u + i, n);
			o += n;
		} else if (u[i] < 0x80) {
			c[o++] = (char)u[i];
		} else {
			memcpy(c + o, "\xef\xbf\xbd", 3);
			o += 3;
		}
	}
	c[o] = '\0';
	return c;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return s;
}

void str_set(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? xstrdup(s) : NULL;
}

void series_init(struct rep_series *s, int id)
{
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->cpu = -1;
}

void series_free(struct rep_series *s)
{
	free(s->hist.b);
	free(s->iv);
	s->hist.b = NULL;
	s->iv = NULL;
	s->hist.n = s->hist.cap = 0;
	s->nint = 0;
}

void series_copy(struct rep_series *dst, const struct rep_series *src)
{
	*dst = *src;
	dst->hist.cap = src->hist.n;
	dst->hist.b = NULL;
	dst->iv = NULL;
	if (src->hist.n) {
		dst->hist.b = xcalloc(src->hist.n, sizeof(*src->hist.b));
		memcpy(dst->hist.b, src->hist.b, src->hist.n * sizeof(*src->hist.b));
	}
	if (src->nint) {
		dst->iv = xcalloc(src->nint, sizeof(*src->iv));
		memcpy(dst->iv, src->iv, src->nint * sizeof(*src->iv));
	}
}

struct rep_run *run_new(void)
{
	struct rep_run *r = xcalloc(1, sizeof(*r));

	r->duration_ns = -1;
	r->period_ns = -1;
	r->resolution_ns = 1;
	series_init(&r->sum, -1);
	return r;
}

void run_free(struct rep_run *r)
{
	size_t i;

	if (!r)
		return;
	free(r->file);
	free(r->tool);
	free(r->label);
	free(r->board);
	free(r->system);
	free(r->check);
	free(r->kernel);
	free(r->arch);
	free(r->test);
	free(r->series);
	free(r->section);
	free(r->load);
	free(r->start_time);
	free(r->status);
	free(r->added_at);
	series_free(&r->sum);
	for (i = 0; i < r->nthr; i++)
		series_free(&r->thr[i]);
	free(r->thr);
	free(r->fig);
	free(r);
}

const char *run_figure(const struct rep_run *r, const char *name, int cpu)
{
	size_t i;

	for (i = 0; i < r->nfig; i++)
		if (r->fig[i].cpu == cpu && !strcmp(r->fig[i].name, name))
			return r->fig[i].value;
	return NULL;
}

void run_add_figure(struct rep_run *r, const char *name, int cpu,
		    const char *value)
{
	struct rep_fig *f;

	if (strlen(name) >= sizeof(f->name) || strlen(value) >= sizeof(f->value))
		return;
	r->fig = xrealloc(r->fig, (r->nfig + 1) * sizeof(*r->fig));
	f = &r->fig[r->nfig++];
	f->cpu = cpu;
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->value, sizeof(f->value), "%s", value);
}

size_t runs_checks(const struct rep_runs *rs, const char **chk, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < rs->n; i++) {
		const char *s = rs->v[i]->check;

		if (!s)
			continue;
		for (k = 0; k < n && strcmp(chk[k], s) != 0; k++)
			;
		if (k == n && n < max)
			chk[n++] = s;
	}
	return n;
}

bool check_next(const char *chk, const char **pos, struct check_line *l)
{
	const char *a = *pos, *nl, *b, *c;

	while (a && *a) {
		nl = strchr(a, '\n');
		*pos = nl ? nl + 1 : NULL;
		memset(l, 0, sizeof(*l));
		l->text = a;
		l->text_len = (int)(nl ? nl - a : (ptrdiff_t)strlen(a));
		if (a == chk)
			return true;	/* the counts */
		b = memchr(a, '\t', (size_t)l->text_len);
		c = b ? memchr(b + 1, '\t', (size_t)(a + l->text_len - b - 1)) : NULL;
		if (c) {
			l->id = a;
			l->id_len = (int)(b - a);
			l->verdict = b + 1;
			l->verdict_len = (int)(c - b - 1);
			l->text = c + 1;
			l->text_len = (int)(a + l->text_len - c - 1);
			return true;
		}
		a = *pos;
	}
	return false;
}

char *runs_with_check(const struct rep_runs *rs, const char *chk)
{
	char *out = xstrdup(""), *t;
	size_t i, k;

	for (i = 0; i < rs->n; i++) {
		const char *l = rs->v[i]->label ? rs->v[i]->label : "?";

		if (!rs->v[i]->check || strcmp(rs->v[i]->check, chk) != 0)
			continue;
		for (k = 0; k < i; k++)
			if (rs->v[k]->check && !strcmp(rs->v[k]->check, chk) &&
			    str_same(rs->v[k]->label, rs->v[i]->label))
				break;
		if (k < i)
			continue;
		t = xasprintf("%s%s%s", out, *out ? ", " : "", l);
		free(out);
		out = t;
	}
	return out;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

struct rep_run *run_dup(const struct rep_run *r)
{
	struct rep_run *d = xmalloc(sizeof(*d));
	size_t i;

	*d = *r;
	d->file = dup_or_null(r->file);
	d->tool = dup_or_null(r->tool);
	d->label = dup_or_null(r->label);
	d->board = dup_or_null(r->board);
	d->system = dup_or_null(r->system);
	d->check = dup_or_null(r->check);
	d->kernel = dup_or_null(r->kernel);
	d->arch = dup_or_null(r->arch);
	d->test = dup_or_null(r->test);
	d->series = dup_or_null(r->series);
	d->section = dup_or_null(r->section);
	d->load = dup_or_null(r->load);
	d->start_time = dup_or_null(r->start_time);
	d->status = dup_or_null(r->status);
	d->added_at = dup_or_null(r->added_at);
	series_copy(&d->sum, &r->sum);
	d->thr = r->nthr ? xmalloc(r->nthr * sizeof(*d->thr)) : NULL;
	for (i = 0; i < r->nthr; i++)
		series_copy(&d->thr[i], &r->thr[i]);
	d->fig = r->nfig ? xmalloc(r->nfig * sizeof(*d->fig)) : NULL;
	if (r->nfig)
		memcpy(d->fig, r->fig, r->nfig * sizeof(*d->fig));
	return d;
}

struct rep_series *run_add_thread(struct rep_run *r, int id)
{
	r->thr = xrealloc(r->thr, (r->nthr + 1) * sizeof(*r->thr));
	series_init(&r->thr[r->nthr], id);
	return &r->thr[r->nthr++];
}

struct rep_series *run_thread(struct rep_run *r, int id)
{
	size_t i;

	for (i = 0; i < r->nthr; i++)
		if (r->thr[i].id == id)
			return &r->thr[i];
	return run_add_thread(r, id);
}

int hist_push(struct rep_hist *h, int64_t lo, int64_t hi, uint64_t count)
{
	if (lo > hi || lo < -REP_MAX_VALUE || hi > REP_MAX_VALUE)
		return -EINVAL;
	if (h->n && lo <= h->b[h->n - 1].hi)
		return -EINVAL;
	if (count > REP_MAX_VALUE ||
	    h->bucket_total > (uint64_t)REP_MAX_VALUE - count)
		return -ERANGE;
	if (!count)
		return 0;
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 64;
		h->b = xrealloc(h->b, h->cap * sizeof(*h->b));
	}
	h->b[h->n].lo = lo;
	h->b[h->n].hi = hi;
	h->b[h->n].count = count;
	h->n++;
	h->bucket_total += count;
	return 0;
}

uint64_t rep_hist_total(const struct rep_hist *h)
{
	uint64_t t = h->bucket_total;

	/* each term is <= 2^53: no wrap */
	t += h->underflow > REP_MAX_VALUE ? REP_MAX_VALUE : h->underflow;
	t += h->overflow > REP_MAX_VALUE ? REP_MAX_VALUE : h->overflow;
	return t;
}

struct rep_interval *series_add_interval(struct rep_series *s)
{
	struct rep_interval *iv;

	/* grow in powers of two */
	if ((s->nint & (s->nint - 1)) == 0)
		s->iv = xrealloc(s->iv, (s->nint ? 2 * s->nint : 16) * sizeof(*s->iv));
	iv = &s->iv[s->nint++];
	memset(iv, 0, sizeof(*iv));
	return iv;
}

/* Build a core histogram with the counts of @h. False when @h does not fit
 * its declared layout. */
static bool core_hist(const struct rep_hist *h, struct histogram *ch)
{
	size_t i;

	if (h->layout == REP_HIST_LOGLIN) {
		if (hist_init_loglin(ch))
			return false;
	} else if (h->layout == REP_HIST_LINEAR) {
		if (h->nbuckets < 1 || h->nbuckets > REP_MAX_LINEAR_BUCKETS ||
		    h->width < 1 || h->width > REP_MAX_VALUE ||
		    h->lo < -REP_MAX_VALUE || h->lo > REP_MAX_VALUE)
			return false;
		if (hist_init_linear(ch, h->lo, h->width, (size_t)h->nbuckets))
			return false;
	} else {
		return false;
	}
	for (i = 0; i < h->n; i++) {
		long idx = hist_index(ch, h->b[i].lo);
		int64_t lo, hi;

		if (idx < 0)
			goto mismatch;
		hist_bucket_range(ch, (size_t)idx, &lo, &hi);
		if (lo != h->b[i].lo || hi != h->b[i].hi)
			goto mismatch;
		ch->count[idx] += h->b[i].count;
	}
	ch->underflow = h->underflow;
	ch->overflow = h->overflow;
	return true;
mismatch:
	hist_free(ch);
	return false;
}

/* Percentile 1 - 1/@den of @s from its core histogram @ch: the bucket's
 * upper edge (a quantized one's value), within [min, max]. */
static bool pct_from(const struct rep_series *s, const struct histogram *ch,
		     uint64_t den, int64_t *v)
{
	/* quantized: bucket [k*w, k*w + w - 1] holds samples of value k*w */
	int64_t adj = s->hist.quantized && s->hist.layout == REP_HIST_LINEAR ?
		      s->hist.width - 1 : 0;

	if (!hist_percentile(ch, den, s->min, s->max + adj, v))
		return false;
	*v -= adj;
	if (*v < s->min)
		*v = s->min;
	if (*v > s->max)
		*v = s->max;
	return true;
}

int series_fill_percentiles(struct rep_series *s)
{
	bool known[RTLAT_NPCT];
	struct histogram ch;
	int64_t v;
	int i, filled = 0;

	memcpy(known, s->has_pct, sizeof(known));
	if (!s->has_stats || !s->hist.n)
		goto out;
	for (i = 0; i < RTLAT_NPCT; i++)
		if (!s->has_pct[i])
			break;
	if (i == RTLAT_NPCT)
		goto out;
	if (s->hist.abs_folded && s->min < 0)
		goto out;
	if (!core_hist(&s->hist, &ch))
		goto out;
	for (i = 0; i < RTLAT_NPCT; i++) {
		if (s->has_pct[i] ||
		    !pct_from(s, &ch, rtlat_percentiles[i].den_inv, &v))
			continue;
		s->pct[i] = v;
		s->has_pct[i] = true;
		s->pct_bound[i] = false;
	}
	hist_free(&ch);
out:
	series_check_percentiles(s);
	for (i = 0; i < RTLAT_NPCT; i++)
		filled += s->has_pct[i] && !known[i];
	return filled;
}

bool series_quantile(const struct rep_series *s, uint64_t den, int64_t *v,
		     bool *bound)
{
	const struct rep_hist *h = &s->hist;
	struct histogram ch;
	uint64_t n = rep_hist_total(h);
	int64_t edge;
	bool ok;

	*bound = false;
	if (!s->has_stats || !h->n || den < 2 || (h->abs_folded && s->min < 0) ||
	    !core_hist(h, &ch))
		return false;
	ok = pct_from(s, &ch, den, v);
	hist_free(&ch);
	if (ok && h->overflow && rep_hist_limit(h, &edge) &&
	    n - n / den > n - h->overflow && s->max > edge) {
		*v = edge;
		*bound = true;
	}
	return ok;
}

bool rep_hist_limit(const struct rep_hist *h, int64_t *edge)
{
	if (h->layout == REP_HIST_LOGLIN) {
		*edge = HIST_LL_LIMIT;
		return true;
	}
	if (h->layout != REP_HIST_LINEAR || h->width < 1 ||
	    h->width > REP_MAX_VALUE || h->nbuckets > REP_MAX_LINEAR_BUCKETS ||
	    h->lo < -REP_MAX_VALUE || h->lo > REP_MAX_VALUE)
		return false;
	/* |lo| <= 2^53 and nbuckets * width <= 2^20 * 2^53: no overflow */
	*edge = h->lo + (int64_t)h->nbuckets * h->width;
	if (*edge > REP_MAX_VALUE)
		*edge = REP_MAX_VALUE;
	return true;
}

void series_check_percentiles(struct rep_series *s)
{
	const struct rep_hist *h = &s->hist;
	uint64_t n = rep_hist_total(h);
	int64_t edge = 0;
	bool limit = h->overflow && n && rep_hist_limit(h, &edge);
	int i;

	for (i = 0; i < RTLAT_NPCT; i++) {
		uint64_t den = rtlat_percentiles[i].den_inv;

		if (!s->has_pct[i]) {
			s->pct_bound[i] = false;
			continue;
		}
		/* rank ceil(q * n) == n: the percentile is the maximum */
		if (s->has_samples && s->samples < den) {
			s->has_pct[i] = false;
			s->pct_bound[i] = false;
			continue;
		}
		/* rank beyond underflow + buckets: in the overflow, at or
		 * above its edge (exactly the max when that is the edge) */
		if (limit && n - n / den > n - h->overflow &&
		    (!s->has_stats || s->max > edge)) {
			s->pct[i] = edge;
			s->pct_bound[i] = true;
		}
	}
}

/* Same layout: the bucket lists can be merged bucket by bucket. */
static bool hist_same_layout(const struct rep_hist *a, const struct rep_hist *b)
{
	if (a->layout != b->layout || a->layout == REP_HIST_NONE)
		return false;
	if (a->quantized != b->quantized || a->abs_folded != b->abs_folded)
		return false;
	if (a->layout == REP_HIST_LINEAR)
		return a->lo == b->lo && a->width == b->width;
	return true;
}

/* @dst += @src, same layout. */
static void hist_merge_into(struct rep_hist *dst, const struct rep_hist *src)
{
	struct rep_hist m;
	size_t i = 0, j = 0;

	memset(&m, 0, sizeof(m));
	m.layout = dst->layout;
	m.lo = dst->lo;
	m.width = dst->width;
	m.nbuckets = dst->nbuckets > src->nbuckets ? dst->nbuckets : src->nbuckets;
	m.quantized = dst->quantized;
	m.abs_folded = dst->abs_folded;
	while (i < dst->n || j < src->n) {
		const struct rep_bucket *a = i < dst->n ? &dst->b[i] : NULL;
		const struct rep_bucket *b = j < src->n ? &src->b[j] : NULL;
		uint64_t c;

		if (a && b && a->lo == b->lo) {
			c = a->count + b->count;
			if (c > REP_MAX_VALUE)
				c = REP_MAX_VALUE;
			hist_push(&m, a->lo, a->hi, c);
			i++;
			j++;
		} else if (a && (!b || a->lo < b->lo)) {
			hist_push(&m, a->lo, a->hi, a->count);
			i++;
		} else if (b) {
			hist_push(&m, b->lo, b->hi, b->count);
			j++;
		} else {
			break;	/* not reached: the loop runs while one is left */
		}
	}
	m.underflow = dst->underflow + src->underflow;
	m.overflow = dst->overflow + src->overflow;
	free(dst->b);
	*dst = m;
}

/* min/max/avg/samples/misses of @s from its interval series, where unknown. */
static void series_from_intervals(struct rep_series *s)
{
	bool all_n = true, all_miss = true, any = false;
	uint64_t n = 0, miss = 0;
	double wsum = 0, usum = 0;
	size_t i, nstat = 0;
	int64_t mn = 0, mx = 0;

	if (!s->nint || !s->iv)
		return;
	for (i = 0; i < s->nint; i++) {
		const struct rep_interval *iv = &s->iv[i];

		if (iv->has_samples)
			n += iv->samples;
		else
			all_n = false;
		if (iv->has_misses)
			miss += iv->misses;
		else
			all_miss = false;
		if (!iv->has_stats)
			continue;
		if (!any || iv->min < mn)
			mn = iv->min;
		if (!any || iv->max > mx)
			mx = iv->max;
		any = true;
		nstat++;
		usum += iv->avg;
		if (iv->has_samples)
			wsum += iv->avg * (double)iv->samples;
	}
	if (!s->has_stats && any) {
		s->min = mn;
		s->max = mx;
		/* weighted by samples when every interval has its count */
		s->avg = all_n && n ? wsum / (double)n : usum / (double)nstat;
		s->has_stats = true;
	}
	if (!s->has_samples && all_n && n <= REP_MAX_VALUE) {
		s->samples = n;
		s->has_samples = true;
	}
	if (!s->has_misses && all_miss && miss <= REP_MAX_VALUE) {
		s->misses = miss;
		s->has_misses = true;
	}
}

void run_summarize(struct rep_run *r)
{
	struct rep_series *s = &r->sum;
	bool stats = true, samples = true, misses = true, hist = true;
	double wsum = 0;
	uint64_t n = 0, miss = 0;
	size_t i;

	if (!r->nthr)
		return;
	if (r->nthr == 1) {
		series_free(s);
		series_copy(s, &r->thr[0]);
		s->id = -1;
		return;
	}
	series_free(s);
	series_init(s, -1);
	for (i = 0; i < r->nthr; i++) {
		const struct rep_series *t = &r->thr[i];

		stats = stats && t->has_stats;
		samples = samples && t->has_samples;
		misses = misses && t->has_misses;
		if (t->has_samples) {
			n += t->samples;
			if (t->has_stats)
				wsum += t->avg * (double)t->samples;
		}
		if (t->has_misses)
			miss += t->misses;
		hist = hist && hist_same_layout(&t->hist, &r->thr[0].hist);
	}
	if (samples && n <= REP_MAX_VALUE) {
		s->samples = n;
		s->has_samples = true;
	}
	if (misses && miss <= REP_MAX_VALUE) {
		s->misses = miss;
		s->has_misses = true;
	}
	/* a thread without samples has no stats but does not hide the others */
	if (samples && n) {
		stats = true;
		for (i = 0; i < r->nthr; i++)
			if (r->thr[i].samples && !r->thr[i].has_stats)
				stats = false;
	}
	if (stats && samples && n) {
		bool first = true;

		for (i = 0; i < r->nthr; i++) {
			const struct rep_series *t = &r->thr[i];

			if (!t->samples)
				continue;
			if (first || t->min < s->min)
				s->min = t->min;
			if (first || t->max > s->max)
				s->max = t->max;
			first = false;
		}
		s->avg = wsum / (double)n;
		s->has_stats = true;
	}
	if (hist) {
		s->hist = r->thr[0].hist;
		s->hist.b = NULL;
		s->hist.n = s->hist.cap = 0;
		s->hist.bucket_total = 0;
		s->hist.underflow = s->hist.overflow = 0;
		for (i = 0; i < r->nthr; i++)
			hist_merge_into(&s->hist, &r->thr[i].hist);
	}
}

void run_finish(struct rep_run *r)
{
	size_t i;

	for (i = 0; i < r->nthr; i++) {
		series_from_intervals(&r->thr[i]);
		series_fill_percentiles(&r->thr[i]);
	}
	if (!r->sum.has_stats && !r->sum.has_samples && r->nthr)
		run_summarize(r);
	series_from_intervals(&r->sum);
	series_fill_percentiles(&r->sum);
	if (r->duration_ns < 0 && r->interval_ns > 0 && r->sum.nint &&
	    r->sum.nint <= (size_t)(REP_MAX_VALUE / r->interval_ns))
		r->duration_ns = (int64_t)r->sum.nint * r->interval_ns;
}

/* ---- run identity: FNV-1a over what the run is, not where it was read ---- */

struct hash {
	uint64_t a, b;
};

static void h_bytes(struct hash *h, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t i;

	for (i = 0; i < n; i++) {
		h->a = (h->a ^ s[i]) * 0x100000001b3ull;
		h->b = (h->b ^ s[i]) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
	}
}

static void h_str(struct hash *h, const char *s)
{
	h_bytes(h, s ? s : "\x01", s ? strlen(s) + 1 : 1);
}

static void h_i64(struct hash *h, int64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)((uint64_t)v >> (8 * i));
	h_bytes(h, b, 8);
}

static void h_series(struct hash *h, const struct rep_series *s)
{
	size_t i;
	int k;

	h_i64(h, s->id);
	h_i64(h, s->cpu);
	h_i64(h, s->has_samples ? (int64_t)s->samples : -1);
	h_i64(h, s->has_stats ? s->min : INT64_MIN);
	h_i64(h, s->has_stats ? llround(s->avg * 10) : INT64_MIN);
	h_i64(h, s->has_stats ? s->max : INT64_MIN);
	h_i64(h, s->has_misses ? (int64_t)s->misses : -1);
	for (k = 0; k < RTLAT_NPCT; k++) {
		h_i64(h, s->has_pct[k] ? s->pct[k] : INT64_MIN);
		h_i64(h, s->has_pct[k] && s->pct_bound[k]);
	}
	for (i = 0; i < s->hist.n; i++) {
		h_i64(h, s->hist.b[i].lo);
		h_i64(h, (int64_t)s->hist.b[i].count);
	}
	for (i = 0; i < s->nint; i++) {
		h_i64(h, s->iv[i].start_ns);
		h_i64(h, s->iv[i].has_stats ? s->iv[i].max : INT64_MIN);
	}
}

void run_identity(const struct rep_run *r, const char *label,
		  char out[REP_IDENT_LEN])
{
	struct hash h = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	size_t i;

	h_str(&h, "rtlat run identity 4");
	h_str(&h, r->format);
	h_str(&h, r->tool);
	/* a start time (and host) identifies a run; else the label its
	 * source gives it (a row of a summary table, an RTS label) */
	h_str(&h, r->start_time ? NULL : label);
	h_str(&h, r->board);
	h_str(&h, r->kernel);
	h_str(&h, r->test);
	h_str(&h, r->series);
	h_str(&h, r->section);
	h_str(&h, r->load);
	h_str(&h, r->start_time);
	h_i64(&h, r->duration_ns);
	h_i64(&h, r->period_ns);
	h_i64(&h, r->has_ideal ? r->ideal_ns : INT64_MIN);
	h_series(&h, &r->sum);
	for (i = 0; i < r->nthr; i++)
		h_series(&h, &r->thr[i]);
	snprintf(out, REP_IDENT_LEN, "%016llx%016llx", (unsigned long long)h.a,
		 (unsigned long long)h.b);
}

void runs_init(struct rep_runs *rs)
{
	memset(rs, 0, sizeof(*rs));
}

void runs_push(struct rep_runs *rs, struct rep_run *r)
{
	if (rs->n == rs->cap) {
		rs->cap = rs->cap ? 2 * rs->cap : 16;
		rs->v = xrealloc(rs->v, rs->cap * sizeof(struct rep_run *));
	}
	rs->v[rs->n++] = r;
}

void runs_free(struct rep_runs *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		run_free(rs->v[i]);
	free(rs->v);
	runs_init(rs);
}

void runs_move(struct rep_runs *dst, struct rep_runs *src)
{
	size_t i;

	for (i = 0; i < src->n; i++)
		runs_push(dst, src->v[i]);
	free(src->v);
	runs_init(src);
}

const char *miss_name(enum rep_miss m)
{
	switch (m) {
	case MISS_OVERRUNS:
		return "overrun";
	case MISS_LOST:
		return "lost";
	default:
		return "overrun/lost";
	}
}

void test_title(char *buf, size_t len, const struct rep_run *r)
{
	size_t i;

	if (r->series && strcmp(r->series, "latency") != 0) {
		char st[64];

		series_title(st, sizeof(st), r->series);
		snprintf(buf, len, "%s %s", r->test ? r->test : "?", st);
	} else {
		snprintf(buf, len, "%s", r->test ? r->test : "?");
	}
	for (i = 0; buf[i]; i++)
		buf[i] = (char)toupper((unsigned char)buf[i]);
}

/* Series names for people and their column words. */
static const struct {
	const char *series, *title, *prefix;
} series_names[] = {
	{ "latency", "latency", "lat" },
	{ "a_to_b", "a->b", "a->b" },
	{ "b_to_a", "b->a", "b->a" },
	{ "round_trip", "round trip", "rtt" },
	{ "sleep", "sleep", "sleep" },
	{ "deviation", "deviation", "dev" },
};

void series_title(char *buf, size_t len, const char *series)
{
	size_t i;

	if (!series)
		series = "latency";
	for (i = 0; i < sizeof(series_names) / sizeof(series_names[0]); i++) {
		if (!strcmp(series, series_names[i].series)) {
			snprintf(buf, len, "%s", series_names[i].title);
			return;
		}
	}
	snprintf(buf, len, "%s", series);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '_')
			buf[i] = ' ';
}

const char *series_prefix(const char *series)
{
	size_t i;

	for (i = 0; series && i < sizeof(series_names) / sizeof(series_names[0]);
	     i++)
		if (!strcmp(series, series_names[i].series))
			return series_names[i].prefix;
	return "lat";
}

const char *series_of_prefix(const char *prefix)
{
	size_t i;

	for (i = 1; i < sizeof(series_names) / sizeof(series_names[0]); i++)
		if (!strcmp(prefix, series_names[i].prefix))
			return series_names[i].series;
	return NULL;
}

void load_title(char *buf, size_t len, const char *load)
{
	if (!load)
		snprintf(buf, len, "load not recorded");
	else if (!strcmp(load, "none"))
		snprintf(buf, len, "without load");
	else if (!strcmp(load, REP_LOAD_UNNAMED))
		snprintf(buf, len, "with load");
	else
		snprintf(buf, len, "with load %s", load);
}

bool str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}
