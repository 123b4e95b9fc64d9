/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Matching kernel trace events to timer samples (--trace), with no tracing
 * library: the events come in already decoded (struct tev), in time order,
 * from trace.c's reader or from a unit test.
 *
 * For one sample of a sampler (thread id T) with deadline d and clock read
 * u (both CLOCK_MONOTONIC ns), the kernel tells, with the trace clock set
 * to "mono" (the same time base):
 *
 *   timer:hrtimer_start        common_pid == T: timer H armed, softexpires d
 *   timer:hrtimer_expire_entry H expired; its field now = n (irq handler time)
 *   sched:sched_waking         pid == T at time w (the expiry woke T)
 *   sched:sched_switch         next_pid == T at time s (T got the CPU)
 *
 * and the latency u - d splits into four parts that add up exactly:
 *
 *   irq latency         n - d    timer interrupt (or timer softirq thread)
 *   handler to wake-up  w - n    hrtimer handlers up to T's wake-up
 *   wake-up to running  s - w    scheduling latency
 *   return to user      u - s    back to user space up to the clock read
 *
 * When T was woken before it had left the CPU there is no switch: s = w.
 * When it had left the CPU and no switch back to it was recorded, the split
 * of s is unknown and the sample is not traced (TM_NO_SWITCH) - except when
 * the wake-up came on the idle CPU: some kernels do not record the switch
 * out of idle; nothing else ran then, s = w is assumed and the switch
 * itself counts in return to user (tmatch_idle_assumed()).
 *
 * Samples and events may arrive in any relative order; a sample is decided
 * (broken down, or counted as not traced with the reason) once the events
 * up to a little after its clock read have been seen from its CPU: each
 * CPU's events come in order, but a CPU can lag behind the others (a
 * virtual CPU stopped by its host between reserving and committing an
 * event), so the time reached on other CPUs proves nothing. Timers and wake-ups
 * of other tasks are ignored; lost events (trace buffer overruns) make the
 * samples around them "not traced", never wrongly matched. Everything here
 * runs in the display thread.
 */
#ifndef RTLAT_TRACE_MATCH_H
#define RTLAT_TRACE_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TEV_COMM_LEN	16
#define TEV_NAME_LEN	24

enum tev_type {
	TEV_TIMER_START,	/* timer:hrtimer_start */
	TEV_TIMER_EXPIRE,	/* timer:hrtimer_expire_entry */
	TEV_WAKING,		/* sched:sched_waking */
	TEV_SWITCH,		/* sched:sched_switch */
	TEV_IRQ,		/* irq:irq_handler_entry */
	TEV_SOFTIRQ,		/* irq:softirq_entry */
	TEV_LOCAL_TIMER,	/* irq_vectors:local_timer_entry (x86) */
	TEV_LOST,		/* events were lost on @cpu before @ts */
	TEV_TIMERLAT,		/* ftrace:timerlat, the timerlat tracer's sample */
	TEV_NTYPES
};

/* common_flags of an event (kernel's trace_flag_type) */
#define TEV_F_IRQS_OFF	0x01
#define TEV_F_HARDIRQ	0x08
#define TEV_F_SOFTIRQ	0x10
#define TEV_F_NMI	0x40

/* One decoded trace event. */
struct tev {
	int64_t ts;		/* trace clock (mono), ns */
	uint64_t seq;		/* order of reading (ties of @ts) */
	uint8_t type;		/* enum tev_type */
	uint8_t flags;		/* common_flags */
	int16_t cpu;
	int32_t pid;		/* common_pid: the task current on @cpu */
	union {
		struct {
			uint64_t timer, function;
			int64_t expires, softexpires;
		} start;
		struct {
			uint64_t timer, function;
			int64_t now;
		} expire;
		struct {
			int32_t pid, prio, target_cpu;
			char comm[TEV_COMM_LEN];
		} waking;
		struct {
			int32_t prev_pid, prev_prio, next_pid, next_prio;
			int64_t prev_state;
			char prev_comm[TEV_COMM_LEN], next_comm[TEV_COMM_LEN];
		} sw;
		struct {
			int32_t irq;
			char name[TEV_NAME_LEN];
		} irq;
		struct {
			uint32_t vec;
		} softirq;
		struct {
			int64_t count;	/* -1: unknown */
		} lost;
		struct {
			int32_t context;	/* 0 irq, 1 thread */
			int64_t latency;	/* ns */
		} timerlat;
	} u;
};

