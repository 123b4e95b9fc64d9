// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtlat irq: the interrupt that serves a source and its interrupt thread
 * (irq.h). Everything is read from /proc under a root directory, so that
 * the unit tests can describe a fake system; --irq-prio and --irq-cpu
 * change the real one and put it back: at the end of the run, after an
 * error or a signal by rtlat itself, and, should rtlat be killed, by a
 * guard process that waits on a pipe whose end rtlat holds.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/rtsetup.h"
#include "tests/irq.h"

/* The first line of @path into @buf without its newline; 0 or -errno. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int e = 0;

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		e = -EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return e;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int e = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		e = -errno;
	else if ((size_t)n != strlen(s))
		e = -EIO;
	close(fd);
	return e;
}

/*
 * A line of /proc/interrupts: "IRQ:" then one count per CPU, then the
 * chip, the hardware number and type, and the actions after two blanks.
 * Returns the irq (-1: not a numbered line); @rest points after the counts.
 */
static int intr_line(char *line, int ncpu, char **rest)
{
	char *p = line, *end;
	long irq;
	int i;

	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	irq = strtol(p, &end, 10);
	if (*end != ':')
		return -1;
	p = end + 1;
	for (i = 0; i < ncpu; i++) {
		while (*p == ' ')
			p++;
		if (!isdigit((unsigned char)*p))
			break;
		while (isdigit((unsigned char)*p))
			p++;
	}
	p[strcspn(p, "\n")] = '\0';
	*rest = p;
	return (int)irq;
}

/* Count the CPU columns of the header line. */
static int intr_ncpu(const char *hdr)
{
	int n = 0;
	const char *p = hdr;

	while ((p = strstr(p, "CPU"))) {
		n++;
		p += 3;
	}
	return n;
}

/* The actions of a line's rest: after the last run of two blanks. */
static void intr_actions(const char *rest, char *out, size_t len)
{
	const char *p = rest, *last = NULL, *q;

	while ((q = strstr(p, "  "))) {
		while (*q == ' ')
			q++;
		if (*q)
			last = q;
		p = q;
		if (!*q)
			break;
	}
	if (!last) {
		last = rest;
		while (*last == ' ')
			last++;
	}
	snprintf(out, len, "%s", last);
}

/* Walk ROOT/proc/interrupts: @irq >= 0 its actions into @name (returns
 * 0 or -1); else the first whose line holds @pattern (returns it or -1). */
static int intr_scan(const char *root, int irq, const char *pattern,
		     char *name, size_t len)
{
	char path[512], line[1024], *rest;
	int ncpu, n, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	ncpu = intr_ncpu(line);
	while (fgets(line, sizeof(line), f)) {
		n = intr_line(line, ncpu, &rest);
		if (n < 0)
			continue;
		if (irq >= 0 && n == irq) {
			intr_actions(rest, name, len);
			found = 0;
			break;
		}
		if (irq < 0 && pattern && strstr(rest, pattern)) {
			found = n;
			break;
		}
	}
	fclose(f);
	return found;
}

int irq_intr_find(const char *root, const char *pattern)
{
	char unused[8];

	return intr_scan(root, -1, pattern, unused, sizeof(unused));
}

/* Does @actions name device @dev ("virtio1" in "virtio1-input.0", not in
 * "virtio10-input.0")? The rest after it into *@rest. */
static bool names_dev(const char *actions, const char *dev, const char **rest)
{
	const char *p = actions;
	size_t n = strlen(dev);

	while (n && (p = strstr(p, dev))) {
		if ((p == actions || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n])) {
			*rest = p + n;
			return true;
		}
		p++;
	}
	return false;
}

