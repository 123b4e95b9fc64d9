// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel configuration and boot messages; see kinfo.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "util/gunzip.h"
#include "system/kinfo.h"
#include "system/sysinfo.h"

#define FILE_MAX (16u << 20)	/* file_read_whole(): a run's own output */

/* The whole of @path, at most @max bytes (EFBIG when larger), opened with
 * sys_open_path() below @root when @sys (a file of the system's: a FIFO
 * in a fake tree cannot block, a link cannot lead out of it). */
static char *read_whole(const char *root, const char *path, bool sys,
			size_t max, size_t *n)
{
	char *buf;
	bool more;
	int fd, e;

	fd = sys ? sys_open_path(root, path, false) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = sys_read_fd(fd, max, n, &more);
	e = errno;
	close(fd);
	if (buf && more) {
		free(buf);
		buf = NULL;
		e = EFBIG;
	}
	errno = e;
	return buf;
}

char *file_read_whole(const char *path, size_t *n)
{
	return read_whole(NULL, path, false, FILE_MAX, n);
}

/* Whether @text (@len bytes) is no kernel configuration: a control
 * byte in it (a NUL, ...: not text), or no "CONFIG_NAME=" line (every
 * kernel sets some); then @err says which. */
static bool kconfig_bad(const char *text, size_t len, char *err, size_t elen)
{
	const char *l;
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)text[i];

		if ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7f) {
			snprintf(err, elen, "not text (a byte 0x%02x at offset %zu): not a kernel configuration",
				 b, i);
			return true;
		}
	}
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, "CONFIG_", 7) && l[7 + strcspn(l + 7, "=\n")] == '=')
			return false;
	snprintf(err, elen, "not a kernel configuration (no CONFIG_ line)");
	return true;
}

char *kconfig_read(const char *root, const char *release, char *from,
		   size_t fromlen, char *why, size_t whylen)
{
	char p[PATH_MAX], boot[PATH_MAX], err[96];
	char *gz, *text;
	size_t n, len;
	bool absent = false;
	int w;

	from[0] = '\0';
	why[0] = '\0';
	sys_path(p, sizeof(p), root, "/proc/config.gz");
	gz = read_whole(root, p, true, SYS_READ_MAX, &n);
	if (gz) {
		text = gunzip((const unsigned char *)gz, n, &len, err, sizeof(err));
		free(gz);
		if (text && kconfig_bad(text, len, err, sizeof(err))) {
			free(text);
			text = NULL;
		}
		if (text) {
			snprintf(from, fromlen, "/proc/config.gz");
			return text;
		}
	} else {
		absent = errno == ENOENT;
		sys_read_why(root, "/proc/config.gz", errno, err, sizeof(err));
	}
	w = snprintf(why, whylen, "/proc/config.gz: %s", err);
	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	sys_path(p, sizeof(p), root, boot);
	text = release[0] ? read_whole(root, p, true, SYS_READ_MAX, &n) : NULL;
	if (text && kconfig_bad(text, n, err, sizeof(err))) {
		free(text);
		if (w > 0 && (size_t)w < whylen)
			snprintf(why + w, whylen - (size_t)w, "; %s: %s", boot, err);
		if (absent)	/* only the one that is there has a reason */
			snprintf(why, whylen, "%s: %s", boot, err);
		return NULL;
	}
	if (text) {
		snprintf(from, fromlen, "%s", boot);
		if (absent)	/* nothing to say: it is not there */
			why[0] = '\0';
		return text;
	}
	if (release[0])
		sys_read_why(root, boot, errno, err, sizeof(err));
	if (w > 0 && (size_t)w < whylen)
		snprintf(why + w, whylen - (size_t)w, "; %s: %s",
			 release[0] ? boot : "/boot/config-RELEASE",
			 release[0] ? err : "kernel release unknown");
	return NULL;
}

const char *kconfig_value(const char *text, const char *name, char *buf,
			  size_t len)
{
	size_t n = strlen(name);
	const char *l;

	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		if (strncmp(l, name, n) != 0 || l[n] != '=')
			continue;
		l += n + 1;
		snprintf(buf, len, "%.*s", (int)strcspn(l, "\n"), l);
		return buf[0] ? buf : NULL;
	}
	return NULL;
}

/* Search the log text @buf for @needle: a match counts once its line is
 * whole (ends in a newline, or @end: nothing more will come). */
