// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat suite: the whole qualification in one command. Runs every suite
 * test (commands with a .suite spec) under every load state, each as a
 * child process of this binary with its own result file, then prints the
 * board header and one table per test and load state in the style of the
 * tables users mail around, and writes suite.json, report.txt and a system
 * snapshot into the output directory.
 *
 * The figures of each run come from its headline (--headline-fd, read
 * through a pipe; see docs/suite.md): the target needs no JSON parser.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd/suite.h"
#include "engine/children.h"
#include "engine/engine.h"
#include "engine/helper.h"
#include "util/ini.h"
#include "engine/cobalt.h"
#include "util/label.h"
#include "util/log.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "system/rtsetup.h"
#include "system/syscheck.h"
#include "output/result.h"
#include "util/timeutil.h"
#include "loads/load.h"

#define DEFAULT_DURATION	(60 * NSEC_PER_SEC)
#define DEFAULT_WARMUP		NSEC_PER_SEC	/* the tests' default */
#define HEADLINE_MAX		((size_t)64 * 1024)
#define TICK_NS			(200 * NSEC_PER_MSEC)
#define STOP_TIMEOUT_NS		(30 * NSEC_PER_SEC)
#define RUN_MARGIN_NS		(30 * NSEC_PER_SEC)	/* at least */
#define REAP_TIMEOUT_NS		(10 * NSEC_PER_SEC)

static const struct optdesc suite_opts[] = {
	{ "duration", 'T', required_argument, "TIME",
	  "measured time of each run: 30 (s), 30s, 10m, 2h (default 60s)", 'T' },
	{ "tests", 0, required_argument, "LIST",
	  "tests to run, e.g. latency (default: every suite test)", OPT_SUITE_TESTS },
	{ "loads", 0, required_argument, "LIST",
	  "load states, comma-separated, each run once per test: none, a\n"
	  "load name or a '+' mix (cpu+io), cmd (only --load-cmd); no empty\n"
	  "element (default none,hell)", OPT_SUITE_LOADS },
	{ "label", 0, required_argument, "TEXT",
	  "row name of the tables, e.g. \"Ocotea iPipe 1.0-01\" (default:\n"
	  "the host name)", OPT_SUITE_LABEL },
	{ "out", 'o', required_argument, "DIR",
	  "output directory, not an existing file (default\n"
	  "rtlat-results/HOST-UTCTIME/)", OPT_SUITE_OUT },
	{ "max-latency", 0, required_argument, "US",
	  "exit with status 2 if any run's latency exceeded US", OPT_SUITE_MAXLAT },
	{ "lava", 0, no_argument, NULL,
	  "report each run's figures as LAVA test cases (lava-test-case,\n"
	  "else <LAVA_SIGNAL_TESTCASE> lines on stdout)", OPT_SUITE_LAVA },
	{ "junit", 0, required_argument, "FILE",
	  "write the same test cases as JUnit XML to FILE", OPT_SUITE_JUNIT },
	{ "gate", 0, no_argument, NULL,
	  "release gate: compare the fresh runs with the board's baseline\n"
	  "(--baseline or --db); exit 2 when a gated metric is worse than\n"
	  "the baseline beyond its limit (rtlat-compare(1)), 1 when a table\n"
	  "has no baseline of the same test, load and period", OPT_SUITE_GATE },
	{ "baseline", 0, required_argument, "PATH",
	  "with --gate: the baseline, a suite directory, result files'\n"
	  "directory or a result file", OPT_SUITE_BASELINE },
	{ "db", 0, required_argument, "FILE|URL",
	  "store the suite's runs in the history FILE (or postgresql://\n"
	  "URL) when it ends; with --gate and no --baseline the baseline is\n"
	  "this board's there (the runs marked with rtlat db baseline set)",
	  OPT_SUITE_DB },
	{ "margin", 0, required_argument, "PCT",
	  "with --gate: the smallest worsening that fails, and the limit\n"
	  "for a baseline of one run (default 10%)", OPT_SUITE_MARGIN },
	{ "gate-metrics", 0, required_argument, "LIST",
	  "with --gate: metrics gated, of min, avg, max, p99.9, misses\n"
	  "(default max,p99.9,avg,misses)", OPT_SUITE_GATE_METRICS },
	{ "cannot-tell", 0, required_argument, "WHAT",
	  "with --gate: what a metric the data cannot tell (too few\n"
	  "intervals, samples or runs) does to the gate: pass (said, its\n"
	  "case skipped) or fail (default pass)", OPT_SUITE_CANNOT_TELL },
	LAB_KCIDB_OPTDESCS(LAB_OPT_KCIDB, LAB_OPT_KCIDB_ORIGIN,
			   LAB_OPT_KCIDB_BUILD),
	{ "warmup", 0, required_argument, "TIME",
	  "warm-up of each run (default: the test's, 1s)", OPT_SUITE_WARMUP },
	{ "no-rt-throttling", 0, no_argument, NULL,
	  "set kernel.sched_rt_runtime_us to -1 for the suite (root), put\n"
	  "back on every exit", OPT_SUITE_NO_THROTTLING },
	OPT_END
};

/* The tests' options the suite takes as its own (suite_spec.forward),
 * built from the registry (forward_build()): --TEST-LONG, passed on to the
 * test's runs as --LONG; the test runs only when it is given. */
static struct optdesc fwd_opts[SUITE_MAX_FORWARD + 1];
static char fwd_names[SUITE_MAX_FORWARD][64];	/* "TEST-LONG" */
static char fwd_flags[SUITE_MAX_FORWARD][64];	/* "--LONG" */
static const struct rtlat_cmd *fwd_cmds[SUITE_MAX_FORWARD];

static const struct optdesc suite_opts_more[] = {
	{ "test-args", 0, required_argument, "TEST:ARGS",
	  "extra arguments for every run of TEST, e.g. \"latency:-p 200\"", OPT_SUITE_TEST_ARGS },
	{ "file", 'f', required_argument, "FILE",
	  "read settings from an INI suite file first (docs/suite.md);\n"
	  "the command line overrides it", 'f' },
	{ "quiet", 'q', no_argument, NULL,
	  "no progress on stderr", 'q' },
	LOAD_OPTDESCS_CMD,
	OPT_END
};

static const struct optdesc *const suite_tables[] = {
	suite_opts, fwd_opts, suite_opts_more, NULL,
};

/* The metavar of the option --@lng of test @t ("SRC"), or "VALUE". */
static const char *forward_metavar(const struct test_desc *t, const char *lng)
{
	const struct optdesc *const *tab;
	const struct optdesc *d;

	for (tab = t ? t->opts : NULL; tab && *tab; tab++)
		for (d = *tab; d->lng || d->shrt; d++)
			if (d->lng && !strcmp(d->lng, lng) && d->metavar)
				return d->metavar;
	return "VALUE";
}

/* fwd_opts from the suite tests' suite_spec.forward (once). */
static void forward_build(void)
{
	const struct suite_spec *sp;
	int i, n = 0;

	if (fwd_opts[0].lng)
		return;
	for (i = 0; rtlat_cmds[i] && n < SUITE_MAX_FORWARD; i++) {
		sp = rtlat_cmds[i]->suite;
		if (!sp || !sp->forward)
			continue;
		snprintf(fwd_names[n], sizeof(fwd_names[n]), "%s-%s",
			 rtlat_cmds[i]->name, sp->forward);
		snprintf(fwd_flags[n], sizeof(fwd_flags[n]), "--%s",
			 sp->forward);
		fwd_opts[n] = (struct optdesc){
			fwd_names[n], 0, required_argument,
			forward_metavar(rtlat_cmds[i]->test, sp->forward),
			sp->forward_help, OPT_SUITE_FORWARD + n,
		};
		fwd_cmds[n++] = rtlat_cmds[i];
	}
}

/* The index of test @c's forwarded option in fwd_opts, or -1. */
static int test_forward(const struct rtlat_cmd *c)
{
	int i;

	for (i = 0; i < SUITE_MAX_FORWARD && fwd_cmds[i]; i++)
		if (fwd_cmds[i] == c)
			return i;
	return -1;
}

