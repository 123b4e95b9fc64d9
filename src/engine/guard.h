/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A guard process: puts back what rtlat changed in the system (tracefs
 * knobs, a serial port's settings) should rtlat die before it did so
 * itself, SIGKILL included.
 *
 * Shape: guard_start() forks a child holding the read end of a pipe whose
 * write end rtlat keeps. The child blocks every signal, runs in a session
 * of its own (a kill of rtlat's process group - timeout -s KILL, a lab
 * job's time-out - spares it) and closes every descriptor but the pipe and
 * those it is told to keep (no output rtlat's reader waits for stays open
 * in it). It then waits on the pipe: rtlat's word that it restored
 * (guard_end()) ends it with nothing done; end of file without that word
 * (rtlat died) makes it call @restore(@ctx), then it exits. @restore runs
 * in the forked child of a process that may have threads: it must be
 * async-signal-safe (no stdio, no malloc) and read only what @ctx held at
 * the fork.
 *
 * libc only.
 */
#ifndef RTLAT_GUARD_H
#define RTLAT_GUARD_H

#include <sys/types.h>

struct guard {
	pid_t pid;		/* 0: no guard */
	int fd;			/* the pipe's write end, -1 */
};

/* No guard yet: guard_end() on it does nothing. */
void guard_init(struct guard *g);

/*
 * Fork the guard of @g: it calls @restore(@ctx) if the pipe reaches end of
 * file without guard_end()'s word; descriptors @keep[0..@nkeep) stay open
 * in it (a port it restores through), every other is closed. Returns 0, or
 * -errno when a pipe cannot be created or the child forked (@g is then
 * left without a guard and nothing is open). Returns once the child is in
 * its session with only those descriptors open: a kill of rtlat's group
 * from then on spares it.
 */
int guard_start(struct guard *g, void (*restore)(void *ctx), void *ctx,
		const int *keep, int nkeep);

/* rtlat put things back itself: the guard exits without restoring; waits
 * for it. Idempotent; a guard whose word cannot be written restores (once
 * more) at end of file. */
void guard_end(struct guard *g);

#endif
