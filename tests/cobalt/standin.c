// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stand-in for Xenomai 3's libcobalt, for testing rtlat's Cobalt build
 * on a machine without Xenomai (docs/xenomai.md). Not shipped.
 *
 * Linked as libcobalt is, with the --wrap options of cobalt.wrappers and
 * --wrap=main: every wrapped call of the program lands in __wrap_NAME
 * here, is counted per thread and goes on to the real call (__real_NAME).
 * A thread created through the wrapped pthread_create() is marked as a
 * Cobalt thread (with its policy and priority), as libcobalt shadows it;
 * the main thread is one too (libcobalt's bootstrap shadows it).
 *
 * Environment:
 *   COBALT_STANDIN_LOG=FILE   at exit, one line per thread and call:
 *                             "tid kind policy prio name count"
 *                             (kind: cobalt or linux); a forked child's
 *                             in FILE.PID
 *   COBALT_STANDIN_ROOT=DIR   keep DIR/proc/xenomai/version and
 *                             DIR/proc/xenomai/sched/stat (the Cobalt
 *                             core's thread statistics: CPU PID MSW CSW XSC
 *                             PF STAT %CPU NAME) up to date, with the
 *                             threads of every process (DIR is created)
 *   COBALT_STANDIN_MSW_AT=N   a Cobalt thread of a real-time policy counts
 *                             one mode switch (MSW) at its Nth wrapped
 *                             clock_nanosleep(), as if it had called Linux
 *   COBALT_STANDIN_MSW_ABS=1  with it, N counts from the thread's first
 *                             TIMER_ABSTIME clock_nanosleep() (the 1st):
 *                             rtlat cruncher's calibration sleeps, as many
 *                             as it takes, come before that one, its wait
 *                             for the start
 *
 * Inside this file only __real_NAME calls reach libc for a wrapped NAME.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#define STANDIN_VERSION "3.2.4"

/* The calls counted: one index each. */
#define CALLS(X) \
	X(pthread_attr_init) X(pthread_create) X(pthread_setschedparam) \
	X(pthread_getschedparam) X(pthread_setschedprio) X(pthread_yield) \
	X(sched_yield) X(sched_get_priority_min) X(sched_get_priority_max) \
	X(sched_setscheduler) X(sched_getscheduler) X(pthread_kill) \
	X(pthread_join) X(pthread_setname_np) \
	X(sem_init) X(sem_destroy) X(sem_post) X(sem_timedwait) X(sem_wait) \
	X(sem_trywait) X(sem_getvalue) X(sem_open) X(sem_close) X(sem_unlink) \
	X(clock_getres) X(clock_gettime) X(clock_settime) X(clock_adjtime) \
	X(clock_nanosleep) X(nanosleep) \
	X(pthread_mutex_init) X(pthread_mutex_destroy) X(pthread_mutex_lock) \
	X(pthread_mutex_trylock) X(pthread_mutex_timedlock) \
	X(pthread_mutex_unlock) \
	X(pthread_cond_init) X(pthread_cond_destroy) X(pthread_cond_wait) \
	X(pthread_cond_timedwait) X(pthread_cond_signal) \
	X(pthread_cond_broadcast) \
	X(mq_open) X(mq_close) X(mq_unlink) X(mq_getattr) X(mq_setattr) \
	X(mq_send) X(mq_timedsend) X(mq_receive) X(mq_timedreceive) \
	X(mq_notify) \
	X(open) X(open64) X(__open_2) X(__open64_2) X(socket) X(close) \
	X(ioctl) X(read) X(write) X(recvmsg) X(sendmsg) X(recvfrom) \
	X(sendto) X(recv) X(send) X(getsockopt) X(setsockopt) X(bind) \
	X(connect) X(listen) X(accept) X(getsockname) X(getpeername) \
	X(shutdown) \
	X(timer_create) X(timer_delete) X(timer_settime) X(timer_getoverrun) \
	X(timer_gettime) X(timerfd_create) X(timerfd_gettime) \
	X(timerfd_settime) X(select) \
	X(vfprintf) X(vprintf) X(fprintf) X(printf) X(puts) X(fputs) \
	X(fputc) X(putchar) X(fwrite) X(fclose) X(syslog) X(vsyslog) \
	X(gettimeofday) X(__vfprintf_chk) X(__vprintf_chk) X(__fprintf_chk) \
	X(__printf_chk) X(__vsyslog_chk) X(__syslog_chk) \
	X(sigwait) X(sigwaitinfo) X(sigtimedwait) X(sigpending) X(sigqueue) \
	X(kill) X(sleep) X(usleep) X(mmap) X(mmap64) X(time) X(fcntl)

#define INDEX(n) C_##n,
enum { CALLS(INDEX) NCALLS };
#define NAME(n) #n,
static const char *const call_names[NCALLS] = { CALLS(NAME) };

#define MAXTHR 256

struct thr {
	pid_t tid;
	int cobalt, policy, prio;
	uint64_t msw, nsleep;
	int abs_seen;			/* a TIMER_ABSTIME clock_nanosleep() */
	char name[16];
	uint64_t count[NCALLS];
};

static struct thr threads[MAXTHR];
static atomic_int nthreads;
static __thread struct thr *me;
static int msw_at, msw_abs, is_child;
static char root[256];

/* The real calls, as the linker's --wrap names them. */
extern int __real_main(int, char **, char **);
extern int __real_pthread_create(pthread_t *, const pthread_attr_t *,
				 void *(*)(void *), void *);
extern int __real_pthread_mutex_lock(pthread_mutex_t *);
extern int __real_pthread_mutex_unlock(pthread_mutex_t *);
extern int __real_open(const char *, int, ...);
extern int __real_close(int);
extern ssize_t __real_write(int, const void *, size_t);
extern int __real_vfprintf(FILE *, const char *, va_list);
extern int __real_fclose(FILE *);
extern int __real_fprintf(FILE *, const char *, ...);
extern ssize_t __real_read(int, void *, size_t);
extern int __real_kill(pid_t, int);

static pthread_mutex_t stat_lock = PTHREAD_MUTEX_INITIALIZER;

static struct thr *self(void)
{
	int i;

	if (me)
		return me;
	i = atomic_fetch_add(&nthreads, 1);
	if (i >= MAXTHR) {
		static struct thr overflow;	/* counted, not reported */

		return me = &overflow;
	}
	me = &threads[i];
	me->tid = (pid_t)syscall(SYS_gettid);
	return me;
}

#define COUNT(n) (self()->count[C_##n]++)

/* DIR/proc/xenomai/... of COBALT_STANDIN_ROOT, rewritten whole. */
static void put_file(const char *rel, const char *text)
{
	char path[512], tmp[520];
	int fd;

	if (!root[0])
		return;
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = __real_open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (__real_write(fd, text, strlen(text)) < 0)
		(void)0;
	__real_close(fd);
	rename(tmp, path);
}

/* This process's lines of the stat file, then the file itself from every
 * live process's lines (a forked partner is a process of its own), under
 * a lock: DIR/proc/xenomai/sched/stat.parts/PID. */
static void write_stat(void)
{
	static char buf[64 * MAXTHR], all[64 * MAXTHR * 4];
	char rel[96], path[600], part[900];
	struct dirent *e;
	size_t n = 0, an;
	int i, nt, lock;
	DIR *dir;

	if (!root[0])
		return;
	__real_pthread_mutex_lock(&stat_lock);
	nt = atomic_load(&nthreads);
	buf[0] = '\0';
	for (i = 0; i < nt && i < MAXTHR && n < sizeof(buf); i++) {
		const struct thr *t = &threads[i];

		if (!t->cobalt)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      "  0  %-6d %-10llu %-10llu %-10llu %-5d %08x    0.0  %s\n",
				      t->tid, (unsigned long long)t->msw, 0ULL,
				      0ULL, 0, 0x40042U,
				      t->name[0] ? t->name : "rtlat");
	}
	snprintf(path, sizeof(path), "%s/proc/xenomai/sched/.lock", root);
	lock = __real_open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock >= 0)
		flock(lock, LOCK_EX);
	snprintf(rel, sizeof(rel), "proc/xenomai/sched/stat.parts/%d",
		 (int)getpid());
	put_file(rel, buf);
	an = (size_t)snprintf(all, sizeof(all),
			      "CPU  PID    MSW        CSW        XSC        PF    STAT       %%CPU  NAME\n");
	snprintf(path, sizeof(path), "%s/proc/xenomai/sched/stat.parts", root);
	dir = opendir(path);
	while (dir && (e = readdir(dir))) {
		int pid = atoi(e->d_name), fd;
		ssize_t got;

		if (pid <= 0)
			continue;
		snprintf(part, sizeof(part), "%s/%s", path, e->d_name);
		if (__real_kill(pid, 0) && errno == ESRCH) {
			unlink(part);		/* a process that is gone */
			continue;
		}
		fd = __real_open(part, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		got = __real_read(fd, all + an, sizeof(all) - an - 1);
		if (got > 0)
			an += (size_t)got;
		__real_close(fd);
	}
	if (dir)
		closedir(dir);
	all[an] = '\0';
	put_file("proc/xenomai/sched/stat", all);
	if (lock >= 0)
		__real_close(lock);	/* unlocks */
	__real_pthread_mutex_unlock(&stat_lock);
}

