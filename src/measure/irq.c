// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: interrupt latency, from a device's stimulus to the real-time
 * task that serves it (the measurement of lpptest, Xenomai's irqbench and
 * gpiobench). Per event:
 *
 *   t0  the stimulus: the sender thread sends it (its clock read)
 *   t1  the kernel has it: the receive stamp the kernel took
 *   t2  the waiting real-time task has it (its clock read after the wait)
 *
 * and the series latency = t2 - t0, kernel_to_task = t2 - t1 (the
 * interrupt thread or softirq and the scheduler), stimulus_to_kernel =
 * t1 - t0. Events are numbered; every event sent in the measurement is
 * served or lost (irq_track), never skipped. The sources (irq.h): net, UDP
 * over a veth pair between two namespaces of rtlat's own, or to a
 * responder (--respond) on another machine (net:HOST, where latency is the
 * round trip and kernel_to_task the responder's); gpio, an output line
 * wired to an input line of a GPIO chip; serial, one byte from a UART port
 * to another (or to itself), where t1 comes from --trace (the interrupt's
 * irq_handler_entry event) and the series is latency alone.
 */
#include <errno.h>
#include <limits.h>
#include <linux/gpio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "engine/test.h"
#include "util/jsonw.h"
#include "util/log.h"
#include "util/parse.h"
#include "system/rtsetup.h"
#include "util/timeutil.h"
#include "output/figures.h"
#include "output/output.h"
#include "measure/irq.h"
#include "measure/lib/ipc_test.h"

enum irq_mode {
	MODE_LOCAL,		/* net: both ends here */
	MODE_HOST,		/* net:HOST: stimulus and answer here */
	MODE_RESPOND,		/* --respond: the other machine's answer */
};

enum { S_LATENCY, S_TASK, S_KERNEL };

/* Waiting for the last events after the sender stopped. */
#define IRQ_GRACE_NS (200 * NSEC_PER_MSEC)
/* Receive timeout: how often a waiting task looks at the clock. */
#define IRQ_POLL_NS (50 * NSEC_PER_MSEC)
/* t0 and deadline of the last stimuli, by number: the sender's own record
 * (a net answer's copy of them is never trusted, only its number) */
#define IRQ_T0_RING 4096
/* serial: a byte not arrived this long after it was sent is lost; net: an
 * answer overtaken by that of a stimulus sent this long after it */
#define IRQ_LOST_NS (250 * NSEC_PER_MSEC)

/*
 * No 64-bit atomics here (32-bit targets have none without libatomic's
 * locks): a 64-bit value as two 32-bit halves. A stimulus slot is guarded
 * by the low 32 bits of its sequence number (0 while written); the last
 * sequence number sent by a generation count (odd while written), read
 * without waiting (see shared64_load()).
 */
struct half64 {
	_Atomic uint32_t lo, hi;
};

/* Release stores and acquire loads (no fences: ThreadSanitizer has none):
 * a reader that sees a half of a new value also sees the guard's change
 * made before it, in its next load of the guard. */
static void half64_store(struct half64 *h, uint64_t v)
{
	atomic_store_explicit(&h->lo, (uint32_t)v, memory_order_release);
	atomic_store_explicit(&h->hi, (uint32_t)(v >> 32), memory_order_release);
}

static uint64_t half64_load(const struct half64 *h)
{
	uint64_t lo = atomic_load_explicit(&h->lo, memory_order_acquire);

	return (uint64_t)atomic_load_explicit(&h->hi, memory_order_acquire) << 32 | lo;
}

struct shared64 {
	_Atomic uint32_t gen;
	struct half64 v;
};

/* One writer. */
static void shared64_store(struct shared64 *s, uint64_t v)
{
	uint32_t g = atomic_load_explicit(&s->gen, memory_order_relaxed);

	atomic_store_explicit(&s->gen, g + 1, memory_order_relaxed);
	half64_store(&s->v, v);
	atomic_store_explicit(&s->gen, g + 2, memory_order_release);
}

/* The value, or @stale (the caller's last one) when the writer is in the
 * middle of a store: a reader of a higher priority on the writer's CPU
 * must never wait for it. */
static uint64_t shared64_load(const struct shared64 *s, uint64_t stale)
{
	uint32_t g1 = atomic_load_explicit(&s->gen, memory_order_acquire), g2;
	uint64_t v;

	if (g1 & 1)
		return stale;
	v = half64_load(&s->v);
	g2 = atomic_load_explicit(&s->gen, memory_order_relaxed);
	return g1 == g2 ? v : stale;
}

struct irq_stim {
	_Atomic uint32_t seq;		/* low 32 bits; 0 while written */
	struct half64 full;		/* the whole number */
	struct half64 t0, deadline;
};

/* --respond: a sender (its address and its run's secret), and its events */
struct irq_peer {
	struct sockaddr_storage addr;
	size_t len;
	int64_t secret;			/* the sender's, in each stimulus */
	bool used;
	struct irq_track tr;
	bool tracked;
	int64_t last;			/* t2 of its last event served */
	int64_t seen;			/* t2 of its last stimulus */
};

/* --respond: the senders accounted apart at a time; a sender silent for
 * IRQ_PEER_IDLE_NS is forgotten (its slot free, its counts kept); when
 * all are taken, a new sender takes the slot of the one seen longest ago
 * among those with fewer than IRQ_PEER_SETTLED events served (a sender
 * that measures is never displaced), else it is stray */
#define IRQ_PEERS 16
#define IRQ_PEER_IDLE_NS (2 * NSEC_PER_SEC)
#define IRQ_PEER_SETTLED 64

struct irq_test {
	/* receiver_done(): its last read, and how often it stood still */
	int64_t done_last_now;
	int done_still;
	/* options */
	char source[160];
	enum irq_mode mode;
	int irq;			/* --irq, -1: found from the source */
	int irq_prio;			/* --irq-prio, -1: leave it */
	char irq_cpu[64];		/* --irq-cpu, "": leave it */
	long long max_lost;		/* --max-lost, -1: not given */
	bool source_given;		/* --source on the command line */
	bool lost_failed;		/* more lost than allowed (irq_summary) */
	/* the source and its interrupt */
	struct irq_net net;
	bool is_gpio;			/* --source gpio:... */
	struct irq_gpio gpio;
	bool is_serial;			/* --source serial:... */
	bool baud_given;
	struct irq_serial ser;
	struct irq_stim *stim;		/* IRQ_T0_RING entries (not --respond) */
	struct irq_intr intr;
	bool opened;
	int cpu[2];			/* sender, receiver */
	/* sender -> receiver */
	uint64_t first_seq;		/* written before first_known */
	_Atomic int first_known;
	struct shared64 last_seq;	/* last one sent in the measurement */
	uint64_t last_seq_seen;		/* receiver: its last read of it */
	_Atomic int sender_done;
	uint64_t sent;			/* in the measurement */
	uint64_t sender_missed;		/* periods the sender missed */
	uint64_t send_errors;		/* sends that failed (events lost) */
	/* receiver */
	struct irq_track tr;
	uint64_t no_stamp;		/* served, without a kernel stamp */
	uint64_t stamp_refused;		/* served, t1 not in [t0, t2] */
	int64_t refused_max;		/* the farthest outside, ns */
	uint64_t foreign;		/* packets not of this run */
	uint64_t stray;			/* net: answers of no stimulus sent;
					 * --respond: of no sender's sequence */
	int64_t offset_bound_max;	/* net: the largest conversion bound
					 * of a receive stamp, ns (-1 none) */
	struct irq_peer peers[IRQ_PEERS];	/* --respond */
	int npeers;			/* senders accounted (slots reused) */
	uint64_t wrong_secret;		/* --respond: a sender's address with
					 * another secret: dropped */
	uint64_t peers_displaced;	/* --respond: unsettled senders
					 * displaced by new ones */
	int64_t secret;			/* net: this run's, in each stimulus */
	bool tracked;
	/* --irq-prio: the thread's priority changed during the run */
	bool prio_changed;
	int prio_now, policy_now;
	uint64_t iv_next;		/* next interval to open (receiver_roll()) */
};

static const char irq_miss[] = "lost";

static const struct series_desc latency_series = {
	.name = "latency", .miss_name = irq_miss, .threshold = true,
};
static const struct series_desc task_series = {
	.name = "kernel_to_task", .miss_name = irq_miss, .threshold = true,
};
static const struct series_desc kernel_series = {
	.name = "stimulus_to_kernel", .miss_name = irq_miss,
	.threshold = false,
};
static const struct series_desc rtt_series = {
	.name = "round_trip", .miss_name = irq_miss, .threshold = true,
};
static const struct series_desc *const local_descs[] = {
	&latency_series, &task_series, &kernel_series,
};
static const struct series_desc *const host_descs[] = {
	&rtt_series, &task_series,
};
static const struct series_desc *const respond_descs[] = { &task_series };
static const struct series_desc *const serial_descs[] = { &latency_series };

static const struct optdesc irq_opts_table[] = {
	{ "source", 0, required_argument, "SRC",
	  "the stimulus and its interrupt: net (UDP over a veth pair\n"
	  "between two network namespaces rtlat creates; default) or\n"
	  "net:HOST (to rtlat irq --respond on HOST), gpio:CHIP:OUT,IN\n"
	  "(GPIO line OUT wired to line IN of CHIP, e.g. gpio:gpiochip0:17,27)\n"
	  "or serial:TX,RX (a byte from UART port TX to port RX, wired to\n"
	  "each other, e.g. serial:ttyS4,ttyS5; TX = RX: one port's TX-RX loop)",
	  OPT_IRQ_SOURCE },
	{ "baud", 0, required_argument, "N",
	  "serial: the ports' baud rate (default 115200; 8N1, raw)", OPT_IRQ_BAUD },
	{ "respond", 0, optional_argument, "ADDR",
	  "answer net:HOST stimuli on this machine (bound to ADDR, default\n"
	  "any address) and measure kernel_to_task here", OPT_IRQ_RESPOND },
	{ "port", 0, required_argument, "N",
	  "UDP port of net:HOST and --respond (default 4770)", OPT_IRQ_PORT },
	{ "irq", 0, required_argument, "N",
	  "the interrupt that serves the source (default: found from it)",
	  OPT_IRQ_NUMBER },
	{ "irq-prio", 0, required_argument, "N",
	  "run the interrupt's thread at SCHED_FIFO N for the run (restored)",
	  OPT_IRQ_PRIO },
	{ "irq-cpu", 0, required_argument, "CPUS",
	  "set the interrupt's CPU affinity for the run (restored)",
	  OPT_IRQ_CPU },
	{ "max-lost", 0, required_argument, "N",
	  "fail the run (exit 2) when more than N events are lost (never\n"
	  "answered); default: with --max-latency any lost event fails it,\n"
	  "without it losses are counted only", OPT_IRQ_MAX_LOST },
	OPT_END
};

static void irq_init(void *priv, struct engine_opts *o, int argc,
		     char **argv)
{
	struct irq_test *t = priv;

	(void)o;
	(void)argc;
	(void)argv;
	snprintf(t->source, sizeof(t->source), "net");
	t->irq = -1;
	t->irq_prio = -1;
	t->max_lost = -1;
	t->intr.irq = -1;
	guard_init(&t->intr.guard);
	t->offset_bound_max = -1;
	irq_net_init(&t->net);
	irq_gpio_init(&t->gpio, &irq_gpio_kernel);
	irq_serial_init(&t->ser);
}

static int irq_opt(void *priv, struct engine_opts *o, const struct optdesc *d,
		   const char *arg)
{
	struct irq_test *t = priv;
	long long v;

	(void)o;
	switch (d->key) {
	case OPT_IRQ_MAX_LOST:
		if (parse_int(arg, 0, LLONG_MAX, &v)) {
			log_error("invalid value '%s' for --max-lost: a count of events, 0 or more",
				  arg);
			return -1;
		}
		t->max_lost = v;
		return 0;
	case OPT_IRQ_SOURCE:
		t->source_given = true;
		if (!strncmp(arg, "gpio:", 5)) {
			char err[160];

			if (irq_gpio_parse(&t->gpio, arg + 5, err, sizeof(err))) {
				log_error("invalid value '%s' for --source: %s",
					  arg, err);
				return -1;
			}
			t->is_gpio = true;
			t->is_serial = false;
			snprintf(t->source, sizeof(t->source), "%s", arg);
			return 0;
		}
		t->is_gpio = false;
		t->is_serial = false;
		if (!strncmp(arg, "serial:", 7)) {
			char err[200];

			if (irq_serial_parse(&t->ser, arg + 7, err, sizeof(err))) {
				log_error("invalid value '%s' for --source: %s",
					  arg, err);
				return -1;
			}
			t->is_serial = true;
			snprintf(t->source, sizeof(t->source), "%s", arg);
			return 0;
		}
		if (strcmp(arg, "net") != 0 && strncmp(arg, "net:", 4) != 0) {
			log_error("invalid value '%s' for --source: net, net:HOST, gpio:CHIP:OUT,IN or serial:TX,RX",
				  arg);
			return -1;
		}
		if (!strcmp(arg, "net:")) {
			log_error("invalid value '%s' for --source: net:HOST names the responder",
				  arg);
			return -1;
		}
		snprintf(t->source, sizeof(t->source), "%s", arg);
		return 0;
	case OPT_IRQ_RESPOND:
		t->net.respond = true;
		snprintf(t->net.bind, sizeof(t->net.bind), "%s",
			 arg ? arg : "");
		return 0;
	case OPT_IRQ_PORT:
		if (parse_int(arg, 1, 65535, &v)) {
			log_error("invalid value '%s' for --port: 1..65535", arg);
			return -1;
		}
		t->net.port = (int)v;
		return 0;
	case OPT_IRQ_NUMBER:
		if (parse_int(arg, 0, INT_MAX, &v)) {
			log_error("invalid value '%s' for --irq: an interrupt number",
				  arg);
			return -1;
		}
		t->irq = (int)v;
		return 0;
	case OPT_IRQ_PRIO:
		if (parse_int(arg, 1, 99, &v)) {
			log_error("invalid value '%s' for --irq-prio: 1..99", arg);
			return -1;
		}
		t->irq_prio = (int)v;
		return 0;
	case OPT_IRQ_BAUD: {
		char rates[200];

		if (parse_int(arg, 1, INT_MAX, &v) || !irq_serial_baud_ok((int)v)) {
			irq_serial_rates(rates, sizeof(rates));
			log_error("invalid value '%s' for --baud: one of %s",
				  arg, rates);
			return -1;
		}
		t->ser.baud = (int)v;
		t->baud_given = true;
		return 0;
	}
	case OPT_IRQ_CPU: {
		struct cpuset cs;
		char err[128];

		if (cpulist_parse(arg, &cs, err, sizeof(err))) {
			log_error("invalid value '%s' for --irq-cpu: %s", arg, err);
			return -1;
		}
		snprintf(t->irq_cpu, sizeof(t->irq_cpu), "%s", arg);
		return 0;
	}
	}
	return 1;
}

static int irq_configure(void *priv, struct engine_opts *o)
{
	struct irq_test *t = priv;

	if (t->net.respond && t->source_given) {
		log_error("--respond and --source %s do not go together: the responder answers the stimuli of rtlat irq --source net:HOST run on another machine, it has no source of its own",
			  t->source);
		return -1;
	}
	if (t->net.respond && strcmp(t->source, "net") != 0) {
		log_error("--respond and --source %s: the responder answers a net:HOST source elsewhere",
			  t->source);
		return -1;
	}
	if (t->baud_given && !t->is_serial) {
		log_error("--baud %d: the baud rate is the serial source's (--source serial:TX,RX)",
			  t->ser.baud);
		return -1;
	}
	if (t->is_serial &&
	    o->period_ns < 2 * irq_serial_char_ns(t->ser.baud)) {
		char a[32], b[32];

		log_error("invalid value '%s' for -p/--period: at %d baud one character takes %s us (10 bits / baud); the period must be at least twice that",
			  fmt_us3(a, o->period_ns), t->ser.baud,
			  fmt_us3(b, irq_serial_char_ns(t->ser.baud)));
		return -1;
	}
	t->mode = t->net.respond ? MODE_RESPOND :
		  !strncmp(t->source, "net:", 4) ? MODE_HOST : MODE_LOCAL;
	if (t->mode == MODE_HOST) {
		const char *h = t->source + 4;
		size_t n = strlen(h);

		/* an IPv6 address as in a URL: net:[fe80::1%eth0] */
		if (h[0] == '[' && n > 2 && h[n - 1] == ']')
			snprintf(t->net.host, sizeof(t->net.host), "%.*s",
				 (int)(n - 2), h + 1);
		else
			snprintf(t->net.host, sizeof(t->net.host), "%s", h);
	}
	return 0;
}

/* --max-lost N, or 0 with --max-latency (any loss), or -1: none */
static long long lost_allowed(const struct run *r, const struct irq_test *t)
{
	if (t->max_lost >= 0)
		return t->max_lost;
	return r->o->max_latency_ns >= 0 ? 0 : -1;
}

/* ---- the interrupt ---------------------------------------------------- */

static int irq_find(struct run *r, struct irq_test *t)
{
	char err[256];

	(void)r;
	if (t->irq >= 0) {
		if (irq_intr_describe("", t->irq, &t->intr, err, sizeof(err))) {
			log_error("--irq %d: %s", t->irq, err);
			return -1;
		}
		snprintf(t->intr.why, sizeof(t->intr.why), "named by --irq");
	} else if (t->is_gpio) {
		t->intr.irq = irq_intr_find("", "rtlat-irq-in");
		if (t->intr.irq < 0 ||
		    irq_intr_describe("", t->intr.irq, &t->intr, err,
				      sizeof(err))) {
			t->intr.irq = -1;
			snprintf(t->intr.why, sizeof(t->intr.why),
				 "the input line's edge interrupt (consumer rtlat-irq-in) is not in /proc/interrupts (give --irq N)");
		} else {
			snprintf(t->intr.why, sizeof(t->intr.why),
				 "the edge interrupt of line %u (consumer rtlat-irq-in)",
				 t->gpio.in);
		}
	} else if (t->is_serial) {
		t->intr.irq = irq_serial_irq("", t->ser.rx, t->intr.why,
					     sizeof(t->intr.why));
		if (t->intr.irq >= 0) {
			char why[sizeof(t->intr.why)];

			snprintf(why, sizeof(why), "%s", t->intr.why);
			if (irq_intr_describe("", t->intr.irq, &t->intr, err,
					      sizeof(err))) {
				t->intr.irq = -1;
				snprintf(t->intr.why, sizeof(t->intr.why),
					 "%s: %s", why, err);
			} else {
				snprintf(t->intr.why, sizeof(t->intr.why),
					 "%s", why);
			}
		}
	} else if (t->mode == MODE_HOST) {
		t->intr.irq = -1;
		snprintf(t->intr.why, sizeof(t->intr.why),
			 "the interrupt that serves the stimulus is the responder's: see the header of rtlat irq --respond on %s",
			 t->net.host);
	} else {
		char why[sizeof(t->intr.why)];

		irq_net_intr(&t->net, &t->intr);
		if (t->intr.irq >= 0) {
			snprintf(why, sizeof(why), "%s", t->intr.why);
			if (irq_intr_describe("", t->intr.irq, &t->intr, err,
					      sizeof(err)))
				t->intr.irq = -1;
			snprintf(t->intr.why, sizeof(t->intr.why), "%s", why);
		}
	}
	if (t->irq_prio > 0 &&
	    irq_intr_set_prio(&t->intr, t->irq_prio, err, sizeof(err))) {
		log_error("%s", err);
		return -1;
	}
	if ((t->irq_cpu[0] &&
	     irq_intr_set_cpu(&t->intr, t->irq_cpu, err, sizeof(err))) ||
	    irq_intr_guard(&t->intr, err, sizeof(err))) {
		log_error("%s", err);
		irq_intr_restore(&t->intr);
		return -1;
	}
	return 0;
}

/* ---- set-up ----------------------------------------------------------- */

static int irq_setup(struct run *r)
{
	struct irq_test *t = r->priv;
	const struct engine_opts *o = r->o;
	int prio = o->policy == SCHED_OTHER ? 0 : o->prio;
	char err[320];

	if (o->policy != SCHED_OTHER && o->prio < 2 && t->mode != MODE_RESPOND) {
		log_error("invalid value '%d' for -P/--priority: irq needs 2..99 (the sender runs at PRIO-1)",
			  o->prio);
		return -1;
	}
	if (t->mode == MODE_RESPOND) {
		int c = cpuset_next(&o->cpus, 0);

		if (c < 0) {
			log_error("no CPU to run on");
			return -1;
		}
		if (cpuset_count(&o->cpus) > 1 && o->cpus_given) {
			log_error("-c/--cpus %s: irq --respond takes one CPU (the responder's)",
				  o->cpus_arg);
			return -1;
		}
		t->cpu[0] = t->cpu[1] = c;
	} else if (test_place_two(r, "sender", "receiver", t->cpu) < 0) {
		return -1;
	}
	if (t->mode != MODE_RESPOND) {
		/* the run's secret: the responder ties this run's stimuli to
		 * it, this run takes only answers that carry it */
		if (getrandom(&t->secret, sizeof(t->secret), 0) !=
		    (ssize_t)sizeof(t->secret))
			t->secret = clock_now_ns(CLOCK_MONOTONIC) ^
				    ((int64_t)getpid() << 40);
		t->stim = calloc(IRQ_T0_RING, sizeof(*t->stim));
		if (!t->stim) {
			log_error("out of memory");
			return -1;
		}
	}
	if (t->is_serial) {
		if (irq_serial_open(&t->ser, err, sizeof(err))) {
			log_error("%s", err);
			return -1;
		}
	} else if (t->is_gpio) {
		if (irq_gpio_open(&t->gpio, err, sizeof(err))) {
			log_error("%s", err);
			return -1;
		}
	} else if (irq_net_open(&t->net, err, sizeof(err))) {
		log_error("%s", err);
		return -1;
	}
	t->opened = true;
	if (irq_find(r, t))
		return -1;
	switch (t->mode) {
	case MODE_LOCAL:
		if (!engine_add_sampler(r, t->cpu[1], o->policy, prio,
					t->is_serial ? 1 : 3,
					t->is_serial ? serial_descs : local_descs))
			return -1;
		break;
	case MODE_HOST:
		if (!engine_add_sampler(r, t->cpu[1], o->policy, prio, 2,
					host_descs))
			return -1;
		break;
	case MODE_RESPOND:
		return engine_add_sampler(r, t->cpu[0], o->policy, prio, 1,
					  respond_descs) ? 0 : -1;
	}
	return engine_add_sampler(r, t->cpu[0], o->policy,
				  prio ? prio - 1 : 0, 0, NULL) ? 0 : -1;
}

static void irq_teardown(struct run *r)
{
	struct irq_test *t = r->priv;

	irq_intr_restore(&t->intr);
	if (t->opened && t->is_serial)
		irq_serial_close(&t->ser);
	else if (t->opened && t->is_gpio)
		irq_gpio_close(&t->gpio);
	else if (t->opened)
		irq_net_close(&t->net);
	t->opened = false;
	free(t->stim);
	t->stim = NULL;
}

/* ---- the sender ------------------------------------------------------- */

/* Stimulus @seq sent at @t0 in the period @deadline, for the receiver's
 * stim_lookup(). */
static void stim_record(struct irq_test *t, uint64_t seq, int64_t t0,
			int64_t deadline)
{
	struct irq_stim *st = &t->stim[seq % IRQ_T0_RING];

	atomic_store_explicit(&st->seq, 0, memory_order_relaxed);
	half64_store(&st->full, seq);
	half64_store(&st->t0, (uint64_t)t0);
	half64_store(&st->deadline, (uint64_t)deadline);
	atomic_store_explicit(&st->seq, (uint32_t)seq, memory_order_release);
}

static int irq_sender(struct sampler *s)
{
	struct run *r = s->run;
	struct irq_test *t = r->priv;
	struct irq_pkt p = { .magic = IRQ_PKT_MAGIC, .task_ns = INT64_MIN,
			     .secret = t->secret };
	struct waiter w;
	struct wake wk;
	int e;

	e = waiter_init(&w, r->o->wait, r->o->clock, r->o->period_ns, r->t0,
			&r->stop, engine_stop_signal());
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "sender: cannot set up the %s wait: %s",
			 wait_backend_name(r->o->wait), strerror(-e));
		goto out;
	}
	while (!sampler_stopping(s)) {
		e = waiter_wait(&w, &wk);
		if (e == WAIT_INTERRUPTED) {
			e = 0;
			continue;
		}
		if (e < 0) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "sender: %s wait failed: %s",
				 wait_backend_name(r->o->wait), waiter_error(&w, e));
			break;
		}
		if (wk.deadline >= r->t_end)
			break;
		t->sender_missed += wake_missed_inside(&wk, r->o->period_ns,
						       r->t_measure, r->t_end);
		p.seq++;
		p.deadline = wk.deadline;
		if (wk.deadline >= r->t_measure &&
		    !atomic_load_explicit(&t->first_known,
					  memory_order_relaxed)) {
			t->first_seq = p.seq;
			atomic_store_explicit(&t->first_known, 1,
					      memory_order_release);
		}
		p.t0 = clock_now_ns(CLOCK_MONOTONIC);
		stim_record(t, p.seq, p.t0, p.deadline);
		e = t->is_serial ? irq_serial_stimulus(&t->ser, p.seq) :
		    t->is_gpio ? irq_gpio_stimulus(&t->gpio) :
		    irq_net_send(&t->net, t->net.tx, &p, NULL, 0);
		if (wk.deadline >= r->t_measure) {
			t->sent++;
			shared64_store(&t->last_seq, p.seq);
		}
		if (e == -ENOBUFS || e == -EAGAIN || e == -ECONNREFUSED ||
		    e == -EHOSTUNREACH || e == -ENETUNREACH) {
			/* sent and not delivered: the receiver counts it lost */
			t->send_errors++;
			e = 0;
		} else if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "sender: send to %s failed: %s", t->source,
				 strerror(-e));
			break;
		}
	}
	waiter_destroy(&w);
