// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat suite output: the report (stdout and report.txt) and the index
 * (suite.json). The tables follow the ones users mail around (see
 * ../shared/fixtures/seed/xenomai-latencies-ppc-summary.log):
 *
 *   LATENCY with load (hell), latencies in us, test-time hh:mm:ss:
 *   Label     |-----lat min|-----lat avg|-----lat max|-overrun|-------p99.9|---test-time
 *   Ocotea    |       3.575|       7.438|      24.474|       0|      20.111|    00:10:50
 *
 * one row per board: rows of several boards' reports can be pasted into one
 * table, the label naming each.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/suite.h"
#include "util/jsonw.h"
#include "engine/suitecol.h"
#include "system/syscheck.h"
#include "util/url.h"
#include "output/result.h"
#include "util/timeutil.h"
#include "loads/load.h"

#define W_US	12	/* "-----lat min" */
#define W_COUNT	8	/* "-overrun" */

/* p99.9 of @se, as rtlat report shows it: with fewer than 1000 samples its
 * nearest rank is the last sample, i.e. only the maximum again: n/a. */
static bool p999_known(const struct hl_series *se)
{
	return se->has_p999 && se->samples >= 1000;
}

static const struct suite_col default_cols[] = {
	{ "lat min", NULL, SUITE_MIN },
	{ "lat avg", NULL, SUITE_AVG },
	{ "lat max", NULL, SUITE_MAX },
	{ NULL, NULL, SUITE_MISSES },
	{ "p99.9", NULL, SUITE_P999 },
	{ "test-time", NULL, SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

const char *suite_load_title(const char *load, char *buf, size_t len)
{
	if (!strcmp(load, "none"))
		snprintf(buf, len, "without load");
	else
		snprintf(buf, len, "with load (%s)", load);
	return buf;
}

static const struct suite_col *cols_of(const struct rtlat_cmd *c)
{
	return c->suite->cols ? c->suite->cols : default_cols;
}

/* Header of a misses column of test @cmd: the miss name of a run's series,
 * else (no run told: not run, failed) the test's; "overruns" -> "overrun"
 * as in the seed. */
static void miss_head(char *buf, size_t len, const struct suite_run *runs,
		      int n, const struct rtlat_cmd *cmd, const char *series)
{
	const char *name = cmd->suite->miss_name ? cmd->suite->miss_name :
			   "overruns";
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		const struct hl_series *se = headline_series(&runs[i].hl, series);

		if (runs[i].cmd == cmd && se && se->miss_name[0]) {
			name = se->miss_name;
			break;
		}
	}
	snprintf(buf, len, "%s", name);
	k = strlen(buf);
	if (k > 1 && buf[k - 1] == 's')
		buf[k - 1] = '\0';
}

static int col_width(const struct suite_col *c)
{
	return c->stat == SUITE_MISSES ? W_COUNT : W_US;
}

static void head_cell(FILE *f, const char *name, int w)
{
	int pad = w - (int)strlen(name);

	fputc('|', f);
	while (pad-- > 0)
		fputc('-', f);
	fputs(name, f);
}

static void value_cell(FILE *f, const struct suite_col *c,
		       const struct suite_run *r)
{
	const struct hl_series *se;
	char buf[32];
	int w = col_width(c);

	if (c->stat == SUITE_TIME) {
		fprintf(f, "|%*s", w, suite_time_text(c->name ?
			headline_param(&r->hl, c->name) : NULL,
			r->hl.duration_ns, buf, sizeof(buf)));
		return;
	}
	if (suite_col_figure(c)) {
		suite_col_text(c, c->name ? headline_param(&r->hl, c->name) :
			       NULL, buf, sizeof(buf));
		fprintf(f, "|%*.*s", w, w, buf);
		return;
	}
	se = headline_series(&r->hl, c->name);
	if (!se) {
		fprintf(f, "|%*s", w, "n/a");
		return;
	}
	switch (c->stat) {
	case SUITE_MISSES:
		fprintf(f, "|%*llu", w, (unsigned long long)se->misses);
		return;
	case SUITE_MIN:
		if (se->has_stats)
			fmt_us3(buf, se->min_ns);
		break;
	case SUITE_AVG:
		if (se->has_stats)
			snprintf(buf, sizeof(buf), "%.3f", se->avg_ns / 1000.0);
		break;
	case SUITE_MAX:
		if (se->has_stats)
			fmt_us3(buf, se->max_ns);
		break;
	case SUITE_P999:
		if (p999_known(se))
			fmt_us3(buf, se->p999_ns);
		else
			snprintf(buf, sizeof(buf), "n/a");
		break;
	default:
		snprintf(buf, sizeof(buf), "?");
	}
	if (!se->has_stats)
		snprintf(buf, sizeof(buf), "n/a");
	fprintf(f, "|%*s", w, buf);
}

/* The series a table is about: that of its first min/avg/max column. */
static const struct hl_series *table_series(const struct suite_run *r,
					    const char **name)
{
	const struct suite_col *c;

	*name = NULL;
	for (c = cols_of(r->cmd); c->stat != SUITE_END; c++)
		if (c->stat == SUITE_MIN || c->stat == SUITE_AVG ||
		    c->stat == SUITE_MAX) {
			*name = c->name;
			break;
		}
	return headline_series(&r->hl, *name);
}

/* Series @name of sampler @i of @h, or NULL. */
static const struct hl_series *sampler_series(const struct headline *h,
					      int i, const char *name)
{
	int j;

	for (j = 0; j < h->samplers[i].nseries; j++)
		if (!strcmp(h->samplers[i].series[j].name, name))
			return &h->samplers[i].series[j];
	return NULL;
}

/* What @se's samples + misses count: periods (overruns of a periodic
 * test), events (lost), or cycles. */
static const char *miss_of(const struct headline *h,
			   const struct hl_series *se)
{
	if (!strcmp(se->miss_name, "lost"))
		return "events";
	return h->period_ns > 0 ? "periods" : "cycles";
}

/* Share of @se's periods that were misses, in %. */
static double miss_pct(const struct hl_series *se)
{
	uint64_t all = se->samples + se->misses;

	return all ? 100.0 * (double)se->misses / (double)all : 0;
}

/*
 * Under the row, how the run measured and what the one row hides: period,
 * scheduling and CPUs; samples and misses; on which CPU the max was; each
 * CPU's figures when the CPUs differ beyond the noise (an average twice
 * another's and 5 us apart, or misses 1 % of the periods apart); and a
 * note when 1 % or more of the periods were missed (the max is then that
 * of a starved task, not a latency). No '|' in these lines: pasted tables
 * and rtlat report read the rows only.
 */
static void print_measured(FILE *f, const struct suite_run *r)
{
	const struct headline *h = &r->hl;
	const struct hl_series *se;
	const char *name, *ev_missed, *events;
	const char *word = r->cmd->suite->sample_name;
	char a[32], b[32], c[32];
	double ev_pct = 0;
	int i, n = 0, imax = -1;
	double lo = 0, hi = 0, plo = 0, phi = 0;

	se = table_series(r, &name);
	fprintf(f, "  measured:");
	if (h->period_ns > 0 && h->period_ns % 1000 == 0)
		fprintf(f, " period %lld us,", (long long)(h->period_ns / 1000));
	else if (h->period_ns > 0)
		fprintf(f, " period %s us,", fmt_us3(a, h->period_ns));
	if (h->policy[0])
		fprintf(f, " %s %d,", h->policy, h->priority);
	if (h->cpus[0])
		fprintf(f, " CPU%s %s,", strpbrk(h->cpus, ",-") ? "s" : "",
			h->cpus);
	if (!se) {
		fprintf(f, " no series\n");
		return;
	}
	if (word)
		fprintf(f, " %s: %llu %s", se->name,
			(unsigned long long)se->samples, word);
	else
		fprintf(f, " %s: %llu samples + %llu %s (%.1f %% of the %s)",
			se->name, (unsigned long long)se->samples,
			(unsigned long long)se->misses,
			se->miss_name[0] ? se->miss_name : "misses",
			miss_pct(se), miss_of(h, se));
	for (i = 0; i < h->nsamplers; i++) {
		const struct hl_series *x = sampler_series(h, i, se->name);

		if (!x || !x->has_stats)
			continue;
		if (!n || x->avg_ns < lo)
			lo = x->avg_ns;
		if (!n || x->avg_ns > hi)
			hi = x->avg_ns;
		if (!n || miss_pct(x) < plo)
			plo = miss_pct(x);
		if (!n || miss_pct(x) > phi)
			phi = miss_pct(x);
		if (se->has_stats && x->max_ns == se->max_ns && imax < 0)
			imax = i;
		n++;
	}
	if (n > 1 && imax >= 0 && h->samplers[imax].cpu >= 0)
		fprintf(f, ", max on CPU %d", h->samplers[imax].cpu);
	if (word)
		phi = plo = 0;	/* no misses to differ in */
	ev_missed = headline_param(h, "event_missed_periods");
	events = headline_param(h, "events");
	if (ev_missed && events) {
		uint64_t m = strtoull(ev_missed, NULL, 10);
		uint64_t e = strtoull(events, NULL, 10);

		ev_pct = m + e ? 100.0 * (double)m / (double)(m + e) : 0;
		fprintf(f, "; the event thread posted %llu events and missed %llu periods (%.1f %%)",
			(unsigned long long)e, (unsigned long long)m, ev_pct);
	}
	fprintf(f, "\n");
	if (n > 1 && ((hi >= 2 * lo && hi - lo >= 5000) || phi - plo >= 1.0)) {
		fprintf(f, "  per CPU (they differ beyond the noise):");
		for (i = 0; i < h->nsamplers; i++) {
			const struct hl_series *x = sampler_series(h, i, se->name);

			if (!x || !x->has_stats)
				continue;
			fprintf(f, "%s CPU %d min %s avg %s max %s us",
				i ? ";" : "", h->samplers[i].cpu,
				fmt_us3(a, x->min_ns),
				fmt_us3(b, (int64_t)x->avg_ns),
				fmt_us3(c, x->max_ns));
			if (word)
				fprintf(f, ", %llu %s",
					(unsigned long long)x->samples, word);
			else
				fprintf(f, ", %.1f %% %s", miss_pct(x),
					x->miss_name[0] ? x->miss_name :
					se->miss_name);
		}
		fprintf(f, "\n");
	}
	if (!word && miss_pct(se) >= 1.0)
		fprintf(f, "  note: %.1f %% of the %s were missed (%llu of %llu): the max is that of a starved task, not a latency\n",
			miss_pct(se), miss_of(h, se),
			(unsigned long long)se->misses,
			(unsigned long long)se->samples +
			(unsigned long long)se->misses);
	if (ev_pct >= 1.0)
		fprintf(f, "  note: the event thread missed %.1f %% of its periods: it was starved, and so may the worker have been; the max is not a latency\n",
			ev_pct);
}

static void print_table(FILE *f, const struct suite *s,
			const struct suite_run *r, int lw)
{
	const struct suite_col *cols = cols_of(r->cmd), *c;
	const char *units = r->cmd->suite->units;
	char title[96], mh[32];
	bool hms = false;

	for (c = cols; c->stat != SUITE_END; c++)
		hms |= c->stat == SUITE_TIME;
	fprintf(f, "%s %s, %s%s:\n", r->cmd->suite->title,
		suite_load_title(r->load, title, sizeof(title)),
		units ? units : "latencies in us",
		hms ? ", test-time hh:mm:ss" : "");
	fprintf(f, "%-*s", lw, "");
	for (c = cols; c->stat != SUITE_END; c++) {
		if (!c->head && c->stat == SUITE_MISSES) {
			miss_head(mh, sizeof(mh), s->runs, s->nruns, r->cmd,
				  c->name);
			head_cell(f, mh, col_width(c));
		} else {
			head_cell(f, c->head ? c->head : "", col_width(c));
		}
	}
	fprintf(f, "\n%-*s", lw, s->label);
	if (!r->ran)
		fprintf(f, "| not run (the suite was interrupted)\n");
	else if (!r->hl.valid && !r->error[0])
		fprintf(f, "| interrupted (killed by the suite while stopping)\n");
	else if (!r->hl.valid)
		fprintf(f, "| failed: %s\n", r->error);
	else {
		for (c = cols; c->stat != SUITE_END; c++)
			value_cell(f, c, r);
		if (r->error[0])
			fprintf(f, "  (failed: %s)", r->error);
		else if (strcmp(r->hl.status, "complete") != 0)
			fprintf(f, "  (%s)", r->hl.status);
		fprintf(f, "\n");
		print_measured(f, r);
	}
	fprintf(f, "\n");
}

static void print_loads(FILE *f, const struct suite *s)
{
	char title[96];
	bool any = false;
	int i;

	for (i = 0; i < s->nruns; i++) {
		const struct suite_run *r = &s->runs[i];

		if (!r->hl.nloads)
			continue;
		if (!any)
			fprintf(f, "Loads achieved (per generator: processes, scheduling, rate, what):\n");
		any = true;
		fprintf(f, "%s %s:\n", r->cmd->suite->title,
			suite_load_title(r->load, title, sizeof(title)));
		load_print(f, r->hl.loads, r->hl.nloads, "  ");
	}
	if (any)
		fprintf(f, "\n");
}

static void print_notes(FILE *f, const struct suite *s)
{
	const char *seen[64];
	char a[32], b[32];
	int nseen = 0, i, j, k;
	bool any = false;

#define NOTE(...) do { \
		if (!any) \
			fprintf(f, "Notes:\n"); \
		any = true; \
		fprintf(f, __VA_ARGS__); \
	} while (0)

	for (i = 0; i < s->nruns; i++) {
		const struct suite_run *r = &s->runs[i];

		if (r->error[0])
			NOTE("  run %d (%s): error: %s\n", r->index, r->base, r->error);
		if (r->leftovers)
			NOTE("  run %d (%s): %d process%s it left behind killed by the suite\n",
			     r->index, r->base, r->leftovers,
			     r->leftovers == 1 ? "" : "es");
		if (r->hl.valid && r->hl.policy[0] &&
		    strcmp(r->hl.policy, "fifo") != 0 && strcmp(r->hl.policy, "rr") != 0)
			NOTE("  run %d (%s): samplers ran at policy %s, not real-time\n",
			     r->index, r->base, r->hl.policy);
		for (j = 0; j < r->hl.nseries; j++) {
			const struct hl_series *se = &r->hl.series[j];

			if (suite_over_threshold(se, s->max_latency_ns))
				NOTE("  run %d (%s): %s max %s us exceeded --max-latency %s us\n",
				     r->index, r->base, se->name,
				     fmt_us3(a, se->max_ns),
				     fmt_us3(b, s->max_latency_ns));
		}
	}
	/* each distinct warning once, with the runs it came from */
	for (i = 0; i < s->nruns; i++) {
		for (j = 0; j < s->runs[i].hl.nwarnings; j++) {
			const char *w = s->runs[i].hl.warnings[j];

			for (k = 0; k < nseen; k++)
				if (!strcmp(seen[k], w))
					break;
			if (k < nseen || nseen == 64)
				continue;
			seen[nseen++] = w;
			NOTE("  warning (runs");
			for (k = i; k < s->nruns; k++) {
				int m;

				for (m = 0; m < s->runs[k].hl.nwarnings; m++)
					if (!strcmp(s->runs[k].hl.warnings[m], w))
						break;
				if (m < s->runs[k].hl.nwarnings)
					fprintf(f, " %d", s->runs[k].index);
			}
			fprintf(f, "): %s\n", w);
		}
	}
	if (s->interrupted)
		NOTE("  the suite was interrupted: runs marked 'not run' did not take place\n");
	if (s->interrupted && s->gate)
		NOTE("  the release gate was not made: an interrupted suite never passes it\n");
	if (any)
		fprintf(f, "\n");
#undef NOTE
}

