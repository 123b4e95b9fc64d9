// SPDX-License-Identifier: GPL-2.0-or-later
/* Load generator framework: options, worker processes, rates; see load.h. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/children.h"
#include "engine/housekeeping.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/parse.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"
#include "loads/load.h"

extern const struct load_gen load_cpu, load_cache, load_fork, load_io,
	load_net, load_msg;

/* A new generator adds one line here ("hell" runs all of them). */
const struct load_gen *const load_gens[] = {
	&load_cpu,
	&load_cache,
	&load_fork,
	&load_io,
	&load_net,
	&load_msg,
	NULL,
};

#define STOP_GRACE_NS	(2 * NSEC_PER_SEC)
/* a --load-cmd's group: SIGTERM, then SIGKILL this long after */
#define CMD_TERM_GRACE_NS	NSEC_PER_SEC
/* set-up of every load process (a fork, a buffer touched, sockets): 30 s
 * on a machine loaded already (10 s was seen to be too short in a fresh
 * root while compilers ran beside it) */
#define START_WAIT_NS	(30 * NSEC_PER_SEC)
#define POLL_NS		(5 * NSEC_PER_MSEC)
#define CHECK_NS	(200 * NSEC_PER_MSEC)	/* load_check() at most */

/* Shared memory: the start gate and one slot per load process. */
struct load_shared {
	volatile int go;		/* set once every worker is set up */
	struct load_slot slots[];
};

struct load_run {
	struct load_env env;
	struct load_shared *shm;
	struct load_slot *slots;	/* shm->slots */
	size_t map_len;
	pid_t *pids;			/* per slot; 0 once reaped */
	int nslots;
	pid_t pgid;			/* process group of the workers */
	int64_t t_start, t_stop;	/* CLOCK_MONOTONIC */
	int64_t next_check;		/* load_check() looks again then */
	bool stopped;
	bool start_interrupted;		/* a stop signal came while they started */
};

/* ---------------------------------------------------------------------- */
/* Options */

void load_opts_init(struct load_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->net_dest.s_addr = htonl(INADDR_LOOPBACK);
}

static int gen_index(const char *name)
{
	int i;

	for (i = 0; load_gens[i]; i++)
		if (!strcmp(load_gens[i]->name, name))
			return i;
	return -1;
}

/*
 * The next element of the list @list at *@pos, split on ',' and '+' (a mix),
 * white space around it ignored, into @buf (@len bytes). Returns 1, 0 at
 * the end, or -1 with a message for an empty element (as in "cpu,,io",
 * "cpu+", ""): "none" is the way to say no load.
 */
static int next_name(const char *list, size_t *pos, char *buf, size_t len,
		     char *err, size_t errlen)
{
	size_t start = *pos, end, n;
	const char *p;

	if (start > strlen(list))
		return 0;
	end = start + strcspn(list + start, ",+");
	*pos = end + 1;
	p = list + start;
	n = end - start;
	while (n && (*p == ' ' || *p == '\t')) {
		p++;
		n--;
	}
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	if (!n) {
		if (!list[strspn(list, " \t")])
			snprintf(err, errlen, "empty load list (none: no load)");
		else
			snprintf(err, errlen, "empty element at position %zu in \"%s\" (none: no load)",
				 start + 1, list);
		return -1;
	}
	snprintf(buf, len, "%.*s", (int)n, p);
	return 1;
}

int load_parse_names(struct load_opts *o, const char *list, char *err,
		     size_t errlen)
{
	char tok[256];
	size_t pos = 0;
	int i, r;

	while ((r = next_name(list, &pos, tok, sizeof(tok), err, errlen)) > 0) {
		if (!strcmp(tok, "none"))
			continue;
		if (!strcmp(tok, "hell") || !strcmp(tok, "all")) {
			for (i = 0; load_gens[i]; i++)
				o->gens |= 1u << i;
			continue;
		}
		i = gen_index(tok);
		if (i < 0) {
			int n = snprintf(err, errlen, "unknown load '%s'; known: ", tok);

			for (i = 0; load_gens[i] && n > 0 && (size_t)n < errlen; i++)
				n += snprintf(err + n, errlen - (size_t)n, "%s, ",
					      load_gens[i]->name);
			if (n > 0 && (size_t)n < errlen)
				snprintf(err + n, errlen - (size_t)n, "hell, none");
			return -1;
		}
		o->gens |= 1u << i;
	}
	return r;
}

