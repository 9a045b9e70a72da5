/*
 * A raw tracepoint's arguments from BTF: the typedef btf_trace_<event>
 * points to a function whose first parameter (the tracepoint's data) is
 * not an argument; events BTF does not describe, or describes otherwise,
 * are not known from it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <bpf/btf.h>

#include "providers/rawtp_proto.h"

/* typedef void (*btf_trace_<name>)(void *, <nargs ints and pointers>) */
static void add_event(struct btf *b, const char *name, int nargs, int int_id, int ptr_id)
{
	int proto = btf__add_func_proto(b, 0);
	assert_true(proto > 0);
	assert_int_equal(btf__add_func_param(b, "__data", ptr_id), 0);
	for (int i = 0; i < nargs; i++)
		assert_int_equal(btf__add_func_param(b, NULL, i % 2 ? ptr_id : int_id), 0);
	int fp = btf__add_ptr(b, proto);
	assert_true(btf__add_typedef(b, name, fp) > 0);
}

static void test_btf(void **state)
{
	struct btf *b = btf__new_empty();
	struct rawtp_proto p;

	(void)state;
	assert_non_null(b);
	int int_id = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int ptr_id = btf__add_ptr(b, 0);
	add_event(b, "btf_trace_two", 2, int_id, ptr_id);
	add_event(b, "btf_trace_none", 0, int_id, ptr_id);
	add_event(b, "btf_trace_many", 12, int_id, ptr_id);
	/* A typedef of that name that is not a function pointer. */
	assert_true(btf__add_typedef(b, "btf_trace_odd", int_id) > 0);

	assert_true(dt_rawtp_proto_btf(b, "two", &p));
	assert_true(p.typed);
	assert_int_equal(p.nargs, 2);
	assert_int_equal(p.types[0], int_id);
	assert_int_equal(p.types[1], ptr_id);
	assert_true(dt_rawtp_proto_btf(b, "none", &p));
	assert_int_equal(p.nargs, 0);
	/* No more than the probe context holds. */
	assert_true(dt_rawtp_proto_btf(b, "many", &p));
	assert_int_equal(p.nargs, RAWTP_MAX_ARGS);
	assert_false(dt_rawtp_proto_btf(b, "odd", &p));
	assert_int_equal(p.nargs, -1);
	assert_false(dt_rawtp_proto_btf(b, "missing", &p));
	assert_false(p.typed);
	assert_false(dt_rawtp_proto_btf(NULL, "two", &p));
	btf__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_btf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