/* Parts of the latency, in this order everywhere (output, JSON). */
enum tm_comp {
	TM_IRQ,			/* irq latency */
	TM_HANDLER,		/* handler to wake-up */
	TM_SCHED,		/* wake-up to running */
	TM_RETURN,		/* return to user */
	TM_NCOMP
};

/* Why a sample could not be broken down. */
enum tm_why {
	TM_TRACED,
	TM_NO_EXPIRY,		/* no expiry of the sampler's timer for it */
	TM_NO_WAKEUP,		/* expiry seen, no wake-up of the sampler */
	TM_NO_SWITCH,		/* it had left the CPU, no switch back seen */
	TM_LOST,		/* trace events were lost around it */
	TM_INCONSISTENT,	/* time stamps out of order beyond tolerance */
	TM_OVERFLOW,		/* the matching queue was full */
	TM_NWHY
};

/* The kernel side of one expiry of a sampler's timer. */
struct tm_krec {
	int64_t deadline;	/* the timer's soft expiry = sampler's deadline */
	int64_t hard;		/* its hard expiry (deadline + slack) */
	int64_t irq_now;	/* hrtimer_expire_entry.now */
	int64_t t_expire;	/* trace time of the expiry event */
	int64_t t_waking;	/* sched_waking of the sampler; 0 = none */
	int64_t t_switch;	/* first switch to the sampler after it; 0 = none */
	int64_t t_sleep;	/* the sampler left the CPU (0 = it had not) */
	int64_t t_armed;	/* hrtimer_start of this timer (0 = unseen) */
	uint64_t function;	/* the timer's callback */
	int cpu;		/* CPU of the expiry */
	int expire_pid;		/* task current during the expiry */
	uint8_t expire_flags;	/* hard irq, soft irq? */
	int switch_cpu;
	int waking_pid;		/* task current at the wake-up (0: idle) */
	int prev_pid, prev_prio;	/* task switched out for the sampler */
	int64_t prev_state;
	char prev_comm[TEV_COMM_LEN];
	int preempted;		/* switched out again before returning */
	int64_t preempted_ns;	/* off the CPU in those preemptions, ns */
	int64_t t_out;		/* the last of them began (0: back on) */
	int preempt_pid, preempt_prio;	/* the task run at the first of them */
	char preempt_comm[TEV_COMM_LEN];
	bool closed;		/* the sampler armed its next timer */
	bool lost;		/* events lost on its CPU while open */
};

/* One sample as the sampler took it. */
struct tm_sample {
	uint64_t cycle;
	int64_t deadline;	/* ns, CLOCK_MONOTONIC */
	int64_t now;		/* clock read after the wake-up */
};

/* The outcome for one sample, handed to the callback. */
struct tm_result {
	int sampler;
	struct tm_sample s;
	int64_t latency;		/* now - deadline */
	enum tm_why why;
	int64_t comp[TM_NCOMP];		/* valid when why == TM_TRACED */
	const struct tm_krec *k;	/* NULL unless matched; valid in the callback */
};

typedef void (*tm_done_fn)(void *ctx, const struct tm_result *res);

struct tm_armed {
	uint64_t timer;
	int64_t soft, hard;
	int64_t t_armed;	/* trace time of its hrtimer_start */
	uint64_t function;
};

#define TM_MAX_ARMED 4

struct tm_sampler {
	int tid;
	int cpu;		/* pinned CPU or -1 */
	struct tm_armed armed[TM_MAX_ARMED];
	unsigned int armed_next;
	struct tm_krec *kq;	/* kernel records, by deadline */
	size_t kcap, khead, kn;
	struct tm_sample *sq;	/* samples not decided yet */
	size_t scap, shead, sn;
	int64_t t_sleep;	/* last switch away from the sampler */
	bool asleep;
	int64_t lost_ts;	/* last loss of events on its CPU (0 = none) */
	int64_t seen;		/* newest event seen from its CPU */
	int64_t last_now;	/* clock read of the last decided sample */
	uint64_t why[TM_NWHY];	/* decided samples by outcome */
};

