// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Xenomai 3's latency command line, for "latency" (a link to rtlat) and
 * "rtlat latency --xenomai": its short options are read as Xenomai 3's
 * testsuite/latency reads them (getopt string "g:hp:l:T:qH:B:sD:t:fc:P:b"),
 * turned into rtlat latency's own options, and the output takes Xenomai's
 * layouts (output_xeno.c, xeno_compat_layout). rtlat's long options
 * ("--json FILE", "--json=FILE") pass through unchanged.
 *
 * Defaults are those of Xenomai 3's code, where its help says otherwise:
 * -H 300 cells (help: 200), the sampler pinned to CPU 0 (help: none).
 * -D is in Xenomai 3's help and getopt string but has no case: Xenomai
 * ends with its usage, and so does this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "engine/cobalt.h"
#include "output/output.h"
#include "util/log.h"

/* rtlat arguments a Xenomai command line may become: at most two per
 * word of it, and 7 more at the end */
#define XENO_MAX_ARGS 256

static void xeno_usage(FILE *f)
{
	fprintf(f,
		"Usage: rtlat latency --xenomai [OPTIONS]   (or: latency [OPTIONS], a link to rtlat)\n"
		"Xenomai 3's latency command line (man rtlat-latency, XENOMAI COMPATIBILITY):\n"
		"  -h             print histograms of min, avg, max latencies\n"
		"  -g FILE        dump the avg histogram to FILE in gnuplot format (-: stdout)\n"
		"  -s             print statistics of min, avg, max latencies\n"
		"  -H CELLS       histogram cells (default 300, as Xenomai's code; its help says 200)\n"
		"  -B NS          histogram bucket size in ns (default 1000)\n"
		"  -p US          sampling period in us (default 100)\n"
		"  -l N           data lines per header (default 21; 0: no headers)\n"
		"  -T S           test duration in seconds (default 0: until Ctrl-C)\n"
		"  -q             no RTT/RTH/RTD lines (with -T only)\n"
		"  -t MODE        0 user task (default), 1 kernel task, 2 timer IRQ\n"
		"                 (1, 2: the kernel's timerlat tracer; not in this rtlat yet)\n"
		"  -f             freeze the trace at each new maximum (no effect: said)\n"
		"  -c CPU         pin the sampler to CPU (default 0, as Xenomai's code)\n"
		"  -P PRIO        sampler priority (1..99; out of range: clamped, as Xenomai)\n"
		"  -b             break upon mode switch (Xenomai Cobalt build only)\n"
		"  -D N           in Xenomai 3's help, not in its code: the usage, as Xenomai\n"
		"rtlat latency's long options are taken too (--json FILE, ...; rtlat latency --help).\n");
}

/* A whole decimal number in [@min, @max] into *@v; 0 or -1 (said). */
static int xeno_int(char opt, const char *arg, long min, long max,
		    const char *what, long *v)
{
	char *end;
	long n;

	if (!arg)	/* xeno_opt() is given one for these */
		arg = "";
	n = strtol(arg, &end, 10);
	if (!*arg || *end || n < min || n > max) {
		log_error("invalid value '%s' for -%c: expected %s", arg, opt,
			  what);
		return -1;
	}
	*v = n;
	return 0;
}

/* Is the kernel's timerlat tracer there? 1 yes, 0 no, -1 cannot tell. */
static int timerlat_available(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing/available_tracers",
		"/sys/kernel/debug/tracing/available_tracers",
	};
	char line[4096];
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		f = fopen(paths[i], "r");
		if (!f)
			continue;
		line[0] = '\0';
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		return strstr(line, "timerlat") != NULL;
	}
	return -1;
}

static int test_mode_check(long mode)
{
	static const char *const names[] = {
		"periodic user-mode task", "in-kernel periodic task",
		"in-kernel timer handler",
	};
	int a;

	if (mode == 0)
		return 0;
	if (cobalt_build()) {
		log_error("-t %ld (%s): Cobalt's timer benchmark device (/dev/rtdm/timerbench) is not supported by this rtlat yet; -t 0 measures a Cobalt user task",
			  mode, names[mode]);
		return -1;
	}
	a = timerlat_available();
	if (a == 0)
		log_error("-t %ld (%s): this kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER), which measures the in-kernel thread and IRQ latencies on Linux",
			  mode, names[mode]);
	else if (a < 0)
		log_error("-t %ld (%s): cannot tell whether the kernel has the timerlat tracer (CONFIG_TIMERLAT_TRACER): tracefs is not mounted or not readable (/sys/kernel/tracing)",
			  mode, names[mode]);
	else
		log_error("-t %ld (%s): the kernel has the timerlat tracer, but this rtlat does not read it yet (rtla timerlat does; rtlat report imports its output)",
			  mode, names[mode]);
	return -1;
}

/* The rtlat command line being made */
struct xargs {
	char *v[XENO_MAX_ARGS + 1];
	int n;
	char num[XENO_MAX_ARGS / 2][24];	/* one per 2 args */
	int k;
	const char *cpu;
	bool quiet, dur, cells;
};

static void add(struct xargs *x, const char *a)
{
	x->v[x->n++] = (char *)a;
}

