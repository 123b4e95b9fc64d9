// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests: rtlat irq's gpio source (measure/irq_gpio.c) through a fake
 * GPIO chip: its requests and errors, the toggling output, and event
 * matching and accounting (with measure/irq_track.c) from recorded
 * sequences: seqno gaps lost, duplicated and late events, events of
 * another line, timestamps on another clock refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <linux/gpio.h>
#include <string.h>
#include <sys/types.h>

#include "measure/irq.h"

#define CHIP_FD 3
#define OUT_FD 10
#define IN_FD 11

static struct fake {
	int open_err;			/* open() fails with it */
	unsigned busy_line;		/* GET_LINE of it: -EBUSY */
	unsigned nlines;		/* lines 0 .. nlines - 1 */
	uint64_t info_flags;		/* GET_LINEINFO flags */
	uint64_t req_flags[2];		/* flags of the out and in requests */
	char consumer[2][32];
	int nreq;
	uint64_t values[16];		/* SET_VALUES bits, in order */
	int nvalues;
	struct gpio_v2_line_event ev[32];	/* what read() returns */
	int nev, next;
	int closed;
} fk;

static int f_open(const char *path)
{
	if (fk.open_err)
		return -fk.open_err;
	fk.nreq = 0;		/* a new chip fd: its requests */
	return strcmp(path, "/dev/gpiochip7") ? -ENOENT : CHIP_FD;
}

static int f_ioctl(int fd, unsigned long req, void *arg)
{
	if (fd == CHIP_FD && req == GPIO_V2_GET_LINE_IOCTL) {
		struct gpio_v2_line_request *r = arg;

		if (r->num_lines != 1 || r->offsets[0] >= fk.nlines)
			return -EINVAL;
		if (r->offsets[0] == fk.busy_line)
			return -EBUSY;
		fk.req_flags[fk.nreq] = r->config.flags;
		snprintf(fk.consumer[fk.nreq], 32, "%s", r->consumer);
		r->fd = fk.nreq++ ? IN_FD : OUT_FD;
		return 0;
	}
	if (fd == CHIP_FD && req == GPIO_V2_GET_LINEINFO_IOCTL) {
		struct gpio_v2_line_info *i = arg;

		i->flags = fk.info_flags | GPIO_V2_LINE_FLAG_USED;
		return 0;
	}
	if (fd == OUT_FD && req == GPIO_V2_LINE_SET_VALUES_IOCTL) {
		const struct gpio_v2_line_values *v = arg;

		assert_int_equal(v->mask, 1);
		fk.values[fk.nvalues++] = v->bits;
		return 0;
	}
	return -ENOTTY;
}

static ssize_t f_read(int fd, void *buf, size_t n)
{
	assert_int_equal(fd, IN_FD);
	assert_true(n >= sizeof(fk.ev[0]));
	if (fk.next >= fk.nev)
		return -EAGAIN;
	memcpy(buf, &fk.ev[fk.next++], sizeof(fk.ev[0]));
	return sizeof(fk.ev[0]);
}

static int f_poll(int fd, int timeout_ms)
{
	(void)timeout_ms;
	assert_int_equal(fd, IN_FD);
	return fk.next < fk.nev;
}

static void f_close(int fd)
{
	(void)fd;
	fk.closed++;
}

static const struct irq_gpio_chip fake_chip = {
	.open = f_open, .ioctl = f_ioctl, .read = f_read, .poll = f_poll,
	.close = f_close,
};

static int reset(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	fk.nlines = 32;
	fk.busy_line = 99;
	return 0;
}

static void open_ok(struct irq_gpio *g)
{
	char err[256];

	irq_gpio_init(g, &fake_chip);
	assert_int_equal(irq_gpio_parse(g, "7:17,27", err, sizeof(err)), 0);
	assert_int_equal(irq_gpio_open(g, err, sizeof(err)), 0);
}

