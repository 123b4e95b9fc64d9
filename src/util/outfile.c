// SPDX-License-Identifier: GPL-2.0-or-later
/* Output files and standard output; see outfile.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"
#include "util/outfile.h"

/* statfs f_type of the kernel's own file systems (linux/magic.h) */
#define FS_PROC		0x9fa0
#define FS_SYSFS	0x62656572
#define FS_DEBUGFS	0x64626720
#define FS_TRACEFS	0x74726163
#define FS_CGROUP2	0x63677270

/* Descriptors rtlat was started with (outfile_init()): a /dev/fd/N output
 * must be one of them, never one rtlat opened itself. */
#define OUT_MAX_FD 1024
static unsigned char given_fds[OUT_MAX_FD / 8];
static bool given_known;

/* A SIGINT, SIGTERM or SIGHUP ended a wait: later waits give up at once. */
static volatile sig_atomic_t gave_up;

void outfile_init(void)
{
	int fd;

	for (fd = 0; fd < OUT_MAX_FD; fd++)
		if (fcntl(fd, F_GETFD) >= 0)
			given_fds[fd / 8] |= (unsigned char)(1u << (fd % 8));
	given_known = true;
}

static bool fd_given(int fd)
{
	if (!given_known)
		return fd >= 0 && fd <= 2;
	return fd >= 0 && fd < OUT_MAX_FD &&
	       (given_fds[fd / 8] & (1u << (fd % 8)));
}

/* ---------------------------------------------------------------------- */

enum out_kind {
	OUT_NEW,	/* no such file: created (temporary + rename) */
	OUT_REPLACE,	/* a regular file: replaced (temporary + rename) */
	OUT_FD,		/* rtlat's own descriptor: written on it */
	OUT_OPEN,	/* FIFO, device, another process's descriptor: opened */
};

struct out_target {
	enum out_kind kind;
	char real[PATH_MAX];	/* NEW, REPLACE: the path, no symlink in it;
				 * OPEN: what to open */
	struct stat st;		/* the file (not NEW) */
	int fd;			/* OUT_FD */
	/* in: a missing directory is one still to be made (its path taken
	 * as written, "." and ".." lexically), not an error */
	bool future;
};

static const char *kernel_fs(const char *dir)
{
	struct statfs s;

	if (statfs(dir, &s) < 0)
		return NULL;
	switch ((unsigned long)s.f_type) {
	case FS_PROC: return "proc";
	case FS_SYSFS: return "sysfs";
	case FS_DEBUGFS: return "debugfs";
	case FS_TRACEFS: return "tracefs";
	case FS_CGROUP2: return "cgroup2";
	default: return NULL;
	}
}

/* A "magic" link of /proc (/proc/PID/fd/N, .../cwd): the kernel follows it
 * to an open file, its text ("/x/y (deleted)", "pipe:[123]") is no path.
 * Plain links of /proc (self -> "123", mounts -> "self/mounts") are
 * relative. */
static bool magic_link(const char *dir, const char *text)
{
	const char *fs;

	if (text[0] != '/' && !strchr(text, ':'))
		return false;
	fs = kernel_fs(*dir ? dir : "/");
	return fs && !strcmp(fs, "proc");
}

/* The descriptor N of this process that @dir/@name (/proc/PID/fd/N,
 * /proc/PID/task/TID/fd/N) names, or -1. */