/* A forked child (libcobalt binds it to the core again): its thread is
 * the one that forked, a Cobalt thread of its own with a new tid. */
static void after_fork_child(void)
{
	struct thr was = me ? *me : (struct thr){ 0 };

	is_child = 1;
	memset(threads, 0, sizeof(threads));
	atomic_store(&nthreads, 0);
	me = NULL;
	self()->cobalt = 1;
	me->policy = was.policy;
	me->prio = was.prio;
	write_stat();
}

static void dump(void)
{
	const char *log = getenv("COBALT_STANDIN_LOG");
	char child_log[600];
	FILE *f;
	int i, k, nt = atomic_load(&nthreads);

	if (log && is_child) {
		snprintf(child_log, sizeof(child_log), "%s.%d", log,
			 (int)getpid());
		log = child_log;
	}
	if (!log || !(f = fopen(log, "w")))
		return;
	for (i = 0; i < nt && i < MAXTHR; i++) {
		const struct thr *t = &threads[i];

		for (k = 0; k < NCALLS; k++)
			if (t->count[k])
				__real_fprintf(f, "%d %s %d %d %s %llu\n", t->tid,
					t->cobalt ? "cobalt" : "linux",
					t->policy, t->prio, call_names[k],
					(unsigned long long)t->count[k]);
	}
	__real_fclose(f);
}

