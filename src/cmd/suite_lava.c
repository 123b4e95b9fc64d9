// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat suite results for board farms and CI: LAVA test cases (--lava) and
 * JUnit XML (--junit FILE), one test case per figure that matters, from
 * the runs' headlines (docs/suite.md, "Lab output").
 *
 * A case is TEST-LOAD (the run: pass, fail, skip), then per series of the
 * run TEST-LOAD-SERIES-{max,avg,min,p99.9,MISSES} and per CPU of a run with
 * several TEST-LOAD-SERIES-cpuN-{max,avg}; times in us (three decimals),
 * misses as counts. A max (and the run) fails when it exceeded
 * --max-latency; every other figure passes: it is a measurement.
 *
 * LAVA: inside a LAVA test shell "lava-test-case" is on PATH and is run for
 * each case (LAVA's own helper records it); elsewhere the line it would
 * print, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=... RESULT=... MEASUREMENT=...
 * UNITS=...>", goes to stdout, which LAVA reads from the console as well.
 * Test case ids keep [A-Za-z0-9_.-] only (others become '_').
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/suite.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/timeutil.h"

struct lab_case {
	char id[160];
	const char *result;	/* "pass", "fail", "skip" */
	bool has_value;
	char value[32];		/* "24.474" (us) or "3" (count) */
	const char *units;	/* "us", "count" */
	char why[448];		/* failure or skip reason, "" */
};

typedef void (*case_fn)(void *ctx, const struct lab_case *c);

static void clean_id(char *dst, size_t len, const char *src)
{
	size_t i;

	snprintf(dst, len, "%s", src);
	for (i = 0; dst[i]; i++)
		if (!((dst[i] >= 'a' && dst[i] <= 'z') ||
		      (dst[i] >= 'A' && dst[i] <= 'Z') ||
		      (dst[i] >= '0' && dst[i] <= '9') ||
		      dst[i] == '_' || dst[i] == '.' || dst[i] == '-'))
			dst[i] = '_';
}

static void emit_us(case_fn fn, void *ctx, const char *base,
		    const char *what, int64_t ns, bool fail, const char *why)
{
	struct lab_case c = { .result = fail ? "fail" : "pass",
			      .has_value = true, .units = "us" };
	char id[200];

	snprintf(id, sizeof(id), "%s-%s", base, what);
	clean_id(c.id, sizeof(c.id), id);
	fmt_us3(c.value, ns);
	snprintf(c.why, sizeof(c.why), "%s", fail ? why : "");
	fn(ctx, &c);
}

static void emit_count(case_fn fn, void *ctx, const char *base,
		       const char *what, uint64_t n)
{
	struct lab_case c = { .result = "pass", .has_value = true,
			      .units = "count" };
	char id[200];

	snprintf(id, sizeof(id), "%s-%s", base, what);
	clean_id(c.id, sizeof(c.id), id);
	snprintf(c.value, sizeof(c.value), "%llu", (unsigned long long)n);
	fn(ctx, &c);
}

/* The cases of run @r, in order. */
static void run_cases(const struct suite *s, const struct suite_run *r,
		      case_fn fn, void *ctx)
{
	const struct headline *h = &r->hl;
	struct lab_case run = { .result = "pass" };
	char base[96], sb[160], cb[200], why[192];
	int i, j;

	snprintf(base, sizeof(base), "%s-%s", r->cmd->name, r->load);
	clean_id(run.id, sizeof(run.id), base);
	if (!r->ran) {
		run.result = "skip";
		snprintf(run.why, sizeof(run.why), "not run: the suite was interrupted");
	} else if (r->error[0] || !h->valid) {
		run.result = "fail";
		snprintf(run.why, sizeof(run.why), "%s",
			 r->error[0] ? r->error : "no result (killed)");
	} else if (strcmp(h->status, "complete") != 0) {
		run.result = "fail";
		snprintf(run.why, sizeof(run.why), "run %s", h->status);
	}
	for (j = 0; run.result[0] == 'p' && j < h->nseries; j++)
		if (suite_over_threshold(&h->series[j], s->max_latency_ns)) {
			run.result = "fail";
			snprintf(run.why, sizeof(run.why),
				 "%s max exceeded --max-latency", h->series[j].name);
		}
	fn(ctx, &run);
	if (!r->ran || !h->valid)
		return;
	for (j = 0; j < h->nseries; j++) {
		const struct hl_series *se = &h->series[j];
		bool over = suite_over_threshold(se, s->max_latency_ns);
		char lim[32], cb2[32];

		snprintf(sb, sizeof(sb), "%s-%s", base, se->name);
		snprintf(why, sizeof(why), "max %s us > --max-latency %s us",
			 fmt_us3(cb, se->max_ns),
			 fmt_us3(lim, s->max_latency_ns));
		if (se->has_stats) {
			emit_us(fn, ctx, sb, "max", se->max_ns, over, why);
			emit_us(fn, ctx, sb, "avg", (int64_t)se->avg_ns, false, "");
			emit_us(fn, ctx, sb, "min", se->min_ns, false, "");
			if (se->has_p999 && se->samples >= 1000)
				emit_us(fn, ctx, sb, "p99.9", se->p999_ns,
					false, "");
		}
		emit_count(fn, ctx, sb, se->miss_name[0] ? se->miss_name :
			   "misses", se->misses);
		for (i = 0; h->nsamplers > 1 && i < h->nsamplers; i++) {
			const struct hl_sampler *sm = &h->samplers[i];
			int k;

			for (k = 0; k < sm->nseries; k++) {
				const struct hl_series *x = &sm->series[k];

				if (strcmp(x->name, se->name) != 0 || !x->has_stats ||
				    sm->cpu < 0)
					continue;
				snprintf(cb, sizeof(cb), "%s-cpu%d", sb, sm->cpu);
				/* as the run's max: over --max-latency fails */
				over = s->max_latency_ns >= 0 && se->threshold &&
				       x->max_ns > s->max_latency_ns;
				snprintf(why, sizeof(why),
					 "max %s us > --max-latency %s us",
					 fmt_us3(cb2, x->max_ns),
					 fmt_us3(lim, s->max_latency_ns));
				emit_us(fn, ctx, cb, "max", x->max_ns, over, why);
				emit_us(fn, ctx, cb, "avg", (int64_t)x->avg_ns,
					false, "");
			}
		}
	}
}

/* Every case: each run's, then those of --gate (TEST-LOAD-SERIES-gate-
 * METRIC: fail for a metric worse than the baseline, skip for a weak or
 * n/a verdict, with the reason). */
static void all_cases(const struct suite *s, case_fn fn, void *ctx)
{
	int i;

	for (i = 0; i < s->nruns; i++)
		run_cases(s, &s->runs[i], fn, ctx);
	for (i = 0; i < s->ngate_cases; i++) {
		const struct suite_gate_case *g = &s->gate_cases[i];
		struct lab_case c = { .result = g->result,
				      .has_value = g->units != NULL,
				      .units = g->units };

		clean_id(c.id, sizeof(c.id), g->id);
		snprintf(c.value, sizeof(c.value), "%s", g->value);
		snprintf(c.why, sizeof(c.why), "%s", g->why);
		fn(ctx, &c);
	}
}

/* ---- LAVA ---------------------------------------------------------------- */

/* lava-test-case on PATH (inside a LAVA test shell)? */
static bool have_lava_helper(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200], *tok, *save;

	if (!path)
		return false;
	snprintf(dir, sizeof(dir), "%s", path);
	for (tok = strtok_r(dir, ":", &save); tok;
	     tok = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/lava-test-case", *tok ? tok : ".");
		if (access(file, X_OK) == 0)
			return true;
	}
	return false;
}

