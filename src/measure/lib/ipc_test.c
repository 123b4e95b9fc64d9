// SPDX-License-Identifier: GPL-2.0-or-later
/* Two-sided IPC tests; see ipc_test.h. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "measure/lib/ipc_test.h"
#include "util/log.h"
#include "output/output.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"

/* glibc before 2.35 lacks the name (musl has it) */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define POLL_NS			(200 * NSEC_PER_USEC)
#define PARTNER_STACK		((size_t)64 * 1024)
#define AWAIT_PARTNER_NS	NSEC_PER_SEC
#define REAP_WAIT_NS		(2 * NSEC_PER_SEC)
#define MBOX_READ_TRIES		1000

const struct optdesc ipc_test_opts[] = {
	{ "ipc", 0, required_argument, "NAME",
	  "wake-up mechanism: sem (POSIX semaphore, default), futex,\n"
	  "condvar (PI mutex + condition variable), pipe, eventfd,\n"
	  "mqueue (POSIX message queue), signal (sigwaitinfo), socket\n"
	  "(UNIX datagram socket)", OPT_IPC },
	{ "process", 0, no_argument, NULL,
	  "run the partner in a child process sharing memory with rtlat\n"
	  "(default: a thread)", OPT_IPC_PROCESS },
	OPT_END
};

void ipc_test_cfg_init(struct ipc_test_cfg *c)
{
	c->ops = ipc_mechanisms[0];
	c->process = false;
}

int ipc_test_opt(void *cfg, const struct optdesc *d, const char *arg)
{
	struct ipc_test_cfg *c = cfg;
	char names[160], expected[200];

	switch (d->key) {
	case OPT_IPC:
		c->ops = ipc_find(arg);
		if (!c->ops) {
			snprintf(expected, sizeof(expected), "expected one of %s",
				 ipc_names(names, sizeof(names)));
			return opt_bad_value(d, arg, expected);
		}
		return 0;
	case OPT_IPC_PROCESS:
		c->process = true;
		return 0;
	}
	return 1;
}

bool mbox_get(struct ipc_mbox *m, uint32_t seq, struct ipc_msg *msg)
{
	struct ipc_mbox_slot *sl = &m->slot[seq % IPC_MBOX_SLOTS];
	uint32_t v1, v2, h[4], s;
	int tries, i;

	for (tries = 0; tries < MBOX_READ_TRIES; tries++) {
		v1 = atomic_load_explicit(&sl->ver, memory_order_acquire);
		if (v1 & 1)
			continue;
		s = atomic_load_explicit(&sl->seq, MBOX_RELAXED);
		for (i = 0; i < 4; i++)
			h[i] = atomic_load_explicit(&sl->half[i],
						    MBOX_RELAXED);
		mbox_fence(memory_order_acquire);
		v2 = atomic_load_explicit(&sl->ver, MBOX_RELAXED);
		if (v1 != v2)
			continue;
		if (s != seq || v1 == 0)
			return false;
		msg->seq = s;
		msg->a = (int64_t)((uint64_t)h[1] << 32 | h[0]);
		msg->b = (int64_t)((uint64_t)h[3] << 32 | h[2]);
		return true;
	}
	return false;
}

/* Event @x of @box; when it was overwritten (the worker is more than
 * IPC_MBOX_SLOTS events late), the oldest event still kept. False if no
 * message could be read. */
static bool read_event(struct ipc_mbox *box, uint32_t x, struct ipc_msg *m)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (mbox_get(box, x, m))
			return true;
		x = mbox_head(box) - IPC_MBOX_SLOTS / 2;
	}
	return false;
}

bool ipc_event_wake(struct seqtrack *t, struct ipc_mbox *box, uint32_t first,
		    uint32_t head, int64_t now, struct ipc_msg *m, bool *have,
		    uint32_t *lost)
{
	struct ipc_msg x;
	uint32_t h, sample;

	if (!t->started) {
		t->next = first;
		t->started = true;
	}
	if ((int32_t)(head - t->next) < 0)
		return false;		/* nothing new */
	/* the newest event posted before the wake-up: stamps grow with the
	 * sequence; an event no longer readable is old enough */
	for (h = head; mbox_get(box, h, &x) && x.a > now; h--)
		if (h == t->next)
			return false;	/* all posted after the wake-up */
	if (!seqtrack_wake(t, first, h, &sample, lost))
		return false;
	*have = read_event(box, sample, m) && m->a <= now;
	return true;
}

