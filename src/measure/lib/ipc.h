/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * IPC wake-up mechanisms as plug-ins for the two-sided tests (switch,
 * handshake). A channel joins side 0 and side 1; each side has an inbox.
 * ipc_post(c, side) wakes the waiter of @side's inbox, ipc_wait(c, side)
 * blocks until @side's inbox was posted to. A mechanism only wakes: what
 * the sides tell each other (sequence numbers, timestamps) travels in
 * shared memory beside it (see ipc_test.h), so every mechanism carries the
 * same information and only the wake-up path differs.
 *
 *   sem      POSIX semaphore: sem_post / sem_wait
 *   futex    futex word: atomic increment + FUTEX_WAKE / FUTEX_WAIT
 *   condvar  PI mutex + condition variable: signal / wait
 *   pipe     pipe: write / read of 8 bytes
 *   eventfd  eventfd: write / read
 *   mqueue   POSIX message queue: mq_send / mq_receive of 8 bytes
 *   signal   real-time signal: tgkill / sigwaitinfo
 *   socket   UNIX datagram socket pair: send / recv of 8 bytes
 *
 * Posts never block: a full queue (pipe, socket, mqueue) drops the wake-up
 * and the receiver finds a gap in the sequence. Several posts before a
 * wait give several wake-ups (sem, pipe, mqueue, signal, socket) or one
 * (futex, eventfd, condvar); callers treat a wake-up that brings nothing
 * new as stale.
 *
 * Threads (default) or processes: the state lives in a MAP_SHARED mapping
 * (process-shared attributes where the mechanism has them) or in
 * descriptors that fork() passes on, so a channel opened before fork()
 * works between parent and child.
 *
 * ipc_wait() returns IPC_INTERRUPTED when a signal with a handler (the
 * engine's stop kick) interrupted it; a condvar wait also returns it every
 * 100 ms, since pthread_cond_wait() cannot be interrupted. Callers check
 * their stop flag and wait again. post and wait are the only calls a
 * sampler makes besides its clock reads.
 */
#ifndef RTLAT_IPC_H
#define RTLAT_IPC_H

#include <mqueue.h>
#include <stdbool.h>
#include <stddef.h>

#define IPC_INTERRUPTED 1

struct ipc;

struct ipc_ops {
	const char *name;	/* "sem" */
	const char *desc;	/* "POSIX semaphore (sem_post/sem_wait)" */
	/* Create the channel (shared state is zeroed). 0 or -errno. */
	int (*init)(struct ipc *c);
	/* In the thread that will wait on @side, before the first post to
	 * it (may be NULL). 0 or -errno. */
	int (*attach)(struct ipc *c, int side);
	/* Wake the waiter of @side. 0 or -errno. */
	int (*post)(struct ipc *c, int side);
	/* Wait for a post to @side. 0, IPC_INTERRUPTED or -errno. */
	int (*wait)(struct ipc *c, int side);
	void (*destroy)(struct ipc *c);
};

struct ipc_shared;

struct ipc {
	const struct ipc_ops *ops;
	bool process;			/* sides in different processes */
	struct ipc_shared *sh;		/* MAP_SHARED */
	int fd[2][2];			/* inbox of side i: [i][0] receive, [i][1] send */
	mqd_t mq[2][2];			/* same for mqueue */
	const char *what;		/* failing step, for messages */
};

/* NULL-terminated list of mechanisms, the default first. */
extern const struct ipc_ops *const ipc_mechanisms[];

/* Mechanism called @name, or NULL. */
const struct ipc_ops *ipc_find(const char *name);

/* "sem, futex, ..." into @buf. Returns @buf. */
char *ipc_names(char *buf, size_t len);

/*
 * Open a channel of mechanism @ops, for two threads or (@process) for a
 * parent and a child forked afterwards. Call it from the thread that will
 * create the sides (signal masks are inherited). Returns 0, or -errno with
 * a message in @err.
 */
int ipc_open(struct ipc *c, const struct ipc_ops *ops, bool process,
	     char *err, size_t errlen);

static inline int ipc_attach(struct ipc *c, int side)
{
	return c->ops->attach ? c->ops->attach(c, side) : 0;
}

static inline int ipc_post(struct ipc *c, int side)
{
	return c->ops->post(c, side);
}

static inline int ipc_wait(struct ipc *c, int side)
{
	return c->ops->wait(c, side);
}

/* Release the channel (in the process that opened it, after the sides
 * are gone). Safe on a channel whose ipc_open() failed. */
void ipc_close(struct ipc *c);

/* Zeroed memory shared with children forked later (MAP_SHARED), locked by
 * mlockall like any other. Returns NULL on failure (errno set). */
void *shared_alloc(size_t size);
void shared_free(void *p, size_t size);

#endif
