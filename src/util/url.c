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
/* Is the parameter @k (@n bytes, "key=value") a password: its key, percent-
 * decoded, ends in "password" whatever the case (libpq's password and
 * sslpassword)? */
static bool is_password(const char *k, size_t n)
{
	static const char want[] = "password";
	char key[64];
	size_t i = 0, o = 0, w = sizeof(want) - 1;

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
		if (o >= sizeof(key))
			return false;
		key[o++] = (char)tolower(c);
	}
	return i < n && o >= w && !memcmp(key + o - w, want, w);
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

bool url_user_ambiguous(const char *s)
{
	const char *sch = s ? strstr(s, "://") : NULL, *auth, *at;
	size_t n;

	if (!sch)
		return false;
	auth = sch + 3;
	n = strcspn(auth, "/?#");
	at = memchr(auth, '@', n);
	return at && memchr(at + 1, '@', n - (size_t)(at + 1 - auth));
}

#define REDACT_MAX	16	/* secrets looked for */
#define REDACT_MIN	3	/* shorter pieces are not looked for */

struct secrets {
	char *v[REDACT_MAX];
	int n;
};

/* Add @n bytes at @p, and their percent-decoded form, to @k. */
static void secret_add(struct secrets *k, const char *p, size_t n)
{
	char *raw, *dec;
	size_t i, o = 0;

	if (n < REDACT_MIN || k->n + 2 > REDACT_MAX)
		return;
	raw = strndup(p, n);
	dec = malloc(n + 1);
	if (!raw || !dec) {
		free(raw);
		free(dec);
		return;
	}
	for (i = 0; i < n; i++) {
		if (p[i] == '%' && i + 2 < n && isxdigit((unsigned char)p[i + 1]) &&
		    isxdigit((unsigned char)p[i + 2])) {
			char hex[3] = { p[i + 1], p[i + 2], 0 };

			dec[o++] = (char)strtol(hex, NULL, 16);
			i += 2;
		} else {
			dec[o++] = p[i];
		}
	}
	dec[o] = '\0';
	k->v[k->n++] = raw;
	if (o >= REDACT_MIN && strcmp(dec, raw) != 0)
		k->v[k->n++] = dec;
	else
		free(dec);
}

/* @n bytes of a password at @p into @k: itself, and its pieces (as
 * written, then percent-decoded). */
static void secret_pieces(struct secrets *k, const char *p, size_t n,
			  bool decoded)
{
	size_t i = 0;

	secret_add(k, p, n);
	if (!decoded && memchr(p, '%', n)) {
		char *d = malloc(n + 1);
		size_t o = 0;

		for (i = 0; d && i < n; i++) {
			if (p[i] == '%' && i + 2 < n &&
			    isxdigit((unsigned char)p[i + 1]) &&
			    isxdigit((unsigned char)p[i + 2])) {
				char hex[3] = { p[i + 1], p[i + 2], 0 };

				d[o++] = (char)strtol(hex, NULL, 16);
				i += 2;
			} else {
				d[o++] = p[i];
			}
		}
		if (d)
			secret_pieces(k, d, o, true);
		free(d);
		i = 0;
	}
	while (i < n) {
		size_t m = 0;

		while (i + m < n && !strchr(":@/", p[i + m]))
			m++;
		if (m < n)
			secret_add(k, p + i, m);
		i += m + 1;
	}
}

/* The passwords of @url into @k. */
static void secrets_of(const char *url, struct secrets *k)
{
	const char *sch = strstr(url, "://"), *auth, *q, *at = NULL, *colon, *p;

	if (!sch)
		return;
	auth = sch + 3;
	q = auth + strcspn(auth, "?#");
	/* the user part, as far as the last '@' before the parameters (an
	 * unencoded '/' or '@' in a password moves libpq's view of it) */
	for (p = auth; p < q; p++)
		if (*p == '@')
			at = p;
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (colon)
		secret_pieces(k, colon + 1, (size_t)(at - colon - 1), false);
	if (*q != '?')
		return;
	for (p = q + 1; *p && *p != '#';) {
		size_t n = strcspn(p, "&#");
		const char *eq = memchr(p, '=', n);

		if (eq && is_password(p, n))
			secret_pieces(k, eq + 1, n - (size_t)(eq + 1 - p), false);
		p += n;
		if (*p == '&')
			p++;
	}
}

const char *url_redact(const char *url, const char *msg, char *buf,
		       size_t len)
{
	struct secrets k = { .n = 0 };
	const char *m;
	char *t;
	int i;
	bool hid = false;

	if (!msg || !len)
		return msg;
	m = url_hide_password(msg, buf, len);
	if (!url)
		return m;
	secrets_of(url, &k);
	if (!k.n)
		return m;
	t = strdup(m);
	if (!t)
		goto out;
	/* the longest first: a piece is inside the whole */
	for (i = 0; i < k.n; i++) {
		int j, best = i;
		char *x;

		for (j = i + 1; j < k.n; j++)
			if (strlen(k.v[j]) > strlen(k.v[best]))
				best = j;
		x = k.v[i];
		k.v[i] = k.v[best];
		k.v[best] = x;
	}
	for (i = 0; i < k.n; i++) {
		size_t sl = strlen(k.v[i]);
		char *f, *from = t;

		/* after each "***": a password of "***" ends too */
		while ((f = strstr(from, k.v[i]))) {
			memmove(f + 3, f + sl, strlen(f + sl) + 1);
			f[0] = f[1] = f[2] = '*';
			from = f + 3;
			hid = true;
		}
	}
	if (hid) {
		size_t o = 0;

		buf[0] = '\0';
		put(buf, len, &o, t, strlen(t));
		m = buf;
	}
	free(t);
out:
	for (i = 0; i < k.n; i++)
		free(k.v[i]);
	return m;
}

void url_json_argv(struct jw *w, const char *key, int argc, char *const *argv)
{
	char buf[4096];
	int i;

	jw_arr_begin_inline(w, key);
	for (i = 0; i < argc; i++)
		jw_str(w, NULL, url_redact(argv[i], argv[i], buf, sizeof(buf)));
	jw_arr_end(w);
}