static void pause_poll(void)
{
	sleep_ns(POLL_NS);
}

/* ---------------------------------------------------------------------- */
/* Partner side */

static void fail_note(struct ipc_ctl *c, int e, const char *msg)
{
	c->err = e;
	if (msg != c->errmsg)
		snprintf(c->errmsg, sizeof(c->errmsg), "%s", msg);
}

/* Run the partner in the calling thread (a sampler or the child's only
 * thread): attach, rendezvous, the test's partner loop, done. */
static int run_partner(struct ipc_test *t, char *err, size_t len)
{
	struct ipc_ctl *c = t->ctl;
	struct sched_param sp;
	int e;

	c->pid = (int)getpid();
	c->tid = (int)gettid();
	c->cpu_now = sched_getcpu();
	if (pthread_getschedparam(pthread_self(), &c->policy_now, &sp) == 0)
		c->prio_now = sp.sched_priority;
	e = ipc_attach(&t->ipc, 1);
	if (e) {
		snprintf(err, len, "%s: cannot attach to the %s channel: %s",
			 t->role[1], t->ipc.ops->name, strerror(-e));
	} else {
		atomic_store_explicit(&c->ready, 1, memory_order_release);
		while (!atomic_load_explicit(&c->go, memory_order_acquire) &&
		       !ipc_test_partner_stopping(t))
			pause_poll();
		if (atomic_load_explicit(&c->go, memory_order_acquire))
			e = t->partner(t, err, len);
	}
	if (e)
		fail_note(c, e, err);
	atomic_store_explicit(&c->done, 1, memory_order_release);
	ipc_post(&t->ipc, 0);
	return e;
}

static void child_fail(struct ipc_test *t, int e, const char *msg)
{
	fail_note(t->ctl, e, msg);
	atomic_store_explicit(&t->ctl->done, 1, memory_order_release);
	_exit(1);
}

/* The partner process: never returns. */
static void partner_process(struct ipc_test *t, pid_t parent)
{
	const struct engine_opts *o = t->r->o;
	struct ipc_ctl *c = t->ctl;
	struct sched_param sp;
	sigset_t set;
	char msg[192];
	int e;

	/* die with rtlat, even when it is killed */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	/* Ctrl-C reaches the whole process group: rtlat stops us itself */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, wait_timer_signal());
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (t->cpu[1] >= 0) {
		e = thread_pin(t->cpu[1]);
		if (e) {
			snprintf(msg, sizeof(msg), "cannot pin the %s process to CPU %d: %s",
				 t->role[1], t->cpu[1], strerror(-e));
			child_fail(t, e, msg);
		}
	}
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = o->policy == SCHED_OTHER ? 0 : t->prio[1];
	if (sched_setscheduler(0, o->policy, &sp) < 0) {
		e = errno;
		sched_explain(o->policy, sp.sched_priority, e, msg, sizeof(msg));
		child_fail(t, -e, msg);
	}
	if (o->mlock && mlockall(MCL_CURRENT | MCL_FUTURE) < 0) {
		e = errno;
		snprintf(msg, sizeof(msg), "%s process: mlockall: %s (raise RLIMIT_MEMLOCK or run as root)",
			 t->role[1], strerror(e));
		child_fail(t, -e, msg);
	}
	stack_prefault(PARTNER_STACK);
	t->stop_flag = &c->stop;
	e = run_partner(t, c->errmsg, sizeof(c->errmsg));
	_exit(e ? 1 : 0);
}

/* Waits for the partner process to end, without reaping it: until
 * teardown reaps it, its pid cannot be reused, so that teardown may signal
 * it at any moment. */
