// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --metrics FILE, --metrics-port PORT: the live figures of a run as
 * OpenMetrics text (metrics.h, docs/metrics.md).
 *
 * Everything here runs on the display side: poll() (display thread, every
 * 20 ms) rewrites the file when an interval was closed since the last
 * write and serves the HTTP connections (the listening socket every
 * 100 ms: one system call each time); finish() (main thread, the
 * display joined) writes the final file. The figures are the display's
 * per-sampler totals (r->total), which only grow: a counter never goes
 * down from one read to the next.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_view.h"
#include "util/label.h"
#include "util/log.h"
#include "util/outfile.h"
#include "util/parse.h"
#include "system/sysinfo.h"
#include "util/timeutil.h"
#include "metrics/http.h"
#include "metrics/metrics.h"

#define HTTP_IDLE_POLL_NS	(100 * NSEC_PER_MSEC)
#define OM_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* Bucket edges: these values, each raised to the upper edge of the
 * log-linear bucket holding it (at most 0.79 % above), so that every
 * bucket count is exact. */
static const int64_t nice_ns[] = {
	0, 100, 200, 500,
	1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000,
	1000000, 2000000, 5000000, 10000000, 20000000, 50000000,
	100000000, 200000000, 500000000, 1000000000,
};
#define NLE ((int)(sizeof(nice_ns) / sizeof(nice_ns[0])))

struct metrics_state {
	const char *file;		/* --metrics, or NULL */
	int port;			/* --metrics-port, -1: none */
	const char *addr;		/* --metrics-addr */
	bool addr_given;
	const char *label;		/* --metrics-label, or NULL */
	const struct run *r;		/* for the HTTP body */
	uint64_t written_k;		/* r->next_k of the last file written */
	bool written;
	bool write_failed;		/* the last write failed (said once) */
	/* --metrics-port only: its connections' buffers (64 KiB) are not
	 * allocated, and locked, for a run that serves none */
	struct http_server *http;
	int64_t http_polled;		/* last http_poll(), CLOCK_MONOTONIC */
};

/* ---- the text ----------------------------------------------------------- */

/* A label value: \\, \" and \n escaped, other control characters
 * blanks, appended to @buf (@len bytes, @n used; truncated to fit). */