int __wrap_main(int argc, char **argv, char **envp);
int __wrap_main(int argc, char **argv, char **envp)
{
	const char *e = getenv("COBALT_STANDIN_ROOT");
	struct thr *t;

	if (e && strlen(e) < sizeof(root) - 64) {
		char d[320];

		snprintf(root, sizeof(root), "%s", e);
		mkdir(root, 0755);
		snprintf(d, sizeof(d), "%s/proc", root);
		mkdir(d, 0755);
		snprintf(d, sizeof(d), "%s/proc/xenomai", root);
		mkdir(d, 0755);
		snprintf(d, sizeof(d), "%s/proc/xenomai/sched", root);
		mkdir(d, 0755);
		snprintf(d, sizeof(d), "%s/proc/xenomai/sched/stat.parts", root);
		mkdir(d, 0755);
		put_file("proc/xenomai/version", STANDIN_VERSION "\n");
	}
	e = getenv("COBALT_STANDIN_MSW_AT");
	msw_at = e ? atoi(e) : 0;
	e = getenv("COBALT_STANDIN_MSW_ABS");
	msw_abs = e && atoi(e);
	t = self();
	t->cobalt = 1;			/* the bootstrap shadows main() */
	snprintf(t->name, sizeof(t->name), "main");
	write_stat();
	atexit(dump);
	pthread_atfork(NULL, NULL, after_fork_child);
	return __real_main(argc, argv, envp);
}

