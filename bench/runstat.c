// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runstat CMD [ARG]...: run CMD and report on stderr, as one line
 *
 *   runstat: rc=0 hwm_kb=2764 maxrss_kb=2764 floor_kb=412 cpu_us=81234
 *
 * hwm_kb     the largest VmHWM of /proc/PID/status, polled every 20 ms
 *            while CMD runs (the peak RSS of CMD's own memory)
 * maxrss_kb  ru_maxrss from wait4(): the kernel's peak, which also counts
 *            what CMD inherited at fork, i.e. this launcher's RSS ...
 * floor_kb   ... which is this: VmRSS of runstat itself at the fork
 * cpu_us     user + system time of CMD and its threads (wait4)
 *
 * A small C launcher so that the inherited part stays small (a Python
 * parent would add its 10 MB to every maxrss), and one that also runs in
 * the rtvm guest, which has no Python. bench/cyclic-vs-cyclictest.py
 * builds it.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The "@key:" figure (kB) of /proc/@pid/status, or -1. */
static long status_kb(pid_t pid, const char *key)
{
	char path[64], line[256];
	size_t n = strlen(key);
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':') {
			kb = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	struct timespec poll = { 0, 20 * 1000 * 1000 };
	struct rusage ru;
	long hwm = -1, h, floor;
	int st = 0;
	pid_t pid, w;

	if (argc < 2) {
		fprintf(stderr, "usage: runstat CMD [ARG]...\n");
		return 2;
	}
	floor = status_kb(getpid(), "VmRSS");
	pid = fork();
	if (pid < 0) {
		perror("runstat: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "runstat: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);	/* Ctrl-C is for CMD */
	for (;;) {
		w = wait4(pid, &st, WNOHANG, &ru);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			perror("runstat: wait4");
			return 2;
		}
		/* a zombie's status has no VmHWM: the last one read stays */
		h = status_kb(pid, "VmHWM");
		if (h > hwm)
			hwm = h;
		nanosleep(&poll, NULL);
	}
	fprintf(stderr, "runstat: rc=%d hwm_kb=%ld maxrss_kb=%ld floor_kb=%ld cpu_us=%lld\n",
		WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), hwm,
		ru.ru_maxrss, floor,
		(long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
