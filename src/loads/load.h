/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Load generators: the "with load" of every measurement (the ping -f,
 * while ls; do ls; done, cache calibrator, dd and hackbench of the old
 * recipes, and Xenomai's dohell mix).
 *
 * Each generator is one file in src/load/ that defines a struct load_gen
 * (name, help, unit, prepare, run) and is listed in load_gens[] (load.c).
 * The framework runs @workers processes per generator:
 *
 *  - forked from rtlat before any sampler thread exists, each one
 *    SCHED_OTHER (the policy is reset explicitly, never inherited), nice
 *    --load-nice, named "rtlat-load-NAME" (comm), with stdin and stdout on
 *    /dev/null and no inherited file descriptor;
 *  - all in one process group of their own (a terminal's Ctrl-C reaches
 *    rtlat only; rtlat stops them itself) so that one kill() reaches every
 *    worker and what it forked;
 *  - with PR_SET_PDEATHSIG(SIGKILL): if rtlat is killed, even with
 *    SIGKILL, its load processes die with it.
 *
 * A worker counts its work into a slot of shared memory (one writer per
 * slot); rates are count / time between start and stop. Stopping sends
 * SIGTERM to the group, waits up to 2 s, then SIGKILL, and reaps every
 * worker: no process, zombie or file is left behind. Files (io) are
 * unnamed (O_TMPFILE) or unlinked right after creation, so not even a
 * SIGKILL of rtlat leaves one.
 *
 * --load-cmd CMD runs "/bin/sh -c CMD" in a process group of its own under a
 * small guard process, which kills that whole group when rtlat stops the
 * loads or dies. The guard is a child subreaper: what the command left in
 * another group or session (setsid, a double fork) is killed too. rtlat
 * knows the command's group as well and terminates it itself when the
 * guard died or had to be killed (stopped, hung).
 */
#ifndef RTLAT_LOAD_H
#define RTLAT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>

#include "util/opt.h"

struct jw;

#define LOAD_MAX_CMDS 8
#define LOAD_MAX_WORKERS 256	/* per generator */

/* Options shared by every test and by "rtlat load" (LOAD_OPTDESCS). */
struct housekeeping;

struct load_opts {
	unsigned int gens;		/* bit i: load_gens[i] requested */
	int workers;			/* per generator; 0: one per CPU */
	int nice;			/* nice value of the load processes */
	const char *cmds[LOAD_MAX_CMDS];	/* --load-cmd */
	int ncmds;
	struct in_addr net_dest;	/* loopback only */
	const char *io_dir;		/* NULL: $TMPDIR, /var/tmp, /tmp */
	/* where a --load-cmd guard runs once it has started its command
	 * (a test's --housekeeping; NULL: where it was started) */
	const struct housekeeping *hk;
};

/* The load options, for an option table (load_companion, rtlat load). */
#define LOAD_OPTDESCS_CMD \
	{ "load-cmd", 0, required_argument, "CMD", \
	  "run CMD (/bin/sh -c) as load, in its own process group; may be\n" \
	  "repeated. Ending early: a warning; not runnable (exit 127/126):\n" \
	  "an error", OPT_LOAD_CMD }, \
	{ "load-workers", 0, required_argument, "N", \
	  "processes per load generator (default: one per online CPU)", \
	  OPT_LOAD_WORKERS }, \
	{ "load-nice", 0, required_argument, "NICE", \
	  "nice value of the load processes, -20..19 (default 0; loads are\n" \
	  "always SCHED_OTHER)", OPT_LOAD_NICE }, \
	{ "load-net-dest", 0, required_argument, "ADDR", \
	  "destination of the net load, a loopback address 127.x.x.x\n" \
	  "(default 127.0.0.1); any other address is refused", \
	  OPT_LOAD_NET_DEST }, \
	{ "load-io-dir", 0, required_argument, "DIR", \
	  "directory of the io load's unnamed files (default $TMPDIR,\n" \
	  "else /var/tmp, else /tmp)", OPT_LOAD_IO_DIR }

#define LOAD_OPTDESCS \
	{ "load", 0, required_argument, "NAME[,NAME]", \
	  "run load generators beside the test: cpu, cache, fork, io, net,\n" \
	  "msg, hell (all of them), none; see rtlat load --help", OPT_LOAD }, \
	LOAD_OPTDESCS_CMD

void load_opts_init(struct load_opts *o);
/* Handle a load option. Returns 0, -1 after an error, 1 if @d is not one. */
int load_opt(struct load_opts *o, const struct optdesc *d, const char *arg);
/* Add the generators of "cpu,io" / "hell" / "none" (',' or '+' separated,
 * white space around names ignored). Returns 0, or -1 with a message
 * naming the bad name and the known ones, or the empty element ("cpu,,io",
 * "cpu+", an empty list: "none" says no load). */
int load_parse_names(struct load_opts *o, const char *list, char *err,
		     size_t errlen);
/* Anything to run? */
bool load_requested(const struct load_opts *o);
/* "cpu,cache" for the requested generators (and "cmd"), into @buf. */
char *load_names(const struct load_opts *o, char *buf, size_t len);

/* --- generator side ---------------------------------------------------- */

/* Parent-side settings prepared before the workers start (read-only in
 * the workers). */
struct load_env {
	const struct load_opts *o;
	int workers;
	/* cache */
	size_t cache_bytes;
	int cache_line;
	int64_t cache_llc;
	/* io */
	char io_dir[256];
	bool io_tmpfile;		/* O_TMPFILE works there */
	size_t io_max_bytes;		/* per worker */
	/* net */
	bool net_raw;			/* ICMP through a raw socket (root) */
	/* fork */
	const char *fork_prog;		/* exec'd by each fork, or NULL */
};

/* Shared-memory slot of one load process (one writer: that process). */
struct load_slot {
	volatile uint64_t count;	/* work done, in the generator's units */
	uint64_t base;			/* count when the rates start (parent) */
	volatile int state;		/* LOAD_STARTING, LOAD_RUNNING, ... */
	int gen;			/* index in load_gens, -1 for a command */
	int index;			/* worker number */
	int policy, nice;		/* read back by the worker after set-up */
	int exit_status;		/* command: exit status, -1 = stopped */
	int64_t t_exit;			/* command: when it ended by itself */
	volatile int cmd_pgid;		/* command: its process group, 0 until
					 * known (set by the guard and the shell) */
	/* written by rtlat once the worker process has ended (load_check(),
	 * load_stop()); fate last (release) */
	int fate;			/* WORKER_OK, WORKER_DIED, WORKER_KILLED */
	int fate_status;		/* DIED: exit status, or 128 + signal */
	int64_t t_fate;			/* DIED: noticed, ns after the rates start */
	int cmd_group_killed;		/* rtlat signalled the command's group */
	int cmd_sigkilled;		/* command: still there after SIGTERM and
					 * the grace, SIGKILLed (by its guard) */
	char note[160];			/* what it does, set by worker 0 */
	char error[192];
};

enum {
	LOAD_STARTING,
	LOAD_RUNNING,
	LOAD_FAILED,
	LOAD_EXITED,			/* a command that ended by itself */
};

/* What became of a worker process, as rtlat saw it (load_slot.fate). */
enum {
	WORKER_OK,			/* ran until stopped, or failed saying why */
	WORKER_DIED,			/* ended before the loads were stopped */
	WORKER_KILLED,			/* did not stop on SIGTERM: SIGKILLed */
};

struct load_worker {
	const struct load_env *env;
	struct load_slot *slot;
	int index;
};

struct load_gen {
	const char *name;		/* "cpu" */
	const char *help;		/* one line */
	const char *unit;		/* "ops/s", "MB/s", "packets/s", ... */
	double per_count;		/* unit amount per count (1e-6: bytes->MB) */
	/* Parent, before any worker starts (may be NULL): check options, fill
	 * @env. Returns 0 or -1 with a message in @err. */
	int (*prepare)(struct load_env *env, char *err, size_t errlen);
	/* Worker process: set up, call load_running(), then work and count
	 * into w->slot->count until load_stopping(). On a set-up error call
	 * load_fail() and return. */
	void (*run)(struct load_worker *w);
};

/* NULL-terminated, in help order (load.c). */
extern const struct load_gen *const load_gens[];

/* In a worker: true once rtlat asked the loads to stop. */
bool load_stopping(void);
/* In a worker: set-up done; @note (worker 0's is reported) says what it does. */
void load_running(struct load_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* In a worker: record why it cannot run. */
void load_fail(struct load_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* In a worker: reset the signal handling and the parent-death signal of a
 * process it forks (before exec). */
void load_child_reset(void);

/* --- running loads ----------------------------------------------------- */

struct load_run;

/*
 * Start the loads of @o: prepare every generator, fork the workers and the
 * command guards, and wait until each worker has set itself up. Returns 0
 * with *@out (NULL when nothing was requested), or -1 with a message
 * (nothing is left running). Call it while the process has one thread.
 */
int load_start(const struct load_opts *o, struct load_run **out, char *err,
	       size_t errlen);

/* True when load_start() returned before every load process was set up
 * because a SIGINT, SIGTERM or SIGHUP was pending: the caller stops the run
 * (and the loads) at once instead of waiting for a slow start. */
bool load_start_interrupted(const struct load_run *lr);

/*
 * While the loads run (main thread, e.g. once per main-loop tick; at most
 * every 200 ms it looks): notice a load process that ended before it was
 * told to stop (killed, crashed) and record when and how. A --load-cmd
 * whose guard died has its process group terminated by rtlat at once.
 * NULL is fine.
 */
void load_check(struct load_run *lr);

/*
 * Stop and reap every load process (idempotent; NULL is fine): SIGTERM to
 * their group, SIGKILL after 2 s (a worker that had to be killed is
 * reported as such). Then, whatever became of the guards, rtlat itself
 * terminates each --load-cmd's process group if anything of it still runs
 * (SIGTERM and SIGCONT, SIGKILL after 2 s). Counting stops here: rates
 * cover start to stop.
 */
void load_stop(struct load_run *lr);

/* Stop if needed and free. */
void load_free(struct load_run *lr);

/* What one generator (or command) achieved: filled by load_results(),
 * or read back from a headline (cmd/headline.h). */
struct load_result {
	char name[16];			/* "cpu", or "cmd" */
	int workers;
	uint64_t count;			/* work done (see the generator) */
	double rate;			/* per second, in @unit */
	char unit[16];			/* "ops/s"; "" for a command */
	int64_t duration_ns;		/* time the rate covers */
	char policy[8];			/* as read back by worker 0 */
	int nice;
	char note[160];
	char error[192];		/* "" = ran fine */
	bool is_command;		/* --load-cmd: */
	char command[256];		/*   the command */
	int exit_status;		/*   its status if it ended, else -1 */
	int64_t ran_ns;			/*   how long it ran */
	bool worker_died;		/*   its guard died first (see error) */
	bool sigkilled;			/*   ignored SIGTERM: SIGKILLed after
					 *   the grace */
};

/* Results so far (rates up to now while running). Returns how many were
 * stored in @res (at most @max). */
int load_results(const struct load_run *lr, struct load_result *res, int max);

/* What load_problem() found. */
enum {
	LOAD_OK,
	LOAD_WARNING,	/* a generator failed; a command ended early */
	LOAD_ERROR,	/* a command the shell could not run (126, 127) */
};

/*
 * Check load result @r after load_stop(): a generator that failed, or a
 * command that ended by itself before the loads were stopped (the end of
 * the measurement), is LOAD_WARNING - the figures were not all measured
 * with that load; a command whose shell exited with status 127 (command
 * not found) or 126 (not executable) is LOAD_ERROR. The message, naming
 * the load, its exit status and when it ended, goes to @msg.
 */
int load_problem(const struct load_result *r, char *msg, size_t len);

/* The "loads" array of a result file (see docs/result-schema.md), of the
 * loads of @lr (NULL: empty) or of @n results. */
void load_json(const struct load_run *lr, struct jw *w);
void load_results_json(struct jw *w, const struct load_result *res, int n);

/* One line per generator: "@prefix cpu      2 workers  123.4 M ops/s  note". */
void load_print(FILE *f, const struct load_result *res, int n,
		const char *prefix);

/* "1.23 M ops/s", "456.7 MB/s": @rate in @unit, with an SI prefix for
 * counts. Returns @buf (48 bytes). */
char *load_fmt_rate(char *buf, double rate, const char *unit);

struct companion_ops;

/* The loads as a companion of a run (companion.c; engine.h): the options
 * of LOAD_OPTDESCS, started before the memory lock, stopped at the end. */
extern const struct companion_ops load_companion;
/* Its option table: LOAD_OPTDESCS. */
extern const struct optdesc load_optdescs[];

#endif