/* Only loopback: a flood must never leave the machine. */
static int net_dest_parse(const char *s, struct in_addr *a, char *err,
			  size_t errlen)
{
	if (!strcmp(s, "localhost"))
		s = "127.0.0.1";
	if (inet_pton(AF_INET, s, a) != 1) {
		struct in6_addr a6;

		if (inet_pton(AF_INET6, s, &a6) == 1)
			snprintf(err, errlen, "IPv6 is not supported; use a loopback address 127.x.x.x");
		else
			snprintf(err, errlen, "not an IPv4 address; use a loopback address 127.x.x.x");
		return -1;
	}
	if ((ntohl(a->s_addr) >> 24) != 127) {
		snprintf(err, errlen, "not a loopback address: the net load floods, it only accepts 127.x.x.x (127.0.0.0/8)");
		return -1;
	}
	return 0;
}

int load_opt(struct load_opts *o, const struct optdesc *d, const char *arg)
{
	char err[256];
	long long v;

	switch (d->key) {
	case OPT_LOAD:
		if (load_parse_names(o, arg, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		return 0;
	case OPT_LOAD_CMD:
		if (o->ncmds >= LOAD_MAX_CMDS)
			return opt_bad_value(d, arg, "at most 8 load commands");
		if (!arg[0])
			return opt_bad_value(d, arg, "expected a shell command");
		o->cmds[o->ncmds++] = arg;
		return 0;
	case OPT_LOAD_WORKERS:
		if (parse_int(arg, 1, LOAD_MAX_WORKERS, &v) < 0)
			return opt_bad_value(d, arg, "expected a number of processes 1..256");
		o->workers = (int)v;
		return 0;
	case OPT_LOAD_NICE:
		if (parse_int(arg[0] == '+' ? arg + 1 : arg, -20, 19, &v) < 0)
			return opt_bad_value(d, arg, "expected a nice value -20..19");
		o->nice = (int)v;
		return 0;
	case OPT_LOAD_NET_DEST:
		if (net_dest_parse(arg, &o->net_dest, err, sizeof(err)) < 0)
			return opt_bad_value(d, arg, err);
		return 0;
	case OPT_LOAD_IO_DIR:
		if (!arg[0])
			return opt_bad_value(d, arg, "expected a directory");
		o->io_dir = arg;
		return 0;
	}
	return 1;
}

bool load_requested(const struct load_opts *o)
{
	return o->gens || o->ncmds;
}

char *load_names(const struct load_opts *o, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; load_gens[i]; i++)
		if (o->gens & (1u << i) && n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? "," : "", load_gens[i]->name);
	if (o->ncmds && n < len)
		snprintf(buf + n, len - n, "%scmd", n ? "," : "");
	return buf;
}

/* ---------------------------------------------------------------------- */
/* Worker side */

static volatile sig_atomic_t stop_requested;
static volatile int *start_gate;	/* in a worker: &shm->go */

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

bool load_stopping(void)
{
	return stop_requested != 0;
}

void load_running(struct load_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->slot->note, sizeof(w->slot->note), fmt, ap);
	va_end(ap);
	__atomic_store_n(&w->slot->state, LOAD_RUNNING, __ATOMIC_RELEASE);
	/* no worker works before all are set up: set-up (allocating and
	 * touching a buffer, ...) does not compete with the busy ones */
	while (start_gate && !__atomic_load_n(start_gate, __ATOMIC_ACQUIRE) &&
	       !stop_requested) {
		sleep_ns(NSEC_PER_MSEC);
	}
}

void load_fail(struct load_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->slot->error, sizeof(w->slot->error), fmt, ap);
	va_end(ap);
	__atomic_store_n(&w->slot->state, LOAD_FAILED, __ATOMIC_RELEASE);
}

void load_child_reset(void)
{
	sigset_t all;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
}

static void close_inherited_fds(void)
{
	int fd;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
#endif
	for (fd = 3; fd < 1024; fd++)
		close(fd);
}

/*
 * First thing in every load process: die with rtlat, own group, plain
 * scheduling, default signals (SIGTERM = stop), no inherited descriptors.
 */