struct lava_ctx {
	FILE *f;
	bool helper;
	int failed;		/* lava-test-case calls that failed */
};

static void lava_case(void *ctx, const struct lab_case *c)
{
	struct lava_ctx *l = ctx;
	const char *av[10];
	int n = 0, st;
	pid_t pid;

	if (!l->helper) {
		fprintf(l->f, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s",
			c->id, c->result);
		if (c->has_value)
			fprintf(l->f, " MEASUREMENT=%s UNITS=%s", c->value,
				c->units);
		fprintf(l->f, ">\n");
		return;
	}
	av[n++] = "lava-test-case";
	av[n++] = c->id;
	av[n++] = "--result";
	av[n++] = c->result;
	if (c->has_value) {
		av[n++] = "--measurement";
		av[n++] = c->value;
		av[n++] = "--units";
		av[n++] = c->units;
	}
	av[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execvp(av[0], (char *const *)av);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		l->failed++;
}

int suite_lava(const struct suite *s, FILE *f)
{
	struct lava_ctx l = { f, have_lava_helper(), 0 };

	all_cases(s, lava_case, &l);
	fflush(f);
	if (l.failed) {
		log_error("--lava: lava-test-case failed %d time(s)", l.failed);
		return -1;
	}
	return 0;
}

/* ---- JUnit ----------------------------------------------------------------- */

struct junit_ctx {
	FILE *f;
	int tests, failures, skipped;
	bool count_only;
};

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '<')
			fputs("&lt;", f);
		else if (ch == '>')
			fputs("&gt;", f);
		else if (ch == '&')
			fputs("&amp;", f);
		else if (ch == '"')
			fputs("&quot;", f);
		else if (ch < 0x20 && ch != '\t' && ch != '\n')
			fputc('?', f);	/* not allowed in XML 1.0 */
		else
			fputc(ch, f);
	}
}

