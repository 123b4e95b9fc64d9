// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results for board farms and CI (lab.h): LAVA test cases (--lava), JUnit
 * XML (--junit FILE) and KCIDB JSON (--kcidb FILE), one test case per
 * figure that matters, from
 * the runs' headlines (docs/suite.md, "Lab output"); rtlat suite and every
 * single test write them.
 *
 * A case is RUN (the run: pass or fail), then per series of the run
 * RUN-SERIES-{max,avg,min,p99.9,MISSES}, per sampler of a run with several
 * RUN-SERIES-cpuN-{max,avg} (threadI when several samplers share a CPU or
 * one is not pinned) and per load RUN-load-NAME (its rate; fails when the
 * load failed); RUN is TEST-LOAD ("latency-none", "latency-cpu_io"). A
 * test whose table has columns of its own figures (suite_spec_figures():
 * noise, cruncher) has of its series the cases of its columns only, then
 * RUN-NAME per figure column (noise: gap max, per CPU, p99.9, noise_pct,
 * events).
 * Times in us (three decimals), misses as counts. A max (and the run)
 * fails when it exceeded --max-latency; a run that did not end complete
 * (an error, a --break, interrupted) or did not run (the suite was
 * interrupted before it) fails; every other figure passes: it is a
 * measurement.
 *
 * LAVA: inside a LAVA test shell "lava-test-case" is on PATH and is run for
 * each case (LAVA's own helper records it); elsewhere the line it would
 * print, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=... RESULT=... MEASUREMENT=...
 * UNITS=...>", goes to stdout, which LAVA reads from the console as well.
 * Test case ids and units keep [A-Za-z0-9_.-/] only (others become '_').
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/lab.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/outfile.h"
#include "system/rtsetup.h"
#include "engine/suitecol.h"
#include "util/timeutil.h"
#include "loads/load.h"

static void clean_id(char *dst, size_t len, const char *src, bool slash)
{
	size_t i;

	snprintf(dst, len, "%s", src);
	for (i = 0; dst[i]; i++)
		if (!((dst[i] >= 'a' && dst[i] <= 'z') ||
		      (dst[i] >= 'A' && dst[i] <= 'Z') ||
		      (dst[i] >= '0' && dst[i] <= '9') ||
		      dst[i] == '_' || dst[i] == '.' || dst[i] == '-' ||
		      (slash && dst[i] == '/')))
			dst[i] = '_';
}

void lab_case_id(char *dst, size_t len, const char *src)
{
	clean_id(dst, len, src, false);
}

static void set_id(struct lab_case *c, const char *base, const char *what)
{
	char id[sizeof(c->id) + 64];

	snprintf(id, sizeof(id), "%s-%s", base, what);
	clean_id(c->id, sizeof(c->id), id, false);
}

/* @judged: a threshold applies (KCIDB PASS or FAIL, else DONE). */
static void emit_us(lab_case_fn fn, void *ctx, const char *base,
		    const char *series, const char *what, int64_t ns,
		    bool judged, bool fail, const char *why)
{
	struct lab_case c = { .result = fail ? "fail" : "pass",
			      .has_value = true, .units = "us",
			      .series = series,
			      .status = fail ? "FAIL" : judged ? "PASS" : "DONE" };
	char sb[160];

	snprintf(sb, sizeof(sb), "%s-%s", base, series);
	set_id(&c, sb, what);
	snprintf(c.what, sizeof(c.what), "%s", what);
	fmt_us3(c.value, ns);
	snprintf(c.why, sizeof(c.why), "%s", fail ? why : "");
	fn(ctx, &c);
}

static void emit_count(lab_case_fn fn, void *ctx, const char *base,
		       const char *series, const char *what, uint64_t n)
{
	struct lab_case c = { .result = "pass", .has_value = true,
			      .units = "count", .series = series,
			      .status = "DONE" };
	char sb[160];

	snprintf(sb, sizeof(sb), "%s-%s", base, series);
	set_id(&c, sb, what);
	snprintf(c.what, sizeof(c.what), "%s", what);
	snprintf(c.value, sizeof(c.value), "%llu", (unsigned long long)n);
	fn(ctx, &c);
}

static bool over(const struct hl_series *se, int64_t max_ns)
{
	return max_ns >= 0 && se->threshold && se->has_stats &&
	       se->max_ns > max_ns;
}

/* "cpu1" for the only sampler on CPU 1, else "thread3" (sampler 3). */
static void sampler_name(const struct headline *h, int i, char *buf,
			 size_t len)
{
	int j, cpu = h->samplers[i].cpu;
	bool alone = cpu >= 0;

	for (j = 0; alone && j < h->nsamplers; j++)
		if (j != i && h->samplers[j].cpu == cpu)
			alone = false;
	if (alone)
		snprintf(buf, len, "cpu%d", cpu);
	else
		snprintf(buf, len, "thread%d", i);
}

/*
 * Has series @se of @h a case of statistic @st? Every statistic, unless
 * the test's table has its own columns (@sp, suite_spec_figures(): noise's
 * max gap, noise %, events): then those of its columns of @se (the first
 * series for a column that names none).
 */
static bool has_case(const struct suite_spec *sp, const struct headline *h,
		     const struct hl_series *se, enum suite_stat st)
{
	const struct suite_col *c;

	if (!sp || !suite_spec_figures(sp))
		return true;
	for (c = sp->cols; c->stat != SUITE_END; c++)
		if (c->stat == st && (c->name ? !strcmp(c->name, se->name) :
				      se == &h->series[0]))
			return true;
	return false;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);

	return n > k && !strcmp(s + n - k, end);
}

