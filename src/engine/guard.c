// SPDX-License-Identifier: GPL-2.0-or-later
/* The guard process that restores what rtlat changed (guard.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/guard.h"

#define GUARD_WORD	'r'	/* rtlat restored: nothing to do */
#define GUARD_FD_MAX	1024	/* descriptors closed in the child */

void guard_init(struct guard *g)
{
	g->pid = 0;
	g->fd = -1;
}

static bool kept(int fd, const int *keep, int nkeep)
{
	int i;

	for (i = 0; i < nkeep; i++)
		if (keep[i] == fd)
			return true;
	return false;
}

/* The child: never returns. @ready is closed once it is in a session of
 * its own with only @rfd and @keep open. */
static void guard_main(int rfd, int ready, void (*restore)(void *ctx),
		       void *ctx, const int *keep, int nkeep)
{
	sigset_t all;
	ssize_t n;
	char c = 0;
	int fd;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	setsid();
	for (fd = 0; fd < GUARD_FD_MAX; fd++)
		if (fd != rfd && fd != ready && !kept(fd, keep, nkeep))
			close(fd);
	close(ready);
	do
		n = read(rfd, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1 || c != GUARD_WORD)
		restore(ctx);
	_exit(0);
}

int guard_start(struct guard *g, void (*restore)(void *ctx), void *ctx,
		const int *keep, int nkeep)
{
	int pp[2], rd[2], e;
	ssize_t n;
	pid_t pid;
	char c;

	guard_init(g);
	if (pipe2(pp, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(rd, O_CLOEXEC) < 0) {
		e = errno;
		close(pp[0]);
		close(pp[1]);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(pp[0]);
		close(pp[1]);
		close(rd[0]);
		close(rd[1]);
		return -e;
	}
	if (pid == 0) {
		close(rd[0]);
		guard_main(pp[0], rd[1], restore, ctx, keep, nkeep);
	}
	close(pp[0]);
	close(rd[1]);
	/* ready (end of file) once out of rtlat's session: a kill of
	 * rtlat's group right after this return spares it */
	do
		n = read(rd[0], &c, 1);
	while (n < 0 && errno == EINTR);
	close(rd[0]);
	g->pid = pid;
	g->fd = pp[1];
	return 0;
}

void guard_end(struct guard *g)
{
	char c = GUARD_WORD;

	if (g->pid <= 0)
		return;
	if (write(g->fd, &c, 1) < 0)
		c = 0;	/* the guard restores (again) at end of file */
	close(g->fd);
	while (waitpid(g->pid, NULL, 0) < 0 && errno == EINTR)
		;
	guard_init(g);
}
