/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one rule for labels (row names) and the other words that end up in
 * a table cell: no control character. A label given on the command line
 * (suite --label, report --set-label) that has one is refused; one read
 * from a file is shown with each control character as a blank, on every
 * output (text, Markdown, CSV, HTML, plots). Control characters are C0
 * (0x00-0x1f), DEL (0x7f) and C1 (U+0080-U+009F, in UTF-8 0xc2 0x80-0x9f:
 * CSI is one of them).
 */
#ifndef RTLAT_LABEL_H
#define RTLAT_LABEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Bytes of the control character at @s: 1 (C0, DEL), 2 (C1 in UTF-8), or
 * 0 when @s does not start with one (nor at its end). */
size_t text_ctrl_len(const char *s);

/* Has @s a control character? */
bool text_has_ctrl(const char *s);

/* What is wrong with @s as a label given by the user: NULL when nothing,
 * else a phrase for opt_bad_value() ("expected a label ..."). */
const char *label_check(const char *s);

/* Write @s to @f through @put (a format's escaping of one character),
 * each control character as one blank. */
void text_write(FILE *f, const char *s, void (*put)(FILE *f, char c));

/* Each control character of @s as one blank, in place; returns @s. */
char *label_clean(char *s);

/* @s for a diagnostic, control characters written visibly ("\\n", "\\t",
 * "\\x1b"), truncated to fit @len; returns @buf. */
char *text_show(char *buf, size_t len, const char *s);

#endif
