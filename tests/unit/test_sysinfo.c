// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sysinfo against the fake /proc and /sys trees of tests/data/sysroots/
 * (make check runs from the top directory; RTLAT_SYSROOTS overrides).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "scratch_tree.h"

#include "util/jsonw.h"
#include "system/sysinfo.h"

static void read_root(struct sysdesc *d, const char *name)
{
	const char *base = getenv("RTLAT_SYSROOTS");
	char root[512];

	snprintf(root, sizeof(root), "%s/%s",
		 base ? base : "tests/data/sysroots", name);
	assert_int_equal(access(root, R_OK), 0);
	sysdesc_read(d, root);
}

static void test_x86_vm(void **state)
{
	struct sysdesc d;
	char fl[256];

	(void)state;
	read_root(&d, "x86-vm");
	assert_string_equal(d.hostname, "vm");
	assert_string_equal(d.board, "");	/* no DMI, no device tree */
	assert_string_equal(d.processor, "Intel(R) Xeon(R) Processor");
	assert_string_equal(d.core, "");
	assert_int_equal(d.ncpus, 2);
	assert_string_equal(d.cpus_online, "0-1");
	assert_int_equal(d.cpu_khz, 2300000);
	assert_string_equal(d.cpu_clock_source, "cpuinfo");
	assert_int_equal(d.l1i, 32 * 1024);
	assert_int_equal(d.l1d, 48 * 1024);
	assert_int_equal(d.l2, 2048 * 1024);
	assert_int_equal(d.l3, 266240LL * 1024);
	assert_int_equal(d.cache_line, 64);
	assert_int_equal(d.mem_bytes, 24684084LL * 1024);
	assert_string_equal(d.machine, "x86_64");
	assert_string_equal(d.release, "6.18.44-fc-v669");
	assert_string_equal(d.version, "#1 SMP PREEMPT_DYNAMIC @0");
	assert_string_equal(d.preempt, "PREEMPT_DYNAMIC");
	assert_string_equal(d.preempt_mode, "full");
	assert_false(d.realtime);
	assert_string_equal(d.xenomai, "");
	assert_string_equal(d.clocksource, "tsc");
	assert_string_equal(d.governor, "");
	assert_string_equal(d.isolated, "");
	assert_non_null(strstr(d.cmdline, "console=ttyS0"));
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "mainline PREEMPT_DYNAMIC (full)");
}

static void test_preempt_rt(void **state)
{
	struct sysdesc d;
	char fl[256];

	(void)state;
	read_root(&d, "preempt-rt");
	assert_string_equal(d.board, "QEMU Standard PC (i440FX + PIIX, 1996)");
	assert_string_equal(d.board_source, "dmi");
	assert_string_equal(d.processor, "QEMU Virtual CPU version 2.5+");
	assert_int_equal(d.ncpus, 2);
	assert_int_equal(d.cpu_khz, 2299993);
	assert_int_equal(d.l1i, 64 * 1024);
	assert_int_equal(d.l1d, 64 * 1024);
	assert_int_equal(d.l2, 512 * 1024);
	assert_int_equal(d.l3, 16 * 1024 * 1024);
	assert_int_equal(d.mem_bytes, 468200LL * 1024);
	assert_string_equal(d.release, "6.1.0-57-rt-amd64");
	assert_string_equal(d.version,
			    "#1 SMP PREEMPT_RT Debian 6.1.192-3 (2026-11-26)");
	assert_true(d.realtime);
	assert_string_equal(d.preempt, "PREEMPT_RT");
	assert_string_equal(d.clocksource, "hpet");
	assert_string_equal(d.nohz_full, "");	/* "(null)" means none */
	assert_string_equal(d.cmdline, "console=ttyS0 quiet panic=-1");
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)), "PREEMPT_RT");
}

static void test_arm_dt_board(void **state)
{
	struct sysdesc d;
	char fl[256];

	(void)state;
	read_root(&d, "arm-dt-board");
	assert_string_equal(d.board, "TI AM335x BeagleBone Black");
	assert_string_equal(d.board_source, "device-tree");
	assert_string_equal(d.processor, "ARMv7 Processor rev 2 (v7l)");
	assert_string_equal(d.core, "Cortex-A8");
	assert_string_equal(d.soc, "Generic AM33XX (Flattened Device Tree)");
	assert_int_equal(d.ncpus, 1);
	assert_int_equal(d.cpu_khz, 1000000);
	assert_string_equal(d.cpu_clock_source, "cpufreq max");
	assert_int_equal(d.l1i, 32 * 1024);
	assert_int_equal(d.l1d, 32 * 1024);
	assert_int_equal(d.l2, 256 * 1024);
	assert_int_equal(d.l3, 0);
	assert_int_equal(d.mem_bytes, 496452LL * 1024);
	assert_string_equal(d.release, "5.10.168-ti-r72");
	assert_string_equal(d.preempt, "PREEMPT");
	assert_false(d.realtime);
	assert_string_equal(d.governor, "performance");
	assert_string_equal(d.clocksource, "timer2");
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "mainline PREEMPT");
}

