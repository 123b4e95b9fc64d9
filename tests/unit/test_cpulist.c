// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests: CPU lists (core/cpulist) and CPU checks (core/rtsetup). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "system/cpulist.h"
#include "system/rtsetup.h"

static char err[256];

static int parse(const char *s, struct cpuset *set)
{
	err[0] = '\0';
	return cpulist_parse(s, set, err, sizeof(err));
}

static void test_valid(void **state)
{
	struct cpuset s;
	char buf[64];

	(void)state;
	assert_int_equal(parse("0", &s), 0);
	assert_int_equal(cpuset_count(&s), 1);
	assert_true(cpuset_isset(&s, 0));
	assert_int_equal(parse("0,2-3", &s), 0);
	assert_string_equal(cpulist_format(&s, buf, sizeof(buf)), "0,2-3");
	assert_int_equal(parse(" 1-3\n", &s), 0);	/* sysfs style */
	assert_string_equal(cpulist_format(&s, buf, sizeof(buf)), "1-3");
	assert_int_equal(parse("0-7:2", &s), 0);
	assert_string_equal(cpulist_format(&s, buf, sizeof(buf)), "0,2,4,6");
	assert_int_equal(parse("5,1,3-4", &s), 0);
	assert_string_equal(cpulist_format(&s, buf, sizeof(buf)), "1,3-5");
	assert_int_equal(parse("1023", &s), 0);
	assert_int_equal(cpuset_next(&s, 0), 1023);
}

static void test_invalid(void **state)
{
	struct cpuset s;

	(void)state;
	assert_int_equal(parse("\n", &s), -EINVAL);
	assert_string_equal(err, "empty CPU list");
	assert_int_equal(parse("", &s), -EINVAL);
	assert_int_equal(parse("0,,1", &s), -EINVAL);
	assert_non_null(strstr(err, "empty element at position 3"));
	assert_int_equal(parse("1-3,", &s), -EINVAL);
	assert_non_null(strstr(err, "trailing ','"));
	assert_int_equal(parse(",1", &s), -EINVAL);
	assert_int_equal(parse("3-1", &s), -EINVAL);
	assert_non_null(strstr(err, "reversed range 3-1"));
	assert_int_equal(parse("1024", &s), -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(parse("0-99999999999999999999", &s), -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	assert_int_equal(parse("a", &s), -EINVAL);
	assert_non_null(strstr(err, "unexpected 'a'"));
	assert_int_equal(parse("1-", &s), -EINVAL);
	assert_non_null(strstr(err, "unexpected end"));
	assert_int_equal(parse("-1", &s), -EINVAL);
	assert_int_equal(parse("0-3:0", &s), -EINVAL);
	assert_int_equal(parse("1 2", &s), -EINVAL);
}

static void test_check(void **state)
{
	struct cpuset req, on;
	int last = -1, c;

	(void)state;
	cpus_online(&on);
	for (c = 0; c < RTLAT_MAX_CPUS; c++)
		if (cpuset_isset(&on, c))
			last = c;
	assert_true(last >= 0);
	cpuset_zero(&req);
	cpuset_set(&req, 0);
	assert_int_equal(cpus_check(&req, err, sizeof(err)), 0);
	cpuset_set(&req, RTLAT_MAX_CPUS - 1);	/* never online here */
	assert_int_equal(cpus_check(&req, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "CPU 1023 is offline or not present"));
	assert_non_null(strstr(err, "usable CPUs: 0"));
	cpuset_zero(&req);
	assert_int_equal(cpus_check(&req, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty CPU list"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