/* Why the suite exits with s->exit_code: every reason there is. */
static const char *exit_reason(const struct suite *s, char *buf, size_t len)
{
	bool fail = s->gate_verdict && !strcmp(s->gate_verdict, "fail");
	size_t n = 0;
	int i, nerr = 0;

	buf[0] = '\0';
	if (!s->exit_code)
		return "ok";
	if (s->interrupted)
		n += (size_t)snprintf(buf, len, "%s", suite_interrupted_reason(s));
	for (i = 0; i < s->nruns; i++)
		nerr += s->runs[i].ran && s->runs[i].error[0];
	if (nerr && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s", n ? "; " : "");
	if (nerr == 1 && n < len)
		n += (size_t)snprintf(buf + n, len - n, "a run failed");
	else if (nerr && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%d runs failed", nerr);
	if (s->exit_why[0] && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "",
				      s->exit_why);
	if (s->threshold_exceeded && n < len)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "; " : "",
				      suite_exit2_reason(s));
	if (fail && n < len)
		snprintf(buf + n, len - n, "%sthe release gate failed: a gated metric is worse than the baseline beyond its limit",
			 n ? "; " : "");
	return buf[0] ? buf : s->exit_code == 2 ? "a threshold was exceeded" :
	       "an error (see the notes)";
}

void suite_report(const struct suite *s, FILE *f)
{
	char start[32], end[32], dur[32], why[1024];
	int i, lw = (int)strlen(s->label) + 1;	/* "Ocotea |" */

	if (lw < 9)
		lw = 9;
	fprintf(f, "rtlat suite report: %s\n", s->label);
	fprintf(f, "==================================================================\n");
	sysdesc_print(&s->sys, f, "");
	fprintf(f, "Suite      : %d run%s of %s each (warm-up %s), rtlat %s\n",
		s->nruns, s->nruns == 1 ? "" : "s", fmt_time(dur, s->duration_ns),
		s->warmup_ns > 0 ? fmt_time(start, s->warmup_ns) :
		s->warmup_ns == 0 ? "none" : "1 s",
		RTLAT_VERSION);
	fprintf(f, "Time       : %s to %s\n", fmt_utc(start, s->wall_start),
		fmt_utc(end, s->wall_end));
	fprintf(f, "Results    : %s/\n", s->outdir);
	if (s->check) {
		char counts[96];

		fprintf(f, "Check      : %s (rtlat check before the runs, system/check.txt)\n",
			syscheck_counts(s->check, counts, sizeof(counts)));
		syscheck_print_compact(s->check, f, "  ");
	}
	fprintf(f, "\n");
	for (i = 0; i < s->nruns; i++)
		print_table(f, s, &s->runs[i], lw);
	print_loads(f, s);
	print_notes(f, s);
	if (s->gate_text)
		fprintf(f, "%s\n", s->gate_text);
	fprintf(f, "Exit status: %d (%s)\n", s->exit_code,
		exit_reason(s, why, sizeof(why)));
}

const char *suite_exit2_reason(const struct suite *s)
{
	return s->max_latency_hit ? "a run exceeded --max-latency" :
	       "a run exceeded a threshold given with --test-args (--max-msw, --break)";
}

/* --- suite.json ----------------------------------------------------------- */

static void run_json(struct jw *w, const struct suite_run *r)
{
	int i;

	jw_obj_begin(w, NULL);
	jw_int(w, "index", r->index);
	jw_str(w, "test", r->cmd->name);
	jw_str(w, "load", r->load);
	jw_bool(w, "ran", r->ran);
	if (r->ran) {
		char name[200];

		snprintf(name, sizeof(name), "%s.json", r->base);
		jw_str(w, "file", name);
		snprintf(name, sizeof(name), "%s.log", r->base);
		jw_str(w, "log", name);
	} else {
		jw_null(w, "file");
		jw_null(w, "log");
	}
	if (r->ran && r->exit_status >= 0)
		jw_int(w, "exit_status", r->exit_status);
	else
		jw_null(w, "exit_status");
	if (r->term_signal)
		jw_int(w, "signal", r->term_signal);
	else
		jw_null(w, "signal");
	jw_str(w, "status", !r->ran ? "not run" : r->error[0] ? "error" :
	       r->hl.valid ? r->hl.status : "interrupted");
	jw_int(w, "elapsed_ns", r->elapsed_ns);
	if (r->hl.valid) {
		jw_int(w, "duration_actual_ns", r->hl.duration_ns);
		jw_str(w, "policy", r->hl.policy);
		jw_int(w, "priority", r->hl.priority);
		jw_bool(w, "threshold_exceeded", r->hl.threshold_exceeded);
	}
	jw_obj_begin(w, "summary");
	for (i = 0; i < r->hl.nseries; i++) {
		const struct hl_series *se = &r->hl.series[i];

		jw_obj_begin(w, se->name);
		jw_uint(w, "samples", se->samples);
		jw_uint(w, se->miss_name[0] ? se->miss_name : "misses", se->misses);
		if (se->has_stats) {
			jw_int(w, "min_ns", se->min_ns);
			jw_double(w, "avg_ns", se->avg_ns, 1);
			jw_int(w, "max_ns", se->max_ns);
		} else {
			jw_null(w, "min_ns");
			jw_null(w, "avg_ns");
			jw_null(w, "max_ns");
		}
		if (p999_known(se))
			jw_int(w, "p99.9_ns", se->p999_ns);
		else
			jw_null(w, "p99.9_ns");
		jw_obj_end(w);
	}
	jw_obj_end(w);
	/* the test's params: numbers where they are numbers */
	jw_obj_begin(w, "params");
	for (i = 0; i < r->hl.nparams; i++)
		jw_number_text(w, r->hl.params[i].name, r->hl.params[i].value);
	jw_obj_end(w);
	load_results_json(w, r->hl.loads, r->hl.nloads);
	jw_arr_begin(w, "warnings");
	for (i = 0; i < r->hl.nwarnings; i++)
		jw_str(w, NULL, r->hl.warnings[i]);
	jw_arr_end(w);
	if (r->error[0])
		jw_str(w, "error", r->error);
	else
		jw_null(w, "error");
	jw_obj_end(w);
}

int suite_json_write(const struct suite *s, const char *status, char *err,
		     size_t errlen)
{
	char path[PATH_MAX + 32], buf[32], hidden[4096];
	struct atomic_file af;
	struct jw w;
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/suite.json", s->outdir);
	f = atomic_open(&af, path, err, errlen);
	if (!f)
		return -1;
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	jw_str(&w, "schema", "rtlat-suite");
	jw_int(&w, "schema_version", 1);
	jw_obj_begin(&w, "tool");
	jw_str(&w, "name", "rtlat");
	jw_str(&w, "version", RTLAT_VERSION);
	jw_obj_end(&w);
	jw_str(&w, "label", s->label);
	jw_str(&w, "status", status);
	url_json_argv(&w, "command_line", rtlat_argc, rtlat_argv);
	jw_str(&w, "start_time", fmt_utc(buf, s->wall_start));
	if (s->wall_end)
		jw_str(&w, "end_time", fmt_utc(buf, s->wall_end));
	else
		jw_null(&w, "end_time");
	jw_obj_begin(&w, "config");
	jw_int(&w, "duration_ns", s->duration_ns);
	if (s->warmup_ns >= 0)
		jw_int(&w, "warmup_ns", s->warmup_ns);
	else
		jw_null(&w, "warmup_ns");
	if (s->max_latency_ns >= 0)
		jw_int(&w, "max_latency_ns", s->max_latency_ns);
	else
		jw_null(&w, "max_latency_ns");
	jw_arr_begin_inline(&w, "load_options");
	for (i = 0; i < s->nfwd; i++)
		jw_str(&w, NULL, s->fwd[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	jw_obj_begin(&w, "system");
	sysdesc_json(&s->sys, &w);
	jw_obj_end(&w);
	if (s->check) {
		jw_obj_begin(&w, "check");
		syscheck_json_compact(s->check, &w);
		jw_obj_end(&w);
	} else {
		jw_null(&w, "check");
	}
	jw_arr_begin_inline(&w, "snapshot");
	for (i = 0; i < s->nsnapshot; i++) {
		char name[64];

		snprintf(name, sizeof(name), "system/%s", s->snapshot[i]);
		jw_str(&w, NULL, name);
	}
	jw_arr_end(&w);
	jw_arr_begin(&w, "runs");
	for (i = 0; i < s->nruns; i++)
		run_json(&w, &s->runs[i]);
	jw_arr_end(&w);
	jw_bool(&w, "threshold_exceeded", s->threshold_exceeded);
	if (s->gate) {
		jw_obj_begin(&w, "gate");
		jw_str(&w, "baseline", s->gate_baseline ? s->gate_baseline :
		       url_redact(s->gate_db, s->gate_db, hidden, sizeof(hidden)));
		jw_str(&w, "baseline_from", s->gate_baseline ? "path" : "db");
		if (s->gate_verdict)
			jw_str(&w, "verdict", s->gate_verdict);
		else
			jw_null(&w, "verdict");
		if (s->gate_verdict && (!strcmp(s->gate_verdict, "pass") ||
					!strcmp(s->gate_verdict, "fail")))
			jw_str(&w, "file", "gate.json");
		else
			jw_null(&w, "file");
		jw_obj_end(&w);
	}
	if (strcmp(status, "running") != 0)
		jw_int(&w, "exit_status", s->exit_code);
	else
		jw_null(&w, "exit_status");
	jw_obj_end(&w);
	if (!jw_finish(&w) && !ferror(f)) {
		atomic_abort(&af);
		snprintf(err, errlen, "internal error writing %s", path);
		return -1;
	}
	return atomic_commit(&af, err, errlen);
}

const char *suite_interrupted_reason(const struct suite *s)
{
	static char buf[160];	/* the suite is one thread */
	char sig[64] = "a signal";
	int i, notrun = 0;

	for (i = 0; i < s->nruns; i++)
		notrun += !s->runs[i].ran;
	if (s->interrupt_signal > 0)
		snprintf(sig, sizeof(sig), "signal %d (%s)",
			 s->interrupt_signal, strsignal(s->interrupt_signal));
	snprintf(buf, sizeof(buf), "the suite was interrupted by %s: %d of %d run%s not run",
		 sig, notrun, s->nruns, s->nruns == 1 ? "" : "s");
	return buf;
}
