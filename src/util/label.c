// SPDX-License-Identifier: GPL-2.0-or-later
/* The rule for labels; see label.h. */
#include <stdio.h>
#include <string.h>

#include "util/label.h"

size_t text_ctrl_len(const char *s)
{
	unsigned char c = (unsigned char)s[0];

	if (!c)
		return 0;
	if (c < 0x20 || c == 0x7f)
		return 1;
	if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
	    (unsigned char)s[1] <= 0x9f)
		return 2;
	return 0;
}

bool text_has_ctrl(const char *s)
{
	for (; *s; s++)
		if (text_ctrl_len(s))
			return true;
	return false;
}

const char *label_check(const char *s)
{
	if (!s || !*s)
		return "expected a label: not empty";
	if (text_has_ctrl(s))
		return "expected a label without control characters (newline, tab, escape sequences)";
	return NULL;
}

void text_write(FILE *f, const char *s, void (*put)(FILE *f, char c))
{
	for (; *s; s++) {
		size_t n = text_ctrl_len(s);

		put(f, n ? ' ' : *s);
		s += n ? n - 1 : 0;
	}
}

char *label_clean(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		size_t n = text_ctrl_len(r);

		if (n) {
			*w++ = ' ';
			r += n;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

char *text_show(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	if (!len)
		return buf;
	for (; *s && n + 5 < len; s++) {
		unsigned char c = (unsigned char)*s;
		size_t k = text_ctrl_len(s);

		if (!k) {
			buf[n++] = *s;
			continue;
		}
		if (c == '\n' || c == '\t' || c == '\r')
			n += (size_t)snprintf(buf + n, len - n, "\\%c",
					      c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			n += (size_t)snprintf(buf + n, len - n, "\\x%02x",
					      (unsigned char)s[k - 1]);
		s += k - 1;
	}
	buf[n] = '\0';
	return buf;
}