static void worker_init(pid_t parent, pid_t pgid, int nice_val,
			const char *name, int deathsig, struct load_slot *slot)
{
	struct sched_param sp = { 0 };
	struct sigaction sa;
	char comm[16];
	int fd;

	prctl(PR_SET_PDEATHSIG, deathsig);
	if (getppid() != parent)	/* rtlat already gone */
		_exit(0);
	setpgid(0, pgid);
	snprintf(comm, sizeof(comm), "rtlat-load-%s", name);
	prctl(PR_SET_NAME, comm);
	load_child_reset();
	prctl(PR_SET_PDEATHSIG, deathsig);	/* load_child_reset set SIGKILL */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: blocking calls end */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);	/* rtlat decides when loads stop */
	munlockall();
	/* system calls: musl's sched_setscheduler() is a stub (ENOSYS) */
	syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, 0, nice_val);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2)
			close(fd);
	}
	close_inherited_fds();
	slot->policy = (int)syscall(SYS_sched_getscheduler, 0);
	errno = 0;
	slot->nice = getpriority(PRIO_PROCESS, 0);
}

/*
 * Has child @pid ended? It is not reaped (a zombie keeps its process group
 * id taken); its exit status (128 + signal if killed) goes to @status if
 * not NULL.
 */
static bool child_ended(pid_t pid, int *status)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    si.si_pid != pid)
		return false;
	if (status)
		*status = si.si_code == CLD_EXITED ? si.si_status :
			  128 + si.si_status;
	return true;
}

/*
 * Children of the guard but @keep: what the command left behind when the
 * processes it was started from ended (the guard is their subreaper). Reap
 * those that ended, send @sig (0: none) to the others. Returns how many
 * are left.
 */
static int cmd_orphans(pid_t keep, int sig)
{
	pid_t kids[512];
	int n = children_list(kids, 512), i, left = 0;

	for (i = 0; i < n; i++) {
		if (kids[i] == keep || kids[i] <= 0)
			continue;
		if (waitpid(kids[i], NULL, WNOHANG) == kids[i])
			continue;
		if (sig)
			kill(kids[i], sig);
		left++;
	}
	return left;
}

/*
 * --load-cmd guard: runs "/bin/sh -c CMD" in a new process group and kills
 * that group (SIGTERM, then SIGKILL after a grace time) when told to stop
 * or when rtlat dies (parent-death signal SIGTERM). Keeps the shell
 * unreaped until then so that the group id stays valid. The guard is a
 * child subreaper: what the command starts and leaves behind in another
 * process group or session (setsid, a daemon's double fork) becomes its
 * child when its parent ends, and is killed and reaped too.
 *
 * The command has ended by itself when the shell and everything it left
 * have; its exit status is the shell's.
 */
