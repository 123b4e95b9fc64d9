// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * msg load: hackbench-like messaging. Each worker process is one group of
 * 10 sender and 10 receiver threads; every receiver has a socketpair, every
 * sender writes 100-byte messages to each receiver in turn, every receiver
 * reads them. Counted in messages/s received.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/timeutil.h"
#include "loads/load.h"

#define GROUP		10
#define MSG_SIZE	100
#define STACK		((size_t)64 * 1024)

struct msg_group {
	int rx[GROUP], tx[GROUP];	/* socketpair ends per receiver */
	unsigned long received[GROUP];	/* messages, written by receiver i */
	volatile int stop;
};

static void *sender(void *arg)
{
	struct msg_group *g = arg;
	char msg[MSG_SIZE];
	int i;

	memset(msg, 'm', sizeof(msg));
	while (!g->stop)
		for (i = 0; i < GROUP; i++)
			if (write(g->tx[i], msg, sizeof(msg)) < 0 && errno != EINTR)
				return NULL;
	return NULL;
}

struct receiver_arg {
	struct msg_group *g;
	int i;
};

static void *receiver(void *arg)
{
	struct receiver_arg *a = arg;
	char buf[MSG_SIZE * 16];
	size_t partial = 0;
	ssize_t n;

	while (!a->g->stop) {
		n = read(a->g->rx[a->i], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		partial += (size_t)n;
		a->g->received[a->i] += partial / MSG_SIZE;
		partial %= MSG_SIZE;
	}
	return NULL;
}

static void msg_run(struct load_worker *w)
{
	static struct msg_group g;
	static struct receiver_arg ra[GROUP];
	pthread_t th[2 * GROUP];
	unsigned long last[GROUP] = { 0 };
	pthread_attr_t attr;
	sigset_t block, old;
	int i, sv[2], nth = 0, e;

	for (i = 0; i < GROUP; i++) {
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
			load_fail(w, "socketpair: %s", strerror(errno));
			return;
		}
		g.rx[i] = sv[0];
		g.tx[i] = sv[1];
	}
	/* only this thread takes SIGTERM */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, STACK);
	for (i = 0; i < GROUP; i++) {
		ra[i].g = &g;
		ra[i].i = i;
		e = pthread_create(&th[nth], &attr, receiver, &ra[i]);
		if (!e)
			nth++;
		if (!e) {
			e = pthread_create(&th[nth], &attr, sender, &g);
			if (!e)
				nth++;
		}
		if (e) {
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			load_fail(w, "cannot start thread: %s", strerror(e));
			return;	/* the process exits, and its threads */
		}
	}
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	load_running(w, "hackbench-like group of %d senders x %d receivers, socketpairs, %d-byte messages",
		     GROUP, GROUP, MSG_SIZE);
	while (!load_stopping()) {
		sleep_ns(50 * NSEC_PER_MSEC);
		for (i = 0; i < GROUP; i++) {
			unsigned long now = g.received[i];

			w->slot->count += now - last[i];	/* wraps fine */
			last[i] = now;
		}
	}
	g.stop = 1;
	/* exiting ends every thread; nothing to clean up */
}

const struct load_gen load_msg = {
	.name = "msg",
	.help = "hackbench-like senders and receivers over socketpairs",
	.unit = "msgs/s",
	.per_count = 1.0,
	.run = msg_run,
};