out:
	atomic_store_explicit(&t->sender_done, 1, memory_order_release);
	return e;
}

/* ---- the receiver: the real-time task that serves the event ------------ */

static void miss_all(struct sampler *s, uint64_t n, int64_t t)
{
	int k;

	sampler_overrun(s, 0, n, t);
	for (k = 1; k < s->nseries; k++)
		sampler_overrun_same_cycle(s, k, n, t);
}

static bool receiver_done(struct irq_test *t, int64_t now, int64_t *done_at)
{
	if (!atomic_load_explicit(&t->sender_done, memory_order_acquire))
		return false;
	if (!*done_at)
		*done_at = now;
	if (!atomic_load(&t->first_known))
		return true;
	/* a clock that stands still (a clock fault, which the sender's wait
	 * saw and ended the run with) never passes the grace: the receiver's
	 * waits, timed by the kernel, end it then */
	if (now <= t->done_last_now)
		t->done_still++;
	t->done_last_now = now;
	/* everything sent arrived, or the rest is lost */
	t->last_seq_seen = shared64_load(&t->last_seq, t->last_seq_seen);
	return t->tr.next > t->last_seq_seen ||
	       now - *done_at > IRQ_GRACE_NS ||
	       t->done_still > 2 * IRQ_GRACE_NS / IRQ_POLL_NS;
}

