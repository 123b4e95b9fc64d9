// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: JSON writer and string escaping (core/jsonw). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/jsonw.h"

static char *escaped(const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");

	assert_non_null(f);
	json_put_string(f, s);
	fclose(f);
	return out;
}

static void test_escape(void **state)
{
	(void)state;
	assert_string_equal(escaped("plain"), "\"plain\"");
	assert_string_equal(escaped("a\"b\\c"), "\"a\\\"b\\\\c\"");
	assert_string_equal(escaped("t\tn\nr\r"), "\"t\\tn\\nr\\r\"");
	assert_string_equal(escaped("\x01\x1f"), "\"\\u0001\\u001f\"");
	assert_string_equal(escaped("/"), "\"/\"");
	/* valid UTF-8 passes: µs, €, U+1F600 */
	assert_string_equal(escaped("\xc2\xb5s"), "\"\xc2\xb5s\"");
	assert_string_equal(escaped("\xe2\x82\xac"), "\"\xe2\x82\xac\"");
	assert_string_equal(escaped("\xf0\x9f\x98\x80"), "\"\xf0\x9f\x98\x80\"");
	/* invalid bytes become U+FFFD: stray continuation, truncated
	 * sequence, overlong, surrogate, > U+10FFFF, 0xff */
	assert_string_equal(escaped("\x80"), "\"\\ufffd\"");
	assert_string_equal(escaped("\xc2"), "\"\\ufffd\"");
	assert_string_equal(escaped("\xe2\x82"), "\"\\ufffd\\ufffd\"");
	assert_string_equal(escaped("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
	assert_string_equal(escaped("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(escaped("\xf4\x90\x80\x80"),
			    "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
	assert_string_equal(escaped("a\xffz"), "\"a\\ufffdz\"");
}

static void test_document(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	(void)state;
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	jw_int(&w, "min_ns", -35125);
	jw_uint(&w, "n", UINT64_C(18446744073709551615));
	jw_double(&w, "avg", NAN, 1);
	jw_double(&w, "inf", INFINITY, 1);
	jw_double(&w, "x", 2.25, 2);
	jw_double(&w, "negzero", -0.0, 1);
	jw_null(&w, "none");
	jw_bool(&w, "t", true);
	jw_arr_begin_inline(&w, "row");
	jw_int(&w, NULL, 1);
	jw_null(&w, NULL);
	jw_str(&w, NULL, "s");
	jw_arr_end(&w);
	jw_arr_begin(&w, "empty");
	jw_arr_end(&w);
	jw_obj_begin(&w, "o");
	jw_str(&w, "k", NULL);
	jw_obj_end(&w);
	jw_obj_end(&w);
	assert_true(jw_finish(&w));
	fclose(f);
	assert_string_equal(buf,
		"{\n"
		"  \"min_ns\": -35125,\n"
		"  \"n\": 18446744073709551615,\n"
		"  \"avg\": null,\n"
		"  \"inf\": null,\n"
		"  \"x\": 2.25,\n"
		"  \"negzero\": 0.0,\n"
		"  \"none\": null,\n"
		"  \"t\": true,\n"
		"  \"row\": [1, null, \"s\"],\n"
		"  \"empty\": [],\n"
		"  \"o\": {\n"
		"    \"k\": null\n"
		"  }\n"
		"}\n");
	free(buf);
}

static void test_unbalanced(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct jw w;

	(void)state;
	jw_init(&w, f);
	jw_obj_begin(&w, NULL);
	assert_false(jw_finish(&w));	/* an object left open */
	fclose(f);
	free(buf);
}

static void test_number_text(void **state)
{
	static const char *const yes[] = {
		"0", "-0", "12", "-3.25", "10150431", "1e3", "2.5E-7", "0.00",
	};
	static const char *const no[] = {
		"", "-", "+2", "01", ".5", "5.", "1e", "1e+", "0x10", "inf",
		"nan", "1 ", " 1", "1,5", "n/a",
	};
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;
	struct jw w;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(json_is_number(yes[i]));
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(json_is_number(no[i]));
	f = open_memstream(&buf, &len);
	jw_init(&w, f);
	jw_obj_begin_inline(&w, NULL);
	jw_number_text(&w, "a", "-2.77");
	jw_number_text(&w, "b", "+2.77");
	jw_number_text(&w, "c", NULL);
	jw_obj_end(&w);
	assert_true(jw_finish(&w));
	fclose(f);
	assert_string_equal(buf, "{\"a\": -2.77, \"b\": \"+2.77\", \"c\": null}\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_unbalanced),
		cmocka_unit_test(test_number_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