static int kmsg_match(const char *buf, const char *needle, bool end,
		      char *out, size_t len)
{
	const char *m = strstr(buf, needle);
	size_t k;

	if (!m)
		return 0;
	m += strlen(needle);
	k = strcspn(m, "\n");
	if (!m[k] && !end)
		return 0;
	snprintf(out, len, "%.*s", (int)k, m);
	return 1;
}

/* Does @buf (@n bytes) start with a kernel log record,
 * "PRIO,SEQ,USEC,FLAGS[,MORE...];" (MORE: "caller=T1" with
 * CONFIG_PRINTK_CALLER)? */
static bool kmsg_record(const char *buf, size_t n)
{
	size_t i = 0;
	int field;

	for (field = 0; field < 3; field++) {
		size_t d = i;

		while (i < n && buf[i] >= '0' && buf[i] <= '9')
			i++;
		if (i == d || i >= n || buf[i++] != ',')
			return false;
	}
	while (i < n && buf[i] != ';' && buf[i] != '\n' && buf[i])
		i++;
	return i < n && buf[i] == ';';
}

int kmsg_find(const char *root, const char *needle, char *out, size_t len,
	      char *why, size_t wlen)
{
	size_t keep = strlen(needle) + 64, have = 0, total = 0;
	char p[PATH_MAX], buf[8192 + 256];
	bool self = !root[0] || !strcmp(root, "/"), first = true;
	int fd, found = 0, e;
	struct stat st;
	ssize_t k;

	out[0] = '\0';
	why[0] = '\0';
	if (keep > 256)
		keep = 256;
	sys_path(p, sizeof(p), root, "/dev/kmsg");
	/* O_NONBLOCK: a FIFO in its place cannot block the open */
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		sys_read_why(root, "/dev/kmsg", e, why, wlen);
		errno = e;
		return -1;
	}
	if (!self && !sys_fd_below(root, fd)) {
		/* a link or ".." of a copied tree: the host's file */
		sys_read_why(root, "/dev/kmsg", EXDEV, why, wlen);
		e = EXDEV;
		goto fail;
	}
	/* the kernel log is the character device 1:11 (a fake tree's, a
	 * regular file): not /dev/zero bind-mounted over it, nor a FIFO */
	if (fstat(fd, &st) < 0) {
		e = errno;
		snprintf(why, wlen, "%s", strerror(e));
		goto fail;
	}
	e = EINVAL;
	if (S_ISCHR(st.st_mode) &&
	    (major(st.st_rdev) != 1 || minor(st.st_rdev) != 11)) {
		snprintf(why, wlen, "not the kernel log (the character device %u:%u; the log is 1:11)",
			 major(st.st_rdev), minor(st.st_rdev));
		goto fail;
	}
	if (!S_ISCHR(st.st_mode) && (self || !S_ISREG(st.st_mode))) {
		snprintf(why, wlen, "not a character device (%s)",
			 sys_file_kind(st.st_mode));
		goto fail;
	}
	/* /dev/kmsg gives one record a read; a regular file gives chunks
	 * that may split a line: keep the tail of the previous one; at most
	 * SYS_READ_MAX bytes of it */
	buf[0] = '\0';
	while (!found) {
		k = total < SYS_READ_MAX ?
		    read(fd, buf + have, sizeof(buf) - 1 - have) : 0;
		if (k < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: records overwritten */
		if (k < 0 && errno != EAGAIN) {
			e = errno;
			snprintf(why, wlen, "read failed: %s", strerror(e));
			goto fail;
		}
		if (k <= 0) {		/* EAGAIN: the end of the log */
			found = kmsg_match(buf, needle, true, out, len);
			break;
		}
		if (first && !kmsg_record(buf + have, (size_t)k)) {
			snprintf(why, wlen, "holds no kernel log records (PRIO,SEQ,USEC,FLAGS;TEXT)");
			goto fail;
		}
		first = false;
		total += (size_t)k;
		have += (size_t)k;
		buf[have] = '\0';
		found = kmsg_match(buf, needle, false, out, len);
		if (have > keep) {
			memmove(buf, buf + have - keep, keep);
			have = keep;
			buf[have] = '\0';
		}
	}
	close(fd);
	return found;
fail:
	close(fd);
	errno = e;
	return -1;
}
