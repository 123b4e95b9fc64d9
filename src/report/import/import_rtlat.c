// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat's own result files (docs/result-schema.md, schema "rtlat-result").
 * One run per series of the summary ("latency", ...), with its threads.
 * The load is read from "loads" (the generators that ran; "none" when
 * empty). Optional keys a suite or a user may add: "label" (string),
 * "load" (string, array of strings or object with "name"; taken before
 * "loads"), "system" (string, or object with "board"/"model" and further
 * strings).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import/import.h"

#ifdef HAVE_CJSON

#define RTLAT_SCHEMA_KNOWN 1

static int probe(const cJSON *root)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "schema");

	return cJSON_IsString(s) && !strcmp(s->valuestring, "rtlat-result") ?
	       100 : 0;
}

static int read_hist(struct imp_ctx *c, const cJSON *h, const char *where,
		     struct rep_hist *out)
{
	const char *layout = jr_str(c, h, where, "layout");
	const cJSON *b, *e;
	bool bad = false, p1, p2;
	int64_t v[3], uf = 0, of = 0, x;
	char w[160];
	int i, k = 0;

	memset(out, 0, sizeof(*out));
	if (layout && !strcmp(layout, "log-linear")) {
		out->layout = REP_HIST_LOGLIN;
	} else if (layout && !strcmp(layout, "linear")) {
		bool p3;

		out->layout = REP_HIST_LINEAR;
		if (jr_int(c, h, where, "lo_ns", 1, -REP_MAX_VALUE, REP_MAX_VALUE,
			   &out->lo, &p1) ||
		    jr_int(c, h, where, "width_ns", 1, 1, REP_MAX_VALUE,
			   &out->width, &p2) ||
		    jr_int(c, h, where, "nbuckets", 1, 1, REP_MAX_LINEAR_BUCKETS,
			   &x, &p3))
			return -1;
		if (!p1 || !p2 || !p3) {
			imp_error(c, 0, "'%s': linear layout without lo_ns, width_ns and nbuckets",
				  where);
			return -1;
		}
		out->nbuckets = (uint64_t)x;
	} else {
		imp_warn(c, 0, "'%s': unknown histogram layout '%s': histogram ignored",
			 where, layout ? layout : "");
		return 0;
	}
	if (jr_int(c, h, where, "underflow", 1, 0, REP_MAX_VALUE, &uf, &p1) ||
	    jr_int(c, h, where, "overflow", 1, 0, REP_MAX_VALUE, &of, &p2))
		return -1;
	out->underflow = (uint64_t)uf;
	out->overflow = (uint64_t)of;
	b = jr_arr(c, h, where, "buckets", &bad);
	if (bad)
		return -1;
	cJSON_ArrayForEach(e, b) {
		snprintf(w, sizeof(w), "%s.buckets[%d]", where, k);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3) {
			imp_error(c, 0, "'%s' must be [lo_ns, hi_ns, count]", w);
			return -1;
		}
		for (i = 0; i < 3; i++)
			if (jr_elem_int(c, cJSON_GetArrayItem(e, i), w,
					i < 2 ? -REP_MAX_VALUE : 0, REP_MAX_VALUE,
					&v[i]))
				return -1;
		switch (hist_push(out, v[0], v[1], (uint64_t)v[2])) {
		case 0:
			break;
		case -ERANGE:
			imp_error(c, 0, "'%s': counts add up beyond range", w);
			return -1;
		default:
			imp_error(c, 0, "'%s': bucket not above the previous one or lo > hi",
				  w);
			return -1;
		}
		k++;
	}
	return 0;
}