static void test_parse(void **state)
{
	struct irq_gpio g;
	char err[256];

	(void)state;
	irq_gpio_init(&g, &fake_chip);
	assert_int_equal(irq_gpio_parse(&g, "gpiochip0:17,27", err, sizeof(err)), 0);
	assert_string_equal(g.path, "/dev/gpiochip0");
	assert_int_equal(g.out, 17);
	assert_int_equal(g.in, 27);
	assert_int_equal(irq_gpio_parse(&g, "3:1,2", err, sizeof(err)), 0);
	assert_string_equal(g.path, "/dev/gpiochip3");
	assert_int_equal(irq_gpio_parse(&g, "/dev/gpiochip1:1,2", err, sizeof(err)), 0);
	assert_string_equal(g.path, "/dev/gpiochip1");
	assert_int_equal(irq_gpio_parse(&g, "gpiochip0:17", err, sizeof(err)), -1);
	assert_int_equal(irq_gpio_parse(&g, "gpiochip0:4,4", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "two different line offsets"));
	assert_int_equal(irq_gpio_parse(&g, "17,27", err, sizeof(err)), -1);
	assert_int_equal(irq_gpio_parse(&g, "c:x,1", err, sizeof(err)), -1);
}

static void test_requests(void **state)
{
	struct irq_gpio g;

	(void)state;
	open_ok(&g);
	assert_int_equal(fk.nreq, 2);
	assert_true(fk.req_flags[0] & GPIO_V2_LINE_FLAG_OUTPUT);
	assert_true(fk.req_flags[1] & GPIO_V2_LINE_FLAG_INPUT);
	assert_true(fk.req_flags[1] & GPIO_V2_LINE_FLAG_EDGE_RISING);
	assert_true(fk.req_flags[1] & GPIO_V2_LINE_FLAG_EDGE_FALLING);
	/* the default event clock: CLOCK_MONOTONIC */
	assert_false(fk.req_flags[1] & (GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME |
					GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE));
	assert_string_equal(fk.consumer[1], "rtlat-irq-in");
	/* each stimulus toggles the output: one edge each */
	assert_int_equal(irq_gpio_stimulus(&g), 0);
	assert_int_equal(irq_gpio_stimulus(&g), 0);
	assert_int_equal(irq_gpio_stimulus(&g), 0);
	assert_int_equal(fk.nvalues, 3);
	assert_int_equal(fk.values[0], 1);
	assert_int_equal(fk.values[1], 0);
	assert_int_equal(fk.values[2], 1);
	irq_gpio_close(&g);
	assert_int_equal(fk.closed, 3);
}

static void test_errors_name_the_source(void **state)
{
	struct irq_gpio g;
	char err[256];

	(void)state;
	irq_gpio_init(&g, &fake_chip);
	assert_int_equal(irq_gpio_parse(&g, "gpiochip5:1,2", err, sizeof(err)), 0);
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gpio:gpiochip5:1,2: cannot open /dev/gpiochip5"));
	assert_non_null(strstr(err, "no such GPIO chip"));

	assert_int_equal(irq_gpio_parse(&g, "7:1,2", err, sizeof(err)), 0);
	fk.open_err = EACCES;
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "permission"));
	fk.open_err = 0;

	fk.busy_line = 2;
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot request line 2 of /dev/gpiochip7 as the in"));
	assert_non_null(strstr(err, "busy"));
	/* what was opened is closed again: chip and the out line */
	assert_int_equal(fk.closed, 2);

	assert_int_equal(irq_gpio_parse(&g, "7:1,40", err, sizeof(err)), 0);
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "no such line"));
}

static void test_other_clock_refused_at_open(void **state)
{
	struct irq_gpio g;
	char err[256];

	(void)state;
	fk.info_flags = GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME;
	irq_gpio_init(&g, &fake_chip);
	assert_int_equal(irq_gpio_parse(&g, "7:1,2", err, sizeof(err)), 0);
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not CLOCK_MONOTONIC"));
	fk.info_flags = GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE;
	assert_int_equal(irq_gpio_open(&g, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "hardware timestamp engine"));
}

static void ev(uint32_t offset, uint32_t line_seqno, uint64_t ts)
{
	struct gpio_v2_line_event *e = &fk.ev[fk.nev++];

	memset(e, 0, sizeof(*e));
	e->timestamp_ns = ts;
	e->offset = offset;
	e->line_seqno = line_seqno;
	e->seqno = line_seqno;
	e->id = line_seqno & 1 ? GPIO_V2_LINE_EVENT_RISING_EDGE :
				 GPIO_V2_LINE_EVENT_FALLING_EDGE;
}

