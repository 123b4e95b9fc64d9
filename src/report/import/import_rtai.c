// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RTAI testsuite latency displays (kern/latency, user/latency):
 *
 *   # period = 1000000 (ns)
 *   # avrgtime = 1 (s)
 *   RTAI Testsuite - KERNEL latency (all data in nanoseconds)
 *   RTH|    lat min|    ovl min|    lat avg|    lat max|    ovl max|   overruns
 *   RTD|     -35125|     -35125|     -10767|      19762|      19762|          0
 *
 * One RTD line per averaging time (avrgtime); figures are integer ns and
 * may be negative (RTAI anticipates the timer). "ovl" columns are overall
 * (running) extremes; the overruns column is cumulative. The display has
 * no summary line: the run's figures come from the RTD lines, and the last
 * "ovl" values are checked against them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report/import/import.h"

#define RT_MAXCOL 8

enum rcol { RC_OTHER, RC_MIN, RC_AVG, RC_MAX, RC_OVL_MIN, RC_OVL_MAX, RC_OVR };

static const enum rcol rtai_default[] = {
	RC_MIN, RC_OVL_MIN, RC_AVG, RC_MAX, RC_OVL_MAX, RC_OVR,
};

static enum rcol col_of(const char *n)
{
	if (!strcmp(n, "lat min"))
		return RC_MIN;
	if (!strcmp(n, "lat avg"))
		return RC_AVG;
	if (!strcmp(n, "lat max"))
		return RC_MAX;
	if (!strcmp(n, "ovl min"))
		return RC_OVL_MIN;
	if (!strcmp(n, "ovl max"))
		return RC_OVL_MAX;
	if (starts_with(n, "overrun"))
		return RC_OVR;
	return RC_OTHER;
}

struct rstate {
	struct imp_ctx *c;
	enum rcol col[RT_MAXCOL];
	int ncol;
	struct rep_run *run;
	int64_t period, avrg;
	const char *kind;
	uint64_t cum;
	bool have_ovl;
	int64_t ovl_min, ovl_max;
};

static struct rep_run *rtai_run(struct rstate *s, unsigned line)
{
	if (!s->run) {
		s->run = imp_new_run(s->c, &imp_rtai, line);
		s->run->tool = xstrdup("RTAI testsuite");
		s->run->miss = MISS_OVERRUNS;
		s->cum = 0;
		s->have_ovl = false;
	}
	str_set(&s->run->test, s->kind ? s->kind : "latency");
	s->run->period_ns = s->period;
	s->run->interval_ns = s->avrg;
	return s->run;
}

static int rtai_rtd(struct rstate *s, char *line, unsigned no)
{
	char *f[RT_MAXCOL + 2];
	int n = split_fields(line, '|', f, RT_MAXCOL + 2) - 1, i;
	int64_t v[RC_OVR + 1] = { 0 };
	bool has[RC_OVR + 1] = { false };
	struct rep_interval *iv;
	struct rep_run *r;

	if (n > RT_MAXCOL)
		n = RT_MAXCOL;
	for (i = 0; i < n && i < s->ncol; i++) {
		const char *p = f[i + 1];
		enum rcol k = s->col[i];
		char w[32];
		int e;

		if (k == RC_OTHER)
			continue;
		snprintf(w, sizeof(w), "RTD column %d", i + 1);
		if (k == RC_OVR) {
			uint64_t cnt;

			e = imp_figure_count(s->c, no, w, &p, &cnt);
			v[k] = (int64_t)cnt;
		} else {
			/* RTAI prints early wake-ups: negative latencies */
			e = imp_figure(s->c, no, w, &p, s->c->o->input_unit_ns ?
				       s->c->o->input_unit_ns : 1,
				       IMP_FIG_SIGNED, &v[k]);
		}
		if (e < 0)
			return -1;
		if (e || *skip_blank(p)) {
			imp_warn(s->c, no, "unreadable RTD line skipped (column %d)",
				 i + 1);
			return 0;
		}
		has[k] = true;
	}
	if (!has[RC_MIN] || !has[RC_AVG] || !has[RC_MAX]) {
		imp_warn(s->c, no, "RTD line without consistent lat min/avg/max skipped");
		return 0;
	}
	if (imp_check_stats(s->c, no, "RTD line", v[RC_MIN],
			    (double)v[RC_AVG], v[RC_MAX]))
		return -1;
	r = rtai_run(s, no);
	iv = series_add_interval(&r->sum);
	iv->start_ns = s->avrg > 0 ? (int64_t)(r->sum.nint - 1) * s->avrg : 0;
	iv->len_ns = s->avrg > 0 ? s->avrg : 0;
	iv->has_stats = true;
	iv->min = v[RC_MIN];
	iv->avg = (double)v[RC_AVG];
	iv->max = v[RC_MAX];
	if (s->period > 0 && s->avrg > 0) {
		iv->samples = (uint64_t)(s->avrg / s->period);
		iv->has_samples = true;
	}
	if (has[RC_OVR]) {
		uint64_t c = (uint64_t)v[RC_OVR];

		iv->misses = c >= s->cum ? c - s->cum : c;
		iv->has_misses = true;
		s->cum = c;
	}
	if (has[RC_OVL_MIN] && has[RC_OVL_MAX]) {
		s->ovl_min = v[RC_OVL_MIN];
		s->ovl_max = v[RC_OVL_MAX];
		s->have_ovl = true;
	}
	return 0;
}

