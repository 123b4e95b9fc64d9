// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat report: read rtlat results and other tools' outputs (or the
 * history database) and print one table per test kind and load, one row
 * per run; optionally an HTML page with plots.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "util/log.h"

#ifdef HAVE_REPORT
#include "report/cli.h"
#include "report/render/cmp_html.h"

static const struct optdesc report_opts[] = {
	{ "html", 0, required_argument, "FILE",
	  "also write a self-contained HTML page with the tables and gnuplot\n"
	  "plots (histogram, latency over time, tail, max/p99.9 bars; per\n"
	  "board with runs over time, interval maxima and max/p99.9 over\n"
	  "time per kernel)", OPT_REPORT_HTML },
	{ "html-runs", 0, required_argument, "N",
	  "with --html: a run's own plots (histogram, latency over time)\n"
	  "only for the N latest runs of each table (default: every run;\n"
	  "0: none), for a page over a long history", OPT_REPORT_HTML_RUNS },
	{ "longterm", 0, no_argument, NULL,
	  "with --html: only the long-term view (per board and kernel,\n"
	  "interval maxima over time and max/p99.9 over runs) with the\n"
	  "tables: no plot of a single run, no bars or tails", OPT_REPORT_LONGTERM },
	{ "runs", 0, no_argument, NULL,
	  "a history of more than 200 runs (that pass the filters) is\n"
	  "summarised, a row per board, kernel, test and load: print its\n"
	  "runs instead, a row each", OPT_REPORT_RUNS },
	{ "limit", 0, required_argument, "N",
	  "only the N latest runs of the history (that pass the filters;\n"
	  "by start time), a row each", OPT_REPORT_LIMIT },
	{ "summary", 0, no_argument, NULL,
	  "the history's summary however few runs pass the filters",
	  OPT_REPORT_SUMMARY },
	OPT_END,
};

static int report_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct rep_cli *c = ctx;
	int r;

	if (d->key == OPT_REPORT_HTML) {
		c->html = arg;
		return 0;
	}
	if (d->key == OPT_REPORT_HTML_RUNS) {
		char *end;
		long v = strtol(arg, &end, 10);

		if (end == arg || *end || v < 0 || v > 1000000)
			return opt_bad_value(d, arg, "a number of runs from 0");
		c->out.html_runs = v;
		return 0;
	}
	if (d->key == OPT_REPORT_LONGTERM) {
		c->out.html_longterm = true;
		return 0;
	}
	if (d->key == OPT_REPORT_SUMMARY) {
		c->summary = true;
		return 0;
	}
	if (d->key == OPT_REPORT_RUNS) {
		c->runs = true;
		return 0;
	}
	if (d->key == OPT_REPORT_LIMIT) {
		char *end;
		long v = strtol(arg, &end, 10);

		if (end == arg || *end || v < 1 || v > 100000000)
			return opt_bad_value(d, arg, "a number of runs from 1");
		c->limit = v;
		return 0;
	}
	r = rep_cli_opt(ctx, d, arg);
	return r > 0 ? opt_bad_value(d, arg, "unsupported") : r;
}