static void *reaper_main(void *arg)
{
	struct ipc_test *t = arg;
	struct ipc_ctl *c = t->ctl;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	while (waitid(P_PID, (id_t)t->child, &si, WEXITED | WNOWAIT) < 0 &&
	       errno == EINTR)
		;
	if (!atomic_load(&c->stop) && !atomic_load(&c->done)) {
		/* died before finishing: end the run with the reason */
		if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			snprintf(c->errmsg, sizeof(c->errmsg),
				 "the %s process (pid %d) was killed by signal %d (%s)",
				 t->role[1], (int)t->child, si.si_status,
				 strsignal(si.si_status));
		else
			snprintf(c->errmsg, sizeof(c->errmsg),
				 "the %s process (pid %d) exited with status %d",
				 t->role[1], (int)t->child, si.si_status);
		c->err = -ECHILD;
		atomic_store_explicit(&c->done, 1, memory_order_release);
		ipc_post(&t->ipc, 0);
	}
	atomic_store(&t->child_gone, 1);
	return NULL;
}

static int spawn_partner(struct ipc_test *t)
{
	pid_t parent = getpid();
	sigset_t all, old;
	int e;

	fflush(NULL);
	t->child = fork();
	if (t->child < 0) {
		t->child = 0;
		log_error("cannot fork the %s process: %s", t->role[1],
			  strerror(errno));
		return -1;
	}
	if (t->child == 0)
		partner_process(t, parent);
	/* the reaper takes no signal: they belong to the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	e = pthread_create(&t->reaper, NULL, reaper_main, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e) {
		log_error("cannot start the reaper thread: %s", strerror(e));
		kill(t->child, SIGKILL);
		waitpid(t->child, NULL, 0);
		t->child = 0;
		return -1;
	}
	t->reaper_started = true;
	return 0;
}

/* ---------------------------------------------------------------------- */
/* Set-up and side 0 */

/* The CPUs of the CPU list @arg (valid: cpulist_parse() accepted it) in the
 * order written, ranges expanded upwards, into @list (at most @max); returns
 * how many it names, repeats included (may exceed @max). */
static int cpus_in_order(const char *arg, int *list, int max)
{
	const char *p = arg;
	int n = 0;

	while (*p) {
		char *e;
		long a = strtol(p, &e, 10), b = a;

		if (e == p)
			break;
		if (*e == '-')
			b = strtol(e + 1, &e, 10);
		for (; a <= b; a++, n++)
			if (n < max)
				list[n] = (int)a;
		p = *e == ',' ? e + 1 : e;
		if (n > max)
			break;
	}
	return n;
}

int test_place_two(struct run *r, const char *first, const char *second,
		   int list[2])
{
	struct engine_opts *o = r->o;
	int n = 0, c;

	if (o->cpus_given && o->cpus_arg[0]) {
		/* -c as written: the first role's CPU first, then the
		 * second's */
		n = cpus_in_order(o->cpus_arg, list, 2);
		if (n > 2) {
			log_error("-c/--cpus %s: %s takes one CPU (%s and %s on it) or two (%s, then %s)",
				  o->cpus_arg, r->test->name, first, second,
				  first, second);
			return -1;
		}
	} else if ((c = cpuset_next(&o->cpus, 0)) >= 0) {
		list[n++] = c;	/* default: the first usable CPU */
	}
	if (n == 0) {
		log_error("no CPU to run on");
		return -1;
	}
	if (n == 1)
		list[1] = list[0];
	cpuset_zero(&o->cpus);
	cpuset_set(&o->cpus, list[0]);
	cpuset_set(&o->cpus, list[1]);
	return 0;
}

static int place(struct run *r, struct ipc_test *t)
{
	int list[2];

	if (test_place_two(r, t->role[t->partner_cpu_index ? 0 : 1],
			   t->role[t->partner_cpu_index ? 1 : 0], list) < 0)
		return -1;
	t->cpu[1] = list[t->partner_cpu_index];
	t->cpu[0] = list[!t->partner_cpu_index];
	return 0;
}

int ipc_test_setup(struct run *r, struct ipc_test *t, int nseries,
		   const struct series_desc *const *desc)
{
	const struct engine_opts *o = r->o;
	char err[256];
	int p0 = o->policy == SCHED_OTHER ? 0 : t->prio[0];
	int p1 = o->policy == SCHED_OTHER ? 0 : t->prio[1];

	t->r = r;
	r->priv = t;
	if (place(r, t) < 0)
		return -1;
	t->ctl = shared_alloc(sizeof(*t->ctl));
	if (!t->ctl) {
		log_error("cannot map shared memory: %s", strerror(errno));
		return -1;
	}
	if (ipc_open(&t->ipc, t->cfg.ops, t->cfg.process, err, sizeof(err)) < 0) {
		log_error("%s", err);
		return -1;
	}
	t->stop_flag = &r->stop;
	if (!engine_add_sampler(r, t->cpu[0], o->policy, p0, nseries, desc))
		return -1;
	if (!t->cfg.process)
		return engine_add_sampler(r, t->cpu[1], o->policy, p1, 0,
					  NULL) ? 0 : -1;
	return spawn_partner(t);
}

int ipc_test_partner_error(struct sampler *s, struct ipc_test *t)
{
	struct ipc_ctl *c = t->ctl;

	if (!atomic_load_explicit(&c->done, memory_order_acquire) || !c->err)
		return 0;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s", c->errmsg);
	return c->err;
}

/* Side 0: attach, publish the timing, wait until the partner is ready.
 * Returns 0 (also when stopped meanwhile) or -errno. */
static int side0_begin(struct sampler *s, struct ipc_test *t)
{
	struct ipc_ctl *c = t->ctl;
	struct run *r = s->run;
	int e;

	e = ipc_attach(&t->ipc, 0);
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "%s: cannot attach to the %s channel: %s", t->role[0],
			 t->ipc.ops->name, strerror(-e));
		return e;
	}
	c->t0 = r->t0;
	c->t_measure = r->t_measure;
	c->t_end = r->t_end;
	c->period = r->o->period_ns;
	c->clock = r->o->clock;
	c->wait = (int)r->o->wait;
	atomic_store_explicit(&c->go, 1, memory_order_release);
	while (!atomic_load_explicit(&c->ready, memory_order_acquire)) {
		if (atomic_load_explicit(&c->done, memory_order_acquire))
			return ipc_test_partner_error(s, t) ?: -ECHILD;
		if (sampler_stopping(s))
			return 0;
		if (ipc_test_past_end(t, clock_now_ns(r->o->clock))) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "the %s was not ready before the end of the run (stopped or starved?)",
				 t->role[1]);
			return -ETIMEDOUT;
		}
		pause_poll();
	}
	return 0;
}

