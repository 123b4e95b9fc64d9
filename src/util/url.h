/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Passwords in URLs kept out of messages and files. A database URL
 * (libpq's connection URI, PostgreSQL documentation "Connection URIs":
 * scheme://[user[:password]@]host[:port][/dbname][?param=value&...]) may
 * carry a password in its user part or as the parameter "password"; rtlat
 * never shows or stores either.
 */
#ifndef RTLAT_URL_H
#define RTLAT_URL_H

#include <stdbool.h>
#include <stddef.h>

struct jw;

/*
 * @s with every password of a URL in it left out: "user:secret@" becomes
 * "user@", a "password=..." parameter is dropped (the URL may be anywhere
 * in @s, as in "--db=postgresql://..."). The result is @s itself when it
 * has no password, else @buf (@len bytes, cut if shorter).
 */
const char *url_hide_password(const char *s, char *buf, size_t len);

/*
 * Does the URL @s hold more than one '@' in its authority (between "://"
 * and the first '/', '?' or '#')? libpq splits such a URL at its first
 * '@' and takes the rest of the password for the host name (and says it:
 * could not translate host name "REST@host"): an '@' of a user name or
 * password must be percent-encoded (%40).
 */
bool url_user_ambiguous(const char *s);

/*
 * @msg (what a library said about the URL @url) with @url's credentials
 * left out of it: url_hide_password(), then every part of the password
 * (in the user part and as the parameter "password"; itself, and its
 * pieces between ':', '@' and '/' of 3 bytes or more, as written and
 * percent-decoded) replaced by "***". Returns @msg itself when nothing
 * was left out, else @buf (@len bytes, cut if shorter).
 */
const char *url_redact(const char *url, const char *msg, char *buf,
		       size_t len);

/* The array @key of the command line @argv (@argc strings) into @w, each
 * argument through url_redact(). */
void url_json_argv(struct jw *w, const char *key, int argc, char *const *argv);

#endif
