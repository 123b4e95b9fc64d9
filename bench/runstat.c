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
 * and a second line, the CPU time of CMD's threads from their
 * /proc/PID/task/TID/schedstat, read at every poll (what a thread ran in
 * its last 20 ms before it ended is not in it):
 *
 *   runstat: threads=3 main_us=1190 top_us=79760 rest_us=3110
 *
 * main_us    the main thread's
 * top_us     the other thread that ran longest (the sampler of a
 *            one-thread measurement)
 * rest_us    all others (rtlat's display thread)
 *
 * A small C launcher so that the inherited part stays small (a Python
 * parent would add its 10 MB to every maxrss), and one that also runs in
 * the rtvm guest, which has no Python. bench/cyclic-vs-cyclictest.py
 * builds it.
 */
#include <dirent.h>
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

#define MAX_THREADS 64

static struct {
	long tid;
	long long ns;
} th[MAX_THREADS];
static int nth;

/* The CPU time so far of each thread of @pid, into th[]. */
static void poll_threads(pid_t pid)
{
	char path[96];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);
		long long ns;
		FILE *f;
		int i;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/schedstat",
			 (int)pid, tid);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%lld", &ns) == 1) {
			for (i = 0; i < nth && th[i].tid != tid; i++)
				;
			if (i == nth && nth < MAX_THREADS)
				th[nth++].tid = tid;
			if (i < nth && ns > th[i].ns)
				th[i].ns = ns;
		}
		fclose(f);
	}
	closedir(d);
}

static void print_threads(pid_t pid)
{
	long long main_ns = 0, top = 0, rest = 0;
	int i;

	for (i = 0; i < nth; i++) {
		if (th[i].tid == pid) {
			main_ns = th[i].ns;
		} else if (th[i].ns > top) {
			rest += top;
			top = th[i].ns;
		} else {
			rest += th[i].ns;
		}
	}
	fprintf(stderr, "runstat: threads=%d main_us=%lld top_us=%lld rest_us=%lld\n",
		nth, main_ns / 1000, top / 1000, rest / 1000);
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
		poll_threads(pid);
		nanosleep(&poll, NULL);
	}
	fprintf(stderr, "runstat: rc=%d hwm_kb=%ld maxrss_kb=%ld floor_kb=%ld cpu_us=%lld\n",
		WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st), hwm,
		ru.ru_maxrss, floor,
		(long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000 +
		ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
	print_threads(pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
