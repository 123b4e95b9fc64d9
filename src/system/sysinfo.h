/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Description of the system under test: board, processor, clock, caches,
 * memory, kernel and its real-time flavour (PREEMPT_RT, PREEMPT_DYNAMIC
 * mode, Xenomai / I-pipe / EVL / Dovetail / RTAI), clocksource, cpufreq
 * governor, isolated CPUs and the kernel command line.
 *
 * Everything is read from files under a root prefix ("/" for the running
 * system; a directory holding a fake proc/ and sys/ tree in the unit tests,
 * tests/data/sysroots/). Only with the root "/" does it fall back to
 * uname(2) and gethostname(2). A value that cannot be found is empty (""),
 * or 0 for numbers; nothing here fails.
 */
#ifndef RTLAT_SYSINFO_H
#define RTLAT_SYSINFO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct jw;

#define SYS_STR 256

struct sysdesc {
	char hostname[128];
	char board[SYS_STR];		/* "TI AM335x BeagleBone Black" */
	char board_source[16];		/* "device-tree", "dmi", "cpuinfo" */
	char processor[SYS_STR];	/* "Intel(R) Xeon(R) ...", "440EP Rev. C" */
	char core[64];			/* ARM core from CPU implementer/part */
	char soc[SYS_STR];		/* ARM "Hardware" line */
	int ncpus;			/* online CPUs (0 = unknown) */
	char cpus_online[64];		/* cpulist */
	int64_t cpu_khz;		/* CPU clock in kHz (0 = unknown) */
	char cpu_clock_source[24];	/* "cpufreq max", "cpuinfo" */
	int64_t l1i, l1d, l2, l3;	/* cache sizes in bytes (0 = unknown) */
	int cache_line;			/* L1d line size in bytes (0 = unknown) */
	int64_t mem_bytes;		/* MemTotal */
	char machine[32];		/* "x86_64", "ppc" */
	char release[128];		/* "6.1.0-57-rt-amd64" */
	char version[SYS_STR];		/* "#1 SMP PREEMPT_RT Debian ..." */
	char proc_version[512];		/* /proc/version, whole */
	char preempt[32];		/* "PREEMPT_RT", "PREEMPT_DYNAMIC",
					 * "PREEMPT", "PREEMPT_LAZY", "" */
	char preempt_mode[16];		/* PREEMPT_DYNAMIC: "full", "voluntary".. */
	char preempt_mode_source[16];	/* "debugfs" (in force now), "boot log",
					 * "cmdline", "config" (at boot) */
	char preempt_log_why[192];	/* not from the boot log: why
					 * ("/dev/kmsg cannot be read: not
					 * the kernel log ..."; "" when
					 * from debugfs or the boot log) */
	bool realtime;			/* a PREEMPT_RT kernel */
	char xenomai[64];		/* /proc/xenomai/version */
	char ipipe[64];			/* /proc/ipipe/version */
	char evl[64];			/* EVL core present: its ABI, or "yes" */
	bool dovetail;			/* "dovetail" in the kernel release */
	bool rtai;			/* /proc/rtai present */
	char clocksource[32];
	char governor[32];		/* cpufreq governor of cpu0 */
	char isolated[64];		/* /sys/devices/system/cpu/isolated */
	char nohz_full[64];
	char cmdline[1024];
};

/* Read the description of the system below @root ("/" = this system). */
void sysdesc_read(struct sysdesc *d, const char *root);

/*
 * The real-time flavour in a few words, e.g. "PREEMPT_RT",
 * "Xenomai 2.0 on I-pipe 1.0-01, kernel no PREEMPT (voluntary or none)",
 * "mainline PREEMPT_DYNAMIC (full)"; "unknown" (", kernel unknown" after a
 * co-kernel) when the kernel version could not be read. Returns @buf.
 */
char *sysdesc_flavour(const struct sysdesc *d, char *buf, size_t len);

/* Write the description as members of the JSON object being written
 * (see docs/result-schema.md, "system"). */
void sysdesc_json(const struct sysdesc *d, struct jw *w);

/* Print the board header ("Board     : ...", one item per line), each
 * line prefixed with @prefix. */
