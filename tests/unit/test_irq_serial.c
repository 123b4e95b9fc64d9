// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rtlat irq's serial source (measure/irq_serial.c) and the
 * split of its events at the kernel's trace events (trace/trace_irq.c):
 * bytes matched to stimuli from recorded sequences (in order, across the
 * 8-bit wrap, gaps lost, duplicates and late bytes never served twice,
 * stray bytes, a byte before its stimulus was sent), accounted through
 * irq_track (sent = served + lost); the port specification, the
 * character time, the interrupt from a fake /sys and /proc; and the
 * split: t1 the port's interrupt before the wake-up (the TX interrupt of a
 * loop before it is not t1), another interrupt ignored, events outside the
 * span ignored, no wake-up.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>
#include <string.h>
#include <unistd.h>

#include "scratch_tree.h"
#include "measure/irq.h"
#include "trace/trace_irq.h"

/* ---- byte matching ----------------------------------------------------- */

/* stimuli 1..sent_upto were sent, stimulus k at t0 = 1000 k */
struct fake_sent {
	uint64_t sent_upto;
};

static bool fake_sent(void *ctx, uint64_t seq, int64_t *t0, int64_t *dl)
{
	const struct fake_sent *f = ctx;

	if (seq == 0 || seq > f->sent_upto) {
		*t0 = *dl = INT64_MIN;
		return false;
	}
	*t0 = *dl = (int64_t)seq * 1000;
	return true;
}

struct outcome {
	uint64_t served, stray;
	struct irq_track tr;
};

/* Bytes @b[0..n) arrive (each at t2 = 1000 * sent_upto + 1), the
 * measurement's events being @first..@last; served + lost == sent. */
static void feed(struct outcome *o, const unsigned char *b, size_t n,
		 uint64_t sent_upto, uint64_t first, uint64_t last)
{
	struct fake_sent f = { sent_upto };
	uint64_t next = 1, seq, lost;
	int64_t t0, dl;
	size_t i;

	memset(o, 0, sizeof(*o));
	irq_track_init(&o->tr, first);
	for (i = 0; i < n; i++) {
		if (!irq_serial_match(b[i], &next, (int64_t)sent_upto * 1000 + 1,
				      fake_sent, &f, &seq, &t0, &dl)) {
			o->stray++;
			continue;
		}
		assert_int_equal(t0, (int64_t)seq * 1000);
		if (irq_track_event(&o->tr, seq, &lost) == IRQ_EV_SERVED)
			o->served++;
	}
	irq_track_end(&o->tr, last);
	assert_int_equal(o->tr.served, o->served);
	assert_int_equal(o->tr.served + o->tr.lost, last - first + 1);
}

static void test_bytes_in_order_across_the_wrap(void **state)
{
	unsigned char b[600];
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < 600; i++)
		b[i] = (unsigned char)(i + 1);	/* stimuli 1..600 */
	feed(&o, b, 600, 600, 1, 600);
	assert_int_equal(o.served, 600);
	assert_int_equal(o.tr.lost, 0);
	assert_int_equal(o.stray + o.tr.duplicate + o.tr.late, 0);
}

static void test_bytes_lost_duplicated_late(void **state)
{
	/* 1 2, 3 4 lost, 5, 5 again (duplicate), 3 after 5 (late),
	 * 6; 7 and 8 were sent and never came */
	static const unsigned char b[] = { 1, 2, 5, 5, 3, 6 };
	struct outcome o;

	(void)state;
	feed(&o, b, sizeof(b), 8, 1, 8);
	assert_int_equal(o.served, 4);
	assert_int_equal(o.tr.lost, 4);		/* 3, 4, 7, 8 */
	assert_int_equal(o.tr.duplicate, 1);
	assert_int_equal(o.tr.late, 1);
	assert_int_equal(o.stray, 0);
}

static void test_stray_bytes(void **state)
{
	/* 1 2 3 sent; 0x41 is no stimulus sent (65 not yet, 65 - 256 none),
	 * and neither is a byte for a stimulus not sent yet */
	static const unsigned char b[] = { 1, 0x41, 2, 4, 3 };
	struct outcome o;

	(void)state;
	feed(&o, b, sizeof(b), 3, 1, 3);
	assert_int_equal(o.served, 3);
	assert_int_equal(o.stray, 2);
	assert_int_equal(o.tr.lost, 0);
}