static void cmd_guard(const char *cmd, struct load_slot *slot,
		      const struct housekeeping *hk)
{
	int64_t start = clock_now_ns(CLOCK_MONOTONIC), end, next_scan = 0;
	int st = 0;
	bool shell_ended = false;
	pid_t pid;

	prctl(PR_SET_CHILD_SUBREAPER, 1);
	slot->exit_status = -1;
	pid = fork();
	if (pid < 0) {
		snprintf(slot->error, sizeof(slot->error), "cannot fork: %s",
			 strerror(errno));
		slot->state = LOAD_FAILED;
		_exit(1);
	}
	if (pid == 0) {
		setpgid(0, 0);
		/* rtlat knows the group even if the guard is stopped now */
		slot->cmd_pgid = (int)getpid();
		/* running from here: a command that kills its guard at once
		 * ("kill -9 $PPID") has started, it did not fail to (the
		 * guard may not have run since the fork) */
		__atomic_store_n(&slot->state, LOAD_RUNNING, __ATOMIC_RELEASE);
		load_child_reset();
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	/* the command keeps where it was started; the guard itself is one
	 * of rtlat's own threads (engine/housekeeping.h) */
	if (hk)
		hk_apply(hk);
	slot->cmd_pgid = (int)pid;
	snprintf(slot->note, sizeof(slot->note), "/bin/sh -c, process group %d",
		 (int)pid);
	__atomic_store_n(&slot->state, LOAD_RUNNING, __ATOMIC_RELEASE);
	/* poll: a blocking wait could miss a SIGTERM arriving just before */
	while (!stop_requested) {
		int64_t now = clock_now_ns(CLOCK_MONOTONIC);

		if (!shell_ended)
			shell_ended = child_ended(pid, &st);
		/* after the shell: what it left, at most 4 times a second */
		if (shell_ended && slot->state == LOAD_RUNNING &&
		    now >= next_scan) {
			next_scan = now + 250 * NSEC_PER_MSEC;
			if (cmd_orphans(pid, 0) == 0) {
				slot->t_exit = now - start;
				slot->exit_status = st;
				slot->state = LOAD_EXITED;
			}
		}
		sleep_ns(20 * NSEC_PER_MSEC);
	}
	kill(-pid, SIGTERM);
	cmd_orphans(pid, SIGTERM);
	end = clock_now_ns(CLOCK_MONOTONIC) + CMD_TERM_GRACE_NS;
	while ((!child_ended(pid, NULL) || cmd_orphans(pid, 0) > 0) &&
	       clock_now_ns(CLOCK_MONOTONIC) < end)
		sleep_ns(POLL_NS);
	/* still there (the shell or what it started): it ignored SIGTERM */
	if (!child_ended(pid, NULL) || cmd_orphans(pid, 0) > 0)
		slot->cmd_sigkilled = 1;
	kill(-pid, SIGKILL);	/* whatever is left in its group */
	waitpid(pid, NULL, 0);
	/* and elsewhere: each one killed may leave children of its own,
	 * which come here in turn */
	end = clock_now_ns(CLOCK_MONOTONIC) + 2 * NSEC_PER_SEC;
	while (cmd_orphans(0, SIGKILL) > 0 &&
	       clock_now_ns(CLOCK_MONOTONIC) < end)
		sleep_ns(POLL_NS);
	_exit(0);
}

/* ---------------------------------------------------------------------- */
/* Parent side */

static int online_cpus(void)
{
	struct cpuset s;
	int n;

	if (cpus_allowed(&s) == 0 && (n = cpuset_count(&s)) > 0)
		return n;
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? n : 1;
}

static pid_t spawn(struct load_run *lr, int k, const char *name,
		   const struct load_gen *g, const char *cmd)
{
	struct load_slot *slot = &lr->slots[k];
	pid_t parent = getpid(), pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct load_worker w = { &lr->env, slot, slot->index };

		worker_init(parent, lr->pgid, lr->env.o->nice, name,
			    g ? SIGKILL : SIGTERM, slot);
		start_gate = &lr->shm->go;
		if (g) {
			g->run(&w);
			_exit(slot->state == LOAD_FAILED ? 1 : 0);
		}
		cmd_guard(cmd, slot, lr->env.o->hk);
	}
	/* also from here: no window in which a kill(-pgid) misses it */
	setpgid(pid, lr->pgid ? lr->pgid : pid);
	if (!lr->pgid)
		lr->pgid = pid;
	lr->pids[k] = pid;
	return pid;
}

/* A SIGINT, SIGTERM or SIGHUP pending (the measuring commands block them
 * and take them later): not taken. */
static bool stop_signal_pending(void)
{
	sigset_t pend;

	return sigpending(&pend) == 0 &&
	       (sigismember(&pend, SIGINT) == 1 ||
		sigismember(&pend, SIGTERM) == 1 ||
		sigismember(&pend, SIGHUP) == 1);
}

/* Wait until every load process has set itself up, or a stop signal is
 * pending (Ctrl-C while a slow load starts acts at once: the caller takes
 * it and stops the loads); -1 at the first that failed (message in
 * @err). */
static int wait_running(struct load_run *lr, char *err, size_t errlen)
{
	int64_t end = clock_now_ns(CLOCK_MONOTONIC) + START_WAIT_NS;
	char which[160];
	size_t off;
	int k, pending;

	do {
		pending = 0;
		off = 0;
		which[0] = '\0';
		for (k = 0; k < lr->nslots; k++) {
			struct load_slot *s = &lr->slots[k];
			int st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
			const char *name = s->gen >= 0 ? load_gens[s->gen]->name :
					   "cmd";

			if (st == LOAD_FAILED) {
				snprintf(err, errlen, "load %s: %s", name, s->error);
				return -1;
			}
			if (st != LOAD_STARTING)
				continue;
			if (child_ended(lr->pids[k], NULL)) {
				snprintf(err, errlen, "load %s: worker %d died during set-up",
					 name, s->index);
				return -1;
			}
			pending++;
			if (off < sizeof(which))	/* the first ones named */
				off += (size_t)snprintf(which + off,
							sizeof(which) - off,
							"%s%s worker %d",
							off ? ", " : "", name,
							s->index);
		}
		if (pending && stop_signal_pending()) {
			lr->start_interrupted = true;
			return 0;	/* the caller takes it and stops them */
		}
		if (pending)
			sleep_ns(POLL_NS);
	} while (pending && clock_now_ns(CLOCK_MONOTONIC) < end);
	if (pending) {
		snprintf(err, errlen, "%d load process(es) still setting up after %lld s (%s%s): is the machine overloaded?",
			 pending, START_WAIT_NS / NSEC_PER_SEC, which,
			 off >= sizeof(which) ? "..." : "");
		return -1;
	}
	return 0;
}

