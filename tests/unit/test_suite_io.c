// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers rtlat suite depends on: the headline written with
 * --headline-fd (written by result_headline(), read by headline_parse())
 * and the INI suite file; and the load option checks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cmd/headline.h"
#include "util/ini.h"
#include "loads/load.h"

static const char sample[] =
	"rtlat-headline 1\n"
	"test latency\n"
	"status complete\n"
	"exit 0\n"
	"duration_actual_ns 2000000000\n"
	"threshold_exceeded 0\n"
	"policy fifo\n"
	"priority 99\n"
	"series latency\n"
	"series.latency.miss_name overruns\n"
	"series.latency.samples 19606\n"
	"series.latency.misses 394\n"
	"series.latency.min_ns -1290\n"
	"series.latency.avg_ns 39292.3\n"
	"series.latency.max_ns 250248\n"
	"series.latency.p99.9_ns 145407\n"
	"future.key whatever\n"
	"load cpu\n"
	"load.cpu.workers 2\n"
	"load.cpu.policy other\n"
	"load.cpu.rate 228660658.052\n"
	"load.cpu.unit ops/s\n"
	"load.cpu.note integer + floating-point loop, SCHED_OTHER\n"
	"load cmd\n"
	"load.cmd.workers 1\n"
	"load.cmd.command while ls; do ls; done\n"
	"load.cmd.exit_status -1\n"
	"load.cmd.error worker 0: ended before the loads were stopped\n"
	"warning RT throttling is active\n"
	"end\n"
	"ignored after end\n";

static void test_headline_parse(void **state)
{
	const struct hl_series *s;
	struct headline h;

	(void)state;
	assert_int_equal(headline_parse(&h, sample), 0);
	assert_true(h.valid);
	assert_true(h.complete);
	assert_string_equal(h.test, "latency");
	assert_string_equal(h.status, "complete");
	assert_int_equal(h.exit_status, 0);
	assert_int_equal(h.duration_ns, 2000000000LL);
	assert_string_equal(h.policy, "fifo");
	assert_int_equal(h.priority, 99);
	s = headline_series(&h, NULL);
	assert_non_null(s);
	assert_ptr_equal(s, headline_series(&h, "latency"));
	assert_null(headline_series(&h, "nope"));
	assert_string_equal(s->miss_name, "overruns");
	assert_int_equal(s->samples, 19606);
	assert_int_equal(s->misses, 394);
	assert_true(s->has_stats);
	assert_int_equal(s->min_ns, -1290);
	assert_true(s->avg_ns > 39292.2 && s->avg_ns < 39292.4);
	assert_int_equal(s->max_ns, 250248);
	assert_true(s->has_p999);
	assert_int_equal(s->p999_ns, 145407);
	assert_int_equal(h.nloads, 2);
	assert_string_equal(h.loads[0].name, "cpu");
	assert_int_equal(h.loads[0].workers, 2);
	assert_true(h.loads[0].rate > 228660658.0);
	assert_string_equal(h.loads[0].unit, "ops/s");
	assert_string_equal(h.loads[0].note, "integer + floating-point loop, SCHED_OTHER");
	assert_false(h.loads[0].is_command);
	assert_true(h.loads[1].is_command);
	assert_string_equal(h.loads[1].command, "while ls; do ls; done");
	assert_int_equal(h.loads[1].exit_status, -1);
	assert_non_null(strstr(h.loads[1].error, "ended before"));
	assert_int_equal(h.nwarnings, 1);
	assert_string_equal(h.error, "");
}

static void test_headline_partial_and_bad(void **state)
{
	struct headline h;

	(void)state;
	assert_int_equal(headline_parse(&h, ""), -1);
	assert_int_equal(headline_parse(&h, "RTS| 1| 2| 3\n"), -1);
	assert_int_equal(headline_parse(&h, "rtlat-headline 1\nstatus error\n"
					    "exit 1\nseries latency\n"
					    "series.latency.samples 0\n"), 0);
	assert_false(h.complete);	/* no "end": the writer died */
	assert_false(h.series[0].has_stats);
	assert_int_equal(h.exit_status, 1);
}