/* The cases of the figures the columns of @sp show (suite_spec_figures():
 * noise's noise_pct, events), RUN-NAME, from the headline's param lines:
 * a % (SUITE_PERCENT, a NAME_pct) in percent, a NAME_ns in us, others
 * as counts; a CPU (noise_cpu)
 * says where, not how much: no case. Measurements: pass. */
static void figure_cases(const struct lab_run *r, const struct suite_spec *sp,
			 lab_case_fn fn, void *ctx)
{
	const struct suite_col *c;

	for (c = sp && suite_spec_figures(sp) ? sp->cols : NULL;
	     c && c->stat != SUITE_END; c++) {
		struct lab_case k = { .result = "pass", .has_value = true,
				      .status = "DONE" };
		const char *v = c->name && suite_col_figure(c) &&
				c->stat != SUITE_CPU ?
				headline_param(r->h, c->name) : NULL;
		char *end;
		double x = v ? strtod(v, &end) : 0;

		if (!v || end == v || *end)
			continue;	/* not known, or no number */
		/* a NAME_ns is NAME in us */
		snprintf(k.what, sizeof(k.what), "%.*s",
			 (int)strlen(c->name) - (suite_col_time(c) ? 3 : 0),
			 c->name);
		set_id(&k, r->name, k.what);
		if (c->stat == SUITE_PERCENT) {
			snprintf(k.value, sizeof(k.value), "%.4f", x);
			snprintf(k.units, sizeof(k.units), "percent");
		} else if (ends_with(c->name, "_pct")) {
			snprintf(k.value, sizeof(k.value), "%s", v);
			snprintf(k.units, sizeof(k.units), "percent");
		} else if (suite_col_time(c) && x >= 0 && x < 9e18) {
			fmt_us3(k.value, (int64_t)x);
			snprintf(k.units, sizeof(k.units), "us");
		} else {
			snprintf(k.value, sizeof(k.value), "%s", v);
			snprintf(k.units, sizeof(k.units), "count");
		}
		fn(ctx, &k);
	}
}