int load_start(const struct load_opts *o, struct load_run **out, char *err,
	       size_t errlen)
{
	struct load_run *lr;
	int i, j, k, ngens = 0;

	*out = NULL;
	if (!load_requested(o))
		return 0;
	lr = calloc(1, sizeof(*lr));
	if (!lr) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	lr->env.o = o;
	lr->env.workers = o->workers ? o->workers : online_cpus();
	if (lr->env.workers > LOAD_MAX_WORKERS)
		lr->env.workers = LOAD_MAX_WORKERS;
	for (i = 0; load_gens[i]; i++) {
		if (!(o->gens & (1u << i)))
			continue;
		ngens++;
		if (load_gens[i]->prepare &&
		    load_gens[i]->prepare(&lr->env, err, errlen) < 0) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s", err);
			snprintf(err, errlen, "load %s: %s", load_gens[i]->name, msg);
			free(lr);
			return -1;
		}
	}
	lr->nslots = ngens * lr->env.workers + o->ncmds;
	lr->map_len = sizeof(struct load_shared) +
		      (size_t)lr->nslots * sizeof(struct load_slot);
	lr->shm = mmap(NULL, lr->map_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	lr->pids = calloc((size_t)lr->nslots, sizeof(pid_t));
	if (lr->shm == MAP_FAILED || !lr->pids) {
		snprintf(err, errlen, "cannot allocate the load slots: %s",
			 strerror(errno));
		if (lr->shm != MAP_FAILED)
			munmap(lr->shm, lr->map_len);
		free(lr->pids);
		free(lr);
		return -1;
	}
	lr->slots = lr->shm->slots;
	k = 0;
	for (i = 0; load_gens[i]; i++) {
		if (!(o->gens & (1u << i)))
			continue;
		for (j = 0; j < lr->env.workers; j++, k++) {
			lr->slots[k].gen = i;
			lr->slots[k].index = j;
		}
	}
	for (j = 0; j < o->ncmds; j++, k++) {
		lr->slots[k].gen = -1;
		lr->slots[k].index = j;
	}

	lr->t_start = clock_now_ns(CLOCK_MONOTONIC);
	for (k = 0; k < lr->nslots; k++) {
		const struct load_slot *s = &lr->slots[k];
		const struct load_gen *g = s->gen >= 0 ? load_gens[s->gen] : NULL;

		if (spawn(lr, k, g ? g->name : "cmd", g,
			  g ? NULL : o->cmds[s->index]) < 0) {
			snprintf(err, errlen, "cannot start the %s load: fork: %s",
				 g ? g->name : "cmd", strerror(errno));
			load_free(lr);
			return -1;
		}
	}
	if (wait_running(lr, err, errlen) < 0) {
		load_free(lr);
		return -1;
	}
	/* rates count from here: set-up (e.g. touching the cache buffer) is
	 * not part of them */
	lr->t_start = clock_now_ns(CLOCK_MONOTONIC);
	for (k = 0; k < lr->nslots; k++)
		lr->slots[k].base = lr->slots[k].count;
	__atomic_store_n(&lr->shm->go, 1, __ATOMIC_RELEASE);
	*out = lr;
	return 0;
}

/*
 * Does process group @pgid hold a process that is not a zombie? (A zombie
 * of it, orphaned, waits for init to reap it: nothing to kill.)
 */
static bool group_alive(pid_t pgid)
{
	struct dirent *de;
	bool alive = false;
	DIR *d;

	if (pgid <= 0 || kill(-pgid, 0) < 0)
		return false;		/* ESRCH: no member at all */
	d = opendir("/proc");
	if (!d)
		return true;		/* cannot tell: assume so */
	while (!alive && (de = readdir(d))) {
		char state;
		long ppid, pgrp;

		if (de->d_name[0] < '1' || de->d_name[0] > '9' ||
		    proc_stat_read(de->d_name, &state, &ppid, &pgrp) < 0)
			continue;
		alive = pgrp == pgid && state != 'Z' && state != 'X';
	}
	closedir(d);
	return alive;
}

