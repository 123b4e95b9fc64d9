/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtlat irq: the parts of the interrupt-latency test behind small
 * interfaces of its own.
 *
 *  - irq_track (irq_track.c): event matching and accounting by sequence
 *    number: every event sent in the measurement is served or lost, a gap
 *    is lost events, a duplicate or a late arrival (after it was counted
 *    lost) is counted apart and never served twice.
 *  - irq_intr (irq_intr.c): the interrupt that serves a source, its
 *    interrupt thread (PREEMPT_RT, threadirqs) and its affinity, found in
 *    /proc; --irq-prio and --irq-cpu set them for the run, restored on
 *    every exit path (a guard process restores them if rtlat is killed).
 *  - irq_net (irq_net.c): the net source: UDP over a veth pair between two
 *    network namespaces rtlat creates (anonymous: they vanish with rtlat,
 *    even killed), or to a responder the user names (net:HOST);
 *    SO_TIMESTAMPING receive stamps.
 *  - irq_serial (irq_serial.c): the serial source: one byte written on a
 *    UART port, read on another (or the same: a TX-RX loop), both raw at
 *    a stated baud rate, their settings restored (a guard process
 *    restores them if rtlat is killed).
 */
#ifndef RTLAT_TESTS_IRQ_H
#define RTLAT_TESTS_IRQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <termios.h>

#include "engine/guard.h"

/* ---- event matching and accounting ----------------------------------- */

enum irq_ev {
	IRQ_EV_SERVED,		/* the next event (after *lost missing ones) */
	IRQ_EV_DUPLICATE,	/* an event already served */
	IRQ_EV_LATE,		/* an event already counted lost */
	IRQ_EV_BEFORE,		/* before the measurement (warm-up) */
	IRQ_EV_STRAY,		/* irq_track_exact(): not the event outstanding;
				 * or too old to tell */
};

/*
 * The events of a measurement are numbered from @first (the first event
 * sent in it) on: each is either served once or lost. @back remembers
 * which of the last IRQ_TRACK_BACK sequence numbers were served, to tell
 * a duplicate from a late event as far back as the sender's record of its
 * stimuli reaches; older than that, one above the last or below the first
 * counted lost was served (a duplicate), any other is too old to tell
 * (stray).
 */
#define IRQ_TRACK_AHEAD 4096	/* irq_track_exact(): events outstanding */
#define IRQ_TRACK_BACK 4096	/* events behind next whose fate is kept */

struct irq_track {
	uint64_t first;		/* first sequence number of the measurement */
	uint64_t next;		/* next expected */
	uint64_t served, lost, duplicate, late;
	/* bit s % IRQ_TRACK_BACK, for next - IRQ_TRACK_BACK <= s < next:
	 * s was served (0: lost, or before first) */
	uint64_t back[IRQ_TRACK_BACK / 64];
	uint64_t lost_lo, lost_hi;	/* the first and last lost ... */
	bool lost_seen;			/* ... when one was */
	/* irq_track_exact(): bit s % IRQ_TRACK_AHEAD, for next < s <
	 * next + IRQ_TRACK_AHEAD: s was served before next */
	uint64_t ahead[IRQ_TRACK_AHEAD / 64];
};

void irq_track_init(struct irq_track *t, uint64_t first);
/* An event numbered @seq arrived: what it is; for IRQ_EV_SERVED *@lost is
 * the number of events missing before it (counted lost). */
enum irq_ev irq_track_event(struct irq_track *t, uint64_t seq,
			    uint64_t *lost);
/* An answer naming event @seq, @genuine when it carries that event's own
 * stamps (the sender's record of it): served when it is an event
 * outstanding (next <= seq < next + IRQ_TRACK_AHEAD; the caller knows it
 * was sent), the events before it still outstanding (not lost by it: an
 * answer may overtake another); a genuine one of an event already
 * accounted is duplicate or late; any other (not genuine, or beyond)
 * is stray and changes nothing. Events are lost only by irq_track_end()
 * (their time out, or the end), which skips those served ahead. */
enum irq_ev irq_track_exact(struct irq_track *t, uint64_t seq, bool genuine);
/* An event whose record is gone (or never was): if @seq is one of the
 * measurement's already accounted (first <= seq < next), it is counted
 * duplicate or late and true is returned; false: none of them, or too old
 * to tell (stray). */
bool irq_track_old(struct irq_track *t, uint64_t seq);
/* The measurement ended with @last the last event sent (@last < first: none
 * was sent), or the events up to @last timed out: the events not seen are
 * lost; returns how many. */