static size_t put_value(char *buf, size_t len, size_t n, const char *s)
{
	for (; *s && n + 3 < len; s++) {
		if (*s == '\\' || *s == '"')
			buf[n++] = '\\';
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			buf[n++] = ' ';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	return n;
}

static size_t put_label(char *buf, size_t len, size_t n, const char *name,
			const char *v)
{
	int k = snprintf(buf + n, len - n, "%s%s=\"", n ? "," : "", name);

	if (k < 0 || (size_t)k >= len - n)
		return n;
	n = put_value(buf, len, n + (size_t)k, v);
	if (n + 1 < len) {
		buf[n++] = '"';
		buf[n] = '\0';
	}
	return n;
}

/* The label sets of a text, made once per text: the run's (test, host,
 * board, kernel, label), and per series the run's and its own (series,
 * sampler, cpu). */
struct labels {
	char run[1024];
	char series[1400];
};

static void run_labels(struct labels *l, const struct run *r,
		       const char *label)
{
	const struct sysdesc *sys = r->sys;
	size_t n = 0;

	l->run[0] = '\0';
	n = put_label(l->run, sizeof(l->run), n, "test", r->test->name);
	if (!r->no_host)
		n = put_label(l->run, sizeof(l->run), n, "host",
			      sys ? sys->hostname : "");
	n = put_label(l->run, sizeof(l->run), n, "board", sys ? sys->board : "");
	n = put_label(l->run, sizeof(l->run), n, "kernel",
		      sys ? sys->release : "");
	if (label)
		put_label(l->run, sizeof(l->run), n, "label", label);
}

static void series_labels(struct labels *l, const struct sampler *s, int j)
{
	char num[24];
	size_t n;

	n = (size_t)snprintf(l->series, sizeof(l->series), "%s", l->run);
	n = put_label(l->series, sizeof(l->series), n, "series",
		      s->series[j].desc->name);
	snprintf(num, sizeof(num), "%d", s->id);
	n = put_label(l->series, sizeof(l->series), n, "sampler", num);
	if (s->cpu >= 0)
		snprintf(num, sizeof(num), "%d", s->cpu);
	else
		snprintf(num, sizeof(num), "any");
	put_label(l->series, sizeof(l->series), n, "cpu", num);
}

/* name{labels (the caller closes it) */
static void sample_start(FILE *f, const char *name, const char *labels)
{
	fputs(name, f);
	fputc('{', f);
	fputs(labels, f);
}

/* @ns as seconds, exactly: "0.000001003", "-0.5", "0.0". */
static const char *fmt_sec(char *buf, size_t len, int64_t ns)
{
	uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	int n = snprintf(buf, len, "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "",
			 m / 1000000000u, m % 1000000000u);

	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	return buf;
}

/* The exact sum of @st as seconds. */
static const char *fmt_sum(char *buf, size_t len, const struct stats *st)
{
	int64_t lo = (int64_t)st->sum_lo;

	if ((st->sum_hi == 0 && lo >= 0) || (st->sum_hi == -1 && lo < 0))
		return fmt_sec(buf, len, lo);
	snprintf(buf, len, "%.9Lf", stats_sum(st) / 1e9L);
	return buf;
}

static void family(FILE *f, const char *name, const char *type,
		   const char *unit, const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s %s\n", name, help);
}

/* Each measuring sampler's series (sampler @i, series @j). */
#define for_each_series(r, i, j)					\
	for ((i) = 0; (i) < (r)->nsamplers; (i)++)			\
		for ((j) = 0; (j) < (r)->s[i].nseries; (j)++)

static void histogram_samples(FILE *f, const char *labels,
			      const struct accum *a)
{
	const struct histogram *h = &a->hist;
	uint64_t cum = h->underflow;
	size_t b = 0;
	char sec[40];
	int k;

	for (k = 0; k < NLE; k++) {
		long idx = hist_index(h, nice_ns[k]);
		int64_t lo, hi;

		hist_bucket_range(h, (size_t)idx, &lo, &hi);
		for (; h->count && b <= (size_t)idx; b++)
			cum += h->count[b];
		sample_start(f, "rtlat_latency_seconds_bucket", labels);
		fprintf(f, ",le=\"%s\"} %" PRIu64 "\n",
			fmt_sec(sec, sizeof(sec), hi), cum);
	}
	sample_start(f, "rtlat_latency_seconds_bucket", labels);
	fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", a->st.n);
	sample_start(f, "rtlat_latency_seconds_count", labels);
	fprintf(f, "} %" PRIu64 "\n", a->st.n);
	sample_start(f, "rtlat_latency_seconds_sum", labels);
	fprintf(f, "} %s\n", fmt_sum(sec, sizeof(sec), &a->st));
}

/* The samples of a gauge per series: the max (@max) or the min. */
static void extreme_samples(FILE *f, const struct run *r, struct labels *l,
			    bool max)
{
	char sec[40];
	int i, j;

	for_each_series(r, i, j) {
		const struct accum *a = &r->total[i][j];

		if (!a->st.n)
			continue;
		series_labels(l, &r->s[i], j);
		sample_start(f, max ? "rtlat_latency_max_seconds" :
			     "rtlat_latency_min_seconds", l->series);
		fprintf(f, "} %s\n", fmt_sec(sec, sizeof(sec),
					     max ? a->st.max : a->st.min));
	}
}

void metrics_render(FILE *f, const struct run *r, const char *label,
		    bool running)
{
	struct labels l;
	char sec[40], miss[64];
	int i, j;

	run_labels(&l, r, label);
	family(f, "rtlat_run", "info", NULL,
	       "The run: its test, host, board, kernel and --metrics-label.");
	sample_start(f, "rtlat_run_info", l.run);
	fputs("} 1\n", f);
	family(f, "rtlat_running", "gauge", NULL,
	       "1 while the run measures, 0 once it ended.");
	sample_start(f, "rtlat_running", l.run);
	fprintf(f, "} %d\n", running ? 1 : 0);
	family(f, "rtlat_measured_seconds", "gauge", "seconds",
	       "Time measured so far (after the warm-up).");
	sample_start(f, "rtlat_measured_seconds", l.run);
	fprintf(f, "} %s\n", fmt_sec(sec, sizeof(sec), run_actual_ns(r)));
	family(f, "rtlat_intervals", "counter", NULL,
	       "Intervals (--interval) closed and counted in these figures.");
	sample_start(f, "rtlat_intervals_total", l.run);
	fprintf(f, "} %" PRIu64 "\n", r->next_k);

	family(f, "rtlat_latency_seconds", "histogram", "seconds",
	       "Samples of each series and sampler (each bucket edge is the "
	       "upper edge of a histogram bucket: exact counts).");
	for_each_series(r, i, j) {
		series_labels(&l, &r->s[i], j);
		histogram_samples(f, l.series, &r->total[i][j]);
	}
	family(f, "rtlat_latency_max_seconds", "gauge", "seconds",
	       "Highest sample so far (none before the first sample).");
	extreme_samples(f, r, &l, true);
	family(f, "rtlat_latency_min_seconds", "gauge", "seconds",
	       "Lowest sample so far (none before the first sample).");
	extreme_samples(f, r, &l, false);
	family(f, "rtlat_samples", "counter", NULL,
	       "Samples accounted (each period is a sample or a miss).");
	for_each_series(r, i, j) {
		series_labels(&l, &r->s[i], j);
		sample_start(f, "rtlat_samples_total", l.series);
		fprintf(f, "} %" PRIu64 "\n", r->total[i][j].st.n);
	}
	family(f, "rtlat_misses", "counter", NULL,
	       "Missed periods (overruns) or lost events of each series.");
	for_each_series(r, i, j) {
		const char *m = r->s[i].series[j].desc->miss_name;

		series_labels(&l, &r->s[i], j);
		put_value(miss, sizeof(miss), 0, m ? m : "overruns");
		sample_start(f, "rtlat_misses_total", l.series);
		fprintf(f, ",miss=\"%s\"} %" PRIu64 "\n", miss,
			r->total[i][j].overruns);
	}
	if (r->o->max_latency_ns >= 0) {
		bool over = false;

		for_each_series(r, i, j) {
			const struct accum *a = &r->total[i][j];

			if (r->s[i].series[j].desc->threshold && a->st.n &&
			    a->st.max > r->o->max_latency_ns)
				over = true;
		}
		family(f, "rtlat_max_latency_seconds", "gauge", "seconds",
		       "The --max-latency threshold.");
		sample_start(f, "rtlat_max_latency_seconds", l.run);
		fprintf(f, "} %s\n",
			fmt_sec(sec, sizeof(sec), r->o->max_latency_ns));
		family(f, "rtlat_threshold_exceeded", "gauge", NULL,
		       "1 once a sample exceeded --max-latency.");
		sample_start(f, "rtlat_threshold_exceeded", l.run);
		fprintf(f, "} %d\n", over ? 1 : 0);
	}
	fputs("# EOF\n", f);
}

/* ---- the file and the server ------------------------------------------- */

static int write_file(struct metrics_state *ms, const struct run *r,
		      bool running, char *err, size_t len)
{
	struct atomic_file af;
	char e[PATH_MAX + 128];
	FILE *f = atomic_open(&af, ms->file, e, sizeof(e));

	if (!f) {
		snprintf(err, len, "--metrics: %s", e);
		return -1;
	}
	metrics_render(f, r, ms->label, running);
	if (atomic_commit(&af, e, sizeof(e)) < 0) {
		snprintf(err, len, "--metrics: %s", e);
		return -1;
	}
	ms->written_k = r->next_k;
	ms->written = true;
	return 0;
}

static int http_body(void *ctx, char **buf, size_t *len)
{
	const struct metrics_state *ms = ctx;
	FILE *f = open_memstream(buf, len);

	if (!f)
		return -1;
	metrics_render(f, ms->r, ms->label, true);
	if (fclose(f) != 0) {
		free(*buf);
		*buf = NULL;
		return -1;
	}
	return 0;
}

/* ---- the companion (engine.h) ------------------------------------------ */

static void mc_init(struct companion *c)
{
	struct metrics_state *ms = c->state;

	ms->port = -1;
	ms->addr = "127.0.0.1";
}

static int mc_opt(struct companion *c, const struct optdesc *d,
		  const char *arg)
{
	struct metrics_state *ms = c->state;
	const char *why;
	long long v;

	switch (d->key) {
	case OPT_METRICS:
		if (!*arg)
			return opt_bad_value(d, arg, "expected a file name");
		ms->file = arg;
		return 0;
	case OPT_METRICS_PORT:
		if (parse_int(arg, 0, 65535, &v) < 0)
			return opt_bad_value(d, arg,
					     "expected a TCP port, 0 to 65535 (0: any free port)");
		ms->port = (int)v;
		return 0;
	case OPT_METRICS_ADDR:
		if (!http_addr_valid(arg))
			return opt_bad_value(d, arg,
					     "expected an IPv4 or IPv6 address (127.0.0.1, ::1, 0.0.0.0)");
		ms->addr = arg;
		ms->addr_given = true;
		return 0;
	case OPT_METRICS_LABEL:
		why = label_check(arg);
		if (why)
			return opt_bad_value(d, arg, why);
		ms->label = arg;
		return 0;
	}
	return 1;
}

static int mc_check(struct companion *c, const struct run *r, char *err,
		    size_t len)
{
	const struct metrics_state *ms = c->state;
	char e[PATH_MAX + 128];

	(void)r;
	if (ms->addr_given && ms->port < 0) {
		snprintf(err, len, "--metrics-addr needs --metrics-port");
		return -1;
	}
	if (ms->label && !ms->file && ms->port < 0) {
		snprintf(err, len, "--metrics-label needs --metrics or --metrics-port");
		return -1;
	}
	if (!ms->file)
		return 0;
	if (output_is_special(ms->file)) {
		snprintf(err, len, "--metrics '%s': not a regular file (it is rewritten at every interval)",
			 ms->file);
		return -1;
	}
	if (result_check_writable(ms->file, e, sizeof(e)) < 0) {
		snprintf(err, len, "--metrics: %s", e);
		return -1;
	}
	/* not the file of another output (--json, -g, --junit, ...) */
	return output_claim("--metrics", ms->file, err, len);
}

/* The samplers are set up (the loads forked before: they never hold the
 * listening socket). */
static int mc_start(struct companion *c, struct run *r, char *err, size_t len)
{
	struct metrics_state *ms = c->state;
	char e[256];

	ms->r = r;
	if (ms->port >= 0) {
		ms->http = malloc(sizeof(*ms->http));
		if (!ms->http) {
			snprintf(err, len, "--metrics-port: out of memory");
			return -1;
		}
		if (http_listen(ms->http, ms->addr, ms->port, "/metrics",
				OM_TYPE, http_body, ms, e, sizeof(e)) < 0) {
			snprintf(err, len, "--metrics-port: %s", e);
			return -1;
		}
		if (ms->port == 0)	/* the only way to learn the port */
			log_note_always("metrics at %s", ms->http->url);
		else
			log_note("metrics at %s", ms->http->url);
	}
	if (ms->file && write_file(ms, r, true, err, len) < 0)
		return -1;
	return 0;
}

/* Display thread: the file at each closed interval, the HTTP requests. */
static void mc_poll(struct companion *c, struct run *r, bool final)
{
	struct metrics_state *ms = c->state;
	char err[PATH_MAX + 160];
	int64_t now;

	if (ms->file && !final && r->next_k != ms->written_k) {
		/* like a checkpoint: a failure is said once, tried again at
		 * the next interval and at the end */
		if (write_file(ms, r, true, err, sizeof(err)) < 0) {
			if (!ms->write_failed)
				log_warn("%s (tried again at every interval and at the end)",
					 err);
			ms->write_failed = true;
			ms->written_k = r->next_k;
		} else if (ms->write_failed) {
			log_note("--metrics written again");
			ms->write_failed = false;
		}
	}
	/* idle, the listening socket is looked at every 100 ms (a system
	 * call each time); while a connection is open, at every poll */
	now = clock_now_ns(CLOCK_MONOTONIC);
	if (ms->http && ms->http->fd >= 0 &&
	    (http_busy(ms->http) || now - ms->http_polled >= HTTP_IDLE_POLL_NS)) {
		ms->http_polled = now;
		http_poll(ms->http);
	}
}

static void mc_stop(struct companion *c, struct run *r)
{
	struct metrics_state *ms = c->state;

	if (ms->http)
		http_close(ms->http);
}

/* The final figures (rtlat_running 0). */
static int mc_finish(struct companion *c, struct run *r, char *err,
		     size_t len)
{
	struct metrics_state *ms = c->state;

	if (!ms->file || !r->nsamplers)
		return 0;
	return write_file(ms, r, false, err, len);
}

static void mc_release(struct companion *c, struct run *r)
{
	struct metrics_state *ms = c->state;

	if (ms->http) {
		http_close(ms->http);
		free(ms->http);
		ms->http = NULL;
	}
}

static const struct optdesc metrics_opts[] = {
	{ "metrics", 0, required_argument, "FILE",
	  "OpenMetrics text of the run (histogram,\n"
	  "max, samples, misses per sampler and\n"
	  "series), rewritten atomically at every\n"
	  "interval (node_exporter textfile collector)", OPT_METRICS },
	{ "metrics-port", 0, required_argument, "PORT",
	  "serve the same text over HTTP at /metrics\n"
	  "on TCP PORT (0: any free port, said on\n"
	  "stderr)", OPT_METRICS_PORT },
	{ "metrics-addr", 0, required_argument, "ADDR",
	  "address of --metrics-port (default\n"
	  "127.0.0.1; 0.0.0.0 or :: for every one)", OPT_METRICS_ADDR },
	{ "metrics-label", 0, required_argument, "TEXT",
	  "label=\"TEXT\" on every metric", OPT_METRICS_LABEL },
	OPT_END
};

const struct companion_ops metrics_companion = {
	.name = "metrics",
	.state_size = sizeof(struct metrics_state),
	.init = mc_init,
	.opts = metrics_opts,
	.opt = mc_opt,
	.check = mc_check,
	.start = mc_start,
	.poll = mc_poll,
	.stop = mc_stop,
	.finish = mc_finish,
	.release = mc_release,
};
