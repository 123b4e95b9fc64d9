// SPDX-License-Identifier: GPL-2.0-or-later
/* Headline reader; see headline.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/headline.h"

#define COPY(dst, src) snprintf(dst, sizeof(dst), "%s", src)

static int to_int(const char *v)
{
	return (int)strtol(v, NULL, 10);
}

/* Series @name (@len bytes) of @v (@n of them); with @add, a new one at the
 * end when absent and there is room. */
static struct hl_series *find_series(struct hl_series *v, int *n,
				     const char *name, size_t len, bool add)
{
	int i;

	for (i = 0; i < *n; i++)
		if (strlen(v[i].name) == len && !strncmp(v[i].name, name, len))
			return &v[i];
	if (!add || *n >= HL_MAX_SERIES || len >= sizeof(v[0].name))
		return NULL;
	snprintf(v[*n].name, sizeof(v[0].name), "%.*s", (int)len, name);
	return &v[(*n)++];
}

static struct load_result *find_load(struct headline *h, const char *name,
				 size_t len)
{
	int i;

	/* the latest entry of that name: "cmd" may come several times */
	for (i = h->nloads - 1; i >= 0; i--)
		if (strlen(h->loads[i].name) == len &&
		    !strncmp(h->loads[i].name, name, len))
			return &h->loads[i];
	return NULL;
}

/* "NAME.FIELD" of a series of @vec (@n): NAME may not hold a '.', FIELD may
 * ("p99.9_ns"). A sampler's series (@add) are created as they come. */
static void series_field(struct hl_series *vec, int *n, bool add,
			 const char *k, const char *v)
{
	const char *dot = strchr(k, '.');
	struct hl_series *s;

	if (!dot)
		return;
	s = find_series(vec, n, k, (size_t)(dot - k), add);
	if (!s)
		return;
	k = dot + 1;
	if (!strcmp(k, "miss_name"))
		COPY(s->miss_name, v);
	else if (!strcmp(k, "samples"))
		s->samples = strtoull(v, NULL, 10);
	else if (!strcmp(k, "misses"))
		s->misses = strtoull(v, NULL, 10);
	else if (!strcmp(k, "threshold"))
		s->threshold = to_int(v) != 0;
	else if (!strcmp(k, "min_ns")) {
		s->min_ns = strtoll(v, NULL, 10);
		s->has_stats = true;
	} else if (!strcmp(k, "avg_ns"))
		s->avg_ns = strtod(v, NULL);
	else if (!strcmp(k, "max_ns"))
		s->max_ns = strtoll(v, NULL, 10);
	else if (!strcmp(k, "p99.9_ns")) {
		s->p999_ns = strtoll(v, NULL, 10);
		s->has_p999 = true;
	}
}

static void load_field(struct headline *h, const char *k, const char *v)
{
	const char *dot = strchr(k, '.');
	struct load_result *l;

	if (!dot)
		return;
	l = find_load(h, k, (size_t)(dot - k));
	if (!l)
		return;
	k = dot + 1;
	if (!strcmp(k, "workers"))
		l->workers = to_int(v);
	else if (!strcmp(k, "policy"))
		COPY(l->policy, v);
	else if (!strcmp(k, "nice"))
		l->nice = to_int(v);
	else if (!strcmp(k, "duration_ns"))
		l->duration_ns = strtoll(v, NULL, 10);
	else if (!strcmp(k, "count"))
		l->count = strtoull(v, NULL, 10);
	else if (!strcmp(k, "rate"))
		l->rate = strtod(v, NULL);
	else if (!strcmp(k, "unit"))
		COPY(l->unit, v);
	else if (!strcmp(k, "note"))
		COPY(l->note, v);
	else if (!strcmp(k, "error"))
		COPY(l->error, v);
	else if (!strcmp(k, "command")) {
		COPY(l->command, v);
		l->is_command = true;
	} else if (!strcmp(k, "exit_status"))
		l->exit_status = to_int(v);
	else if (!strcmp(k, "ran_ns"))
		l->ran_ns = strtoll(v, NULL, 10);
	else if (!strcmp(k, "worker_died"))
		l->worker_died = to_int(v) != 0;
}

