// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: passwords in URLs left out of messages and files (core/url). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "util/url.h"

static const char *hide(const char *s)
{
	static char buf[256];

	return url_hide_password(s, buf, sizeof(buf));
}

static void test_user_part(void **state)
{
	(void)state;
	assert_string_equal(hide("postgresql://lab:s3cr3t@db.lab:5432/rt"),
			    "postgresql://lab@db.lab:5432/rt");
	/* '@' in the password: the last '@' before the host ends the user */
	assert_string_equal(hide("postgres://u:p@ss@h/d"), "postgres://u@h/d");
	/* inside an argument, as --db=URL */
	assert_string_equal(hide("--db=postgresql://u:x@h/d"),
			    "--db=postgresql://u@h/d");
}

static void test_parameter(void **state)
{
	(void)state;
	assert_string_equal(hide("postgresql://u@h/d?password=s&sslmode=require"),
			    "postgresql://u@h/d?sslmode=require");
	assert_string_equal(hide("postgresql://h/d?sslmode=require&PASSWORD=s"),
			    "postgresql://h/d?sslmode=require");
	assert_string_equal(hide("postgresql://h/d?password=s"), "postgresql://h/d");
	assert_string_equal(hide("postgresql://u:a@h/d?password=b&x=1#f"),
			    "postgresql://u@h/d?x=1#f");
	/* sslpassword (the client key's) is a password too (the breaker's
	 * trial saw it printed in clear) */
	assert_string_equal(hide("postgresql://bob@h:1/db?sslpassword=SSLPW@x"),
			    "postgresql://bob@h:1/db");
	assert_string_equal(hide("postgresql://h/d?sslmode=require&SSLPassword=s&x=1"),
			    "postgresql://h/d?sslmode=require&x=1");
	/* libpq decodes the names: "pass%77ord" is the password too */
	assert_string_equal(hide("postgresql://u@h/d?pass%77ord=s&x=1"),
			    "postgresql://u@h/d?x=1");
	assert_string_equal(hide("postgresql://u@h/d?%70ASSWORD=s"),
			    "postgresql://u@h/d");
	assert_string_equal(hide("postgresql://h/d?passwordx=1"),
			    "postgresql://h/d?passwordx=1");
	/* a URL quoted in a message (libpq's parse errors repeat it) */
	assert_string_equal(hide("bad host in URI: \"postgresql://u:pw@[::1:5/d\""),
			    "bad host in URI: \"postgresql://u@[::1:5/d\"");
}

static void test_unchanged(void **state)
{
	const char *s[] = { "postgresql://u@h:5432/d?sslmode=require",
			    "postgresql://h:5432/d", "/var/lib/rtlat/history.db",
			    "latency", "", "a:b@c", NULL };
	char buf[64];
	int i;

	(void)state;
	for (i = 0; s[i]; i++)
		assert_ptr_equal(url_hide_password(s[i], buf, sizeof(buf)), s[i]);
	assert_null(url_hide_password(NULL, buf, sizeof(buf)));
}

static void test_cut(void **state)
{
	char buf[16];

	(void)state;
	/* a short buffer cuts the result, never shows the password */
	assert_string_equal(url_hide_password("postgresql://user:pw@host/db",
					      buf, sizeof(buf)), "postgresql://us");
}

static void test_ambiguous(void **state)
{
	(void)state;
	assert_true(url_user_ambiguous("postgresql://u:pa@SECRET@127.0.0.1/d"));
	assert_true(url_user_ambiguous("--db=postgres://a@b@h"));
	assert_false(url_user_ambiguous("postgresql://u:pa%40SECRET@127.0.0.1/d"));
	assert_false(url_user_ambiguous("postgresql://u@h/d?x=a@b@c"));
	assert_false(url_user_ambiguous("postgresql://h/d"));
	assert_false(url_user_ambiguous("a@b@c"));
	assert_false(url_user_ambiguous(NULL));
}

static void test_redact(void **state)
{
	const char *u1 = "postgresql://rtlat:SECRET/PASS@127.0.0.1:1/x";
	const char *u2 = "postgresql://u@h/d?password=p%40ss%3Aword&sslmode=disable";
	const char *u3 = "postgresql://u:***@h/d";
	const char *m = "no such host";
	char buf[256];

	(void)state;
	/* libpq took the part after the '/' for the port */
	assert_string_equal(url_redact(u1, "invalid integer value \"SECRET\" for connection option \"port\"",
				       buf, sizeof(buf)),
			    "invalid integer value \"***\" for connection option \"port\"");
	/* the URL itself: its whole password */
	assert_string_equal(url_redact(u1, u1, buf, sizeof(buf)),
			    "postgresql://rtlat:***@127.0.0.1:1/x");
	/* a parameter's password, percent-decoded and in pieces */
	assert_string_equal(url_redact(u2, "p@ss:word, then p%40ss%3Aword", buf,
				       sizeof(buf)), "***, then ***");
	assert_string_equal(url_redact(u2, "word and pss", buf, sizeof(buf)),
			    "*** and pss");
	/* a password of "***" ends */
	assert_string_equal(url_redact(u3, "x *** y", buf, sizeof(buf)),
			    "x *** y");
	/* nothing to leave out: the message itself */
	assert_ptr_equal(url_redact("postgresql://u@h/d", m, buf, sizeof(buf)), m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_user_part),
		cmocka_unit_test(test_parameter),
		cmocka_unit_test(test_unchanged),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_ambiguous),
		cmocka_unit_test(test_redact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
