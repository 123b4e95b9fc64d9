// SPDX-License-Identifier: GPL-2.0-or-later
/* Range-checked reading of foreign JSON with cJSON; see import.h. */
#ifdef HAVE_CJSON
#include <ctype.h>
#include <stddef.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/import/import.h"

static const char *type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	if (cJSON_IsNull(v))
		return "null";
	return "invalid";
}

/* "where.key" or "key" */
static void path_of(char *buf, size_t len, const char *where, const char *key)
{
	if (where && *where)
		snprintf(buf, len, "%s.%s", where, key);
	else
		snprintf(buf, len, "%s", key);
}

/* Check that @v (named @p) is an integral number, scaled within bounds. */
static int value_int(struct imp_ctx *c, const cJSON *v, const char *p,
		     int64_t scale, int64_t min, int64_t max, int64_t *out)
{
	double d;

	if (!cJSON_IsNumber(v)) {
		imp_error(c, 0, "'%s' must be a number, not %s", p, type_name(v));
		return -1;
	}
	d = v->valuedouble;
	if (!isfinite(d) || d != floor(d)) {
		imp_error(c, 0, "'%s' must be an integer (is %g)", p, d);
		return -1;
	}
	if (scale < 1 || fabs(d) > (double)REP_MAX_VALUE / (double)scale) {
		imp_error(c, 0, "'%s' out of range (%g)", p, d);
		return -1;
	}
	d *= (double)scale;
	if (d < (double)min || d > (double)max) {
		imp_error(c, 0, "'%s' out of range (%.0f; allowed %lld to %lld)",
			  p, d, (long long)min, (long long)max);
		return -1;
	}
	*out = (int64_t)d;
	return 0;
}

int jr_int(struct imp_ctx *c, const cJSON *obj, const char *where,
	   const char *key, int64_t scale, int64_t min, int64_t max,
	   int64_t *out, bool *present)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[256];

	*present = false;
	if (!v || cJSON_IsNull(v))
		return 0;
	path_of(p, sizeof(p), where, key);
	if (value_int(c, v, p, scale, min, max, out))
		return -1;
	*present = true;
	return 0;
}

int jr_elem_int(struct imp_ctx *c, const cJSON *v, const char *where,
		int64_t min, int64_t max, int64_t *out)
{
	return value_int(c, v, where, 1, min, max, out);
}

int jr_double(struct imp_ctx *c, const cJSON *obj, const char *where,
	      const char *key, double scale, double *out, bool *present)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[256];
	double d;

	*present = false;
	if (!v || cJSON_IsNull(v))
		return 0;
	path_of(p, sizeof(p), where, key);
	if (!cJSON_IsNumber(v)) {
		imp_error(c, 0, "'%s' must be a number, not %s", p, type_name(v));
		return -1;
	}
	d = v->valuedouble * scale;
	if (!isfinite(d) || fabs(d) > (double)REP_MAX_VALUE) {
		imp_error(c, 0, "'%s' out of range (%g)", p, v->valuedouble);
		return -1;
	}
	*out = d;
	*present = true;
	return 0;
}

const char *jr_str(struct imp_ctx *c, const cJSON *obj, const char *where,
		   const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[256];

	if (!v || cJSON_IsNull(v))
		return NULL;
	if (!cJSON_IsString(v)) {
		path_of(p, sizeof(p), where, key);
		imp_warn(c, 0, "'%s' should be a string, not %s: ignored", p,
			 type_name(v));
		return NULL;
	}
	return v->valuestring;
}

static const cJSON *jr_kind(struct imp_ctx *c, const cJSON *obj,
			    const char *where, const char *key, bool *bad,
			    bool want_array)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char p[256];

	if (!v || cJSON_IsNull(v))
		return NULL;
	if (want_array ? cJSON_IsArray(v) : cJSON_IsObject(v))
		return v;
	path_of(p, sizeof(p), where, key);
	imp_error(c, 0, "'%s' must be %s, not %s", p,
		  want_array ? "an array" : "an object", type_name(v));
	*bad = true;
	return NULL;
}

const cJSON *jr_obj(struct imp_ctx *c, const cJSON *obj, const char *where,
		    const char *key, bool *bad)
{
	return jr_kind(c, obj, where, key, bad, false);
}

const cJSON *jr_arr(struct imp_ctx *c, const cJSON *obj, const char *where,
		    const char *key, bool *bad)
{
	return jr_kind(c, obj, where, key, bad, true);
}

/* Length of a bare NaN/Infinity token at @s (@rem bytes left), or 0. */
static size_t nonfinite_len(const char *s, size_t rem)
{
	static const char *const tok[] = {
		"-infinity", "+infinity", "infinity", "-nan", "+nan", "nan",
		"-inf", "+inf", "inf",
	};
	size_t i, n;
	char c = s[0] == '-' || s[0] == '+' ? (rem > 1 ? s[1] : '\0') : s[0];

	/* most bytes of a document start no such token: decide on one */
	if (c != 'n' && c != 'N' && c != 'i' && c != 'I')
		return 0;
	for (i = 0; i < sizeof(tok) / sizeof(tok[0]); i++) {
		n = strlen(tok[i]);
		if (n <= rem && !strncasecmp(s, tok[i], n) &&
		    (n == rem || (!isalnum((unsigned char)s[n]) && s[n] != '_')))
			return n;
	}
	return 0;
}

