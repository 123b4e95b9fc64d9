// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat check against the fake trees of tests/data/sysroots/ (make check
 * runs from the top directory; RTLAT_SYSROOTS overrides), the gzip decoder,
 * the kernel-config and kernel-log readers, and sysinfo's PREEMPT_DYNAMIC
 * mode without debugfs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch_tree.h"

#include "util/gunzip.h"
#include "system/kinfo.h"
#include "system/syscheck.h"
#include "system/sysinfo.h"

static char *root_of(char *buf, size_t len, const char *name)
{
	const char *base = getenv("RTLAT_SYSROOTS");

	snprintf(buf, len, "%s/%s", base ? base : "tests/data/sysroots", name);
	assert_int_equal(access(buf, R_OK), 0);
	return buf;
}

static const struct check_item *item(const struct check_report *r, const char *id)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->item[i].id, id))
			return &r->item[i];
	fail_msg("no item %s", id);
	return NULL;
}

static void has(const struct check_report *r, const char *id,
		enum check_verdict v, const char *text)
{
	const struct check_item *it = item(r, id);

	if (it->verdict != v || !strstr(it->found, text))
		fail_msg("%s: %s \"%s\", expected %s with \"%s\"", id,
			 check_verdict_name(it->verdict), it->found,
			 check_verdict_name(v), text);
}

static void test_badly_set_up(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	char root[512];

	(void)state;
	root_of(root, sizeof(root), "x86-badly-set-up");
	/* the two /proc/interrupts readings are taken to be 2 s apart */
	assert_int_equal(syscheck_run(r, root, 2000000000), CHECK_BAD);
	has(r, "preempt", CHECK_BAD, "PREEMPT_DYNAMIC, mode voluntary at boot (kernel log");
	has(r, "rt_throttling", CHECK_WARN, "at most 950000 us of every 1000000 us");
	has(r, "cpufreq", CHECK_BAD,
	    "powersave on CPU 0-1, performance on CPU 2-3 (driver acpi-cpufreq); "
	    "CPU 3 capped at 2000 MHz of 3000 MHz");
	has(r, "cpuidle", CHECK_WARN, "states POLL 0 us, C1 2 us, C1E 10 us, C6 133 us; "
	    "/dev/cpu_dma_latency: no request; the deepest enabled state takes 133 us");
	has(r, "isolation", CHECK_WARN, "isolated CPU 2-3 (isolcpus domain,2-3), nohz_full none, "
	    "rcu_nocbs 2; CPU 2-3 not nohz_full; CPU 3 runs its RCU callbacks");
	/* eno1: 88813 - 88213 = 600 in 2 s; LOC 500; CAL 2 */
	has(r, "isolated_irqs", CHECK_BAD,
	    "CPU 2: 551.0/s (130 eno1 300.0/s, LOC 250.0/s, CAL 1.0/s); CPU 3: 2.0/s (LOC 2.0/s) over 2.0 s");
	assert_non_null(strstr(item(r, "isolated_irqs")->fix, "echo 0-1 > /proc/irq/N/smp_affinity_list"));
	has(r, "smt", CHECK_WARN, "CPU 2 shares its core with CPU 0 (not isolated); "
	    "CPU 3 shares its core with CPU 1");
	has(r, "irq_affinity", CHECK_WARN, "3 of 5 IRQs may go to isolated CPU 2-3 (smp_affinity_list): 1 8 130");
	has(r, "clocksource", CHECK_BAD, "hpet (available: tsc hpet acpi_pm)");
	assert_non_null(strstr(item(r, "clocksource")->fix, "echo tsc >"));
	has(r, "clock_read", CHECK_NA, "not measured");
	assert_int_equal(r->clock_read_ns, -1);
	has(r, "thp", CHECK_WARN, "always (defrag madvise)");
	has(r, "swap", CHECK_WARN, "1 swap area, 8.0 GiB");
	has(r, "timer_migration", CHECK_WARN, "kernel.timer_migration = 1");
	has(r, "rt_group", CHECK_BAD, "cgroup /user.slice/rt has cpu.rt_runtime_us = 0");
	assert_non_null(strstr(item(r, "rt_group")->fix,
			       "/sys/fs/cgroup/cpu,cpuacct/user.slice/rt/cpu.rt_runtime_us"));
	has(r, "debug_config", CHECK_BAD, "LOCKDEP=y, PROVE_LOCKING=y, DEBUG_LOCK_ALLOC=y, KASAN=y, "
	    "DEBUG_PREEMPT=y, DEBUG_ATOMIC_SLEEP=y, DEBUG_SPINLOCK=y, DEBUG_MUTEXES=y (/boot/config-6.12.0-dbg)");
	has(r, "tracers", CHECK_WARN, "missing: timerlat osnoise hwlat");
	has(r, "cokernel", CHECK_NA, "none");

	/* one reading: counts since boot, no rate; device ones only warn */
	syscheck_run(r, root, 0);
	has(r, "isolated_irqs", CHECK_WARN, "CPU 2: 961418 since boot (130 eno1 88213, NMI 2, LOC 871233");
	assert_non_null(strstr(item(r, "isolated_irqs")->found, "(one reading: no rate)"));
	free(r);
}