static int own_fd(const char *dir, const char *name)
{
	char *end;
	long pid, n;

	if (strncmp(dir, "/proc/", 6) != 0)
		return -1;
	pid = strtol(dir + 6, &end, 10);
	if (end == dir + 6 || pid != (long)getpid())
		return -1;
	if (!strncmp(end, "/task/", 6)) {
		const char *tid = end + 6;

		strtol(tid, &end, 10);
		if (end == tid)
			return -1;
	}
	if (strcmp(end, "/fd") != 0)
		return -1;
	n = strtol(name, &end, 10);
	if (end == name || *end || n < 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

/* The same file as descriptor @fd? */
static bool same_file(const struct stat *st, int fd)
{
	struct stat s;

	return fstat(fd, &s) == 0 && s.st_dev == st->st_dev &&
	       s.st_ino == st->st_ino;
}

/*
 * Resolve @path into @t: walk it a component at a time, following symlinks
 * (40 at most) as the kernel would, except /proc's magic links, which only
 * the kernel can follow. Returns 0 or -1 with a message.
 */
struct walk {
	char cur[PATH_MAX];	/* the directory reached, no symlink in it */
	char rest[PATH_MAX];	/* what remains to walk */
	char next[PATH_MAX];
	char cand[PATH_MAX];	/* cur/name */
	char text[PATH_MAX];	/* a link's text */
	char name[NAME_MAX + 1];
};

static int walk(const char *path, struct out_target *t, struct walk *wk,
		char *err, size_t errlen);

/* @path from its first missing directory on: @base (that directory, the
 * real path up to it) and the components @p still to walk, which no
 * symbolic link can be in yet: "." dropped, ".." taken lexically. A new
 * file, or -1 when it names a directory. */
static int future_rest(const char *path, struct out_target *t,
		       const char *base, const char *p, char *err,
		       size_t errlen)
{
	size_t n = (size_t)snprintf(t->real, sizeof(t->real), "%s", base);
	bool file = true;

	while (*(p += strspn(p, "/"))) {
		size_t len = strcspn(p, "/");
		char *slash;

		file = !(len == 1 && p[0] == '.') &&
		       !(len == 2 && p[0] == '.' && p[1] == '.');
		if (len == 2 && !file) {
			slash = strrchr(t->real, '/');
			if (slash)
				*slash = '\0';
			n = strlen(t->real);
		} else if (file) {
			if (n + 1 + len >= sizeof(t->real)) {
				snprintf(err, errlen, "%s: %s", path,
					 strerror(ENAMETOOLONG));
				return -1;
			}
			t->real[n++] = '/';
			memcpy(t->real + n, p, len);
			t->real[n += len] = '\0';
		}
		p += len;
		if (*p == '/' && !p[strspn(p, "/")])
			file = false;		/* "dir/": a directory */
	}
	if (!file) {
		snprintf(err, errlen, "%s is a directory", path);
		return -1;
	}
	t->kind = OUT_NEW;
	return 0;
}

static int out_resolve(const char *path, struct out_target *t, bool future,
		       char *err, size_t errlen)
{
	/* not on the stack: the display thread writes checkpoints */
	struct walk *wk = malloc(sizeof(*wk));
	int ret;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->future = future;
	if (!wk) {
		snprintf(err, errlen, "%s: out of memory", path ? path : "");
		return -1;
	}
	if (path && !strcmp(path, "-")) {
		/* "-": standard output, as /dev/stdout */
		free(wk);
		if (fstat(1, &t->st) < 0) {
			snprintf(err, errlen, "cannot write -: standard output: %s",
				 strerror(errno));
			return -1;
		}
		t->kind = OUT_FD;
		t->fd = 1;
		return 0;
	}
	ret = walk(path, t, wk, err, errlen);
	free(wk);
	return ret;
}

/* The last component of @path, @name in directory @cur (@cand), is a
 * magic link (/proc/self/fd/N and the like): only the kernel follows it.
 * Returns 0, or -1 with @err. */
static int magic_target(const char *path, struct out_target *t,
			const char *cur, const char *name, const char *cand,
			char *err, size_t errlen)
{
	if (stat(cand, &t->st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(t->st.st_mode)) {
		snprintf(err, errlen, "%s is a directory", path);
		return -1;
	}
	t->fd = own_fd(cur, name);
	if (t->fd >= 0 && !fd_given(t->fd)) {
		snprintf(err, errlen, "%s: descriptor %d was not given to rtlat",
			 path, t->fd);
		return -1;
	}
	t->kind = t->fd >= 0 ? OUT_FD : OUT_OPEN;
	snprintf(t->real, sizeof(t->real), "%s", cand);
	return 0;
}

/* @name in directory @cur (@cand) of @path cannot be lstat()ed (errno);
 * @p: the components after it, @last: it is the last, @dirpart: it must
 * be a directory. A new file is fine, and so is a directory that is not
 * there yet (t->future); anything else is -1 with @err. */
static int not_there(const char *path, struct out_target *t,
		     const char *cur, const char *name, const char *cand,
		     const char *p, bool last, bool dirpart, char *err,
		     size_t errlen)
{
	if (errno == ENOENT && last && own_fd(cur, name) >= 0) {
		snprintf(err, errlen, "%s: descriptor %s is not open",
			 path, name);
		return -1;
	}
	if (errno == ENOENT && last && !dirpart) {
		t->kind = OUT_NEW;
		snprintf(t->real, sizeof(t->real), "%s", cand);
		return 0;
	}
	if (errno == ENOENT && t->future && !last)
		return future_rest(path, t, cand, p, err, errlen);
	if (errno == ENOENT)
		snprintf(err, errlen, "%s: directory %s does not exist",
			 path, cand);
	else
		snprintf(err, errlen, "%s: %s: %s", path, cand,
			 strerror(errno));
	return -1;
}

static int walk(const char *path, struct out_target *t, struct walk *wk,
		char *err, size_t errlen)
{
	char *cur = wk->cur, *rest = wk->rest, *next = wk->next;
	char *cand = wk->cand, *text = wk->text, *name = wk->name;
	int hops = 0;

	t->fd = -1;
	if (!path || !*path) {
		snprintf(err, errlen, "empty file name");
		return -1;
	}
	if (path[0] != '/' && !getcwd(cur, PATH_MAX)) {
		snprintf(err, errlen, "%s: cannot find the current directory: %s",
			 path, strerror(errno));
		return -1;
	}
	if (path[0] == '/' || !strcmp(cur, "/"))
		cur[0] = '\0';		/* the root: "" + "/name" */
	if (strlen(path) >= PATH_MAX) {
		snprintf(err, errlen, "%.64s...: %s", path,
			 strerror(ENAMETOOLONG));
		return -1;
	}
	snprintf(rest, PATH_MAX, "%s", path);
	for (;;) {
		const char *p = rest + strspn(rest, "/");
		size_t len = strcspn(p, "/");
		bool last, dirpart;
		struct stat lst;
		ssize_t n;

		if (!len) {
			/* "/", "dir/", "dir/.": a directory */
			snprintf(err, errlen, "%s is a directory", path);
			return -1;
		}
		if (len > NAME_MAX) {
			snprintf(err, errlen, "%s: %s", path,
				 strerror(ENAMETOOLONG));
			return -1;
		}
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		dirpart = *p == '/';		/* "name/": must be a directory */
		last = p[strspn(p, "/")] == '\0';
		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			if (last) {
				snprintf(err, errlen, "%s is a directory", path);
				return -1;
			}
			if (name[1]) {		/* "..": cur has no symlink */
				char *slash = strrchr(cur, '/');

				if (slash)
					*slash = '\0';
			}
			memmove(rest, p, strlen(p) + 1);
			continue;
		}
		if ((size_t)snprintf(cand, PATH_MAX, "%s/%s", cur, name) >=
		    PATH_MAX) {
			snprintf(err, errlen, "%s: %s", path,
				 strerror(ENAMETOOLONG));
			return -1;
		}
		if (lstat(cand, &lst) < 0)
			return not_there(path, t, cur, name, cand, p, last,
					 dirpart, err, errlen);
		if (S_ISLNK(lst.st_mode)) {
			if (++hops > 40) {
				snprintf(err, errlen, "%s: %s", path,
					 strerror(ELOOP));
				return -1;
			}
			n = readlink(cand, text, PATH_MAX - 1);
			if (n < 0) {
				snprintf(err, errlen, "%s: cannot read the link %s: %s",
					 path, cand, strerror(errno));
				return -1;
			}
			text[n] = '\0';
			if (last && magic_link(cur, text))
				return magic_target(path, t, cur, name, cand,
						    err, errlen);
			if (text[0] == '/')
				cur[0] = '\0';
			if ((size_t)snprintf(next, PATH_MAX, "%s%s", text, p) >=
			    PATH_MAX) {
				snprintf(err, errlen, "%s: %s", path,
					 strerror(ENAMETOOLONG));
				return -1;
			}
			memcpy(rest, next, PATH_MAX);
			continue;
		}
		if (S_ISDIR(lst.st_mode)) {
			if (last) {
				snprintf(err, errlen, "%s is a directory", path);
				return -1;
			}
			memcpy(cur, cand, PATH_MAX);
			memmove(rest, p, strlen(p) + 1);
			continue;
		}
		if (!last || dirpart) {
			snprintf(err, errlen, "%s: %s is not a directory", path,
				 cand);
			return -1;
		}
		t->st = lst;
		t->kind = S_ISREG(lst.st_mode) ? OUT_REPLACE : OUT_OPEN;
		snprintf(t->real, sizeof(t->real), "%s", cand);
		return 0;
	}
}

/* Resolve @path and find out how it is written (@future: in directories
 * that may be still to be made). */
static int out_target_as(const char *path, struct out_target *t, bool future,
			 char *err, size_t errlen)
{
	int fd;

	if (out_resolve(path, t, future, err, errlen) < 0)
		return -1;
	if (t->kind == OUT_NEW || t->kind == OUT_FD)
		return 0;
	/* the file rtlat prints on: written after that text, never replaced */
	for (fd = 1; fd <= 2; fd++) {
		if (same_file(&t->st, fd)) {
			t->kind = OUT_FD;
			t->fd = fd;
			return 0;
		}
	}
	if (S_ISSOCK(t->st.st_mode)) {
		snprintf(err, errlen, "%s is a socket", path);
		return -1;
	}
	return 0;
}

static int out_target(const char *path, struct out_target *t, char *err,
		      size_t errlen)
{
	return out_target_as(path, t, false, err, errlen);
}

static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Why no file can be created in @dir: the kernel's file systems say ENOENT
 * or EACCES, which reads as if @dir were missing. */
static void create_error(char *err, size_t errlen, const char *path,
			 const char *dir, int e, bool replace)
{
	const char *fs = kernel_fs(dir);

	if (fs)
		snprintf(err, errlen, "cannot %s %s: %s is in the kernel's %s file system, where no file can be created",
			 replace ? "replace" : "create", path, dir, fs);
	else
		snprintf(err, errlen, "cannot write into directory '%s' of %s: %s",
			 dir, path, strerror(e));
}

bool output_is_special(const char *path)
{
	struct out_target t;
	char err[PATH_MAX + 64];

	if (out_target(path, &t, err, sizeof(err)) < 0)
		return false;
	return t.kind == OUT_FD || t.kind == OUT_OPEN;
}

bool output_same(const char *a, const char *b)
{
	struct out_target ta, tb;
	char err[PATH_MAX + 64];

	if (out_target_as(a, &ta, true, err, sizeof(err)) < 0 ||
	    out_target_as(b, &tb, true, err, sizeof(err)) < 0)
		return false;
	if (ta.kind == OUT_FD || tb.kind == OUT_FD)
		return false;	/* stdout/stderr: written one after the other */
	if ((ta.kind == OUT_NEW || ta.kind == OUT_REPLACE) &&
	    (tb.kind == OUT_NEW || tb.kind == OUT_REPLACE))
		return !strcmp(ta.real, tb.real);
	return ta.kind != OUT_NEW && tb.kind != OUT_NEW &&
	       ta.st.st_dev == tb.st.st_dev && ta.st.st_ino == tb.st.st_ino;
}

int output_planned_path(const char *path, char *real, size_t len,
			char *err, size_t errlen)
{
	struct out_target t;

	if (out_target_as(path, &t, true, err, errlen) < 0)
		return -1;
	if (t.kind != OUT_NEW && t.kind != OUT_REPLACE)
		return 1;
	snprintf(real, len, "%s", t.real);
	return 0;
}

/* The outputs claimed so far (output_claim()), copies. */
#define OUT_MAX_CLAIMS 64
static struct {
	char *what, *path;
} claims[OUT_MAX_CLAIMS];
static int nclaims;
static bool claim_refused;

bool output_claim_refused(void)
{
	return claim_refused;
}

void output_claims_reset(void)
{
	claim_refused = false;
	while (nclaims > 0) {
		nclaims--;
		free(claims[nclaims].what);
		free(claims[nclaims].path);
	}
}

int output_claim(const char *what, const char *path, char *err,
		 size_t errlen)
{
	int i;

	for (i = 0; i < nclaims; i++) {
		if (!output_same(claims[i].path, path))
			continue;
		snprintf(err, errlen, "%s '%s' and %s '%s' are the same file: one would overwrite the other",
			 claims[i].what, claims[i].path, what, path);
		claim_refused = true;
		return -1;
	}
	if (nclaims == OUT_MAX_CLAIMS)
		return 0;	/* more outputs than any command has */
	claims[nclaims].what = strdup(what);
	claims[nclaims].path = strdup(path);
	if (!claims[nclaims].what || !claims[nclaims].path) {
		free(claims[nclaims].what);
		free(claims[nclaims].path);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	nclaims++;
	return 0;
}

/* The PID in the name of an rtlat temporary file (".rtlat-PID-N.tmp",
 * ".rtlat-probe-PID"), or -1 for any other name. */
static int tmp_name_pid(const char *name)
{
	const char *p;
	char *end;
	long pid;

	if (!strncmp(name, ".rtlat-probe-", 13)) {
		p = name + 13;
		pid = strtol(p, &end, 10);
		return end != p && !*end && pid > 0 && pid <= INT_MAX ?
		       (int)pid : -1;
	}
	if (strncmp(name, ".rtlat-", 7) != 0)
		return -1;
	p = name + 7;
	pid = strtol(p, &end, 10);
	if (end == p || *end != '-' || pid <= 0 || pid > INT_MAX)
		return -1;
	p = end + 1;
	(void)strtoul(p, &end, 10);
	if (end == p || strcmp(end, ".tmp") != 0)
		return -1;
	return (int)pid;
}

/* No process holds a lock on @path (flock: the writer of a temporary
 * result file holds one until it is renamed or removed). */
static bool unlocked(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	bool free;

	if (fd < 0)
		return false;
	free = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return free;
}

/*
 * Remove from @dir the temporary files of rtlat processes that died while
 * writing (SIGKILL, power loss): ".rtlat-PID-N.tmp" and ".rtlat-probe-PID"
 * whose PID is no process any more, regular files of this user only.
 */
static void sweep_dead_tmp(const char *dir)
{
	char path[PATH_MAX + 300];
	struct dirent *d;
	struct stat st;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		int pid = tmp_name_pid(d->d_name);

		if (pid <= 0 || pid == (int)getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		/* its writer holds a lock on it while it lives: no such PID in
		 * this PID namespace is not enough (another namespace's rtlat) */
		if (!unlocked(path))
			continue;
		if (unlink(path) == 0)
			log_note("removed %s, left by process %d, which died while writing it",
				 path, pid);
	}
	closedir(dp);
}

int result_check_writable(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32];
	struct out_target t;
	int fd;

	if (out_target(path, &t, err, errlen) < 0)
		return -1;
	if (t.kind == OUT_FD || t.kind == OUT_OPEN)
		return 0;	/* written in place at the end */
	dir_of(t.real, dir, sizeof(dir));
	sweep_dead_tmp(dir);
	snprintf(probe, sizeof(probe), "%s/.rtlat-probe-%d", dir, (int)getpid());
	fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		create_error(err, errlen, path, dir, errno,
			     t.kind == OUT_REPLACE);
		return -1;
	}
	close(fd);
	unlink(probe);
	return 0;
}

/* ---------------------------------------------------------------------- */

/* A SIGINT, SIGTERM or SIGHUP pending (the caller blocks them: the engine,
 * rtlat load, rtlat suite): taken and returned, else 0. Unblocked, they
 * act as usual and are never pending. */
static int take_stop_signal(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct timespec zero = { 0, 0 };
	sigset_t pend, one;
	size_t i;

	if (gave_up)
		return gave_up;
	if (sigpending(&pend) < 0)
		return 0;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (!sigismember(&pend, sigs[i]))
			continue;
		sigemptyset(&one);
		sigaddset(&one, sigs[i]);
		if (sigtimedwait(&one, NULL, &zero) == sigs[i]) {
			gave_up = sigs[i];
			return sigs[i];
		}
	}
	return 0;
}