/* Ask what runs of the command of @s to end: SIGTERM, and SIGCONT so that
 * a stopped member sees it. Returns whether anything of it ran. */
static bool cmd_group_term(struct load_slot *s)
{
	pid_t pgid = (pid_t)s->cmd_pgid;

	if (s->gen >= 0 || !group_alive(pgid))
		return false;
	kill(-pgid, SIGTERM);
	kill(-pgid, SIGCONT);
	__atomic_store_n(&s->cmd_group_killed, 1, __ATOMIC_RELAXED);
	return true;
}

/* Record that the worker of slot @k ended at @now with @status (exit
 * status, 128 + signal); a command's group is told to end. */
static void worker_died(struct load_run *lr, int k, int64_t now, int status)
{
	struct load_slot *s = &lr->slots[k];

	s->fate_status = status;
	s->t_fate = now - lr->t_start;
	__atomic_store_n(&s->fate, WORKER_DIED, __ATOMIC_RELEASE);
	cmd_group_term(s);
}

/* Workers that ended while they should run: a worker that failed said why
 * (LOAD_FAILED) and is not one of them. */
static void check_workers(struct load_run *lr, int64_t now)
{
	int k, st;

	for (k = 0; k < lr->nslots; k++) {
		struct load_slot *s = &lr->slots[k];

		if (lr->pids[k] <= 0 || s->fate != WORKER_OK ||
		    __atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == LOAD_FAILED)
			continue;
		if (child_ended(lr->pids[k], &st))
			worker_died(lr, k, now, st);
	}
}

void load_check(struct load_run *lr)
{
	int64_t now;

	if (!lr || lr->stopped)
		return;
	now = clock_now_ns(CLOCK_MONOTONIC);
	if (now < lr->next_check)
		return;
	lr->next_check = now + CHECK_NS;
	check_workers(lr, now);
}

/* Commands whose group rtlat signalled (cmd_group_term()) and of which
 * something still runs. */
static int cmd_groups_left(const struct load_run *lr)
{
	int k, n = 0;

	for (k = 0; k < lr->nslots; k++)
		if (lr->slots[k].cmd_group_killed &&
		    group_alive((pid_t)lr->slots[k].cmd_pgid))
			n++;
	return n;
}

void load_stop(struct load_run *lr)
{
	int64_t end;
	int k, pending;

	if (!lr || lr->stopped)
		return;
	lr->t_stop = clock_now_ns(CLOCK_MONOTONIC);
	check_workers(lr, lr->t_stop);
	if (lr->pgid)
		kill(-lr->pgid, SIGTERM);
	end = lr->t_stop + STOP_GRACE_NS;
	do {
		pending = 0;
		for (k = 0; k < lr->nslots; k++)
			if (lr->pids[k] > 0 && !child_ended(lr->pids[k], NULL))
				pending++;
		if (pending)
			sleep_ns(POLL_NS);
	} while (pending && clock_now_ns(CLOCK_MONOTONIC) < end);
	/* still running after the grace (stopped, hung): killed */
	for (k = 0; k < lr->nslots && pending; k++)
		if (lr->pids[k] > 0 && !child_ended(lr->pids[k], NULL))
			__atomic_store_n(&lr->slots[k].fate, WORKER_KILLED,
					 __ATOMIC_RELEASE);
	/* the group still exists (unreaped members): get any straggler and
	 * whatever a worker forked */
	if (lr->pgid)
		kill(-lr->pgid, SIGKILL);
	for (k = 0; k < lr->nslots; k++) {
		if (lr->pids[k] <= 0)
			continue;
		while (waitpid(lr->pids[k], NULL, 0) < 0 && errno == EINTR)
			;
		lr->pids[k] = 0;
	}
	/* a guard that died or was killed left its command to rtlat; one
	 * that stopped on SIGTERM killed and reaped the group itself */
	for (k = 0; k < lr->nslots; k++)
		if (lr->slots[k].fate != WORKER_OK)
			cmd_group_term(&lr->slots[k]);
	end = clock_now_ns(CLOCK_MONOTONIC) + STOP_GRACE_NS;
	while (cmd_groups_left(lr) && clock_now_ns(CLOCK_MONOTONIC) < end)
		sleep_ns(20 * NSEC_PER_MSEC);
	for (k = 0; k < lr->nslots; k++)
		if (lr->slots[k].cmd_group_killed &&
		    group_alive((pid_t)lr->slots[k].cmd_pgid))
			kill(-(pid_t)lr->slots[k].cmd_pgid, SIGKILL);
	lr->stopped = true;
}