uint64_t irq_track_end(struct irq_track *t, uint64_t last);

/* ---- the interrupt and its thread ------------------------------------ */

struct irq_intr {
	int irq;			/* -1: none */
	char name[96];			/* its actions in /proc/interrupts */
	char why[200];			/* how it was found, or why none */
	char affinity[64];		/* smp_affinity_list, "" unknown */
	char effective[64];		/* effective_affinity_list */
	/* its interrupt thread (irq/N-name), when it is threaded */
	pid_t thread;			/* 0: none */
	char tname[32];
	int policy, prio, cpu;
	/* what --irq-prio / --irq-cpu changed, to restore */
	bool prio_set, cpu_set;
	int old_policy, old_prio;
	char old_affinity[64];
	bool recorded;			/* in the interrupt's record (irq_intr.c) */
	unsigned long prio_seq;		/* its --irq-prio change's number there */
	pid_t owner;			/* the run that holds it there */
	struct guard guard;		/* restores if rtlat is killed */
};

/*
 * Describe interrupt @irq (>= 0) under @root ("" for the system; a fake
 * /proc tree in the unit tests): its name from ROOT/proc/interrupts, its
 * thread (ROOT/proc/PID/comm "irq/IRQ-...", policy, priority and CPU from
 * ROOT/proc/PID/stat) and affinity (ROOT/proc/irq/IRQ/). Returns 0, or
 * -1 with @err when there is no such interrupt.
 */
int irq_intr_describe(const char *root, int irq, struct irq_intr *in,
		      char *err, size_t len);
/* The first interrupt whose actions in ROOT/proc/interrupts contain
 * @pattern, or -1. */
int irq_intr_find(const char *root, const char *pattern);
/* The receive queue's interrupt of network device @dev (an interface,
 * "eth0", or its device, "virtio2") in ROOT/proc/interrupts: the first of
 * its interrupts named for receiving ("virtio2-input.0", "eth0-rx-0",
 * "eth0-TxRx-0"), else the first that is not its configuration interrupt
 * ("virtio2-config"), else -1. */
int irq_intr_find_queue(const char *root, const char *dev);
/* After --irq-cpu: the effective affinity is not (yet) within the new one
 * (the kernel moves some interrupts only when they next arrive). */
bool irq_intr_move_pending(const struct irq_intr *in);
/* --irq-prio: run the thread at SCHED_FIFO @prio; --irq-cpu: the
 * interrupt's affinity @cpus ("1", "0-1"). Each saves what it changes.
 * 0, or -1 with @err. */
int irq_intr_set_prio(struct irq_intr *in, int prio, char *err, size_t len);
int irq_intr_set_cpu(struct irq_intr *in, const char *cpus, char *err,
		     size_t len);
/* After the changes: fork the guard that puts them back should rtlat be
 * killed (nothing when nothing changed). 0, or -1 with @err. */
int irq_intr_guard(struct irq_intr *in, char *err, size_t len);
/* After --irq-prio: was the thread's priority changed since (another
 * run's --irq-prio, even one put back meanwhile, or another program)? The
 * thread's policy and priority now into *@policy and *@prio. */
bool irq_intr_prio_changed(const struct irq_intr *in, int *policy,
			   int *prio);
/* Put back what was changed (idempotent); stops the guard. When another
 * run still holds a change of the interrupt, the setting of the latest
 * change still held is put back (irq_intr.c). */
void irq_intr_restore(struct irq_intr *in);

/* ---- the net source --------------------------------------------------- */

#define IRQ_NET_PORT 4770

/* What travels: a stimulus, and the responder's answer to it. */
struct irq_pkt {
	uint32_t magic;
	uint32_t flags;
	uint64_t seq;
	int64_t t0;		/* sender: the send, its CLOCK_MONOTONIC */
	int64_t deadline;	/* sender: the period's deadline */
	int64_t task_ns;	/* responder: its t2 - t1, or INT64_MIN */
	int64_t secret;		/* sender: its run's, chosen at random;
				 * the answer carries it back */
};

#define IRQ_PKT_MAGIC 0x72746c69u	/* "rtli" */
#define IRQ_PKT_REPLY 1u

