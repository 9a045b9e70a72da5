/*
 * lock:contention_begin's flag values, taken from the names its format
 * file gives them: the kernel's own print fmt, other spellings of the
 * values, and formats that lack one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "providers/lockstat_flags.h"

static const char kernel_format[] =
	"name: contention_begin\n"
	"ID: 408\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:void * lock_addr;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:unsigned int flags;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"%p (flags=%s)\", REC->lock_addr, __print_flags(REC->flags, \"|\", "
	"{ (1U << 0), \"SPIN\" }, { (1U << 1), \"READ\" }, { (1U << 2), \"WRITE\" }, "
	"{ (1U << 3), \"RT\" }, { (1U << 4), \"PERCPU\" }, { (1U << 5), \"MUTEX\" } )\n";

static void test_kernel(void **state)
{
	struct lock_flags f;
	const char *missing = NULL;

	(void)state;
	assert_true(dt_lock_flags_parse(kernel_format, &f, &missing));
	assert_int_equal(f.spin, 1);
	assert_int_equal(f.read, 2);
	assert_int_equal(f.write, 4);
	assert_int_equal(f.rt, 8);
	assert_int_equal(f.percpu, 16);
	assert_int_equal(f.mutex, 32);
}

static void test_spellings(void **state)
{
	struct lock_flags f;
	const char *missing = NULL;

	(void)state;
	/* Plain and hexadecimal values, in another order, with other flags among them. */
	assert_true(dt_lock_flags_parse(
		"print fmt: \"%s\", __print_flags(REC->flags, \"|\", { 0x20, \"MUTEX\" }, "
		"{ 64, \"OTHER\" }, { 1, \"SPIN\" }, { 0x2, \"READ\" }, { 4UL, \"WRITE\" }, "
		"{ (1UL << 3), \"RT\" }, { (1U<<4), \"PERCPU\" })", &f, &missing));
	assert_int_equal(f.mutex, 32);
	assert_int_equal(f.spin, 1);
	assert_int_equal(f.write, 4);
	assert_int_equal(f.rt, 8);
	assert_int_equal(f.percpu, 16);
}

static void test_missing(void **state)
{
	struct lock_flags f;
	const char *missing = NULL;

	(void)state;
	/* No MUTEX (an older kernel's names would differ). */
	assert_false(dt_lock_flags_parse(
		"print fmt: \"%s\", __print_flags(REC->flags, \"|\", { (1U << 0), \"SPIN\" }, "
		"{ (1U << 1), \"READ\" }, { (1U << 2), \"WRITE\" }, { (1U << 3), \"RT\" }, "
		"{ (1U << 4), \"PERCPU\" })", &f, &missing));
	assert_string_equal(missing, "MUTEX");
	/* A name only in the fields, not in the print fmt's flags. */
	assert_false(dt_lock_flags_parse("field:int SPIN;\nprint fmt: \"%d\", REC->x", &f, &missing));
	assert_string_equal(missing, "SPIN");
	/* No print fmt at all; a value that is not a number. */
	assert_false(dt_lock_flags_parse("{ 1, \"SPIN\" }", &f, &missing));
	assert_false(dt_lock_flags_parse("print fmt: { X, \"SPIN\" }", &f, &missing));
	assert_false(dt_lock_flags_parse("print fmt: { (1U << 40), \"SPIN\" }", &f, &missing));
	assert_false(dt_lock_flags_parse("print fmt: { 0, \"SPIN\" }", &f, &missing));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_spellings),
		cmocka_unit_test(test_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
