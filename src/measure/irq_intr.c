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
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/cpulist.h"
#include "system/rtsetup.h"
#include "measure/irq.h"

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

/* ROOT/proc/interrupts opened, its header line read into @line: the
 * stream (its CPU count in @ncpu), or NULL. */
static FILE *intr_open(const char *root, char *line, size_t len, int *ncpu)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/interrupts", root);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(line, (int)len, f)) {
		fclose(f);
		return NULL;
	}
	*ncpu = intr_ncpu(line);
	return f;
}

/* Walk ROOT/proc/interrupts: @irq >= 0 its actions into @name (returns
 * 0 or -1); else the first whose line holds @pattern (returns it or -1). */
static int intr_scan(const char *root, int irq, const char *pattern,
		     char *name, size_t len)
{
	char line[1024], *rest;
	int ncpu, n, found = -1;
	FILE *f;

	f = intr_open(root, line, sizeof(line), &ncpu);
	if (!f)
		return -1;
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

	for (i = 0; i < sizeof(low) - 1 && s[i]; i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	low[i] = '\0';
	return strstr(low, "rx") || strstr(low, "input");
}

int irq_intr_find_queue(const char *root, const char *dev)
{
	char line[1024], act[256], *rest;
	const char *tail;
	int ncpu, n, rx = -1, other = -1;
	FILE *f;

	f = intr_open(root, line, sizeof(line), &ncpu);
	if (!f)
		return -1;
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

/*
 * Overlapping runs that change one interrupt: a record per interrupt,
 * IRQ_RECORD_DIR/irq-N, under an flock(), holds what was there before the
 * first of them changed it, the runs that hold a change (their pids) and
 * what each of them set, numbered in the order the changes were made
 * ("changes", the last number given). A run adds itself when it changes
 * something and, when it ends (or its guard, when it was killed), takes
 * itself and the dead out: the last one out puts the first one's saved
 * values back and removes the record; an earlier one puts back the
 * setting of the latest change still held (the one in force before its
 * own, when its own was the latest; else it is still in force and stays).
 * A record whose holders are all dead (the guard could not restore) keeps
 * its saved values: the next run restores them at its end. Without the
 * directory (not root), each run restores its own.
 */
#define IRQ_RECORD_DIR "/run/rtlat"
#define IRQ_RECORD_MAX 64

/* A run that holds a change, and what it set (seq: the change's number,
 * 0 none). */
struct irq_holder {
	pid_t pid;
	unsigned long prio_seq, cpu_seq;
	int policy, prio;
	char affinity[64];
};

struct irq_record {
	struct irq_holder holder[IRQ_RECORD_MAX];
	int nholders;
	unsigned long changes;		/* the last change's number */
	unsigned long last_prio;	/* the last priority change's */
	bool prio_saved, cpu_saved;
	pid_t thread;
	int policy, prio;
	char affinity[64];
};

/* The record of @irq opened and locked (created empty): fd, or -1. */
static int record_lock(int irq)
{
	char path[128];
	int fd;

	if (mkdir(IRQ_RECORD_DIR, 0755) < 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), IRQ_RECORD_DIR "/irq-%d", irq);
	for (;;) {
		struct stat a, b;

		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			return -1;
		while (flock(fd, LOCK_EX) < 0)
			if (errno != EINTR) {
				close(fd);
				return -1;
			}
		/* the last one out removed it meanwhile: the new one */
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			return fd;
		close(fd);
	}
}

/* @n decimal numbers of a record line into @v, *@rest after them: true
 * when all are there and the line ends or goes on with a blank. */
static bool record_nums(const char *p, long *v, int n, const char **rest)
{
	char *end;
	int i;

	for (i = 0; i < n; i++) {
		errno = 0;
		v[i] = strtol(p, &end, 10);
		if (end == p || errno || v[i] < 0 || v[i] > INT_MAX)
			return false;
		p = end;
	}
	if (rest)
		*rest = p;
	return *p == '\0' || (rest && *p == ' ');
}

/* "holder PID[ prio SEQ POLICY PRIO][ affinity SEQ LIST]" into @h */
static bool record_holder(const char *p, struct irq_holder *h)
{
	long v[3];

	memset(h, 0, sizeof(*h));
	if (!record_nums(p, v, 1, &p) || v[0] <= 0)
		return false;
	h->pid = (pid_t)v[0];
	if (!strncmp(p, " prio ", 6)) {
		if (!record_nums(p + 6, v, 3, &p) || !v[0])
			return false;
		h->prio_seq = (unsigned long)v[0];
		h->policy = (int)v[1];
		h->prio = (int)v[2];
	}
	if (!strncmp(p, " affinity ", 10)) {
		if (!record_nums(p + 10, v, 1, &p) || !v[0] || *p != ' ' ||
		    !p[1] || strchr(p + 1, ' '))
			return false;
		h->cpu_seq = (unsigned long)v[0];
		snprintf(h->affinity, sizeof(h->affinity), "%s", p + 1);
		p += strlen(p);
	}
	return *p == '\0';
}

/* Read the record of @fd, the dead holders left out. */
static void record_read(int fd, struct irq_record *rec)
{
	char buf[8192], *line, *save = NULL;
	ssize_t n;

	memset(rec, 0, sizeof(*rec));
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct irq_holder *h = &rec->holder[rec->nholders];
		long v[3];

		if (!strncmp(line, "holder ", 7) &&
		    rec->nholders < IRQ_RECORD_MAX &&
		    record_holder(line + 7, h) &&
		    (kill(h->pid, 0) == 0 || errno != ESRCH)) {
			rec->nholders++;
		} else if (!strncmp(line, "changes ", 8) &&
			   record_nums(line + 8, v, 1, NULL)) {
			rec->changes = (unsigned long)v[0];
		} else if (!strncmp(line, "last-prio ", 10) &&
			   record_nums(line + 10, v, 1, NULL)) {
			rec->last_prio = (unsigned long)v[0];
		} else if (!strncmp(line, "prio ", 5) &&
			   record_nums(line + 5, v, 3, NULL)) {
			rec->prio_saved = true;
			rec->thread = (pid_t)v[0];
			rec->policy = (int)v[1];
			rec->prio = (int)v[2];
		} else if (!strncmp(line, "affinity ", 9) && line[9]) {
			rec->cpu_saved = true;
			snprintf(rec->affinity, sizeof(rec->affinity), "%s",
				 line + 9);
		}
	}
}