static int read_intervals(struct imp_ctx *c, const cJSON *iv,
			  const char *where, struct rep_series *s,
			  const char *miss_key, int64_t *interval_ns)
{
	int col_idx = -1, col_n = -1, col_min = -1, col_avg = -1, col_max = -1,
	    col_miss = -1, ncol = 0, k = 0, i;
	const cJSON *cols, *data, *e;
	bool bad = false, p;
	int64_t len;
	char w[160];

	if (jr_int(c, iv, where, "interval_ns", 1, 1, REP_MAX_VALUE, &len, &p))
		return -1;
	if (!p) {
		imp_error(c, 0, "'%s.interval_ns' missing", where);
		return -1;
	}
	cols = jr_arr(c, iv, where, "columns", &bad);
	data = jr_arr(c, iv, where, "data", &bad);
	if (bad)
		return -1;
	cJSON_ArrayForEach(e, cols) {
		const char *n = cJSON_IsString(e) ? e->valuestring : "";

		if (!strcmp(n, "index"))
			col_idx = ncol;
		else if (!strcmp(n, "samples"))
			col_n = ncol;
		else if (!strcmp(n, "min_ns"))
			col_min = ncol;
		else if (!strcmp(n, "avg_ns"))
			col_avg = ncol;
		else if (!strcmp(n, "max_ns"))
			col_max = ncol;
		else if (!strcmp(n, miss_key) || !strcmp(n, "overruns") ||
			 !strcmp(n, "lost"))
			col_miss = ncol;
		ncol++;
	}
	if (col_idx < 0) {
		imp_error(c, 0, "'%s.columns' has no \"index\"", where);
		return -1;
	}
	*interval_ns = len;
	cJSON_ArrayForEach(e, data) {
		struct rep_interval *x;
		int64_t v[6];
		bool has[6];
		int map[6] = { col_idx, col_n, col_min, col_avg, col_max,
			       col_miss };

		snprintf(w, sizeof(w), "%s.data[%d]", where, k++);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != ncol) {
			imp_error(c, 0, "'%s' must be an array of %d values", w,
				  ncol);
			return -1;
		}
		for (i = 0; i < 6; i++) {
			const cJSON *cell = map[i] >= 0 ?
					    cJSON_GetArrayItem(e, map[i]) : NULL;

			has[i] = cell && !cJSON_IsNull(cell);
			if (has[i] && jr_elem_int(c, cell, w,
						  i == 0 || i == 1 || i == 5 ? 0 :
						  -REP_MAX_VALUE, REP_MAX_VALUE,
						  &v[i]))
				return -1;
		}
		if (!has[0] || v[0] > REP_MAX_VALUE / len) {
			imp_error(c, 0, "'%s': index missing or out of range", w);
			return -1;
		}
		x = series_add_interval(s);
		x->start_ns = v[0] * len;
		x->len_ns = len;
		x->has_samples = has[1];
		x->samples = has[1] ? (uint64_t)v[1] : 0;
		x->has_stats = has[2] && has[3] && has[4];
		if (x->has_stats) {
			x->min = v[2];
			x->avg = (double)v[3];
			x->max = v[4];
		}
		x->has_misses = has[5];
		x->misses = has[5] ? (uint64_t)v[5] : 0;
	}
	return 0;
}