/* "rx" or "input" in @s, any case: a receive queue's name. */
static bool names_rx(const char *s)
{
	char low[128];
	size_t i;

	for (i = 0; s[i] && i < sizeof(low) - 1; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	return strstr(low, "rx") || strstr(low, "input");
}

int irq_intr_find_queue(const char *root, const char *dev)
{
	char path[512], line[1024], act[256], *rest;
	const char *tail;
	int ncpu, n, rx = -1, other = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -1;
	}
	ncpu = intr_ncpu(line);
	while (rx < 0 && fgets(line, sizeof(line), f)) {
		n = intr_line(line, ncpu, &rest);
		if (n < 0)
			continue;
		intr_actions(rest, act, sizeof(act));
		if (!names_dev(act, dev, &tail))
			continue;
		if (names_rx(tail))
			rx = n;
		else if (other < 0 && !strstr(tail, "config"))
			other = n;
	}
	fclose(f);
	return rx >= 0 ? rx : other;
}

/* ROOT/proc/PID/stat: processor (field 39), rt_priority (40), policy (41). */
static int thread_sched(const char *root, pid_t pid, int *cpu, int *prio,
			int *policy)
{
	char path[512], buf[1024], *p;
	long v[42];
	int i;

	snprintf(path, sizeof(path), "%s/proc/%d/stat", root, (int)pid);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	for (i = 3; i <= 41; i++) {
		while (*p == ' ')
			p++;
		if (!*p)
			return -1;
		v[i] = strtol(p, &p, 10);	/* the state letter gives 0 */
		while (*p && *p != ' ')
			p++;
	}
	*cpu = (int)v[39];
	*prio = (int)v[40];
	*policy = (int)v[41];
	return 0;
}

/* The interrupt thread of @irq: the lowest pid whose comm is "irq/IRQ-...". */
static void intr_thread(const char *root, struct irq_intr *in)
{
	char path[512], comm[64], pre[24];
	struct dirent *d;
	DIR *dir;
	long best = -1;

	snprintf(path, sizeof(path), "%s/proc", root);
	snprintf(pre, sizeof(pre), "irq/%d-", in->irq);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0 || (best > 0 && pid > best))
			continue;
		snprintf(path, sizeof(path), "%s/proc/%ld/comm", root, pid);
		if (read_line(path, comm, sizeof(comm)) ||
		    strncmp(comm, pre, strlen(pre)) != 0 ||
		    /* irq/N-s-name: the secondary thread of a forced one */
		    !strncmp(comm + strlen(pre), "s-", 2))
			continue;
		best = pid;
		snprintf(in->tname, sizeof(in->tname), "%s", comm);
	}
	closedir(dir);
	if (best > 0 && !thread_sched(root, (pid_t)best, &in->cpu, &in->prio,
				      &in->policy))
		in->thread = (pid_t)best;
}

int irq_intr_describe(const char *root, int irq, struct irq_intr *in,
		      char *err, size_t len)
{
	char path[512];

	in->irq = irq;
	in->thread = 0;
	in->tname[0] = '\0';
	if (intr_scan(root, irq, NULL, in->name, sizeof(in->name)) < 0) {
		snprintf(err, len, "interrupt %d: not in %s/proc/interrupts",
			 irq, root);
		in->irq = -1;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/proc/irq/%d/smp_affinity_list",
		 root, irq);
	read_line(path, in->affinity, sizeof(in->affinity));
	snprintf(path, sizeof(path), "%s/proc/irq/%d/effective_affinity_list",
		 root, irq);
	read_line(path, in->effective, sizeof(in->effective));
	intr_thread(root, in);
	return 0;
}

void irq_intr_line(const struct irq_intr *in, char *buf, size_t len)
{
	size_t o;

	if (in->irq < 0) {
		snprintf(buf, len, "Interrupt: none: %s", in->why);
		return;
	}
	o = (size_t)snprintf(buf, len, "Interrupt: IRQ %d (%s)", in->irq,
			     in->name);
	if (o < len && in->thread)
		o += (size_t)snprintf(buf + o, len - o,
				      ", thread %s (pid %d) %s priority %d CPU %d",
				      in->tname, (int)in->thread,
				      policy_name(in->policy), in->prio,
				      in->cpu);
	else if (o < len)
		o += (size_t)snprintf(buf + o, len - o,
				      ", not threaded (handled in hard interrupt context)");
	if (o < len)
		o += (size_t)snprintf(buf + o, len - o, ", affinity %s",
				      in->affinity[0] ? in->affinity : "unknown");
	if (o < len && in->effective[0])
		o += (size_t)snprintf(buf + o, len - o, " (effective %s)",
				      in->effective);
	if (o < len && in->why[0])
		snprintf(buf + o, len - o, "; %s", in->why);
}