struct tramp {
	void *(*fn)(void *);
	void *arg;
	int policy, prio;
};

static void *cobalt_start(void *p)
{
	struct tramp tr = *(struct tramp *)p;
	struct thr *t;

	free(p);
	t = self();
	t->cobalt = 1;
	t->policy = tr.policy;
	t->prio = tr.prio;
	write_stat();
	return tr.fn(tr.arg);
}

int __wrap_pthread_create(pthread_t *th, const pthread_attr_t *a,
			  void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *th, const pthread_attr_t *a,
			  void *(*fn)(void *), void *arg)
{
	struct tramp *tr = malloc(sizeof(*tr));
	struct sched_param sp = { 0 };
	int e;

	COUNT(pthread_create);
	if (!tr)
		return EAGAIN;
	tr->fn = fn;
	tr->arg = arg;
	tr->policy = SCHED_OTHER;
	if (a) {
		pthread_attr_getschedpolicy(a, &tr->policy);
		pthread_attr_getschedparam(a, &sp);
	}
	tr->prio = sp.sched_priority;
	e = __real_pthread_create(th, a, cobalt_start, tr);
	if (e)
		free(tr);
	return e;
}

int __wrap_clock_nanosleep(clockid_t c, int flags, const struct timespec *t,
			   struct timespec *rem);
extern int __real_clock_nanosleep(clockid_t, int, const struct timespec *,
				  struct timespec *);
int __wrap_clock_nanosleep(clockid_t c, int flags, const struct timespec *t,
			   struct timespec *rem)
{
	struct thr *s = self();

	COUNT(clock_nanosleep);
	if (msw_at && s->cobalt && s->policy != SCHED_OTHER &&
	    (!msw_abs || s->abs_seen || (flags & TIMER_ABSTIME)) &&
	    ++s->nsleep == (uint64_t)msw_at) {
		s->msw++;
		write_stat();
	}
	if (flags & TIMER_ABSTIME)
		s->abs_seen = 1;
	return __real_clock_nanosleep(c, flags, t, rem);
}

int __wrap_pthread_setname_np(pthread_t th, const char *name);
extern int __real_pthread_setname_np(pthread_t, const char *);
int __wrap_pthread_setname_np(pthread_t th, const char *name)
{
	COUNT(pthread_setname_np);
	if (pthread_equal(th, pthread_self()))
		snprintf(self()->name, sizeof(self()->name), "%s", name);
	return __real_pthread_setname_np(th, name);
}

/*
 * The rest: count, then the real call. F(ret, name, (params), (args)).
 */
#define F(ret, n, params, args) \
	ret __wrap_##n params; \
	extern ret __real_##n params; \
	ret __wrap_##n params { COUNT(n); return __real_##n args; }
#define V(n, params, args) \
	void __wrap_##n params; \
	extern void __real_##n params; \
	void __wrap_##n params { COUNT(n); __real_##n args; }