static void series_cases(const struct lab_run *r, const struct hl_series *se,
			 lab_case_fn fn, void *ctx)
{
	const struct headline *h = r->h;
	const struct suite_spec *sp = cmd_spec_of(r->test);
	int64_t lim_ns = r->max_latency_ns;
	char why[192], a[32], b[32], what[48], who[24];
	bool max = has_case(sp, h, se, SUITE_MAX);
	bool avg = has_case(sp, h, se, SUITE_AVG);
	int i, k;

	bool judged = lim_ns >= 0 && se->threshold;

	snprintf(why, sizeof(why), "max %s us > --max-latency %s us",
		 fmt_us3(a, se->max_ns), fmt_us3(b, lim_ns));
	if (se->has_stats) {
		if (max)
			emit_us(fn, ctx, r->name, se->name, "max", se->max_ns,
				judged, over(se, lim_ns), why);
		if (avg)
			emit_us(fn, ctx, r->name, se->name, "avg",
				(int64_t)se->avg_ns, false, false, "");
		if (has_case(sp, h, se, SUITE_MIN))
			emit_us(fn, ctx, r->name, se->name, "min", se->min_ns,
				false, false, "");
		if (se->has_p999 && se->samples >= 1000 &&
		    has_case(sp, h, se, SUITE_P999))
			emit_us(fn, ctx, r->name, se->name, "p99.9", se->p999_ns,
				false, false, "");
	}
	if (has_case(sp, h, se, SUITE_MISSES))
		emit_count(fn, ctx, r->name, se->name,
			   se->miss_name[0] ? se->miss_name : "misses",
			   se->misses);
	for (i = 0; h->nsamplers > 1 && i < h->nsamplers; i++) {
		const struct hl_sampler *sm = &h->samplers[i];

		for (k = 0; k < sm->nseries; k++) {
			const struct hl_series *x = &sm->series[k];

			if (strcmp(x->name, se->name) != 0 || !x->has_stats)
				continue;
			sampler_name(h, i, who, sizeof(who));
			/* as the run's max: over --max-latency fails */
			snprintf(why, sizeof(why),
				 "max %s us > --max-latency %s us",
				 fmt_us3(a, x->max_ns), fmt_us3(b, lim_ns));
			snprintf(what, sizeof(what), "%s-max", who);
			if (max)
				emit_us(fn, ctx, r->name, se->name, what,
					x->max_ns, judged,
					judged && x->max_ns > lim_ns, why);
			snprintf(what, sizeof(what), "%s-avg", who);
			if (avg)
				emit_us(fn, ctx, r->name, se->name, what,
					(int64_t)x->avg_ns, false, false, "");
		}
	}
}

/* What each load achieved: its rate (a command: how long it ran, s); a
 * load that failed or ended early fails (the "with load" figures would
 * be a lie). */
static void load_cases(const struct lab_run *r, lab_case_fn fn, void *ctx)
{
	const struct headline *h = r->h;
	int i;

	for (i = 0; i < h->nloads; i++) {
		const struct load_result *l = &h->loads[i];
		struct lab_case c = { .result = "pass", .has_value = true,
				      .status = "DONE" };
		char what[48];

		snprintf(what, sizeof(what), "load-%s", l->name);
		set_id(&c, r->name, what);
		snprintf(c.what, sizeof(c.what), "%s", what);
		if (l->is_command) {
			snprintf(c.value, sizeof(c.value), "%.3f",
				 (double)l->ran_ns / 1e9);
			snprintf(c.units, sizeof(c.units), "s");
		} else {
			snprintf(c.value, sizeof(c.value), "%.3f", l->rate);
			clean_id(c.units, sizeof(c.units),
				 l->unit[0] ? l->unit : "ops/s", true);
		}
		if (load_problem(l, c.why, sizeof(c.why)) != LOAD_OK) {
			c.result = "fail";
			c.status = "ERROR";	/* the run's figures are not */
		} else
			c.why[0] = '\0';
		fn(ctx, &c);
	}
}