/*
 * Kick side 0 (the calling thread) out of any wait at t_end + the grace,
 * then every 10 ms (a kick landing between two waits is not lost), with the
 * engine's stop signal: a partner that stopped answering cannot hold the
 * run past its end. Returns 0 (*@armed tells whether a timer exists: not
 * for an unbounded run) or -errno.
 */
static int arm_end_kick(struct sampler *s, timer_t *timer, bool *armed)
{
	const struct run *r = s->run;
	struct itimerspec its;
	struct sigevent sev;

	*armed = false;
	if (r->t_end == INT64_MAX)
		return 0;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = engine_stop_signal();
	sev.sigev_notify_thread_id = gettid();
	if (timer_create(r->o->clock, &sev, timer) < 0)
		return -errno;
	memset(&its, 0, sizeof(its));
	its.it_value = ns_to_ts(r->t_end + IPC_END_GRACE_NS);
	its.it_interval = ns_to_ts(10 * NSEC_PER_MSEC);
	if (timer_settime(*timer, TIMER_ABSTIME, &its, NULL) < 0) {
		int e = -errno;

		timer_delete(*timer);
		return e;
	}
	*armed = true;
	return 0;
}

int ipc_test_body(struct sampler *s)
{
	struct ipc_test *t = s->run->priv;
	int e;

	timer_t kick;
	bool armed;

	if (s->id != 0)
		return run_partner(t, s->errmsg, sizeof(s->errmsg));
	e = arm_end_kick(s, &kick, &armed);
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "%s: cannot create the end-of-run timer: %s",
			 t->role[0], strerror(-e));
		return e;
	}
	e = side0_begin(s, t);
	if (!e && !sampler_stopping(s))
		e = t->measure(s, t);
	if (armed)
		timer_delete(kick);
	atomic_store(&t->ctl->stop, 1);
	ipc_post(&t->ipc, 1);
	return e;
}

