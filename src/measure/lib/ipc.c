// SPDX-License-Identifier: GPL-2.0-or-later
/* IPC wake-up mechanisms; see ipc.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "measure/lib/ipc.h"
#include "util/timeutil.h"

/* from <linux/futex.h>, which musl toolchains may lack */
#ifndef FUTEX_WAIT
#define FUTEX_WAIT		0
#define FUTEX_WAKE		1
#define FUTEX_PRIVATE_FLAG	128
#endif

#define CONDVAR_POLL_NS		(100 * NSEC_PER_MSEC)
#define MQ_DEPTH		8

/* State of every mechanism; only the chosen one is used. */
struct ipc_shared {
	sem_t sem[2];
	_Atomic uint32_t futex[2];	/* posts so far */
	pthread_mutex_t mutex[2];
	pthread_cond_t cond[2];
	uint32_t posted[2];		/* condvar: posts so far (mutex held) */
	uint32_t seen[2];		/* futex, condvar: the waiter's count */
	_Atomic int pid[2], tid[2];	/* signal: who waits on each inbox */
};

/* The 8-byte message of pipe, socket and mqueue (its content is unused). */
static const uint64_t wake_msg = 1;

void *shared_alloc(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void shared_free(void *p, size_t size)
{
	if (p)
		munmap(p, size);
}

/* read()/recv()/mq_receive() result -> wait result. */
static int wait_result(ssize_t n, size_t want)
{
	if (n == (ssize_t)want)
		return 0;
	if (n < 0 && errno == EINTR)
		return IPC_INTERRUPTED;
	return n < 0 ? -errno : -EIO;
}

/* write()/send()/mq_send() result -> post result; a full queue drops the
 * wake-up (the receiver sees a gap in the sequence). */
static int post_result(ssize_t n)
{
	if (n >= 0 || errno == EAGAIN)
		return 0;
	return -errno;
}

/* sem ------------------------------------------------------------------ */

static int sem_ipc_init(struct ipc *c)
{
	int i;

	c->what = "sem_init";
	for (i = 0; i < 2; i++)
		if (sem_init(&c->sh->sem[i], c->process, 0) < 0)
			return -errno;
	return 0;
}

static int sem_ipc_post(struct ipc *c, int side)
{
	return sem_post(&c->sh->sem[side]) < 0 ? -errno : 0;
}

static int sem_ipc_wait(struct ipc *c, int side)
{
	if (sem_wait(&c->sh->sem[side]) == 0)
		return 0;
	return errno == EINTR ? IPC_INTERRUPTED : -errno;
}

static void sem_ipc_destroy(struct ipc *c)
{
	sem_destroy(&c->sh->sem[0]);
	sem_destroy(&c->sh->sem[1]);
}

/* futex ---------------------------------------------------------------- */

static long futex(_Atomic uint32_t *addr, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)addr, op, val, NULL, NULL, 0);
}

static int futex_op(const struct ipc *c, int op)
{
	return c->process ? op : op | FUTEX_PRIVATE_FLAG;
}

static int futex_ipc_init(struct ipc *c)
{
	return 0;
}

static int futex_ipc_post(struct ipc *c, int side)
{
	atomic_fetch_add_explicit(&c->sh->futex[side], 1, memory_order_release);
	if (futex(&c->sh->futex[side], futex_op(c, FUTEX_WAKE), 1) < 0)
		return -errno;
	return 0;
}

static int futex_ipc_wait(struct ipc *c, int side)
{
	struct ipc_shared *sh = c->sh;

	for (;;) {
		uint32_t v = atomic_load_explicit(&sh->futex[side],
						  memory_order_acquire);

		if (v != sh->seen[side]) {
			sh->seen[side] = v;
			return 0;
		}
		if (futex(&sh->futex[side], futex_op(c, FUTEX_WAIT), v) < 0) {
			if (errno == EINTR)
				return IPC_INTERRUPTED;
			if (errno != EAGAIN)
				return -errno;
		}
	}
}

static void futex_ipc_destroy(struct ipc *c)
{
}

/* condvar -------------------------------------------------------------- */