int rtlat_read_series(struct imp_ctx *c, const cJSON *o, const char *where,
		      struct rep_series *s, enum rep_miss *miss,
		      int64_t *interval_ns)
{
	const cJSON *pct, *h, *iv;
	int64_t v;
	bool p, bad = false;
	char w[160];
	int i;

	if (!cJSON_IsObject(o)) {
		imp_error(c, 0, "'%s' must be an object", where);
		return -1;
	}
	if (jr_int(c, o, where, "samples", 1, 0, REP_MAX_VALUE, &v, &p))
		return -1;
	s->has_samples = p;
	s->samples = p ? (uint64_t)v : 0;
	if (jr_int(c, o, where, "overruns", 1, 0, REP_MAX_VALUE, &v, &p))
		return -1;
	if (p) {
		*miss = MISS_OVERRUNS;
	} else {
		if (jr_int(c, o, where, "lost", 1, 0, REP_MAX_VALUE, &v, &p))
			return -1;
		if (p)
			*miss = MISS_LOST;
	}
	s->has_misses = p;
	s->misses = p ? (uint64_t)v : 0;
	{
		int64_t mn, mx;
		double avg;
		bool p1, p2, p3;

		if (jr_int(c, o, where, "min_ns", 1, -REP_MAX_VALUE,
			   REP_MAX_VALUE, &mn, &p1) ||
		    jr_int(c, o, where, "max_ns", 1, -REP_MAX_VALUE,
			   REP_MAX_VALUE, &mx, &p2) ||
		    jr_double(c, o, where, "avg_ns", 1, &avg, &p3))
			return -1;
		if (p1 && p2 && p3) {
			if (mn > mx || avg < (double)mn || avg > (double)mx) {
				imp_error(c, 0, "'%s': min_ns <= avg_ns <= max_ns does not hold",
					  where);
				return -1;
			}
			s->min = mn;
			s->max = mx;
			s->avg = avg;
			s->has_stats = true;
		}
	}
	if (jr_double(c, o, where, "stddev_ns", 1, &s->stddev, &p))
		return -1;
	s->has_stddev = p && s->stddev >= 0;
	snprintf(w, sizeof(w), "%s.percentiles_ns", where);
	pct = jr_obj(c, o, where, "percentiles_ns", &bad);
	for (i = 0; pct && i < RTLAT_NPCT; i++) {
		if (jr_int(c, pct, w, rtlat_percentiles[i].name, 1,
			   -REP_MAX_VALUE, REP_MAX_VALUE, &s->pct[i],
			   &s->has_pct[i]))
			return -1;
	}
	h = jr_obj(c, o, where, "histogram", &bad);
	if (!h)
		h = jr_obj(c, o, where, "histogram_linear", &bad);
	snprintf(w, sizeof(w), "%s.histogram", where);
	if (h && read_hist(c, h, w, &s->hist))
		return -1;
	if (s->hist.n && s->has_samples &&
	    rep_hist_total(&s->hist) != s->samples)
		imp_warn(c, 0, "'%s': histogram holds %llu samples, not %llu",
			 w, (unsigned long long)rep_hist_total(&s->hist),
			 (unsigned long long)s->samples);
	iv = jr_obj(c, o, where, "intervals", &bad);
	snprintf(w, sizeof(w), "%s.intervals", where);
	if (iv && read_intervals(c, iv, w, s,
				 *miss == MISS_LOST ? "lost" : "overruns",
				 interval_ns))
		return -1;
	return bad ? -1 : 0;
}

/* Append @name to the "+"-joined list *@s unless it is there already. */
static void load_add(char **s, const char *name)
{
	char *t;
	size_t n = strlen(name);
	const char *p;

	if (!*name)
		return;
	for (p = *s; p && *p; ) {
		const char *e = strchr(p, '+');
		size_t k = e ? (size_t)(e - p) : strlen(p);

		if (k == n && !strncmp(p, name, n))
			return;
		p = e ? e + 1 : NULL;
	}
	t = *s ? xasprintf("%s+%s", *s, name) : xstrdup(name);
	free(*s);
	*s = t;
}

/* Every generator of this rtlat, and nothing else, is "hell" (as --load
 * hell and the suite name it); frees @s when it returns a new string. */
static char *hell_name(char *s)
{
	const char *const *load_names = import_load_names();
	char *all = NULL;
	int i;

	if (!load_names)
		return s;
	for (i = 0; load_names[i]; i++)
		load_add(&all, load_names[i]);
	/* same names, perhaps in another order: same length and each in @s */
	if (all && strlen(all) == strlen(s)) {
		char *copy = xstrdup(s), *tok, *save = NULL;
		int found = 0;

		for (tok = strtok_r(copy, "+", &save); tok;
		     tok = strtok_r(NULL, "+", &save))
			for (i = 0; load_names[i]; i++)
				if (!strcmp(tok, load_names[i]))
					found++;
		free(copy);
		if (found == i) {
			free(s);
			s = xstrdup("hell");
		}
	}
	free(all);
	return s;
}

/*
 * The load of a run. rtlat writes "loads": [{"name": "cpu", ...}, ...]
 * (docs/result-schema.md): the names joined with "+" in their order
 * ("cpu+io"), "none" for [], "hell" for every generator. A suite or a user may add "load": "hell" |
 * ["cpu", "io"] | {"name": "hell"}, which is taken first. NULL when the
 * file records neither.
 */