/* The time an event is accounted at: its t0 (--trace finds its kernel
 * events in [t0, t2] of the raw sample), inside the measurement. */
static int64_t event_at(const struct run *r, int64_t t0, int64_t deadline)
{
	return t0 >= r->t_measure && t0 < r->t_end ? t0 : deadline;
}

static void receiver_roll(struct sampler *s, int64_t t, int64_t *t_last);

/*
 * Event @seq (stimulus at @t0 of the period @deadline, kernel stamp @t1 or
 * INT64_MIN, the task has it at @t2) arrived: account it once, the events
 * missing before it as lost. net:HOST: @task_ns is the responder's t2 - t1.
 * serial: latency is the only series (t1 is --trace's).
 */
static void track_start(struct irq_test *t)
{
	if (!t->tracked) {
		/* the first one's number once published, as before 0 */
		irq_track_init(&t->tr, atomic_load_explicit(&t->first_known,
							    memory_order_acquire) ?
				       t->first_seq : 0);
		t->tracked = true;
	}
}

/* Event @seq served (irq_track said so), the @lost before it missing:
 * its series accounted (serve()). */
static void account(struct sampler *s, struct irq_test *t, uint64_t lost,
		    int64_t t0, int64_t t1, int64_t t2, int64_t deadline,
		    int64_t task_ns, int64_t *t_last)
{
	const struct run *r = s->run;
	int64_t open_start;

	miss_all(s, lost, *t_last);
	/* in the interval of its stimulus, at its t0 (--trace's window is
	 * [t0, t2]), or (an answer that came after that interval was handed
	 * over) at the start of the one open now */
	deadline = event_at(r, t0, deadline);
	receiver_roll(s, deadline, t_last);
	open_start = s->cur_open ? s->cur_end - r->o->interval_ns :
		     r->t_measure;
	if (deadline < open_start)
		deadline = open_start;
	if (deadline > *t_last)
		*t_last = deadline;
	sampler_add(s, S_LATENCY, t2 - t0, deadline);
	if (s->nseries == 1)
		return;
	if (t->mode == MODE_HOST) {
		/* the responder's t2 - t1 is a part of the round trip, or
		 * refused (forged, corrupted) */
		if (task_ns != INT64_MIN && task_ns >= 0 && task_ns <= t2 - t0) {
			sampler_add_same_cycle(s, 1, task_ns, deadline);
		} else if (task_ns == INT64_MIN) {
			t->no_stamp++;
			sampler_overrun_same_cycle(s, 1, 1, deadline);
		} else {
			int64_t off = task_ns < 0 ? -task_ns :
				      task_ns - (t2 - t0);

			t->stamp_refused++;
			if (off > t->refused_max)
				t->refused_max = off;
			sampler_overrun_same_cycle(s, 1, 1, deadline);
		}
	} else if (t1 != INT64_MIN && t1 >= t0 && t1 <= t2) {
		sampler_add_same_cycle(s, S_TASK, t2 - t1, deadline);
		sampler_add_same_cycle(s, S_KERNEL, t1 - t0, deadline);
	} else {
		/* no stamp, or not between t0 and t2 (a clock step, another
		 * clock): the event is served, its split is missing */
		if (t1 == INT64_MIN) {
			t->no_stamp++;
		} else {
			int64_t off = t1 < t0 ? t0 - t1 : t1 - t2;

			t->stamp_refused++;
			if (off > t->refused_max)
				t->refused_max = off;
		}
		sampler_overrun_same_cycle(s, S_TASK, 1, deadline);
		sampler_overrun_same_cycle(s, S_KERNEL, 1, deadline);
	}
}

