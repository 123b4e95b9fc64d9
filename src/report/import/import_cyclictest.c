// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cyclictest (rt-tests) outputs:
 *
 *  - --json files: file_version, "cmdline:" and "rt_test_version:" (the
 *    colon is really in the key), start/end time, sysinfo, and per thread
 *    histogram {"us": count}, cycles, min, max, avg (us; "-nan" when a
 *    thread had no cycle);
 *  - the T: lines of -q (or the last refresh of each thread without -q,
 *    ANSI codes and carriage returns removed):
 *      T: 0 (12340) P:80 I:1000 C:   3000 Min:     11 Act:   12 Avg:   18 Max:     103
 *  - -h histogram dumps: "# Histogram", one row per us bucket with a count
 *    per thread, "# Total:" (may be missing), "# Min/Avg/Max Latencies:",
 *    "# Histogram Overflows:" and the overflow cycle lists.
 *
 * Figures are whole microseconds (truncated by cyclictest), or ns with -N
 * when the command line is known. One run per file, one series per thread.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import/import.h"

#define CT_MAXTHR 1024

/* Value of option -@s/--@l in a command line ("-i 200", "-i200",
 * "--interval=200"), copied into @buf; false when absent. */
static bool cmdline_opt(const char *cmd, char s, const char *l, char *buf,
			size_t len)
{
	const char *p = cmd;

	while (p && *p) {
		const char *tok = skip_blank(p), *v = NULL;
		size_t n;

		if (tok[0] == '-' && tok[1] == s && tok[1] != '-') {
			v = tok[2] ? tok + 2 : NULL;
			if (v && (*v == ' ' || *v == '\t'))
				v = skip_blank(v);
			else if (!v)
				v = "";
		} else if (tok[0] == '-' && tok[1] == '-' &&
			   !strncmp(tok + 2, l, strlen(l))) {
			v = tok + 2 + strlen(l);
			if (*v == '=')
				v++;
			else if (*v == ' ')
				v = skip_blank(v);
			else
				v = NULL;
		}
		if (v) {
			n = strcspn(v, " \t");
			if (n >= len)
				n = len - 1;
			memcpy(buf, v, n);
			buf[n] = '\0';
			return true;
		}
		p = strchr(tok, ' ');
	}
	return false;
}

