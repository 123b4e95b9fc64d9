// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The other rt-tests tools (cyclictest and oslat have importers of their
 * own):
 *
 *  - --json files share rt-tests' envelope (file_version, "cmdline:",
 *    "rt_test_version:", start/end time, sysinfo) with a body per tool:
 *    ptsematest, pmqtest, sigwaittest and svsematest write per thread a
 *    "sender" (samples) and a "receiver" (min, avg, max in us);
 *    signaltest, cyclicdeadline and other tools per thread min, avg, max
 *    and "cycles" (or "samples");
 *  - the text of the handshake tools (with -q, or the last refresh):
 *      #0: ID1234, P99, CPU0, I1000; #1: ID1235, P99, CPU0, Cycles 10000
 *      #1 -> #0, Min    1, Cur    3, Avg    3, Max   12
 *
 * Figures are whole microseconds. One run per file, one series per thread
 * (a sender/receiver pair for the handshake tools).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_CJSON
#include <cjson/cJSON.h>
#endif

#include "report/import/import.h"

#define RT_MAXTHR 1024

/* rt-tests tools and the test kind of their runs. */
static const struct {
	const char *tool;
	const char *test;
} rt_tools[] = {
	{ "ptsematest", "handshake" },
	{ "pmqtest", "handshake" },
	{ "sigwaittest", "handshake" },
	{ "svsematest", "handshake" },
	{ "signaltest", "signal" },
	{ "cyclicdeadline", "latency" },
	{ "deadline_test", "latency" },
	{ "rt-migrate-test", "migrate" },
	{ "pi_stress", "pi" },
};

/* Index into rt_tools[] of the command in @cmd (its first word, or the
 * first known one after sudo, taskset...), or -1. */
static int rt_tool_of(const char *cmd)
{
	const char *p = cmd;
	size_t i;
	int words;

	for (words = 0; p && *p && words < 8; words++) {
		const char *e, *b;
		size_t n;

		p = skip_blank(p);
		for (e = p; *e && !isspace((unsigned char)*e); e++)
			;
		for (b = e; b > p && b[-1] != '/'; b--)
			;
		n = (size_t)(e - b);
		for (i = 0; i < sizeof(rt_tools) / sizeof(rt_tools[0]); i++)
			if (strlen(rt_tools[i].tool) == n &&
			    !strncmp(b, rt_tools[i].tool, n))
				return (int)i;
		p = *e ? e + 1 : NULL;
	}
	return -1;
}

static void rt_run_defaults(struct rep_run *r, int tool, const char *ver)
{
	const char *name = tool >= 0 ? rt_tools[tool].tool : "rt-tests";

	free(r->tool);
	r->tool = ver ? xasprintf("%s %s", name, ver) : xstrdup(name);
	str_set(&r->test, tool >= 0 ? rt_tools[tool].test : "latency");
	str_set(&r->series, "latency");
	r->resolution_ns = 1000;
	r->miss = MISS_NONE;
}

#ifdef HAVE_CJSON

static int probe_json(const cJSON *root)
{
	const cJSON *cmd = rt_member(root, "cmdline");
	const cJSON *thr = cJSON_GetObjectItemCaseSensitive(root, "thread");

	if (!cJSON_IsObject(thr))
		return 0;
	if (cJSON_IsString(cmd) && rt_tool_of(cmd->valuestring) >= 0)
		return 90;
	/* rt-tests' envelope, a tool not known here */
	if (cJSON_GetObjectItemCaseSensitive(root, "file_version") &&
	    cJSON_IsString(cmd) && !strstr(cmd->valuestring, "cyclictest") &&
	    !strstr(cmd->valuestring, "oslat"))
		return 40;
	return 0;
}

static int parse_json(struct imp_ctx *c, const cJSON *root)
{
	const cJSON *cmd = rt_member(root, "cmdline");
	const cJSON *ver = rt_member(root, "rt_test_version");
	const cJSON *thr, *e, *sys;
	struct rep_run *r = imp_new_run(c, &imp_rttests, 0);
	bool bad = false;

	rt_run_defaults(r, cJSON_IsString(cmd) ? rt_tool_of(cmd->valuestring) : -1,
			cJSON_IsString(ver) ? ver->valuestring : NULL);
	sys = jr_obj(c, root, "", "sysinfo", &bad);
	if (sys)
		jr_sysinfo(c, sys, r);
	thr = jr_obj(c, root, "", "thread", &bad);
	if (bad)
		return -1;
	cJSON_ArrayForEach(e, thr) {
		const char *k = e->string, *p = k;
		const cJSON *rcv, *snd;
		struct rep_series *s;
		uint64_t id;
		char w[80];

		snprintf(w, sizeof(w), "thread.%.40s", k ? k : "?");
		if (!k || imp_count(&p, &id) || *p || id >= RT_MAXTHR ||
		    r->nthr >= RT_MAXTHR || !cJSON_IsObject(e)) {
			imp_error(c, 0, "'%s' is not a thread (a number 0 to %d, an object)",
				  w, RT_MAXTHR - 1);
			return -1;
		}
		s = run_add_thread(r, (int)id);
		rcv = jr_obj(c, e, w, "receiver", &bad);
		snd = jr_obj(c, e, w, "sender", &bad);
		if (bad)
			return -1;
		if (rcv) {
			int64_t n;
			bool has;

			strncat(w, ".receiver", sizeof(w) - strlen(w) - 1);
			if (snd && jr_int(c, snd, "sender", "samples", 1, 0,
					  REP_MAX_VALUE, &n, &has))
				return -1;
			if (jr_us_thread(c, rcv, w, NULL, 1000, s))
				return -1;
			if (snd && has) {
				s->samples = (uint64_t)n;
				s->has_samples = true;
				if (!n)
					s->has_stats = false;
			}
		} else if (jr_us_thread(c, e, w,
					cJSON_GetObjectItemCaseSensitive(e, "cycles") ?
					"cycles" : "samples", 1000, s)) {
			return -1;
		}
	}
	if (!r->nthr) {
		imp_error(c, 0, "'thread' holds no thread");
		return -1;
	}
	return 0;
}

