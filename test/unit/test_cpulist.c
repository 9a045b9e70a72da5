/*
 * CPU lists as the kernel writes them (/sys/devices/system/cpu/online):
 * -x cpu=N must name a CPU in it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/util.h"

static void test_ranges(void **state)
{
	(void)state;
	assert_true(dt_cpulist_has("0-1\n", 0));
	assert_true(dt_cpulist_has("0-1\n", 1));
	assert_false(dt_cpulist_has("0-1\n", 2));
	assert_false(dt_cpulist_has("0-1\n", -1));
	assert_true(dt_cpulist_has("0,2-3,7\n", 3));
	assert_true(dt_cpulist_has("0,2-3,7\n", 7));
	assert_false(dt_cpulist_has("0,2-3,7\n", 1));
	assert_false(dt_cpulist_has("0,2-3,7\n", 4));
	assert_true(dt_cpulist_has("5", 5));
	assert_false(dt_cpulist_has("0-1", 4294967296LL));
}

static void test_malformed(void **state)
{
	(void)state;
	assert_false(dt_cpulist_has("", 0));
	assert_false(dt_cpulist_has("\n", 0));
	assert_false(dt_cpulist_has("a-b", 0));
	assert_false(dt_cpulist_has("3-1", 2));
	assert_false(dt_cpulist_has("0-", 0));
	assert_false(dt_cpulist_has("1;2", 2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_malformed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