F(int, pthread_attr_init, (pthread_attr_t *a), (a))
F(int, pthread_setschedparam, (pthread_t t, int p, const struct sched_param *s), (t, p, s))
F(int, pthread_getschedparam, (pthread_t t, int *p, struct sched_param *s), (t, p, s))
F(int, pthread_setschedprio, (pthread_t t, int p), (t, p))
F(int, sched_yield, (void), ())
/* glibc 2.34 dropped pthread_yield() for new links: sched_yield() */
int __wrap_pthread_yield(void);
int __wrap_pthread_yield(void)
{
	COUNT(pthread_yield);
	return __real_sched_yield();
}
F(int, sched_get_priority_min, (int p), (p))
F(int, sched_get_priority_max, (int p), (p))
F(int, sched_setscheduler, (pid_t pid, int p, const struct sched_param *s), (pid, p, s))
F(int, sched_getscheduler, (pid_t pid), (pid))
F(int, pthread_kill, (pthread_t t, int s), (t, s))
F(int, pthread_join, (pthread_t t, void **r), (t, r))
F(int, sem_init, (sem_t *s, int p, unsigned v), (s, p, v))
F(int, sem_destroy, (sem_t *s), (s))
F(int, sem_post, (sem_t *s), (s))
F(int, sem_timedwait, (sem_t *s, const struct timespec *t), (s, t))
F(int, sem_wait, (sem_t *s), (s))
F(int, sem_trywait, (sem_t *s), (s))
F(int, sem_getvalue, (sem_t *s, int *v), (s, v))
F(int, sem_close, (sem_t *s), (s))
F(int, sem_unlink, (const char *n), (n))
F(int, clock_getres, (clockid_t c, struct timespec *t), (c, t))
F(int, clock_gettime, (clockid_t c, struct timespec *t), (c, t))
F(int, clock_settime, (clockid_t c, const struct timespec *t), (c, t))
F(int, clock_adjtime, (clockid_t c, struct timex *t), (c, t))
F(int, nanosleep, (const struct timespec *t, struct timespec *r), (t, r))
F(int, pthread_mutex_init, (pthread_mutex_t *m, const pthread_mutexattr_t *a), (m, a))
F(int, pthread_mutex_destroy, (pthread_mutex_t *m), (m))
F(int, pthread_mutex_lock, (pthread_mutex_t *m), (m))
F(int, pthread_mutex_trylock, (pthread_mutex_t *m), (m))
F(int, pthread_mutex_timedlock, (pthread_mutex_t *m, const struct timespec *t), (m, t))
F(int, pthread_mutex_unlock, (pthread_mutex_t *m), (m))
F(int, pthread_cond_init, (pthread_cond_t *c, const pthread_condattr_t *a), (c, a))
F(int, pthread_cond_destroy, (pthread_cond_t *c), (c))
F(int, pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m), (c, m))
F(int, pthread_cond_timedwait, (pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *t), (c, m, t))
F(int, pthread_cond_signal, (pthread_cond_t *c), (c))
F(int, pthread_cond_broadcast, (pthread_cond_t *c), (c))
F(int, mq_close, (mqd_t q), (q))
F(int, mq_unlink, (const char *n), (n))
F(int, mq_getattr, (mqd_t q, struct mq_attr *a), (q, a))
F(int, mq_setattr, (mqd_t q, const struct mq_attr *a, struct mq_attr *o), (q, a, o))
F(int, mq_send, (mqd_t q, const char *m, size_t l, unsigned p), (q, m, l, p))
F(int, mq_timedsend, (mqd_t q, const char *m, size_t l, unsigned p, const struct timespec *t), (q, m, l, p, t))
F(ssize_t, mq_receive, (mqd_t q, char *m, size_t l, unsigned *p), (q, m, l, p))
F(ssize_t, mq_timedreceive, (mqd_t q, char *m, size_t l, unsigned *p, const struct timespec *t), (q, m, l, p, t))
F(int, mq_notify, (mqd_t q, const struct sigevent *e), (q, e))
F(int, __open_2, (const char *p, int f), (p, f))
F(int, __open64_2, (const char *p, int f), (p, f))
F(int, socket, (int d, int t, int p), (d, t, p))
F(int, close, (int fd), (fd))
F(ssize_t, read, (int fd, void *b, size_t n), (fd, b, n))
F(ssize_t, write, (int fd, const void *b, size_t n), (fd, b, n))
F(ssize_t, recvmsg, (int fd, struct msghdr *m, int f), (fd, m, f))
F(ssize_t, sendmsg, (int fd, const struct msghdr *m, int f), (fd, m, f))
F(ssize_t, recvfrom, (int fd, void *b, size_t n, int f, struct sockaddr *a, socklen_t *l), (fd, b, n, f, a, l))
F(ssize_t, sendto, (int fd, const void *b, size_t n, int f, const struct sockaddr *a, socklen_t l), (fd, b, n, f, a, l))
F(ssize_t, recv, (int fd, void *b, size_t n, int f), (fd, b, n, f))
F(ssize_t, send, (int fd, const void *b, size_t n, int f), (fd, b, n, f))
F(int, getsockopt, (int fd, int l, int o, void *v, socklen_t *n), (fd, l, o, v, n))
F(int, setsockopt, (int fd, int l, int o, const void *v, socklen_t n), (fd, l, o, v, n))
F(int, bind, (int fd, const struct sockaddr *a, socklen_t l), (fd, a, l))
F(int, connect, (int fd, const struct sockaddr *a, socklen_t l), (fd, a, l))
F(int, listen, (int fd, int n), (fd, n))
F(int, accept, (int fd, struct sockaddr *a, socklen_t *l), (fd, a, l))
F(int, getsockname, (int fd, struct sockaddr *a, socklen_t *l), (fd, a, l))
F(int, getpeername, (int fd, struct sockaddr *a, socklen_t *l), (fd, a, l))
F(int, shutdown, (int fd, int h), (fd, h))
F(int, timer_create, (clockid_t c, struct sigevent *e, timer_t *t), (c, e, t))
F(int, timer_delete, (timer_t t), (t))
F(int, timer_settime, (timer_t t, int f, const struct itimerspec *n, struct itimerspec *o), (t, f, n, o))
F(int, timer_getoverrun, (timer_t t), (t))
F(int, timer_gettime, (timer_t t, struct itimerspec *v), (t, v))
F(int, timerfd_create, (int c, int f), (c, f))
F(int, timerfd_gettime, (int fd, struct itimerspec *v), (fd, v))
F(int, timerfd_settime, (int fd, int f, const struct itimerspec *n, struct itimerspec *o), (fd, f, n, o))
F(int, select, (int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t), (n, r, w, e, t))
F(int, vfprintf, (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))
F(int, vprintf, (const char *fmt, va_list ap), (fmt, ap))
F(int, puts, (const char *s), (s))
F(int, fputs, (const char *s, FILE *f), (s, f))
F(int, fputc, (int c, FILE *f), (c, f))
F(int, putchar, (int c), (c))
F(size_t, fwrite, (const void *p, size_t s, size_t n, FILE *f), (p, s, n, f))
F(int, fclose, (FILE *f), (f))
V(vsyslog, (int p, const char *fmt, va_list ap), (p, fmt, ap))
F(int, gettimeofday, (struct timeval *t, void *z), (t, z))
F(int, __vfprintf_chk, (FILE *f, int fl, const char *fmt, va_list ap), (f, fl, fmt, ap))
F(int, __vprintf_chk, (int fl, const char *fmt, va_list ap), (fl, fmt, ap))
V(__vsyslog_chk, (int p, int fl, const char *fmt, va_list ap), (p, fl, fmt, ap))
F(int, sigwait, (const sigset_t *s, int *n), (s, n))
F(int, sigwaitinfo, (const sigset_t *s, siginfo_t *i), (s, i))
F(int, sigtimedwait, (const sigset_t *s, siginfo_t *i, const struct timespec *t), (s, i, t))
F(int, sigpending, (sigset_t *s), (s))
F(int, sigqueue, (pid_t p, int s, const union sigval v), (p, s, v))
F(int, kill, (pid_t p, int s), (p, s))
F(unsigned, sleep, (unsigned s), (s))
F(int, usleep, (useconds_t u), (u))
F(void *, mmap, (void *a, size_t l, int p, int f, int fd, off_t o), (a, l, p, f, fd, o))
F(void *, mmap64, (void *a, size_t l, int p, int f, int fd, off_t o), (a, l, p, f, fd, o))
F(time_t, time, (time_t *t), (t))