/* Wait until @af->fd can take a write (0), or a stop signal came while
 * it could not (-1). */
static int wait_writable(struct atomic_file *af)
{
	struct pollfd p = { .fd = af->fd, .events = POLLOUT };
	int timeout = 0;

	for (;;) {
		int sig;

		if (poll(&p, 1, timeout) > 0)
			return 0;	/* POLLOUT, or POLLERR: write says why */
		sig = take_stop_signal();
		if (sig) {
			af->sig = sig;
			return -1;
		}
		timeout = 50;
	}
}

/* fopencookie() write: the whole buffer; into a pipe in pieces it takes
 * without blocking, so that a reader that stops reading cannot hold rtlat
 * beyond a signal. The cause of a failure is kept in af->err; the stream
 * sees a short write, never -1. */
static ssize_t out_write(void *cookie, const char *buf, size_t len)
{
	struct atomic_file *af = cookie;
	size_t done = 0;

	if (af->err)
		goto fail;
	while (done < len) {
		size_t n = len - done;
		ssize_t w;

		if (af->pipe) {
			if (n > PIPE_BUF)
				n = PIPE_BUF;
			if (wait_writable(af) < 0) {
				af->err = EINTR;
				goto fail;
			}
		}
		w = write(af->fd, buf + done, n);
		if (w >= 0) {
			done += (size_t)w;
			continue;
		}
		if (errno == EINTR)
			continue;
		if ((errno == EAGAIN || errno == EWOULDBLOCK) &&
		    wait_writable(af) == 0)
			continue;
		af->err = af->sig ? EINTR : errno;
		goto fail;
	}
	return (ssize_t)done;
fail:
	/* fopencookie(3): a write function never returns a negative count
	 * (glibc then copies past its buffer: a crash on a full disk); 0 (or
	 * what was written) with errno says the error */
	errno = af->err;
	return (ssize_t)done;
}