/* "param.NAME VALUE": a repeated NAME takes the last value. */
static void param_field(struct headline *h, const char *name, const char *v)
{
	struct hl_param *p = NULL;
	int i;

	if (!name[0] || strlen(name) >= sizeof(p->name))
		return;
	for (i = 0; i < h->nparams; i++)
		if (!strcmp(h->params[i].name, name))
			p = &h->params[i];
	if (!p) {
		if (h->nparams >= HL_MAX_PARAMS)
			return;
		p = &h->params[h->nparams++];
		COPY(p->name, name);
	}
	COPY(p->value, v);
}

/* "sampler.I.cpu C" and "sampler.I.NAME.FIELD" (samplers in order). */
static void sampler_field(struct headline *h, const char *k, const char *v)
{
	char *end;
	long i = strtol(k, &end, 10);
	struct hl_sampler *sm;

	if (end == k || *end != '.' || i < 0 || i >= HL_MAX_SAMPLERS)
		return;
	if (i >= h->nsamplers) {
		if (i != h->nsamplers)
			return;		/* out of order: not ours */
		h->samplers[h->nsamplers++].cpu = -1;
	}
	sm = &h->samplers[i];
	k = end + 1;
	if (!strcmp(k, "cpu"))
		sm->cpu = to_int(v);
	else
		series_field(sm->series, &sm->nseries, true, k, v);
}

static void field(struct headline *h, const char *k, const char *v)
{
	if (!strcmp(k, "test"))
		COPY(h->test, v);
	else if (!strcmp(k, "status"))
		COPY(h->status, v);
	else if (!strcmp(k, "signal"))
		h->stop_signal = to_int(v);
	else if (!strcmp(k, "exit"))
		h->exit_status = to_int(v);
	else if (!strcmp(k, "duration_actual_ns"))
		h->duration_ns = strtoll(v, NULL, 10);
	else if (!strcmp(k, "threshold_exceeded"))
		h->threshold_exceeded = to_int(v) != 0;
	else if (!strcmp(k, "policy"))
		COPY(h->policy, v);
	else if (!strcmp(k, "priority"))
		h->priority = to_int(v);
	else if (!strcmp(k, "series")) {
		if (h->nseries < HL_MAX_SERIES) {
			COPY(h->series[h->nseries].name, v);
			h->series[h->nseries++].threshold = true;
		}
	} else if (!strncmp(k, "param.", 6))
		param_field(h, k + 6, v);
	else if (!strncmp(k, "series.", 7))
		series_field(h->series, &h->nseries, false, k + 7, v);
	else if (!strncmp(k, "sampler.", 8))
		sampler_field(h, k + 8, v);
	else if (!strcmp(k, "period_ns"))
		h->period_ns = strtoll(v, NULL, 10);
	else if (!strcmp(k, "cpus"))
		COPY(h->cpus, v);
	else if (!strcmp(k, "load")) {
		if (h->nloads < HL_MAX_LOADS) {
			COPY(h->loads[h->nloads].name, v);
			h->loads[h->nloads++].exit_status = -1;
		}
	} else if (!strncmp(k, "load.", 5))
		load_field(h, k + 5, v);
	else if (!strcmp(k, "warning")) {
		if (h->nwarnings < HL_MAX_WARNINGS) {
			COPY(h->warnings[h->nwarnings], v);
			h->nwarnings++;
		}
	} else if (!strcmp(k, "error"))
		COPY(h->error, v);
}

int headline_parse(struct headline *h, const char *text)
{
	const char *p = text, *nl;
	char line[512], *sp;

	memset(h, 0, sizeof(*h));
	h->exit_status = -1;
	while (*p) {
		size_t n;

		nl = strchr(p, '\n');
		n = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p += n + (nl ? 1 : 0);
		if (!h->valid) {
			if (strcmp(line, "rtlat-headline 1") != 0)
				return -1;
			h->valid = true;
			continue;
		}
		if (!strcmp(line, "end")) {
			h->complete = true;
			break;
		}
		sp = strchr(line, ' ');
		if (!sp)
			continue;
		*sp = '\0';
		field(h, line, sp + 1);
	}
	return h->valid ? 0 : -1;
}

const struct hl_series *headline_series(const struct headline *h,
					const char *name)
{
	int i;

	if (!name)
		return h->nseries ? &h->series[0] : NULL;
	for (i = 0; i < h->nseries; i++)
		if (!strcmp(h->series[i].name, name))
			return &h->series[i];
	return NULL;
}

const char *headline_param(const struct headline *h, const char *name)
{
	int i;

	for (i = 0; i < h->nparams; i++)
		if (!strcmp(h->params[i].name, name))
			return h->params[i].value;
	return NULL;
}
