// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The measurement floor for bench/cyclic-vs-cyclictest.py: the least a
 * periodic latency test can do on this kernel. One SCHED_FIFO thread (the
 * main one) pinned to a CPU sleeps with clock_nanosleep(TIMER_ABSTIME) to
 * each deadline of a fixed grid and reads CLOCK_MONOTONIC; it keeps min,
 * max and sum, nothing else. Memory is locked and /dev/cpu_dma_latency is
 * held at 0, as rtlat and cyclictest do. A deadline already passed is
 * skipped (as cyclictest does) and counted.
 *
 *   floor PRIO CPU PERIOD_US SECONDS
 *
 * prints: samples=N missed=N min_ns=N avg_ns=N.N max_ns=N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct sched_param sp;
	struct timespec ts;
	int64_t period, end, next, t, lat, min = INT64_MAX, max = INT64_MIN;
	long double sum = 0;
	uint64_t n = 0, missed = 0;
	int32_t zero = 0;
	cpu_set_t cs;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: floor PRIO CPU PERIOD_US SECONDS\n");
		return 1;
	}
	period = atoll(argv[3]) * 1000LL;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		perror("mlockall");
		return 1;
	}
	fd = open("/dev/cpu_dma_latency", O_RDWR);
	if (fd >= 0 && write(fd, &zero, sizeof(zero)) != sizeof(zero))
		perror("cpu_dma_latency");
	CPU_ZERO(&cs);
	CPU_SET(atoi(argv[2]), &cs);
	if (sched_setaffinity(0, sizeof(cs), &cs) < 0) {
		perror("sched_setaffinity");
		return 1;
	}
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = atoi(argv[1]);
	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0) {
		perror("sched_setscheduler");
		return 1;
	}
	next = now_ns() + period;
	end = next + atoll(argv[4]) * 1000000000LL;
	while (next < end) {
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			break;
		t = now_ns();
		lat = t - next;
		if (lat < min)
			min = lat;
		if (lat > max)
			max = lat;
		sum += lat;
		n++;
		next += period;
		while (next <= t) {
			next += period;
			missed++;
		}
	}
	printf("samples=%llu missed=%llu min_ns=%lld avg_ns=%.1Lf max_ns=%lld\n",
	       (unsigned long long)n, (unsigned long long)missed,
	       (long long)(n ? min : 0), n ? sum / n : 0.0L,
	       (long long)(n ? max : 0));
	if (fd >= 0)
		close(fd);
	return 0;
}