static int out_close(void *cookie)
{
	struct atomic_file *af = cookie;
	int e = 0;

	if (af->fd >= 0 && close(af->fd) < 0 && errno != EINTR)
		e = errno;
	af->fd = -1;
	if (e && !af->err)
		af->err = e;
	return e ? -1 : 0;
}

/* Open the FIFO or device @t in place: a FIFO without blocking, waiting
 * for its reader. Returns the descriptor or -1 with a message. */
static int open_in_place(struct atomic_file *af, const struct out_target *t,
			 char *err, size_t errlen)
{
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
	bool said = false;
	int fd, sig;

	if (S_ISREG(t->st.st_mode))
		flags |= O_TRUNC;	/* another process's descriptor */
	for (;;) {
		fd = open(t->real, flags);
		if (fd >= 0)
			return fd;
		if (errno == EINTR)
			continue;
		if (errno != ENXIO || !S_ISFIFO(t->st.st_mode)) {
			snprintf(err, errlen, "cannot open %s: %s", af->path,
				 strerror(errno));
			return -1;
		}
		/* a FIFO without a reader */
		sig = take_stop_signal();
		if (sig) {
			af->sig = sig;
			snprintf(err, errlen, "no reader for FIFO %s: gave up at %s",
				 af->path, strsignal(sig));
			return -1;
		}
		if (!said) {
			fprintf(stderr, "%s: waiting for a reader of FIFO %s (Ctrl-C gives up)\n",
				log_prefix(), af->path);
			said = true;
		}
		{
			struct timespec ts = { 0, 50 * 1000000L };

			nanosleep(&ts, NULL);
		}
	}
}