/* The variadic ones. */
extern int __real_vprintf(const char *, va_list);
extern int __real___vfprintf_chk(FILE *, int, const char *, va_list);
extern int __real___vprintf_chk(int, const char *, va_list);
extern void __real_vsyslog(int, const char *, va_list);
extern void __real___vsyslog_chk(int, int, const char *, va_list);
extern int __real_open64(const char *, int, ...);
extern sem_t *__real_sem_open(const char *, int, ...);
extern mqd_t __real_mq_open(const char *, int, ...);
extern int __real_ioctl(int, unsigned long, ...);
extern int __real_fcntl(int, int, ...);

#define VA_PRINT(n, call) \
	{ va_list ap; int r; COUNT(n); va_start(ap, fmt); r = call; \
	  va_end(ap); return r; }

int __wrap_printf(const char *fmt, ...);
int __wrap_printf(const char *fmt, ...)
VA_PRINT(printf, __real_vprintf(fmt, ap))
int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_fprintf(FILE *f, const char *fmt, ...)
VA_PRINT(fprintf, __real_vfprintf(f, fmt, ap))
int __wrap___printf_chk(int fl, const char *fmt, ...);
int __wrap___printf_chk(int fl, const char *fmt, ...)
VA_PRINT(__printf_chk, __real___vprintf_chk(fl, fmt, ap))
int __wrap___fprintf_chk(FILE *f, int fl, const char *fmt, ...);
int __wrap___fprintf_chk(FILE *f, int fl, const char *fmt, ...)
VA_PRINT(__fprintf_chk, __real___vfprintf_chk(f, fl, fmt, ap))