void sysdesc_print(const struct sysdesc *d, FILE *f, const char *prefix);

/* @v << @shift (1024 ** n), saturated at INT64_MAX; 0 for v <= 0 (sizes
 * of a fake or broken /proc cannot overflow). */
int64_t sys_scale(long long v, int shift);

/* "32 KiB", "2 MiB", "1.5 GiB"; "n/a" for 0. Returns @buf (32 bytes). */
char *fmt_bytes(char *buf, int64_t bytes);

/*
 * Read the file @path below @root into @buf (at most @len - 1 bytes),
 * NUL-terminated, trailing white space and NULs removed. Returns the length
 * or -1 (errno set). Used for every /proc and /sys read of the description.
 */
int sys_read_file(const char *root, const char *path, char *buf, size_t len);

/*
 * sys_read_file() that also says where the text stops at a NUL byte (a
 * device-tree string, or a damaged file): @nul is the first NUL's offset
 * in what was read, or -1 when there is none.
 */
int sys_read_file_nul(const char *root, const char *path, char *buf,
		      size_t len, long *nul);

/*
 * Open @path (already below @root, sys_path()) for reading without
 * blocking: a FIFO or another file that is neither regular nor (with
 * @device) a character device is refused (EINVAL), so that a fake tree
 * cannot hang a reader; a file that is not below @root once opened (a
 * link or a ".." of a copied tree led out of it) is refused (EXDEV), so
 * that a copy is never judged by the host's files. @root NULL or "/":
 * no such check. Returns the descriptor (O_NONBLOCK set) or -1 (errno
 * set).
 */
int sys_open_path(const char *root, const char *path, bool device);

/* Whether the resolved path @real (realpath()) is @root or below it
 * (true for root "/" or NULL, and when @root cannot be resolved). */
bool sys_below(const char *root, const char *real);

/* Whether the file open on @fd is below @root: sys_below() of the path
 * the kernel gives for it (/proc/self/fd/N); true when that cannot be
 * told. */
bool sys_fd_below(const char *root, int fd);

/* What a file of mode @m is, for a reason: "a regular file", "a
 * directory", "a FIFO", "a socket", "a character device", ... */
const char *sys_file_kind(mode_t m);

/*
 * Why @path below @root could not be read, the read having failed with
 * errno @e: "it leads out of the --root tree (a link or "..")" for EXDEV
 * (sys_open_path()), "not a regular file (a directory)" (or a FIFO, a socket, a
 * device: what sys_open_path() refuses), the reason a stat() of it fails
 * ("Too many levels of symbolic links", "No such file or directory"),
 * sys_too_large() for EFBIG (larger than the bound), else strerror(@e),
 * with " (not root)" when refused to a user. Into @buf; returns @buf.
 */
const char *sys_read_why(const char *root, const char *path, int e,
			 char *buf, size_t len);

/* The most of a file that sys_fopen(), kconfig_read() and kmsg_find()
 * read. */
#define SYS_READ_MAX (4u << 20)

/*
 * Read what @fd gives up to its end, at most @max bytes, into a buffer
 * that grows with what is read (never @max allocated up front). Returns
 * it (malloc'd, NUL-terminated, length in *@n), *@more true when @fd had
 * more than @max bytes (the buffer holds the first @max); NULL (errno
 * set) when a read fails or memory runs out. The one bounded reader of
 * the files of the system and of file_read_whole().
 */
char *sys_read_fd(int fd, size_t max, size_t *n, bool *more);

/* What is said of a file larger than SYS_READ_MAX: "larger than 4194304
 * bytes, read the first 4194304" (@read_part) or "..., not read" (a file
 * that is of no use cut: the kernel configuration). Returns @buf. */
char *sys_too_large(char *buf, size_t len, bool read_part);

/* sys_open_path() of @path below @root, at most its first SYS_READ_MAX
 * bytes, as a stdio stream; *@cut (when not NULL) true when the file is
 * larger and the stream holds only those. NULL (errno set) on error. */
FILE *sys_fopen(const char *root, const char *path, bool *cut);

/* The path of @path ("/proc/cmdline") below @root, into @out. */
void sys_path(char *out, size_t len, const char *root, const char *path);

#endif