static char *read_load(const cJSON *root)
{
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(root, "load"), *e;
	char *s = NULL;

	if (cJSON_IsString(l))
		return xstrdup(l->valuestring[0] ? l->valuestring : "none");
	if (cJSON_IsObject(l)) {
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(l, "name");

		if (cJSON_IsString(n) && n->valuestring[0])
			return xstrdup(n->valuestring);
		l = NULL;
	}
	if (!cJSON_IsArray(l))
		l = cJSON_GetObjectItemCaseSensitive(root, "loads");
	if (!cJSON_IsArray(l))
		return NULL;
	cJSON_ArrayForEach(e, l) {
		const cJSON *n = cJSON_IsObject(e) ?
				 cJSON_GetObjectItemCaseSensitive(e, "name") : e;

		if (cJSON_IsString(n))
			load_add(&s, n->valuestring);
	}
	return s ? hell_name(s) : xstrdup("none");
}

/* The result file's "check" (rtlat check's compact findings) as
 * rep_run.check: its counts, then its warnings and bads. */
static void read_check(const cJSON *root, struct rep_run *r)
{
	static const char *const verdicts[] = { "bad", "warning", "ok", "n/a" };
	const cJSON *chk = cJSON_GetObjectItemCaseSensitive(root, "check");
	const cJSON *counts, *items, *it, *n;
	char *text = NULL, *t, *line;
	size_t i;
	int k;

	free(r->check);
	r->check = NULL;
	if (!cJSON_IsObject(chk))
		return;
	counts = cJSON_GetObjectItemCaseSensitive(chk, "counts");
	items = cJSON_GetObjectItemCaseSensitive(chk, "items");
	if (!cJSON_IsObject(counts) || !cJSON_IsArray(items))
		return;
	for (i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++) {
		double v;

		n = cJSON_GetObjectItemCaseSensitive(counts, verdicts[i]);
		v = cJSON_IsNumber(n) ? n->valuedouble : 0;
		t = xasprintf("%s%s%.0f %s%s", text ? text : "", text ? ", " : "",
			      v >= 0 && v < 1e9 ? v : 0, verdicts[i],
			      i == 1 && v != 1 ? "s" : "");
		free(text);
		text = t;
	}
	cJSON_ArrayForEach(it, items) {
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(it, "id");
		const cJSON *vd = cJSON_GetObjectItemCaseSensitive(it, "verdict");
		const cJSON *fd = cJSON_GetObjectItemCaseSensitive(it, "found");

		if (!cJSON_IsString(id) || !cJSON_IsString(vd) ||
		    (strcmp(vd->valuestring, "bad") != 0 &&
		     strcmp(vd->valuestring, "warning") != 0))
			continue;
		line = xasprintf("%s\t%s\t%s", id->valuestring, vd->valuestring,
				 cJSON_IsString(fd) ? fd->valuestring : "");
		/* one line per finding, three fields: no line break or tab
		 * of the file's own */
		for (t = line, k = 0; *t; t++)
			if ((unsigned char)*t < ' ' && !(*t == '\t' && k++ < 2))
				*t = ' ';
		t = xasprintf("%s\n%s", text, line);
		free(line);
		free(text);
		text = t;
	}
	r->check = text;
}

static void read_system(struct imp_ctx *c, const cJSON *root,
			struct rep_run *r)
{
	const cJSON *sys = cJSON_GetObjectItemCaseSensitive(root, "system"), *e;
	const cJSON *host = cJSON_GetObjectItemCaseSensitive(root, "host");
	char *desc = NULL;