static void test_ppc32_xenomai(void **state)
{
	struct sysdesc d;
	char fl[256];

	(void)state;
	read_root(&d, "ppc32-xenomai");
	assert_string_equal(d.board, "Ocotea");
	assert_string_equal(d.board_source, "cpuinfo");
	assert_string_equal(d.processor, "440GX Rev. C");
	assert_int_equal(d.ncpus, 1);
	assert_int_equal(d.cpu_khz, 533333);
	assert_int_equal(d.l1d, 0);
	assert_int_equal(d.mem_bytes, 255104LL * 1024);
	assert_string_equal(d.release, "2.6.14-rc3-g4c234921");
	assert_string_equal(d.version, "#1 Mon Oct 17 12:00:00 CEST 2005");
	assert_string_equal(d.preempt, "");
	assert_false(d.realtime);
	assert_string_equal(d.xenomai, "2.0");
	assert_string_equal(d.ipipe, "1.0-01");
	assert_false(d.dovetail);
	assert_string_equal(d.clocksource, "");
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "Xenomai 2.0 on I-pipe 1.0-01, kernel no PREEMPT (voluntary or none)");
}

/* A scratch tree for the cases no recorded board shows. */
static char scratch[64];

static void put(const char *path, const char *text)
{
	scratch_put(scratch, path, text, strlen(text));
}

static void test_scratch_cases(void **state)
{
	struct sysdesc d;
	char fl[256], cmd[128];

	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/rtlat-sysroot-XXXXXX");
	assert_non_null(mkdtemp(scratch));

	/* old RT patch spelling, arm64 without "model name", EVL */
	put("/proc/sys/kernel/version", "#1 SMP PREEMPT RT Fri Jan 1 00:00:00 UTC 2016\n");
	put("/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 108.00\nCPU implementer\t: 0x41\nCPU part\t: 0xd08\n");
	put("/sys/devices/virtual/evl/control/abi", "27\n");
	put("/sys/class/dmi/id/product_name", "To Be Filled By O.E.M.\n");
	put("/sys/class/dmi/id/board_vendor", "ASRock\n");
	put("/sys/class/dmi/id/board_name", "J4105M\n");
	sysdesc_read(&d, scratch);
	assert_true(d.realtime);
	assert_string_equal(d.processor, "Cortex-A72");
	assert_string_equal(d.board, "ASRock J4105M");
	assert_string_equal(d.evl, "ABI 27");
	assert_true(d.dovetail);
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "EVL ABI 27 on Dovetail, kernel PREEMPT_RT");

	/* an empty tree: nothing found, nothing fails, nothing asserted */
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc %s/sys", scratch, scratch);
	assert_int_equal(system(cmd), 0);
	sysdesc_read(&d, scratch);
	assert_string_equal(d.board, "");
	assert_int_equal(d.ncpus, 0);
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)), "unknown");
	/* a co-kernel, the kernel's version unread */
	put("/proc/xenomai/version", "3.2\n");
	sysdesc_read(&d, scratch);
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "Xenomai 3.2, kernel unknown");
	/* a version without a preemption flag: voluntary or none */
	put("/proc/sys/kernel/version", "#1 SMP Fri Jan 1 00:00:00 UTC 2016\n");
	snprintf(cmd, sizeof(cmd), "rm -rf %s/proc/xenomai", scratch);
	assert_int_equal(system(cmd), 0);
	sysdesc_read(&d, scratch);
	assert_string_equal(sysdesc_flavour(&d, fl, sizeof(fl)),
			    "mainline no PREEMPT (voluntary or none)");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
	assert_int_equal(system(cmd), 0);
}

static void test_fmt_bytes(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_bytes(b, 0), "n/a");
	assert_string_equal(fmt_bytes(b, 512), "512 B");
	assert_string_equal(fmt_bytes(b, 48 * 1024), "48 KiB");
	assert_string_equal(fmt_bytes(b, 266240LL * 1024), "260 MiB");
	assert_string_equal(fmt_bytes(b, 468200LL * 1024), "457.2 MiB");
}

static void test_json_valid(void **state)
{
	struct sysdesc d;
	char *buf = NULL;
	size_t len = 0;
	struct jw w;
	FILE *f;

	(void)state;
	read_root(&d, "arm-dt-board");
	f = open_memstream(&buf, &len);
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	sysdesc_json(&d, &w);
	jw_obj_end(&w);
	assert_true(jw_finish(&w));
	fclose(f);
	assert_non_null(strstr(buf, "\"board\": \"TI AM335x BeagleBone Black\""));
	assert_non_null(strstr(buf, "\"l3\": null"));
	assert_non_null(strstr(buf, "\"rt_flavour\": \"mainline PREEMPT\""));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_vm),
		cmocka_unit_test(test_preempt_rt),
		cmocka_unit_test(test_arm_dt_board),
		cmocka_unit_test(test_ppc32_xenomai),
		cmocka_unit_test(test_scratch_cases),
		cmocka_unit_test(test_fmt_bytes),
		cmocka_unit_test(test_json_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