static void test_x86_vm(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	char root[512];

	(void)state;
	root_of(root, sizeof(root), "x86-vm");
	assert_int_equal(syscheck_run(r, root, 0), CHECK_WARN);
	has(r, "preempt", CHECK_WARN, "PREEMPT_DYNAMIC, mode full in force");
	has(r, "cpufreq", CHECK_NA, "no cpufreq driver");
	has(r, "cpuidle", CHECK_OK, "driver haltpoll, governor haltpoll; states POLL 0 us, haltpoll idle 1 us");
	has(r, "isolation", CHECK_WARN, "no isolated CPU");
	has(r, "isolated_irqs", CHECK_NA, "no isolated CPU");
	has(r, "smt", CHECK_NA, "SMT off");
	has(r, "clocksource", CHECK_OK, "tsc (available: tsc kvm-clock)");
	has(r, "thp", CHECK_OK, "madvise");
	has(r, "swap", CHECK_OK, "no swap");
	has(r, "rt_group", CHECK_NA, "no cgroup v1 cpu controller");
	/* the VM's own /proc/config.gz, through gunzip */
	has(r, "debug_config", CHECK_OK, "none of the 19 debug options checked is set (/proc/config.gz)");
	has(r, "tracers", CHECK_WARN, "available: blk function nop");
	free(r);
}