static int report_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = {
		rep_input_opts, rep_filter_opts, rep_output_opts, report_opts,
		rep_common_opts, NULL,
	};
	struct rep_runs rs;
	struct rep_cli c;
	int first, nopt, nargs, r, ret;
	char **av = rep_cli_argv(argc, argv, tables, &nopt, &nargs);

	rep_cli_init(&c);
	c.cmd = REP_FMT_REPORT;
	c.out.spec_of = cmd_spec_of;
	import_set_load_names(cmd_load_names());
	r = opt_parse(nopt, av, tables, report_opt, &c,
		      "rtlat report [OPTIONS] [FILE|DIR]...",
		      "Read rtlat result files and suite directories, and the outputs of\n"
		      "cyclictest (--json, -q T: lines, -h histograms), Xenomai latency/\n"
		      "klatency/switch logs, RTAI latency displays, jitterdebugger,\n"
		      "oslat, the other rt-tests tools, rtla timerlat and stress-ng's\n"
		      "cyclic stressor (formats are detected by content, also in pasted\n"
		      "text with prompts, quoting and notes), and print one table per\n"
		      "test kind and load with one row per run: lat min | lat avg |\n"
		      "lat max | overrun/lost | p99.9 | test-time (a->b, b->a, rtt\n"
		      "min/avg/max for handshake series; sleep, dev min/avg/max for\n"
		      "cruncher series, no overrun). A p99.9 whose rank is beyond the histogram is shown as\n"
		      "\">=N\" (at least the histogram's limit N), one of fewer than 1000\n"
		      "samples as n/a. Without FILE, the runs of the history database\n"
		      "(see rtlat db) are reported; one of more than 200 runs as a\n"
		      "summary, a row per board, kernel, test and load (--runs,\n"
		      "--limit N: its runs).\n"
		      "Options may also follow the files; \"--\" ends them.\n"
		      "Exit status: 0 ok, 1 an input could not be read (the others are\n"
		      "still reported).",
		      &first);
	if (r) {
		free(av);
		return r > 0 ? 0 : 1;
	}
	if (!c.html && (c.out.html_runs >= 0 || c.out.html_longterm)) {
		log_error("%s goes with --html", c.out.html_longterm ?
			  "--longterm" : "--html-runs");
		free(av);
		return 1;
	}
	if (c.summary && (c.runs || c.limit || c.out.threads ||
			  (c.html && !c.out.html_longterm) || nargs > nopt)) {
		log_error("--summary goes with the history alone, without %s",
			  nargs > nopt ? "files" : c.runs ? "--runs" :
			  c.limit ? "--limit" : c.html ? "--html (but --html --longterm)" :
			  "--threads");
		free(av);
		return 1;
	}
	if (nargs == nopt) {
		bool done;
		int sig;

		ret = rep_cli_summary(&c, &done, &sig);
		if (sig) {
			/* cleaned up: end as the signal would have ended us */
			free(av);
			fflush(stdout);
			signal(sig, SIG_DFL);
			raise(sig);
			return 1;
		}
		if (done) {
			free(av);
			if (!ret && (fflush(stdout) || ferror(stdout))) {
				log_error("cannot write the report to stdout");
				ret = 1;
			}
			return ret;
		}
	}
	runs_init(&rs);
	ret = rep_cli_load(&c, av + nopt, nargs - nopt, &rs);
	free(av);
	if (!rs.n) {
		if (!ret)
			log_error("no run matches the filters");
		runs_free(&rs);
		return 1;
	}
	rep_cli_print(&c, &rs);
	if (c.html) {
		int nplots = 0, h = html_report(c.html, &rs, &c.out, &nplots);

		if (h > 0) {
			/* cleaned up: end as the signal would have ended us */
			runs_free(&rs);
			fflush(stdout);
			signal(h, SIG_DFL);
			raise(h);
			return 1;
		}
		if (h)
			ret = 1;
		else
			log_note("%s: %zu runs, %d plots", c.html,
				 runs_count(&rs), nplots);
	}
	runs_free(&rs);
	if (fflush(stdout) || ferror(stdout)) {
		log_error("cannot write the report to stdout");
		ret = 1;
	}
	return ret;
}

static const struct optdesc compare_opts[] = {
	{ "gate", 0, no_argument, NULL,
	  "release gate: A is the baseline, B the new runs; per table and\n"
	  "gated metric a verdict with its reason; exit 2 when one is worse\n"
	  "than the baseline beyond its limit (the noise of the baseline's\n"
	  "runs, at least --margin), 1 when a table of B has no baseline of\n"
	  "the same test kind, load and period (refused, not compared; the\n"
	  "other tables are gated all the same)", OPT_COMPARE_GATE },
	{ "margin", 0, required_argument, "PCT",
	  "with --gate: the smallest worsening that fails, and the limit\n"
	  "when the baseline has one run (noise unknown), in % of the\n"
	  "baseline value (default 10%)", OPT_COMPARE_MARGIN },
	{ "gate-metrics", 0, required_argument, "LIST",
	  "with --gate: the metrics gated, of min, avg, max, p99.9, misses\n"
	  "(overruns or lost) (default max,p99.9,avg,misses)", OPT_COMPARE_GATE_METRICS },
	{ "cannot-tell", 0, required_argument, "WHAT",
	  "with --gate: what a metric the data cannot tell (too few\n"
	  "intervals, samples or runs) does to the gate: pass (said, exit\n"
	  "status 0) or fail (exit status 2) (default pass)", OPT_COMPARE_CANNOT_TELL },
	{ "json", 0, no_argument, NULL,
	  "with --gate: the comparison and verdicts as one JSON document\n"
	  "(schema rtlat-gate, times in ns) instead of tables", OPT_COMPARE_JSON },
	{ "html", 0, required_argument, "FILE",
	  "also write the comparison as a self-contained HTML page: what\n"
	  "changed in the system, the tables with their verdicts, and with\n"
	  "--gate the gate's verdicts", OPT_COMPARE_HTML },
	{ "with-interrupted", 0, no_argument, NULL,
	  "compare (with --gate: gate) runs cut short by a signal (status\n"
	  "interrupted) too; by default they are left out of both sides, and\n"
	  "said (without --gate a side of interrupted runs only is compared)", OPT_COMPARE_WITH_INTR },
	OPT_END,
};