void lab_run_cases(const struct lab_run *r, lab_case_fn fn, void *ctx)
{
	const struct headline *h = r->h;
	struct lab_case run = { .result = "pass", .status = "PASS" };
	int j;

	clean_id(run.id, sizeof(run.id), r->name, false);
	if (!r->ran) {
		/* the suite was interrupted before it (or could not start
		 * it): a qualification not done is no pass, nor a skip */
		run.result = "fail";
		run.status = "ERROR";
		snprintf(run.why, sizeof(run.why), "%s",
			 r->error[0] ? r->error : "not run");
	} else if (r->error[0] || !h->valid) {
		run.result = "fail";
		run.status = "ERROR";
		snprintf(run.why, sizeof(run.why), "%s",
			 r->error[0] ? r->error : "no result (killed)");
	} else if (strcmp(h->status, "complete") != 0) {
		run.result = "fail";
		/* a --break is a verdict on the system; an error or a
		 * signal left it unknown */
		run.status = strcmp(h->status, "break") == 0 ? "FAIL" : "ERROR";
		snprintf(run.why, sizeof(run.why), "run %s%s%s", h->status,
			 h->error[0] ? ": " : "", h->error);
	}
	for (j = 0; run.result[0] == 'p' && j < h->nseries; j++)
		if (over(&h->series[j], r->max_latency_ns)) {
			run.result = "fail";
			run.status = "FAIL";
			snprintf(run.why, sizeof(run.why),
				 "%s max exceeded --max-latency", h->series[j].name);
		}
	/* a threshold of the test's own (irq: events lost, --max-lost) */
	if (run.result[0] == 'p' && h->threshold_exceeded) {
		run.result = "fail";
		run.status = "FAIL";
		snprintf(run.why, sizeof(run.why), "threshold exceeded");
		for (j = 0; j < h->nwarnings; j++)
			if (!strncmp(h->warnings[j], "lost events:", 12)) {
				snprintf(run.why, sizeof(run.why), "%s",
					 h->warnings[j]);
				break;
			}
	}
	fn(ctx, &run);
	if (r->ran && h->valid) {
		for (j = 0; j < h->nseries; j++)
			series_cases(r, &h->series[j], fn, ctx);
		figure_cases(r, cmd_spec_of(r->test), fn, ctx);
		load_cases(r, fn, ctx);
	}
	for (j = 0; j < r->nextra; j++)
		fn(ctx, &r->extra[j]);
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

/* A lava-test-case call gets this long (it prints a line and records a
 * file: milliseconds), then it is killed; after SIGTERM, this long before
 * SIGKILL. */
#define LAVA_CALL_NS	(10 * NSEC_PER_SEC)
#define LAVA_KILL_NS	(1 * NSEC_PER_SEC)

struct lava_ctx {
	FILE *f;
	bool helper;
	int failed;		/* lava-test-case calls that failed */
	int cases, unreported;	/* cases seen; not reported after a signal */
	int sig;		/* the stop signal that ended the reporting */
	sigset_t stop;		/* SIGINT, SIGTERM, SIGHUP (stop_sigset()) */
};

/* A stop signal pending: taken into l->sig. */
static bool lava_stopped(struct lava_ctx *l)
{
	struct timespec zero = { 0, 0 };
	int sig;

	if (!l->sig) {
		sig = sigtimedwait(&l->stop, NULL, &zero);
		if (sig > 0)
			l->sig = sig;
	}
	return l->sig != 0;
}

/*
 * Run lava-test-case @av in its own process group, at most LAVA_CALL_NS,
 * and reap it. A stop signal meanwhile (kept in l->sig) or the bound
 * kills its group: SIGTERM, SIGKILL LAVA_KILL_NS later. Returns 0 when it
 * exited 0, 1 when it ran out of time (killed), -1 otherwise.
 */
static int lava_call(struct lava_ctx *l, const char *const *av)
{
	int64_t now, deadline, kill_at = 0;
	sigset_t wait_set = l->stop, old;
	bool late = false;
	pid_t pid;
	int st = -1;		/* not reaped: a failure */

	sigaddset(&wait_set, SIGCHLD);	/* its end wakes the wait below */
	sigprocmask(SIG_BLOCK, &wait_set, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int sig;

		setpgid(0, 0);
		for (sig = 1; sig < NSIG; sig++)
			if (sigismember(&wait_set, sig) || sig == SIGPIPE)
				signal(sig, SIG_DFL);
		sigprocmask(SIG_UNBLOCK, &wait_set, NULL);
		execvp(av[0], (char *const *)av);
		_exit(127);
	}
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	setpgid(pid, pid);
	deadline = clock_now_ns(CLOCK_MONOTONIC) + LAVA_CALL_NS;
	for (;;) {
		struct timespec ts;
		int64_t next;
		pid_t w = waitpid(pid, &st, WNOHANG);
		int sig;

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			st = -1;
			break;
		}
		now = clock_now_ns(CLOCK_MONOTONIC);
		if (!kill_at && (l->sig || now >= deadline)) {
			late = !l->sig;
			kill(-pid, SIGTERM);
			kill_at = now + LAVA_KILL_NS;
		} else if (kill_at > 0 && now >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = -1;		/* it cannot outlive SIGKILL */
		}
		next = kill_at > 0 ? kill_at : kill_at < 0 ? now + NSEC_PER_SEC :
		       deadline;
		ts = ns_to_ts(next > now ? next - now : 0);
		sig = sigtimedwait(&wait_set, NULL, &ts);
		if (sig > 0 && sig != SIGCHLD && !l->sig)
			l->sig = sig;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (late)
		return 1;
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static void lava_case(void *ctx, const struct lab_case *c)
{
	struct lava_ctx *l = ctx;
	const char *av[10];
	int n = 0;

	l->cases++;
	if (lava_stopped(l)) {
		l->unreported++;
		return;
	}
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
	switch (lava_call(l, av)) {
	case 0:
		return;
	case 1:
		/* a helper that hangs once hangs again: the rest as the
		 * lines it would print, which LAVA reads from the console */
		log_error("--lava: lava-test-case %s did not end within %d s: killed; the remaining cases go to stdout as <LAVA_SIGNAL_TESTCASE> lines",
			  c->id, (int)(LAVA_CALL_NS / NSEC_PER_SEC));
		l->helper = false;
		break;
	}
	if (l->sig)
		l->unreported++;	/* killed by the stop */
	else
		l->failed++;
}

int lab_lava(const struct lab_run *runs, int n, FILE *f)
{
	struct lava_ctx l = { .f = f, .helper = have_lava_helper() };
	sigset_t old;
	int i;

	/* the stop signals are ours while reporting (a measuring command
	 * blocks them already): they end it, they do not kill rtlat */
	stop_sigset(&l.stop);
	sigprocmask(SIG_BLOCK, &l.stop, &old);
	for (i = 0; i < n; i++)
		lab_run_cases(&runs[i], lava_case, &l);
	fflush(f);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (l.sig) {
		log_error("--lava: interrupted by signal %d (%s): %d of %d case(s) not reported",
			  l.sig, strsignal(l.sig), l.unreported, l.cases);
		return -1;
	}
	if (l.failed) {
		log_error("--lava: lava-test-case failed %d time(s)", l.failed);
		return -1;
	}
	return 0;
}

/* ---- JUnit ----------------------------------------------------------------- */

struct junit_ctx {
	FILE *f;
	const char *classname;
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
	fputs("    <testcase classname=\"", j->f);
	xml_text(j->f, j->classname);
	fputs("\" name=\"", j->f);
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
	if (c->has_value) {
		fprintf(j->f, "      <system-out>measurement %s ", c->value);
		xml_text(j->f, c->units);
		fputs("</system-out>\n", j->f);
	}
	fputs("    </testcase>\n", j->f);
}

int lab_junit(const struct lab_run *runs, int n, const char *path,
	      const char *suite, const char *classname, int64_t wall_start,
	      int64_t wall_end)
{
	struct junit_ctx j = { .classname = classname, .count_only = true };
	struct atomic_file af;
	char err[PATH_MAX + 128], when[32];
	int i;

	for (i = 0; i < n; i++)
		lab_run_cases(&runs[i], junit_case, &j);
	j.f = atomic_open(&af, path, err, sizeof(err));
	if (!j.f) {
		log_error("--junit: %s", err);
		return -1;
	}
	fprintf(j.f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(j.f, "<testsuites name=\"rtlat\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n",
		j.tests, j.failures, j.skipped);
	fprintf(j.f, "  <testsuite name=\"");
	xml_text(j.f, suite);
	fmt_utc(when, wall_start);
	when[strcspn(when, ".Z")] = '\0';	/* JUnit: no fraction, no zone */
	fprintf(j.f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" timestamp=\"%s\" time=\"%.3f\">\n",
		j.tests, j.failures, j.skipped, when,
		(double)(wall_end - wall_start) / 1e9);
	j.count_only = false;
	for (i = 0; i < n; i++)
		lab_run_cases(&runs[i], junit_case, &j);
	fprintf(j.f, "  </testsuite>\n</testsuites>\n");
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		log_error("--junit: %s", err);
		return -1;
	}
	return 0;
}

/* ---- KCIDB ------------------------------------------------------------------ */

bool lab_kcidb_build_ok(const char *s)
{
	const char *colon = strchr(s, ':');
	char origin[64];

	if (!colon || (size_t)(colon - s) >= sizeof(origin))
		return false;
	snprintf(origin, sizeof(origin), "%.*s", (int)(colon - s), s);
	return lab_kcidb_origin_ok(origin);
}

bool lab_kcidb_origin_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return false;
	return true;
}

struct kcidb_ctx {
	struct jw w;
	const struct lab_kcidb *k;
	const struct lab_run *r;
	char build_id[192];
	char id_base[256];	/* "ORIGIN:HOST-20261201T140452Z" */
	char run_path[128];	/* "rtlat.latency.none" */
	char start[40];		/* RFC 3339, "" when not known */
};

/* A node of a KCIDB path: no dot (they separate nodes), no NUL. */
static void path_node(char *dst, size_t len, const char *src)
{
	size_t i;

	clean_id(dst, len, src, false);
	for (i = 0; dst[i]; i++)
		if (dst[i] == '.')
			dst[i] = '_';
}

static void kcidb_case(void *ctx, const struct lab_case *c)
{
	struct kcidb_ctx *x = ctx;
	char path[256], node[64], id[512], what[48], *dash;
	double v;

	if (c->gtest[0]) {
		char t[64], l[64];

		path_node(t, sizeof(t), c->gtest);
		path_node(l, sizeof(l), c->gload[0] ? c->gload : "none");
		snprintf(path, sizeof(path), "rtlat.%s.%s", t, l);
	} else {
		snprintf(path, sizeof(path), "%s", x->run_path);
	}
	if (c->what[0]) {
		size_t n = strlen(path);

		if (c->series) {
			path_node(node, sizeof(node), c->series);
			n += (size_t)snprintf(path + n, sizeof(path) - n, ".%s",
					      node);
		}
		/* "cpu1-max" -> cpu1.max, "load-cpu" -> load.cpu, "p99.9"
		 * -> p99_9 */
		path_node(what, sizeof(what), c->what);
		dash = strchr(what, '-');
		if (dash)
			*dash = '.';
		snprintf(path + n, sizeof(path) - n, ".%s", what);
	}
	snprintf(id, sizeof(id), "%s.%s", x->id_base, path);
	jw_obj_begin(&x->w, NULL);
	jw_str(&x->w, "id", id);
	jw_str(&x->w, "build_id", x->build_id);
	jw_str(&x->w, "origin", x->k->origin);
	jw_str(&x->w, "path", path);
	jw_str(&x->w, "status", c->status ? c->status : "DONE");
	if (c->has_value) {
		v = strtod(c->value, NULL);
		jw_obj_begin_inline(&x->w, "number");
		if (!strcmp(c->units, "us")) {	/* in seconds, shown in us */
			jw_double(&x->w, "value", v / 1e6, 9);
			jw_str(&x->w, "unit", "s");
			jw_str(&x->w, "prefix", "metric");
		} else if (!strcmp(c->units, "count")) {
			jw_double(&x->w, "value", v, 0);	/* dimensionless */
		} else {
			jw_double(&x->w, "value", v, 3);
			jw_str(&x->w, "unit", c->units);
			jw_str(&x->w, "prefix", "metric");
		}
		jw_obj_end(&x->w);
	}
	if (c->why[0])
		jw_str(&x->w, "comment", c->why);
	if (x->start[0])
		jw_str(&x->w, "start_time", x->start);
	if (x->r->h->valid && x->r->h->duration_ns > 0)
		jw_double(&x->w, "duration",
			  (double)x->r->h->duration_ns / 1e9, 3);
	jw_obj_begin(&x->w, "environment");
	jw_str(&x->w, "comment", x->k->board && x->k->board[0] ?
	       x->k->board : x->k->host);
	jw_obj_begin(&x->w, "misc");
	jw_str(&x->w, "host", x->k->host);
	jw_str(&x->w, "board", x->k->board);
	jw_str(&x->w, "kernel", x->k->kernel);
	jw_obj_end(&x->w);
	jw_obj_end(&x->w);
	jw_obj_begin(&x->w, "misc");
	jw_str(&x->w, "rtlat_case", c->id);	/* the LAVA/JUnit id */
	jw_str(&x->w, "result", c->result);
	if (c->has_value) {
		jw_number_text(&x->w, "measurement", c->value);
		jw_str(&x->w, "units", c->units);
	}
	jw_obj_end(&x->w);
	jw_obj_end(&x->w);
}

int lab_kcidb(const struct lab_run *runs, int n, const char *path,
	      const struct lab_kcidb *k)
{
	struct kcidb_ctx *x = calloc(1, sizeof(*x));
	struct atomic_file af;
	char err[PATH_MAX + 128], host[64], when[40];
	int i, j;

	if (!x) {
		log_error("out of memory");
		return -1;
	}
	x->k = k;
	if (k->build_id)
		snprintf(x->build_id, sizeof(x->build_id), "%s", k->build_id);
	else
		snprintf(x->build_id, sizeof(x->build_id), "%s:%s", k->origin,
			 k->kernel && k->kernel[0] ? k->kernel : "unknown");
	x->w.f = atomic_open(&af, path, err, sizeof(err));
	if (!x->w.f) {
		log_error("--kcidb: %s", err);
		free(x);
		return -1;
	}
	jw_init(&x->w, x->w.f);
	jw_obj_begin(&x->w, NULL);
	jw_obj_begin_inline(&x->w, "version");
	jw_int(&x->w, "major", 5);
	jw_int(&x->w, "minor", 3);
	jw_obj_end(&x->w);
	jw_arr_begin(&x->w, "tests");
	for (i = 0; i < n; i++) {
		const struct lab_run *r = &runs[i];
		char t[64], l[64];

		x->r = r;
		clean_id(host, sizeof(host), k->host && k->host[0] ? k->host :
			 "host", false);
		x->start[0] = '\0';
		if (r->wall_start > 0)
			fmt_utc(x->start, r->wall_start);
		/* "20261201T140452Z" */
		fmt_utc(when, k->started);
		when[strcspn(when, ".Z")] = '\0';
		for (j = 0; when[j]; j++)
			if (when[j] == '-' || when[j] == ':')
				memmove(when + j, when + j + 1, strlen(when + j));
		snprintf(x->id_base, sizeof(x->id_base), "%s:%s-%sZ-%d",
			 k->origin, host, when, (int)getpid());
		path_node(t, sizeof(t), r->test);
		path_node(l, sizeof(l), r->load ? r->load : "none");
		snprintf(x->run_path, sizeof(x->run_path), "rtlat.%s.%s", t, l);
		lab_run_cases(r, kcidb_case, x);
	}
	jw_arr_end(&x->w);
	jw_obj_end(&x->w);
	if (!jw_finish(&x->w)) {
		atomic_abort(&af);
		log_error("--kcidb: cannot write %s", path);
		free(x);
		return -1;
	}
	free(x);
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		log_error("--kcidb: %s", err);
		return -1;
	}
	return 0;
}

