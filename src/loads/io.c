// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io load: the "dd" of the old recipes. Each worker writes 64 KiB blocks to
 * a file and fsyncs every 1 MiB; at 32 MiB (less when the file system is
 * nearly full) it truncates the file and starts again, so disk use stays
 * bounded. The file has no name: O_TMPFILE where the file system supports
 * it, else it is unlinked right after creation. Nothing is left behind,
 * even if rtlat is killed with SIGKILL. Counted in MB/s written (1 MB =
 * 10^6 bytes).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "loads/load.h"

#define BLOCK		((size_t)64 * 1024)
#define SYNC_EVERY	((size_t)1024 * 1024)
#define FILE_MAX	((size_t)32 << 20)
#define FILE_MIN	((size_t)1 << 20)

/* An unnamed file in @dir: O_TMPFILE, else mkstemp + unlink. Returns the fd
 * or -1 (errno set). */
static int open_unnamed(const char *dir, bool tmpfile)
{
	char path[300];
	int fd;

#ifdef O_TMPFILE
	if (tmpfile)
		return open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#else
	(void)tmpfile;
#endif
	snprintf(path, sizeof(path), "%s/.rtlat-io-XXXXXX", dir);
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0)
		unlink(path);
	return fd;
}

static int io_prepare(struct load_env *env, char *err, size_t errlen)
{
	const char *dir = env->o->io_dir;
	struct statvfs vfs;
	struct stat st;
	size_t avail;
	int fd;

	if (!dir) {
		dir = getenv("TMPDIR");
		if (!dir || !dir[0] || stat(dir, &st) < 0)
			dir = stat("/var/tmp", &st) == 0 ? "/var/tmp" : "/tmp";
	}
	snprintf(env->io_dir, sizeof(env->io_dir), "%s", dir);
	env->io_tmpfile = true;
	fd = open_unnamed(env->io_dir, true);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
		       errno == EINVAL)) {
		env->io_tmpfile = false;
		fd = open_unnamed(env->io_dir, false);
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a file in %s: %s (choose another directory with --load-io-dir)",
			 env->io_dir, strerror(errno));
		return -1;
	}
	close(fd);
	env->io_max_bytes = FILE_MAX;
	if (statvfs(env->io_dir, &vfs) == 0) {
		/* use at most a quarter of the free space over all workers */
		avail = (size_t)((unsigned long long)vfs.f_bavail * vfs.f_frsize /
				 4 / (unsigned long long)env->workers);
		if (avail < env->io_max_bytes)
			env->io_max_bytes = avail & ~(size_t)(BLOCK - 1);
	}
	if (env->io_max_bytes < FILE_MIN) {
		snprintf(err, errlen, "not enough free space in %s for %d io workers (choose another directory with --load-io-dir)",
			 env->io_dir, env->workers);
		return -1;
	}
	return 0;
}

static void io_run(struct load_worker *w)
{
	const struct load_env *e = w->env;
	size_t off = 0, since_sync = 0;
	char *buf;
	ssize_t n;
	int fd;

	buf = malloc(BLOCK);
	if (!buf) {
		load_fail(w, "out of memory");
		return;
	}
	memset(buf, 0x5a ^ w->index, BLOCK);
	fd = open_unnamed(e->io_dir, e->io_tmpfile);
	if (fd < 0) {
		load_fail(w, "cannot create a file in %s: %s", e->io_dir,
			  strerror(errno));
		free(buf);
		return;
	}
	load_running(w, "write 64 KiB + fsync every 1 MiB, unnamed file (%s) in %s, at most %zu MiB each",
		     e->io_tmpfile ? "O_TMPFILE" : "unlinked", e->io_dir,
		     e->io_max_bytes >> 20);
	while (!load_stopping()) {
		n = pwrite(fd, buf, BLOCK, (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOSPC) {	/* someone else filled it */
				off = 0;
				if (ftruncate(fd, 0) < 0)
					break;
				continue;
			}
			load_fail(w, "write: %s", strerror(errno));
			break;
		}
		off += (size_t)n;
		since_sync += (size_t)n;
		w->slot->count += (uint64_t)n;
		if (since_sync >= SYNC_EVERY) {
			if (fsync(fd) < 0 && errno != EINTR) {
				load_fail(w, "fsync: %s", strerror(errno));
				break;
			}
			since_sync = 0;
		}
		if (off >= e->io_max_bytes) {
			off = 0;
			if (ftruncate(fd, 0) < 0) {
				load_fail(w, "ftruncate: %s", strerror(errno));
				break;
			}
		}
	}
	close(fd);
	free(buf);
}

const struct load_gen load_io = {
	.name = "io",
	.help = "write + fsync to an unnamed file, bounded size (dd)",
	.unit = "MB/s",
	.per_count = 1e-6,
	.prepare = io_prepare,
	.run = io_run,
};