static void serve(struct sampler *s, struct irq_test *t, uint64_t seq,
		  int64_t t0, int64_t t1, int64_t t2, int64_t deadline,
		  int64_t task_ns, int64_t *t_last)
{
	uint64_t lost;
	enum irq_ev ev;

	track_start(t);
	ev = irq_track_event(&t->tr, seq, &lost);
	if (ev == IRQ_EV_SERVED)
		account(s, t, lost, t0, t1, t2, deadline, task_ns, t_last);
	else if (ev == IRQ_EV_STRAY)
		t->stray++;	/* too old to tell */
}

/* t0 and the deadline of stimulus @seq, or INT64_MIN when it is no longer
 * (or not yet, or never) in the ring */
static void stim_lookup(struct irq_test *t, uint64_t seq, int64_t *t0,
			int64_t *deadline)
{
	struct irq_stim *st = &t->stim[seq % IRQ_T0_RING];
	uint64_t full;

	*t0 = *deadline = INT64_MIN;
	if ((uint32_t)seq == 0 ||
	    atomic_load_explicit(&st->seq, memory_order_acquire) != (uint32_t)seq)
		return;
	full = half64_load(&st->full);
	*t0 = (int64_t)half64_load(&st->t0);
	*deadline = (int64_t)half64_load(&st->deadline);
	if (atomic_load_explicit(&st->seq, memory_order_relaxed) != (uint32_t)seq ||
	    full != seq)
		*t0 = *deadline = INT64_MIN;
}

/*
 * The intervals up to the one of @t (test clock, inside the measurement)
 * opened in turn, also those nothing came in (an RTD line and an entry of
 * "intervals" each, n/a); *@t_last (may be NULL) raised to the start of
 * @t's: what is accounted later goes there or after.
 */
static void receiver_roll(struct sampler *s, int64_t t, int64_t *t_last)
{
	const struct run *r = s->run;
	struct irq_test *it = r->priv;
	uint64_t idx;
	int64_t start;

	if (t < r->t_measure)
		return;
	if (t >= r->t_end)
		t = r->t_end - 1;
	idx = (uint64_t)(t - r->t_measure) / (uint64_t)r->o->interval_ns;
	for (; it->iv_next <= idx; it->iv_next++)
		if (!s->cur_open || s->cur.index < it->iv_next)
			sampler_roll(s, it->iv_next);
	start = r->t_measure + (int64_t)idx * r->o->interval_ns;
	if (t_last && *t_last < start)
		*t_last = start;
}

/* At @now: the intervals before the oldest event outstanding (its
 * stimulus' interval stays open for its answer or its loss) and before
 * now - IRQ_POLL_NS (a stimulus being recorded) are opened, empty or not. */
static void receiver_tick(struct sampler *s, struct irq_test *t, int64_t now,
			  int64_t *t_last)
{
	int64_t t0, deadline, upto = now - IRQ_POLL_NS;

	if (!atomic_load_explicit(&t->first_known, memory_order_acquire))
		return;
	if (t->tracked) {
		stim_lookup(t, t->tr.next, &t0, &deadline);
		if (t0 != INT64_MIN) {
			deadline = event_at(s->run, t0, deadline);
			if (deadline < upto)
				upto = deadline;
		}
	}
	receiver_roll(s, upto, t_last);
}

static void expire(struct sampler *s, struct irq_test *t, int64_t limit,
		   int64_t *t_last);
static int receiver_end(struct sampler *s, struct irq_test *t,
			int64_t t_last);
static int receiver_fail(struct sampler *s, struct irq_test *t,
			 int64_t t_last, int e);

/* serial: was stimulus @seq sent (irq_serial_match())? */
static bool stim_sent(void *ctx, uint64_t seq, int64_t *t0, int64_t *deadline)
{
	stim_lookup(ctx, seq, t0, deadline);
	return *t0 != INT64_MIN;
}

static int irq_receiver(struct sampler *s)
{
	struct run *r = s->run;
	struct irq_test *t = r->priv;
	struct irq_pkt p;
	int64_t t0, t1, t2, deadline, t_last = r->t_measure, done_at = 0;
	int64_t bound;
	int e;

	e = irq_net_timeout(t->net.rx, IRQ_POLL_NS);
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "receiver: SO_RCVTIMEO: %s", strerror(-e));
		return receiver_fail(s, t, t_last, e);
	}
	for (;;) {
		e = irq_net_recv(t->net.rx, &p, &t1, &t2, &bound, NULL, NULL);
		if (bound > t->offset_bound_max)
			t->offset_bound_max = bound;
		if (e == -EAGAIN || e == -EINTR || e == -ECONNREFUSED) {
			/* ECONNREFUSED: net:HOST, nobody answers (yet) */
			expire(s, t, INT64_MIN, &t_last);
			receiver_tick(s, t, t2, &t_last);
			if (receiver_done(t, t2, &done_at))
				break;
			continue;
		}
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "receiver: receive from %s failed: %s",
				 t->source, strerror(-e));
			return receiver_fail(s, t, t_last, e);
		}
		if (p.magic != IRQ_PKT_MAGIC ||
		    (t->mode == MODE_HOST) != !!(p.flags & IRQ_PKT_REPLY) ||
		    p.secret != t->secret) {
			t->foreign++;	/* not rtlat's, or another run's */
			continue;
		}
		if (!atomic_load_explicit(&t->first_known,
					  memory_order_acquire))
			continue;	/* warm-up */
		/* the packet is only a number: t0 and the deadline are the
		 * sender's record of what it sent (an answer may be forged
		 * or corrupted); a number of nothing outstanding is stray,
		 * one already served or lost duplicate or late */
		stim_lookup(t, p.seq, &t0, &deadline);
		track_start(t);
		/* genuine: a stimulus sent, its stamps the ones it carried
		 * (a number alone is easily forged); served when it is an
		 * event outstanding, those before it still outstanding (an
		 * answer may overtake another: they are not lost by it) */
		/* an event whose record is gone first: the one named may
		 * be IRQ_T0_RING ahead of it */
		expire(s, t, INT64_MIN, &t_last);
		switch (irq_track_exact(&t->tr, p.seq, t0 != INT64_MIN &&
					t0 <= t2 && p.t0 == t0 &&
					p.deadline == deadline)) {
		case IRQ_EV_SERVED:
			/* however late: its latency is known, a sample */
			account(s, t, 0, t0, t1, t2, deadline,
				t->mode == MODE_HOST ? p.task_ns : INT64_MIN,
				&t_last);
			break;
		case IRQ_EV_STRAY:
			t->stray++;
			break;
		default:
			break;		/* duplicate, late, warm-up */
		}
		/* an event is lost only when its answer can no longer be
		 * told genuine (its record overwritten, IRQ_T0_RING stimuli
		 * later) or at the end: an answer that comes later than the
		 * others is a sample, the largest one, never a loss */
		expire(s, t, INT64_MIN, &t_last);
		receiver_tick(s, t, t2, &t_last);
		if (receiver_done(t, t2, &done_at))
			break;
	}
	return receiver_end(s, t, t_last);
}