struct compare_cli {
	struct rep_cli c;	/* first: report_opt() takes it */
	struct gate_opts g;
	bool gate, json;
	const char *html;	/* --html FILE, or NULL */
	const char *gate_only;	/* an option of --gate given (--margin...) */
	struct gate_refusal *ref;	/* tables the gate refused */
	size_t nref;
};

static int compare_opt(void *ctx, const struct optdesc *d, const char *arg)
{
	struct compare_cli *cc = ctx;
	const char *why;

	switch (d->key) {
	case OPT_COMPARE_GATE:
		cc->gate = true;
		return 0;
	case OPT_COMPARE_JSON:
		cc->json = true;
		return 0;
	case OPT_COMPARE_WITH_INTR:
		cc->g.with_interrupted = true;
		return 0;
	case OPT_COMPARE_MARGIN:
		cc->gate_only = "--margin";
		why = gate_margin_parse(&cc->g, arg);
		return why ? opt_bad_value(d, arg, why) : 0;
	case OPT_COMPARE_HTML:
		cc->html = arg;
		return 0;
	case OPT_COMPARE_CANNOT_TELL:
		cc->gate_only = "--cannot-tell";
		why = gate_cannot_tell_parse(&cc->g, arg);
		return why ? opt_bad_value(d, arg, why) : 0;
	case OPT_COMPARE_GATE_METRICS:
		cc->gate_only = "--gate-metrics";
		why = gate_metrics_parse(&cc->g, arg);
		return why ? opt_bad_value(d, arg, why) : 0;
	default:
		return report_opt(&cc->c, d, arg);
	}
}

/* Side @side (@what: its file or directory) has no run: an error, never a
 * silent pass. Returns 1. */
static int no_runs(const char *side, const char *what,
		   const struct rep_cli *c)
{
	if (!filter_empty(&c->flt))
		log_error("%s (%s): no run passes the filter options (--test, --load, --board, --kernel, --label, --since, --until): nothing compared",
			  side, what);
	else
		log_error("%s (%s): no run: nothing compared", side, what);
	return 1;
}

/* The runs of @pool that pass @f (copies). */
static void select_runs(const struct rep_runs *pool, const struct filter *f,
			struct rep_runs *out)
{
	size_t i;

	for (i = 0; i < pool->n; i++)
		if (filter_match(f, pool->v[i]))
			runs_push(out, run_dup(pool->v[i]));
}

/* Compare (or gate) @a against @b: rows in *@rows (and *@gates with
 * --gate), their number in *@n. Returns 0, or 1 when the gate refused a
 * table (said; the others are gated, the refused in cc->ref). */
static int sides(struct compare_cli *cc, const struct rep_runs *a,
		 const struct rep_runs *b, struct cmp_row **rows,
		 struct gate_row **gates, size_t *n)
{
	size_t k;

	if (!cc->gate) {
		*n = cmp_sides(a, b, cc->g.with_interrupted, rows);
		return 0;
	}
	*n = gate_sides(a, b, &cc->g, gates, &cc->ref, &cc->nref);
	*rows = xcalloc(*n + 1, sizeof(**rows));
	for (k = 0; k < *n; k++)
		(*rows)[k] = (*gates)[k].c;
	return cc->nref ? 1 : 0;
}