static void record_write(int fd, const struct irq_record *rec)
{
	char buf[8192];
	size_t o = 0;
	int i;

	o += (size_t)snprintf(buf + o, sizeof(buf) - o,
			      "# rtlat irq: the interrupt before the runs that hold it changed it\n"
			      "changes %lu\nlast-prio %lu\n", rec->changes,
			      rec->last_prio);
	for (i = 0; i < rec->nholders && o < sizeof(buf); i++) {
		const struct irq_holder *h = &rec->holder[i];

		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "holder %d",
				      (int)h->pid);
		if (h->prio_seq && o < sizeof(buf))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o,
					      " prio %lu %d %d", h->prio_seq,
					      h->policy, h->prio);
		if (h->cpu_seq && o < sizeof(buf))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o,
					      " affinity %lu %s", h->cpu_seq,
					      h->affinity);
		if (o < sizeof(buf))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\n");
	}
	if (rec->prio_saved && o < sizeof(buf))
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "prio %d %d %d\n", (int)rec->thread,
				      rec->policy, rec->prio);
	if (rec->cpu_saved && o < sizeof(buf))
		o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				      "affinity %s\n", rec->affinity);
	if (o > sizeof(buf))
		o = sizeof(buf);
	/* a record that cannot be written is found empty by the next run,
	 * which then saves what it finds */
	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, o, 0) != (ssize_t)o)
		(void)!ftruncate(fd, 0);
}

static void record_unlock(int fd)
{
	close(fd);	/* drops the lock */
}

/* A change of @irq failed: its record, locked by @fd and read into @rec,
 * unlocked, and removed when nothing is in it (record_lock() created it
 * for this run, or it holds only dead runs with nothing left to restore),
 * so that nothing of the run stays behind. */
static void record_drop(int fd, int irq, const struct irq_record *rec)
{
	char path[128];

	if (!rec->nholders && !rec->prio_saved && !rec->cpu_saved) {
		snprintf(path, sizeof(path), IRQ_RECORD_DIR "/irq-%d", irq);
		unlink(path);	/* as restore_now(): under the lock */
	}
	record_unlock(fd);
}

/* @pid holds a change of the record: its entry (NULL: no room) */
static struct irq_holder *record_hold(struct irq_record *rec, pid_t pid)
{
	struct irq_holder *h;
	int i;

	for (i = 0; i < rec->nholders; i++)
		if (rec->holder[i].pid == pid)
			return &rec->holder[i];
	if (rec->nholders == IRQ_RECORD_MAX)
		return NULL;
	h = &rec->holder[rec->nholders++];
	memset(h, 0, sizeof(*h));
	h->pid = pid;
	return h;
}