static int condvar_ipc_init(struct ipc *c)
{
	int pshared = c->process ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int i, e = 0;

	c->what = "pthread_mutex_init/pthread_cond_init";
	pthread_mutexattr_init(&ma);
	pthread_condattr_init(&ca);
	if (!e)
		e = pthread_mutexattr_setpshared(&ma, pshared);
	if (!e)
		e = pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	if (!e)
		e = pthread_condattr_setpshared(&ca, pshared);
	if (!e)
		e = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	for (i = 0; i < 2 && !e; i++) {
		e = pthread_mutex_init(&c->sh->mutex[i], &ma);
		if (!e)
			e = pthread_cond_init(&c->sh->cond[i], &ca);
	}
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_destroy(&ca);
	return -e;
}

static int condvar_ipc_post(struct ipc *c, int side)
{
	struct ipc_shared *sh = c->sh;
	int e;

	e = pthread_mutex_lock(&sh->mutex[side]);
	if (e)
		return -e;
	sh->posted[side]++;
	e = pthread_cond_signal(&sh->cond[side]);
	pthread_mutex_unlock(&sh->mutex[side]);
	return -e;
}

static int condvar_ipc_wait(struct ipc *c, int side)
{
	struct ipc_shared *sh = c->sh;
	struct timespec ts;
	int e, ret;

	e = pthread_mutex_lock(&sh->mutex[side]);
	if (e)
		return -e;
	if (sh->posted[side] == sh->seen[side]) {
		ts = ns_to_ts(clock_now_ns(CLOCK_MONOTONIC) + CONDVAR_POLL_NS);
		do {
			e = pthread_cond_timedwait(&sh->cond[side],
						   &sh->mutex[side], &ts);
		} while (!e && sh->posted[side] == sh->seen[side]);
	}
	if (sh->posted[side] != sh->seen[side]) {
		sh->seen[side] = sh->posted[side];
		ret = 0;
	} else {
		ret = e == ETIMEDOUT ? IPC_INTERRUPTED : -e;
	}
	pthread_mutex_unlock(&sh->mutex[side]);
	return ret;
}

static void condvar_ipc_destroy(struct ipc *c)
{
	int i;

	for (i = 0; i < 2; i++) {
		pthread_cond_destroy(&c->sh->cond[i]);
		pthread_mutex_destroy(&c->sh->mutex[i]);
	}
}

/* pipe, eventfd, socket: descriptors ------------------------------------ */

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
		return -errno;
	return 0;
}

static int pipe_ipc_init(struct ipc *c)
{
	int i, e;

	c->what = "pipe";
	for (i = 0; i < 2; i++) {
		if (pipe2(c->fd[i], O_CLOEXEC) < 0)
			return -errno;
		e = set_nonblock(c->fd[i][1]);
		if (e)
			return e;
	}
	return 0;
}

static int fd_ipc_post(struct ipc *c, int side)
{
	return post_result(write(c->fd[side][1], &wake_msg, sizeof(wake_msg)));
}

static int fd_ipc_wait(struct ipc *c, int side)
{
	uint64_t v;

	return wait_result(read(c->fd[side][0], &v, sizeof(v)), sizeof(v));
}

static void fd_ipc_destroy(struct ipc *c)
{
	int fds[4] = { 0 }, n = 0, i, j, k;

	/* eventfd and socket use one descriptor for several ends */
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			for (k = 0; k < n && fds[k] != c->fd[i][j]; k++)
				;
			if (c->fd[i][j] >= 0 && k == n)
				fds[n++] = c->fd[i][j];
			c->fd[i][j] = -1;
		}
	for (k = 0; k < n; k++)
		close(fds[k]);
}

static int eventfd_ipc_init(struct ipc *c)
{
	int i;

	c->what = "eventfd";
	for (i = 0; i < 2; i++) {
		c->fd[i][0] = eventfd(0, EFD_CLOEXEC);
		if (c->fd[i][0] < 0)
			return -errno;
		c->fd[i][1] = c->fd[i][0];
	}
	return 0;
}