/* Keep @p (allocated; NULL: out of memory) until the suite ends: options
 * point into it. Returns @p, or NULL after an error message. */
static char *keep(struct suite *s, char *p)
{
	char **n;

	if (!p) {
		log_error("out of memory");
		return NULL;
	}
	n = realloc(s->owned, (size_t)(s->nowned + 1) * sizeof(*n));
	if (!n) {
		free(p);
		log_error("out of memory");
		return NULL;
	}
	s->owned = n;
	s->owned[s->nowned++] = p;
	return p;
}

static void suite_free(struct suite *s)
{
	int i;

	suite_gate_free(s);
	for (i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->runs);
	free(s->check);
	free(s);
}

static int fwd_add(struct suite *s, const struct optdesc *d, const char *arg)
{
	char *opt;

	if (s->nfwd + 2 > SUITE_MAX_FWD)
		return opt_bad_value(d, arg, "too many load options");
	if (asprintf(&opt, "--%s", d->lng) < 0)
		opt = NULL;
	if (!keep(s, opt))
		return -1;
	s->fwd[s->nfwd++] = opt;
	s->fwd[s->nfwd++] = arg;
	return 0;
}

/* "latency, switch, handshake, cruncher": the suite tests, into @buf. */
static char *suite_test_names(char *buf, size_t len)
{
	int i;

	buf[0] = '\0';
	for (i = 0; rtlat_cmds[i]; i++)
		if (rtlat_cmds[i]->suite)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
				 buf[0] ? ", " : "", rtlat_cmds[i]->name);
	return buf;
}

/* --- --test-args: what the suite sets itself is not for them ------------ */

/* Set on every run by the suite (build_argv()): -T/--duration, --json,
 * --headline-fd, --warmup, --max-latency, and the load options, which it
 * gives to the runs with load only. */
static bool suite_managed(const struct optdesc *d)
{
	static const char *const names[] = {
		"duration", "json", "headline-fd", "warmup", "max-latency",
		NULL,
	};
	int i;

	if (!d->lng)
		return false;
	if (!strncmp(d->lng, "load", 4))
		return true;
	for (i = 0; names[i]; i++)
		if (!strcmp(d->lng, names[i]))
			return true;
	return false;
}

/* The option "--@name" (@len bytes, maybe abbreviated as getopt_long()
 * allows) of the tests: an exact name, else the one option it abbreviates;
 * NULL if unknown or ambiguous. An abbreviation of suite-managed options
 * only gives the first of them. */
static const struct optdesc *test_long(const struct optdesc *const *tables,
				       const char *name, size_t len)
{
	const struct optdesc *d, *hit = NULL;
	bool other = false;
	int t;

	for (t = 0; tables[t]; t++) {
		for (d = tables[t]; d->lng || d->shrt; d++) {
			if (!d->lng || strncmp(d->lng, name, len) != 0)
				continue;
			if (strlen(d->lng) == len)
				return d;
			if (!suite_managed(d))
				other = true;
			else if (!hit)
				hit = d;
		}
	}
	return other ? NULL : hit;
}

static const struct optdesc *test_short(const struct optdesc *const *tables,
					int c)
{
	const struct optdesc *d;
	int t;

	for (t = 0; tables[t]; t++)
		for (d = tables[t]; d->lng || d->shrt; d++)
			if (d->shrt == c)
				return d;
	return NULL;
}

/*
 * Look through the words of --test-args @args as the option parser of test
 * @t will (its tables and its companions'): returns the first
 * suite-managed option in them, or NULL. *@sched is set when they choose
 * the scheduling (-P/--priority, --policy).
 */
static const struct optdesc *test_args_scan(const struct test_desc *t,
					    const char *args, bool *sched)
{
	const struct optdesc *tables[CMD_MAX_TABLES + 1];
	const struct optdesc *d, *bad = NULL;
	char *copy = strdup(args), *tok, *save = NULL;
	bool value = false;	/* the word is the value of an option */

	*sched = false;
	if (!copy)
		return NULL;	/* (the run then sees them as given) */
	cmd_test_tables(t, tables, CMD_MAX_TABLES);
	for (tok = strtok_r(copy, " \t", &save); tok && !bad;
	     tok = strtok_r(NULL, " \t", &save)) {
		const char *p = tok;

		if (value) {
			value = false;
			continue;
		}
		/* the first operand or "--" ends the options (the test then
		 * refuses the operand) */
		if (p[0] != '-' || !p[1] || !strcmp(p, "--"))
			break;
		if (p[1] == '-') {
			size_t len = strcspn(p + 2, "=");

			d = test_long(tables, p + 2, len);
			if (!d)
				continue;
			if (suite_managed(d))
				bad = d;
			*sched |= d->shrt == 'P' || !strcmp(d->lng, "policy");
			value = d->has_arg == required_argument && !p[2 + len];
			continue;
		}
		/* -qT5: flags, then at most one option with its value */
		for (p++; *p && !bad; p++) {
			d = test_short(tables, *p);
			if (!d)
				continue;
			if (suite_managed(d))
				bad = d;
			*sched |= d->shrt == 'P';
			if (d->has_arg == required_argument) {
				value = !p[1];
				break;
			}
		}
	}
	free(copy);
	return bad;
}

/* TEST:ARGS of --test-args (or a [TEST] section): a suite test, with no
 * option the suite sets itself. */
static int test_args_add(struct suite *s, const struct optdesc *d,
			 const char *arg)
{
	const char *colon = arg ? strchr(arg, ':') : NULL;
	const struct optdesc *bad;
	const struct rtlat_cmd *c;
	char names[256], msg[640], *test;
	bool sched;

	if (!colon || colon == arg)
		return opt_bad_value(d, arg, "expected TEST:ARGS, e.g. \"latency:-p 200\"");
	if (s->ntargs >= SUITE_MAX_TARGS)
		return opt_bad_value(d, arg, "too many --test-args");
	test = keep(s, strndup(arg, (size_t)(colon - arg)));
	if (!test)
		return -1;
	c = cmd_find(test);
	if (!c || !c->suite) {
		snprintf(msg, sizeof(msg), "'%s' is not a suite test; suite tests: %s",
			 test, suite_test_names(names, sizeof(names)));
		return opt_bad_value(d, arg, msg);
	}
	bad = test_args_scan(c->test, colon + 1, &sched);
	if (bad) {
		snprintf(msg, sizeof(msg),
			 "%s is set by the suite itself; the suite manages -T/--duration, --warmup, --max-latency, --json, --headline-fd and the load options (--load, --load-*): give -T, --warmup, --max-latency, --loads and --load-* to rtlat suite",
			 opt_spelling(bad));
		return opt_bad_value(d, arg, msg);
	}
	s->sched_in_targs |= sched;
	s->targs[s->ntargs].test = test;
	s->targs[s->ntargs++].args = colon + 1;
	return 0;
}