char *json_sanitize(const char *buf, size_t len, int *count)
{
	char *out = xmalloc(2 * len + 1), *w = out;
	bool in_str = false;
	size_t i = 0, n;

	*count = 0;
	while (i < len) {
		char ch = buf[i];

		if (in_str) {
			/* the string's plain bytes at once */
			size_t j = i;

			while (j < len && buf[j] != '"' && buf[j] != '\\')
				j++;
			memcpy(w, buf + i, j - i);
			w += j - i;
			i = j;
			if (i >= len)
				break;
			ch = buf[i];
			*w++ = ch;
			if (ch == '\\' && i + 1 < len)
				*w++ = buf[++i];
			else if (ch == '"')
				in_str = false;
			i++;
			continue;
		}
		if (ch == '"') {
			in_str = true;
		} else if ((ch == 'n' || ch == 'N' || ch == 'i' || ch == 'I' ||
			    ch == '-' || ch == '+') &&
			   (i == 0 || !isalnum((unsigned char)buf[i - 1])) &&
			   (n = nonfinite_len(buf + i, len - i)) != 0) {
			memcpy(w, "null", 4);
			w += 4;
			i += n;
			(*count)++;
			continue;
		}
		*w++ = ch;
		i++;
	}
	*w = '\0';
	return out;
}

struct us_bucket {
	uint64_t k;
	uint64_t count;
};

