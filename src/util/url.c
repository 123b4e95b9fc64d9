// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/jsonw.h"
#include "util/url.h"

/* Append @n bytes of @p to @buf (@len, *@at used), cutting at the end. */
static void put(char *buf, size_t len, size_t *at, const char *p, size_t n)
{
	if (*at + 1 >= len)
		return;
	if (n > len - 1 - *at)
		n = len - 1 - *at;
	memcpy(buf + *at, p, n);
	*at += n;
	buf[*at] = '\0';
}

/* Is the parameter at @k (@n bytes, "name=value") the password? Its name
 * percent-decoded first, as libpq decodes it ("pass%77ord" is one). */
static bool is_password(const char *k, size_t n)
{
	static const char want[] = "password";
	size_t i = 0, o = 0;

	while (i < n && k[i] != '=') {
		int c = (unsigned char)k[i];

		if (c == '%' && i + 2 < n && isxdigit((unsigned char)k[i + 1]) &&
		    isxdigit((unsigned char)k[i + 2])) {
			char hex[3] = { k[i + 1], k[i + 2], 0 };

			c = (int)strtol(hex, NULL, 16);
			i += 3;
		} else {
			i++;
		}
		if (o >= sizeof(want) - 1 || tolower(c) != want[o])
			return false;
		o++;
	}
	return i < n && o == sizeof(want) - 1;
}

const char *url_hide_password(const char *s, char *buf, size_t len)
{
	const char *sch, *auth, *end, *at, *colon, *q, *p;
	size_t o = 0;
	bool hid = false;

	if (!s || !len || !(sch = strstr(s, "://")))
		return s;
	auth = sch + 3;
	end = auth + strcspn(auth, "/?#");
	buf[0] = '\0';
	/* the user part: the last '@' before the host's end */
	at = NULL;
	for (p = auth; p < end; p++)
		if (*p == '@')
			at = p;
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (colon) {
		put(buf, len, &o, s, (size_t)(colon - s));
		p = at;
		hid = true;
	} else {
		p = s;
	}
	q = strchr(end, '?');
	if (!q) {
		if (!hid)
			return s;
		put(buf, len, &o, p, strlen(p));
		return buf;
	}
	put(buf, len, &o, p, (size_t)(q - p));
	/* the parameters, without password=... */
	{
		const char *k = q + 1;
		bool first = true;

		while (*k && *k != '#') {
			size_t n = strcspn(k, "&#");

			if (is_password(k, n)) {
				hid = true;
			} else if (n) {
				put(buf, len, &o, first ? "?" : "&", 1);
				put(buf, len, &o, k, n);
				first = false;
			}
			k += n;
			if (*k == '&')
				k++;
		}
		if (*k == '#')
			put(buf, len, &o, k, strlen(k));
	}
	return hid ? buf : s;
}

void url_json_argv(struct jw *w, const char *key, int argc, char *const *argv)
{
	char buf[4096];
	int i;

	jw_arr_begin_inline(w, key);
	for (i = 0; i < argc; i++)
		jw_str(w, NULL, url_hide_password(argv[i], buf, sizeof(buf)));
	jw_arr_end(w);
}