static void junit_case(void *ctx, const struct lab_case *c)
{
	struct junit_ctx *j = ctx;

	if (j->count_only) {
		j->tests++;
		j->failures += c->result[0] == 'f';
		j->skipped += c->result[0] == 's';
		return;
	}
	fputs("    <testcase classname=\"rtlat.suite\" name=\"", j->f);
	xml_text(j->f, c->id);
	fputs("\" time=\"0\">\n", j->f);
	if (c->result[0] == 'f') {
		fputs("      <failure message=\"", j->f);
		xml_text(j->f, c->why);
		fputs("\"/>\n", j->f);
	} else if (c->result[0] == 's') {
		fputs("      <skipped message=\"", j->f);
		xml_text(j->f, c->why);
		fputs("\"/>\n", j->f);
	}
	/* the measurement where every JUnit reader keeps it */
	if (c->has_value)
		fprintf(j->f, "      <system-out>measurement %s %s</system-out>\n",
			c->value, c->units);
	fputs("    </testcase>\n", j->f);
}

int suite_junit(const struct suite *s, const char *path)
{
	struct junit_ctx j = { .count_only = true };
	struct atomic_file af;
	char err[PATH_MAX + 128], when[32];

	all_cases(s, junit_case, &j);
	j.f = atomic_open(&af, path, err, sizeof(err));
	if (!j.f) {
		log_error("--junit: %s", err);
		return -1;
	}
	fprintf(j.f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(j.f, "<testsuites name=\"rtlat suite\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
		j.tests, j.failures, j.skipped);
	fprintf(j.f, "  <testsuite name=\"");
	xml_text(j.f, s->label);
	fmt_utc(when, s->wall_start);
	when[strcspn(when, ".Z")] = '\0';	/* JUnit: no fraction, no zone */
	fprintf(j.f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" timestamp=\"%s\" time=\"%.3f\">\n",
		j.tests, j.failures, j.skipped, when,
		(double)(s->wall_end - s->wall_start) / 1e9);
	j.count_only = false;
	all_cases(s, junit_case, &j);
	fprintf(j.f, "  </testsuite>\n</testsuites>\n");
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		log_error("--junit: %s", err);
		return -1;
	}
	return 0;
}