void load_free(struct load_run *lr)
{
	if (!lr)
		return;
	load_stop(lr);
	munmap(lr->shm, lr->map_len);
	free(lr->pids);
	free(lr);
}

bool load_start_interrupted(const struct load_run *lr)
{
	return lr && lr->start_interrupted;
}

/* Why worker @s did not run until stopped (its fate), into @buf. */
static void fate_text(const struct load_slot *s, int fate, char *buf,
		      size_t len)
{
	char how[96];
	const char *cmd = s->gen < 0 &&
			  __atomic_load_n(&s->cmd_group_killed, __ATOMIC_RELAXED) ?
			  "; rtlat ended the command's process group itself" : "";

	if (fate == WORKER_KILLED) {
		snprintf(buf, len, "worker %d: did not stop within %lld s of SIGTERM (stopped or hung) and was killed%s",
			 s->index, (long long)(STOP_GRACE_NS / NSEC_PER_SEC), cmd);
		return;
	}
	if (s->fate_status > 128)
		snprintf(how, sizeof(how), "killed by signal %d (%s)",
			 s->fate_status - 128, strsignal(s->fate_status - 128));
	else
		snprintf(how, sizeof(how), "exited with status %d",
			 s->fate_status);
	snprintf(buf, len, "worker %d: %s after %.1f s, before the loads were stopped%s",
		 s->index, how, (double)s->t_fate / 1e9, cmd);
}

int load_results(const struct load_run *lr, struct load_result *res, int max)
{
	int64_t now, dur;
	int k, n = 0;

	if (!lr)
		return 0;
	now = lr->stopped ? lr->t_stop : clock_now_ns(CLOCK_MONOTONIC);
	dur = now - lr->t_start;
	for (k = 0; k < lr->nslots && n < max; k++) {
		const struct load_slot *s = &lr->slots[k];
		int fate = __atomic_load_n(&s->fate, __ATOMIC_ACQUIRE);
		struct load_result *r;

		/* a generator's result opens with its worker 0 */
		if (n == 0 || s->index == 0 || s->gen < 0) {
			r = &res[n++];
			memset(r, 0, sizeof(*r));
			r->duration_ns = dur;
			snprintf(r->policy, sizeof(r->policy), "%s",
				 policy_name(s->policy));
			r->nice = s->nice;
			snprintf(r->note, sizeof(r->note), "%s", s->note);
			r->exit_status = -1;
			if (s->gen >= 0) {
				snprintf(r->name, sizeof(r->name), "%s",
					 load_gens[s->gen]->name);
				snprintf(r->unit, sizeof(r->unit), "%s",
					 load_gens[s->gen]->unit);
			} else {
				snprintf(r->name, sizeof(r->name), "cmd");
				r->is_command = true;
				snprintf(r->command, sizeof(r->command), "%s",
					 lr->env.o->cmds[s->index]);
				r->ran_ns = dur;
				if (s->state == LOAD_EXITED) {
					r->exit_status = s->exit_status;
					r->ran_ns = s->t_exit;
				} else if (fate == WORKER_DIED) {
					/* the command went with its guard */
					r->worker_died = true;
					r->ran_ns = s->t_fate;
				}
				r->sigkilled = s->cmd_sigkilled;
			}
		} else {
			r = &res[n - 1];
		}
		r->workers++;
		r->count += s->count - s->base;
		if (s->error[0] && !r->error[0])
			snprintf(r->error, sizeof(r->error), "worker %d: %s",
				 s->index, s->error);
		else if (fate != WORKER_OK && !r->error[0])
			fate_text(s, fate, r->error, sizeof(r->error));
	}
	for (k = 0; k < n; k++) {
		struct load_result *r = &res[k];
		int g = gen_index(r->name);

		if (g >= 0 && dur > 0)
			r->rate = (double)r->count * load_gens[g]->per_count *
				  1e9 / (double)dur;
	}
	return n;
}