static int us_bucket_cmp(const void *a, const void *b)
{
	const struct us_bucket *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

int jr_us_histogram(struct imp_ctx *c, const cJSON *obj, const char *where,
		    struct rep_hist *h)
{
	struct us_bucket *v;
	const cJSON *e;
	size_t n = 0, i;
	int ret = 0;

	memset(h, 0, sizeof(*h));
	if (!cJSON_IsObject(obj)) {
		imp_error(c, 0, "'%s' must be an object of bucket: count", where);
		return -1;
	}
	v = xcalloc((size_t)cJSON_GetArraySize(obj) + 1, sizeof(*v));
	cJSON_ArrayForEach(e, obj) {
		const char *k = e->string, *p = k;
		uint64_t key;
		int64_t cnt;
		char w[256];

		if (!k || imp_count(&p, &key) || *p ||
		    key >= REP_MAX_LINEAR_BUCKETS) {
			imp_error(c, 0, "'%s': bucket '%s' is not a bucket number (0 to %u us)",
				  where, k ? k : "", REP_MAX_LINEAR_BUCKETS - 1);
			ret = -1;
			break;
		}
		snprintf(w, sizeof(w), "%s.%s", where, k);
		if (value_int(c, e, w, 1, 0, REP_MAX_VALUE, &cnt)) {
			ret = -1;
			break;
		}
		v[n].k = key;
		v[n].count = (uint64_t)cnt;
		n++;
	}
	if (!ret) {
		qsort(v, n, sizeof(*v), us_bucket_cmp);
		h->layout = REP_HIST_LINEAR;
		h->lo = 0;
		h->width = 1000;
		h->quantized = true;
		h->nbuckets = n ? v[n - 1].k + 1 : 1;
		for (i = 0; i < n && !ret; i++) {
			int64_t lo = (int64_t)v[i].k * 1000;
			int r = hist_push(h, lo, lo + 999, v[i].count);

			if (r) {
				imp_error(c, 0, "'%s': %s at bucket %llu", where,
					  r == -ERANGE ? "counts too large" :
					  "bucket given twice",
					  (unsigned long long)v[i].k);
				ret = -1;
			}
		}
	}
	free(v);
	return ret;
}

const cJSON *rt_member(const cJSON *root, const char *key)
{
	char k[64];
	const cJSON *v;

	snprintf(k, sizeof(k), "%s:", key);
	v = cJSON_GetObjectItemCaseSensitive(root, k);
	return v ? v : cJSON_GetObjectItemCaseSensitive(root, key);
}

int jr_us_thread(struct imp_ctx *c, const cJSON *e, const char *where,
		 const char *count_key, int64_t unit_ns, struct rep_series *s)
{
	int64_t cnt = 0, mn, mx, cpu;
	bool pc = false, p1, p2, p3, p4;
	const cJSON *h;
	double avg;

	if (!cJSON_IsObject(e)) {
		imp_error(c, 0, "'%s' must be an object", where);
		return -1;
	}
	if ((count_key && jr_int(c, e, where, count_key, 1, 0, REP_MAX_VALUE,
				 &cnt, &pc)) ||
	    jr_int(c, e, where, "min", unit_ns, -REP_MAX_VALUE, REP_MAX_VALUE,
		   &mn, &p1) ||
	    jr_int(c, e, where, "max", unit_ns, -REP_MAX_VALUE, REP_MAX_VALUE,
		   &mx, &p2) ||
	    jr_double(c, e, where, "avg", (double)unit_ns, &avg, &p3) ||
	    jr_int(c, e, where, "cpu", 1, 0, 1000000, &cpu, &p4))
		return -1;
	if (p4)
		s->cpu = (int)cpu;
	s->has_samples = pc;
	s->samples = pc ? (uint64_t)cnt : 0;
	if (p1 && p2 && p3 && (!pc || cnt > 0)) {
		if (mn > mx || avg < (double)(mn - unit_ns) ||
		    avg > (double)(mx + unit_ns)) {
			imp_error(c, 0, "'%s': min <= avg <= max does not hold", where);
			return -1;
		}
		s->min = mn;
		s->max = mx;
		s->avg = avg;
		s->has_stats = true;
	}
	h = cJSON_GetObjectItemCaseSensitive(e, "histogram");
	if (h && cJSON_GetArraySize(h) > 0) {
		char hw[96];

		snprintf(hw, sizeof(hw), "%s.histogram", where);
		if (jr_us_histogram(c, h, hw, &s->hist))
			return -1;
	}
	return 0;
}

void jr_sysinfo(struct imp_ctx *c, const cJSON *sys, struct rep_run *r)
{
	const char *sysname, *node, *rel, *ver, *mach;
	const cJSON *rt;

	if (!cJSON_IsObject(sys))
		return;
	sysname = jr_str(c, sys, "sysinfo", "sysname");
	node = jr_str(c, sys, "sysinfo", "nodename");
	rel = jr_str(c, sys, "sysinfo", "release");
	ver = jr_str(c, sys, "sysinfo", "version");
	mach = jr_str(c, sys, "sysinfo", "machine");
	rt = cJSON_GetObjectItemCaseSensitive(sys, "realtime");
	if (node)
		str_set(&r->board, node);
	if (rel)
		str_set(&r->kernel, rel);
	if (mach)
		str_set(&r->arch, mach);
	free(r->system);
	r->system = xasprintf("%s %s %s %s%s", sysname ? sysname : "",
			      rel ? rel : "", ver ? ver : "", mach ? mach : "",
			      cJSON_IsNumber(rt) && rt->valuedouble == 1 ?
			      " (PREEMPT_RT)" : "");
}
/* ---- parsing into an arena ---- */

/*
 * cJSON allocates every node with malloc() and frees them one by one: for
 * a 40 KB result file that is most of the time a report spends. The
 * trees of jr_parse() live in an arena freed at once by jr_delete().
 */
#define JR_ARENA_BLOCK (256u << 10)

struct jr_block {
	struct jr_block *next;
	size_t used, cap;
	max_align_t data[];
};

struct jr_arena {
	struct jr_arena *next;
	const cJSON *root;
	struct jr_block *blocks;
};

static struct jr_arena *jr_live;	/* arenas of trees not yet deleted */
static struct jr_arena *jr_cur;	/* the arena of the parse under way */

static void *jr_alloc(size_t n)
{
	struct jr_block *b = jr_cur->blocks;

	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) *
	    sizeof(max_align_t);
	if (!b || b->cap - b->used < n) {
		size_t cap = n > JR_ARENA_BLOCK ? n : JR_ARENA_BLOCK;

		b = xmalloc(sizeof(*b) + cap);
		b->cap = cap;
		b->used = 0;
		b->next = jr_cur->blocks;
		jr_cur->blocks = b;
	}
	b->used += n;
	return (char *)b->data + b->used - n;
}

static void jr_nofree(void *p)
{
	(void)p;
}

static void jr_arena_free(struct jr_arena *a)
{
	while (a->blocks) {
		struct jr_block *b = a->blocks;

		a->blocks = b->next;
		free(b);
	}
	free(a);
}

cJSON *jr_parse(const char *s, const char **end, bool require_end)
{
	cJSON_Hooks hooks = { .malloc_fn = jr_alloc, .free_fn = jr_nofree };
	struct jr_arena *a = xcalloc(1, sizeof(*a));
	cJSON *root;

	jr_cur = a;
	cJSON_InitHooks(&hooks);
	root = cJSON_ParseWithOpts(s, end, require_end);
	cJSON_InitHooks(NULL);
	jr_cur = NULL;
	if (!root) {
		jr_arena_free(a);
		return NULL;
	}
	a->root = root;
	a->next = jr_live;
	jr_live = a;
	return root;
}

void jr_delete(cJSON *root)
{
	struct jr_arena **pp;

	for (pp = &jr_live; root && *pp; pp = &(*pp)->next) {
		if ((*pp)->root == root) {
			struct jr_arena *a = *pp;

			*pp = a->next;
			jr_arena_free(a);
			return;
		}
	}
}

#endif