/* gpio: the input line's edge events */
static int irq_receiver_gpio(struct sampler *s)
{
	struct run *r = s->run;
	struct irq_test *t = r->priv;
	struct gpio_v2_line_event ev;
	int64_t t0, t1, t2, deadline, t_last = r->t_measure, done_at = 0;
	uint64_t seq;
	int e;

	for (;;) {
		e = irq_gpio_wait(&t->gpio, &ev, (int)(IRQ_POLL_NS / 1000000));
		t2 = clock_now_ns(CLOCK_MONOTONIC);
		if (e == -EAGAIN || e == -EINTR) {
			receiver_tick(s, t, t2, &t_last);
			if (receiver_done(t, t2, &done_at))
				break;
			continue;
		}
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "receiver: reading the events of %s failed: %s",
				 t->source, strerror(-e));
			return receiver_fail(s, t, t_last, e);
		}
		stim_lookup(t, ev.line_seqno, &t0, &deadline);
		switch (irq_gpio_match(&t->gpio, &ev, t0, t2, &seq)) {
		case IRQ_GPIO_OTHER_LINE:
		case IRQ_GPIO_UNKNOWN:
			break;		/* not served: lost by the gap */
		case IRQ_GPIO_CLOCK:
			/* served; its timestamp is refused */
			t1 = (int64_t)ev.timestamp_ns;
			if (atomic_load_explicit(&t->first_known,
						 memory_order_acquire))
				serve(s, t, seq, t0, t1, t2, deadline,
				      INT64_MIN, &t_last);
			break;
		case IRQ_GPIO_OK:
			if (atomic_load_explicit(&t->first_known,
						 memory_order_acquire))
				serve(s, t, seq, t0, (int64_t)ev.timestamp_ns,
				      t2, deadline, INT64_MIN, &t_last);
			break;
		}
		receiver_tick(s, t, t2, &t_last);
		if (receiver_done(t, t2, &done_at))
			break;
	}
	return receiver_end(s, t, t_last);
}

/* serial, net: the events outstanding sent at or before @limit (t0) are
 * lost now (a byte or an answer that comes after that is late), and
 * those whose record is gone (INT64_MIN: only those) */
static void expire(struct sampler *s, struct irq_test *t, int64_t limit,
		   int64_t *t_last)
{
	int64_t t0, deadline;

	if (!t->tracked && atomic_load_explicit(&t->first_known,
						memory_order_acquire)) {
		irq_track_init(&t->tr, t->first_seq);
		t->tracked = true;
	}
	while (t->tracked) {
		stim_lookup(t, t->tr.next, &t0, &deadline);
		if (t0 == INT64_MIN) {
			/* not sent yet, or its record overwritten by a later
			 * stimulus (a short period): then its answer can no
			 * longer be told genuine, it is lost now */
			t->last_seq_seen = shared64_load(&t->last_seq,
							 t->last_seq_seen);
			if (t->last_seq_seen < t->tr.next + IRQ_T0_RING)
				return;
			t0 = deadline = *t_last;
		} else if (t0 > limit) {
			return;
		}
		deadline = event_at(s->run, t0, deadline);
		if (deadline < *t_last)
			deadline = *t_last;
		receiver_roll(s, deadline, t_last);
		miss_all(s, irq_track_end(&t->tr, t->tr.next), deadline);
		*t_last = deadline;
	}
}

/*
 * serial: the bytes on RX. Byte b is the first stimulus from the next one
 * expected on whose low 8 bits are b; if that one has not been sent, it is
 * the one 256 before (a duplicate, or late), and a byte of no stimulus sent
 * is stray.
 */
static int irq_receiver_serial(struct sampler *s)
{
	struct run *r = s->run;
	struct irq_test *t = r->priv;
	unsigned char buf[64];
	int64_t t0, t2, deadline, t_last = r->t_measure, done_at = 0;
	uint64_t next = 1, seq;
	ssize_t n, i;

	for (;;) {
		n = irq_serial_wait(&t->ser, buf, sizeof(buf),
				    (int)(IRQ_POLL_NS / 1000000));
		t2 = clock_now_ns(CLOCK_MONOTONIC);
		if (n < 0 && n != -EAGAIN && n != -EINTR) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "receiver: reading %s failed: %s", t->ser.rx,
				 strerror((int)-n));
			return receiver_fail(s, t, t_last, (int)n);
		}
		for (i = 0; i < n; i++) {
			if (!irq_serial_match(buf[i], &next, t2, stim_sent, t,
					      &seq, &t0, &deadline)) {
				t->ser.stray++;
				continue;
			}
			if (atomic_load_explicit(&t->first_known,
						 memory_order_acquire))
				serve(s, t, seq, t0, INT64_MIN, t2, deadline,
				      INT64_MIN, &t_last);
		}
		expire(s, t, t2 - IRQ_LOST_NS, &t_last);
		receiver_tick(s, t, t2, &t_last);
		if (receiver_done(t, t2, &done_at))
			break;
	}
	return receiver_end(s, t, t_last);
}

static int receiver_end(struct sampler *s, struct irq_test *t, int64_t t_last)
{
	if (atomic_load_explicit(&t->first_known, memory_order_acquire)) {
		if (!t->tracked) {
			irq_track_init(&t->tr, t->first_seq);
			t->tracked = true;
		}
		/* the sender is done: its last store is whole; the events
		 * never answered are lost, each in its stimulus' interval */
		t->last_seq_seen = shared64_load(&t->last_seq, t->last_seq_seen);
		expire(s, t, INT64_MAX, &t_last);
		miss_all(s, irq_track_end(&t->tr, t->last_seq_seen), t_last);
	}
	/* the intervals up to the end, also those nothing came in */
	receiver_roll(s, clock_now_ns(CLOCK_MONOTONIC), &t_last);
	return 0;
}

/* The receiver failed with @e (s->errmsg said why): the run ends; once
 * the sender has stopped, the events it sent that were not served are
 * lost, as at a normal end (sent = served + lost holds). */
static int receiver_fail(struct sampler *s, struct irq_test *t,
			 int64_t t_last, int e)
{
	const struct timespec ms = { 0, NSEC_PER_MSEC };
	int i;

	atomic_store(&s->run->stop, 1);
	for (i = 0; i < 5000 && !atomic_load_explicit(&t->sender_done,
						      memory_order_acquire); i++)
		nanosleep(&ms, NULL);
	receiver_end(s, t, t_last);
	return e;
}

/* ---- the responder (--respond) ---------------------------------------- */

/* The peer of address @from (of @fl bytes) whose secret is @secret, at
 * @t2: its slot, or a new one (a free slot, an idle one's, or an unsettled
 * one's); NULL when the address is a sender's with another secret (a
 * forgery: t->wrong_secret counted) or every slot holds a settled sender
 * (t->stray counted). */
static struct irq_peer *peer_of(struct irq_test *t,
				const struct sockaddr_storage *from, size_t fl,
				int64_t secret, int64_t t2)
{
	struct irq_peer *pe, *free_pe = NULL, *weak = NULL;
	int i;

	if (fl > sizeof(t->peers[0].addr)) {
		t->stray++;
		return NULL;
	}
	for (i = 0; i < IRQ_PEERS; i++) {
		pe = &t->peers[i];
		if (pe->used && t2 - pe->seen > IRQ_PEER_IDLE_NS)
			pe->used = false;	/* gone quiet: forgotten */
		if (!pe->used) {
			if (!free_pe)
				free_pe = pe;
			continue;
		}
		if (pe->len == fl && !memcmp(&pe->addr, from, fl)) {
			if (pe->secret != secret) {
				t->wrong_secret++;
				return NULL;
			}
			pe->seen = t2;
			return pe;
		}
		if (pe->tr.served < IRQ_PEER_SETTLED &&
		    (!weak || pe->seen < weak->seen))
			weak = pe;
	}
	if (!free_pe && weak) {
		t->peers_displaced++;
		free_pe = weak;
	}
	if (!free_pe) {
		t->stray++;	/* every slot a sender that measures */
		return NULL;
	}
	memset(free_pe, 0, sizeof(*free_pe));
	memcpy(&free_pe->addr, from, fl);
	free_pe->len = fl;
	free_pe->secret = secret;
	free_pe->used = true;
	free_pe->seen = t2;
	t->npeers++;
	return free_pe;
}

/*
 * --respond: event @seq of peer @pe arrived at @t2. Each sender numbers its
 * own events: each peer has its sequence, accounted apart (t->tr holds the
 * sums). A number farther ahead than one event per microsecond since the
 * peer's last one is no sender's (stray). Returns what it was, *@lost the
 * events missing before it.
 */