static int suite_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct suite *s = ctx;
	struct load_opts scratch;
	int r;

	if (d->key >= OPT_SUITE_FORWARD && d->key < OPT_SUITE_FORWARD + SUITE_MAX_FORWARD) {
		if (!arg || !arg[0])
			return opt_bad_value(d, arg, "expected a value");
		s->forward[d->key - OPT_SUITE_FORWARD] = arg;
		return 0;
	}
	switch (d->key) {
	case 'T':
		if (parse_duration_ns(arg, DURATION_MAX_NS, &s->duration_ns) < 0 ||
		    s->duration_ns <= 0)
			return opt_bad_value(d, arg, DURATION_HINT ", above 0");
		return 0;
	case OPT_SUITE_TESTS:
		s->tests = arg;
		return 0;
	case OPT_SUITE_LOADS:
		s->loads = arg;
		return 0;
	case OPT_SUITE_LABEL: {
		const char *why = label_check(arg);

		if (why)
			return opt_bad_value(d, arg, why);
		s->label = s->label_given = arg;
		return 0;
	}
	case OPT_SUITE_OUT: {
		struct stat st;

		/* "" would put the results into / (as "/suite.json") */
		if (!arg || !arg[0])
			return opt_bad_value(d, arg, "expected a directory, not an empty name");
		if (stat(arg, &st) == 0 && !S_ISDIR(st.st_mode))
			return opt_bad_value(d, arg, "exists and is not a directory");
		s->out = arg;
		return 0;
	}
	case OPT_SUITE_LAVA:
		s->lava = true;
		return 0;
	case OPT_SUITE_JUNIT:
		if (!arg || !arg[0])
			return opt_bad_value(d, arg, "expected a file name");
		s->junit = arg;
		return 0;
	case OPT_SUITE_GATE:
		s->gate = true;
		return 0;
	case OPT_SUITE_BASELINE:
		if (!arg || !arg[0])
			return opt_bad_value(d, arg, "expected a directory or file");
		s->gate_baseline = arg;
		return 0;
	case OPT_SUITE_DB:
		if (!arg || !arg[0])
			return opt_bad_value(d, arg, "expected a database file");
		s->gate_db = arg;
		return 0;
	case OPT_SUITE_MARGIN:
		s->gate_margin = arg;
		return 0;
	case OPT_SUITE_GATE_METRICS:
		s->gate_metrics = arg;
		return 0;
	case OPT_SUITE_CANNOT_TELL:
		if (!arg || (strcmp(arg, "pass") != 0 && strcmp(arg, "fail") != 0))
			return opt_bad_value(d, arg, "pass or fail");
		s->gate_cannot_tell = arg;
		return 0;
	case LAB_OPT_KCIDB:
	case LAB_OPT_KCIDB_ORIGIN:
	case LAB_OPT_KCIDB_BUILD:
		return lab_opt(&s->kcidb, d, arg);
	case OPT_SUITE_MAXLAT:
		if (parse_time_ns(arg, NSEC_PER_USEC, &s->max_latency_ns) < 0 ||
		    s->max_latency_ns > 3600 * NSEC_PER_SEC)
			return opt_bad_value(d, arg, "expected a latency in us (or with unit, e.g. 1ms), at most 1h");
		return 0;
	case OPT_SUITE_WARMUP:
		if (parse_duration_ns(arg, WARMUP_MAX_NS, &s->warmup_ns) < 0)
			return opt_bad_value(d, arg, "expected a time such as 0, 1s, 500ms, at most 1d");
		return 0;
	case OPT_SUITE_TEST_ARGS:
		return test_args_add(s, d, arg);
	case OPT_SUITE_NO_THROTTLING:
		s->no_throttling = true;
		return 0;
	case 'f':
		return 0;	/* read before the command line */
	case 'q':
		s->quiet = true;
		return 0;
	}
	/* load options: checked here, passed on to the runs with load */
	load_opts_init(&scratch);
	r = load_opt(&scratch, d, arg);
	if (r)
		return r > 0 ? opt_bad_value(d, arg, "unsupported") : -1;
	return fwd_add(s, d, arg);
}

/* --- suite file ----------------------------------------------------------- */

static const struct optdesc *find_long(const char *name)
{
	const struct optdesc *const *tab;
	const struct optdesc *d;

	for (tab = suite_tables; *tab; tab++)
		for (d = *tab; d->lng || d->shrt; d++)
			if (d->lng && !strcmp(d->lng, name))
				return d;
	return NULL;
}

struct ini_ctx {
	struct suite *s;
	const char *path;
};

static int suite_ini_key(void *ctx, const char *section, const char *key,
			 const char *value, int line)
{
	struct ini_ctx *c = ctx;
	const struct optdesc *d;
	char *v, *ta;

	if (section[0] && strcmp(section, "suite") != 0) {
		/* [TEST]: args = ... */
		if (strcmp(key, "args") != 0) {
			log_error("%s:%d: unknown key '%s' in [%s] (a test section has: args)",
				  c->path, line, key, section);
			return -1;
		}
		if (asprintf(&ta, "%s:%s", section, value) < 0)
			ta = NULL;
		if (!keep(c->s, ta))
			return -1;
		if (suite_opt(c->s, find_long("test-args"), ta) < 0) {
			log_error("(in %s line %d, section [%s])", c->path, line,
				  section);
			return -1;
		}
		return 0;
	}
	d = find_long(key);
	if (!d || !strcmp(key, "file")) {
		log_error("%s:%d: unknown key '%s' (keys are the long options of rtlat suite, see --help)",
			  c->path, line, key);
		return -1;
	}
	if (d->has_arg == no_argument) {
		if (!strcmp(value, "yes") || !strcmp(value, "true") ||
		    !strcmp(value, "1") || !strcmp(value, "on"))
			return suite_opt(c->s, d, NULL);
		if (!strcmp(value, "no") || !strcmp(value, "false") ||
		    !strcmp(value, "0") || !strcmp(value, "off"))
			return 0;
		log_error("%s:%d: %s expects yes or no, got '%s'", c->path, line,
			  key, value);
		return -1;
	}
	/* the options keep pointers to their values */
	v = keep(c->s, strdup(value));
	if (!v)
		return -1;
	if (suite_opt(c->s, d, v) < 0) {
		log_error("(in %s line %d)", c->path, line);
		return -1;
	}
	return 0;
}

/* Read every -f FILE of @argv, in order, before the command line. */
static int read_suite_files(struct suite *s, int argc, char **argv)
{
	char err[512];
	int i;

	for (i = 1; i < argc; i++) {
		const char *path = NULL;
		struct ini_ctx c;

		if (!strcmp(argv[i], "--"))
			break;
		if ((!strcmp(argv[i], "-f") || !strcmp(argv[i], "--file")) &&
		    i + 1 < argc)
			path = argv[++i];
		else if (!strncmp(argv[i], "--file=", 7))
			path = argv[i] + 7;
		else if (!strncmp(argv[i], "-f", 2) && argv[i][2])
			path = argv[i] + 2;
		if (!path)
			continue;
		c.s = s;
		c.path = path;
		if (ini_parse_file(path, suite_ini_key, &c, err, sizeof(err)) < 0) {
			if (err[0])
				log_error("%s", err);
			return -1;
		}
	}
	return 0;
}

/* --- the matrix ----------------------------------------------------------- */

/* The value of test @c's forwarded option (suite_spec.forward; NULL: not
 * given); *@needs says whether it has one. */
static const char *test_source(const struct suite *s,
			       const struct rtlat_cmd *c, bool *needs)
{
	int i = test_forward(c);

	*needs = i >= 0;
	return i >= 0 ? s->forward[i] : NULL;
}

/* Before the first run: the test's own check of its forwarded option's
 * value @src (its option parser, on a scratch state, then its
 * suite_spec.check_forward: the source usable), so that a bad value
 * fails at once. 0, or -1 after its message. */
static int check_source(const struct rtlat_cmd *c, const char *src)
{
	const char *lng = c->suite->forward;
	const struct test_desc *t = c->test;
	const struct optdesc *d = NULL, *x;
	struct engine_opts o;
	char err[400];
	void *priv;
	int i, e;

	for (i = 0; t && t->opt && t->opts && t->opts[i] && !d; i++)
		for (x = t->opts[i]; (x->lng || x->shrt) && !d; x++)
			if (x->lng && !strcmp(x->lng, lng))
				d = x;
	if (!d)
		return 0;
	priv = calloc(1, t->priv_size ? t->priv_size : 1);
	if (!priv)
		return 0;	/* the run checks it */
	engine_opts_init(&o, t->period_ns, t->prio);
	if (t->init)
		t->init(priv, &o, 0, NULL);
	e = t->opt(priv, &o, d, src);
	if (e < 0) {
		free(priv);
		log_error("invalid value '%s' for --%s-%s: not a value %s --%s takes (checked before the first run)",
			  src, c->name, lng, c->name, lng);
		return -1;
	}
	/* usable too: there, not busy, permitted */
	e = c->suite->check_forward ?
	    c->suite->check_forward(priv, &o, err, sizeof(err)) : 0;
	free(priv);
	if (e < 0) {
		log_error("--%s-%s %s: %s (checked before the first run)",
			  c->name, lng, src, err);
		return -1;
	}
	return 0;
}

/* The tests of the suite, --tests or every suite test that can run, in
 * @tests (32 at most), their forwarded options and sources checked.
 * Returns their number, or -1 (said). */
