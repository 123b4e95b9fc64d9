// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: the serial source (irq.h). Two UART ports wired to each other
 * (a null-modem cable, two header pins joined) or one port's TX wired to
 * its own RX: one byte written on TX is the stimulus, the receive
 * interrupt of RX serves it, the waiting task reads it. The ports run raw
 * at a stated baud rate; their settings are put back at the end, after an
 * error, on a signal and, should rtlat be killed, by a guard process that
 * holds the ports open.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "tests/irq.h"

static const struct {
	int baud;
	speed_t speed;
} rates[] = {
	{ 1200, B1200 }, { 2400, B2400 }, { 4800, B4800 }, { 9600, B9600 },
	{ 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
	{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
	{ 921600, B921600 }, { 1000000, B1000000 }, { 1500000, B1500000 },
	{ 2000000, B2000000 }, { 3000000, B3000000 }, { 4000000, B4000000 },
};
#define NRATES (sizeof(rates) / sizeof(rates[0]))

void irq_serial_init(struct irq_serial *p)
{
	memset(p, 0, sizeof(*p));
	p->baud = IRQ_SERIAL_BAUD;
	p->tx_fd = p->rx_fd = -1;
	p->guard_fd = -1;
}

int irq_serial_baud_ok(int baud)
{
	size_t i;

	for (i = 0; i < NRATES; i++)
		if (rates[i].baud == baud)
			return 1;
	return 0;
}

void irq_serial_rates(char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < NRATES && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%d", i ? " " : "",
				      rates[i].baud);
}

/* "ttyS4" -> "/dev/ttyS4"; a path stays as it is */
static int port_path(const char *s, size_t n, char *out, size_t len)
{
	if (!n || n >= len - 5)
		return -1;
	if (memchr(s, '/', n))
		snprintf(out, len, "%.*s", (int)n, s);
	else
		snprintf(out, len, "/dev/%.*s", (int)n, s);
	return 0;
}

int irq_serial_parse(struct irq_serial *p, const char *spec, char *err,
		     size_t len)
{
	const char *comma = strchr(spec, ',');

	if (!comma || strchr(comma + 1, ',')) {
		snprintf(err, len, "serial:TX,RX names two ports (e.g. serial:ttyS4,ttyS5, or serial:ttyS1,ttyS1 for one port's TX wired to its RX)");
		return -1;
	}
	if (port_path(spec, (size_t)(comma - spec), p->tx, sizeof(p->tx)) ||
	    port_path(comma + 1, strlen(comma + 1), p->rx, sizeof(p->rx))) {
		snprintf(err, len, "serial:TX,RX: a port name (ttyS4) or path (/dev/ttyS4) on each side of the comma");
		return -1;
	}
	p->loop = !strcmp(p->tx, p->rx);
	return 0;
}

int64_t irq_serial_char_ns(int baud)
{
	/* start bit, 8 data bits, stop bit */
	return baud > 0 ? 10 * 1000000000LL / baud : 0;
}

static const char *open_why(int e)
{
	switch (e) {
	case ENOENT:
	case ENODEV:
		return "no such port";
	case ENXIO:
	case EIO:
		return "no UART behind this port (its hardware is absent)";
	case EBUSY:
		return "busy (another program holds it exclusively)";
	case EACCES:
	case EPERM:
		return "permission denied (root, or a member of the port's group, e.g. dialout)";
	case ENOTTY:
		return "not a terminal (not a serial port)";
	}
	return strerror(e);
}

/* Open @path raw at @speed; its settings saved into @old. fd, or -errno. */
static int port_open(const char *path, speed_t speed, struct termios *old,
		     bool *saved)
{
	struct termios tio;
	int fd, e;

	*saved = false;
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!isatty(fd)) {
		close(fd);
		return -ENOTTY;
	}
	if (tcgetattr(fd, old) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	*saved = true;
	/* nobody else opens it while we measure (EBUSY for them) */
	if (ioctl(fd, TIOCEXCL) < 0 && errno != ENOTTY && errno != EINVAL) {
		e = -errno;
		goto fail;
	}
	tio = *old;
	cfmakeraw(&tio);
	tio.c_cflag |= CLOCAL | CREAD;
	tio.c_cflag &= ~(tcflag_t)(CRTSCTS | CSTOPB | PARENB);
	tio.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
	tio.c_cc[VMIN] = 1;
	tio.c_cc[VTIME] = 0;
	cfsetispeed(&tio, speed);
	cfsetospeed(&tio, speed);
	if (tcsetattr(fd, TCSANOW, &tio) < 0) {
		e = -errno;
		goto fail;
	}
	/* kept non-blocking: a full output buffer is a send error (the
	 * event lost), never a sender stuck in write() */
	tcflush(fd, TCIOFLUSH);
	return fd;
fail:
	tcsetattr(fd, TCSANOW, old);
	ioctl(fd, TIOCNXCL);
	*saved = false;
	close(fd);
	return e;
}

static void port_restore(int fd, const struct termios *old, bool *saved)
{
	if (fd < 0 || !*saved)
		return;
	tcsetattr(fd, TCSANOW, old);
	ioctl(fd, TIOCNXCL);
	*saved = false;
}

static void restore_all(struct irq_serial *p)
{
	port_restore(p->rx_fd, &p->rx_old, &p->rx_saved);
	if (!p->loop)
		port_restore(p->tx_fd, &p->tx_old, &p->tx_saved);
}

/*
 * The guard: a child holding the ports open and the read end of a pipe;
 * rtlat writes one byte once it has put the ports back itself, end of file
 * without it (rtlat was killed) makes the guard put them back.
 */
static int guard_start(struct irq_serial *p, char *err, size_t len)
{
	int pp[2];
	pid_t pid;
	sigset_t all;
	ssize_t n;
	char c;

	if (pipe2(pp, O_CLOEXEC) < 0) {
		snprintf(err, len, "serial: cannot create the guard's pipe: %s",
			 strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "serial: cannot fork the guard that restores the ports' settings: %s",
			 strerror(errno));
		close(pp[0]);
		close(pp[1]);
		return -1;
	}
	if (pid == 0) {
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		/* a session of its own: a kill of rtlat's process group
		 * (timeout -s KILL, a lab job's time-out) spares it */
		setsid();
		/* only the ports and the pipe: no output rtlat's reader
		 * waits for stays open here */
		for (int fd = 0; fd < 1024; fd++)
			if (fd != pp[0] && fd != p->rx_fd && fd != p->tx_fd)
				close(fd);
		c = 0;
		do
			n = read(pp[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || c != 'r')
			restore_all(p);
		_exit(0);
	}
	close(pp[0]);
	p->guard = pid;
	p->guard_fd = pp[1];
	return 0;
}

/*
 * Is @path a console of the kernel's (/proc/consoles: "ttyS0 -W- (EC p a)
 * 4:64")? Its stimulus bytes would be written into the console, and its
 * raw settings take the console's input. @consoles: that file's path.
 */
bool irq_serial_is_console(const char *path, const char *consoles)
{
	char real[PATH_MAX], line[256], name[64];
	const char *base;
	bool yes = false;
	FILE *f;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	base = strrchr(real, '/');
	base = base ? base + 1 : real;
	f = fopen(consoles, "re");
	if (!f)
		return false;
	while (!yes && fgets(line, sizeof(line), f))
		yes = sscanf(line, "%63s", name) == 1 && !strcmp(name, base);
	fclose(f);
	return yes;
}

/* A pseudo-terminal's slave (Unix98 pty majors 136-143): no UART, no line,
 * no baud rate. */
static bool is_pty(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) >= 136 && major(st.st_rdev) <= 143;
}

int irq_serial_open(struct irq_serial *p, char *err, size_t len)
{
	speed_t speed = B115200;
	size_t i;
	int fd;

	for (i = 0; i < 2; i++) {
		const char *port = i ? p->tx : p->rx;

		if (irq_serial_is_console(port, "/proc/consoles")) {
			snprintf(err, len, "--source serial: %s port %s is a console of the kernel's (/proc/consoles): its stimulus bytes would go to the console; wire two other ports",
				 i ? "TX" : "RX", port);
			return -1;
		}
	}

	for (i = 0; i < NRATES; i++)
		if (rates[i].baud == p->baud)
			speed = rates[i].speed;
	fd = port_open(p->rx, speed, &p->rx_old, &p->rx_saved);
	if (fd < 0) {
		snprintf(err, len, "--source serial: RX port %s: %s", p->rx,
			 open_why(-fd));
		return -1;
	}
	p->rx_fd = fd;
	if (p->loop) {
		p->tx_fd = fd;
	} else {
		fd = port_open(p->tx, speed, &p->tx_old, &p->tx_saved);
		if (fd < 0) {
			snprintf(err, len, "--source serial: TX port %s: %s",
				 p->tx, open_why(-fd));
			irq_serial_close(p);
			return -1;
		}
		p->tx_fd = fd;
	}
	p->pty = is_pty(p->rx_fd) || is_pty(p->tx_fd);
	if (guard_start(p, err, len)) {
		irq_serial_close(p);
		return -1;
	}
	return 0;
}

void irq_serial_close(struct irq_serial *p)
{
	restore_all(p);
	if (p->guard > 0) {
		char c = 'r';

		if (write(p->guard_fd, &c, 1) < 0)
			c = 0;	/* the guard restores (again) at end of file */
		close(p->guard_fd);
		waitpid(p->guard, NULL, 0);
		p->guard = 0;
		p->guard_fd = -1;
	}
	if (p->tx_fd >= 0 && p->tx_fd != p->rx_fd)
		close(p->tx_fd);
	if (p->rx_fd >= 0)
		close(p->rx_fd);
	p->tx_fd = p->rx_fd = -1;
}

int irq_serial_stimulus(struct irq_serial *p, uint64_t seq)
{
	unsigned char b = (unsigned char)seq;
	ssize_t n = write(p->tx_fd, &b, 1);

	if (n == 1)
		return 0;
	return n < 0 ? -errno : -EAGAIN;
}

ssize_t irq_serial_wait(struct irq_serial *p, unsigned char *buf, size_t n,
			int timeout_ms)
{
	struct pollfd pf = { .fd = p->rx_fd, .events = POLLIN };
	ssize_t r;
	int e;

	e = poll(&pf, 1, timeout_ms);
	if (e < 0)
		return -errno;
	if (e == 0)
		return -EAGAIN;
	if (pf.revents & (POLLERR | POLLNVAL))
		return -EIO;
	r = read(p->rx_fd, buf, n);
	if (r < 0)
		return -errno;
	return r ? r : -EAGAIN;
}

uint64_t irq_serial_seq(unsigned char b, uint64_t next)
{
	return next + (uint64_t)(unsigned char)(b - (unsigned char)next);
}

bool irq_serial_match(unsigned char b, uint64_t *next, int64_t t2,
		      bool (*sent)(void *ctx, uint64_t seq, int64_t *t0,
				   int64_t *deadline),
		      void *ctx, uint64_t *seq, int64_t *t0, int64_t *deadline)
{
	uint64_t c = irq_serial_seq(b, *next);

	if (!sent(ctx, c, t0, deadline) || *t0 > t2) {
		/* not sent (yet): a byte of the one 256 before, or stray */
		if (c <= 256)
			return false;
		c -= 256;
		if (!sent(ctx, c, t0, deadline) || *t0 > t2)
			return false;
	}
	if (c >= *next)
		*next = c + 1;
	*seq = c;
	return true;
}

/* the tty's name: "/dev/ttyS5" -> "ttyS5" */
static const char *tty_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int irq_serial_irq(const char *root, const char *path, char *why,
		   size_t len)
{
	const char *name = tty_name(path);
	char f[256], line[256];
	FILE *fp;
	long irq = -1, line_no;
	char *end;

	snprintf(f, sizeof(f), "%s/sys/class/tty/%s/irq", root, name);
	fp = fopen(f, "re");
	if (fp) {
		if (fgets(line, sizeof(line), fp))
			irq = strtol(line, NULL, 10);
		fclose(fp);
		if (irq > 0) {
			snprintf(why, len, "the receive interrupt of %s (%s)",
				 name, f + strlen(root));
			return (int)irq;
		}
	}
	/* the 8250 driver's table: "5: uart:16550A port:... irq:10 ..." */
	line_no = strncmp(name, "ttyS", 4) ? -1 : strtol(name + 4, &end, 10);
	if (line_no < 0 || end == name + 4 || *end) {
		snprintf(why, len, "%s has no interrupt in /sys/class/tty (not a UART: a pty has none; give --irq N)",
			 name);
		return -1;
	}
	snprintf(f, sizeof(f), "%s/proc/tty/driver/serial", root);
	fp = fopen(f, "re");
	while (fp && fgets(line, sizeof(line), fp)) {
		const char *q = strstr(line, " irq:");
		long l = strtol(line, &end, 10);

		if (end == line || *end != ':' || l != line_no || !q)
			continue;
		irq = strtol(q + 5, NULL, 10);
		break;
	}
	if (fp)
		fclose(fp);
	if (irq > 0) {
		snprintf(why, len, "the receive interrupt of %s (/proc/tty/driver/serial)",
			 name);
		return (int)irq;
	}
	snprintf(why, len, "%s: no interrupt in /sys/class/tty or /proc/tty/driver/serial (a polled port? give --irq N)",
		 name);
	return -1;
}