/* The holder of the latest priority (@cpu: affinity) change, or NULL. */
static const struct irq_holder *record_in_force(const struct irq_record *rec,
						bool cpu)
{
	const struct irq_holder *best = NULL;
	unsigned long seq, bseq = 0;
	int i;

	for (i = 0; i < rec->nholders; i++) {
		seq = cpu ? rec->holder[i].cpu_seq : rec->holder[i].prio_seq;
		if (seq > bseq) {
			bseq = seq;
			best = &rec->holder[i];
		}
	}
	return best;
}

static void put_prio(pid_t thread, int policy, int prio)
{
	struct sched_param sp = { .sched_priority = prio };

	sched_setscheduler(thread, policy, &sp);
}

static void put_affinity(int irq, const char *list)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
	write_str(path, list);
}

/* Another run still holds a change: the settings of the latest changes
 * still held are put back (the first run's saved values where none of
 * them changed that setting, which then no longer needs saving). */
static void restore_in_force(struct irq_intr *in, struct irq_record *rec)
{
	const struct irq_holder *h;

	if (in->prio_set) {
		h = record_in_force(rec, false);
		if (h)
			put_prio(rec->prio_saved ? rec->thread : in->thread,
				 h->policy, h->prio);
		else if (rec->prio_saved)
			put_prio(rec->thread, rec->policy, rec->prio);
		else
			put_prio(in->thread, in->old_policy, in->old_prio);
		if (!h)
			rec->prio_saved = false;
	}
	if (in->cpu_set) {
		h = record_in_force(rec, true);
		if (h)
			put_affinity(in->irq, h->affinity);
		else if (rec->cpu_saved)
			put_affinity(in->irq, rec->affinity);
		else
			put_affinity(in->irq, in->old_affinity);
		if (!h)
			rec->cpu_saved = false;
	}
}

static void restore_now(struct irq_intr *in)
{
	struct irq_record rec;
	char path[128];
	int fd, i;

	if (!in->prio_set && !in->cpu_set)
		return;
	fd = in->recorded ? record_lock(in->irq) : -1;
	if (fd < 0) {
		/* no record: what this run changed */
		if (in->prio_set)
			put_prio(in->thread, in->old_policy, in->old_prio);
		if (in->cpu_set)
			put_affinity(in->irq, in->old_affinity);
		in->prio_set = in->cpu_set = false;
		return;
	}
	record_read(fd, &rec);
	for (i = 0; i < rec.nholders; i++)
		if (rec.holder[i].pid == in->owner) {
			rec.holder[i] = rec.holder[--rec.nholders];
			break;
		}
	if (rec.nholders) {
		/* another run still holds it */
		restore_in_force(in, &rec);
		record_write(fd, &rec);
	} else {
		if (rec.prio_saved)
			put_prio(rec.thread, rec.policy, rec.prio);
		if (rec.cpu_saved)
			put_affinity(in->irq, rec.affinity);
		if (!rec.prio_saved && in->prio_set)
			put_prio(in->thread, in->old_policy, in->old_prio);
		if (!rec.cpu_saved && in->cpu_set)
			put_affinity(in->irq, in->old_affinity);
		snprintf(path, sizeof(path), IRQ_RECORD_DIR "/irq-%d", in->irq);
		/* a run waiting for the lock on it meanwhile sees it gone
		 * and opens a new one (record_lock()) */
		unlink(path);
	}
	record_unlock(fd);
	in->prio_set = in->cpu_set = false;
}

/* The guard's restore (engine/guard.h), in its forked child: what this run
 * changed, from the record, as restore_now() does at the end of a run. */
static void guard_restore(void *ctx)
{
	restore_now(ctx);
}

/*
 * The guard (engine/guard.h): a child in a session of its own that puts the
 * interrupt's priority and affinity back should rtlat be killed, SIGKILL
 * and a kill of its process group included. No descriptor stays open in it
 * (the namespaces and sockets die with rtlat, not with it).
 */
int irq_intr_guard(struct irq_intr *in, char *err, size_t len)
{
	int e;

	if (in->guard.pid > 0 || (!in->prio_set && !in->cpu_set))
		return 0;
	e = guard_start(&in->guard, guard_restore, in, NULL, 0);
	if (e < 0) {
		snprintf(err, len, "cannot start the guard that restores IRQ %d: %s",
			 in->irq, strerror(-e));
		return -1;
	}
	return 0;
}