static enum irq_ev peer_event(struct irq_test *t, struct irq_peer *pe,
			      uint64_t seq, int64_t t2, uint64_t *lost)
{
	struct irq_track *tr = &pe->tr;
	uint64_t served = tr->served, dup = tr->duplicate, late = tr->late;
	enum irq_ev ev;

	*lost = 0;
	if (!pe->tracked) {
		irq_track_init(tr, seq);
		pe->tracked = true;
	} else if (seq >= tr->next && seq - tr->next >
		   (uint64_t)((t2 - pe->last) / NSEC_PER_USEC) + 64) {
		t->stray++;
		return IRQ_EV_BEFORE;
	}
	ev = irq_track_event(tr, seq, lost);
	if (ev == IRQ_EV_SERVED)
		pe->last = t2;
	else if (ev == IRQ_EV_STRAY)
		t->stray++;	/* too old to tell */
	t->tr.served += tr->served - served;
	t->tr.lost += *lost;
	t->tr.duplicate += tr->duplicate - dup;
	t->tr.late += tr->late - late;
	return ev;
}

/* --respond: the intervals up to the one of @t (inside the measurement)
 * opened, also those no stimulus came in: one RTD line per interval, as
 * every test, from the first (before the sender starts) to the last
 * (after it stopped) */
static void responder_tick(struct sampler *s, int64_t t)
{
	receiver_roll(s, t, NULL);
}

static int irq_responder(struct sampler *s)
{
	struct run *r = s->run;
	struct irq_test *t = r->priv;
	struct sockaddr_storage from;
	struct irq_peer *pe;
	struct irq_pkt p;
	int64_t t1, t2, bound;
	uint64_t lost;
	size_t fl;
	int e;

	e = irq_net_timeout(t->net.rx, IRQ_POLL_NS);
	if (e) {
		snprintf(s->errmsg, sizeof(s->errmsg),
			 "responder: SO_RCVTIMEO: %s", strerror(-e));
		return e;
	}
	while (!sampler_stopping(s)) {
		fl = sizeof(from);
		e = irq_net_recv(t->net.rx, &p, &t1, &t2, &bound, &from, &fl);
		if (bound > t->offset_bound_max)
			t->offset_bound_max = bound;
		responder_tick(s, t2);
		if (t2 >= r->t_end)
			break;
		if (e == -EAGAIN || e == -EINTR)
			continue;
		if (e) {
			snprintf(s->errmsg, sizeof(s->errmsg),
				 "responder: receive failed: %s", strerror(-e));
			return e;
		}
		if (p.magic != IRQ_PKT_MAGIC || (p.flags & IRQ_PKT_REPLY)) {
			t->foreign++;
			continue;
		}
		/* the sender it is (a forged one is not answered) */
		pe = t2 < r->t_measure ? NULL :
		     peer_of(t, &from, fl, p.secret, t2);
		if (t2 >= r->t_measure && !pe)
			continue;
		p.flags |= IRQ_PKT_REPLY;
		p.task_ns = t1 != INT64_MIN && t1 <= t2 ? t2 - t1 : INT64_MIN;
		e = irq_net_send(&t->net, t->net.tx, &p, &from, fl);
		if (e)
			t->send_errors++;	/* the sender counts it lost */
		if (!pe)
			continue;
		if (peer_event(t, pe, p.seq, t2, &lost) != IRQ_EV_SERVED)
			continue;
		if (t1 != INT64_MIN && t1 > t2)
			t->stamp_refused++;
		else if (t1 == INT64_MIN)
			t->no_stamp++;
		/* the events missing before it: lost when the gap shows
		 * (the interval of the previous one may be closed) */
		sampler_overrun(s, 0, lost, t2);
		if (p.task_ns != INT64_MIN)
			sampler_add(s, 0, p.task_ns, t2);
		else
			sampler_overrun(s, 0, 1, t2);
	}
	/* stopped (SIGINT) or at the end: the intervals up to now */
	responder_tick(s, clock_now_ns(CLOCK_MONOTONIC));
	return 0;
}

static int irq_body(struct sampler *s)
{
	struct irq_test *t = s->run->priv;

	if (t->mode == MODE_RESPOND)
		return irq_responder(s);
	if (s->id != 0)
		return irq_sender(s);
	if (t->is_serial)
		return irq_receiver_serial(s);
	return t->is_gpio ? irq_receiver_gpio(s) : irq_receiver(s);
}

/* ---- output ------------------------------------------------------------ */

static const struct xeno_col local_cols[] = {
	{ "lat min", S_LATENCY, XENO_MIN },
	{ "lat avg", S_LATENCY, XENO_AVG },
	{ "lat max", S_LATENCY, XENO_MAX },
	{ "k>t avg", S_TASK, XENO_AVG },
	{ "k>t max", S_TASK, XENO_MAX },
	{ "s>k max", S_KERNEL, XENO_MAX },
	{ "lost", S_LATENCY, XENO_MISSED },
	{ "lat worst", S_LATENCY, XENO_WORST },
};
static const struct xeno_col host_cols[] = {
	{ "rtt min", 0, XENO_MIN },
	{ "rtt avg", 0, XENO_AVG },
	{ "rtt max", 0, XENO_MAX },
	{ "k>t avg", 1, XENO_AVG },
	{ "k>t max", 1, XENO_MAX },
	{ "lost", 0, XENO_MISSED },
	{ "rtt worst", 0, XENO_WORST },
};
static const struct xeno_col serial_cols[] = {
	{ "lat min", S_LATENCY, XENO_MIN },
	{ "lat avg", S_LATENCY, XENO_AVG },
	{ "lat max", S_LATENCY, XENO_MAX },
	{ "lost", S_LATENCY, XENO_MISSED },
	{ "lat best", S_LATENCY, XENO_BEST },
	{ "lat worst", S_LATENCY, XENO_WORST },
};
static const struct xeno_col respond_cols[] = {
	{ "k>t min", 0, XENO_MIN },
	{ "k>t avg", 0, XENO_AVG },
	{ "k>t max", 0, XENO_MAX },
	{ "lost", 0, XENO_MISSED },
	{ "k>t worst", 0, XENO_WORST },
};

#define NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const struct xeno_col *irq_columns(const struct run *r, int *n)
{
	const struct irq_test *t = r->priv;

	if (t->mode == MODE_HOST) {
		*n = NCOLS(host_cols);
		return host_cols;
	}
	if (t->mode == MODE_RESPOND) {
		*n = NCOLS(respond_cols);
		return respond_cols;
	}
	if (t->is_serial) {
		*n = NCOLS(serial_cols);
		return serial_cols;
	}
	*n = NCOLS(local_cols);
	return local_cols;
}

static const char *stamps_text(const struct irq_test *t)
{
	if (t->is_serial && t->ser.pty)
		return "none: a pseudo-terminal has no interrupt (and so no t1)";
	if (t->is_serial)
		return "none from the port: t1 is the RX interrupt's irq:irq_handler_entry trace event, with --trace";
	return t->is_gpio ?
	       "edge event timestamps (timestamp_ns, CLOCK_MONOTONIC, taken in the hard interrupt)" :
	       t->net.stamps;
}

/* The interrupt, its thread and what the run set (test_data.interrupt,
 * the banner's line). */
static void intr_figures(struct test_figs *f, const struct irq_test *t)
{
	const struct irq_intr *in = &t->intr;

	if (in->irq >= 0) {
		fig_num(f, "interrupt.irq", "%d", in->irq);
		fig_str(f, "interrupt.name", in->name);
		fig_str(f, "interrupt.affinity", in->affinity);
		fig_str(f, "interrupt.effective_affinity", in->effective);
		fig_bool(f, "interrupt.effective_affinity_pending",
			 irq_intr_move_pending(in));
	} else {
		fig_null(f, "interrupt.irq");
	}
	fig_str(f, "interrupt.note", in->why);
	if (in->thread) {
		fig_str(f, "interrupt.thread.name", in->tname);
		fig_num(f, "interrupt.thread.pid", "%d", (int)in->thread);
		fig_str(f, "interrupt.thread.policy", policy_name(in->policy));
		fig_num(f, "interrupt.thread.priority", "%d", in->prio);
		fig_num(f, "interrupt.thread.cpu", "%d", in->cpu);
	} else {
		fig_null(f, "interrupt.thread");
	}
	if (t->irq_prio > 0) {
		fig_num(f, "interrupt.priority_set", "%d", t->irq_prio);
		fig_bool(f, "interrupt.priority_changed_during_run",
			 t->prio_changed);
	} else {
		fig_null(f, "interrupt.priority_set");
		fig_null(f, "interrupt.priority_changed_during_run");
	}
	if (t->irq_cpu[0])
		fig_str(f, "interrupt.affinity_set", t->irq_cpu);
	else
		fig_null(f, "interrupt.affinity_set");
}

/* The source, its device, the interrupt, the role and the events of the
 * measurement: test_data, the banner and the summary lines; the events
 * sent and lost and the interrupt for the headline. */