FILE *atomic_open(struct atomic_file *af, const char *path, char *err,
		  size_t errlen)
{
	static _Atomic unsigned seq;
	static const cookie_io_functions_t io = {
		.write = out_write,
		.close = out_close,
	};
	char dir[PATH_MAX];
	struct out_target t;
	struct stat st;
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = path;
	af->fd = -1;
	if (out_target(path, &t, err, errlen) < 0)
		return NULL;
	if (t.kind == OUT_FD) {
		/* after what was printed there */
		if (t.fd == 1)
			stdout_flush();
		else if (t.fd == 2)
			fflush(stderr);
		fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0) {
			snprintf(err, errlen, "cannot write %s: %s", path,
				 strerror(errno));
			return NULL;
		}
	} else if (t.kind == OUT_OPEN) {
		fd = open_in_place(af, &t, err, errlen);
		if (fd < 0)
			return NULL;
	} else {
		dir_of(t.real, dir, sizeof(dir));
		/* short name: the result's own name may already be NAME_MAX
		 * long */
		snprintf(af->tmp, sizeof(af->tmp), "%s/.rtlat-%d-%u.tmp", dir,
			 (int)getpid(), atomic_fetch_add(&seq, 1));
		fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			  0666);
		if (fd < 0) {
			create_error(err, errlen, path, dir, errno,
				     t.kind == OUT_REPLACE);
			af->tmp[0] = '\0';
			return NULL;
		}
		/* held while it lives: a later run removes the file of a
		 * writer that died, never of a live one (sweep_dead_tmp()) */
		flock(fd, LOCK_EX | LOCK_NB);
		/* keep the replaced file's permissions (and owner, as root) */
		if (t.kind == OUT_REPLACE &&
		    (fchmod(fd, t.st.st_mode & 07777) < 0 ||
		     (geteuid() == 0 &&
		      fchown(fd, t.st.st_uid, t.st.st_gid) < 0))) {
			/* best effort */
		}
	}
	af->fd = fd;
	af->pipe = fstat(fd, &st) == 0 &&
		   (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	/* through out_write(): the cause of a failed write is kept */
	af->f = fopencookie(af, "w", io);
	if (!af->f) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 strerror(errno));
		close(fd);
		af->fd = -1;
		if (af->tmp[0])
			unlink(af->tmp);
		af->tmp[0] = '\0';
	}
	return af->f;
}