void __wrap_syslog(int p, const char *fmt, ...);
void __wrap_syslog(int p, const char *fmt, ...)
{
	va_list ap;

	COUNT(syslog);
	va_start(ap, fmt);
	__real_vsyslog(p, fmt, ap);
	va_end(ap);
}

void __wrap___syslog_chk(int p, int fl, const char *fmt, ...);
void __wrap___syslog_chk(int p, int fl, const char *fmt, ...)
{
	va_list ap;

	COUNT(__syslog_chk);
	va_start(ap, fmt);
	__real___vsyslog_chk(p, fl, fmt, ap);
	va_end(ap);
}

/* open(), sem_open(), mq_open(): the mode (and attributes) come with
 * O_CREAT; ioctl() and fcntl() take one argument at most. */
#define OPEN_MODE(fl) \
	mode_t mode = 0; \
	if ((fl) & (O_CREAT | O_TMPFILE)) { va_list ap; va_start(ap, fl); \
		mode = (mode_t)va_arg(ap, int); va_end(ap); }

int __wrap_open(const char *p, int fl, ...);
int __wrap_open(const char *p, int fl, ...)
{
	OPEN_MODE(fl)
	COUNT(open);
	return __real_open(p, fl, mode);
}

int __wrap_open64(const char *p, int fl, ...);
int __wrap_open64(const char *p, int fl, ...)
{
	OPEN_MODE(fl)
	COUNT(open64);
	return __real_open64(p, fl, mode);
}

sem_t *__wrap_sem_open(const char *n, int fl, ...);
sem_t *__wrap_sem_open(const char *n, int fl, ...)
{
	va_list ap;
	mode_t mode = 0;
	unsigned v = 0;

	COUNT(sem_open);
	if (fl & O_CREAT) {
		va_start(ap, fl);
		mode = (mode_t)va_arg(ap, int);
		v = va_arg(ap, unsigned);
		va_end(ap);
	}
	return __real_sem_open(n, fl, mode, v);
}

mqd_t __wrap_mq_open(const char *n, int fl, ...);
mqd_t __wrap_mq_open(const char *n, int fl, ...)
{
	va_list ap;
	mode_t mode = 0;
	struct mq_attr *a = NULL;

	COUNT(mq_open);
	if (fl & O_CREAT) {
		va_start(ap, fl);
		mode = (mode_t)va_arg(ap, int);
		a = va_arg(ap, struct mq_attr *);
		va_end(ap);
	}
	return __real_mq_open(n, fl, mode, a);
}

int __wrap_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	COUNT(ioctl);
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	return __real_ioctl(fd, req, arg);
}

int __wrap_fcntl(int fd, int cmd, ...);
int __wrap_fcntl(int fd, int cmd, ...)
{
	va_list ap;
	long arg;

	COUNT(fcntl);
	va_start(ap, cmd);
	arg = va_arg(ap, long);
	va_end(ap);
	return __real_fcntl(fd, cmd, arg);
}