	if (cJSON_IsObject(host)) {
		const char *hn = jr_str(c, host, "host", "hostname");
		const char *rel = jr_str(c, host, "host", "release");
		const char *ver = jr_str(c, host, "host", "version");
		const char *mach = jr_str(c, host, "host", "machine");
		const char *sysn = jr_str(c, host, "host", "sysname");

		if (hn)
			str_set(&r->board, hn);
		if (rel)
			str_set(&r->kernel, rel);
		if (mach)
			str_set(&r->arch, mach);
		desc = xasprintf("%s %s %s %s", sysn ? sysn : "",
				 rel ? rel : "", ver ? ver : "",
				 mach ? mach : "");
	}
	if (cJSON_IsString(sys)) {
		free(desc);
		desc = xstrdup(sys->valuestring);
	} else if (cJSON_IsObject(sys)) {
		const char *b = jr_str(c, sys, "system", "board");

		if (!b)
			b = jr_str(c, sys, "system", "model");
		if (b)
			str_set(&r->board, b);
		cJSON_ArrayForEach(e, sys) {
			char *t;

			if (!cJSON_IsString(e) || !e->string)
				continue;
			t = xasprintf("%s%s%s: %s", desc ? desc : "",
				      desc ? "; " : "", e->string,
				      e->valuestring);
			free(desc);
			desc = t;
		}
	}
	e = cJSON_GetObjectItemCaseSensitive(root, "cokernel");
	if (cJSON_IsString(e) && e->valuestring[0]) {
		/* a Cobalt build's run: "Xenomai/Cobalt 3.2.4" */
		char *t = xasprintf("%s%sco-kernel: %s", desc ? desc : "",
				    desc ? "; " : "", e->valuestring);

		free(desc);
		desc = t;
	}
	free(r->system);
	r->system = desc;
	read_check(root, r);
}

/* Forget the misses of @s and of its intervals. */
static void drop_misses(struct rep_series *s)
{
	size_t i;

	s->has_misses = false;
	s->misses = 0;
	for (i = 0; i < s->nint; i++) {
		s->iv[i].has_misses = false;
		s->iv[i].misses = 0;
	}
}

/* The numbers and strings of @o as figures of @r (CPU @cpu's, or -1). */
static void figures_of(struct rep_run *r, const cJSON *o, int cpu)
{
	const cJSON *e;
	char *t;

	cJSON_ArrayForEach(e, o) {
		if (!e->string)
			continue;
		if (cJSON_IsString(e)) {
			run_add_figure(r, e->string, cpu, e->valuestring);
		} else if (cJSON_IsNumber(e) && (t = cJSON_PrintUnformatted(e))) {
			run_add_figure(r, e->string, cpu, t);
			cJSON_free(t);
		}
	}
}

/* test_data's figures (the columns a test's table shows beside its
 * series: noise's noise %, events, measured time): its top level, the
 * whole run's, and each item of its "cpus" with a "cpu", that CPU's. */
static void read_figures(const cJSON *root, struct rep_run *r)
{
	const cJSON *td = cJSON_GetObjectItemCaseSensitive(root, "test_data");
	const cJSON *cpus, *e, *cpu;

	if (!cJSON_IsObject(td))
		return;
	figures_of(r, td, -1);
	cpus = cJSON_GetObjectItemCaseSensitive(td, "cpus");
	if (!cJSON_IsArray(cpus))
		return;
	cJSON_ArrayForEach(e, cpus) {
		cpu = cJSON_GetObjectItemCaseSensitive(e, "cpu");
		if (cJSON_IsObject(e) && cJSON_IsNumber(cpu) &&
		    cpu->valuedouble >= 0 && cpu->valuedouble < 1000000)
			figures_of(r, e, (int)cpu->valuedouble);
	}
}

/* The figures the tables show (noise's "noise %", "on CPU", "events",
 * "test-time") of test_data's object @o (named @where), checked as the
 * summary's are: a number, an integer where one is due, in range; by
 * their names, whichever test wrote them. A member that is an object or
 * an array is no such figure (irq's "events": an object of counts). */
static int check_figures(struct imp_ctx *c, const cJSON *o, const char *where)
{
	static const char *const counts[] = { "events", "measured_ns",
					      "noise_ns" };
	char p[96];
	double pct;
	int64_t v;
	bool has;
	size_t i;

	if (jr_int(c, o, where, "noise_cpu", 1, 0, 1000000, &v, &has))
		return -1;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, counts[i]);

		if (cJSON_IsObject(m) || cJSON_IsArray(m))
			continue;
		if (jr_int(c, o, where, counts[i], 1, 0, REP_MAX_VALUE, &v, &has))
			return -1;
	}
	if (jr_double(c, o, where, "noise_pct", 1, &pct, &has))
		return -1;
	if (has && (pct < 0 || pct > 100)) {
		snprintf(p, sizeof(p), "%s.noise_pct", where);
		imp_error(c, 0, "'%s' out of range (%g; allowed 0 to 100)", p, pct);
		return -1;
	}
	return 0;
}