static const char compare_about[] =
	"Compare two sides run by run: per metric (lat min, lat avg, lat max,\n"
	"p99.9, overruns/lost; dev/sleep/a->b/b->a/rtt for the series of\n"
	"cruncher and handshake; noise's max gap, noise %, on CPU, events,\n"
	"p99.9 as its NOISE table) the values, the delta and % change, and\n"
	"whether the difference exceeds the run-to-run noise visible in the\n"
	"data (spread of repeated runs, else of the interval series, else a\n"
	"fixed rule: 10 % for min/avg, 25 % for max/p99.9; see\n"
	"rtlat-compare(1)). A p99.9 beyond a histogram (\">=N\") is shown,\n"
	"not compared.\n"
	"A and B are files or directories (groups of runs); one FILE compares\n"
	"within each of its tables the first run with the others; a SELECTOR\n"
	"KEY=GLOB[,KEY=GLOB] (label, board, kernel, test, load, since, until)\n"
	"picks a side from the given files or the history database; one\n"
	"SELECTOR with files: the selector's side from the history, the\n"
	"files the other (\"board=NAME,baseline=yes new/\").\n"
	"Tables of A and B are matched by test kind (and series) and load: the\n"
	"same load where both sides have it (a load not recorded matches any);\n"
	"a test kind whose tables share no load on the two sides is compared\n"
	"across loads, titled with both (\"LATENCY: without load (A) vs with\n"
	"load hell (B)\"), e.g. rtlat compare 01-latency-none.json\n"
	"02-latency-hell.json, or load=none load=hell. A table with no figure\n"
	"on both sides says \"nothing to compare\" in one line.\n"
	"With --gate, A is the board's baseline (e.g. the selector\n"
	"board=NAME,baseline=yes over the history, see rtlat db baseline)\n"
	"and B the new runs: see rtlat-compare(1), \"Release gate\".\n"
	"Options may also follow the operands; \"--\" ends them.\n"
	"Exit status: 0 ok (with --gate: no gated metric worse), 1 an\n"
	"error (an input, a usage error; with --gate a refused table),\n"
	"2 with --gate: a gated metric worse than the baseline (even when\n"
	"other tables were refused or inputs failed).";

/* compare's options before they are parsed. */
static void compare_init(struct compare_cli *cc)
{
	rep_cli_init(&cc->c);
	cc->c.cmd = REP_FMT_COMPARE;
	/* a test's own table, its own metrics (noise: max gap, noise %) */
	cc->c.out.spec_of = cmd_spec_of;
	cmp_set_spec_of(cmd_spec_of);
	gate_opts_init(&cc->g);
	cc->gate = cc->json = false;
	cc->html = NULL;
	cc->gate_only = NULL;
	cc->ref = NULL;
	cc->nref = 0;
	import_set_load_names(cmd_load_names());
}

/* Options that go with --gate only. Returns 0, or 1 (said). */
static int compare_check(const struct compare_cli *cc)
{
	if (cc->json && !cc->gate) {
		log_error("--json needs --gate (the comparison tables are text, --markdown or --csv)");
		return 1;
	}
	if (cc->gate_only && !cc->gate) {
		log_error("%s goes with --gate (without it nothing is gated and compare exits 0 whatever it finds)",
			  cc->gate_only);
		return 1;
	}
	return 0;
}

/* compare's operands, @av[@nopt] to @av[@nargs - 1]: the files and
 * directories into @paths (*@np), the selectors KEY=GLOB into @sel (*@ns,
 * two at most; *@sel_first: the one selector came before the files).
 * Returns 0, or 1 (said) when they make no comparison. */
static int operands(char **av, int nopt, int nargs, char **paths, int *np,
		    char **sel, int *ns, bool *sel_first)
{
	int i;

	for (i = nopt; i < nargs; i++) {
		if (access(av[i], F_OK) && strchr(av[i], '=')) {
			if (*ns == 2) {
				log_error("more than two selectors ('%s'): compare takes two, one per side",
					  av[i]);
				return 1;
			}
			if (!*ns && !*np)
				*sel_first = true;
			sel[(*ns)++] = av[i];
		} else {
			paths[(*np)++] = av[i];
		}
	}
	if (*np > 2 && !*ns) {
		log_error("three or more files or directories ('%s', '%s', '%s'%s): compare takes A B (two files or directories), one FILE, or FILE... with two selectors KEY=GLOB",
			  paths[0], paths[1], paths[2], *np > 3 ? ", ..." : "");
		return 1;
	}
	if (*ns == 1 && !*np) {
		log_error("one selector ('%s') and no file: give two selectors (one per side), or one side as a selector over the history and the other as files or directories (e.g. board=NAME,baseline=yes results/)",
			  sel[0]);
		return 1;
	}
	if (!*ns && !*np) {
		log_error("nothing to compare (see --help)");
		return 1;
	}
	return 0;
}