/* The set-up the badly set-up tree lacks: every item ok or n/a. */
static void test_rt_tuned(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	char root[512], counts[96];
	int i;

	(void)state;
	root_of(root, sizeof(root), "x86-rt-tuned");
	assert_int_equal(syscheck_run(r, root, 2000000000), CHECK_OK);
	has(r, "preempt", CHECK_OK, "PREEMPT_RT, kernel 6.12.0-rt");
	has(r, "rt_throttling", CHECK_OK, "off (kernel.sched_rt_runtime_us = -1)");
	has(r, "cpufreq", CHECK_OK, "performance on CPU 0-3 (driver acpi-cpufreq)");
	has(r, "cpuidle", CHECK_OK, "C1E 10 us (disabled), C6 133 us (disabled)");
	has(r, "isolation", CHECK_OK, "isolated CPU 2-3 (isolcpus managed_irq,domain,2-3), "
	    "nohz_full 2-3, rcu_nocbs 2-3");
	/* the tick once a second on the nohz_full CPUs: 2 in 2 s */
	has(r, "isolated_irqs", CHECK_OK, "CPU 2: 1.0/s (LOC 1.0/s); CPU 3: 1.0/s (LOC 1.0/s) over 2.0 s");
	has(r, "smt", CHECK_OK, "no isolated CPU shares its core");
	has(r, "irq_affinity", CHECK_OK, "none of the 5 IRQs may go to isolated CPU 2-3");
	has(r, "clocksource", CHECK_OK, "tsc (available: tsc hpet acpi_pm)");
	has(r, "thp", CHECK_OK, "never");
	has(r, "swap", CHECK_OK, "no swap");
	has(r, "timer_migration", CHECK_OK, "off");
	has(r, "rt_group", CHECK_NA, "no cgroup v1 cpu controller");
	has(r, "debug_config", CHECK_OK, "none of the 19 debug options checked is set (/boot/config-6.12.0-rt)");
	has(r, "tracers", CHECK_OK, "timerlat osnoise hwlat");
	for (i = 0; i < r->n; i++)
		assert_true(r->item[i].verdict == CHECK_NA || !r->item[i].fix[0]);
	assert_string_equal(syscheck_counts(r, counts, sizeof(counts)),
			    "0 bad, 0 warnings, 14 ok, 3 n/a");
	/* the same 2 ticks taken to be 100 ms apart: 20/s, a warning whose
	 * fix lists the tasks of the isolated CPUs (awk alternatives) */
	assert_int_equal(syscheck_run(r, root, 100000000), CHECK_WARN);
	has(r, "isolated_irqs", CHECK_WARN, "CPU 2: 20.0/s (LOC 20.0/s)");
	assert_non_null(strstr(item(r, "isolated_irqs")->fix,
			       "ps -eLo psr,comm | awk '$1 ~ /^(2|3)$/'"));
	free(r);
}

static void test_preempt_rt(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	char root[512];

	(void)state;
	root_of(root, sizeof(root), "preempt-rt");
	syscheck_run(r, root, 0);
	has(r, "preempt", CHECK_OK, "PREEMPT_RT, kernel 6.1.0-57-rt-amd64");
	has(r, "clocksource", CHECK_BAD, "hpet (available: hpet acpi_pm)");
	has(r, "tracers", CHECK_OK, "timerlat osnoise hwlat");
	free(r);
	root_of(root, sizeof(root), "ppc32-xenomai");
	r = malloc(sizeof(*r));
	syscheck_run(r, root, 0);
	has(r, "preempt", CHECK_OK, "Xenomai 2.0 on I-pipe 1.0-01");
	has(r, "cokernel", CHECK_OK, "Xenomai 2.0 on I-pipe 1.0-01");
	has(r, "debug_config", CHECK_NA, "/proc/config.gz: No such file or directory; "
	    "/boot/config-2.6.14-rc3-g4c234921: No such file or directory");
	free(r);
}

/* A scratch tree for what no recorded system shows. */
static char scratch[64];

static void put(const char *path, const void *data, size_t n)
{
	scratch_put(scratch, path, data, n);
}

static void puts_(const char *path, const char *text)
{
	put(path, text, strlen(text));
}

static void test_preempt_mode_fallbacks(void **state)
{
	struct sysdesc d;
	char fl[256], cmd[128];

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	puts_("/proc/sys/kernel/osrelease", "6.18.0\n");
	puts_("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC @0\n");
	puts_("/boot/config-6.18.0", "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_VOLUNTARY=y\n"
	      "# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_DYNAMIC=y\n");
	/* the configured default */
	sysdesc_read(&d, scratch);
	assert_string_equal(d.preempt_mode, "voluntary");
	assert_string_equal(d.preempt_mode_source, "config");
	/* preempt= overrides it */
	puts_("/proc/cmdline", "root=/dev/vda nopreempt=x preempt=full quiet\n");
	sysdesc_read(&d, scratch);
	assert_string_equal(d.preempt_mode, "full");
	assert_string_equal(d.preempt_mode_source, "cmdline");
	/* the boot message says what the kernel made of it */
	puts_("/dev/kmsg", "6,1,0,-;Command line: preempt=full\n"
	      "6,290,253720,-;Dynamic Preempt: lazy\n");
	sysdesc_read(&d, scratch);
	assert_string_equal(d.preempt_mode, "lazy");
	assert_string_equal(d.preempt_mode_source, "boot log");
	/* debugfs: the mode in force now */
	puts_("/sys/kernel/debug/sched/preempt", "none voluntary (full) lazy\n");
	sysdesc_read(&d, scratch);
	assert_string_equal(d.preempt_mode, "full");
	assert_string_equal(d.preempt_mode_source, "debugfs");
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "mainline PREEMPT_DYNAMIC (full)");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