struct irq_net {
	/* configuration */
	char host[128];		/* net:HOST, "" = the local veth pair */
	char bind[128];		/* --respond ADDR, "" = any */
	int port;
	bool respond;
	/* state */
	int tx, rx;		/* sockets (the same one for net:HOST) */
	int ns_fd[2];		/* the two namespaces, -1 */
	char ifname[32];	/* receiving interface, "" unknown */
	bool hw_stamps;		/* the interface can stamp in hardware */
	char stamps[400];	/* what the receive stamps are */
	int64_t offset_bound_ns;	/* the conversion's bound at set-up */
};

void irq_net_init(struct irq_net *n);
/* Set the source up: the namespaces, the veth pair and its addresses and
 * the sockets (local), or the socket to HOST, or the responder's. 0, or
 * -1 with @err naming the source. */
int irq_net_open(struct irq_net *n, char *err, size_t len);
void irq_net_close(struct irq_net *n);
/* Send @p (to the peer, or back to @to of @tolen for the responder).
 * 0 or -errno. */
int irq_net_send(struct irq_net *n, int fd, const struct irq_pkt *p,
		 const void *to, size_t tolen);
/*
 * Wait for a packet on @fd: 0 with @p, *@t1 (its kernel receive stamp
 * converted to CLOCK_MONOTONIC, INT64_MIN without one), *@t2 (the clock
 * read right after) and *@bound (the conversion's error bound, ns; -1
 * without a stamp), the sender's address in @from (of *@fromlen, may be
 * NULL); -EAGAIN after the receive timeout, -EINTR, or -errno.
 */
int irq_net_recv(int fd, struct irq_pkt *p, int64_t *t1, int64_t *t2,
		 int64_t *bound, void *from, size_t *fromlen);
/* The error bound of one CLOCK_REALTIME to CLOCK_MONOTONIC conversion
 * here, ns: the median of a few (half the two monotonic reads around the
 * realtime one). */
int64_t irq_net_offset_bound(void);
/* A receive timeout of @ns on @fd. */
int irq_net_timeout(int fd, int64_t ns);
/* The interrupt that serves the receiving interface into @in (none for
 * veth: softirq). */
void irq_net_intr(const struct irq_net *n, struct irq_intr *in);

/* ---- the gpio source --------------------------------------------------- */

struct gpio_v2_line_event;

/* How the gpio source reaches the kernel: the character device, or a fake
 * chip in the unit tests. Each returns as the system call does, with
 * -errno for errors. */
struct irq_gpio_chip {
	int (*open)(const char *path);			/* fd */
	int (*ioctl)(int fd, unsigned long req, void *arg);	/* 0 */
	ssize_t (*read)(int fd, void *buf, size_t n);	/* bytes */
	int (*poll)(int fd, int timeout_ms);		/* 1 ready, 0 */
	void (*close)(int fd);
};

extern const struct irq_gpio_chip irq_gpio_kernel;

struct irq_gpio {
	const struct irq_gpio_chip *chip;
	char name[64];			/* CHIP as written */
	char path[96];			/* /dev/gpiochipN */
	unsigned out, in;		/* line offsets */
	int chip_fd, out_fd, in_fd;
	int level;			/* the output's value */
	uint64_t other_line;		/* events of another line */
	uint64_t wrong_clock;		/* t1 not between t0 and t2 */
};

enum irq_gpio_verdict {
	IRQ_GPIO_OK,		/* event *seq, t1 between t0 and t2 */
	IRQ_GPIO_OTHER_LINE,	/* not the input line's: ignored */
	IRQ_GPIO_CLOCK,		/* its timestamp is not on the test's clock
				 * (not between t0 and t2): refused */
	IRQ_GPIO_UNKNOWN,	/* t0 of *seq is not known (any more) */
};

void irq_gpio_init(struct irq_gpio *g, const struct irq_gpio_chip *chip);
/* "CHIP:OUT,IN" (CHIP: gpiochip0, 0 or a path). 0, or -1 with @err. */
int irq_gpio_parse(struct irq_gpio *g, const char *spec, char *err,
		   size_t len);
/* Open the chip, request OUT as an output and IN for both edges; the
 * events must be on CLOCK_MONOTONIC. 0, or -1 with @err naming the
 * source and why (no such chip or line, busy, permission). */
int irq_gpio_open(struct irq_gpio *g, char *err, size_t len);
void irq_gpio_close(struct irq_gpio *g);
/* Toggle the output: one edge on the input. 0 or -errno. */
int irq_gpio_stimulus(struct irq_gpio *g);
/* Wait up to @timeout_ms for the input's next edge event: 0 with @ev,
 * -EAGAIN after the timeout, -EINTR, or -errno. */
int irq_gpio_wait(struct irq_gpio *g, struct gpio_v2_line_event *ev,
		  int timeout_ms);
