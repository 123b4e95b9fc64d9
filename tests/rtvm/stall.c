// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A known stall on a CPU for the PREEMPT_RT guest of make check-rtvm
 * (scripts/check-rtvm.sh; the guest has no chrt and no python): a
 * SCHED_FIFO busy loop of STALL_MS, COUNT times, GAP_MS apart, the first
 * DELAY_MS after the start, pinned to CPU at priority PRIO. Prints one
 * line per stall, "stall START_NS END_NS" (CLOCK_MONOTONIC), then
 * "done N". Built static by the script, never installed.
 *
 * Usage: stall CPU PRIO STALL_MS DELAY_MS COUNT GAP_MS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct sched_param sp;
	cpu_set_t set;
	int64_t a, b, len;
	int i, count;

	if (argc != 7) {
		fprintf(stderr, "usage: stall CPU PRIO STALL_MS DELAY_MS COUNT GAP_MS\n");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[1]), &set);
	sp.sched_priority = atoi(argv[2]);
	len = atol(argv[3]) * 1000000;
	count = atoi(argv[5]);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("stall: affinity or SCHED_FIFO");
		return 1;
	}
	nap_ms(atol(argv[4]));
	for (i = 0; i < count; i++) {
		a = now_ns();
		do
			b = now_ns();
		while (b - a < len);
		printf("stall %lld %lld\n", (long long)a, (long long)b);
		fflush(stdout);
		if (i + 1 < count)
			nap_ms(atol(argv[6]));
	}
	printf("done %d\n", count);
	return 0;
}
