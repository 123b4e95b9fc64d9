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

#include <stddef.h>

struct jw;

/*
 * @s with every password of a URL in it left out: "user:secret@" becomes
 * "user@", a "password=..." parameter is dropped (the URL may be anywhere
 * in @s, as in "--db=postgresql://..."). The result is @s itself when it
 * has no password, else @buf (@len bytes, cut if shorter).
 */
const char *url_hide_password(const char *s, char *buf, size_t len);

/* The array @key of the command line @argv (@argc strings) into @w, each
 * argument through url_hide_password(). */
void url_json_argv(struct jw *w, const char *key, int argc, char *const *argv);

#endif
