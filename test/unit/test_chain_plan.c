/*
 * A probe's clauses spread over chained programs (compiler/chain_plan.c):
 * in order, as few programs as the limits allow, each clause in exactly
 * one, and an error when the chain would be longer than the kernel runs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "compiler/chain_plan.h"

static struct dt_clause_cost *costs(size_t n, size_t insns)
{
	struct dt_clause_cost *c = calloc(n ? n : 1, sizeof(*c));

	assert_non_null(c);
	for (size_t i = 0; i < n; i++)
		c[i] = (struct dt_clause_cost){ 1, insns };
	return c;
}

static void test_one_program(void **state)
{
	(void)state;
	struct dt_chain_limits lim = { 10, 1000, 34 };
	struct dt_clause_cost *c = costs(10, 100);
	size_t ends[10];

	/* Exactly full: still one program (the common case stays as it is). */
	assert_int_equal(dt_chain_plan(c, 10, &lim, ends), 1);
	assert_int_equal(ends[0], 10);
	assert_int_equal(dt_chain_plan(c, 0, &lim, ends), 0);
	free(c);
}

static void test_by_functions(void **state)
{
	(void)state;
	struct dt_chain_limits lim = { 10, 1000000, 34 };
	struct dt_clause_cost *c = costs(25, 10);
	size_t ends[25];

	assert_int_equal(dt_chain_plan(c, 25, &lim, ends), 3);
	assert_int_equal(ends[0], 10);
	assert_int_equal(ends[1], 20);
	assert_int_equal(ends[2], 25);
	free(c);
}

static void test_by_instructions(void **state)
{
	(void)state;
	struct dt_chain_limits lim = { 100, 1000, 34 };
	struct dt_clause_cost c[] = { { 1, 400 }, { 1, 500 }, { 1, 200 }, { 1, 5000 }, { 1, 1 } };
	size_t ends[5];

	/* 400+500 fit; 200 starts the next; 5000 alone is too big but gets its own. */
	assert_int_equal(dt_chain_plan(c, 5, &lim, ends), 4);
	assert_int_equal(ends[0], 2);
	assert_int_equal(ends[1], 3);
	assert_int_equal(ends[2], 4);
	assert_int_equal(ends[3], 5);
}

static void test_chain_too_long(void **state)
{
	(void)state;
	struct dt_chain_limits lim = { 2, 1000000, 34 };
	struct dt_clause_cost *c = costs(69, 1);
	size_t ends[69];

	assert_int_equal(dt_chain_plan(c, 68, &lim, ends), 34);
	assert_int_equal(ends[33], 68);
	assert_int_equal(dt_chain_plan(c, 69, &lim, ends), -E2BIG);
	free(c);
}

static void test_default_limits(void **state)
{
	(void)state;
	struct dt_chain_limits lim;
	struct dt_clause_cost *c = costs(5000, 40);
	size_t ends[5000];

	dt_chain_limits_default(&lim, 0);
	assert_int_equal(lim.max_progs, 34);
	assert_true(lim.max_funcs + DT_CHAIN_FUNCS_RESERVED == DT_BPF_MAX_SUBPROGS);
	/* 5,000 small clauses fit in one chain; every clause in one program, in order. */
	int n = dt_chain_plan(c, 5000, &lim, ends);
	assert_true(n > 1 && n <= 34);
	for (int k = 0; k < n; k++) {
		size_t from = k ? ends[k - 1] : 0;
		assert_true(ends[k] > from);
		assert_true(ends[k] - from <= lim.max_funcs);
	}
	assert_int_equal(ends[n - 1], 5000);
	/* ERROR clauses take room in every program. */
	dt_chain_limits_default(&lim, 300);
	assert_int_equal(lim.max_funcs, 1);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_program),
		cmocka_unit_test(test_by_functions),
		cmocka_unit_test(test_by_instructions),
		cmocka_unit_test(test_chain_too_long),
		cmocka_unit_test(test_default_limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