/* "NAME VALUE", VALUE @v followed by @unit ("", "us", "ns") */
static void add_num(struct xargs *x, const char *name, long v,
		    const char *unit)
{
	snprintf(x->num[x->k], sizeof(x->num[0]), "%ld%s", v, unit);
	add(x, name);
	add(x, x->num[x->k++]);
}

/* Xenomai option @o with @arg (NULL: none) into @x; 0, or the exit
 * status (said) */
static int xeno_opt(struct xargs *x, char o, const char *arg)
{
	long v;

	switch (o) {
	case 'h':
		add(x, "-h");
		return 0;
	case 's':
		add(x, "-s");
		return 0;
	case 'q':
		x->quiet = true;
		return 0;
	case 'f':
		log_warn("-f: rtlat has no I-pipe tracer to freeze at each new maximum: ignored (rtlat latency --trace breaks each maximum down; --break US stops the kernel trace at a threshold)");
		return 0;
	case 'b':
		if (!cobalt_build()) {
			log_error("-b (break upon mode switch): this rtlat is not built for Xenomai Cobalt (make XENO_CONFIG=.../xeno-config): its samplers are Linux threads, which have no mode switches");
			return 1;
		}
		add(x, "--max-msw");
		add(x, "0");
		return 0;
	case 'g':
		add(x, "-g");
		add(x, arg ? arg : "");
		return 0;
	case 'p':
		if (xeno_int(o, arg, 1, 1000000, "a period in us, 1..1000000 (Xenomai: at most 1 s)", &v) < 0)
			return 1;
		add_num(x, "-p", v, "us");
		return 0;
	case 'l':
		if (xeno_int(o, arg, 0, 1000000, "a line count 0..1000000 (0: no headers)", &v) < 0)
			return 1;
		add_num(x, "--lines", v, "");	/* 0: none, this layout */
		return 0;
	case 'T':
		if (xeno_int(o, arg, 0, 315360000, "a duration in seconds (0: until Ctrl-C)", &v) < 0)
			return 1;
		add_num(x, "-T", v, "");
		x->dur = v > 0;
		return 0;
	case 'H':
		if (xeno_int(o, arg, 1, 1000000, "a cell count 1..1000000", &v) < 0)
			return 1;
		add_num(x, "--hist-size", v, "");
		x->cells = true;
		return 0;
	case 'B':
		if (xeno_int(o, arg, 1, 1000000000, "a bucket size in ns, 1..1000000000", &v) < 0)
			return 1;
		add_num(x, "--hist-bucket", v, "ns");
		return 0;
	case 't':
		if (xeno_int(o, arg, 0, 2, "0 (user task), 1 (kernel task) or 2 (timer IRQ)", &v) < 0 ||
		    test_mode_check(v) < 0)
			return 1;
		return 0;
	case 'c':
		if (xeno_int(o, arg, 0, 1023, "a CPU number", &v) < 0)
			return 1;
		x->cpu = arg;
		return 0;
	case 'P':
		if (xeno_int(o, arg, -1000000, 1000000, "a priority (1..99)", &v) < 0)
			return 1;
		/* Xenomai clamps to 1..99 */
		add_num(x, "-P", v < 1 ? 1 : v > 99 ? 99 : v, "");
		return 0;
	case 'D':
		log_error("-D: in Xenomai 3's help (\"number of testing device\") but not in its code, whose getopt takes it and then prints the usage: so does rtlat");
		xeno_usage(stderr);
		return 1;
	}
	log_error("unknown option '-%c' (Xenomai 3's latency has no such option)", o);
	xeno_usage(stderr);
	return 1;
}

int xeno_cli_main(const struct rtlat_cmd *c, int argc, char **argv)
{
	static struct xargs x;
	int i, r;

	x.cpu = "0";
	add(&x, argv[0]);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *p;

		if (x.n + 2 * (int)strlen(a) + 9 >= XENO_MAX_ARGS) {
			log_error("too many arguments");
			return 1;
		}
		if (!strcmp(a, "--help")) {
			xeno_usage(stdout);
			return 0;
		}
		if (!strncmp(a, "--", 2) && a[2]) {
			/* rtlat's own: "--opt=value", "--opt value" */
			add(&x, a);
			if (!strchr(a, '=') && i + 1 < argc &&
			    argv[i + 1][0] != '-')
				add(&x, argv[++i]);
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			log_error("unexpected argument '%s'", a);
			xeno_usage(stderr);
			return 1;
		}
		for (p = a + 1; *p; p++) {
			const char *arg = NULL;

			if (strchr("gplTHBDtcP", *p)) {
				if (p[1]) {
					arg = p + 1;
				} else if (i + 1 < argc) {
					arg = argv[++i];
				} else {
					log_error("option -%c needs a value", *p);
					xeno_usage(stderr);
					return 1;
				}
			}
			r = xeno_opt(&x, *p, arg);
			if (r)
				return r;
			if (arg)
				break;	/* the value ended this word */
		}
	}
	if (x.quiet && !x.dur)
		log_warn("-q requires -T, ignoring -q");
	else if (x.quiet)
		add(&x, "-q");
	if (!x.cells) {		/* Xenomai's code: 300 (its help: 200) */
		add(&x, "--hist-size");
		add(&x, "300");
	}
	add(&x, "-c");
	add(&x, x.cpu);
	x.v[x.n] = NULL;
	xeno_compat_layout = true;
	return cmd_test_main(c->test, x.n, x.v);
}