static bool cmdline_flag(const char *cmd, const char *flag)
{
	const char *p = cmd;
	size_t n = strlen(flag);

	while ((p = strstr(p, flag))) {
		if ((p == cmd || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
		p += n;
	}
	return false;
}

/* Settings read from a command line. */
static void from_cmdline(const char *cmd, struct rep_run *r, int64_t *unit)
{
	char v[64];
	const char *p = v;
	int64_t x;

	if (cmdline_flag(cmd, "-N") || cmdline_flag(cmd, "--nsecs"))
		*unit = 1;
	if (cmdline_opt(cmd, 'i', "interval", v, sizeof(v)) &&
	    !imp_num(&p, 1000, &x) && x > 0)
		r->period_ns = x;
}

#ifdef HAVE_CJSON

/* Buckets of the histogram of a command line (-h N, --histogram=N, -H N,
 * --histofall=N), or 0. */
static uint64_t cmdline_hist(const char *cmd)
{
	char v[64];
	const char *p = v;
	uint64_t n;

	if ((cmdline_opt(cmd, 'h', "histogram", v, sizeof(v)) ||
	     cmdline_opt(cmd, 'H', "histofall", v, sizeof(v))) &&
	    !imp_count(&p, &n) && !*p && n <= REP_MAX_LINEAR_BUCKETS)
		return n;
	return 0;
}

static int probe_json(const cJSON *root)
{
	const cJSON *cmd = rt_member(root, "cmdline");
	const cJSON *thr = cJSON_GetObjectItemCaseSensitive(root, "thread");

	if (!cJSON_IsObject(thr))
		return 0;
	if (cJSON_IsString(cmd) && strstr(cmd->valuestring, "cyclictest"))
		return 95;
	if (cJSON_IsString(cmd) && strstr(cmd->valuestring, "oslat"))
		return 0;
	return cJSON_GetObjectItemCaseSensitive(root, "resolution_in_ns") ?
	       60 : 0;
}

/* "Sun, 29 Nov 2026 19:18:53 +0000" -> seconds since the epoch. */
static bool rfc2822(const char *s, time_t *t)
{
	struct tm tm;
	const char *e;

	memset(&tm, 0, sizeof(tm));
	e = strptime(s, "%a, %d %b %Y %H:%M:%S %z", &tm);
	if (!e)
		return false;
	*t = timegm(&tm) - tm.tm_gmtoff;
	return true;
}

/* The run's start and duration: start_time and end_time (RFC 2822),
 * duration_actual_ns if there. Returns 0, or -1 (said). */
static int json_times(struct imp_ctx *c, const cJSON *root, struct rep_run *r)
{
	const char *st, *et;
	time_t t0, t1;
	int64_t d;
	bool has;

	st = jr_str(c, root, "", "start_time");
	et = jr_str(c, root, "", "end_time");
	if (st && rfc2822(st, &t0)) {
		char iso[32];
		struct tm tm;

		gmtime_r(&t0, &tm);
		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%S.000Z", &tm);
		str_set(&r->start_time, iso);
		if (et && rfc2822(et, &t1) && t1 >= t0 &&
		    (int64_t)(t1 - t0) < REP_MAX_VALUE / 1000000000)
			r->duration_ns = (int64_t)(t1 - t0) * 1000000000;
	}
	if (jr_int(c, root, "", "duration_actual_ns", 1, 0, REP_MAX_VALUE, &d,
		   &has))
		return -1;
	if (has)
		r->duration_ns = d;
	return 0;
}

static int parse_json(struct imp_ctx *c, const cJSON *root)
{
	const cJSON *thr, *e, *cmd, *ver, *sys, *tool, *lat;
	struct rep_run *r = imp_new_run(c, &imp_cyclictest, 0);
	int64_t unit = 1000;
	bool bad = false;

	cmd = rt_member(root, "cmdline");
	ver = rt_member(root, "rt_test_version");
	r->tool = xasprintf("cyclictest%s%s", cJSON_IsString(ver) ? " " : "",
			    cJSON_IsString(ver) ? ver->valuestring : "");
	str_set(&r->test, "latency");
	r->miss = MISS_NONE;
	tool = cJSON_GetObjectItemCaseSensitive(root, "tool");
	if (cJSON_IsObject(tool) && jr_str(c, tool, "tool", "name")) {
		const char *n = jr_str(c, tool, "tool", "name");
		const char *t = jr_str(c, tool, "tool", "test");
		const char *v = jr_str(c, tool, "tool", "version");

		free(r->tool);
		r->tool = xasprintf("%s%s%s%s%s", n, t ? " " : "", t ? t : "",
				    v ? " " : "", v ? v : "");
	}
	if (cJSON_IsString(cmd))
		from_cmdline(cmd->valuestring, r, &unit);
	r->resolution_ns = unit;
	if (json_times(c, root, r))
		return -1;
	sys = jr_obj(c, root, "", "sysinfo", &bad);
	if (sys)
		jr_sysinfo(c, sys, r);
	thr = jr_obj(c, root, "", "thread", &bad);
	if (bad)
		return -1;
	cJSON_ArrayForEach(e, thr) {
		const char *k = e->string, *p = k;
		struct rep_series *s;
		uint64_t id;
		char w[64];

		snprintf(w, sizeof(w), "thread.%.40s", k ? k : "?");
		if (!k || imp_count(&p, &id) || *p || id >= CT_MAXTHR ||
		    r->nthr >= CT_MAXTHR) {
			imp_error(c, 0, "'%s' is not a thread number (0 to %d)", w,
				  CT_MAXTHR - 1);
			return -1;
		}
		s = run_add_thread(r, (int)id);
		if (jr_us_thread(c, e, w, "cycles", unit, s))
			return -1;
		lat = cJSON_GetObjectItemCaseSensitive(e, "latency");
		if (cJSON_IsObject(lat)) {
			/* rtlat cyclic --json: the figures in ns beside the
			 * rt-tests ones (docs/cyclic-json.md) */
			struct rep_series x;
			enum rep_miss miss = MISS_NONE;
			int64_t ivl = 0;

			series_init(&x, s->id);
			strncat(w, ".latency", sizeof(w) - strlen(w) - 1);
			if (rtlat_read_series(c, lat, w, &x, &miss, &ivl)) {
				series_free(&x);
				return -1;
			}
			x.cpu = s->cpu;
			series_free(s);
			*s = x;
			r->miss = miss;
			r->resolution_ns = 1;
			continue;
		}
		if (unit == 1) {	/* -N: cyclictest counts ns buckets */
			size_t i;

			s->hist.width = 1;
			for (i = 0; i < s->hist.n; i++) {
				s->hist.b[i].lo /= 1000;
				s->hist.b[i].hi = s->hist.b[i].lo;
			}
		}
		if (s->hist.n && s->has_samples &&
		    s->hist.bucket_total <= s->samples)
			s->hist.overflow = s->samples - s->hist.bucket_total;
		/* the JSON lists non-empty buckets only: the histogram's size
		 * (its overflow's edge) is the command line's -h N */
		if (s->hist.n && unit == 1000 && cJSON_IsString(cmd) &&
		    cmdline_hist(cmd->valuestring) > s->hist.nbuckets)
			s->hist.nbuckets = cmdline_hist(cmd->valuestring);
	}
	if (r->duration_ns < 0 && r->period_ns > 0) {
		size_t i;

		for (i = 0; i < r->nthr; i++)
			if (r->thr[i].samples <= (uint64_t)(REP_MAX_VALUE / r->period_ns) &&
			    (int64_t)r->thr[i].samples * r->period_ns > r->duration_ns)
				r->duration_ns = (int64_t)r->thr[i].samples * r->period_ns;
	}
	return 0;
}

#endif /* HAVE_CJSON */

/* ---- text: T: lines and -h dumps ---- */

struct ct_thr {
	bool seen;		/* T: line */
	uint64_t cycles;
	int64_t min, avg, max, interval;
	bool hist_min, hist_avg, hist_max, hist_ovf, hist_total;
	int64_t hmin, havg, hmax;
	uint64_t ovf, total;
	unsigned tline, fline;	/* its T: line, its "# Max Latencies:" line */
};

struct ct_state {
	struct imp_ctx *c;
	int64_t unit;
	struct ct_thr *t;
	int nt;
	int ncol;		/* histogram columns */
	struct rep_hist *h;	/* per column */
	bool in_hist;
};

static struct ct_thr *ct_thread(struct ct_state *s, uint64_t id)
{
	if (id >= CT_MAXTHR)
		return NULL;
	if ((int)id >= s->nt) {
		s->t = xrealloc(s->t, (id + 1) * sizeof(*s->t));
		memset(s->t + s->nt, 0, (id + 1 - (uint64_t)s->nt) * sizeof(*s->t));
		s->nt = (int)id + 1;
	}
	return &s->t[id];
}

/* "T: 0 (12340) P:80 I:1000 C:   3000 Min:     11 Act:   12 Avg:   18 Max:     103"
 * Every figure through imp_figure()/imp_figure_count(): cyclictest prints
 * no negative latency (it sleeps to an absolute deadline) and no count
 * beyond 2^53; min <= avg <= max checked on the line. */
static int ct_tline(struct ct_state *s, const char *line, unsigned no)
{
	static const char *const keys[] = { "I:", "C:", "Min:", "Avg:", "Max:" };
	static const char *const names[] = { "interval", "C", "Min", "Avg", "Max" };
	const char *p = line + 2;
	int64_t v[5];
	uint64_t id;
	struct ct_thr *t;
	size_t i;
	int e;

	if (imp_count(&p, &id) || !(t = ct_thread(s, id))) {
		imp_warn(s->c, no, "unreadable T: line skipped");
		return 0;
	}
	for (i = 0; i < 5; i++) {
		const char *k = strstr(p, keys[i]);

		if (!k) {
			imp_warn(s->c, no, "T: line without %s skipped", keys[i]);
			return 0;
		}
		k += strlen(keys[i]);
		if (i == 1) {
			uint64_t c;

			e = imp_figure_count(s->c, no, names[i], &k, &c);
			v[i] = (int64_t)c;
		} else {
			e = imp_figure(s->c, no, names[i], &k,
				       i == 0 ? 1000 : s->unit, 0, &v[i]);
		}
		if (e < 0)
			return -1;
		if (e) {
			imp_warn(s->c, no, "unreadable T: line skipped (%s)", keys[i]);
			return 0;
		}
	}
	if (v[1] > 0 && imp_check_stats(s->c, no, "T: line", v[2],
					 (double)v[3], v[4]))
		return -1;
	t->seen = true;
	t->tline = no;
	t->interval = v[0];
	t->cycles = (uint64_t)v[1];
	t->min = v[2];
	t->avg = v[3];
	t->max = v[4];
	return 0;
}

/* "# Max Latencies: 00027 00031   # comment" -> per-thread values */
static int ct_footer(struct ct_state *s, const char *p, int which, unsigned no)
{
	static const char *const names[] = {
		"Min Latencies", "Avg Latencies", "Max Latencies",
		"Histogram Overflows", "Total"
	};
	const char *what = names[which >= 4 ? 4 : which < 0 ? 0 : which];
	int col = 0;

	for (;;) {
		int64_t v = 0;
		uint64_t cnt = 0;
		struct ct_thr *t;
		int e;

		p = skip_blank(p);
		if (!isdigit((unsigned char)*p) && *p != '-')
			break;
		if (which >= 3)
			e = imp_figure_count(s->c, no, what, &p, &cnt);
		else
			e = imp_figure(s->c, no, what, &p, s->unit, 0, &v);
		if (e < 0)
			return -1;
		if (e || !(t = ct_thread(s, (uint64_t)col)))
			break;
		switch (which) {
		case 0: t->hmin = v; t->hist_min = true; break;
		case 1: t->havg = v; t->hist_avg = true; break;
		case 2: t->hmax = v; t->hist_max = true; t->fline = no; break;
		case 3: t->ovf = cnt; t->hist_ovf = true; break;
		default: t->total = cnt; t->hist_total = true; break;
		}
		col++;
	}
	return 0;
}

/* "000012 000083	001457" */
static int ct_hist_row(struct ct_state *s, const char *line, unsigned no)
{
	const char *p = line;
	uint64_t bucket, cnt[CT_MAXTHR];
	int n = 0, i, e;

	if (imp_count(&p, &bucket) || bucket >= REP_MAX_LINEAR_BUCKETS) {
		imp_warn(s->c, no, "unreadable histogram row skipped");
		return 0;
	}
	for (;;) {
		p = skip_blank(p);
		if (!*p || *p == '#')
			break;
		if (n >= CT_MAXTHR) {
			imp_warn(s->c, no, "histogram row with too many columns skipped");
			return 0;
		}
		e = imp_figure_count(s->c, no, "histogram count", &p, &cnt[n]);
		if (e < 0)
			return -1;
		if (e) {
			imp_warn(s->c, no, "unreadable histogram row skipped");
			return 0;
		}
		n++;
	}
	if (!s->ncol && n) {
		s->ncol = n;
		s->h = xcalloc((size_t)n, sizeof(*s->h));
	}
	if (n != s->ncol || !n) {
		imp_warn(s->c, no, "histogram row with %d columns instead of %d skipped",
			 n, s->ncol);
		return 0;
	}
	for (i = 0; i < n; i++) {
		int64_t lo = (int64_t)bucket * s->unit;
		int r = hist_push(&s->h[i], lo, lo + s->unit - 1, cnt[i]);

		if (r == -ERANGE) {
			imp_error(s->c, no, "histogram counts add up beyond range");
			return -1;
		}
		if (r) {
			imp_warn(s->c, no, "histogram row out of order skipped");
			return 0;
		}
		if (bucket + 1 > s->h[i].nbuckets)
			s->h[i].nbuckets = bucket + 1;
	}
	return 0;
}

static int ct_build(struct ct_state *s, struct rep_run *r)
{
	int n = s->nt > s->ncol ? s->nt : s->ncol, i;

	for (i = 0; i < n; i++) {
		struct ct_thr *t = i < s->nt ? &s->t[i] : NULL;
		struct rep_series *x = run_add_thread(r, i);

		if (i < s->ncol) {
			x->hist = s->h[i];
			memset(&s->h[i], 0, sizeof(s->h[i]));
			x->hist.layout = REP_HIST_LINEAR;
			x->hist.lo = 0;
			x->hist.width = s->unit;
			x->hist.quantized = true;
			if (t && t->hist_ovf)
				x->hist.overflow = t->ovf;
			x->samples = rep_hist_total(&x->hist);
			x->has_samples = true;
			if (t && t->hist_total &&
			    t->total != x->hist.bucket_total) {
				/* rows left out of a paste: the buckets do not
				 * tell the percentiles */
				imp_warn(s->c, 0, "thread %d: '# Total' %llu differs from the sum of its buckets %llu: histogram not used",
					 i, (unsigned long long)t->total,
					 (unsigned long long)x->hist.bucket_total);
				series_free(x);
				memset(&x->hist, 0, sizeof(x->hist));
				x->samples = t->total;
			}
		} else if (t && t->hist_total) {
			/* "# Total:" without bucket rows */
			x->samples = t->total;
			x->has_samples = true;
		}
		if (!t)
			continue;
		if (t->seen) {
			x->samples = t->cycles;
			x->has_samples = true;
			x->min = t->min;
			x->avg = (double)t->avg;
			x->max = t->max;
			x->has_stats = t->cycles > 0;
			if (!i || r->period_ns < 0)
				r->period_ns = t->interval;
			if (t->interval > 0 && t->cycles <= (uint64_t)(REP_MAX_VALUE / t->interval) &&
			    (int64_t)t->cycles * t->interval > r->duration_ns)
				r->duration_ns = (int64_t)t->cycles * t->interval;
		}
		/* the footer, also alone (a summary-only paste: no T: line,
		 * no bucket) */
		if (t->hist_min && t->hist_avg && t->hist_max &&
		    (!x->has_samples || x->samples > 0)) {
			x->min = t->hmin;
			x->avg = (double)t->havg;
			x->max = t->hmax;
			x->has_stats = true;
		}
		if (x->has_stats && (x->min > x->max || x->avg < (double)x->min ||
				     x->avg > (double)x->max)) {
			char w[32];

			snprintf(w, sizeof(w), "thread %d", i);
			imp_check_stats(s->c, t->fline ? t->fline : t->tline,
					w, x->min, x->avg, x->max);
			return -1;
		}
	}
	if (r->duration_ns < 0 && r->period_ns > 0) {
		for (i = 0; i < (int)r->nthr; i++)
			if (r->thr[i].samples <= (uint64_t)(REP_MAX_VALUE / r->period_ns) &&
			    (int64_t)r->thr[i].samples * r->period_ns > r->duration_ns)
				r->duration_ns = (int64_t)r->thr[i].samples * r->period_ns;
	}
	return 0;
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct ct_state s;
	struct rep_run *r;
	struct lines l;
	char *line;
	int ret = 0, i;

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.unit = c->o->input_unit_ns ? c->o->input_unit_ns : 1000;
	r = imp_new_run(c, &imp_cyclictest, 1);
	r->tool = xstrdup("cyclictest");
	str_set(&r->test, "latency");
	lines_init(&l, buf, len);
	while (!ret && (line = lines_next(&l))) {
		const char *p;

		strip_ansi(line);
		line = (char *)skip_blank(line);
		if (starts_with(line, "T:") &&
		    (isblank((unsigned char)line[2]) ||
		     isdigit((unsigned char)line[2]))) {
			ret = ct_tline(&s, line, l.no);
		} else if (starts_with(line, "# Histogram Overflows:")) {
			ret = ct_footer(&s, line + 22, 3, l.no);
			s.in_hist = false;
		} else if (starts_with(line, "# Histogram Overflow at")) {
			s.in_hist = false;
		} else if (starts_with(line, "# Histogram")) {
			s.in_hist = true;
		} else if (starts_with(line, "# Total:")) {
			ret = ct_footer(&s, line + 8, 4, l.no);
			s.in_hist = false;
		} else if (starts_with(line, "# Min Latencies:")) {
			ret = ct_footer(&s, line + 16, 0, l.no);
			s.in_hist = false;
		} else if (starts_with(line, "# Avg Latencies:")) {
			ret = ct_footer(&s, line + 16, 1, l.no);
		} else if (starts_with(line, "# Max Latencies:")) {
			ret = ct_footer(&s, line + 16, 2, l.no);
		} else if (s.in_hist && isdigit((unsigned char)line[0])) {
			ret = ct_hist_row(&s, line, l.no);
		} else if ((p = strstr(line, "cyclictest ")) &&
			   (line[0] == '$' || line[0] == '#')) {
			from_cmdline(p, r, &s.unit);
		}
	}
	if (!ret)
		ret = ct_build(&s, r);
	r->resolution_ns = s.unit;
	for (i = 0; i < s.ncol; i++)
		free(s.h[i].b);
	free(s.h);
	free(s.t);
	if (!ret && !r->nthr) {
		imp_error(c, 0, "no T: line and no histogram: not cyclictest output");
		ret = -1;
	}
	return ret;
}

static int probe_text(const char *text)
{
	static const char *const keys[] = { " C:", "Max:", NULL };

	if (strstr(text, "# Histogram") && strstr(text, "# Max Latencies:"))
		return 85;
	if (strstr(text, "# Min Latencies:") && strstr(text, "# Max Latencies:"))
		return 80;
	/* a T: line, possibly after a carriage return or ANSI code */
	return text_line_with(text, "T:", keys, NULL) ? 80 : 0;
}

const struct importer imp_cyclictest = {
	.name = "cyclictest",
	.what = "cyclictest --json files, -q T: lines (also refreshed, with ANSI codes), -h histogram dumps",
	.probe_text = probe_text,
	.parse_text = parse_text,
#ifdef HAVE_CJSON
	.probe_json = probe_json,
	.parse_json = parse_json,
#endif
};