/* The fair server of 6.12+ beside RT throttling: on, off, unreadable;
 * nothing said of it before 6.12. */
static void test_fair_server(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	char cmd[128];
	const struct check_item *it;

	(void)state;
	assert_non_null(r);
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	puts_("/proc/sys/kernel/osrelease", "6.1.0\n");
	puts_("/sys/devices/system/cpu/online", "0-1\n");
	puts_("/proc/sys/kernel/sched_rt_runtime_us", "-1\n");
	puts_("/proc/sys/kernel/sched_rt_period_us", "1000000\n");
	/* 6.1: RT throttling alone, off */
	syscheck_run(r, scratch, 0);
	it = item(r, "rt_throttling");
	assert_int_equal(it->verdict, CHECK_OK);
	assert_string_equal(it->found, "off (kernel.sched_rt_runtime_us = -1)");
	/* 6.12 without debugfs: the fair server is on by default */
	puts_("/proc/sys/kernel/osrelease", "6.12.0\n");
	syscheck_run(r, scratch, 0);
	has(r, "rt_throttling", CHECK_WARN,
	    "off (kernel.sched_rt_runtime_us = -1); fair server (Linux 6.12+, on by default");
	has(r, "rt_throttling", CHECK_WARN, "unknown, debugfs not mounted");
	/* its default on CPU 1, off on CPU 0 */
	puts_("/sys/kernel/debug/sched/fair_server/cpu0/runtime", "0\n");
	puts_("/sys/kernel/debug/sched/fair_server/cpu0/period", "1000000000\n");
	puts_("/sys/kernel/debug/sched/fair_server/cpu1/runtime", "50000000\n");
	puts_("/sys/kernel/debug/sched/fair_server/cpu1/period", "1000000000\n");
	syscheck_run(r, scratch, 0);
	has(r, "rt_throttling", CHECK_WARN,
	    "; fair server on (Linux 6.12+) on CPUs 1: normal tasks waiting there get 50000 us of every 1000000 us");
	it = item(r, "rt_throttling");
	assert_non_null(strstr(it->fix, "echo 0 > $f"));
	/* off everywhere: RT throttling off and no server, ok */
	puts_("/sys/kernel/debug/sched/fair_server/cpu1/runtime", "0\n");
	syscheck_run(r, scratch, 0);
	has(r, "rt_throttling", CHECK_OK,
	    "off (kernel.sched_rt_runtime_us = -1); fair server off (runtime 0 on every CPU)");
	assert_string_equal(item(r, "rt_throttling")->fix, "");
	free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

/* Sizes near the limits: saturated, never a signed overflow (the
 * sanitized build, make check-sanitize, traps one). */
static void test_huge_sizes(void **state)
{
	struct check_report *r = malloc(sizeof(*r));
	struct sysdesc d;
	char cmd[128];

	(void)state;
	assert_non_null(r);
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	puts_("/proc/swaps", "Filename\tType\tSize\tUsed\tPriority\n"
	      "/dev/a partition 9223372036854775807 0 -2\n"
	      "/dev/b partition 9223372036854775807 0 -3\n");
	puts_("/proc/meminfo", "MemTotal:       9223372036854775807 kB\n");
	syscheck_run(r, scratch, 0);
	has(r, "swap", CHECK_WARN, "2 swap areas, 8388608.0 TiB");
	sysdesc_read(&d, scratch);
	assert_true(d.mem_bytes == INT64_MAX);
	assert_int_equal(sys_scale(9007199254740991LL, 10), 9007199254740991LL * 1024);
	assert_int_equal(sys_scale(9007199254740992LL, 10), INT64_MAX);
	assert_int_equal(sys_scale(-5, 10), 0);
	free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

static void test_kmsg_split_records(void **state)
{
	char big[20000], out[64], why[160];
	size_t n = 0;
	int i;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	/* the record straddles the reader's 8 KiB chunks of a regular file */
	for (i = 0; n < 8192 - 20; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "6,%d,0,-;filler %d\n", i, i);
	n += (size_t)snprintf(big + n, sizeof(big) - n, "6,%d,0,-;Dynamic Preempt: voluntary\n", i);
	puts_("/dev/kmsg", big);
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), 1);
	assert_string_equal(out, "voluntary");
	assert_int_equal(kmsg_find(scratch, "Nothing like this: ", out, sizeof(out), why, sizeof(why)), 0);
	unlink(strcat(strcpy(big, scratch), "/dev/kmsg"));
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), -1);
	snprintf(big, sizeof(big), "rm -rf %s", scratch);
	assert_int_equal(system(big), 0);
}

