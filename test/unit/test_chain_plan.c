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
#include <gelf.h>
#include <libelf.h>

#include "compiler/chain_plan.h"

/* The run-time library, embedded in the library (bpf/link.c). */
extern const unsigned char dt_runtime_obj[];
extern const unsigned char dt_runtime_obj_end[];

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

/*
 * The room a program keeps for the run-time library's functions holds
 * them all (with dt_fault, dt_error and the program itself): a probe's
 * clauses that fit the plan never exceed the kernel's 256 functions.
 */
static void test_runtime_fits_reserve(void **state)
{
	(void)state;
	size_t funcs = 0;

	assert_int_not_equal(elf_version(EV_CURRENT), EV_NONE);
	Elf *e = elf_memory((char *)dt_runtime_obj, (size_t)(dt_runtime_obj_end - dt_runtime_obj));
	assert_non_null(e);
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		assert_non_null(d);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			if (gelf_getsym(d, (int)i, &sym) != NULL && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
				funcs++;
		}
	}
	elf_end(e);
	assert_true(funcs > 0);
	assert_true(funcs + 3 <= DT_CHAIN_FUNCS_RESERVED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_program),
		cmocka_unit_test(test_by_functions),
		cmocka_unit_test(test_by_instructions),
		cmocka_unit_test(test_chain_too_long),
		cmocka_unit_test(test_default_limits),
		cmocka_unit_test(test_runtime_fits_reserve),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