static void irq_figures(struct run *r, struct test_figs *f)
{
	const struct irq_test *t = r->priv;
	uint64_t sent;

	if (!t)
		return;
	sent = t->mode == MODE_RESPOND ? t->tr.served + t->tr.lost : t->sent;
	fig_str(f, "source", t->source);
	fig_num(f, "port", "%d", t->net.port);
	fig_str(f, "bound_to", t->mode != MODE_RESPOND ? "" :
		t->net.bind[0] ? t->net.bind : "any address (IPv6 and IPv4)");
	fig_str(f, "receive_stamps", stamps_text(t));
	fig_bool(f, "hardware_stamps", false);
	fig_bool(f, "hardware_stamps_available", t->net.hw_stamps);
	if (t->is_gpio) {
		fig_str(f, "gpio.chip", t->gpio.path);
		fig_num(f, "gpio.out", "%u", (unsigned)t->gpio.out);
		fig_num(f, "gpio.in", "%u", (unsigned)t->gpio.in);
		fig_num(f, "gpio.other_line_events", "%llu",
			(unsigned long long)t->gpio.other_line);
	}
	if (t->is_serial) {
		fig_str(f, "serial.tx", t->ser.tx);
		fig_str(f, "serial.rx", t->ser.rx);
		fig_bool(f, "serial.loop", t->ser.loop);
		fig_bool(f, "serial.pty", t->ser.pty);
		if (t->ser.pty) {
			/* no line, no baud rate: not the default's */
			fig_null(f, "serial.baud");
			fig_null(f, "serial.character_ns");
		} else {
			fig_num(f, "serial.baud", "%d", t->ser.baud);
			fig_num(f, "serial.character_ns", "%lld",
				(long long)irq_serial_char_ns(t->ser.baud));
		}
		fig_num(f, "serial.stray_bytes", "%llu",
			(unsigned long long)t->ser.stray);
	}
	intr_figures(f, t);
	fig_str(f, "role", t->mode == MODE_RESPOND ? "responder" :
		t->mode == MODE_HOST ? "stimulus" : "local");
	fig_num(f, "events.sent", "%llu", (unsigned long long)sent);
	fig_num(f, "events.served", "%llu", (unsigned long long)t->tr.served);
	fig_num(f, "events.lost", "%llu", (unsigned long long)t->tr.lost);
	fig_num(f, "events.duplicate", "%llu",
		(unsigned long long)t->tr.duplicate);
	fig_num(f, "events.late", "%llu", (unsigned long long)t->tr.late);
	fig_num(f, "events.without_kernel_stamp", "%llu",
		(unsigned long long)t->no_stamp);
	fig_num(f, "events.kernel_stamp_refused", "%llu",
		(unsigned long long)t->stamp_refused);
	fig_num(f, "events.kernel_stamp_refused_max_ns", "%lld",
		(long long)t->refused_max);
	fig_num(f, "events.foreign_packets", "%llu",
		(unsigned long long)t->foreign);
	fig_num(f, "events.stray", "%llu", (unsigned long long)t->stray);
	if (!t->is_gpio && !t->is_serial)
		fig_num(f, "events.stamp_conversion_bound_max_ns", "%lld",
			(long long)t->offset_bound_max);
	if (t->mode == MODE_RESPOND) {
		fig_num(f, "events.senders", "%d", t->npeers);
		fig_num(f, "events.wrong_secret", "%llu",
			(unsigned long long)t->wrong_secret);
		fig_num(f, "events.senders_displaced", "%llu",
			(unsigned long long)t->peers_displaced);
	}

	if (lost_allowed(r, t) >= 0)
		fig_num(f, "events.lost_allowed", "%lld", lost_allowed(r, t));
	else
		fig_null(f, "events.lost_allowed");
	fig_bool(f, "events.lost_exceeded", t->lost_failed);
	fig_num(f, "events.send_errors", "%llu",
		(unsigned long long)t->send_errors);
	fig_num(f, "events.sender_missed_periods", "%llu",
		(unsigned long long)t->sender_missed);
	/* also in test_data, beside its "events" object: names of their own */
	fig_num(f, "events_sent", "%llu", (unsigned long long)sent);
	fig_headline(f);
	fig_num(f, "events_lost", "%llu", (unsigned long long)t->tr.lost);
	fig_headline(f);
	fig_num(f, "irq_number", "%d", t->intr.irq);
	fig_headline(f);
	/* the responder's host, for the hint of a run without answers */
	fig_str(f, "net_host", t->net.host);
	fig_said(f);
}

static const struct test_line irq_lines[] = {
	{ LINE_BANNER, NULL,
	  "Source: {source}[?role=responder: (--respond)], "
	  "[?serial.tx:[?serial.pty:{serial.tx} -> {serial.rx}, pseudo-terminals (no UART: no line, no baud rate), raw]"
	  "[!serial.pty:{serial.tx} -> {serial.rx} at {serial.baud} baud, 8N1 raw]]"
	  "[?gpio.chip:{gpio.chip} line {gpio.out} -> line {gpio.in}]"
	  "[!serial.tx:[!gpio.chip:port {port}[?role=responder: of {bound_to}]]]" },
	{ LINE_BANNER, NULL,
	  "[?serial.tx:[?serial.pty:Serial: a pty has no line: t2-t0 is the tty layer and the reader's wake-up, without a character's transmission time]"
	  "[!serial.pty:Serial: t2-t0 includes one character's transmission time, 10 bits / {serial.baud} baud = {serial.character_ns} us]]" },
	{ LINE_BANNER, NULL,
	  "[?gpio.chip:gpio: the output line toggled by the sender, its edge on the input line read by the receiver (GPIO character device, uAPI v2)]"
	  "[?serial.tx:[?serial.pty:serial: one byte per period written by the sender on a pseudo-terminal, read by the receiver from it (or from the other one)]"
	  "[!serial.pty:[?serial.loop:serial: one byte per period written by the sender on the port, read back through its TX-RX loop by the receiver]"
	  "[!serial.loop:serial: one byte per period written by the sender on TX, read on RX by the receiver]]]"
	  "[!gpio.chip:[!serial.tx:"
	  "[?role=local:net: UDP over the veth pair rtlat-a (169.254.47.1) -> rtlat-b (169.254.47.2) between two network namespaces of this run]"
	  "[?role=stimulus:net: UDP to the responder]"
	  "[?role=responder:net: responder (--respond): answers each stimulus to its sender]]]" },
	{ LINE_BANNER, NULL, "Receive stamps: {receive_stamps}" },
	{ LINE_BANNER, NULL,
	  "Series: [?serial.tx:latency = t2-t0 (the byte written to the reader's wake-up); --trace splits it at t1, the RX interrupt]"
	  "[!serial.tx:[?role=local:latency = t2-t0 (send to the task's wake-up), kernel_to_task = t2-t1 (kernel receive stamp to the task), stimulus_to_kernel = t1-t0]"
	  "[?role=stimulus:round_trip = the answer's arrival - the send, kernel_to_task = the responder's t2-t1]"
	  "[?role=responder:kernel_to_task = t2-t1 (kernel receive stamp to this task's wake-up)]]" },
	/* the interrupt line last: it may be long */
	{ LINE_BANNER, NULL,
	  "[!interrupt.irq:Interrupt: none: {interrupt.note}]"
	  "[?interrupt.irq:Interrupt: IRQ {interrupt.irq} ({interrupt.name})"
	  "[?interrupt.thread.pid:, thread {interrupt.thread.name} (pid {interrupt.thread.pid}) {interrupt.thread.policy} priority {interrupt.thread.priority} CPU {interrupt.thread.cpu}]"
	  "[!interrupt.thread.pid:, not threaded (handled in hard interrupt context)]"
	  ", affinity [?interrupt.affinity=:unknown][!interrupt.affinity=:{interrupt.affinity}]"
	  "[!interrupt.effective_affinity=: (effective {interrupt.effective_affinity}[?interrupt.effective_affinity_pending:: the move is pending, done when the interrupt next arrives])]"
	  "[!interrupt.note=:; {interrupt.note}]]" },
	{ LINE_SUMMARY, NULL,
	  "[?role=responder:Events: {events.sent} answered in the measurement = {events.served} served + {events.lost} lost (sequence gaps); {events.duplicate} duplicated, {events.late} late, {events.without_kernel_stamp} without a kernel stamp, {events.kernel_stamp_refused} with a stamp after the wake-up (refused), {events.foreign_packets} [?events.foreign_packets=1:foreign packet][!events.foreign_packets=1:foreign packets], {events.stray} stray (of no sender's sequence, or of a new sender while every slot held a sender that measures), {events.wrong_secret} [?events.wrong_secret=1:datagram][!events.wrong_secret=1:datagrams] with a sender's address and another secret (dropped, not answered), {events.senders_displaced} [?events.senders_displaced=1:sender][!events.senders_displaced=1:senders] displaced, {events.send_errors} [?events.send_errors=1:answer not sent][!events.send_errors=1:answers not sent]; {events.senders} [?events.senders=1:sender][!events.senders=1:senders]]"
	  "[!role=responder:Events: {events.sent} sent in the measurement = {events.served} served + {events.lost} lost; {events.duplicate} duplicated, {events.late} late (after being counted lost), {events.without_kernel_stamp} without a kernel stamp, {events.kernel_stamp_refused} with one not between t0 and t2 (refused), {events.stray} stray (of no stimulus sent), {events.send_errors} [?events.send_errors=1:send error][!events.send_errors=1:send errors]; the sender missed {events.sender_missed_periods} [?events.sender_missed_periods=1:period][!events.sender_missed_periods=1:periods]]" },
	{ LINE_SUMMARY, NULL,
	  "[?serial.tx:Serial: {serial.stray_bytes} [?serial.stray_bytes=1:stray byte][!serial.stray_bytes=1:stray bytes] (of no stimulus sent)]" },
	/* the hint of a run that no responder answered */
	{ LINE_SUMMARY, NULL,
	  "[?role=stimulus:[!events.sent=0:[?events.served=0:No answer from {net_host} port {port}: is rtlat irq --respond running there?]]]" },
	{ 0, NULL, NULL },
};

/* An event never answered hides its latency: more of them than allowed
 * fail the run as a threshold exceeded does (exit 2), said. */
