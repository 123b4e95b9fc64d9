// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel configuration and boot messages; see kinfo.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/gunzip.h"
#include "core/kinfo.h"
#include "core/sysinfo.h"

#define FILE_MAX (16u << 20)

/* The whole of @path, opened with sys_open_path() when @sys (a file of
 * the system's: a FIFO in a fake tree cannot block). */
static char *read_whole(const char *path, bool sys, size_t *n)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *p;
	ssize_t k;
	int fd, e;

	if (!buf)
		return NULL;
	fd = sys ? sys_open_path(path, false) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto fail;
	for (;;) {
		if (len + 1 >= cap) {
			if (cap >= FILE_MAX) {
				errno = EFBIG;
				goto fail;
			}
			p = realloc(buf, cap * 2);
			if (!p)
				goto fail;
			buf = p;
			cap *= 2;
		}
		k = read(fd, buf + len, cap - 1 - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			goto fail;
		if (!k)
			break;
		len += (size_t)k;
	}
	close(fd);
	buf[len] = '\0';
	*n = len;
	return buf;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	free(buf);
	errno = e;
	return NULL;
}

char *file_read_whole(const char *path, size_t *n)
{
	return read_whole(path, false, n);
}

char *kconfig_read(const char *root, const char *release, char *from,
		   size_t fromlen, char *why, size_t whylen)
{
	char p[PATH_MAX], boot[PATH_MAX], err[96];
	char *gz, *text;
	size_t n, len;
	int w;

	from[0] = '\0';
	why[0] = '\0';
	sys_path(p, sizeof(p), root, "/proc/config.gz");
	gz = read_whole(p, true, &n);
	if (gz) {
		text = gunzip((const unsigned char *)gz, n, &len, err, sizeof(err));
		free(gz);
		if (text) {
			snprintf(from, fromlen, "/proc/config.gz");
			return text;
		}
	} else {
		snprintf(err, sizeof(err), "%s", strerror(errno));
	}
	w = snprintf(why, whylen, "/proc/config.gz: %s", err);
	snprintf(boot, sizeof(boot), "/boot/config-%s", release);
	sys_path(p, sizeof(p), root, boot);
	text = release[0] ? read_whole(p, true, &n) : NULL;
	if (text) {
		snprintf(from, fromlen, "%s", boot);
		why[0] = '\0';
		return text;
	}
	if (w > 0 && (size_t)w < whylen)
		snprintf(why + w, whylen - (size_t)w, "; %s: %s",
			 release[0] ? boot : "/boot/config-RELEASE",
			 release[0] ? strerror(errno) : "kernel release unknown");
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

int kmsg_find(const char *root, const char *needle, char *out, size_t len)
{
	size_t keep = strlen(needle) + 64, have = 0;
	char p[PATH_MAX], buf[8192 + 256];
	int fd, found = 0;
	ssize_t k;

	out[0] = '\0';
	if (keep > 256)
		keep = 256;
	sys_path(p, sizeof(p), root, "/dev/kmsg");
	fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* /dev/kmsg gives one record a read; a regular file gives chunks
	 * that may split a line: keep the tail of the previous one */
	buf[0] = '\0';
	while (!found) {
		k = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (k < 0 && (errno == EINTR || errno == EPIPE))
			continue;	/* EPIPE: records overwritten */
		if (k <= 0) {		/* EAGAIN: the end of the log */
			found = kmsg_match(buf, needle, true, out, len);
			break;
		}
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
}
