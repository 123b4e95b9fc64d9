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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#include "engine/guard.h"
#include "measure/irq.h"

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
	guard_init(&p->guard);
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

static void port_error(char *err, size_t len, const char *which,
		       const char *port, int e, long holder)
{
	if (e == EWOULDBLOCK && holder > 0)
		snprintf(err, len, "--source serial: %s port %s is busy (another rtlat run, PID %ld)",
			 which, port, holder);
	else if (e == EWOULDBLOCK)
		snprintf(err, len, "--source serial: %s port %s is busy (another rtlat run)",
			 which, port);
	else
		snprintf(err, len, "--source serial: %s port %s: %s", which,
			 port, open_why(e));
}

/* @path opened as a terminal, its settings into @old (nothing changed):
 * fd, or -errno. */
static int port_fd(const char *path, struct termios *old)
{
	int fd, e;

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
	return fd;
}

/*
 * The process that holds the flock() of the port open on @fd, from
 * /proc/locks ("1: FLOCK  ADVISORY  WRITE 1234 00:05:87 0 EOF"): its pid,
 * or 0 when not found.
 */
static long flock_holder(int fd)
{
	char line[256];
	struct stat st;
	long found = 0;
	FILE *f;

	if (fstat(fd, &st) || !(f = fopen("/proc/locks", "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long maj, min, ino;
		char *tok[6], *save = NULL, *t, *e;
		int n = 0;
		long pid;

		/* "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE ..."; a waiter's
		 * line has "->" after the number: not matched */
		for (t = strtok_r(line, " \t\n", &save); t && n < 6;
		     t = strtok_r(NULL, " \t\n", &save))
			tok[n++] = t;
		if (n < 6 || strcmp(tok[1], "FLOCK") != 0)
			continue;
		pid = strtol(tok[4], &e, 10);
		if (*e || pid <= 0)
			continue;
		maj = strtoull(tok[5], &e, 16);
		min = *e == ':' ? strtoull(e + 1, &e, 16) : 0;
		ino = *e == ':' ? strtoull(e + 1, &e, 10) : 0;
		if (!*e && ino == (unsigned long long)st.st_ino &&
		    makedev(maj, min) == st.st_dev)
			found = pid;
	}
	fclose(f);
	return found;
}

/* Open @path raw at @speed; its settings saved into @old. fd, or -errno:
 * -EWOULDBLOCK when another rtlat run holds it (its pid into *@holder,
 * 0 when not known). */
static int port_open(const char *path, speed_t speed, struct termios *old,
		     bool *saved, long *holder)
{
	struct termios tio;
	int fd, e;

	*saved = false;
	*holder = 0;
	fd = port_fd(path, old);
	if (fd < 0)
		return fd;
	/* another rtlat run on it, root's TIOCEXCL does not keep out: an
	 * exclusive lock of the port, held until it is closed (its guard,
	 * which inherits it, included), before anything is changed */
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = -errno;
		if (e == -EWOULDBLOCK)
			*holder = flock_holder(fd);
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
	close(fd);	/* drops the lock */
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

/* The guard's restore (engine/guard.h): in the forked child, which holds
 * the ports open. */
static void guard_restore(void *ctx)
{
	restore_all(ctx);
}

/* The guard: the ports and the pipe only stay open in it. */
static int serial_guard_start(struct irq_serial *p, char *err, size_t len)
{
	const int keep[2] = { p->rx_fd, p->tx_fd };
	int e = guard_start(&p->guard, guard_restore, p, keep, 2);

	if (e)
		snprintf(err, len, "serial: cannot start the guard that restores the ports' settings: %s",
			 strerror(-e));
	return e ? -1 : 0;
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

/* Neither port is a console of the kernel's: 0, or -1 with @err. */
static int consoles_check(const struct irq_serial *p, char *err, size_t len)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		const char *port = i ? p->tx : p->rx;

		if (irq_serial_is_console(port, "/proc/consoles")) {
			snprintf(err, len, "--source serial: %s port %s is a console of the kernel's (/proc/consoles): its stimulus bytes would go to the console; wire two other ports",
				 i ? "TX" : "RX", port);
			return -1;
		}
	}
	return 0;
}

int irq_serial_check(const struct irq_serial *p, char *err, size_t len)
{
	struct termios old;
	size_t i;
	int fd;

	if (consoles_check(p, err, len))
		return -1;
	for (i = 0; i < (p->loop ? 1u : 2u); i++) {
		const char *port = i ? p->tx : p->rx;

		fd = port_fd(port, &old);
		if (fd < 0) {
			port_error(err, len, i ? "TX" : "RX", port, -fd, 0);
			return -1;
		}
		close(fd);
	}
	return 0;
}

int irq_serial_open(struct irq_serial *p, char *err, size_t len)
{
	speed_t speed = B115200;
	struct stat st, rst;
	long holder;
	size_t i;
	int fd;

	if (consoles_check(p, err, len))
		return -1;
	for (i = 0; i < NRATES; i++)
		if (rates[i].baud == p->baud)
			speed = rates[i].speed;
	fd = port_open(p->rx, speed, &p->rx_old, &p->rx_saved, &holder);
	if (fd < 0) {
		port_error(err, len, "RX", p->rx, -fd, holder);
		return -1;
	}
	p->rx_fd = fd;
	/* TX named another way (a link): the same port, open once (its lock
	 * would refuse a second open of it) */
	if (!p->loop && stat(p->tx, &st) == 0 && S_ISCHR(st.st_mode) &&
	    fstat(fd, &rst) == 0 && st.st_rdev == rst.st_rdev)
		p->loop = true;
	if (p->loop) {
		p->tx_fd = fd;
	} else {
		fd = port_open(p->tx, speed, &p->tx_old, &p->tx_saved,
			       &holder);
		if (fd < 0) {
			port_error(err, len, "TX", p->tx, -fd, holder);
			irq_serial_close(p);
			return -1;
		}
		p->tx_fd = fd;
	}
	p->pty = is_pty(p->rx_fd) || is_pty(p->tx_fd);
	if (serial_guard_start(p, err, len)) {
		irq_serial_close(p);
		return -1;
	}
	return 0;
}

void irq_serial_close(struct irq_serial *p)
{
	restore_all(p);
	guard_end(&p->guard);
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

/* the tty as the user knows it: "/dev/ttyS5" -> "ttyS5", "/dev/pts/0" ->
 * "pts/0" */
static const char *tty_shown(const char *path)
{
	return strncmp(path, "/dev/", 5) ? tty_name(path) : path + 5;
}

int irq_serial_irq(const char *root, const char *path, char *why,
		   size_t len)
{
	char f[256], line[256], real[PATH_MAX];
	const char *name;
	FILE *fp;
	long irq = -1, line_no;
	char *end;

	/* a link to the port: the port's own name */
	if (!root[0] && realpath(path, real))
		path = real;
	name = tty_name(path);
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
	if (!strncmp(tty_shown(path), "pts/", 4) ||
	    !strcmp(tty_shown(path), "ptmx")) {
		snprintf(why, len, "%s is a pseudo-terminal: a pty has no interrupt (no device raises one: the tty layer hands the byte to the reader)",
			 tty_shown(path));
		return -1;
	}
	line_no = strncmp(name, "ttyS", 4) ? -1 : strtol(name + 4, &end, 10);
	if (line_no < 0 || end == name + 4 || *end) {
		snprintf(why, len, "%s has no interrupt in /sys/class/tty (not a UART; give --irq N)",
			 tty_shown(path));
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
		 tty_shown(path));
	return -1;
}
