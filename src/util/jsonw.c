// SPDX-License-Identifier: GPL-2.0-or-later
/* Streaming JSON writer; see jsonw.h. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "util/jsonw.h"

void jw_init(struct jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->first[0] = true;
}

static void indent(struct jw *w)
{
	int i;

	fputc('\n', w->f);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Separator, indentation and key before a value. */
static void pre(struct jw *w, const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth])
			fputc(',', w->f);
		if (w->inline_depth && w->depth >= w->inline_depth) {
			if (!w->first[w->depth])
				fputc(' ', w->f);
		} else {
			indent(w);
		}
	}
	w->first[w->depth] = false;
	if (key) {
		json_put_string(w->f, key);
		fputs(": ", w->f);
	}
}

static void open_container(struct jw *w, const char *key, char c, bool inl)
{
	pre(w, key);
	fputc(c, w->f);
	if (w->depth + 1 >= JW_MAX_DEPTH) {
		w->err = true;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
	if (inl && !w->inline_depth)
		w->inline_depth = w->depth;
}

static void close_container(struct jw *w, char c)
{
	bool was_inline = w->inline_depth && w->depth >= w->inline_depth;
	bool empty = w->first[w->depth];

	if (w->depth == 0) {
		w->err = true;
		return;
	}
	w->depth--;
	if (!was_inline && !empty)
		indent(w);
	if (w->inline_depth > w->depth)
		w->inline_depth = 0;
	fputc(c, w->f);
}

void jw_obj_begin(struct jw *w, const char *key)
{
	open_container(w, key, '{', false);
}

void jw_obj_begin_inline(struct jw *w, const char *key)
{
	open_container(w, key, '{', true);
}

void jw_obj_end(struct jw *w)
{
	close_container(w, '}');
}

void jw_arr_begin(struct jw *w, const char *key)
{
	open_container(w, key, '[', false);
}

void jw_arr_begin_inline(struct jw *w, const char *key)
{
	open_container(w, key, '[', true);
}

void jw_arr_end(struct jw *w)
{
	close_container(w, ']');
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	pre(w, key);
	if (s)
		json_put_string(w->f, s);
	else
		fputs("null", w->f);
}

void jw_int(struct jw *w, const char *key, int64_t v)
{
	pre(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void jw_uint(struct jw *w, const char *key, uint64_t v)
{
	pre(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_double(struct jw *w, const char *key, double v, int decimals)
{
	pre(w, key);
	if (!isfinite(v))
		fputs("null", w->f);
	else
		fprintf(w->f, "%.*f", decimals, v == 0.0 ? 0.0 : v);
}

static const char *digits(const char *s)
{
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

bool json_is_number(const char *s)
{
	const char *e;

	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		s = digits(s);
	else
		return false;
	if (*s == '.') {
		e = digits(s + 1);
		if (e == s + 1)
			return false;
		s = e;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		e = digits(s);
		if (e == s)
			return false;
		s = e;
	}
	return *s == '\0';
}

void jw_number_text(struct jw *w, const char *key, const char *text)
{
	if (!text || !json_is_number(text)) {
		jw_str(w, key, text);
		return;
	}
	pre(w, key);
	fputs(text, w->f);
}

void jw_bool(struct jw *w, const char *key, bool v)
{
	pre(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	pre(w, key);
	fputs("null", w->f);
}

bool jw_finish(struct jw *w)
{
	fputc('\n', w->f);
	if (w->depth != 0)
		w->err = true;
	if (ferror(w->f))
		w->err = true;
	return !w->err;
}

size_t utf8_seq_len(const unsigned char *s)
{
	unsigned char c = s[0];

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;	/* overlong */
		if (c == 0xed && s[1] >= 0xa0)
			return 0;	/* surrogate */
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;	/* overlong */
		if (c == 0xf4 && s[1] >= 0x90)
			return 0;	/* above U+10FFFF */
		return 4;
	}
	return 0;
}

void json_put_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned char c = *s;
		size_t n;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			s++;
		} else if (c < 0x20) {
			switch (c) {
			case '\n': fputs("\\n", f); break;
			case '\t': fputs("\\t", f); break;
			case '\r': fputs("\\r", f); break;
			case '\b': fputs("\\b", f); break;
			case '\f': fputs("\\f", f); break;
			default: fprintf(f, "\\u%04x", c); break;
			}
			s++;
		} else if (c < 0x80) {
			fputc(c, f);
			s++;
		} else if ((n = utf8_seq_len(s)) != 0) {
			fwrite(s, 1, n, f);
			s += n;
		} else {
			fputs("\\ufffd", f);
			s++;
		}
	}
	fputc('"', f);
}