int irq_intr_set_prio(struct irq_intr *in, int prio, char *err, size_t len)
{
	struct sched_param sp = { .sched_priority = prio };
	struct irq_record rec;
	struct irq_holder *h;
	int fd, e;

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
	fd = record_lock(in->irq);
	if (fd >= 0)
		record_read(fd, &rec);
	if (sched_setscheduler(in->thread, SCHED_FIFO, &sp) < 0) {
		e = errno;
		if (fd >= 0)
			record_drop(fd, in->irq, &rec);
		snprintf(err, len, "--irq-prio %d: cannot set the priority of %s (pid %d): %s%s",
			 prio, in->tname, (int)in->thread, strerror(e),
			 e == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
		return -1;
	}
	if (fd >= 0) {
		/* the first run's values stay the ones to restore */
		if (!rec.prio_saved || rec.thread != in->thread) {
			rec.prio_saved = true;
			rec.thread = in->thread;
			rec.policy = in->old_policy;
			rec.prio = in->old_prio;
		}
		in->owner = getpid();
		h = record_hold(&rec, in->owner);
		if (h) {
			h->prio_seq = ++rec.changes;
			h->policy = SCHED_FIFO;
			h->prio = prio;
		}
		rec.last_prio = in->prio_seq = rec.changes;
		record_write(fd, &rec);
		record_unlock(fd);
		in->recorded = true;
	}
	in->prio_set = true;
	in->policy = SCHED_FIFO;
	in->prio = prio;
	return 0;
}

int irq_intr_set_cpu(struct irq_intr *in, const char *cpus, char *err,
		     size_t len)
{
	struct irq_record rec;
	struct irq_holder *h;
	char path[128];
	int fd, e;

	if (in->irq < 0) {
		snprintf(err, len, "--irq-cpu: no interrupt to set (%s)",
			 in->why);
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list",
		 in->irq);
	snprintf(in->old_affinity, sizeof(in->old_affinity), "%s",
		 in->affinity);
	fd = record_lock(in->irq);
	if (fd >= 0)
		record_read(fd, &rec);
	e = write_str(path, cpus);
	if (fd >= 0 && !e) {
		if (!rec.cpu_saved && in->old_affinity[0]) {
			rec.cpu_saved = true;
			snprintf(rec.affinity, sizeof(rec.affinity), "%s",
				 in->old_affinity);
		}
		in->owner = getpid();
		h = record_hold(&rec, in->owner);
		if (h) {
			h->cpu_seq = ++rec.changes;
			snprintf(h->affinity, sizeof(h->affinity), "%s", cpus);
		}
		record_write(fd, &rec);
		in->recorded = true;
	}
	if (fd >= 0 && e)
		record_drop(fd, in->irq, &rec);
	else if (fd >= 0)
		record_unlock(fd);
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
	/* the effective affinity now: the kernel may move the interrupt
	 * only when it next arrives (x86): the header says so */
	snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list",
		 in->irq);
	read_line(path, in->effective, sizeof(in->effective));
	return 0;
}

bool irq_intr_prio_changed(const struct irq_intr *in, int *policy, int *prio)
{
	struct irq_record rec;
	bool other = false;
	int fd, cpu;

	if (!in->prio_set)
		return false;
	if (in->recorded) {
		char path[128];

		/* read only: a record is never created here */
		snprintf(path, sizeof(path), IRQ_RECORD_DIR "/irq-%d", in->irq);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			while (flock(fd, LOCK_SH) < 0 && errno == EINTR)
				;
			record_read(fd, &rec);
			record_unlock(fd);
			other = rec.last_prio && rec.last_prio != in->prio_seq;
		}
	}
	if (thread_sched("", in->thread, &cpu, prio, policy))
		return other;
	return other || *policy != SCHED_FIFO || *prio != in->prio;
}

bool irq_intr_move_pending(const struct irq_intr *in)
{
	struct cpuset want, eff;
	char err[64];
	int c;

	if (!in->cpu_set || !in->effective[0] ||
	    cpulist_parse(in->affinity, &want, err, sizeof(err)) ||
	    cpulist_parse(in->effective, &eff, err, sizeof(err)))
		return false;
	for (c = cpuset_next(&eff, 0); c >= 0; c = cpuset_next(&eff, c + 1))
		if (!cpuset_isset(&want, c))
			return true;
	return false;
}

void irq_intr_restore(struct irq_intr *in)
{
	restore_now(in);
	guard_end(&in->guard);
}
