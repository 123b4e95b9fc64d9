// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat: real-time latency test suite, one multi-call binary. Invoked as
 * "rtlat CMD ..." or through a link named after a command ("latency ...").
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "engine/cobalt.h"
#include "engine/helper.h"
#include "util/log.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "system/rtsetup.h"

static bool usage_on_stdout;

static void usage(FILE *f)
{
	int i;

	if (f == stdout)
		usage_on_stdout = true;
	fprintf(f, "Usage: rtlat COMMAND [OPTIONS]\n"
		   "       rtlat help COMMAND | rtlat COMMAND --help\n"
		   "       rtlat --version\n\n"
		   "rtlat measures how late real-time tasks run on Linux.\n\n"
		   "Commands:\n");
	for (i = 0; rtlat_cmds[i]; i++)
		fprintf(f, "  %-12s %s\n", rtlat_cmds[i]->name,
			rtlat_cmds[i]->summary);
	fprintf(f, "\nExit status: 0 success, 1 error, 2 a latency threshold was exceeded.\n"
		   "Every command has a manual page: man rtlat-COMMAND once installed\n"
		   "(make install); in the source tree: man -l man/rtlat-COMMAND.1;\n"
		   "anywhere: rtlat help COMMAND.\n");
}

/*
 * Results that could not be written are an error, never a silent success:
 * stdout full, or a pipe whose reader left (SIGPIPE is ignored by the
 * measuring commands, so that they end with a complete result file): exit
 * status 1 and the cause of the first failed write ("Broken pipe"). A help
 * text is named as such.
 */
static int finish_stdout(int status)
{
	if (stdout_flush() == 0)
		return status;
	log_error("cannot write %s to standard output: %s",
		  usage_on_stdout || opt_help_on_stdout() ? "the help" :
		  "the results", strerror(stdout_errno()));
	return status ? status : 1;
}

/*
 * Open /dev/null on any of stdin, stdout and stderr that is closed
 * ("rtlat latency >&-"): else the first file opened takes its number, and
 * results or warnings are written into it (into /dev/cpu_dma_latency, whose
 * 4-byte writes set the latency limit). Returns 0 or -1.
 */
static int std_fds_open(void)
{
	int fd, n;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		n = open("/dev/null", O_RDWR);	/* the lowest free: @fd */
		if (n < 0)
			return -1;
		if (n != fd) {
			dup2(n, fd);
			close(n);
		}
	}
	return 0;
}

/*
 * As early as the program can: before main(), as its first constructor (a
 * dynamically linked rtlat has the dynamic loader and the libraries'
 * constructors run before it: a signal then still acts by default).
 * run_cmd() gives the non-measuring commands the default actions back.
 */
__attribute__((constructor(101))) static void block_run_signals(void)
{
	sigset_t sigs;

	run_sigset(&sigs);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
}

/* @xeno: Xenomai 3's latency command line (xeno_cli_main()) */
static int run_cmd(const struct rtlat_cmd *c, int argc, char **argv,
		   const char *prefix, bool xeno)
{
	static char pfx[64];
	sigset_t sigs;

	if (!c->measures) {	/* blocked in main(): the default action */
		run_sigset(&sigs);
		sigprocmask(SIG_UNBLOCK, &sigs, NULL);
	}
	snprintf(pfx, sizeof(pfx), "%s", prefix);
	log_set_prefix(pfx);
	if (xeno)
		return finish_stdout(xeno_cli_main(c, argc, argv));
	return finish_stdout(c->main ? c->main(argc, argv) :
			     cmd_test_main(c->test, argc, argv));
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	const struct rtlat_cmd *c;
	char prefix[64];

	/* the run signals are blocked already (block_run_signals()) */
	if (std_fds_open() < 0)
		return 1;
	helper_init(argv);	/* rtlat-host, rtlat-trace get argv as it is */
	outfile_init();
	cmd_registry_init();
	base = base ? base + 1 : argv[0];
	rtlat_argc = argc;
	rtlat_argv = argv;

	c = cmd_find(base);
	if (c)			/* called through a link named after a command:
				 * "latency" takes Xenomai's command line */
		return run_cmd(c, argc, argv, base,
			       c->test && !strcmp(c->name, "latency"));

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		if (cobalt_build())
			printf("rtlat %s (built for %s)\n", RTLAT_VERSION,
			       cobalt_system());
		else
			printf("rtlat %s\n", RTLAT_VERSION);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "help")) {
		char *hargv[3];

		/* rtlat help, rtlat help --help, rtlat help help: the
		 * commands */
		if (argc < 3 || !strcmp(argv[2], "--help") ||
		    !strcmp(argv[2], "-h") || !strcmp(argv[2], "help")) {
			usage(stdout);
			return finish_stdout(0);
		}
		c = cmd_find(argv[2]);
		if (!c) {
			fprintf(stderr, "rtlat: error: unknown command '%s' (see rtlat --help)\n",
				argv[2]);
			return 1;
		}
		if (argc > 3) {
			fprintf(stderr, "rtlat: error: help takes one command: '%s' is one too many (rtlat help %s)\n",
				argv[3], c->name);
			return 1;
		}
		hargv[0] = argv[2];
		hargv[1] = "--help";
		hargv[2] = NULL;
		snprintf(prefix, sizeof(prefix), "rtlat %s", c->name);
		return run_cmd(c, 2, hargv, prefix, false);
	}
	c = cmd_find(argv[1]);
	if (!c) {
		fprintf(stderr, "rtlat: error: unknown command '%s' (see rtlat --help)\n",
			argv[1]);
		return 1;
	}
	snprintf(prefix, sizeof(prefix), "rtlat %s", c->name);
	if (c->test && !strcmp(c->name, "latency") && argc > 2 &&
	    !strcmp(argv[2], "--xenomai")) {
		/* rtlat latency --xenomai ...: argv[0] stays the command */
		argv[2] = argv[1];
		return run_cmd(c, argc - 2, argv + 2, prefix, true);
	}
	return run_cmd(c, argc - 1, argv + 1, prefix, false);
}