static int socket_ipc_init(struct ipc *c)
{
	int sv[2];

	c->what = "socketpair(AF_UNIX, SOCK_DGRAM)";
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	/* side 0 receives on sv[0] what is sent on sv[1], and back */
	c->fd[0][0] = sv[0];
	c->fd[0][1] = sv[1];
	c->fd[1][0] = sv[1];
	c->fd[1][1] = sv[0];
	return 0;
}

static int socket_ipc_post(struct ipc *c, int side)
{
	return post_result(send(c->fd[side][1], &wake_msg, sizeof(wake_msg),
				MSG_DONTWAIT));
}

static int socket_ipc_wait(struct ipc *c, int side)
{
	uint64_t v;

	return wait_result(recv(c->fd[side][0], &v, sizeof(v), 0), sizeof(v));
}

/* mqueue --------------------------------------------------------------- */

static int mq_ipc_init(struct ipc *c)
{
	static _Atomic int serial;
	struct mq_attr attr;
	char name[64];
	int i, e;

	memset(&attr, 0, sizeof(attr));
	attr.mq_maxmsg = MQ_DEPTH;
	attr.mq_msgsize = sizeof(wake_msg);
	c->what = "mq_open";
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "/rtlat-%d-%d", (int)getpid(),
			 atomic_fetch_add(&serial, 1));
		c->mq[i][0] = mq_open(name, O_RDONLY | O_CREAT | O_EXCL |
				      O_CLOEXEC, 0600, &attr);
		if (c->mq[i][0] == (mqd_t)-1)
			return -errno;
		c->mq[i][1] = mq_open(name, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		e = errno;
		/* the descriptors keep the queue; nothing is left behind */
		mq_unlink(name);
		if (c->mq[i][1] == (mqd_t)-1)
			return -e;
	}
	return 0;
}

static int mq_ipc_post(struct ipc *c, int side)
{
	return post_result(mq_send(c->mq[side][1], (const char *)&wake_msg,
				   sizeof(wake_msg), 0));
}

static int mq_ipc_wait(struct ipc *c, int side)
{
	uint64_t v;

	return wait_result(mq_receive(c->mq[side][0], (char *)&v, sizeof(v),
				      NULL), sizeof(v));
}

static void mq_ipc_destroy(struct ipc *c)
{
	int i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			if (c->mq[i][j] != (mqd_t)-1)
				mq_close(c->mq[i][j]);
			c->mq[i][j] = (mqd_t)-1;
		}
}

/* signal --------------------------------------------------------------- */

static int signal_of(int side)
{
	return SIGRTMIN + 3 + side;
}

static int signal_ipc_init(struct ipc *c)
{
	sigset_t set;

	/* blocked in the opening thread, hence in every thread and child
	 * created afterwards: a signal is only ever taken by sigwaitinfo */
	sigemptyset(&set);
	sigaddset(&set, signal_of(0));
	sigaddset(&set, signal_of(1));
	c->what = "pthread_sigmask";
	return -pthread_sigmask(SIG_BLOCK, &set, NULL);
}

static int signal_ipc_attach(struct ipc *c, int side)
{
	atomic_store(&c->sh->pid[side], (int)getpid());
	atomic_store(&c->sh->tid[side], (int)gettid());
	return 0;
}

static int signal_ipc_post(struct ipc *c, int side)
{
	int tid = atomic_load_explicit(&c->sh->tid[side], memory_order_relaxed);

	if (!tid)
		return -ESRCH;
	/* syscall(): musl has no tgkill() wrapper */
	if (syscall(SYS_tgkill, atomic_load_explicit(&c->sh->pid[side],
						    memory_order_relaxed),
		    tid, signal_of(side)) < 0)
		return errno == ESRCH ? 0 : -errno;	/* waiter already gone */
	return 0;
}

static int signal_ipc_wait(struct ipc *c, int side)
{
	sigset_t set;
	siginfo_t si;

	sigemptyset(&set);
	sigaddset(&set, signal_of(side));
	if (sigwaitinfo(&set, &si) >= 0)
		return 0;
	return errno == EINTR ? IPC_INTERRUPTED : -errno;
}