static int parse(struct imp_ctx *c, char *buf, size_t len)
{
	struct rstate s;
	struct lines l;
	char *line;
	int ret = 0, i;

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.period = -1;
	s.avrg = 1000000000;
	s.ncol = RC_OVR;
	memcpy(s.col, rtai_default, sizeof(rtai_default));
	lines_init(&l, buf, len);
	while (!ret && (line = lines_next(&l))) {
		const char *p;
		int64_t v;

		strip_ansi(line);
		line = (char *)skip_blank(line);
		if (starts_with(line, "RTD|")) {
			ret = rtai_rtd(&s, line, l.no);
		} else if (starts_with(line, "RTH|")) {
			char names[RT_MAXCOL][24];

			s.ncol = rth_names(line, names, RT_MAXCOL);
			for (i = 0; i < s.ncol; i++)
				s.col[i] = col_of(names[i]);
		} else if (starts_with(line, "RTAI Testsuite")) {
			if (s.run && s.run->sum.nint)
				s.run = NULL;	/* a second display */
			s.kind = kind_from_text(line);
		} else if ((p = strstr(line, "period =")) &&
			   !parse_time_words(p + 8, &v, NULL) && v > 0) {
			s.period = v;
		} else if ((p = strstr(line, "avrgtime =")) &&
			   !parse_time_words(p + 10, &v, NULL) && v > 0) {
			s.avrg = v;
		}
	}
	if (!ret && s.run && s.have_ovl) {
		struct rep_series *sum = &s.run->sum;
		size_t k;
		int64_t mn = sum->iv[0].min, mx = sum->iv[0].max;

		for (k = 1; k < sum->nint; k++) {
			if (sum->iv[k].min < mn)
				mn = sum->iv[k].min;
			if (sum->iv[k].max > mx)
				mx = sum->iv[k].max;
		}
		if (mn != s.ovl_min || mx != s.ovl_max)
			imp_warn(c, 0, "overall min/max of the display (%lld/%lld ns) differ from its RTD lines (%lld/%lld ns): lines missing?",
				 (long long)s.ovl_min, (long long)s.ovl_max,
				 (long long)mn, (long long)mx);
	}
	return ret;
}

static int probe(const char *text)
{
	if (strstr(text, "RTAI Testsuite"))
		return 95;
	if (strstr(text, "RTH|") && strstr(text, "ovl min"))
		return 90;
	return 0;
}

const struct importer imp_rtai = {
	.name = "rtai",
	.what = "RTAI testsuite latency displays (RTH|/RTD|, integer ns, ovl columns)",
	.probe_text = probe,
	.parse_text = parse,
};
