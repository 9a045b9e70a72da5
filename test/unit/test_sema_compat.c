/*
 * DTrace's operand classes and compatibility rules (sema_compat.c), on
 * types built as D builds them: integers, pointers, arrays, strings,
 * structs and D's own types.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/types.h"
#include "compiler/sema_impl.h"
#include "lib/dt_impl.h"

static struct dt_core core;
static struct dt_compiler cc = { .core = &core };
static struct dtrace_hdl h = { .core = &core, .cc = &cc }, *hdl = &h;
static struct dt_pcb pcb;

static int setup(void **state)
{
	(void)state;
	if (dt_typetab_init(&hdl->core->types) < 0)
		return -1;
	memset(&pcb, 0, sizeof(pcb));
	pcb.cc = hdl->cc;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dt_typetab_fini(&hdl->core->types);
	return 0;
}

#define TT (&hdl->core->types)

static struct dt_node node(struct dt_type *t)
{
	struct dt_node n;

	memset(&n, 0, sizeof(n));
	n.kind = N_IDENT;
	n.type = t;
	return n;
}

static struct dt_node constant(struct dt_type *t, int64_t v)
{
	struct dt_node n = node(t);

	n.kind = N_INT;
	n.flags = DN_CONST;
	n.cval = v;
	return n;
}

static struct dt_type *sou(const char *name)
{
	struct dt_type *t = dt_type_new(TT, TK_STRUCT, name);

	t->size = 8;
	t->members_loaded = true;
	return t;
}

static void test_classes(void **state)
{
	(void)state;
	struct dt_type *ip = dt_type_ptr(TT, TT->t_int);
	assert_true(dt_sema_is_integer(TT->t_char));
	assert_false(dt_sema_is_integer(TT->t_void));
	assert_false(dt_sema_is_integer(TT->t_symaddr));
	assert_true(dt_sema_is_scalar(ip));
	assert_false(dt_sema_is_scalar(TT->t_string));
	assert_false(dt_sema_is_scalar(dt_type_array(TT, TT->t_int, 4)));
	assert_true(dt_sema_is_pointer(dt_type_array(TT, TT->t_int, 4)));
	assert_false(dt_sema_is_pointer(TT->t_string));
	assert_true(dt_sema_is_vfptr(TT->t_voidptr));
	assert_false(dt_sema_is_vfptr(ip));
	assert_true(dt_sema_is_strcompat(TT->t_charptr));
	assert_true(dt_sema_is_strcompat(dt_type_array(TT, TT->t_char, 16)));
	assert_false(dt_sema_is_strcompat(ip));
	assert_true(dt_sema_is_dynamic(TT->t_dyn));
}

static void test_ptrcompat(void **state)
{
	(void)state;
	struct dt_node ip = node(dt_type_ptr(TT, TT->t_int));
	struct dt_node cp = node(TT->t_charptr);
	struct dt_node vp = node(TT->t_voidptr);
	struct dt_node zero = constant(TT->t_int, 0), one = constant(TT->t_int, 1);
	struct dt_node ia = node(dt_type_array(TT, TT->t_int, 4));

	assert_true(dt_sema_ptrcompat(&pcb, &ip, &ip));
	assert_false(dt_sema_ptrcompat(&pcb, &ip, &cp));
	assert_true(dt_sema_ptrcompat(&pcb, &ip, &vp));
	assert_true(dt_sema_ptrcompat(&pcb, &vp, &cp));
	assert_true(dt_sema_ptrcompat(&pcb, &ip, &zero));
	assert_false(dt_sema_ptrcompat(&pcb, &ip, &one));
	assert_false(dt_sema_ptrcompat(&pcb, &zero, &zero));
	assert_true(dt_sema_ptrcompat(&pcb, &ip, &ia));
	/* A user-space pointer only with another. */
	struct dt_node up = node(dt_type_ptr(TT, TT->t_int));
	up.flags = DN_USERLAND;
	assert_false(dt_sema_ptrcompat(&pcb, &ip, &up));
}

static void test_argcompat(void **state)
{
	(void)state;
	struct dt_node i = node(TT->t_int), l = node(TT->t_long);
	struct dt_node s = node(TT->t_string), cp = node(TT->t_charptr);
	struct dt_node v = node(TT->t_void), zero = constant(TT->t_int, 0);
	struct dt_type *a = sou("a"), *b = sou("b");
	struct dt_node sa = node(a), sa2 = node(a), sb = node(b);
	struct dt_node st = node(TT->t_stack), ust = node(TT->t_ustack), sym = node(TT->t_symaddr);

	assert_true(dt_sema_argcompat(&pcb, &i, &l));
	assert_true(dt_sema_argcompat(&pcb, &s, &cp));
	assert_true(dt_sema_argcompat(&pcb, &s, &zero));
	assert_false(dt_sema_argcompat(&pcb, &s, &i));
	assert_false(dt_sema_argcompat(&pcb, &v, &v));
	assert_true(dt_sema_argcompat(&pcb, &sa, &sa2));
	assert_false(dt_sema_argcompat(&pcb, &sa, &sb));
	assert_true(dt_sema_argcompat(&pcb, &st, &ust));
	assert_false(dt_sema_argcompat(&pcb, &st, &sym));
	assert_false(dt_sema_argcompat(&pcb, &i, &sym));
	assert_true(dt_sema_type_argcompat(&pcb, TT->t_int, &l));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_ptrcompat),
		cmocka_unit_test(test_argcompat),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