static void test_byte_far_behind_is_not_served_again(void **state)
{
	/* 300 events served; then the byte of event 45 (low byte 45 = 301
	 * mod 256 too): 301 not sent, so it is event 45 again */
	unsigned char b[301];
	struct outcome o;
	size_t i;

	(void)state;
	for (i = 0; i < 300; i++)
		b[i] = (unsigned char)(i + 1);
	b[300] = 45;
	feed(&o, b, 301, 300, 1, 300);
	assert_int_equal(o.served, 300);
	assert_int_equal(o.tr.duplicate + o.tr.late, 1);
	assert_int_equal(o.stray, 0);
}

static void test_warmup_bytes_before_the_measurement(void **state)
{
	/* 1..4 warm-up, measurement 5..6 */
	static const unsigned char b[] = { 1, 2, 3, 4, 5, 6 };
	struct outcome o;

	(void)state;
	feed(&o, b, sizeof(b), 6, 5, 6);
	assert_int_equal(o.served, 2);
	assert_int_equal(o.tr.lost, 0);
}

/* ---- the port ------------------------------------------------------------ */

static void test_parse(void **state)
{
	struct irq_serial p;
	char err[256];

	(void)state;
	irq_serial_init(&p);
	assert_int_equal(p.baud, IRQ_SERIAL_BAUD);
	assert_int_equal(irq_serial_parse(&p, "ttyS4,ttyS5", err, sizeof(err)), 0);
	assert_string_equal(p.tx, "/dev/ttyS4");
	assert_string_equal(p.rx, "/dev/ttyS5");
	assert_false(p.loop);
	assert_int_equal(irq_serial_parse(&p, "/dev/ttyAMA0,ttyAMA0", err,
					  sizeof(err)), 0);
	assert_true(p.loop);
	assert_int_equal(irq_serial_parse(&p, "ttyS4", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two ports"));
	assert_int_equal(irq_serial_parse(&p, "ttyS4,", err, sizeof(err)), -1);
	assert_int_equal(irq_serial_parse(&p, ",ttyS4", err, sizeof(err)), -1);
	assert_int_equal(irq_serial_parse(&p, "a,b,c", err, sizeof(err)), -1);
}

static void test_character_time(void **state)
{
	(void)state;
	/* 10 bits / 115200 baud = 86.805 us */
	assert_int_equal(irq_serial_char_ns(115200), 86805);
	assert_int_equal(irq_serial_char_ns(9600), 1041666);
	assert_true(irq_serial_baud_ok(115200));
	assert_false(irq_serial_baud_ok(115201));
}

static void test_interrupt_of_the_port(void **state)
{
	char root[] = "/tmp/rtlat-serial-XXXXXX", why[200];
	static const char tbl[] =
		"serinfo:1.0 driver revision:\n"
		"0: uart:16550A port:000003F8 irq:4 tx:24 rx:0\n"
		"5: uart:16550A port:0000C058 irq:10 tx:0 rx:0 CTS|DSR|CD\n";

	(void)state;
	assert_non_null(mkdtemp(root));
	scratch_put(root, "/sys/class/tty/ttyS4/irq", "11\n", 3);
	scratch_put(root, "/proc/tty/driver/serial", tbl, sizeof(tbl) - 1);
	assert_int_equal(irq_serial_irq(root, "/dev/ttyS4", why, sizeof(why)), 11);
	assert_non_null(strstr(why, "/sys/class/tty/ttyS4/irq"));
	/* no sysfs file: the driver's table */
	assert_int_equal(irq_serial_irq(root, "/dev/ttyS5", why, sizeof(why)), 10);
	assert_non_null(strstr(why, "/proc/tty/driver/serial"));
	assert_int_equal(irq_serial_irq(root, "/dev/ttyS7", why, sizeof(why)), -1);
	assert_null(strstr(why, "pts/"));
	assert_non_null(strstr(why, "ttyS7: no interrupt"));
	/* a pty: named as under /dev, said to have none, no --irq offered */
	assert_int_equal(irq_serial_irq(root, "/dev/pts/3", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "pts/3 is a pseudo-terminal: a pty has no interrupt"));
	assert_null(strstr(why, "--irq"));
	/* not a UART, not a pty: --irq names its interrupt */
	assert_int_equal(irq_serial_irq(root, "/dev/ttyUSB0", why, sizeof(why)), -1);
	assert_non_null(strstr(why, "ttyUSB0 has no interrupt"));
	assert_non_null(strstr(why, "give --irq N"));
	scratch_remove(root);
}

/* ---- the split at the kernel's events ------------------------------------ */

#define TID 777
#define IRQ 10
#define T0 INT64_C(1000000)
#define T2 INT64_C(1500000)

static struct tev ev(int64_t ts, int type, int a)
{
	struct tev e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.type = (uint8_t)type;
	if (type == TEV_IRQ)
		e.u.irq.irq = a;
	else if (type == TEV_WAKING)
		e.u.waking.pid = a;
	else if (type == TEV_SWITCH)
		e.u.sw.next_pid = a;
	return e;
}

static void split(const struct tev *e, size_t n, int irq, bool first,
		  struct ti_split *sp)
{
	trace_irq_split(e, n ? n : 1, 0, n, irq, first, TID, T0, T2, sp);
}

static void test_split_parts(void **state)
{
	const struct tev e[] = {
		ev(T0 - 50, TEV_IRQ, IRQ),	/* before t0: not this one */
		ev(T0 + 90000, TEV_IRQ, 11),	/* another interrupt */
		ev(T0 + 100000, TEV_IRQ, IRQ),
		ev(T0 + 130000, TEV_WAKING, 555),	/* another task */
		ev(T0 + 150000, TEV_SWITCH, TID),	/* before its wake-up */
		ev(T0 + 200000, TEV_WAKING, TID),
		ev(T0 + 250000, TEV_SWITCH, TID),
		ev(T0 + 260000, TEV_SWITCH, TID),	/* not the first */
		ev(T2 + 10, TEV_IRQ, IRQ),	/* after t2 */
	};
	struct ti_split sp;

	(void)state;
	split(e, sizeof(e) / sizeof(e[0]), IRQ, false, &sp);
	assert_int_equal(sp.t1, T0 + 100000);
	assert_int_equal(sp.tw, T0 + 200000);
	assert_int_equal(sp.ts, T0 + 250000);
	/* one interrupt of its own: the same either way */
	split(e, sizeof(e) / sizeof(e[0]), IRQ, true, &sp);
	assert_int_equal(sp.t1, T0 + 100000);
	assert_int_equal(sp.ts, T0 + 250000);
}

static void test_split_loop_tx_interrupt_first(void **state)
{
	/* one port's TX-RX loop: TX empty, then RX, then the wake-up; an
	 * RX interrupt after the wake-up is the next byte's */
	const struct tev e[] = {
		ev(T0 + 5000, TEV_IRQ, IRQ),
		ev(T0 + 90000, TEV_IRQ, IRQ),
		ev(T0 + 120000, TEV_WAKING, TID),
		ev(T0 + 130000, TEV_SWITCH, TID),
		ev(T0 + 140000, TEV_IRQ, IRQ),
	};
	struct ti_split sp;

	(void)state;
	split(e, 5, IRQ, false, &sp);
	assert_int_equal(sp.t1, T0 + 90000);
	assert_int_equal(sp.tw, T0 + 120000);
	assert_int_equal(sp.ts, T0 + 130000);
}

static void test_split_without_the_interrupt(void **state)
{
	/* bytes that came together: no interrupt of its own before the
	 * wake-up; and no interrupt known at all (veth) */
	const struct tev e[] = {
		ev(T0 + 1000, TEV_IRQ, 11),
		ev(T0 + 2000, TEV_WAKING, TID),
		ev(T0 + 3000, TEV_SWITCH, TID),
		ev(T0 + 4000, TEV_IRQ, IRQ),	/* after the wake-up */
	};
	struct ti_split sp;

	(void)state;
	split(e, 4, IRQ, false, &sp);
	assert_int_equal(sp.t1, INT64_MIN);
	assert_int_equal(sp.tw, T0 + 2000);
	split(e, 4, IRQ, true, &sp);	/* the first, but after the wake-up */
	assert_int_equal(sp.t1, INT64_MIN);
	assert_int_equal(sp.tw, T0 + 2000);
	split(e, 4, -1, false, &sp);
	assert_int_equal(sp.t1, INT64_MIN);
	assert_int_equal(sp.ts, T0 + 3000);
	split(e, 0, IRQ, false, &sp);
	assert_int_equal(sp.t1, INT64_MIN);
	assert_int_equal(sp.tw, INT64_MIN);
	assert_int_equal(sp.ts, INT64_MIN);
}

static void test_split_not_woken(void **state)
{
	/* the task was not asleep: only t1 (t2 - t1 known) */
	const struct tev e[] = {
		ev(T0 + 1000, TEV_IRQ, IRQ),
		ev(T0 + 3000, TEV_IRQ, IRQ),
		ev(T0 + 4000, TEV_SWITCH, TID),
	};
	struct ti_split sp;

	(void)state;
	split(e, 3, IRQ, false, &sp);
	assert_int_equal(sp.t1, T0 + 3000);
	assert_int_equal(sp.tw, INT64_MIN);
	assert_int_equal(sp.ts, INT64_MIN);
	split(e, 3, IRQ, true, &sp);
	assert_int_equal(sp.t1, T0 + 1000);
	assert_int_equal(sp.tw, INT64_MIN);
}

static void test_split_two_ports_stalled_thread(void **state)
{
	/* RX of two ports (the line carries only RX interrupts), its
	 * interrupt thread's CPU stalled 400 us: the byte's hard interrupt
	 * at once; the thread runs after the stall and the line, unmasked,
	 * interrupts again for the next bytes before the receiver's wake-up
	 * (seen in make check-rtvm: the stall was in t1 - t0, not t2 - t1) */
	const struct tev e[] = {
		ev(T0 + 5000, TEV_IRQ, IRQ),
		ev(T0 + 410000, TEV_IRQ, IRQ),
		ev(T0 + 412000, TEV_WAKING, TID),
		ev(T0 + 413000, TEV_SWITCH, TID),
	};
	struct ti_split sp;

	(void)state;
	split(e, 4, IRQ, true, &sp);
	assert_int_equal(sp.t1, T0 + 5000);
	assert_int_equal(sp.tw, T0 + 412000);
	assert_int_equal(sp.ts, T0 + 413000);
	split(e, 4, IRQ, false, &sp);	/* the loop's rule: the stall lost */
	assert_int_equal(sp.t1, T0 + 410000);
}

static void test_split_ring_wraps(void **state)
{
	/* a ring of 4 whose oldest entry is at index 2 */
	struct tev e[4];
	struct ti_split sp;

	(void)state;
	e[2] = ev(T0 + 10, TEV_IRQ, IRQ);
	e[3] = ev(T0 + 20, TEV_WAKING, TID);
	e[0] = ev(T0 + 30, TEV_SWITCH, TID);
	e[1] = ev(T0 + 40, TEV_IRQ, IRQ);
	trace_irq_split(e, 4, 2, 4, IRQ, false, TID, T0, T2, &sp);
	assert_int_equal(sp.t1, T0 + 10);
	assert_int_equal(sp.tw, T0 + 20);
	assert_int_equal(sp.ts, T0 + 30);
}

static void test_console_port(void **state)
{
	char root[] = "/tmp/rtlat-serial-XXXXXX", f[300];
	static const char cons[] =
		"tty0                 -WU (E  p  )    4:1\n"
		"ttyS0                -W- (EC p a)    4:64\n";

	(void)state;
	assert_non_null(mkdtemp(root));
	scratch_put(root, "/proc/consoles", cons, sizeof(cons) - 1);
	snprintf(f, sizeof(f), "%s/proc/consoles", root);
	assert_true(irq_serial_is_console("/dev/ttyS0", f));
	assert_true(irq_serial_is_console("ttyS0", f));
	assert_false(irq_serial_is_console("/dev/ttyS4", f));
	assert_false(irq_serial_is_console("/dev/ttyS00", f));
	/* no such file: nothing known to be a console */
	assert_false(irq_serial_is_console("/dev/ttyS0", "/nonexistent/consoles"));
	scratch_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes_in_order_across_the_wrap),
		cmocka_unit_test(test_bytes_lost_duplicated_late),
		cmocka_unit_test(test_stray_bytes),
		cmocka_unit_test(test_byte_far_behind_is_not_served_again),
		cmocka_unit_test(test_warmup_bytes_before_the_measurement),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_character_time),
		cmocka_unit_test(test_interrupt_of_the_port),
		cmocka_unit_test(test_console_port),
		cmocka_unit_test(test_split_parts),
		cmocka_unit_test(test_split_loop_tx_interrupt_first),
		cmocka_unit_test(test_split_without_the_interrupt),
		cmocka_unit_test(test_split_not_woken),
		cmocka_unit_test(test_split_two_ports_stalled_thread),
		cmocka_unit_test(test_split_ring_wraps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