/* The comparison's @n tables (and with --gate their verdicts) on
 * stdout, after what changed in the system, and with --html as a page; @a
 * and @b: the sides' runs; @ret: the status so far. Returns the exit
 * status. */
static int compare_output(struct compare_cli *cc, struct cmp_row *rows,
			  struct gate_row *gates, size_t n,
			  const struct rep_runs *a, const struct rep_runs *b,
			  int ret)
{
	const struct rep_cli *c = &cc->c;
	size_t k;

	if (!n && cc->json && cc->nref) {
		gate_print_json(stdout, gates, n, cc->ref, cc->nref, &cc->g);
		goto flush;
	}
	if (!n) {
		if (ret)
			return ret;	/* refused: said */
		if (a->n && b->n)
			log_error("A and B have no table in common: no test kind (and series) is on both sides");
		return 1;
	}
	if (cc->json) {
		gate_print_json(stdout, gates, n, cc->ref, cc->nref, &cc->g);
		goto flush;
	}
	c->fmt->cmp_begin(stdout, a, b, cc->gate);
	for (k = 0; k < n; k++) {
		char left[192];
		const char *lo = cc->gate ? NULL :
				 cmp_left_out(&rows[k], left, sizeof(left));

		c->fmt->cmp_row(stdout, k, &rows[k], cc->gate ? &gates[k] : NULL,
				lo, &c->out);
	}
	if (c->fmt->cmp_end)
		c->fmt->cmp_end(stdout, cc->gate ? gates : NULL, n, cc->nref);
flush:
	if (cc->html && cmp_html_write(cc->html, rows, n, cc->gate ? gates : NULL,
				       cc->nref, a->n ? a : NULL, b->n ? b : NULL,
				       c->out.unit_ns))
		ret = 1;	/* said; a worse metric still makes it 2 */
	/* a regression found is one, whatever else was refused */
	if (cc->gate && gate_failed(gates, n))
		ret = 2;
	if (fflush(stdout) || ferror(stdout)) {
		log_error("cannot write the comparison to stdout");
		ret = 1;
	}
	return ret;
}

/* The sides A (@a) and B (@b) that @ns selectors (@sel; @selbuf: their
 * copies, freed by the caller) pick: two, both from @pool (the files
 * @paths and the history); one, its side from the history and the other
 * the files (@sel_first: the selector's side is A). Returns 0, or the
 * exit status (said) when there is nothing to compare. */
static int selector_sides(struct rep_cli *c, char **paths, int np,
			  char **sel, int ns, bool sel_first, char **selbuf,
			  struct rep_runs *pool, struct rep_runs *a,
			  struct rep_runs *b)
{
	/* one side a selector over the history (--db or the default one),
	 * the other the files: "board=vm,baseline=yes new/" */
	struct rep_runs *hs = sel_first ? a : b, *fs = sel_first ? b : a;
	struct filter fa, fb;
	int ret;

	if (ns == 2) {
		selbuf[0] = xstrdup(sel[0]);
		selbuf[1] = xstrdup(sel[1]);
		if (rep_selector_parse(selbuf[0], &fa) ||
		    rep_selector_parse(selbuf[1], &fb))
			return 1;
		/* the pool: the files among the operands, and the database
		 * (--db, or the default one when no file is given); a run in
		 * both counts once */
		ret = rep_cli_load(c, np ? paths : NULL, np, pool);
		if (ret)	/* an input failed (said): compare no part */
			return ret;
		select_runs(pool, &fa, a);
		select_runs(pool, &fb, b);
		if (!a->n || !b->n) {
			/* a history that failed to open said so: no second error */
			log_error("selector '%s' picks no run",
				  !a->n ? sel[0] : sel[1]);
			return 1;
		}
		return 0;
	}
	selbuf[0] = xstrdup(sel[0]);
	if (rep_selector_parse(selbuf[0], &fa))
		return 1;
	if (!c->db && !rdb_exists(rdb_default_path())) {
		log_error("selector '%s' takes its side from the history, and there is none: the default %s does not exist (fill it with: rtlat db add FILE...; two selectors pick both sides from the files given)",
			  sel[0], rdb_default_path() ? rdb_default_path() :
			  "$XDG_DATA_HOME/rtlat/history.db");
		return 1;
	}
	ret = rep_cli_load(c, NULL, 0, pool);
	select_runs(pool, &fa, hs);
	if (ret)	/* the history failed (said) */
		return 1;
	if (import_paths(paths, np, &c->imp, fs))
		return 1;	/* said: compare no part */
	runs_filter(fs, &c->flt);
	if (!hs->n) {
		log_error("selector '%s' picks no run of the history %s (one selector takes its side from the history; two selectors pick both sides from the files given)",
			  sel[0], rdb_shown(c->db ? c->db : rdb_default_path()));
		return 1;
	}
	if (!fs->n)
		return no_runs(sel_first ? "B" : "A", "the files", c);
	return 0;
}

