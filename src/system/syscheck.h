/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Is this system set up for real time? A list of items (preemption model,
 * RT throttling, cpufreq, cpuidle, CPU isolation and the interrupts the
 * isolated CPUs still take, SMT siblings, interrupt affinity, clocksource
 * and the cost of a clock read, THP, swap, timer migration, RT group
 * scheduling, debug options of the kernel, tracers, co-kernel), each with
 * what was found, a verdict and the fix.
 *
 * Everything is read below a root prefix as in sysinfo.h ("/" = this
 * system; a fake tree of tests/data/sysroots/ in the tests). The clock
 * read cost is measured only on the root "/". Below a fake root the
 * interrupt sampling waits for nothing: its second reading is the file
 * proc/interrupts.later when the tree has one (else proc/interrupts
 * again), taken to be @interval_ns after the first.
 */
#ifndef RTLAT_SYSCHECK_H
#define RTLAT_SYSCHECK_H

#include <stdint.h>
#include <stdio.h>

struct jw;

enum check_verdict {
	CHECK_NA,	/* does not apply, or could not be checked */
	CHECK_OK,
	CHECK_WARN,	/* may cost latency, or hides where it comes from */
	CHECK_BAD,	/* costs latency: fix it before measuring */
};

#define CHECK_TEXT 640
#define CHECK_MAX 24

struct check_item {
	const char *id;			/* "preempt", "rt_throttling", ... */
	const char *title;		/* "preemption model" */
	enum check_verdict verdict;
	char found[CHECK_TEXT];		/* what the system shows */
	char fix[CHECK_TEXT];		/* what to do; "" when nothing */
};

struct check_report {
	int n;
	struct check_item item[CHECK_MAX];
	int64_t interval_ns;		/* interrupt sampling; 0 = one reading */
	int64_t clock_read_ns;		/* median cost of one
					 * clock_gettime(CLOCK_MONOTONIC), ns;
					 * -1 = not measured */
};

/*
 * @s (UTF-8) made safe to print in place: C0 and C1 control characters,
 * DEL, the line/paragraph separators, the bidirectional overrides and
 * isolates (U+200E-F, U+202A-E, U+2066-9) and bytes that are not UTF-8
 * become '?' each, so that a name read from a damaged tree (an escape
 * sequence, a newline) reaches no terminal as it is.
 */
void syscheck_printable(char *s);

/*
 * Check the system below @root, sampling /proc/interrupts over
 * @interval_ns (0: one reading, counts since boot). Nothing fails: an
 * item that cannot be read says so. Returns the worst verdict.
 */
enum check_verdict syscheck_run(struct check_report *r, const char *root,
				int64_t interval_ns);

/* The worst verdict of @r. */
enum check_verdict syscheck_worst(const struct check_report *r);

/* "ok", "warning", "bad", "n/a". */
const char *check_verdict_name(enum check_verdict v);

/* "1 bad, 9 warnings, 5 ok, 2 n/a" into @buf. */
char *syscheck_counts(const struct check_report *r, char *buf, size_t len);

/* Print @r as a table, one item a line and its fix below it. */
void syscheck_print(const struct check_report *r, FILE *f);

/*
 * Write @r as members of the JSON object being written: "items" (id,
 * title, verdict, found, fix), "counts" (items per verdict), "worst",
 * "interval_ns", "clock_read_ns" (see docs/result-schema.md, "check").
 */
void syscheck_json(const struct check_report *r, struct jw *w);

/*
 * The compact form carried by every result file and the suite (the
 * conditions a figure was measured under): "worst", "counts" and "items"
 * with id, verdict and found only.
 */
void syscheck_json_compact(const struct check_report *r, struct jw *w);

/* The compact form as text: "@indent<id> <verdict> <found>", one item a
 * line. */
void syscheck_print_compact(const struct check_report *r, FILE *f,
			    const char *indent);

#endif