/* stimulus k at t0 = k * 1000 us; the task has it at t0 + 50 us */
#define T0(k) ((int64_t)(k) * 1000000)
#define T2(k) (T0(k) + 50000)

static void test_recorded_sequence(void **state)
{
	struct irq_gpio g;
	struct irq_track tr;
	struct gpio_v2_line_event e;
	uint64_t seq, lost, served_ok = 0, refused = 0, lost_sum = 0;
	int n = 0;

	(void)state;
	open_ok(&g);
	/* 10 stimuli: 1 and 2 fine; 3 lost (gap); an event of line 5;
	 * 4 fine; 4 again (duplicate); 6 then 5 (5 late, after counted
	 * lost); 7 with a CLOCK_REALTIME-like stamp (refused, still
	 * served); 8 fine; 9 with a stamp before its stimulus (another
	 * clock behind ours: refused, still served); 10 never came */
	ev(27, 1, T0(1) + 10000);
	ev(27, 2, T0(2) + 12000);
	ev(5, 3, T0(3) + 1000);
	ev(27, 4, T0(4) + 9000);
	ev(27, 4, T0(4) + 9000);
	ev(27, 6, T0(6) + 8000);
	ev(27, 5, T0(5) + 8000);
	ev(27, 7, 1764590000000000000ull);
	ev(27, 8, T0(8) + 7000);
	ev(27, 9, 1000);
	irq_track_init(&tr, 1);
	while (irq_gpio_wait(&g, &e, 0) == 0) {
		int64_t t0 = T0(e.line_seqno), t2 = T2(e.line_seqno);
		enum irq_gpio_verdict v = irq_gpio_match(&g, &e, t0, t2, &seq);

		n++;
		if (v == IRQ_GPIO_OTHER_LINE || v == IRQ_GPIO_UNKNOWN)
			continue;
		if (irq_track_event(&tr, seq, &lost) != IRQ_EV_SERVED)
			continue;
		lost_sum += lost;
		if (v == IRQ_GPIO_OK) {
			int64_t t1 = (int64_t)e.timestamp_ns;

			assert_true(t1 >= t0 && t1 <= t2);
			served_ok++;
		} else {
			assert_int_equal(v, IRQ_GPIO_CLOCK);
			refused++;
		}
	}
	assert_int_equal(n, 10);
	assert_int_equal(irq_gpio_wait(&g, &e, 0), -EAGAIN);
	lost_sum += irq_track_end(&tr, 10);
	assert_int_equal(g.other_line, 1);
	assert_int_equal(g.wrong_clock, 2);
	assert_int_equal(tr.served, 7);		/* 1 2 4 6 7 8 9 */
	assert_int_equal(served_ok, 5);
	assert_int_equal(refused, 2);		/* 7 9 */
	assert_int_equal(tr.lost, 3);		/* 3 5 10 */
	assert_int_equal(lost_sum, tr.lost);
	assert_int_equal(tr.duplicate, 1);
	assert_int_equal(tr.late, 1);
	assert_int_equal(tr.served + tr.lost, 10);
	irq_gpio_close(&g);
}

static void test_unknown_t0(void **state)
{
	struct irq_gpio g;
	struct gpio_v2_line_event e = { .offset = 27, .line_seqno = 3 };
	uint64_t seq;

	(void)state;
	open_ok(&g);
	assert_int_equal(irq_gpio_match(&g, &e, INT64_MIN, 0, &seq),
			 IRQ_GPIO_UNKNOWN);
	assert_int_equal(seq, 3);
	assert_int_equal(g.wrong_clock, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_parse, reset),
		cmocka_unit_test_setup(test_requests, reset),
		cmocka_unit_test_setup(test_errors_name_the_source, reset),
		cmocka_unit_test_setup(test_other_clock_refused_at_open, reset),
		cmocka_unit_test_setup(test_recorded_sequence, reset),
		cmocka_unit_test_setup(test_unknown_t0, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
