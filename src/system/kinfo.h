/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the running kernel says about itself beyond single /proc and /sys
 * values: its build configuration (/proc/config.gz, /boot/config-RELEASE)
 * and its boot messages (/dev/kmsg). Like sysinfo.h, every file is read
 * below a root prefix ("/" = this system), so that the fake trees of
 * tests/data/sysroots/ can stand in for a board.
 */
#ifndef RTLAT_KINFO_H
#define RTLAT_KINFO_H

#include <stddef.h>

/* The whole of the file @path (malloc'd, NUL-terminated, length in @n),
 * or NULL with errno set (EFBIG: larger than 16 MiB). */
char *file_read_whole(const char *path, size_t *n);

/*
 * Read the kernel configuration of release @release below @root: the
 * first of /proc/config.gz (gunzipped in memory, see gunzip.h) and
 * /boot/config-@release, each at most SYS_READ_MAX bytes (a larger one is
 * not read: sys_too_large()). Returns the text (malloc'd, NUL-terminated;
 * the caller frees it) and names the file read in @from; NULL when none
 * could be read, with the reason for each in @why ("/proc/config.gz:
 * ..."). When /boot/config-@release is read, @why says why
 * /proc/config.gz was not when it is there ("/proc/config.gz: CRC
 * mismatch"), else it is "".
 */
char *kconfig_read(const char *root, const char *release, char *from,
		   size_t fromlen, char *why, size_t whylen);

/*
 * The value of option @name ("CONFIG_LOCKDEP") in the configuration
 * @text: "y", "m", a number or a string as written (quotes kept), copied
 * into @buf. Returns @buf, or NULL when the option is not set or absent.
 */
const char *kconfig_value(const char *text, const char *name, char *buf,
			  size_t len);

/*
 * Look for the first kernel message containing @needle in the kernel log
 * /dev/kmsg below @root (on the real root the device, read record by
 * record without blocking; in a fake tree a regular file with the same
 * "PRIO,SEQ,USEC,FLAGS;TEXT" lines). Copies what follows @needle up to the
 * end of that message into @out. Returns 1 when found, 0 when not, -1
 * when the log cannot be read (errno set), with the reason in @why (""
 * otherwise): as sys_read_why() says ("Operation not permitted (not
 * root)" under dmesg_restrict, "No such file or directory"), "not a
 * character device (a FIFO)" (a regular file too, on the real root), "not
 * the kernel log (the character device 1:5; the log is 1:11)" (/dev/zero
 * bind-mounted over it), "holds no kernel log records (...)", "read
 * failed: ...".
 */
int kmsg_find(const char *root, const char *needle, char *out, size_t len,
	      char *why, size_t wlen);

#endif
