/*
 * The clause number a fault names (base/rdesc.h): a clause is numbered
 * once per probe description, so the number is the clause's first plus
 * the index of the description that enabled the probe that fired.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/probe.h"
#include "base/rdesc.h"

static struct dt_probe p1 = { .id = 1 }, p2 = { .id = 2 }, p3 = { .id = 3 };

static void test_numbers(void **state)
{
	(void)state;
	/* Clause 0: "a, b" (a: p1; b: p2, p3); clause 2: "c" (p3). */
	struct dt_probe *const probes0[] = { &p1, &p2, &p3 };
	const int pdesc0[] = { 0, 1, 1 };
	struct dt_probe *const probes2[] = { &p3 };
	const int pdesc2[] = { 0 };
	const struct dt_cdesc c0 = { 0, 3, probes0, pdesc0 }, c2 = { 2, 1, probes2, pdesc2 };
	const struct dt_cdesc *const cds[] = { &c0, &c2 };

	assert_int_equal(dt_cdesc_number(cds, 2, 0, &p1), 0);
	assert_int_equal(dt_cdesc_number(cds, 2, 0, &p2), 1);
	assert_int_equal(dt_cdesc_number(cds, 2, 0, &p3), 1);
	assert_int_equal(dt_cdesc_number(cds, 2, 2, &p3), 2);
	/* A probe the clause does not enable, an unknown clause: the clause's own number. */
	assert_int_equal(dt_cdesc_number(cds, 2, 2, &p1), 2);
	assert_int_equal(dt_cdesc_number(cds, 2, 7, &p1), 7);
	assert_int_equal(dt_cdesc_number(cds, 0, 0, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
