// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: the gpio source (irq.h). An output line wired to an input
 * line of one GPIO chip, through the character device's uAPI v2
 * (linux/gpio.h): the output is requested as an output, the input with
 * both edges and the default event clock (CLOCK_MONOTONIC); each stimulus
 * toggles the output, each toggle is one edge on the input, numbered by
 * the kernel (line_seqno, from 1 on): stimulus k is edge k. The event's
 * timestamp_ns, taken in the hard interrupt, is t1.
 *
 * The kernel is reached through struct irq_gpio_chip (open, ioctl, read,
 * poll, close), so that the unit tests can put a fake chip in its place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/gpio.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "measure/irq.h"

static int k_open(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static int k_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static ssize_t k_read(int fd, void *buf, size_t n)
{
	ssize_t r = read(fd, buf, n);

	return r < 0 ? -errno : r;
}

static int k_poll(int fd, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, timeout_ms);

	return r < 0 ? -errno : r;
}

static void k_close(int fd)
{
	close(fd);
}

const struct irq_gpio_chip irq_gpio_kernel = {
	.open = k_open, .ioctl = k_ioctl, .read = k_read, .poll = k_poll,
	.close = k_close,
};

void irq_gpio_init(struct irq_gpio *g, const struct irq_gpio_chip *chip)
{
	memset(g, 0, sizeof(*g));
	g->chip = chip;
	g->chip_fd = g->out_fd = g->in_fd = -1;
}

int irq_gpio_parse(struct irq_gpio *g, const char *spec, char *err,
		   size_t len)
{
	const char *colon = strrchr(spec, ':');
	char *end;
	unsigned long out, in;

	if (!colon || colon == spec) {
		snprintf(err, len, "expected gpio:CHIP:OUT,IN, e.g. gpio:gpiochip0:17,27");
		return -1;
	}
	out = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end != ',') {
		snprintf(err, len, "expected gpio:CHIP:OUT,IN (two line offsets)");
		return -1;
	}
	in = strtoul(end + 1, &end, 10);
	if (*end || out > UINT_MAX || in > UINT_MAX || out == in) {
		snprintf(err, len, "expected gpio:CHIP:OUT,IN (two different line offsets)");
		return -1;
	}
	snprintf(g->name, sizeof(g->name), "%.*s", (int)(colon - spec), spec);
	if (g->name[0] == '/')
		snprintf(g->path, sizeof(g->path), "%s", g->name);
	else if (g->name[strspn(g->name, "0123456789")] == '\0')
		snprintf(g->path, sizeof(g->path), "/dev/gpiochip%s", g->name);
	else
		snprintf(g->path, sizeof(g->path), "/dev/%s", g->name);
	g->out = (unsigned)out;
	g->in = (unsigned)in;
	return 0;
}

static const char *why(int e)
{
	return e == -EBUSY ? " (busy: the line is used by another consumer)" :
	       e == -EACCES || e == -EPERM ? " (permission: root, or the gpio group)" :
	       e == -ENOENT ? " (no such GPIO chip)" :
	       e == -EINVAL ? " (no such line on this chip, or it cannot do that)" :
	       e == -ENXIO ? " (the input line has no interrupt: edge events need one)" :
	       "";
}

static int request(struct irq_gpio *g, unsigned offset, uint64_t flags,
		   int *fd, const char *what, char *err, size_t len)
{
	struct gpio_v2_line_request req;
	int e;

	memset(&req, 0, sizeof(req));
	req.offsets[0] = offset;
	req.num_lines = 1;
	req.config.flags = flags;
	snprintf(req.consumer, sizeof(req.consumer), "rtlat-irq-%s", what);
	e = g->chip->ioctl(g->chip_fd, GPIO_V2_GET_LINE_IOCTL, &req);
	if (e) {
		snprintf(err, len, "gpio:%s:%u,%u: cannot request line %u of %s as the %s: %s%s",
			 g->name, g->out, g->in, offset, g->path, what,
			 strerror(-e), why(e));
		return -1;
	}
	*fd = req.fd;
	return 0;
}

int irq_gpio_open(struct irq_gpio *g, char *err, size_t len)
{
	struct gpio_v2_line_info info;
	int e;

	e = g->chip->open(g->path);
	if (e < 0) {
		snprintf(err, len, "gpio:%s:%u,%u: cannot open %s: %s%s", g->name,
			 g->out, g->in, g->path, strerror(-e), why(e));
		return -1;
	}
	g->chip_fd = e;
	if (request(g, g->out, GPIO_V2_LINE_FLAG_OUTPUT, &g->out_fd, "out",
		    err, len) ||
	    request(g, g->in, GPIO_V2_LINE_FLAG_INPUT |
		    GPIO_V2_LINE_FLAG_EDGE_RISING |
		    GPIO_V2_LINE_FLAG_EDGE_FALLING, &g->in_fd, "in", err, len))
		goto fail;
	/* the event clock must be CLOCK_MONOTONIC (the default) */
	memset(&info, 0, sizeof(info));
	info.offset = g->in;
	if (!g->chip->ioctl(g->chip_fd, GPIO_V2_GET_LINEINFO_IOCTL, &info) &&
	    (info.flags & (GPIO_V2_LINE_FLAG_EVENT_CLOCK_REALTIME |
			   GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE))) {
		snprintf(err, len, "gpio:%s:%u,%u: line %u stamps its events on %s, not CLOCK_MONOTONIC",
			 g->name, g->out, g->in, g->in,
			 info.flags & GPIO_V2_LINE_FLAG_EVENT_CLOCK_HTE ?
			 "a hardware timestamp engine" : "CLOCK_REALTIME");
		goto fail;
	}
	return 0;
fail:
	irq_gpio_close(g);
	return -1;
}

void irq_gpio_close(struct irq_gpio *g)
{
	if (g->in_fd >= 0)
		g->chip->close(g->in_fd);
	if (g->out_fd >= 0)
		g->chip->close(g->out_fd);
	if (g->chip_fd >= 0)
		g->chip->close(g->chip_fd);
	g->chip_fd = g->out_fd = g->in_fd = -1;
}

int irq_gpio_stimulus(struct irq_gpio *g)
{
	struct gpio_v2_line_values v = { .mask = 1 };

	g->level = !g->level;
	v.bits = (uint64_t)g->level;
	return g->chip->ioctl(g->out_fd, GPIO_V2_LINE_SET_VALUES_IOCTL, &v);
}

int irq_gpio_wait(struct irq_gpio *g, struct gpio_v2_line_event *ev,
		  int timeout_ms)
{
	ssize_t n;
	int e;

	e = g->chip->poll(g->in_fd, timeout_ms);
	if (e < 0)
		return e;
	if (e == 0)
		return -EAGAIN;
	n = g->chip->read(g->in_fd, ev, sizeof(*ev));
	if (n < 0)
		return (int)n;
	return n == (ssize_t)sizeof(*ev) ? 0 : -EIO;
}

enum irq_gpio_verdict irq_gpio_match(struct irq_gpio *g,
				     const struct gpio_v2_line_event *ev,
				     int64_t t0, int64_t t2, uint64_t *seq)
{
	int64_t t1 = (int64_t)ev->timestamp_ns;

	if (ev->offset != g->in) {
		g->other_line++;
		return IRQ_GPIO_OTHER_LINE;
	}
	*seq = ev->line_seqno;
	if (t0 == INT64_MIN)
		return IRQ_GPIO_UNKNOWN;
	if (t1 < t0 || t1 > t2) {
		g->wrong_clock++;
		return IRQ_GPIO_CLOCK;
	}
	return IRQ_GPIO_OK;
}