int load_problem(const struct load_result *r, char *msg, size_t len)
{
	double t = (double)r->ran_ns / 1e9;
	int st = r->exit_status;

	msg[0] = '\0';
	if (r->is_command && st >= 0) {
		if (st == 126 || st == 127) {
			snprintf(msg, len,
				 "load command '%s' exited with status %d after %.1f s: the shell could not run it (%s)",
				 r->command, st, t,
				 st == 127 ? "command not found" : "not executable");
			return LOAD_ERROR;
		}
		if (st > 128)
			snprintf(msg, len,
				 "load command '%s' was killed by signal %d (%s) after %.1f s, before the end of the run: the rest of the run went without it",
				 r->command, st - 128, strsignal(st - 128), t);
		else
			snprintf(msg, len,
				 "load command '%s' ended by itself with exit status %d after %.1f s, before the end of the run: the rest of the run went without it",
				 r->command, st, t);
		return LOAD_WARNING;
	}
	if (r->error[0]) {
		if (r->is_command)
			snprintf(msg, len, "load command '%s' failed: %s",
				 r->command, r->error);
		else
			snprintf(msg, len, "load %s failed: %s", r->name,
				 r->error);
		return LOAD_WARNING;
	}
	return LOAD_OK;
}

void load_json(const struct load_run *lr, struct jw *w)
{
	struct load_result res[32];

	load_results_json(w, res, load_results(lr, res, 32));
}

void load_results_json(struct jw *w, const struct load_result *res, int n)
{
	int i;

	jw_arr_begin(w, "loads");
	for (i = 0; i < n; i++) {
		const struct load_result *r = &res[i];

		jw_obj_begin(w, NULL);
		jw_str(w, "name", r->name);
		jw_int(w, "workers", r->workers);
		jw_str(w, "policy", r->policy);
		jw_int(w, "nice", r->nice);
		jw_int(w, "duration_ns", r->duration_ns);
		if (r->is_command) {
			jw_str(w, "command", r->command);
			jw_int(w, "ran_ns", r->ran_ns);
			if (r->exit_status >= 0)
				jw_int(w, "exit_status", r->exit_status);
			else
				jw_null(w, "exit_status");
			jw_bool(w, "killed_after_grace", r->sigkilled);
		} else {
			jw_uint(w, "count", r->count);
			jw_double(w, "rate", r->rate, 3);
			jw_str(w, "unit", r->unit);
		}
		jw_str(w, "note", r->note);
		if (r->error[0])
			jw_str(w, "error", r->error);
		else
			jw_null(w, "error");
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

char *load_fmt_rate(char *buf, double rate, const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T" };
	int i = 0;

	if (!strncmp(unit, "MB", 2)) {
		snprintf(buf, 48, "%.1f %s", rate, unit);
		return buf;
	}
	while (rate >= 1000.0 && i < 4) {
		rate /= 1000.0;
		i++;
	}
	snprintf(buf, 48, "%.*f %s%s%s", rate < 10 ? 2 : rate < 100 ? 1 : 0,
		 rate, si[i], i ? " " : "", unit);
	return buf;
}

void load_print(FILE *f, const struct load_result *res, int n,
		const char *prefix)
{
	char rate[48];
	int i;

	for (i = 0; i < n; i++) {
		const struct load_result *r = &res[i];

		if (r->is_command) {
			fprintf(f, "%s%-6s %3d       %18s  %s; ", prefix, r->name,
				r->workers, "-", r->command);
			if (r->exit_status >= 0)
				fprintf(f, "ended by itself with status %d after %.1f s",
					r->exit_status, (double)r->ran_ns / 1e9);
			else if (r->worker_died)
				fprintf(f, "ran %.1f s until its worker died",
					(double)r->ran_ns / 1e9);
			else
				fprintf(f, "ran %.1f s until stopped",
					(double)r->ran_ns / 1e9);
			if (r->sigkilled)
				fprintf(f, " (still there %.1f s after SIGTERM: it ignored it, or left its process group; SIGKILLed)",
					(double)CMD_TERM_GRACE_NS / 1e9);
		} else {
			fprintf(f, "%s%-6s %3d %-5s %18s  %s", prefix, r->name,
				r->workers, r->policy,
				load_fmt_rate(rate, r->rate, r->unit), r->note);
		}
		if (r->error[0])
			fprintf(f, " [FAILED: %s]", r->error);
		fprintf(f, "\n");
	}
}
