/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtlat cyclic: the command line and the output of rt-tests' cyclictest on
 * the rtlat engine. cyclic.c maps cyclictest's options onto the engine and
 * lays the threads out; cyclic_output.c prints the T: lines, the -h
 * histogram and writes the --json file. The pure functions below are
 * unit-tested (tests/unit/test_cyclic_*.c).
 */
#ifndef RTLAT_CYCLIC_H
#define RTLAT_CYCLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "system/cpulist.h"
#include "engine/test.h"
#include "util/opt.h"

#define CYCLIC_DEFAULT_INTERVAL_US	1000
#define CYCLIC_DEFAULT_DISTANCE_US	500
#define CYCLIC_HIST_MAX			1000000	/* -h buckets, as cyclictest */
#define CYCLIC_MAX_THREADS		1024

/* The cyclictest command line, as parsed. */
struct cyclic_opts {
	struct engine_opts eo;		/* what the engine runs with */
	int threads;			/* -t N; 0 = one per CPU of the set */
	bool threads_given;
	bool smp;			/* -S */
	bool affinity;			/* -a given */
	bool affinity_set;		/* -a CPUSET given */
	struct cpuset aff;		/* the CPUSET */
	int policy;			/* --policy (SCHED_*, also BATCH and
					 * IDLE), or -1 */
	const char *policy_arg;		/* as given: "normal" */
	int prio;			/* -p, 0 = not given */
	bool priospread;
	int64_t interval_ns;		/* -i: period of thread 0 */
	int64_t distance_ns;		/* -d: added per thread */
	bool distance_given;
	long hist_buckets;		/* -h/-H US: 1 us buckets; 0 = off */
	bool histofall;			/* -H: summary column */
	const char *histfile;
	const char *json_file;
	bool nsecs;			/* -N */
	bool verbose;			/* -v */
	bool relative;			/* -r */
	bool sys_nanosleep;		/* -s */
	bool posix_timers;		/* -x */
	/* argv, for "-t N" and "-a CPUSET" given as separate words */
	int argc;
	char **argv;
};

/* One measuring thread as laid out. */
struct cyclic_thread {
	int cpu;
	int policy, prio;
	int64_t period_ns;
};

/* The option table (drives getopt_long and --help). */
extern const struct optdesc cyclic_opt_table[];

/* Defaults: cyclictest's (one thread, 1000 us, SCHED_OTHER), no warm-up. */
void cyclic_opts_init(struct cyclic_opts *c, int argc, char **argv);

/* opt_parse() handler for cyclic_opt_table (@ctx: struct cyclic_opts). */
int cyclic_opt(void *ctx, const struct optdesc *d, const char *arg);

/* How many threads cyclic_layout() lays out on @usable (0: no CPU). */
int cyclic_layout_count(const struct cyclic_opts *c,
			const struct cpuset *usable);

/*
 * Lay out the threads of @c on @usable (the CPUs rtlat may use): CPU,
 * policy, priority and period of each, cyclictest's rules (see
 * man/rtlat-cyclic.1). Fills at most @max entries of @t and returns their
 * number, or -1 with a message in @err. Notes about adjusted settings
 * (priority defaulted, policy changed) go to @note ("" when none).
 */
int cyclic_layout(const struct cyclic_opts *c, const struct cpuset *usable,
		  struct cyclic_thread *t, int max, char *err, size_t errlen,
		  char *note, size_t notelen);

/*
 * When the --policy of @c is not the policy thread @t runs (a priority
 * with other/normal/batch/idle runs SCHED_FIFO, as in cyclictest; batch
 * and idle without one run SCHED_OTHER), the warning for stderr in @buf,
 * returned; else NULL.
 */
const char *cyclic_policy_warning(const struct cyclic_opts *c,
				  const struct cyclic_thread *t, char *buf,
				  size_t len);

/* Parse a cyclictest duration: 10, 10s, 5m, 2h, 1d (also upper case).
 * Returns 0 or -EINVAL. */
int cyclic_parse_duration(const char *s, int64_t *ns);

/* @ns in the output unit: microseconds rounded down, or ns with -N. */
int64_t cyclic_unit(int64_t ns, bool nsecs);

/* What a T: line shows. Times in ns; min/act/avg/max valid if cycles. */
struct cyclic_tvals {
	int index;
	int tid;
	int prio;
	int64_t interval_ns;
	uint64_t cycles;
	int64_t min, act, avg, max;
};

/*
 * Format a T: line (no newline) with cyclictest's fields and widths:
 * "T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld Avg:%5ld Max:%8ld"
 * (Act and Avg %8ld with -N). Without cycles the values read "n/a".
 * Returns the length snprintf() returned.
 */
int cyclic_tline(char *buf, size_t len, const struct cyclic_tvals *v,
		 bool nsecs);

/* The output style (cyclic_output.c). */
extern const struct output_ops cyclic_output;

/* Per-run state of the output (r->priv). */
struct cyclic_state {
	const struct cyclic_opts *c;
	struct window *live;		/* per thread, from interval records */
	int live_lines;			/* lines of the live block */
};

/* The private state of a cyclic run (test_desc.priv_size, r->priv): the
 * run's state first, so that r->priv is the struct cyclic_state the output
 * reads; the command line after it. */
struct cyclic_run {
	struct cyclic_state st;
	struct cyclic_opts c;
};

/*
 * Write the rt-tests style JSON of @r (documented in docs/cyclic-json.md)
 * atomically to @path, with @return_code. Returns 0 or -1 with a message.
 */
int cyclic_json_write(struct run *r, const char *path, int return_code,
		      char *err, size_t errlen);

#endif