static void restore_now(struct irq_intr *in)
{
	char path[128];

	if (in->prio_set) {
		struct sched_param sp = { .sched_priority = in->old_prio };

		sched_setscheduler(in->thread, in->old_policy, &sp);
		in->prio_set = false;
	}
	if (in->cpu_set) {
		snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
			 in->irq);
		write_str(path, in->old_affinity);
		in->cpu_set = false;
	}
}

/*
 * The guard: a child that holds the read end of a pipe. rtlat writes one
 * byte once it restored everything itself; end of file without it (rtlat
 * was killed) makes the guard restore. It ignores the terminal's signals.
 */
int irq_intr_guard(struct irq_intr *in, char *err, size_t len)
{
	int p[2];
	pid_t pid;
	char c;
	ssize_t n;
	sigset_t all;

	if (in->guard > 0 || (!in->prio_set && !in->cpu_set))
		return 0;
	if (pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, len, "cannot create the guard's pipe: %s",
			 strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "cannot fork the guard that restores IRQ %d: %s",
			 in->irq, strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid == 0) {
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		if (p[0] != 3) {
			dup2(p[0], 3);
			close(p[0]);
		}
		/* the namespaces and sockets die with rtlat, not with us */
		for (int fd = 4; fd < 1024; fd++)
			close(fd);
		c = 0;
		do
			n = read(3, &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1 || c != 'r')
			restore_now(in);
		_exit(0);
	}
	close(p[0]);
	in->guard = pid;
	in->guard_fd = p[1];
	return 0;
}

int irq_intr_set_prio(struct irq_intr *in, int prio, char *err, size_t len)
{
	struct sched_param sp = { .sched_priority = prio };

	if (in->irq < 0) {
		snprintf(err, len, "--irq-prio: no interrupt to set (%s)",
			 in->why);
		return -1;
	}
	if (!in->thread) {
		snprintf(err, len, "--irq-prio: IRQ %d (%s) has no interrupt thread (not PREEMPT_RT, no threadirqs, or not threaded)",
			 in->irq, in->name);
		return -1;
	}
	in->old_policy = in->policy;
	in->old_prio = in->prio;
	if (sched_setscheduler(in->thread, SCHED_FIFO, &sp) < 0) {
		snprintf(err, len, "--irq-prio %d: cannot set the priority of %s (pid %d): %s%s",
			 prio, in->tname, (int)in->thread, strerror(errno),
			 errno == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
		return -1;
	}
	in->prio_set = true;
	in->policy = SCHED_FIFO;
	in->prio = prio;
	return 0;
}

int irq_intr_set_cpu(struct irq_intr *in, const char *cpus, char *err,
		     size_t len)
{
	char path[128];
	int e;

	if (in->irq < 0) {
		snprintf(err, len, "--irq-cpu: no interrupt to set (%s)",
			 in->why);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
		 in->irq);
	snprintf(in->old_affinity, sizeof(in->old_affinity), "%s",
		 in->affinity);
	e = write_str(path, cpus);
	if (e) {
		snprintf(err, len, "--irq-cpu %s: cannot set the affinity of IRQ %d (%s): %s%s",
			 cpus, in->irq, path, strerror(-e),
			 e == -EACCES || e == -EPERM ? " (needs root)" :
			 e == -EIO ? " (this interrupt's affinity is fixed)" :
			 "");
		return -1;
	}
	in->cpu_set = true;
	read_line(path, in->affinity, sizeof(in->affinity));
	return 0;
}

void irq_intr_restore(struct irq_intr *in)
{
	restore_now(in);
	if (in->guard > 0) {
		char c = 'r';

		if (write(in->guard_fd, &c, 1) < 0)
			c = 0;	/* the guard restores (again) at end of file */
		close(in->guard_fd);
		waitpid(in->guard, NULL, 0);
		in->guard = 0;
		in->guard_fd = -1;
	}
}