static void test_gunzip(void **state)
{
	/* printf 'CONFIG_LOCKDEP=y\n# CONFIG_KASAN is not set\n' | gzip -9n:
	 * a fixed-Huffman block */
	static const unsigned char gz[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03,
		0x73, 0xf6, 0xf7, 0x73, 0xf3, 0x74, 0x8f, 0xf7, 0xf1, 0x77,
		0xf6, 0x76, 0x71, 0x0d, 0xb0, 0xad, 0xe4, 0x52, 0x56, 0x70,
		0x86, 0x08, 0x79, 0x3b, 0x06, 0x3b, 0xfa, 0x29, 0x64, 0x16,
		0x2b, 0xe4, 0xe5, 0x97, 0x28, 0x14, 0xa7, 0x96, 0x70, 0x01,
		0x00, 0x19, 0x67, 0x90, 0x67, 0x2b, 0x00, 0x00, 0x00,
	};
	unsigned char bad[sizeof(gz)];
	char why[96], val[16], *t;
	size_t n;

	(void)state;
	t = gunzip(gz, sizeof(gz), &n, why, sizeof(why));
	assert_non_null(t);
	assert_int_equal(n, 43);
	assert_string_equal(t, "CONFIG_LOCKDEP=y\n# CONFIG_KASAN is not set\n");
	assert_string_equal(kconfig_value(t, "CONFIG_LOCKDEP", val, sizeof(val)), "y");
	assert_null(kconfig_value(t, "CONFIG_KASAN", val, sizeof(val)));
	assert_null(kconfig_value(t, "CONFIG_LOCK", val, sizeof(val)));
	free(t);
	memcpy(bad, gz, sizeof(gz));
	bad[20] ^= 0x10;	/* a flipped bit: corrupt or CRC mismatch */
	assert_null(gunzip(bad, sizeof(bad), &n, why, sizeof(why)));
	assert_true(strstr(why, "corrupt") || strstr(why, "CRC") || strstr(why, "truncated"));
	assert_null(gunzip(gz, 30, &n, why, sizeof(why)));
	assert_null(gunzip((const unsigned char *)"CONFIG_X=y\n", 11, &n, why, sizeof(why)));
	assert_string_equal(why, "not gzip data");
}

/* The one bounded reader: at the bound whole, one byte over it cut (said),
 * and sys_fopen()'s stream keeps the file's last byte. */
