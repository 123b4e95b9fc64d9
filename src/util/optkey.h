/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The keys of every long option of rtlat that has no short one, in one
 * enum: unique by construction (a handler that sees the options of
 * several tables, a test's, the engine's, the companions' and the lab
 * outputs', can never mistake one for another). A short option's key is
 * its character (below OPT_KEY_FIRST). A new long option adds its key
 * here, in its owner's group.
 */
#ifndef RTLAT_OPTKEY_H
#define RTLAT_OPTKEY_H

#define OPT_KEY_FIRST 256
/* the suite's --TEST-LONG options forwarded to a test (SUITE_MAX_FORWARD) */
#define OPT_SUITE_MAX_FORWARD 4

enum opt_key {
	/* the engine: every test's shared options (engine.c) */
	OPT_WARMUP = OPT_KEY_FIRST,
	OPT_INTERVAL,
	OPT_POLICY,
	OPT_JSON,
	OPT_MAXLAT,
	OPT_BREAK,
	OPT_CHECKPOINT,
	OPT_NO_MLOCK,
	OPT_NO_DMA,
	OPT_CLOCK,
	OPT_HIST_BUCKET,
	OPT_HIST_SIZE,
	OPT_HEADLINE_FD,
	OPT_MAX_MSW,
	OPT_HOUSEKEEPING,
	/* the loads' companion (loads/load.h) */
	OPT_LOAD,
	OPT_LOAD_CMD,
	OPT_LOAD_WORKERS,
	OPT_LOAD_NICE,
	OPT_LOAD_NET_DEST,
	OPT_LOAD_IO_DIR,
	/* the trace (trace/trace.c) */
	OPT_TRACE,
	/* the live metrics (metrics/metrics.c) */
	OPT_METRICS,
	OPT_METRICS_PORT,
	OPT_METRICS_ADDR,
	OPT_METRICS_LABEL,
	/* the lab outputs (cmd/lab.c) */
	LAB_OPT_LAVA,
	LAB_OPT_JUNIT,
	LAB_OPT_KCIDB,
	LAB_OPT_KCIDB_ORIGIN,
	LAB_OPT_KCIDB_BUILD,
	/* cyclic's own options (cyclictest's; its tables are its whole command line) */
	OPT_CYCLIC_POLICY,
	OPT_CYCLIC_PRIOSPREAD,
	OPT_CYCLIC_HISTFILE,
	OPT_CYCLIC_JSON,
	OPT_CYCLIC_TRACEMARK,
	OPT_CYCLIC_DEFAULT_SYSTEM,
	OPT_CYCLIC_LAPTOP,
	OPT_CYCLIC_WARMUP,
	OPT_CYCLIC_NO_MLOCK,
	OPT_CYCLIC_MAX_MSW,
	OPT_CYCLIC_MAINAFFINITY,
	OPT_CYCLIC_HOUSEKEEPING,
	/* the IPC tests (measure/lib/ipc_test.c) */
	OPT_IPC,
	OPT_IPC_PROCESS,
	/* rtlat handshake (measure/handshake.c) */
	OPT_HANDSHAKE_PERIOD,
	/* rtlat cruncher (measure/cruncher.c) */
	OPT_CRUNCHER_IDEAL,
	OPT_CRUNCHER_SLEEP,
	/* rtlat noise (measure/noise.c) */
	OPT_NOISE_THRESHOLD,
	OPT_NOISE_MODE,
	OPT_NOISE_WINDOW,
	OPT_NOISE_WIDTH,
	OPT_NOISE_NO_REF,
	OPT_NOISE_NO_THROTTLING,
	/* rtlat irq (measure/irq.c) */
	OPT_IRQ_SOURCE,
	OPT_IRQ_RESPOND,
	OPT_IRQ_PORT,
	OPT_IRQ_NUMBER,
	OPT_IRQ_PRIO,
	OPT_IRQ_CPU,
	OPT_IRQ_BAUD,
	OPT_IRQ_MAX_LOST,
	/* rtlat suite (cmd/suite.c) */
	OPT_SUITE_TESTS,
	OPT_SUITE_LOADS,
	OPT_SUITE_LABEL,
	OPT_SUITE_OUT,
	OPT_SUITE_MAXLAT,
	OPT_SUITE_WARMUP,
	OPT_SUITE_TEST_ARGS,
	OPT_SUITE_LAVA,
	OPT_SUITE_JUNIT,
	OPT_SUITE_GATE,
	OPT_SUITE_BASELINE,
	OPT_SUITE_DB,
	OPT_SUITE_MARGIN,
	OPT_SUITE_GATE_METRICS,
	OPT_SUITE_CANNOT_TELL,
	OPT_SUITE_NO_THROTTLING,
	OPT_SUITE_FORWARD,
	OPT_SUITE_FORWARD_END = OPT_SUITE_FORWARD + OPT_SUITE_MAX_FORWARD,
	/* rtlat load (cmd/load.c) */
	OPT_LOADCMD_LIST,
	OPT_LOADCMD_JSON,
	/* rtlat sysinfo (cmd/sysinfo.c) */
	OPT_SYSINFO_ROOT,
	OPT_SYSINFO_JSON,
	/* rtlat check (cmd/check.c) */
	OPT_CHECK_ROOT,
	OPT_CHECK_JSON,
	/* rtlat selftest (cmd/selftest.c) */
	OPT_SELFTEST_RESULT,
	/* report, compare and db: the report's shared options (report/cli.c) */
	OPT_REP_FORMAT,
	OPT_REP_INUNIT,
	OPT_REP_SETLABEL,
	OPT_REP_SETLOAD,
	OPT_REP_SETTEST,
	OPT_REP_DB,
	OPT_REP_URL,
	OPT_REP_LABEL,
	OPT_REP_BOARD,
	OPT_REP_KERNEL,
	OPT_REP_TEST,
	OPT_REP_LOAD,
	OPT_REP_SINCE,
	OPT_REP_UNTIL,
	OPT_REP_MD,
	OPT_REP_CSV,
	OPT_REP_UNIT,
	OPT_REP_THREADS,
	OPT_REP_QUIET,
	/* rtlat report's own (cmd/report.c) */
	OPT_REPORT_HTML,
	OPT_REPORT_HTML_RUNS,
	OPT_REPORT_LONGTERM,
	OPT_REPORT_RUNS,
	OPT_REPORT_LIMIT,
	OPT_REPORT_SUMMARY,
	/* rtlat compare's own (cmd/report.c) */
	OPT_COMPARE_GATE,
	OPT_COMPARE_MARGIN,
	OPT_COMPARE_GATE_METRICS,
	OPT_COMPARE_JSON,
	OPT_COMPARE_WITH_INTR,
	OPT_COMPARE_CANNOT_TELL,
	OPT_COMPARE_HTML,
	/* rtlat db (cmd/db.c) */
	OPT_DB_LOCK_TIMEOUT,
	OPT_KEY_END
};

#endif