/* Small pid -> comm memory, learnt from the scheduler events. */
#define TM_COMMS 64
struct tm_comm {
	int pid;
	char comm[TEV_COMM_LEN];
};

struct tmatch {
	int n;
	struct tm_sampler *s;
	int64_t t_measure;	/* expiries before it are warm-up */
	int64_t tol;		/* tolerated negative part (clock-read cost) */
	int64_t post;		/* decide a sample once events to now + post are in */
	tm_done_fn done;
	void *ctx;
	struct tev *hist;	/* the last events seen (ring) */
	size_t hcap, hhead, hn;
	struct tm_comm comms[TM_COMMS];
	unsigned int comm_next;
	uint64_t events;	/* events seen */
	uint64_t lost;		/* events reported lost (-1 counts as 1) */
	uint64_t stray;		/* expiries dropped (not matched by a sample) */
};

/*
 * Prepare matching for @n samplers with thread ids @tids and pinned CPUs
 * @cpus (-1: not pinned). Queues hold @sq_cap samples and @kq_cap kernel
 * records per sampler, the history the last @hist_cap events (all powers of
 * two are not required). @tol is the tolerance for negative parts (ns),
 * @post how long after a clock read events are awaited. Returns 0 or -ENOMEM.
 */
int tmatch_init(struct tmatch *m, int n, const int *tids, const int *cpus,
		size_t sq_cap, size_t kq_cap, size_t hist_cap, int64_t tol,
		int64_t post, tm_done_fn done, void *ctx);
void tmatch_free(struct tmatch *m);

/* Expiries with a deadline before @t (the warm-up) are not kept. */
void tmatch_set_measure(struct tmatch *m, int64_t t);

/* A sample of sampler @i (deadlines increase). A full queue decides the
 * oldest sample as TM_OVERFLOW. */
void tmatch_sample(struct tmatch *m, int i, const struct tm_sample *s);

/* The next event in time order; decides the samples it completes. */
void tmatch_event(struct tmatch *m, const struct tev *e);

/* Every event before @upto has been handed in: decide what is complete.
 * INT64_MAX decides everything (end of the run). */
void tmatch_advance(struct tmatch *m, int64_t upto);

/* Split a matched sample into its parts (see above): fills @comp and
 * returns TM_TRACED, or TM_NO_WAKEUP / TM_NO_SWITCH / TM_INCONSISTENT. */
enum tm_why tmatch_split(const struct tm_krec *k, const struct tm_sample *s,
			 int64_t tol, int64_t comp[TM_NCOMP]);

/* True when @k's switch was not recorded and assumed at the wake-up on
 * the idle CPU (see above). */
static inline bool tmatch_idle_assumed(const struct tm_krec *k)
{
	return !k->t_switch && k->t_sleep && k->waking_pid == 0;
}

/*
 * How long after its deadline the sampler armed @k's timer (ns), or 0: a
 * sampler still busy with its previous period (or preempted before its
 * wait) arms a deadline that has passed, and the timer fires at once. That
 * wait is the sampler's own lateness, not the interrupt's: it counts in
 * irq latency (hrtimer_expire_entry.now - deadline) all the same, and the
 * output says so.
 */
static inline int64_t tmatch_armed_late(const struct tm_krec *k)
{
	return k->t_armed > k->deadline ? k->t_armed - k->deadline : 0;
}

/* Events of the history with @from <= ts <= @to, oldest first: calls @fn
 * for each; returns how many. The history is in time order (but for late
 * events of a lagging CPU, which may be left out); the search starts from
 * the newest event, so a window near the end is found quickly. */
size_t tmatch_history(const struct tmatch *m, int64_t from, int64_t to,
		      void (*fn)(void *ctx, const struct tev *e), void *ctx);

/* The comm learnt for @pid, or NULL. */
const char *tmatch_comm(const struct tmatch *m, int pid);

/* The kernel's softirq vectors, by number: "HI", "TIMER", ... "RCU". */
#define TEV_NSOFTIRQ 10
extern const char *const tev_softirq_name[TEV_NSOFTIRQ];

/* Names: "irq latency" ... and JSON keys "irq_latency" ... */
extern const char *const tm_comp_name[TM_NCOMP];
extern const char *const tm_comp_key[TM_NCOMP];
extern const char *const tm_why_key[TM_NWHY];

#endif