static void lost_verdict(struct run *r, struct irq_test *t)
{
	long long allowed = lost_allowed(r, t);

	if (allowed < 0 || t->tr.lost <= (uint64_t)allowed)
		return;
	t->lost_failed = true;
	r->threshold_exceeded = true;
	if (r->exit_code == 0)
		r->exit_code = 2;
	if (t->max_lost >= 0)
		engine_warn(r, "lost events: %llu never answered, more than --max-lost %lld: their latency is not known",
			    (unsigned long long)t->tr.lost, t->max_lost);
	else
		engine_warn(r, "lost events: %llu never answered, with --max-latency (any lost event fails it; --max-lost N allows N): their latency is not known",
			    (unsigned long long)t->tr.lost);
}

static void irq_summary(struct run *r)
{
	struct irq_test *t = r->priv;
	int i;

	/* --irq-prio: another run (or program) changed the priority while
	 * this one measured: the priority stated was not in force all along */
	t->prio_changed = irq_intr_prio_changed(&t->intr, &t->policy_now,
						&t->prio_now);
	if (t->prio_changed)
		engine_warn(r, "--irq-prio %d: the priority of %s (pid %d) was changed during the run (now %s %d; another run's --irq-prio, or another program): this run did not measure at priority %d all along",
			    t->irq_prio, t->intr.tname, (int)t->intr.thread,
			    policy_name(t->policy_now), t->prio_now,
			    t->irq_prio);
	/* a run that served nothing measured nothing: said, not passed over
	 * (a wiring mistake is not a quiet run); and a sender that missed
	 * many periods sent fewer stimuli than asked */
	if (t->mode != MODE_RESPOND && t->sent == 1 && !t->tr.served)
		engine_warn(r, "the one event sent was not served: %s",
			    t->is_serial ? "are TX and RX wired to each other (null-modem cable, or a TX-RX loop)?" :
			    t->is_gpio ? "is the output line wired to the input line?" :
			    t->mode == MODE_HOST ? "is rtlat irq --respond running there, on this port?" :
			    "no answer came back");
	else if (t->mode != MODE_RESPOND && t->sent && !t->tr.served)
		engine_warn(r, "none of the %llu events sent was served: %s",
			    (unsigned long long)t->sent,
			    t->is_serial ? "are TX and RX wired to each other (null-modem cable, or a TX-RX loop)?" :
			    t->is_gpio ? "is the output line wired to the input line?" :
			    t->mode == MODE_HOST ? "is rtlat irq --respond running there, on this port?" :
			    "no answer came back");
	if (t->mode != MODE_RESPOND && t->sender_missed &&
	    t->sender_missed * 100 >= t->sent + t->sender_missed) {
		uint64_t periods = t->sent + t->sender_missed;

		engine_warn(r, "the sender missed %llu of %llu period%s (%.1f %%): fewer stimuli than asked; a longer period or a higher priority helps",
			    (unsigned long long)t->sender_missed,
			    (unsigned long long)periods, periods == 1 ? "" : "s",
			    100.0 * (double)t->sender_missed / (double)periods);
	}
	/* a threshold cannot pass on nothing measured: an error (exit 1,
	 * as a --max-msw that cannot be checked) */
	if (r->o->max_latency_ns >= 0 && !t->tr.served && r->exit_code == 0) {
		char a[32];

		log_error("--max-latency %s us cannot be checked: no event was served in the measurement",
			  fmt_us3(a, r->o->max_latency_ns));
		r->exit_code = 1;
	}
	lost_verdict(r, t);
	for (i = 0; i < r->nnames; i++)
		xeno_summary_series(r, i);
	figures_lines(r, LINE_SUMMARY);		/* irq_lines */
	run_report_outcome(r);
}

/* --trace: the receiver's events, at the source's interrupt */
static int irq_event_trace(const struct run *r, int *irq, bool *first,
			   int *sampler, char *err, size_t len)
{
	const struct irq_test *t = r->priv;
	char why[256];

	if (t->mode == MODE_RESPOND) {
		snprintf(err, len, "--trace: irq --respond has no stimulus here (its sender is the other machine): trace the measuring side, rtlat irq --source net:HOST --trace");
		return -1;
	}
	*irq = t->intr.irq;
	/* only the event's interrupt on the line: a GPIO input; RX of two
	 * ports that do not share it (one port's loop interrupts for its
	 * TX too, a NIC for its transmit completions) */
	*first = t->is_gpio ||
		 (t->is_serial && !t->ser.loop &&
		  irq_serial_irq("", t->ser.tx, why, sizeof(why)) != *irq);
	*sampler = 0;		/* the receiver */
	return 0;
}

/* rtlat suite, before its runs: the source of --irq-source there and
 * usable, opened and closed as irq_setup() opens it, without measuring */
static int irq_check_source(void *priv, struct engine_opts *o, char *err,
			    size_t len)
{
	struct irq_test *t = priv;

	if (irq_configure(priv, o)) {
		snprintf(err, len, "not a source irq can use (said above)");
		return -1;
	}
	if (t->is_serial)
		return irq_serial_check(&t->ser, err, len);
	if (t->is_gpio) {
		if (irq_gpio_open(&t->gpio, err, len))
			return -1;
		irq_gpio_close(&t->gpio);
		return 0;
	}
	if (irq_net_open(&t->net, err, len))
		return -1;
	irq_net_close(&t->net);
	return 0;
}

/* rtlat suite: t2 - t0 and t2 - t1, lost, test-time */
static const struct suite_col irq_suite_cols[] = {
	{ "lat min", "latency", SUITE_MIN },
	{ "lat avg", "latency", SUITE_AVG },
	{ "lat max", "latency", SUITE_MAX },
	{ "k>t min", "kernel_to_task", SUITE_MIN },
	{ "k>t avg", "kernel_to_task", SUITE_AVG },
	{ "k>t max", "kernel_to_task", SUITE_MAX },
	{ NULL, "latency", SUITE_MISSES },
	{ "test-time", NULL, SUITE_TIME },
	{ NULL, NULL, SUITE_END },
};

static const struct output_ops irq_output = {
	.start = xeno_banner,
	.interval = xeno_interval_all,	/* --respond: also the intervals
					 * no stimulus came in */
	.columns = irq_columns,
	.summary = irq_summary,
};

static const char irq_about[] =
	"Measure interrupt latency: from a device's stimulus (t0) through the\n"
	"kernel's receive stamp (t1) to the real-time task that serves it\n"
	"(t2). Series: latency = t2-t0, kernel_to_task = t2-t1 (the interrupt\n"
	"thread or softirq and the scheduler), stimulus_to_kernel = t1-t0.\n"
	"A sender thread (priority PRIO-1) sends one event per period; the\n"
	"receiver (PRIO) serves it. Every event sent in the measurement is\n"
	"served or counted lost: sent = served + lost. The interrupt, its\n"
	"thread (PREEMPT_RT) and its affinity are shown and may be set for\n"
	"the run (--irq-prio, --irq-cpu; restored at the end, also when\n"
	"rtlat is killed). --source net needs root (network namespaces).\n"
	"--source serial has no stamp of its own: latency alone, whose t1\n"
	"(the RX interrupt) --trace finds; --trace splits the events of\n"
	"every source at the interrupt and the receiver's wake-up.\n"
	"Output: RTD lines, RTS summaries per series, in microseconds.\n"
	"Exit status: 0 ok, 1 error, 2 --max-latency exceeded, more events\n"
	"lost than --max-lost allows (with --max-latency: any) or --break hit.";

static const struct opt_help irq_help[] = {
	{ 'c', "one CPU (sender and receiver on it) or two: the sender on the\n"
	       "first, the receiver on the second (default: both on the first\n"
	       "CPU rtlat may use); --respond: the responder's CPU" },
	{ 'P', "real-time priority of the receiver (the task that serves the\n"
	       "interrupt); the sender runs at PRIO-1 (default 90)" },
	{ 'p', "period of the stimuli in us, or with a unit (default 1000)" },
	{ 0, NULL },
};

static const struct optdesc *const irq_opts[] = {
	/* no --clock: the kernel's stamps are on CLOCK_MONOTONIC */
	irq_opts_table, engine_period_opts, engine_common_opts, NULL,
};

const struct test_desc irq_test = {
	.name = "irq",
	.mode = "device stimulus served by a real-time task",
	.summary = "interrupt latency, from a device's stimulus to the RT task",
	.about = irq_about,
	.period_ns = 1000 * NSEC_PER_USEC,
	.prio = 90,
	.opts = irq_opts,
	.help = irq_help,
	.priv_size = sizeof(struct irq_test),
	.init = irq_init,
	.opt = irq_opt,
	.configure = irq_configure,
	.setup = irq_setup,
	.body = irq_body,
	.teardown = irq_teardown,
	.figures = irq_figures,
	.lines = irq_lines,
	.out = &irq_output,
	.event_trace = irq_event_trace,	/* --trace splits each event */
	/* in rtlat suite only with --irq-source (or irq-source = in a suite
	 * file) */
	.suite = &(const struct suite_spec){
		.title = "IRQ",
		.units = "latencies in us: lat = t2-t0 (stimulus to the task), k>t = t2-t1 (kernel stamp to the task)",
		.cols = irq_suite_cols,
		.miss_name = irq_miss,
		/* rtlat suite --irq-source SRC */
		.forward = "source",
		.forward_help = "run rtlat irq with --source SRC (net, net:HOST,\n"
				"serial:TX,RX, gpio:CHIP:OUT,IN); without it irq is not run",
		/* the source opened and closed before the first run */
		.check_forward = irq_check_source,
	},
};