/* check_figures() of a result's test_data, whatever its test, and of each
 * item of its "cpus". */
static int check_test_data(struct imp_ctx *c, const cJSON *root)
{
	const cJSON *td = cJSON_GetObjectItemCaseSensitive(root, "test_data");
	const cJSON *cpus, *e;
	char w[48];
	int i = 0;

	if (!cJSON_IsObject(td))
		return 0;
	if (check_figures(c, td, "test_data"))
		return -1;
	cpus = cJSON_GetObjectItemCaseSensitive(td, "cpus");
	if (!cJSON_IsArray(cpus))
		return 0;
	cJSON_ArrayForEach(e, cpus) {
		snprintf(w, sizeof(w), "test_data.cpus[%d]", i++);
		if (cJSON_IsObject(e) && check_figures(c, e, w))
			return -1;
	}
	return 0;
}

/* The threads' objects of series @name (summary.NAME) into @r. Returns
 * 0, or -1 (said). */
static int read_threads(struct imp_ctx *c, const cJSON *thr,
			const char *name, struct rep_run *r)
{
	const cJSON *t;
	char w[160];
	int k = 0;

	cJSON_ArrayForEach(t, thr) {
		const cJSON *ser, *so;
		struct rep_series *s;
		int64_t id, cpu, ivl = 0;
		enum rep_miss m;
		bool pid, pcpu;

		snprintf(w, sizeof(w), "threads[%d]", k);
		if (!cJSON_IsObject(t)) {
			imp_error(c, 0, "'%s' must be an object", w);
			return -1;
		}
		if (jr_int(c, t, w, "id", 1, 0, 1000000, &id, &pid) ||
		    jr_int(c, t, w, "cpu", 1, 0, 1000000, &cpu, &pcpu))
			return -1;
		ser = cJSON_GetObjectItemCaseSensitive(t, "series");
		so = cJSON_IsObject(ser) ?
		     cJSON_GetObjectItemCaseSensitive(ser, name) : NULL;
		k++;
		if (!so)
			continue;
		s = run_add_thread(r, pid ? (int)id : k - 1);
		s->cpu = pcpu ? (int)cpu : -1;
		snprintf(w, sizeof(w), "threads[%d].series.%s", k - 1, name);
		m = r->miss;
		if (rtlat_read_series(c, so, w, s, &m, &ivl))
			return -1;
	}
	return 0;
}

/*
 * What the test declares of its series @e (named @w) of @root, into @r:
 * that it has nothing to miss ("counts_misses": false) and the figure of
 * test_data its values deviate from ("reference": "ideal_ns"), read into
 * r->ideal_ns. A series that says neither (a result written before rtlat
 * wrote them) gets the legacy fallback of import.h. Returns 0 or -1.
 */
static int read_declared(struct imp_ctx *c, const cJSON *root,
			 const cJSON *e, const char *w, struct rep_run *r)
{
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(e, "counts_misses");
	const char *fig = jr_str(c, e, w, "reference");
	const cJSON *td;
	bool bad = false;

	if (cm && !cJSON_IsBool(cm)) {
		imp_warn(c, 0, "'%s.counts_misses' should be true or false: ignored",
			 w);
		cm = NULL;
	}
	if (!cm && !cJSON_GetObjectItemCaseSensitive(e, "reference")) {
		imp_legacy_no_misses(r);
		fig = imp_legacy_reference(r->test, r->series);
	} else {
		r->no_misses = cJSON_IsFalse(cm);
	}
	if (!fig)
		return 0;
	td = jr_obj(c, root, "", "test_data", &bad);
	if (bad || (td && jr_int(c, td, "test_data", fig, 1, 0, REP_MAX_VALUE,
				 &r->ideal_ns, &r->has_ideal)))
		return -1;
	return 0;
}

