/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small INI reader for suite files:
 *
 *   # comment            ; comment too
 *   [section]
 *   key = value          white space around key and value is removed
 *
 * Keys before any section header belong to section "". Values run to the
 * end of the line (no quoting, no continuation). Blank lines are ignored.
 */
#ifndef RTLAT_INI_H
#define RTLAT_INI_H

#include <stddef.h>

/* Called for each key; returns 0, or -1 to stop with the message already
 * reported. @line is the line number for messages. */
typedef int (*ini_handler)(void *ctx, const char *section, const char *key,
			   const char *value, int line);

/*
 * Read @path and call @h for every key. Returns 0, or -1 after an I/O or
 * syntax error (message in @err naming the file and line) or when @h
 * returned -1 (@err empty).
 */
int ini_parse_file(const char *path, ini_handler h, void *ctx, char *err,
		   size_t errlen);

#endif