static int suite_tests(struct suite *s, const struct rtlat_cmd **tests)
{
	char list[512], *tok, *save = NULL;
	int ntests = 0, i, j;
	bool needs;

	if (s->tests) {
		snprintf(list, sizeof(list), "%s", s->tests);
		for (tok = strtok_r(list, ", ", &save); tok;
		     tok = strtok_r(NULL, ", ", &save)) {
			const struct rtlat_cmd *c = cmd_find(tok);

			if (!c || !c->suite) {
				char known[256];

				log_error("invalid value '%s' for --tests: '%s' is not a suite test; suite tests: %s",
					  s->tests, tok,
					  suite_test_names(known, sizeof(known)));
				return -1;
			}
			if (!test_source(s, c, &needs) && needs) {
				int f = test_forward(c);

				log_error("invalid value '%s' for --tests: %s needs a %s: give --%s (%s = in a suite file)",
					  s->tests, tok, c->suite->forward,
					  fwd_names[f], fwd_names[f]);
				return -1;
			}
			if (ntests < 32)
				tests[ntests++] = c;
		}
	} else {
		for (i = 0; rtlat_cmds[i]; i++)
			if (rtlat_cmds[i]->suite && ntests < 32 &&
			    (test_source(s, rtlat_cmds[i], &needs) || !needs))
				tests[ntests++] = rtlat_cmds[i];
	}
	if (!ntests) {
		log_error("no test to run (--tests)");
		return -1;
	}
	/* a forwarded option of a test that does not run would be neither
	 * checked nor used: an error, not silence */
	for (i = 0; i < SUITE_MAX_FORWARD && fwd_cmds[i]; i++) {
		for (j = 0; j < ntests && tests[j] != fwd_cmds[i]; j++)
			;
		if (s->forward[i] && j == ntests) {
			log_error("--%s: %s is not in --tests '%s' (add %s to --tests, or drop --%s / %s = from the suite file)",
				  fwd_names[i], fwd_cmds[i]->name, s->tests,
				  fwd_cmds[i]->name, fwd_names[i],
				  fwd_names[i]);
			return -1;
		}
	}
	for (i = 0; i < ntests; i++) {
		const char *src = test_source(s, tests[i], &needs);

		if (src && check_source(tests[i], src) < 0)
			return -1;
	}
	return ntests;
}

static int build_runs(struct suite *s)
{
	const struct rtlat_cmd *tests[32];
	char list[512], *tok, *next, err[256];
	const char *states[16];
	int ntests, nstates = 0, i, j, k;

	ntests = suite_tests(s, tests);
	if (ntests < 0)
		return -1;
	/* load states: comma-separated, each a name or a '+' mix */
	snprintf(list, sizeof(list), "%s", s->loads);
	for (tok = list; tok; tok = next) {
		struct load_opts scratch;
		size_t n;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		tok += strspn(tok, " \t");
		n = strlen(tok);
		while (n && (tok[n - 1] == ' ' || tok[n - 1] == '\t'))
			tok[--n] = '\0';
		if (!n) {
			if (!s->loads[strspn(s->loads, " \t")])
				log_error("invalid value '%s' for --loads: empty list of load states (none: no load)",
					  s->loads);
			else
				log_error("invalid value '%s' for --loads: empty element at position %zu (none: no load)",
					  s->loads, (size_t)(tok - list) + 1);
			return -1;
		}
		load_opts_init(&scratch);
		if (strcmp(tok, "cmd") != 0 &&
		    load_parse_names(&scratch, tok, err, sizeof(err)) < 0) {
			log_error("invalid value '%s' for --loads: %s", s->loads, err);
			return -1;
		}
		if (!strcmp(tok, "cmd")) {
			bool any = false;

			for (i = 0; i < s->nfwd; i += 2)
				any |= !strcmp(s->fwd[i], "--load-cmd");
			if (!any) {
				log_error("load state 'cmd' needs --load-cmd");
				return -1;
			}
		}
		if (nstates < 16)
			states[nstates++] = tok;	/* in @list, copied below */
	}
	if (!nstates) {
		log_error("no load state (--loads), e.g. none,hell");
		return -1;
	}
	s->nloads = nstates;
	s->nruns = ntests * nstates;
	s->runs = calloc((size_t)s->nruns, sizeof(*s->runs));
	if (!s->runs) {
		log_error("out of memory");
		return -1;
	}
	k = 0;
	for (i = 0; i < ntests; i++) {
		for (j = 0; j < nstates; j++, k++) {
			struct suite_run *r = &s->runs[k];

			r->index = k + 1;
			r->cmd = tests[i];
			r->exit_status = -1;
			snprintf(r->load, sizeof(r->load), "%s", states[j]);
			snprintf(r->base, sizeof(r->base), "%02d-%s-%s", k + 1,
				 tests[i]->name, states[j]);
		}
	}
	return 0;
}

/* --- output directory and snapshot ---------------------------------------- */