static int compare_main(int argc, char **argv)
{
	static const struct optdesc *const tables[] = {
		rep_input_opts, rep_filter_opts, rep_output_opts, compare_opts,
		rep_common_opts, NULL,
	};
	struct rep_runs pool, a, b;
	struct cmp_row *rows = NULL;
	struct gate_row *gates = NULL;
	struct compare_cli cc;
	char **paths, *sel[2], *selbuf[2] = { NULL, NULL };
	int first, nopt, nargs, r, ret = 0, np = 0, ns = 0;
	bool sel_first = false;	/* the one selector came before the files */
	char **av = rep_cli_argv(argc, argv, tables, &nopt, &nargs);
	struct rep_cli *c = &cc.c;
	size_t n = 0;

	compare_init(&cc);
	paths = xcalloc((size_t)nargs + 1, sizeof(*paths));
	runs_init(&pool);
	runs_init(&a);
	runs_init(&b);
	r = opt_parse(nopt, av, tables, compare_opt, &cc,
		      "rtlat compare [OPTIONS] A B | FILE | [FILE...] SELECTOR SELECTOR |\n"
		      "       SELECTOR FILE|DIR...",
		      compare_about, &first);
	if (r) {
		ret = r > 0 ? 0 : 1;
		goto out;
	}
	cc.g.unit_ns = c->out.unit_ns;
	if (compare_check(&cc)) {
		ret = 1;
		goto out;
	}
	if (operands(av, nopt, nargs, paths, &np, sel, &ns, &sel_first)) {
		ret = 1;
		goto out;
	}
	if (ns) {
		/* the sides loaded: ret is 0 */
		ret = selector_sides(c, paths, np, sel, ns, sel_first, selbuf,
				     &pool, &a, &b);
		if (ret)
			goto out;
		ret |= sides(&cc, &a, &b, &rows, &gates, &n);
	} else if (np == 2) {
		ret = rep_cli_load(c, &paths[0], 1, &a);
		ret |= rep_cli_load(c, &paths[1], 1, &b);
		/* a side that failed (said) is not compared in part, nor
		 * replaced by the --db history alone */
		if (ret)
			goto out;
		if (!a.n || !b.n) {
			if (!ret)
				ret = no_runs(!a.n ? "A" : "B",
					      !a.n ? paths[0] : paths[1], c);
			goto out;
		}
		ret |= sides(&cc, &a, &b, &rows, &gates, &n);
	} else if (cc.gate) {
		log_error("--gate needs two sides: the baseline A and the new runs B (files, directories or two selectors)");
		ret = 1;
		goto out;
	} else {
		ret = rep_cli_load(c, &paths[0], 1, &pool);
		if (ret)	/* said: compare no part */
			goto out;
		if (!pool.n) {
			if (!ret)
				ret = no_runs("the file", paths[0], c);
			goto out;
		}
		n = cmp_within(&pool, &rows);
		if (!n && pool.n)
			log_error("%s: no table with two runs to compare", paths[0]);
	}
	ret = compare_output(&cc, rows, gates, n, &a, &b, ret);
out:
	free(rows);
	free(gates);
	free(cc.ref);
	free(selbuf[0]);
	free(selbuf[1]);
	free(paths);
	free(av);
	runs_free(&pool);
	runs_free(&a);
	runs_free(&b);
	return ret;
}

#else /* !HAVE_REPORT */

/* rtlat-host, or not built in */
#define report_main cmd_host_main
#define compare_main cmd_host_main

#endif

const struct rtlat_cmd cmd_report = {
	.name = "report",
	.summary = "tables (text, markdown, CSV, HTML with plots) from results and logs",
	.main = report_main,
};

const struct rtlat_cmd cmd_compare = {
	.name = "compare",
	.summary = "compare two runs or groups: delta, % change, beyond noise?",
	.main = compare_main,
};