int ipc_test_await_partner(struct sampler *s, struct ipc_test *t)
{
	int64_t until = clock_now_ns(CLOCK_MONOTONIC) + AWAIT_PARTNER_NS;

	atomic_store(&t->ctl->stop, 1);
	ipc_post(&t->ipc, 1);
	while (!atomic_load_explicit(&t->ctl->done, memory_order_acquire)) {
		if (clock_now_ns(CLOCK_MONOTONIC) > until) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "the %s did not finish within 1 s (stopped or starved?)",
				 t->role[1]);
			return -ETIMEDOUT;
		}
		pause_poll();
	}
	return ipc_test_partner_error(s, t);
}

void ipc_test_teardown(struct run *r)
{
	struct ipc_test *t = r->priv;
	int64_t until;

	if (!t || !t->ctl)
		return;
	atomic_store(&t->ctl->stop, 1);
	if (t->ipc.sh)
		ipc_post(&t->ipc, 1);
	if (t->reaper_started) {
		/* a stopped partner (SIGSTOP, a debugger) continues, sees the
		 * stop and ends, rather than being waited for and killed (the
		 * child is not reaped yet: its pid is still its own) */
		kill(t->child, SIGCONT);
		until = clock_now_ns(CLOCK_MONOTONIC) + REAP_WAIT_NS;
		while (!atomic_load(&t->child_gone) &&
		       clock_now_ns(CLOCK_MONOTONIC) < until)
			pause_poll();
		if (!atomic_load(&t->child_gone)) {
			log_warn("the %s process (pid %d) did not stop: killing it",
				 t->role[1], (int)t->child);
			kill(t->child, SIGKILL);
		}
		pthread_join(t->reaper, NULL);
		t->reaper_started = false;
		while (waitpid(t->child, NULL, 0) < 0 && errno == EINTR)
			;
	}
	ipc_close(&t->ipc);
	shared_free(t->ctl, sizeof(*t->ctl));
	t->ctl = NULL;
}

void ipc_test_figures(const struct ipc_test *t, struct test_figs *f)
{
	const struct ipc_ctl *c = t->ctl;

	fig_str(f, "ipc", t->ipc.ops->name);
	fig_str(f, "ipc_description", t->ipc.ops->desc);
	fig_bool(f, "process", t->cfg.process);
	fig_str(f, "partner.role", t->role[1]);
	fig_num(f, "partner.cpu", "%d", t->cpu[1]);
	if (c && atomic_load(&c->ready)) {
		fig_num(f, "partner.pid", "%d", (int)c->pid);
		fig_num(f, "partner.tid", "%d", (int)c->tid);
		fig_str(f, "partner.policy", policy_name(c->policy_now));
		fig_num(f, "partner.priority", "%d", c->prio_now);
		fig_num(f, "partner.cpu_at_start", "%d", c->cpu_now);
	}
	/* for the banner (IPC_TEST_LINE) */
	fig_str(f, "own_role", t->role[0]);
	fig_said(f);
	fig_num(f, "child_pid", "%d", (int)t->child);
	fig_said(f);
}

int ipc_test_msw_tids(struct run *r, pid_t *tids, int max)
{
	const struct ipc_test *t = r->priv;
	const struct ipc_ctl *c = t ? t->ctl : NULL;

	/* a partner thread is a sampler (counted as one); a forked partner
	 * is a thread of its own process */
	if (!c || !t->cfg.process || max < 1 ||
	    !atomic_load_explicit(&c->ready, memory_order_acquire))
		return 0;
	tids[0] = c->tid;
	snprintf(r->msw_extra[0].name, sizeof(r->msw_extra[0].name),
		 "the %s (process %d, tid %d)", t->role[1], (int)c->pid,
		 (int)c->tid);
	return 1;
}