static void test_bounded_reader(void **state)
{
	char p[128], cmd[128], line[64], *b;
	size_t n;
	bool more, cut;
	FILE *f;
	int fd;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	snprintf(p, sizeof(p), "%s/f", scratch);
	puts_("/f", "0123456789");
	fd = open(p, O_RDONLY);
	b = sys_read_fd(fd, 10, &n, &more);
	assert_non_null(b);
	assert_int_equal(n, 10);
	assert_false(more);
	assert_string_equal(b, "0123456789");
	free(b);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	b = sys_read_fd(fd, 9, &n, &more);
	assert_int_equal(n, 9);
	assert_true(more);
	assert_string_equal(b, "012345678");
	free(b);
	close(fd);
	/* more than one growth of the buffer (16 KiB, doubled) */
	assert_int_equal(truncate(p, 100000), 0);
	fd = open(p, O_RDONLY);
	b = sys_read_fd(fd, 100000, &n, &more);
	assert_int_equal(n, 100000);
	assert_false(more);
	assert_memory_equal(b, "0123456789", 10);
	assert_int_equal(b[99999], 0);
	free(b);
	close(fd);
	/* the last byte of the file survives the stream (the flush's NUL
	 * took its place) */
	puts_("/f", "a\nlast\n");
	f = sys_fopen(scratch, "/f", &cut);
	assert_non_null(f);
	assert_false(cut);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "last\n");
	assert_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_int_equal(truncate(p, (off_t)SYS_READ_MAX + 1), 0);
	f = sys_fopen(scratch, "/f", &cut);
	assert_non_null(f);
	assert_true(cut);
	fclose(f);
	assert_string_equal(sys_too_large(line, sizeof(line), true),
			    "larger than 4194304 bytes, read the first 4194304");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

/* /proc/config.gz over the bound, cut, corrupt: not read, the reason
 * said, /boot/config-RELEASE read instead with that reason kept. */
static void test_kconfig_damaged(void **state)
{
	/* printf 'CONFIG_LOCKDEP=y\n' | gzip -9n */
	static const unsigned char gz[] = {
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03,
		0x73, 0xf6, 0xf7, 0x73, 0xf3, 0x74, 0x8f, 0xf7, 0xf1, 0x77,
		0xf6, 0x76, 0x71, 0x0d, 0xb0, 0xad, 0xe4, 0x02, 0x00, 0x6a,
		0x6f, 0x0e, 0xf5, 0x11, 0x00, 0x00, 0x00,
	};
	unsigned char bad[sizeof(gz)];
	char p[128], cmd[128], from[64], why[256], *t;

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	put("/proc/config.gz", gz, sizeof(gz));
	t = kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why));
	assert_non_null(t);
	assert_string_equal(t, "CONFIG_LOCKDEP=y\n");
	assert_string_equal(from, "/proc/config.gz");
	assert_string_equal(why, "");
	free(t);
	/* cut short */
	put("/proc/config.gz", gz, sizeof(gz) - 12);
	assert_null(kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why)));
	assert_string_equal(why, "/proc/config.gz: truncated deflate data; "
			    "/boot/config-6.1.0: No such file or directory");
	/* a bit flipped in the data */
	memcpy(bad, gz, sizeof(gz));
	bad[sizeof(gz) - 8] ^= 1;	/* the CRC */
	put("/proc/config.gz", bad, sizeof(bad));
	assert_null(kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why)));
	assert_string_equal(why, "/proc/config.gz: CRC mismatch; "
			    "/boot/config-6.1.0: No such file or directory");
	/* over the bound: not read, whatever it holds */
	put("/proc/config.gz", gz, sizeof(gz));
	snprintf(p, sizeof(p), "%s/proc/config.gz", scratch);
	assert_int_equal(truncate(p, (off_t)SYS_READ_MAX + 1), 0);
	assert_null(kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why)));
	assert_string_equal(why, "/proc/config.gz: larger than 4194304 bytes, not read; "
			    "/boot/config-6.1.0: No such file or directory");
	/* the boot config read instead; why /proc/config.gz was not is kept */
	puts_("/boot/config-6.1.0", "CONFIG_KASAN=y\n");
	t = kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why));
	assert_non_null(t);
	assert_string_equal(from, "/boot/config-6.1.0");
	assert_string_equal(why, "/proc/config.gz: larger than 4194304 bytes, not read");
	free(t);
	/* the same for the boot config over the bound */
	snprintf(p, sizeof(p), "%s/boot/config-6.1.0", scratch);
	assert_int_equal(truncate(p, (off_t)SYS_READ_MAX + 1), 0);
	assert_null(kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why)));
	assert_string_equal(why, "/proc/config.gz: larger than 4194304 bytes, not read; "
			    "/boot/config-6.1.0: larger than 4194304 bytes, not read");
	/* one byte less: read (text to its end: the NULs truncate() adds
	 * make no kernel configuration) */
	{
		char *big = malloc(SYS_READ_MAX);

		assert_non_null(big);
		memset(big, '#', SYS_READ_MAX);
		memcpy(big, "CONFIG_KASAN=y\n", 15);
		big[SYS_READ_MAX - 1] = '\n';
		put("/boot/config-6.1.0", big, SYS_READ_MAX);
		free(big);
	}
	t = kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why));
	assert_non_null(t);
	free(t);
	/* and with NULs in it, as truncate() leaves it: not one */
	assert_int_equal(truncate(p, 15), 0);
	assert_int_equal(truncate(p, 4096), 0);
	assert_null(kconfig_read(scratch, "6.1.0", from, sizeof(from), why, sizeof(why)));
	assert_string_equal(why, "/proc/config.gz: larger than 4194304 bytes, not read; "
			    "/boot/config-6.1.0: not text (a byte 0x00 at offset 15): not a kernel configuration");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