static int parse(struct imp_ctx *c, const cJSON *root)
{
	const cJSON *sum, *thr, *e, *cfg;
	const char *test, *label, *status, *start, *version = NULL;
	int64_t v, period = -1, dur = -1;
	bool p, bad = false;
	struct rep_run proto_fields;
	char *load;
	int ret = 0;

	if (jr_int(c, root, "", "schema_version", 1, 1, 1000000, &v, &p))
		return -1;
	if (!p) {
		imp_error(c, 0, "'schema_version' missing");
		return -1;
	}
	if (v > RTLAT_SCHEMA_KNOWN)
		imp_warn(c, 0, "schema_version %lld is newer than this rtlat knows (%d): reading the fields it knows",
			 (long long)v, RTLAT_SCHEMA_KNOWN);
	test = jr_str(c, root, "", "test");
	if (!test || !*test) {
		imp_error(c, 0, "'test' missing");
		return -1;
	}
	label = jr_str(c, root, "", "label");
	status = jr_str(c, root, "", "status");
	start = jr_str(c, root, "", "start_time");
	{
		const cJSON *tool = cJSON_GetObjectItemCaseSensitive(root, "tool");

		if (cJSON_IsObject(tool))
			version = jr_str(c, tool, "tool", "version");
	}
	cfg = jr_obj(c, root, "", "config", &bad);
	if (cfg && jr_int(c, cfg, "config", "period_ns", 1, 1, REP_MAX_VALUE,
			  &period, &p))
		return -1;
	if (cfg && !p)
		period = -1;
	if (jr_int(c, root, "", "duration_actual_ns", 1, 0, REP_MAX_VALUE,
		   &dur, &p))
		return -1;
	if (!p)
		dur = -1;
	sum = jr_obj(c, root, "", "summary", &bad);
	thr = jr_arr(c, root, "", "threads", &bad);
	if (bad)
		return -1;
	if (!sum || !cJSON_GetArraySize(sum)) {
		imp_error(c, 0, "'summary' missing or empty: no series");
		return -1;
	}
	memset(&proto_fields, 0, sizeof(proto_fields));
	if (check_test_data(c, root))
		return -1;
	load = read_load(root);
	cJSON_ArrayForEach(e, sum) {
		struct rep_run *r = imp_new_run(c, &imp_rtlat, 0);
		const char *name = e->string ? e->string : "latency";
		char w[160];

		r->tool = xasprintf("rtlat %s%s%s", test, version ? " " : "",
				    version ? version : "");
		str_set(&r->test, test);
		str_set(&r->series, name);
		str_set(&r->label, label);
		str_set(&r->load, load);
		str_set(&r->status, status);
		str_set(&r->start_time, start);
		r->period_ns = period;
		r->duration_ns = dur;
		r->resolution_ns = 1;
		r->miss = MISS_NONE;
		read_system(c, root, r);
		snprintf(w, sizeof(w), "summary.%s", name);
		if (rtlat_read_series(c, e, w, &r->sum, &r->miss, &r->interval_ns)) {
			ret = -1;
			break;
		}
		if (read_declared(c, root, e, w, r)) {
			ret = -1;
			break;
		}
		read_figures(root, r);
		if (read_threads(c, thr, name, r)) {
			ret = -1;
			break;
		}
		/* a series with no deadline to miss (a computation): its
		 * "overruns" are always 0 and say nothing */
		if (r->no_misses) {
			size_t i;

			r->miss = MISS_NONE;
			for (i = 0; i <= r->nthr; i++)
				drop_misses(i ? &r->thr[i - 1] : &r->sum);
		}
	}
	free(load);
	return ret;
}

const struct importer imp_rtlat = {
	.name = "rtlat",
	.what = "rtlat result JSON (schema rtlat-result), suite directories",
	.probe_json = probe,
	.parse_json = parse,
	.json = true,
};

#else

const struct importer imp_rtlat = {
	.name = "rtlat",
	.what = "rtlat result JSON (needs cJSON)",
	.json = true,
};

#endif
