/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files and standard output.
 *
 * An output file named by the user is one of:
 * - a regular file or a new one (symlinks followed): replaced atomically, a
 *   short-named temporary file ".rtlat-PID-N.tmp" in its directory, fsync,
 *   rename over the resolved target (never over a symlink); the replaced
 *   file's mode is kept;
 * - written in place, once: a FIFO (opened without blocking: while it has
 *   no reader rtlat says so once on stderr and waits, a SIGINT, SIGTERM or
 *   SIGHUP gives up), a device, a /proc/PID/fd/N or /dev/fd/N link, or the
 *   same file as rtlat's standard output or error. The last two are
 *   written on rtlat's own descriptor, after everything printed there
 *   before (--json /dev/stdout: the text, then one JSON document).
 * A directory, or a file that cannot be replaced (a /proc or /sys file), is
 * refused with the real cause.
 */
#ifndef RTLAT_OUTFILE_H
#define RTLAT_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* At the start of main(), before anything is opened: note the descriptors
 * rtlat was given (a /dev/fd/N output must be one of them, never one rtlat
 * opened itself). */
void outfile_init(void);

/* An output file between atomic_open() and atomic_commit(). */
struct atomic_file {
	FILE *f;		/* the stream to write */
	const char *path;	/* as given (messages); must stay valid */
	char tmp[PATH_MAX + 32];	/* temporary file, "" when in place */
	int fd;			/* in place: the descriptor written, else -1 */
	bool pipe;		/* in place on a FIFO or socket */
	int err;		/* in place: first write error (errno) */
	int sig;		/* the signal that ended a wait, or 0 */
};

/* Open @path for writing as a whole into @af (see above); "-" is
 * standard output, as /dev/stdout. Returns the
 * stream (also af->f), or NULL with a message in @err. */
FILE *atomic_open(struct atomic_file *af, const char *path, char *err,
		  size_t errlen);

/* Flush and finish @af: fsync and rename the temporary file over the
 * target resolved again (on failure it is removed and the previous file
 * stays); in place, flush and close. Returns 0 or -1 with a message. */
int atomic_commit(struct atomic_file *af, char *err, size_t errlen);

/* Give up @af: close it, remove the temporary file. */
void atomic_abort(struct atomic_file *af);

/* Check, before a run, that @path can be written at its end: not empty,
 * not a directory, a file can be created beside it (or it is written in
 * place). Returns 0 or -1 with a message giving the cause. */
int result_check_writable(const char *path, char *err, size_t errlen);

/* True if output paths @a and @b name the same file (after symbolic links;
 * also one not yet created, also in a directory not yet made): one would
 * overwrite the other. The standard
 * output and error are never "the same": they are written in turn. */
bool output_same(const char *a, const char *b);

/*
 * The output files of this command, each claimed before the run by what
 * names it (@what: "--json", "--junit", "the suite's report.txt"): a claim
 * of a file claimed before (output_same(), by real path, also for files in
 * a directory still to be made) is refused with a message naming both.
 * Returns 0, or -1 with the message in @err. output_claims_reset()
 * forgets them all (a command starts with none).
 */
int output_claim(const char *what, const char *path, char *err,
		 size_t errlen);
void output_claims_reset(void);
/* A claim was refused since the reset: the command writes nothing. */
bool output_claim_refused(void);

/* The real path @path will be written at (symbolic links resolved; in a
 * directory still to be made, the rest as written, "." and ".." taken
 * lexically) into @real: 0; 1 when it is written in place (a FIFO, a
 * device, a descriptor: no such path); -1 with a message in @err. */
int output_planned_path(const char *path, char *real, size_t len,
			char *err, size_t errlen);

/* True if @path is written in place (FIFO, device, descriptor): once, at
 * the end, never at checkpoints. */
bool output_is_special(const char *path);

/*
 * fflush(stdout), keeping the cause of the first failure (stdout_errno()):
 * errno is per thread and clobbered by anything after a failed write.
 * Returns 0, or -1 when stdout has failed (now or before).
 */
int stdout_flush(void);

/* The cause (errno) of the first failure of stdout: EPIPE when its reader
 * left, EIO when unknown. Only meaningful after stdout_flush() failed. */
int stdout_errno(void);

#endif