/* Something in place of /dev/kmsg that is not the kernel log: refused,
 * with the reason, and the preemption item says it. */
static void test_kmsg_not_the_log(void **state)
{
	static const char zeros[512];
	char p[128], cmd[128], out[64], why[160];
	struct check_report *r = malloc(sizeof(*r));

	(void)state;
	assert_non_null(r);
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	snprintf(p, sizeof(p), "%s/dev/kmsg", scratch);
	put("/dev/kmsg", zeros, sizeof(zeros));
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), -1);
	assert_string_equal(why, "holds no kernel log records (PRIO,SEQ,USEC,FLAGS;TEXT)");
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), -1);
	assert_string_equal(why, "not a character device (a FIFO)");
	unlink(p);
	/* a link out of the tree: the host's /dev/zero is not read */
	assert_int_equal(symlink("/dev/zero", p), 0);
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), -1);
	assert_string_equal(why, "it leads out of the --root tree (a link or \"..\")");
	/* the preemption model: from the config, and why not from the log */
	puts_("/proc/sys/kernel/osrelease", "6.18.0\n");
	puts_("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC @0\n");
	puts_("/boot/config-6.18.0", "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_VOLUNTARY=y\n");
	syscheck_run(r, scratch, 0);
	has(r, "preempt", CHECK_BAD, "mode voluntary configured default (kernel config; "
	    "preempt= may override it; boot log not used, /dev/kmsg cannot be read: "
	    "it leads out of the --root tree (a link or \"..\"); "
	    "the mode in force is in /sys/kernel/debug/sched/preempt, debugfs not mounted)");
	/* records with more fields (CONFIG_PRINTK_CALLER) are the log's */
	unlink(p);
	puts_("/dev/kmsg", "6,0,0,-,caller=T0;Linux version 6.18.0\n"
	      "6,290,253720,-,caller=T1;Dynamic Preempt: lazy\n");
	assert_int_equal(kmsg_find(scratch, "Dynamic Preempt: ", out, sizeof(out), why, sizeof(why)), 1);
	assert_string_equal(out, "lazy");
	assert_string_equal(why, "");
	/* a log without the message: said too */
	puts_("/dev/kmsg", "6,0,0,-;Linux version 6.18.0\n");
	syscheck_run(r, scratch, 0);
	has(r, "preempt", CHECK_BAD, "boot log not used, /dev/kmsg: no \"Dynamic Preempt:\" message;");
	free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

/* /proc/interrupts that does not parse is no verdict's ground; the rows
 * the kernel prints with one count or none (ERR, MIS, FIQ) parse. */
