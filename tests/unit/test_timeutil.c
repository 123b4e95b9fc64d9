// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: time arithmetic and formatting (core/timeutil, core/parse). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/parse.h"
#include "util/timeutil.h"

static void test_sub_borrow(void **state)
{
	struct timespec a = { 10, 100 }, b = { 9, 999999900 };

	(void)state;
	/* 10.000000100 - 9.999999900 = 200 ns: borrow across the second */
	assert_int_equal(ts_sub_ns(&a, &b), 200);
	assert_int_equal(ts_sub_ns(&b, &a), -200);
}

static void test_long_deltas(void **state)
{
	struct timespec t0 = { 1000, 500000000 };
	struct timespec t1 = { 1002, 600000000 };	/* + 2.1 s */
	struct timespec t2 = { 1002, 700000000 };	/* + 2.2 s */
	struct timespec t3 = { 4600, 500000000 };	/* + 1 h */
	struct timespec t4 = { 2000000000, 0 };		/* + ~63 years */

	(void)state;
	/* 2.1 s and 2.2 s overflow a 32-bit ns count (max 2.147 s) */
	assert_int_equal(ts_sub_ns(&t1, &t0), INT64_C(2100000000));
	assert_int_equal(ts_sub_ns(&t2, &t0), INT64_C(2200000000));
	assert_int_equal(ts_sub_ns(&t3, &t0), INT64_C(3600000000000));
	assert_int_equal(ts_sub_ns(&t4, &t0),
			 INT64_C(1999999000) * NSEC_PER_SEC - 500000000);
	assert_int_equal(ts_to_ns(&t3), INT64_C(4600500000000));
}

static void test_ns_to_ts(void **state)
{
	struct timespec ts;

	(void)state;
	ts = ns_to_ts(INT64_C(3600000000001));
	assert_int_equal(ts.tv_sec, 3600);
	assert_int_equal(ts.tv_nsec, 1);
	ts = ns_to_ts(-1);	/* -1 ns = -1 s + 999999999 ns */
	assert_int_equal(ts.tv_sec, -1);
	assert_int_equal(ts.tv_nsec, 999999999);
	ts = ns_to_ts(-NSEC_PER_SEC);
	assert_int_equal(ts.tv_sec, -1);
	assert_int_equal(ts.tv_nsec, 0);
	assert_int_equal(ts_to_ns(&ts), -NSEC_PER_SEC);
}

static void test_fmt(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(fmt_us3(b, 1393), "1.393");
	assert_string_equal(fmt_us3(b, -35125), "-35.125");
	assert_string_equal(fmt_us3(b, 5), "0.005");
	assert_string_equal(fmt_us3(b, -5), "-0.005");
	assert_string_equal(fmt_us3(b, 0), "0.000");
	assert_string_equal(fmt_us3(b, INT64_MIN), "-9223372036854775.808");
	assert_string_equal(fmt_hms(b, 3725 * NSEC_PER_SEC + 999), "01:02:05");
	assert_string_equal(fmt_hms(b, 100 * 3600 * NSEC_PER_SEC), "100:00:00");
	assert_string_equal(fmt_time(b, 100 * NSEC_PER_USEC), "100 us");
	assert_string_equal(fmt_time(b, NSEC_PER_SEC), "1 s");
	assert_string_equal(fmt_time(b, 2500), "2.500 us");
	assert_string_equal(fmt_time(b, 0), "0 ns");
	assert_string_equal(fmt_utc(b, INT64_C(1796155448123000000)),
			    "2026-12-01T20:04:08.123Z");
}

static void test_parse_time(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(parse_time_ns("30", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, 30 * NSEC_PER_SEC);
	assert_int_equal(parse_time_ns("10m", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, 600 * NSEC_PER_SEC);
	assert_int_equal(parse_time_ns("2h", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, 7200 * NSEC_PER_SEC);
	assert_int_equal(parse_time_ns("100", NSEC_PER_USEC, &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(parse_time_ns("2.5ms", NSEC_PER_USEC, &v), 0);
	assert_int_equal(v, 2500000);
	assert_int_equal(parse_time_ns("0.000000001s", NSEC_PER_USEC, &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(parse_time_ns("1.123456789d", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, INT64_C(97066666569600));
	/* a non-zero value below 1 ns is not 0 ("forever" for -T) */
	assert_int_equal(parse_time_ns("0.5ns", NSEC_PER_SEC, &v), -ERANGE);
	assert_int_equal(parse_time_ns("0.0000000001", NSEC_PER_SEC, &v), -ERANGE);
	assert_int_equal(parse_time_ns("0.0s", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_time_ns("0", NSEC_PER_SEC, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_time_ns("", NSEC_PER_SEC, &v), -EINVAL);
	assert_int_equal(parse_time_ns("-1", NSEC_PER_SEC, &v), -EINVAL);
	assert_int_equal(parse_time_ns("10x", NSEC_PER_SEC, &v), -EINVAL);
	assert_int_equal(parse_time_ns("s", NSEC_PER_SEC, &v), -EINVAL);
	assert_int_equal(parse_time_ns(".", NSEC_PER_SEC, &v), -EINVAL);
	assert_int_equal(parse_time_ns("99999999999d", NSEC_PER_SEC, &v), -ERANGE);
	assert_int_equal(parse_time_ns("99999999999999999999999", 1, &v), -ERANGE);
}

static void test_parse_int(void **state)
{
	long long v;

	(void)state;
	assert_int_equal(parse_int("99", 0, 99, &v), 0);
	assert_int_equal(v, 99);
	assert_int_equal(parse_int("100", 0, 99, &v), -ERANGE);
	assert_int_equal(parse_int("-1", 0, 99, &v), -ERANGE);
	assert_int_equal(parse_int("1a", 0, 99, &v), -EINVAL);
	assert_int_equal(parse_int("", 0, 99, &v), -EINVAL);
	assert_int_equal(parse_int(" 1", 0, 99, &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sub_borrow),
		cmocka_unit_test(test_long_deltas),
		cmocka_unit_test(test_ns_to_ts),
		cmocka_unit_test(test_fmt),
		cmocka_unit_test(test_parse_time),
		cmocka_unit_test(test_parse_int),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