static int mkdir_p(const char *path)
{
	char p[PATH_MAX], *c;

	snprintf(p, sizeof(p), "%s", path);
	for (c = p + 1; *c; c++) {
		if (*c != '/')
			continue;
		*c = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			return -1;
		*c = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* s->outdir: -o DIR, else rtlat-results/HOST-UTCTIME. */
static void name_outdir(struct suite *s)
{
	char host[128] = "host", when[32];
	struct timespec ts;
	struct tm tm;

	if (s->out) {
		snprintf(s->outdir, sizeof(s->outdir), "%s", s->out);
		return;
	}
	gethostname(host, sizeof(host));
	host[sizeof(host) - 1] = '\0';
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(s->outdir, sizeof(s->outdir), "rtlat-results/%s-%s", host,
		 when);
}

/* Claim OUT/@name (output_claim()) for what the suite writes there. */
static int claim_own(const struct suite *s, const char *name)
{
	char p[PATH_MAX + 64], what[96], err[2 * PATH_MAX + 160];

	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", s->outdir, name);
	snprintf(what, sizeof(what), "the suite's %s", name);
	if (output_claim(what, p, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	/* replaced by rename(2) at the end: a directory (or a device, a
	 * FIFO) there would fail it after all the runs */
	if (!stat(p, &st) && !S_ISREG(st.st_mode)) {
		log_error("%s is not a regular file: the suite cannot write its %s there; nothing was run",
			  p, name);
		return -1;
	}
	if (!lstat(p, &st) && S_ISLNK(st.st_mode) && stat(p, &st)) {
		log_error("%s is a symbolic link to nothing there is (%s): the suite cannot write its %s through it; nothing was run",
			  p, strerror(errno), name);
		return -1;
	}
	return 0;
}

/*
 * Before anything is made: the suite's own files in OUT, then --junit and
 * --kcidb FILE, claimed (output_claim()): FILE neither one of the suite's
 * files, nor in its snapshot directory, nor OUT itself, nor the other
 * option's; writable, or in OUT still to be made (the suite makes it).
 */
static int check_outputs(const struct suite *s)
{
	static const char *const own[] = { "suite.json", "report.txt" };
	/* and an SQLite history (--db FILE): none of these either, or the
	 * suite's files would overwrite it (or it them) */
	const char *db = s->gate_db && strncmp(s->gate_db, "postgres", 8) != 0 ?
			 s->gate_db : NULL;
	const char *lab[3][2] = { { "--junit", s->junit },
				  { "--kcidb", s->kcidb.kcidb },
				  { "--db", db } };
	char out[PATH_MAX], real[PATH_MAX], msg[PATH_MAX + 128];
	char p[PATH_MAX + 16];
	bool out_made, in_out;
	size_t i, n;
	int k;

	output_claims_reset();
	for (i = 0; i < sizeof(own) / sizeof(own[0]); i++)
		if (claim_own(s, own[i]) < 0)
			return -1;
	if (s->gate && claim_own(s, "gate.json") < 0)
		return -1;
	for (k = 0; k < s->nruns; k++) {
		char name[sizeof(s->runs[k].base) + 8];

		snprintf(name, sizeof(name), "%s.json", s->runs[k].base);
		if (claim_own(s, name) < 0)
			return -1;
		snprintf(name, sizeof(name), "%s.log", s->runs[k].base);
		if (claim_own(s, name) < 0)
			return -1;
	}
	/* OUT's real path, as it will be: that of a file in it, less it */
	snprintf(p, sizeof(p), "%s/suite.json", s->outdir);
	if (output_planned_path(p, out, sizeof(out), msg, sizeof(msg)) != 0) {
		log_error("-o/--out: %s", msg);
		return -1;
	}
	*strrchr(out, '/') = '\0';
	n = strlen(out);
	out_made = access(out, F_OK) == 0;
	for (i = 0; i < 3; i++) {
		const char *opt = lab[i][0], *path = lab[i][1];
		int r;

		if (!path)
			continue;
		r = output_planned_path(path, real, sizeof(real), msg,
					sizeof(msg));
		if (r < 0) {
			log_error("%s: %s", opt, msg);
			return -1;
		}
		if (!r && !strcmp(real, out)) {
			log_error("%s '%s' is the output directory -o/--out '%s'",
				  opt, path, s->outdir);
			return -1;
		}
		if (!r && !strncmp(real, out, n) &&
		    !strncmp(real + n, "/system/", 8)) {
			log_error("%s '%s' is in the suite's system snapshot directory %s/system",
				  opt, path, s->outdir);
			return -1;
		}
		in_out = !r && !strncmp(real, out, n) && real[n] == '/';
		if (in_out && !out_made && strchr(real + n + 1, '/')) {
			log_error("%s: %s: the suite makes -o/--out %s, not the directories below it",
				  opt, path, s->outdir);
			return -1;
		}
		/* a file of OUT still to be made is writable once it is made
		 * (make_outdir() says why it cannot be) */
		if ((!in_out || out_made) &&
		    result_check_writable(path, msg, sizeof(msg)) < 0) {
			log_error("%s: %s", opt, msg);
			return -1;
		}
		if (output_claim(opt, path, msg, sizeof(msg)) < 0) {
			log_error("%s", msg);
			return -1;
		}
	}
	return 0;
}

static int make_outdir(struct suite *s)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/suite.json", s->outdir);
	if (access(p, F_OK) == 0) {
		log_error("%s already holds a suite result; choose another --out",
			  s->outdir);
		return -1;
	}
	snprintf(p, sizeof(p), "%s/system", s->outdir);
	if (mkdir_p(p) < 0) {
		log_error("cannot create the output directory %s: %s", p,
			  strerror(errno));
		return -1;
	}
	return 0;
}

/* Write OUT/system/@name whole (a temporary file renamed into place) from
 * @src (a /proc file: size unknown; missing sources are skipped) or from
 * @text; a write that fails (a full disk) is a warning and leaves no
 * truncated file. */
static void snap_write(struct suite *s, const char *name, const char *src,
		       const char *text)
{
	char dst[PATH_MAX + 64], err[PATH_MAX + 128], buf[16384];
	struct atomic_file af;
	int in = -1;
	ssize_t n = 0;
	FILE *f;

	if (src) {
		in = open(src, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return;
	}
	snprintf(dst, sizeof(dst), "%s/system/%s", s->outdir, name);
	f = atomic_open(&af, dst, err, sizeof(err));
	if (!f) {
		log_warn("system snapshot: %s", err);
		if (in >= 0)
			close(in);
		return;
	}
	if (in >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (fwrite(buf, 1, (size_t)n, f) != (size_t)n)
				break;
		close(in);
	} else {
		fputs(text, f);
	}
	if (n < 0) {
		log_warn("system snapshot: cannot read %s: %s", src,
			 strerror(errno));
		atomic_abort(&af);
		return;
	}
	if (atomic_commit(&af, err, sizeof(err)) < 0) {
		log_warn("system snapshot: %s", err);
		return;
	}
	if (s->nsnapshot < 16)
		snprintf(s->snapshot[s->nsnapshot++], sizeof(s->snapshot[0]),
			 "%s", name);
}

static void snap_copy(struct suite *s, const char *src, const char *name)
{
	snap_write(s, name, src, NULL);
}

static void snap_text(struct suite *s, const char *name, const char *text)
{
	snap_write(s, name, NULL, text);
}

static void snapshot_before(struct suite *s)
{
	char text[2048], p[256];
	struct utsname u;
	FILE *f;

	snap_copy(s, "/proc/cmdline", "cmdline");
	snap_copy(s, "/proc/cpuinfo", "cpuinfo");
	snap_copy(s, "/proc/meminfo", "meminfo");
	snap_copy(s, "/proc/version", "version");
	snap_copy(s, "/proc/interrupts", "interrupts.before");
	if (uname(&u) == 0) {
		snprintf(text, sizeof(text), "%s %s %s %s %s\n", u.sysname,
			 u.nodename, u.release, u.version, u.machine);
		snap_text(s, "uname", text);
		snprintf(p, sizeof(p), "/boot/config-%s", u.release);
	}
	if (access("/proc/config.gz", R_OK) == 0)
		snap_copy(s, "/proc/config.gz", "config.gz");
	else
		snap_copy(s, p, "config");
	f = fmemopen(text, sizeof(text), "w");
	if (f) {
		sysdesc_print(&s->sys, f, "");
		fputc('\0', f);
		fclose(f);
		text[sizeof(text) - 1] = '\0';
		snap_text(s, "sysinfo.txt", text);
	}
}

/* rtlat check first (interrupts over SUITE_CHECK_NS): the conditions of
 * every run, as text and JSON under system/ and in the report. */
#define SUITE_CHECK_NS NSEC_PER_SEC
static void suite_check(struct suite *s)
{
	char *text = NULL;
	size_t len = 0;
	struct jw w;
	bool ok;
	FILE *f;

	s->check = malloc(sizeof(*s->check));
	if (!s->check)
		return;
	if (!s->quiet)
		log_note("rtlat check: is this system set up for real time? (%d s of interrupts)",
			 (int)(SUITE_CHECK_NS / NSEC_PER_SEC));
	syscheck_run(s->check, "/", SUITE_CHECK_NS);
	f = open_memstream(&text, &len);
	if (f) {
		syscheck_print(s->check, f);
		if (fclose(f) == 0)
			snap_text(s, "check.txt", text);
		free(text);
	}
	text = NULL;
	f = open_memstream(&text, &len);
	if (f) {
		jw_init(&w, f);
		jw_obj_begin(&w, NULL);
		jw_str(&w, "root", "/");
		syscheck_json(s->check, &w);
		jw_obj_end(&w);
		ok = jw_finish(&w);
		if (fclose(f) == 0 && ok)
			snap_text(s, "check.json", text);
		free(text);
	}
}

/* --- running one test ----------------------------------------------------- */

static int64_t run_estimate(const struct suite *s, int64_t overhead)
{
	return (s->warmup_ns >= 0 ? s->warmup_ns : DEFAULT_WARMUP) +
	       s->duration_ns + overhead;
}

/* How long a run may take before the suite kills it as hung: its warm-up
 * and duration plus half of that, at least 30 s more. */
static int64_t run_limit(const struct suite *s)
{
	int64_t est = run_estimate(s, 0);

	return est + (est / 2 > RUN_MARGIN_NS ? est / 2 : RUN_MARGIN_NS);
}

/* Progress on stderr: refreshed at most once a second on a terminal,
 * every 10 s (and at each run's start) otherwise. */
static void progress(const struct suite *s, const struct suite_run *r,
		     int64_t suite_t0, int64_t run_t0, int64_t overhead,
		     bool force)
{
	static int64_t last;
	static int tty = -1;
	int64_t now = clock_now_ns(CLOCK_MONOTONIC), est, in_run, left;
	char a[32], b[32], c[32], d[32], lt[96];

	if (s->quiet)
		return;
	if (tty < 0)
		tty = isatty(2);
	if (!force && now - last < (tty ? NSEC_PER_SEC : 10 * NSEC_PER_SEC))
		return;
	last = now;
	est = run_estimate(s, overhead);
	in_run = now - run_t0;
	left = (est > in_run ? est - in_run : 0) +
	       (int64_t)(s->nruns - r->index) * est;
	fmt_hms(a, in_run);
	fmt_hms(b, est);
	fmt_hms(c, now - suite_t0);
	fmt_hms(d, left);
	fprintf(stderr, "%srtlat suite: run %d of %d, %s %s: %s of ~%s; elapsed %s, remaining ~%s%s",
		tty ? "\r\033[K" : "", r->index, s->nruns, r->cmd->name,
		suite_load_title(r->load, lt, sizeof(lt)), a, b, c, d,
		tty ? "" : "\n");
	fflush(stderr);
}

static void progress_done(const struct suite *s)
{
	if (!s->quiet && isatty(2))
		fprintf(stderr, "\r\033[K");
}

/* Split @str on white space into @argv (at most @max words), the words
 * copied into @buf (@*used of @len bytes taken; what does not fit is
 * left out). */
static int split_words(const char *str, const char **argv, int max,
		       char *buf, size_t len, size_t *used)
{
	char *copy = buf + *used, *tok, *save = NULL;
	size_t k = strlen(str) + 1;
	int n = 0;

	if (*used + k > len)
		return 0;
	memcpy(copy, str, k);
	*used += k;
	for (tok = strtok_r(copy, " \t", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t", &save))
		argv[n++] = tok;
	return n;
}

/* The command line of run @r in @av (@max entries); the words of
 * --test-args go into @words (@wlen bytes). */
static int build_argv(const struct suite *s, const struct suite_run *r,
		      const char **av, int max, char *json, char *dur,
		      char *warm, char *maxlat, char *words, size_t wlen)
{
	size_t used = 0;
	int n = 0, i;

	bool needs;
	const char *src = test_source(s, r->cmd, &needs);

	av[n++] = "rtlat";
	av[n++] = r->cmd->name;
	if (src) {
		av[n++] = fwd_flags[test_forward(r->cmd)];
		av[n++] = src;
	}
	av[n++] = "-T";
	snprintf(dur, 32, "%lldns", (long long)s->duration_ns);
	av[n++] = dur;
	av[n++] = "--json";
	av[n++] = json;
	av[n++] = "--headline-fd";
	av[n++] = "3";
	if (s->warmup_ns >= 0) {
		snprintf(warm, 32, "%lldns", (long long)s->warmup_ns);
		av[n++] = "--warmup";
		av[n++] = warm;
	}
	if (s->max_latency_ns >= 0) {
		snprintf(maxlat, 32, "%lldns", (long long)s->max_latency_ns);
		av[n++] = "--max-latency";
		av[n++] = maxlat;
	}
	/* every state but none gets the load options (and --load-cmd) */
	if (strcmp(r->load, "none") != 0) {
		if (strcmp(r->load, "cmd") != 0) {
			av[n++] = "--load";
			av[n++] = r->load;
		}
		for (i = 0; i < s->nfwd && n < max - 2; i++)
			av[n++] = s->fwd[i];
	}
	for (i = 0; r->cmd->suite->args && r->cmd->suite->args[i] && n < max - 1; i++)
		av[n++] = r->cmd->suite->args[i];
	for (i = 0; i < s->ntargs; i++)
		if (!strcmp(s->targs[i].test, r->cmd->name))
			n += split_words(s->targs[i].args, av + n, max - 1 - n,
					 words, wlen, &used);
	av[n] = NULL;
	return n;
}

static void child_exec(const struct suite *s, const char **av, int hl_fd,
		       int log_fd, pid_t parent)
{
	sigset_t none;
	int fd, sig;

	setpgid(0, 0);		/* signals reach it through the suite only */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(1);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	dup2(log_fd, 1);
	dup2(log_fd, 2);
	if (hl_fd == 3) {
		fcntl(3, F_SETFD, 0);
	} else {
		dup2(hl_fd, 3);
	}
	execv(s->exe, (char *const *)av);
	execvp(rtlat_argv[0], (char *const *)av);
	fprintf(stderr, "rtlat suite: cannot run %s: %s\n", s->exe,
		strerror(errno));
	_exit(127);
}

/* Append what can be read now from @fd to @buf; returns false at EOF. */
static bool read_some(int fd, char *buf, size_t *len)
{
	ssize_t n;

	for (;;) {
		if (*len + 1 >= HEADLINE_MAX)
			return false;
		n = read(fd, buf + *len, HEADLINE_MAX - 1 - *len);
		if (n > 0) {
			*len += (size_t)n;
			buf[*len] = '\0';
			continue;
		}
		if (n == 0)
			return false;
		return errno == EAGAIN || errno == EINTR;
	}
}

/* The message of the first "error: " line of the log @path into @buf
 * ("" if none). */
static void log_first_error(const char *path, char *buf, size_t len)
{
	char line[1024], *e;
	FILE *f;

	buf[0] = '\0';
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		e = strstr(line, ": error: ");
		if (!e)
			continue;
		e += strlen(": error: ");
		e[strcspn(e, "\n")] = '\0';
		snprintf(buf, len, "%s", e);
		break;
	}
	fclose(f);
}

/* "signal 9 (Killed)" */
static const char *signal_text(int sig, char *buf, size_t len)
{
	snprintf(buf, len, "signal %d (%s)", sig, strsignal(sig));
	return buf;
}

/*
 * Why run @r (its process ended, headline read, log at @logp) failed, into
 * r->error; "" when it did not. A run the suite stopped on the user's
 * signal is interrupted, not failed; any other signal is a failure.
 */
static void run_outcome(struct suite_run *r, const char *logp)
{
	char why[320], sig[64], a[32], b[32];
	bool figures = r->hl.valid && r->hl.complete;

	r->error[0] = '\0';
	if (r->stop_signal || r->timed_out) {
		if (r->stop_signal)
			snprintf(why, sizeof(why), "stopped by %s, not sent by the suite",
				 signal_text(r->stop_signal, sig, sizeof(sig)));
		else
			snprintf(why, sizeof(why), "did not end in time (still running after %s; warm-up and duration %s)",
				 fmt_hms(a, r->limit_ns), fmt_hms(b, r->expected_ns));
		snprintf(r->error, sizeof(r->error),
			 "%s: killed by the suite (see %s.log; %s.json holds the last checkpoint)",
			 why, r->base, r->base);
		return;
	}
	if (r->term_signal) {
		if (r->stopped_by_suite)
			return;		/* killed by the suite, stopping it */
		snprintf(r->error, sizeof(r->error),
			 "killed by %s, not sent by the suite (see %s.log; %s.json holds the last checkpoint)",
			 signal_text(r->term_signal, sig, sizeof(sig)),
			 r->base, r->base);
		return;
	}
	if (!figures) {
		log_first_error(logp, why, sizeof(why));
		snprintf(r->error, sizeof(r->error),
			 "%s%sexit status %d without figures, see %s.log%s",
			 why, why[0] ? " (" : "", r->exit_status, r->base,
			 why[0] ? ")" : "");
		return;
	}
	if (!r->stopped_by_suite && !strcmp(r->hl.status, "interrupted")) {
		if (r->hl.stop_signal > 0)
			signal_text(r->hl.stop_signal, sig, sizeof(sig));
		else
			snprintf(sig, sizeof(sig), "a signal");
		snprintf(r->error, sizeof(r->error),
			 "interrupted by %s, not sent by the suite (see %s.log)",
			 sig, r->base);
		return;
	}
	if (r->exit_status == 1 || r->exit_status > 2) {
		if (r->hl.error[0]) {
			snprintf(r->error, sizeof(r->error), "%s", r->hl.error);
			return;
		}
		log_first_error(logp, why, sizeof(why));
		snprintf(r->error, sizeof(r->error), "%s%sexit status %d, see %s.log%s",
			 why, why[0] ? " (" : "", r->exit_status, r->base,
			 why[0] ? ")" : "");
	}
}

/* Kill run @pid (stopped or hung): its process group (the test and its
 * --process partner), and the test itself should it have left the group.
 * Its loads die with it (parent-death signal); what they leave comes to
 * the suite (reap_leftovers()). */
static void kill_run(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/*
 * After a run: the suite is a child subreaper, so whatever the run left
 * (load processes of a killed run, what a --load-cmd started elsewhere)
 * is its child now. Reap what ended, kill the rest (and what they leave in
 * turn), for at most REAP_TIMEOUT_NS. Returns how many were still running.
 */
static int reap_leftovers(void)
{
	int64_t end = clock_now_ns(CLOCK_MONOTONIC) + REAP_TIMEOUT_NS;
	pid_t kids[256], seen[256];
	int nseen = 0, n, i, j;

	while ((n = children_list(kids, 256)) > 0) {
		for (i = 0; i < n; i++) {
			if (waitpid(kids[i], NULL, WNOHANG) == kids[i])
				continue;	/* a zombie: reaped */
			kill(kids[i], SIGKILL);
			for (j = 0; j < nseen && seen[j] != kids[i]; j++)
				;
			if (j == nseen && nseen < 256)
				seen[nseen++] = kids[i];
		}
		if (clock_now_ns(CLOCK_MONOTONIC) > end)
			break;
		sleep_ns(20 * NSEC_PER_MSEC);
	}
	return nseen;
}

static void run_one(struct suite *s, struct suite_run *r, int64_t suite_t0,
		    int64_t overhead)
{
	const char *av[SUITE_MAX_FWD + 64];
	char json[PATH_MAX + 200], logp[PATH_MAX + 200], dur[32], warm[32];
	char maxlat[32], words[4096], *hl;
	int64_t t0, deadline = 0;
	size_t hl_len = 0;
	int pfd[2], log_fd, st, nsig = 0;
	bool open_pipe = true;
	sigset_t sigs;
	pid_t pid, parent = getpid();

	snprintf(json, sizeof(json), "%s/%s.json", s->outdir, r->base);
	snprintf(logp, sizeof(logp), "%s/%s.log", s->outdir, r->base);
	build_argv(s, r, av, (int)(sizeof(av) / sizeof(av[0])), json, dur,
		   warm, maxlat, words, sizeof(words));
	hl = calloc(1, HEADLINE_MAX);
	log_fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (!hl || log_fd < 0 || pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(r->error, sizeof(r->error), "cannot set up the run (%s): %s",
			 logp, strerror(errno));
		if (log_fd >= 0)
			close(log_fd);
		free(hl);
		return;
	}
	fflush(NULL);
	t0 = clock_now_ns(CLOCK_MONOTONIC);
	r->wall_start_ns = clock_now_ns(CLOCK_REALTIME);
	pid = fork();
	if (pid == 0)
		child_exec(s, av, pfd[1], log_fd, parent);
	close(pfd[1]);
	close(log_fd);
	if (pid < 0) {
		snprintf(r->error, sizeof(r->error), "cannot fork: %s",
			 strerror(errno));
		close(pfd[0]);
		free(hl);
		return;
	}
	setpgid(pid, pid);
	r->ran = true;
	r->expected_ns = run_estimate(s, 0);
	r->limit_ns = run_limit(s);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	stop_sigset(&sigs);
	progress(s, r, suite_t0, t0, overhead, true);
	for (;;) {
		struct timespec ts = ns_to_ts(TICK_NS);
		bool killed = r->stop_signal || r->timed_out;
		pid_t w;
		int sig;

		if (open_pipe)
			open_pipe = read_some(pfd[0], hl, &hl_len);
		/* a stopped run would never end: it failed, it is killed */
		w = waitpid(pid, &st, WNOHANG | WUNTRACED);
		if (w == pid && !WIFSTOPPED(st))
			break;
		if (w == pid && !killed) {
			r->stop_signal = WSTOPSIG(st);
			kill_run(pid);
		}
		if (!killed && !r->stop_signal &&
		    clock_now_ns(CLOCK_MONOTONIC) - t0 > r->limit_ns) {
			r->timed_out = true;	/* hung (or traced) */
			kill_run(pid);
		}
		sig = sigtimedwait(&sigs, NULL, &ts);
		if (sig > 0) {
			/* the test stops cleanly (summary, result file, loads
			 * stopped); a second signal kills it */
			s->interrupted = true;
			if (!s->interrupt_signal)
				s->interrupt_signal = sig;
			kill(pid, ++nsig == 1 ? sig : SIGKILL);
			deadline = clock_now_ns(CLOCK_MONOTONIC) + STOP_TIMEOUT_NS;
			if (!s->quiet)
				fprintf(stderr, "\nrtlat suite: %s: stopping the current run%s\n",
					strsignal(sig), nsig > 1 ? " (killed)" : "");
		}
		if (deadline && clock_now_ns(CLOCK_MONOTONIC) > deadline) {
			kill(pid, SIGKILL);
			deadline = 0;
		}
		progress(s, r, suite_t0, t0, overhead, false);
	}
	r->elapsed_ns = clock_now_ns(CLOCK_MONOTONIC) - t0;
	r->stopped_by_suite = nsig > 0;
	while (read_some(pfd[0], hl, &hl_len))
		;
	close(pfd[0]);
	if (WIFEXITED(st))
		r->exit_status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		r->term_signal = WTERMSIG(st);
	r->leftovers = reap_leftovers();
	if (headline_parse(&r->hl, hl) < 0)
		memset(&r->hl, 0, sizeof(r->hl));
	run_outcome(r, logp);
	free(hl);
}

/* --- main ----------------------------------------------------------------- */

static void write_index(struct suite *s, const char *status)
{
	char err[512];

	if (suite_json_write(s, status, err, sizeof(err)) < 0) {
		log_error("%s", err);
		s->exit_code = 1;
	}
}

static int finish(struct suite *s)
{
	char path[PATH_MAX + 32], *text = NULL;
	size_t len = 0;
	int i, j, err_runs = 0;
	FILE *f;

	for (i = 0; i < s->nruns; i++) {
		const struct suite_run *r = &s->runs[i];

		if (!r->ran)
			continue;
		if (r->error[0])
			err_runs++;
		if (r->hl.threshold_exceeded || r->exit_status == 2)
			s->threshold_exceeded = true;
		for (j = 0; j < r->hl.nseries; j++)
			if (suite_over_threshold(&r->hl.series[j],
						 s->max_latency_ns))
				s->threshold_exceeded = s->max_latency_hit = true;
	}
	/* an interrupted suite is no pass: not gated, exit status 1 */
	if (s->gate && s->interrupted)
		s->gate_verdict = "interrupted";
	else if (s->gate && suite_gate_run(s) < 0)
		s->exit_code = 1;
	/* a regression found is one, whatever else the gate refused */
	if (!err_runs && !s->interrupted && s->gate_verdict &&
	    !strcmp(s->gate_verdict, "fail"))
		s->exit_code = 2;
	/* stored after the gate: the fresh runs are not their own baseline */
	if (s->gate_db && suite_db_store(s) < 0)
		s->exit_code = 1;
	if (err_runs || s->interrupted)
		s->exit_code = 1;
	else if ((s->threshold_exceeded ||
		  (s->gate_verdict && !strcmp(s->gate_verdict, "fail"))) &&
		 !s->exit_code)
		s->exit_code = 2;

	f = open_memstream(&text, &len);
	if (!f) {
		log_error("out of memory");
		return 1;
	}
	suite_report(s, f);	/* with the gate's verdicts */
	fclose(f);
	fputs(text, stdout);
	stdout_flush();
	snprintf(path, sizeof(path), "%s/report.txt", s->outdir);
	{
		struct atomic_file af;
		char err[PATH_MAX + 128];

		/* whole or not at all: never a truncated report */
		f = atomic_open(&af, path, err, sizeof(err));
		if (f)
			fputs(text, f);
		if (!f || atomic_commit(&af, err, sizeof(err)) < 0) {
			log_error("report.txt: %s", err);
			s->exit_code = 1;
		}
	}
	free(text);
	if (s->lava && suite_lava(s, stdout) < 0)
		s->exit_code = 1;
	if (s->junit && suite_junit(s, s->junit) < 0)
		s->exit_code = 1;
	if (s->kcidb.kcidb && suite_kcidb(s) < 0)
		s->exit_code = 1;
	write_index(s, s->interrupted ? "interrupted" : "complete");
	if (s->threshold_exceeded)
		log_warn("%s (exit status 2)", suite_exit2_reason(s));
	if (s->gate_verdict && !strcmp(s->gate_verdict, "fail"))
		log_warn("the release gate failed: a metric is worse than the baseline (exit status 2; see gate.json)");
	if (err_runs)
		log_error("%d run(s) failed; see the notes and the .log files in %s",
			  err_runs, s->outdir);
	if (s->interrupted)
		log_error("%s%s (exit status 1)", suite_interrupted_reason(s),
			  s->gate ? "; the release gate was not made" : "");
	return s->exit_code;
}

/* After run @r: say on stderr why it failed (progress or not). */
static void report_failure(const struct suite *s, const struct suite_run *r)
{
	char lt[96];

	if (!r->error[0])
		return;
	if (!s->quiet && isatty(2))
		fprintf(stderr, "\r\033[K");
	log_error("run %d of %d (%s %s) failed: %s", r->index, s->nruns,
		  r->cmd->name, suite_load_title(r->load, lt, sizeof(lt)),
		  r->error);
}

/*
 * Every suite test runs its samplers SCHED_FIFO at priority 99 (switch:
 * 98 and 99): without that privilege every run would fail, so the suite
 * fails at once, naming the fix. --test-args choosing the scheduling
 * (-P, --policy) leave it to each run.
 */
static int check_privilege(const struct suite *s)
{
	char msg[512];

	if (s->sched_in_targs)
		return 0;
	if (sched_probe(SCHED_FIFO, 99, msg, sizeof(msg)) < 0) {
		log_error("the suite tests run at SCHED_FIFO priority 99: %s", msg);
		return -1;
	}
	return 0;
}

static int suite_run(struct suite *s, int argc, char **argv);

static int suite_main(int argc, char **argv)
{
	struct suite *s = calloc(1, sizeof(*s));
	int r;

	if (!s) {
		log_error("out of memory");
		return 1;
	}
	r = suite_run(s, argc, argv);
	rt_throttle_restore(&s->thr_off);
	suite_free(s);
	return r;
}

/* The suite's label (the board's, by default), and the rtlat that runs
 * its tests. */
static void suite_label_exe(struct suite *s)
{
	ssize_t n;

	if (!s->label)
		s->label = s->sys.hostname[0] ? s->sys.hostname : "this system";
	if (cobalt_build() && s->label != s->label_given) {
		/* the rows of the same board under Linux and under the
		 * co-kernel stay apart in one report */
		snprintf(s->label_buf, sizeof(s->label_buf), "%s, %s",
			 s->label, cobalt_system());
		s->label = s->label_buf;
	}
	/* in rtlat-host (--gate, --db): the runs are the rtlat that ran it,
	 * which maps no host-side library (engine/helper.h) */
	n = helper_caller() ? -1 :
	    readlink("/proc/self/exe", s->exe, sizeof(s->exe) - 1);
	if (helper_caller())
		snprintf(s->exe, sizeof(s->exe), "%s", helper_caller());
	else if (n > 0)
		s->exe[n] = '\0';
	else
		snprintf(s->exe, sizeof(s->exe), "%s", rtlat_argv[0]);
}

static int suite_run(struct suite *s, int argc, char **argv)
{
	int64_t suite_t0, overhead = NSEC_PER_SEC, spent = 0;
	char est[32], each[32];
	int64_t each_est;
	sigset_t sigs;
	int r, i, done = 0;

	s->duration_ns = DEFAULT_DURATION;
	s->warmup_ns = -1;
	s->max_latency_ns = -1;
	s->loads = "none,hell";
	forward_build();
	if (read_suite_files(s, argc, argv) < 0)
		return 1;
	r = opt_parse_options(argc, argv, suite_tables, suite_opt, s,
			      "rtlat suite [OPTIONS]",
			      "Run the whole qualification: every suite test under every load\n"
			      "state (default: without load and with hell), each run a child\n"
			      "process writing its result file. Prints the board header and one\n"
			      "table per test and load state (latencies in us), then what each\n"
			      "load achieved; writes suite.json, report.txt, one result file\n"
			      "and log per run and a system snapshot into the output directory.\n"
			      "A run stopped (SIGSTOP), or still going after its warm-up and\n"
			      "duration plus half of that (at least 30 s), is killed and fails;\n"
			      "the next one goes on. SIGINT or SIGTERM stops the current run\n"
			      "cleanly and skips the rest: an interrupted suite exits with 1.\n"
			      "With --gate, the fresh runs are compared with the board's\n"
			      "baseline (--baseline PATH, or --db FILE: rtlat db baseline set)\n"
			      "per metric, as rtlat compare --gate; the verdicts follow the\n"
			      "report and go to gate.json, --lava and --junit.\n"
			      "Before the first run, --gate checks that the baseline has this\n"
			      "board (--db) and every test and load state, and --db that the\n"
			      "history takes the runs (else exit 1, nothing run).\n"
			      "Exit status: 0 ok, 1 a run failed (or --gate refused a table or\n"
			      "could not compare, --db could not store), 2 --max-latency\n"
			      "exceeded, --gate failed (even when it refused other tables), or\n"
			      "a threshold given with --test-args (--max-msw, --break).");
	if (r)
		return r > 0 ? 0 : 1;
	if (!s->gate && (s->gate_baseline || s->gate_margin ||
			 s->gate_metrics || s->gate_cannot_tell)) {
		log_error("--baseline, --margin, --gate-metrics and --cannot-tell go with --gate");
		return 1;
	}
	if (s->gate_db && suite_db_name(s) < 0)
		return 1;
	/* with --gate the history must be there (it is not made): opened
	 * before its baseline is read */
	if (suite_gate_from_db(s) && suite_db_check(s) < 0)
		return 1;
	if (s->gate && suite_gate_prepare(s) < 0)
		return 1;
	if (build_runs(s) < 0 || check_privilege(s) < 0)
		return 1;
	sysdesc_read(&s->sys, "/");
	if (suite_gate_check(s) < 0)
		return 1;
	suite_label_exe(s);
	name_outdir(s);
	/* the history opened (or made) only once no output clashes with it */
	if (check_outputs(s) < 0 ||
	    (s->gate_db && !suite_gate_from_db(s) && suite_db_check(s) < 0) ||
	    make_outdir(s) < 0)
		return 1;

	if (s->no_throttling) {
		char err[256];

		if (rt_throttle_disable(&s->thr_off, err, sizeof(err)) < 0) {
			log_error("%s", err);
			return 1;
		}
	}
	/* signals: taken by the run loop, forwarded to the running test */
	stop_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* what a run leaves behind becomes ours: killed and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);

	s->wall_start = clock_now_ns(CLOCK_REALTIME);
	snapshot_before(s);
	suite_check(s);
	write_index(s, "running");
	if (!s->quiet) {
		/* runs x (3650 d + 1 d) can pass INT64_MAX ns: saturated */
		each_est = run_estimate(s, overhead);
		fmt_hms(est, each_est > INT64_MAX / (s->nruns ? s->nruns : 1) ?
			     INT64_MAX : (int64_t)s->nruns * each_est);
		log_note("%d run%s of %s each, about %s in all; results in %s/",
			 s->nruns, s->nruns == 1 ? "" : "s", fmt_time(each, s->duration_ns), est,
			 s->outdir);
	}
	suite_t0 = clock_now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < s->nruns && !s->interrupted; i++) {
		struct timespec zero = { 0, 0 };

		int sig = sigtimedwait(&sigs, NULL, &zero);

		if (sig > 0) {
			s->interrupted = true;
			s->interrupt_signal = sig;
			break;
		}
		run_one(s, &s->runs[i], suite_t0, overhead);
		report_failure(s, &s->runs[i]);
		if (s->runs[i].ran) {
			spent += s->runs[i].elapsed_ns -
				 run_estimate(s, 0);
			overhead = spent / ++done;
			if (overhead < 0)
				overhead = 0;
		}
		write_index(s, "running");
	}
	progress_done(s);
	snap_copy(s, "/proc/interrupts", "interrupts.after");
	s->wall_end = clock_now_ns(CLOCK_REALTIME);
	return finish(s);
}

const struct rtlat_cmd cmd_suite = {
	.name = "suite",
	.measures = true,
	.summary = "the whole qualification: every test without and with load, one report",
	.main = suite_main,
};