static void test_headline_params(void **state)
{
	struct headline h;
	char text[2048];
	int i, n;

	(void)state;
	n = snprintf(text, sizeof(text),
		     "rtlat-headline 1\n"
		     "series sleep\n"
		     "series.sleep.threshold 1\n"
		     "series round_trip\n"
		     "series.round_trip.threshold 0\n"
		     "series old\n"		/* no threshold key: applies */
		     "param.ideal_ns 10000000\n"
		     "param.dev_max_pct 2.5\n"
		     "param.mechanism futex, shared page\n"
		     "param.ideal_ns 9000000\n"	/* the last one counts */
		     "param. nameless\n"
		     "param.a_name_far_too_long_for_the_table 1\n"
		     "param.empty \n");
	for (i = 0; i < HL_MAX_PARAMS; i++)	/* more than fit */
		n += snprintf(text + n, sizeof(text) - (size_t)n,
			      "param.extra%d %d\n", i, i);
	snprintf(text + n, sizeof(text) - (size_t)n, "end\n");
	assert_int_equal(headline_parse(&h, text), 0);
	assert_true(h.complete);
	assert_true(headline_series(&h, "sleep")->threshold);
	assert_false(headline_series(&h, "round_trip")->threshold);
	assert_true(headline_series(&h, "old")->threshold);
	assert_string_equal(headline_param(&h, "ideal_ns"), "9000000");
	assert_string_equal(headline_param(&h, "dev_max_pct"), "2.5");
	assert_string_equal(headline_param(&h, "mechanism"), "futex, shared page");
	assert_string_equal(headline_param(&h, "empty"), "");
	assert_null(headline_param(&h, ""));
	assert_null(headline_param(&h, "nope"));
	assert_null(headline_param(&h, "a_name_far_too_long_for_the_table"));
	assert_int_equal(h.nparams, HL_MAX_PARAMS);
	assert_string_equal(headline_param(&h, "extra3"), "3");
	assert_null(headline_param(&h, "extra4"));
	/* none without param lines */
	assert_int_equal(headline_parse(&h, sample), 0);
	assert_int_equal(h.nparams, 0);
}

/* Per-sampler figures: "sampler.I.cpu", "sampler.I.NAME.FIELD", in order;
 * out-of-order or out-of-range indices are not taken. */
static void test_headline_samplers(void **state)
{
	static const char text[] =
		"rtlat-headline 1\n"
		"period_ns 100000\n"
		"cpus 0-1\n"
		"sampler.0.cpu 0\n"
		"sampler.0.latency.samples 10839\n"
		"sampler.0.latency.misses 9161\n"
		"sampler.0.latency.min_ns 7100\n"
		"sampler.0.latency.avg_ns 908120.5\n"
		"sampler.0.latency.max_ns 7264831\n"
		"sampler.1.cpu 1\n"
		"sampler.1.latency.samples 19998\n"
		"sampler.1.latency.misses 2\n"
		"sampler.1.latency.min_ns 6900\n"
		"sampler.1.latency.avg_ns 11042.0\n"
		"sampler.1.latency.max_ns 336233\n"
		"sampler.3.cpu 3\n"
		"sampler.99.cpu 9\n"
		"series latency\n"
		"end\n";
	struct headline h;

	(void)state;
	assert_int_equal(headline_parse(&h, text), 0);
	assert_int_equal(h.period_ns, 100000);
	assert_string_equal(h.cpus, "0-1");
	assert_int_equal(h.nsamplers, 2);
	assert_int_equal(h.samplers[0].cpu, 0);
	assert_int_equal(h.samplers[0].nseries, 1);
	assert_string_equal(h.samplers[0].series[0].name, "latency");
	assert_int_equal(h.samplers[0].series[0].misses, 9161);
	assert_true(h.samplers[0].series[0].has_stats);
	assert_int_equal(h.samplers[0].series[0].max_ns, 7264831);
	assert_int_equal(h.samplers[1].cpu, 1);
	assert_int_equal(h.samplers[1].series[0].samples, 19998);
	assert_true(h.samplers[1].series[0].avg_ns == 11042.0);
	/* the run's own series are not created by sampler lines */
	assert_int_equal(h.nseries, 1);
}

struct kv {
	char text[512];
	size_t n;
};

static int collect(void *ctx, const char *section, const char *key,
		   const char *value, int line)
{
	struct kv *kv = ctx;

	kv->n += (size_t)snprintf(kv->text + kv->n, sizeof(kv->text) - kv->n,
				  "%d[%s]%s=%s;", line, section, key, value);
	return strcmp(key, "stop") ? 0 : -1;
}