static void signal_ipc_destroy(struct ipc *c)
{
}

/* ---------------------------------------------------------------------- */

static const struct ipc_ops sem_ops = {
	"sem", "POSIX semaphore (sem_post/sem_wait)",
	sem_ipc_init, NULL, sem_ipc_post, sem_ipc_wait, sem_ipc_destroy,
};
static const struct ipc_ops futex_ops = {
	"futex", "futex (FUTEX_WAKE/FUTEX_WAIT)",
	futex_ipc_init, NULL, futex_ipc_post, futex_ipc_wait, futex_ipc_destroy,
};
static const struct ipc_ops condvar_ops = {
	"condvar", "PI mutex + condition variable (pthread_cond_signal/wait)",
	condvar_ipc_init, NULL, condvar_ipc_post, condvar_ipc_wait,
	condvar_ipc_destroy,
};
static const struct ipc_ops pipe_ops = {
	"pipe", "pipe (write/read)",
	pipe_ipc_init, NULL, fd_ipc_post, fd_ipc_wait, fd_ipc_destroy,
};
static const struct ipc_ops eventfd_ops = {
	"eventfd", "eventfd (write/read)",
	eventfd_ipc_init, NULL, fd_ipc_post, fd_ipc_wait, fd_ipc_destroy,
};
static const struct ipc_ops mqueue_ops = {
	"mqueue", "POSIX message queue (mq_send/mq_receive)",
	mq_ipc_init, NULL, mq_ipc_post, mq_ipc_wait, mq_ipc_destroy,
};
static const struct ipc_ops signal_ops = {
	"signal", "real-time signal (tgkill/sigwaitinfo)",
	signal_ipc_init, signal_ipc_attach, signal_ipc_post, signal_ipc_wait,
	signal_ipc_destroy,
};
static const struct ipc_ops socket_ops = {
	"socket", "UNIX datagram socket pair (send/recv)",
	socket_ipc_init, NULL, socket_ipc_post, socket_ipc_wait, fd_ipc_destroy,
};

const struct ipc_ops *const ipc_mechanisms[] = {
	&sem_ops, &futex_ops, &condvar_ops, &pipe_ops, &eventfd_ops,
	&mqueue_ops, &signal_ops, &socket_ops, NULL,
};

const struct ipc_ops *ipc_find(const char *name)
{
	int i;

	for (i = 0; ipc_mechanisms[i]; i++)
		if (!strcmp(ipc_mechanisms[i]->name, name))
			return ipc_mechanisms[i];
	return NULL;
}

char *ipc_names(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; ipc_mechanisms[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "",
				      ipc_mechanisms[i]->name);
	return buf;
}

int ipc_open(struct ipc *c, const struct ipc_ops *ops, bool process,
	     char *err, size_t errlen)
{
	int i, j, e;

	memset(c, 0, sizeof(*c));
	c->ops = ops;
	c->process = process;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			c->fd[i][j] = -1;
			c->mq[i][j] = (mqd_t)-1;
		}
	c->sh = shared_alloc(sizeof(*c->sh));
	if (!c->sh) {
		e = -errno;
		snprintf(err, errlen, "cannot map shared memory for the %s channel: %s",
			 ops->name, strerror(errno));
		return e;
	}
	c->what = ops->name;
	e = ops->init(c);
	if (e) {
		snprintf(err, errlen, "cannot create the %s channel: %s: %s%s",
			 ops->name, c->what, strerror(-e),
			 e == -ENOSYS || (ops == &mqueue_ops && e == -ENOENT) ?
			 " (kernel without this IPC, e.g. CONFIG_POSIX_MQUEUE?)" :
			 e == -EMFILE || e == -ENFILE ? " (too many open files)" :
			 "");
		ops->destroy(c);
		shared_free(c->sh, sizeof(*c->sh));
		c->sh = NULL;
		return e;
	}
	return 0;
}

void ipc_close(struct ipc *c)
{
	if (!c->sh)
		return;
	c->ops->destroy(c);
	shared_free(c->sh, sizeof(*c->sh));
	c->sh = NULL;
}
