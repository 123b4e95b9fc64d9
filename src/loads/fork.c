// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fork load: a fork+exec storm, the "while ls; do ls; done" of the old
 * recipes. Each worker forks, the child execs /bin/true (else /bin/ls,
 * else exits at once), the worker waits for it and starts again. Counted
 * in forks/s.
 */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loads/load.h"

static int fork_prepare(struct load_env *env, char *err, size_t errlen)
{
	static const char *const progs[] = { "/bin/true", "/usr/bin/true",
					     "/bin/ls", "/usr/bin/ls" };
	size_t i;

	(void)err;
	(void)errlen;
	env->fork_prog = NULL;
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		if (access(progs[i], X_OK) == 0) {
			env->fork_prog = progs[i];
			break;
		}
	}
	return 0;
}

static void fork_run(struct load_worker *w)
{
	const char *prog = w->env->fork_prog;
	pid_t pid;
	int st;

	if (prog)
		load_running(w, "fork + exec %s + wait", prog);
	else
		load_running(w, "fork + exit + wait (no /bin/true or /bin/ls)");
	while (!load_stopping()) {
		pid = fork();
		if (pid < 0) {
			if (errno == EAGAIN || errno == ENOMEM) {
				usleep(1000);
				continue;
			}
			load_fail(w, "fork: %s", strerror(errno));
			return;
		}
		if (pid == 0) {
			load_child_reset();
			if (prog)
				execl(prog, prog, (char *)NULL);
			_exit(0);
		}
		/* on SIGTERM the child (same process group) got it too:
		 * reap it all the same, leave no zombie */
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		w->slot->count++;
	}
}

const struct load_gen load_fork = {
	.name = "fork",
	.help = "fork+exec storm (while ls; do ls; done)",
	.unit = "forks/s",
	.per_count = 1.0,
	.prepare = fork_prepare,
	.run = fork_run,
};