void atomic_abort(struct atomic_file *af)
{
	af->err = ECANCELED;	/* nothing more written in place */
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->tmp[0])
		unlink(af->tmp);
	af->tmp[0] = '\0';
}

int atomic_commit(struct atomic_file *af, char *err, size_t errlen)
{
	struct out_target t;
	bool in_place = !af->tmp[0];
	int e = 0;

	if (fflush(af->f) != 0 || ferror(af->f))
		e = af->err ? af->err : EIO;
	if (!e && !in_place && fsync(af->fd) != 0)
		e = errno;
	if (fclose(af->f) != 0 && !e)
		e = af->err ? af->err : EIO;
	af->f = NULL;
	if (af->sig) {
		if (!in_place)
			unlink(af->tmp);
		snprintf(err, errlen, "cannot write %s: gave up at %s",
			 af->path, strsignal(af->sig));
		return -1;
	}
	if (in_place) {
		if (e)
			snprintf(err, errlen, "cannot write %s: %s", af->path,
				 strerror(e));
		return e ? -1 : 0;
	}
	if (e) {
		unlink(af->tmp);
		snprintf(err, errlen, "cannot write %s: %s%s", af->path,
			 strerror(e),
			 e == ENOSPC && access(af->path, F_OK) == 0 ?
			 " (the previous version is kept)" : "");
		return -1;
	}
	/* again: a link may have been pointed elsewhere meanwhile; never
	 * renamed over a link, nor over what is no regular file */
	if (out_target(af->path, &t, err, errlen) < 0) {
		unlink(af->tmp);
		return -1;
	}
	if (t.kind != OUT_NEW && t.kind != OUT_REPLACE) {
		unlink(af->tmp);
		snprintf(err, errlen, "cannot write %s: it is no longer a regular file",
			 af->path);
		return -1;
	}
	if (rename(af->tmp, t.real) != 0) {
		e = errno;
		unlink(af->tmp);
		snprintf(err, errlen, "cannot write %s: %s", af->path,
			 strerror(e));
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */

static _Atomic int stdout_err;

int stdout_flush(void)
{
	int expected = 0, r = fflush(stdout), e = errno;

	if (r == 0 && !ferror(stdout))
		return 0;
	/* a failed fflush() just set errno; an earlier failure (inside a
	 * printf) left only the error flag, errno is long gone */
	if (r != 0 && e)
		atomic_compare_exchange_strong(&stdout_err, &expected, e);
	return -1;
}

int stdout_errno(void)
{
	struct pollfd p = { .fd = 1, .events = POLLOUT };
	int e = atomic_load(&stdout_err);

	if (e)
		return e;
	/* a pipe whose reader left says so */
	if (poll(&p, 1, 0) > 0 && (p.revents & POLLERR))
		return EPIPE;
	return EIO;
}