/* Match @ev: its stimulus number *@seq (its line_seqno: stimulus k is
 * edge k), checked against t0 of that stimulus (@t0, INT64_MIN unknown)
 * and the wake-up @t2. */
enum irq_gpio_verdict irq_gpio_match(struct irq_gpio *g,
				     const struct gpio_v2_line_event *ev,
				     int64_t t0, int64_t t2, uint64_t *seq);

/* ---- the serial source ------------------------------------------------ */

#define IRQ_SERIAL_BAUD 115200

struct irq_serial {
	char tx[64], rx[64];		/* /dev/ttyS4 */
	bool loop;			/* TX == RX: one port's TX-RX loop */
	bool pty;			/* a pseudo-terminal: no line, no baud */
	int baud;
	int tx_fd, rx_fd;		/* the same fd for a loop */
	struct termios tx_old, rx_old;	/* the ports' settings before */
	bool tx_saved, rx_saved;
	struct guard guard;		/* restores if rtlat is killed */
	uint64_t stray;			/* bytes no stimulus sent */
};

void irq_serial_init(struct irq_serial *p);
/* "TX,RX" (names like ttyS4, or paths). 0, or -1 with @err. */
int irq_serial_parse(struct irq_serial *p, const char *spec, char *err,
		     size_t len);
/* Is @baud a rate the ports can be set to?; the rates, for a message. */
int irq_serial_baud_ok(int baud);
void irq_serial_rates(char *buf, size_t len);
/* One character's time on the line at @baud: 10 bits (start, 8 data,
 * stop) / baud, in ns. */
int64_t irq_serial_char_ns(int baud);
/* Is the port @path one of the kernel's consoles, as listed in @consoles
 * (/proc/consoles)? irq_serial_open() refuses those. */
bool irq_serial_is_console(const char *path, const char *consoles);

/* Open both ports raw (8N1, no flow control) at the baud rate, exclusive
 * (TIOCEXCL, and an flock() another rtlat run finds taken), their
 * settings saved and the guard started. 0, or -1 with @err naming the
 * port and why (no such port, no UART, busy, another rtlat run's,
 * permission, not a terminal). */
int irq_serial_open(struct irq_serial *p, char *err, size_t len);
/* The checks of irq_serial_open() without changing anything (rtlat
 * suite, before its runs): neither port a console, both there, terminals,
 * permitted. 0, or -1 with @err as irq_serial_open() says it. */
int irq_serial_check(const struct irq_serial *p, char *err, size_t len);
/* Put the settings back, stop the guard, close (idempotent). */
void irq_serial_close(struct irq_serial *p);
/* Write stimulus @seq: its low 8 bits, one byte. 0 or -errno. */
int irq_serial_stimulus(struct irq_serial *p, uint64_t seq);
/* Wait up to @timeout_ms for bytes on RX: how many were read into @buf,
 * -EAGAIN after the timeout, -EINTR, or -errno. */
ssize_t irq_serial_wait(struct irq_serial *p, unsigned char *buf, size_t n,
			int timeout_ms);
/* The stimulus number of byte @b: the first number >= @next (the next one
 * expected) whose low 8 bits are @b. A byte of an event already served or
 * lost is that number - 256 (the caller checks whether it was sent). */
uint64_t irq_serial_seq(unsigned char b, uint64_t next);
/*
 * Byte @b read at @t2, *@next the next stimulus expected (1 at first):
 * true with the stimulus *@seq it is (irq_serial_seq(), checked with
 * @sent: was that stimulus sent, at *@t0 <= @t2, in the period *@deadline?),
 * *@next moved past it; false for a stray byte (of no stimulus sent). A
 * duplicate or late byte is a stimulus already served or lost: the
 * caller's irq_track tells.
 */
bool irq_serial_match(unsigned char b, uint64_t *next, int64_t t2,
		      bool (*sent)(void *ctx, uint64_t seq, int64_t *t0,
				   int64_t *deadline),
		      void *ctx, uint64_t *seq, int64_t *t0, int64_t *deadline);
/* The interrupt of port @path (ROOT/sys/class/tty/NAME/irq, else
 * ROOT/proc/tty/driver/serial), or -1; how it was found, or why there is
 * none (a pseudo-terminal, /dev/pts/N, has none), into @why, the port
 * named as under /dev ("ttyS4", "pts/0"). */
int irq_serial_irq(const char *root, const char *path, char *why,
		   size_t len);

#endif
