/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small streaming JSON writer (RFC 8259) for result files. Output is always
 * valid JSON: strings are escaped (control characters as \u00XX, invalid
 * UTF-8 bytes replaced by U+FFFD), non-finite numbers are written as null.
 * Containers opened "inline" are written on one line (used for number
 * arrays). Errors are sticky: check jw_error() once at the end.
 */
#ifndef RTLAT_JSONW_H
#define RTLAT_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

struct jw {
	FILE *f;
	int depth;
	int inline_depth;	/* depth at which inline output started, 0 = none */
	bool first[JW_MAX_DEPTH];
	bool err;
};

void jw_init(struct jw *w, FILE *f);

/* Length of the valid multi-byte UTF-8 sequence at @s (2 to 4; no
 * overlong form, surrogate or code point above U+10FFFF: RFC 3629), or 0
 * when @s starts with none (ASCII included). */
size_t utf8_seq_len(const unsigned char *s);

/* @key is the member name inside an object, NULL inside an array or at top. */
void jw_obj_begin(struct jw *w, const char *key);
void jw_obj_begin_inline(struct jw *w, const char *key);
void jw_obj_end(struct jw *w);
void jw_arr_begin(struct jw *w, const char *key);
void jw_arr_begin_inline(struct jw *w, const char *key);
void jw_arr_end(struct jw *w);

void jw_str(struct jw *w, const char *key, const char *s);	/* NULL -> null */
void jw_int(struct jw *w, const char *key, int64_t v);
void jw_uint(struct jw *w, const char *key, uint64_t v);
/* @decimals digits after the point; NaN and infinities become null. */
void jw_double(struct jw *w, const char *key, double v, int decimals);
void jw_bool(struct jw *w, const char *key, bool v);
/* @text as a number if it is one by RFC 8259 ("12", "-0.5", "1e3"), as
 * written; as a string otherwise ("+2", "n/a"). */
void jw_number_text(struct jw *w, const char *key, const char *text);
void jw_null(struct jw *w, const char *key);

/* Finish the document (newline). Returns true when no write failed and all
 * containers were closed. */
bool jw_finish(struct jw *w);

/* @s is a JSON number (RFC 8259 grammar, nothing around it). */
bool json_is_number(const char *s);

/* Write @s as a quoted, escaped JSON string. */
void json_put_string(FILE *f, const char *s);

#endif