/* ---- the options of a single test ---------------------------------------- */


const struct optdesc lab_optdescs[] = {
	{ "lava", 0, no_argument, NULL,
	  "report the run's figures as LAVA test cases at\n"
	  "the end (lava-test-case, else <LAVA_SIGNAL_TESTCASE>\n"
	  "lines on stdout)", LAB_OPT_LAVA },
	{ "junit", 0, required_argument, "FILE",
	  "write the same test cases as JUnit XML to FILE", LAB_OPT_JUNIT },
	LAB_KCIDB_OPTDESCS(LAB_OPT_KCIDB, LAB_OPT_KCIDB_ORIGIN, LAB_OPT_KCIDB_BUILD),
	OPT_END
};

int lab_opt(struct lab_opts *l, const struct optdesc *d, const char *arg)
{
	switch (d->key) {
	case LAB_OPT_LAVA:
		l->lava = true;
		return 0;
	case LAB_OPT_JUNIT:
		if (!*arg)
			return opt_bad_value(d, arg, "expected a file name");
		l->junit = arg;
		return 0;
	case LAB_OPT_KCIDB:
		if (!*arg)
			return opt_bad_value(d, arg, "expected a file name");
		l->kcidb = arg;
		return 0;
	case LAB_OPT_KCIDB_ORIGIN:
		if (!lab_kcidb_origin_ok(arg))
			return opt_bad_value(d, arg, "expected a KCIDB origin: a-z, 0-9 and _");
		l->kcidb_origin = arg;
		return 0;
	case LAB_OPT_KCIDB_BUILD:
		if (!lab_kcidb_build_ok(arg))
			return opt_bad_value(d, arg, "expected a KCIDB build id, ORIGIN:ID");
		l->kcidb_build = arg;
		return 0;
	}
	return 1;
}