static char *write_tmp(const char *text)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/rtlat-ini-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

static void test_ini(void **state)
{
	struct kv kv = { "", 0 };
	char err[256], *p;

	(void)state;
	p = write_tmp("# comment\n; also\nduration = 10m \n\n[suite]\n"
		      "label =  Ocotea iPipe 1.0-01\n[ latency ]\nargs = -p 200\n"
		      "empty =\n");
	assert_int_equal(ini_parse_file(p, collect, &kv, err, sizeof(err)), 0);
	assert_string_equal(kv.text, "3[]duration=10m;6[suite]label=Ocotea iPipe 1.0-01;"
			    "8[latency]args=-p 200;9[latency]empty=;");
	unlink(p);

	p = write_tmp("[suite]\nno equals sign\n");
	assert_int_equal(ini_parse_file(p, collect, &kv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":2: expected key = value"));
	unlink(p);

	p = write_tmp("[suite\n");
	assert_int_equal(ini_parse_file(p, collect, &kv, err, sizeof(err)), -1);
	assert_non_null(strstr(err, ":1: expected [section]"));
	unlink(p);

	kv.n = 0;
	p = write_tmp("a = 1\nstop = now\nb = 2\n");
	assert_int_equal(ini_parse_file(p, collect, &kv, err, sizeof(err)), -1);
	assert_string_equal(err, "");	/* the handler reported it */
	unlink(p);

	assert_int_equal(ini_parse_file("/nonexistent/x.conf", collect, &kv,
					err, sizeof(err)), -1);
	assert_non_null(strstr(err, "No such file"));
}

static void test_load_names(void **state)
{
	struct load_opts o;
	char err[256], buf[128];
	int all = 0, i;

	(void)state;
	for (i = 0; load_gens[i]; i++)
		all |= 1 << i;
	load_opts_init(&o);
	assert_false(load_requested(&o));
	assert_int_equal(load_parse_names(&o, "none", err, sizeof(err)), 0);
	assert_false(load_requested(&o));
	assert_int_equal(load_parse_names(&o, "cpu+io,net", err, sizeof(err)), 0);
	assert_string_equal(load_names(&o, buf, sizeof(buf)), "cpu,io,net");
	assert_int_equal(load_parse_names(&o, "hell", err, sizeof(err)), 0);
	assert_int_equal((int)o.gens, all);
	assert_string_equal(load_names(&o, buf, sizeof(buf)),
			    "cpu,cache,fork,io,net,msg");
	assert_int_equal(load_parse_names(&o, "cpu,ping", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unknown load 'ping'"));
}

static void test_load_net_dest(void **state)
{
	static const struct optdesc d = { "load-net-dest", 0, 1, "ADDR", "",
					  OPT_LOAD_NET_DEST };
	static const char *const good[] = { "127.0.0.1", "127.1.2.3",
					    "localhost" };
	static const char *const bad[] = { "8.8.8.8", "10.0.0.1", "::1",
					   "128.0.0.1", "126.255.255.255",
					   "example.org", "" };
	struct load_opts o;
	size_t i;

	(void)state;
	load_opts_init(&o);
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(load_opt(&o, &d, good[i]), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(load_opt(&o, &d, bad[i]), -1);
}

static void test_load_fmt_rate(void **state)
{
	char b[48];

	(void)state;
	assert_string_equal(load_fmt_rate(b, 228660658.052, "ops/s"), "229 M ops/s");
	assert_string_equal(load_fmt_rate(b, 30600, "packets/s"), "30.6 k packets/s");
	assert_string_equal(load_fmt_rate(b, 4.94, "forks/s"), "4.94 forks/s");
	assert_string_equal(load_fmt_rate(b, 182.799, "MB/s"), "182.8 MB/s");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headline_parse),
		cmocka_unit_test(test_headline_samplers),
		cmocka_unit_test(test_headline_partial_and_bad),
		cmocka_unit_test(test_headline_params),
		cmocka_unit_test(test_ini),
		cmocka_unit_test(test_load_names),
		cmocka_unit_test(test_load_net_dest),
		cmocka_unit_test(test_load_fmt_rate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
