// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/jsonw.h"
#include "core/url.h"

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

			if (n >= 9 && !strncasecmp(k, "password=", 9)) {
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