#endif /* HAVE_CJSON */

/* ---- text of the handshake tools ---- */

/* "#1 -> #0, Min    1, Cur    3, Avg    3, Max   12": the receiver's
 * number (the even one) into *@rcv, the figures into @v (ns), each through
 * imp_figure() (the handshake tools print no negative latency). Returns
 * 0, 1 (not such a line) or -1 (refused, said). */
static int hs_line(struct imp_ctx *c, unsigned no, const char *p,
		   uint64_t *rcv, int64_t v[3])
{
	static const char *const keys[] = { "Min", "Avg", "Max" };
	uint64_t a, b;
	size_t i;

	if (*p++ != '#' || imp_count(&p, &a) || strncmp(p, " -> #", 5) != 0)
		return 1;
	p += 5;
	if (imp_count(&p, &b))
		return 1;
	*rcv = b;
	for (i = 0; i < 3; i++) {
		const char *k = strstr(p, keys[i]);
		int e;

		if (!k)
			return 1;
		k += 3;
		e = imp_figure(c, no, keys[i], &k, 1000, 0, &v[i]);
		if (e)
			return e;
	}
	(void)a;
	return 0;
}

static int parse_text(struct imp_ctx *c, char *buf, size_t len)
{
	struct rep_run *r = imp_new_run(c, &imp_rttests, 1);
	struct lines l;
	char *line;
	size_t i;

	rt_run_defaults(r, 0, NULL);
	free(r->tool);
	r->tool = xstrdup("rt-tests handshake");
	lines_init(&l, buf, len);
	while ((line = lines_next(&l))) {
		const char *p = skip_blank(line), *cmd = frame_command(p);
		int64_t v[3];
		uint64_t id, cyc;
		int e;

		if (cmd && rt_tool_of(cmd) >= 0) {
			rt_run_defaults(r, rt_tool_of(cmd), NULL);
			continue;
		}
		if (*p != '#')
			continue;
		if (strstr(p, " -> #")) {
			struct rep_series *s;

			e = hs_line(c, l.no, p, &id, v);
			if (e < 0)
				return -1;
			if (e || id / 2 >= RT_MAXTHR) {
				imp_warn(c, l.no, "unreadable line skipped");
				continue;
			}
			if (imp_check_stats(c, l.no, "the line", v[0],
					    (double)v[1], v[2]))
				return -1;
			s = run_thread(r, (int)(id / 2));
			s->min = v[0];
			s->avg = (double)v[1];
			s->max = v[2];
			s->has_stats = true;
		} else if (strstr(p, "Cycles ") && strchr(p, ';')) {
			/* "#0: ID1234, P99, CPU0, I1000; #1: ..., Cycles 10000" */
			const char *q = p + 1, *k = strstr(p, "Cycles ") + 7;
			struct rep_series *s;

			if (imp_count(&q, &id) || id / 2 >= RT_MAXTHR)
				continue;
			e = imp_figure_count(c, l.no, "Cycles", &k, &cyc);
			if (e < 0)
				return -1;
			if (e)
				continue;
			s = run_thread(r, (int)(id / 2));
			s->samples = cyc;
			s->has_samples = true;
			q = strstr(p, "CPU");
			if (q) {
				uint64_t cpu;

				q += 3;
				if (!imp_count(&q, &cpu) && cpu < RT_MAXTHR)
					s->cpu = (int)cpu;
			}
		}
	}
	for (i = 0; i < r->nthr; i++)
		if (r->thr[i].has_samples && !r->thr[i].samples)
			r->thr[i].has_stats = false;
	if (!r->nthr) {
		imp_error(c, 0, "no \"#1 -> #0, Min ...\" line");
		return -1;
	}
	return 0;
}

static int probe_text(const char *text)
{
	static const char *const keys[] = { ", Min ", ", Max ", NULL };

	return text_line_with(text, " -> #", keys, NULL) ? 80 : 0;
}

const struct importer imp_rttests = {
	.name = "rt-tests",
	.what = "rt-tests --json of ptsematest, pmqtest, sigwaittest, svsematest, signaltest, cyclicdeadline; the handshake tools' text",
	.probe_text = probe_text,
	.parse_text = parse_text,
#ifdef HAVE_CJSON
	.probe_json = probe_json,
	.parse_json = parse_json,
#endif
};