static void test_interrupts_format(void **state)
{
	static const char *const garbage[][2] = {
		{ "", "empty" },
		{ "  0:  1  2\n", "no \"CPU0 CPU1 ...\" header line" },
		{ "      CPU0   CPU1\n  0:  1  2  IO-APIC timer\n  1:  3\n",
		  "line 3, \"1:\": 1 of 2 CPU counts" },
		{ "      CPU0   CPU1\n  0:  1  2  IO-APIC timer\n  1:  3  4  i8042",
		  "line 3 cut short: no end of line" },
		{ "      CPU0   CPU1\n  0:  1  2  IO-APIC timer\nhello\n",
		  "line 3 is no \"NAME: COUNTS\" line" },
		{ "      CPU0   CPU1\n  0:  1  \0  IO-APIC timer\n",
		  "line 2 holds NUL bytes" },
		{ "      CPU0   CPU1\n", "no interrupt line" },
		{ "      CPU0\n  0:  1  IO-APIC timer\n", "no column for CPU 1 in /proc/interrupts" },
	};
	struct check_report *r = malloc(sizeof(*r));
	char cmd[128], want[160];
	size_t i;

	(void)state;
	assert_non_null(r);
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-syscheck-XXXXXX");
	assert_non_null(mkdtemp(scratch));
	puts_("/sys/devices/system/cpu/online", "0-1\n");
	puts_("/sys/devices/system/cpu/isolated", "1\n");
	for (i = 0; i < sizeof(garbage) / sizeof(garbage[0]); i++) {
		const char *g = garbage[i][0];
		size_t n = strlen(g);

		if (strstr(garbage[i][1], "NUL"))
			n = 44;		/* the text with its NUL */
		put("/proc/interrupts", g, n);
		syscheck_run(r, scratch, 0);
		snprintf(want, sizeof(want), "/proc/interrupts cannot be read: "
			 "not in the kernel's format (%s)", garbage[i][1]);
		if (strstr(garbage[i][1], "no column"))
			snprintf(want, sizeof(want), "/proc/interrupts cannot be read: %s",
				 garbage[i][1]);
		assert_string_equal(item(r, "isolated_irqs")->found, want);
		assert_int_equal(item(r, "isolated_irqs")->verdict, CHECK_NA);
		assert_string_equal(item(r, "isolated_irqs")->fix, "");
	}
	puts_("/proc/interrupts", "      CPU0   CPU1\n  0:  1  2  IO-APIC timer\n"
	      "FIQ:              usb_fiq\nERR:   0\nMIS:   0\n");
	puts_("/proc/interrupts.later", "      CPU0   CPU1\n  0:  1  5  IO-APIC timer\n"
	      "FIQ:              usb_fiq\nERR:   7\nMIS:   0\n");
	syscheck_run(r, scratch, 2000000000);
	has(r, "isolated_irqs", CHECK_BAD, "CPU 1: 1.5/s (0 timer 1.5/s) over 2.0 s");
	/* a second reading that does not parse: no rate, no verdict */
	puts_("/proc/interrupts.later", "      CPU0   CPU1\n  0:  1\n");
	syscheck_run(r, scratch, 2000000000);
	assert_string_equal(item(r, "isolated_irqs")->found,
			    "/proc/interrupts.later cannot be read: not in the kernel's "
			    "format (line 2, \"0:\": 1 of 2 CPU counts)");
	assert_int_equal(item(r, "isolated_irqs")->verdict, CHECK_NA);
	free(r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_badly_set_up),
		cmocka_unit_test(test_x86_vm),
		cmocka_unit_test(test_rt_tuned),
		cmocka_unit_test(test_preempt_rt),
		cmocka_unit_test(test_preempt_mode_fallbacks),
		cmocka_unit_test(test_fair_server),
		cmocka_unit_test(test_huge_sizes),
		cmocka_unit_test(test_kmsg_split_records),
		cmocka_unit_test(test_gunzip),
		cmocka_unit_test(test_bounded_reader),
		cmocka_unit_test(test_kconfig_damaged),
		cmocka_unit_test(test_kmsg_not_the_log),
		cmocka_unit_test(test_interrupts_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
