/*
 * Compile-time errors of the printf engine: each tag and message is the one
 * of the conformance test named beside it (the text after "line N: ").
 */
#include "printf_helpers.h"

#include <errno.h>

static const struct dt_pf_check_opts printf_opts = {
	.func = "printf", .first_argno = 1, .exact_len = true,
};
static const struct dt_pf_check_opts printa_opts = {
	.func = "printa", .first_argno = 1, .aggregation = true,
};

#define INT ty(DT_PFA_INT, 4, true, "int")
#define STR ty(DT_PFA_STRING, 256, false, "string")
#define AGG ty(DT_PFA_AGG, 0, false, "aggregation")
#define VOID ty(DT_PFA_VOID, 0, false, "void")

/* The error that parsing or checking `fmt` with `args` gives. */
static void expect_err(const char *fmt, const struct dt_pf_check_opts *o,
		       const struct dt_pf_argtype *args, size_t n, const char *tag,
		       const char *msg)
{
	struct dt_pf_format *f;
	struct dt_pf_error err = { 0 };
	int rc = dt_pf_parse(fmt, &f, &err);

	if (rc == 0) {
		rc = dt_pf_check(f, o, args, n, &err);
		dt_pf_free(f);
	}
	if (rc != -EINVAL)
		fail_msg("\"%s\": no error (rc %d)", fmt, rc);
	assert_string_equal(err.tag, tag);
	assert_string_equal(err.msg, msg);
}

static void expect_ok(const char *fmt, const struct dt_pf_check_opts *o,
		      const struct dt_pf_argtype *args, size_t n)
{
	struct dt_pf_format *f;
	struct dt_pf_error err = { 0 };

	if (dt_pf_parse(fmt, &f, &err) != 0)
		fail_msg("\"%s\": %s", fmt, err.msg);
	if (dt_pf_check(f, o, args, n, &err) != 0)
		fail_msg("\"%s\": %s: %s", fmt, err.tag, err.msg);
	dt_pf_free(f);
}

#define ARGS(...) (const struct dt_pf_argtype[]){ __VA_ARGS__ }, \
	sizeof((const struct dt_pf_argtype[]){ __VA_ARGS__ }) / sizeof(struct dt_pf_argtype)
#define NOARGS NULL, 0

/* actions/printf/err.D_SYNTAX.*, printf/err.D_SYNTAX.* */
static void test_syntax(void **state)
{
	expect_err("%.*.*d", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 has more than one '.' specified");
	expect_err("%**d", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 has more than one '*' specified for the output width");
	expect_err("%.**d", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 has more than one '*' specified for the output precision");
	expect_err("%.*1$d", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 uses unsupported positional format (%n$)");
	expect_err("%1$d", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 uses unsupported positional format (%n$)");
	expect_err("%*", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 name expected before end of format string");
	expect_err("%3", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 name expected before end of format string");
	expect_err("%-%", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 cannot be combined with other format flags: %%");
	expect_err("%z", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 is undefined: %z");
	expect_err("%Z", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 is undefined: %Z");
	/* C99's hh, j, z, t are not DTrace's: j is taken as the conversion. */
	expect_err("%d %hhd", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #2 is undefined: %hhd");
	expect_err("%jd", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #1 is undefined: %j");
	/* %% counts as a conversion. */
	expect_err("%% %q", &printf_opts, NOARGS, "D_SYNTAX",
		   "format conversion #2 is undefined: %q");
}

/* actions/printf/err.D_PRINTF_ARG_PROTO.*, printf/err.D_PRINTF_ARG_PROTO.novalue */
static void test_missing_values(void **state)
{
	expect_err("%d", &printf_opts, NOARGS, "D_PRINTF_ARG_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding value argument");
	expect_err("%.*d", &printf_opts, ARGS(INT), "D_PRINTF_ARG_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding value argument");
	expect_err("%*d", &printf_opts, ARGS(INT), "D_PRINTF_ARG_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding value argument");
	expect_err("%d %d %d %d %d", &printf_opts, ARGS(INT, INT, INT), "D_PRINTF_ARG_PROTO",
		   "printf( ) prototype mismatch: conversion #4 (%d) is missing a "
		   "corresponding value argument");
	expect_err("%s", &printf_opts, NOARGS, "D_PRINTF_ARG_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%s) is missing a "
		   "corresponding value argument");
}

/* actions/printf/err.D_PRINTF_DYN_PROTO.*, printf/err.D_PRINTF_DYN_PROTO.noprec */
static void test_missing_dynamic(void **state)
{
	expect_err("%*.*d", &printf_opts, ARGS(INT), "D_PRINTF_DYN_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding \".*\" argument");
	expect_err("%*.*d", &printf_opts, NOARGS, "D_PRINTF_DYN_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding \"*\" argument");
	expect_err("%*d", &printf_opts, NOARGS, "D_PRINTF_DYN_PROTO",
		   "printf( ) prototype mismatch: conversion #1 (%d) is missing a "
		   "corresponding \"*\" argument");
	expect_err("%s %.*d\n", &printf_opts, ARGS(STR), "D_PRINTF_DYN_PROTO",
		   "printf( ) prototype mismatch: conversion #2 (%d) is missing a "
		   "corresponding \".*\" argument");
}

/* actions/printf/err.D_PRINTF_DYN_TYPE.*, printf/err.D_PRINTF_DYN_TYPE.badwidth */
static void test_dynamic_types(void **state)
{
	static const char msg[] = "printf( ) argument #2 is incompatible with conversion #1 "
				  "prototype:\n\tconversion: % * d\n\t prototype: int\n"
				  "\t  argument: string";

	expect_err("%*.*d", &printf_opts, ARGS(STR, STR, INT), "D_PRINTF_DYN_TYPE", msg);
	expect_err("%*d", &printf_opts, ARGS(STR, INT), "D_PRINTF_DYN_TYPE", msg);
	expect_err("%*d\n", &printf_opts, ARGS(STR, INT), "D_PRINTF_DYN_TYPE", msg);
	/* The precision's own spelling. */
	expect_err("%.*s", &printf_opts, ARGS(STR, STR), "D_PRINTF_DYN_TYPE",
		   "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: % .* s\n\t prototype: int\n\t  argument: string");
}

/* actions/printf/err.D_PRINTF_ARG_TYPE.*, printf/err.D_PRINTF_ARG_TYPE.* */
static void test_value_types(void **state)
{
	expect_err("%d", &printf_opts, ARGS(AGG), "D_PRINTF_ARG_TYPE",
		   "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %d\n\t prototype: char, short, int, long, or long long\n"
		   "\t  argument: aggregation");
	expect_err("%d", &printf_opts, ARGS(STR), "D_PRINTF_ARG_TYPE",
		   "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %d\n\t prototype: char, short, int, long, or long long\n"
		   "\t  argument: string");
	expect_err("%*.*d", &printf_opts, ARGS(INT, INT, STR), "D_PRINTF_ARG_TYPE",
		   "printf( ) argument #4 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %d\n\t prototype: char, short, int, long, or long long\n"
		   "\t  argument: string");
	expect_err("hello %d %d", &printf_opts, ARGS(INT, AGG), "D_PRINTF_ARG_TYPE",
		   "printf( ) argument #3 is incompatible with conversion #2 prototype:\n"
		   "\tconversion: %d\n\t prototype: char, short, int, long, or long long\n"
		   "\t  argument: aggregation");
	expect_err("%s\n", &printf_opts, ARGS(VOID), "D_PRINTF_ARG_TYPE",
		   "printf( ) argument #2 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %s\n\t prototype: char [] or string (or use stringof)\n"
		   "\t  argument: void");
}

/* printa/err.D_PRINTF_ARG_TYPE.ustack: a stack key with %p. */
static void test_printa_key_type(void **state)
{
	expect_err("%p\n", &printa_opts, ARGS(ty(DT_PFA_STACK, 8, false, "stack")),
		   "D_PRINTF_ARG_TYPE",
		   "printa( ) argument #2 is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %p\n\t prototype: pointer or integer\n\t  argument: stack");
	/* The %@ value of printa() is int64_t (uint64_t for count()). */
	expect_err("%@s", &printa_opts, NOARGS, "D_PRINTF_ARG_TYPE",
		   "printa( ) aggregating action is incompatible with conversion #1 prototype:\n"
		   "\tconversion: %s\n\t prototype: char [] or string (or use stringof)\n"
		   "\t  argument: int64_t");
	/* Keys beyond the conversions are fine for printa(). */
	expect_ok("%@d %d\n", &printa_opts, ARGS(INT, INT, INT));
}

/* D_PRINTF_ARG_EXTRA: actions/printf/...addr_width, printf/...toomany, ...widths */
static void test_extra_args(void **state)
{
	expect_err("%?d\n", &printf_opts, ARGS(INT, INT), "D_PRINTF_ARG_EXTRA",
		   "printf( ) prototype mismatch: only 1 arguments required by this format string");
	expect_err("x = %d y = %d\n", &printf_opts, ARGS(INT, INT, INT), "D_PRINTF_ARG_EXTRA",
		   "printf( ) prototype mismatch: only 2 arguments required by this format string");
	expect_err("hello", &printf_opts, ARGS(INT), "D_PRINTF_ARG_EXTRA",
		   "printf( ) prototype mismatch: only 0 arguments required by this format string");
}

/* actions/printf/err.D_PRINTF_AGG_CONV */
static void test_agg_conv(void **state)
{
	expect_err("%@d", &printf_opts, ARGS(INT), "D_PRINTF_AGG_CONV",
		   "%@ conversion requires an aggregation and is not for use with printf( )");
}

/* dt_printf_validate's empty-format check (D_PRINTF_FMT_EMPTY). */
static void test_empty_format(void **state)
{
	expect_err("", &printf_opts, NOARGS, "D_PRINTF_FMT_EMPTY",
		   "printf( ) format string is empty");
}

/* The other prototype messages the compiler asks for. */
static void test_proto_messages(void **state)
{
	struct dt_pf_error err;

	/* actions/printf/err.D_PRINTF_ARG_FMT */
	dt_pf_error_proto(&err, "D_PRINTF_ARG_FMT", "printf", 1, "string constant", "string");
	assert_string_equal(err.tag, "D_PRINTF_ARG_FMT");
	assert_string_equal(err.msg, "printf( ) argument #1 is incompatible with prototype:\n"
			    "\tprototype: string constant\n\t argument: string");
	/* printa/err.D_PRINTA_AGGARG.badagg */
	dt_pf_error_proto(&err, "D_PRINTA_AGGARG", "printa", 2, "aggregation", "int");
	assert_string_equal(err.msg, "printa( ) argument #2 is incompatible with prototype:\n"
			    "\tprototype: aggregation\n\t argument: int");
}

/* multiaggs/err.D_PRINTA_AGGKEY; D_PRINTA_AGGPROTO from dt_printa_validate(). */
static void test_printa_keys(void **state)
{
	struct dt_pf_argtype one[] = { INT };
	struct dt_pf_argtype str[] = { STR };
	struct dt_pf_error err;

	assert_int_equal(dt_pf_check_printa_keys("foo", one, 1, "bar", NULL, 0, &err), -EINVAL);
	assert_string_equal(err.tag, "D_PRINTA_AGGKEY");
	assert_string_equal(err.msg, "printa( ): @foo and @bar do not have matching key "
			    "signatures: @foo has 1 key, @bar has 0 keys");

	assert_int_equal(dt_pf_check_printa_keys("a", one, 1, "b", str, 1, &err), -EINVAL);
	assert_string_equal(err.tag, "D_PRINTA_AGGPROTO");
	assert_string_equal(err.msg, "printa( ): @b[ ] key #1 is incompatible with @a:\n"
			    "        a key #1: int\n        b key #1: string");

	/* Integers of any size go together. */
	struct dt_pf_argtype lng[] = { ty(DT_PFA_INT, 8, false, "uint64_t") };
	assert_int_equal(dt_pf_check_printa_keys("a", one, 1, "b", lng, 1, &err), 0);
}

/* Which types each conversion takes (dt_printf.c's pfcheck_* functions). */
static void test_conversion_types(void **state)
{
	const struct dt_pf_argtype chr = ty(DT_PFA_INT, 1, true, "char");
	const struct dt_pf_argtype shrt = ty(DT_PFA_INT, 2, true, "short");
	const struct dt_pf_argtype ushrt = ty(DT_PFA_INT, 2, false, "unsigned short");
	const struct dt_pf_argtype lng = ty(DT_PFA_INT, 8, true, "long");
	const struct dt_pf_argtype ulng = ty(DT_PFA_INT, 8, false, "unsigned long");
	const struct dt_pf_argtype dbl = ty(DT_PFA_FLOAT, 8, true, "double");
	const struct dt_pf_argtype ldbl = ty(DT_PFA_FLOAT, 16, true, "long double");
	const struct dt_pf_argtype ptr = ty(DT_PFA_POINTER, 8, false, "int *");
	const struct dt_pf_argtype stack = ty(DT_PFA_STACK, 8, false, "stack");
	const struct dt_pf_argtype usym = ty(DT_PFA_USYMADDR, 8, false, "_usymaddr");
	const struct dt_pf_argtype sym = ty(DT_PFA_SYMADDR, 8, false, "_symaddr");
	const struct dt_pf_argtype en = ty(DT_PFA_ENUM, 4, true, "enum e");
	struct dt_pf_argtype u64 = ty(DT_PFA_INT, 8, false, "uint64_t");
	const char *const u64_chain[] = { "uint64_t" };
	struct dt_pf_argtype carr = ty(DT_PFA_ARRAY, 16, false, "char [16]");
	struct dt_pf_argtype ucarr = ty(DT_PFA_ARRAY, 16, false, "uint8_t [16]");
	struct dt_pf_check_opts target = printf_opts;

	u64.base_name = "unsigned long";
	u64.typedefs = u64_chain;
	u64.ntypedefs = 1;
	carr.elem_kind = ucarr.elem_kind = DT_PFA_INT;
	carr.elem_size = ucarr.elem_size = 1;
	carr.elem_is_char = ucarr.elem_is_char = true;
	carr.elem_signed = true;
	target.have_target = true;

	expect_ok("%d %i %u %o %x %X %c", &printf_opts, ARGS(chr, shrt, INT, lng, ulng, en, chr));
	expect_ok("%hd %hu %hx %hX", &printf_opts, ARGS(shrt, ushrt, ushrt, shrt));
	expect_ok("%ld %lu %lx %llx %lld", &printf_opts, ARGS(lng, ulng, u64, u64, lng));
	expect_ok("%e %f %g %Lf", &printf_opts, ARGS(dbl, dbl, dbl, ldbl));
	expect_ok("%s %S %s", &printf_opts, ARGS(STR, STR, carr));
	expect_ok("%p %p %a %a %k", &printf_opts, ARGS(ptr, INT, ptr, sym, stack));
	expect_ok("%A %A", &target, ARGS(usym, ptr));
	expect_ok("%Y %T", &printf_opts, ARGS(lng, u64));

	static const char xint[] = "char, short, int, long, or long long";
	char msg[512];
#define WRONG(fmt, arg, proto) do {							\
		snprintf(msg, sizeof(msg), "printf( ) argument #2 is incompatible with "	\
			 "conversion #1 prototype:\n\tconversion: %s\n\t prototype: %s\n"	\
			 "\t  argument: %s", fmt, proto, (arg).name);			\
		expect_err(fmt, &printf_opts, ARGS(arg), "D_PRINTF_ARG_TYPE", msg);	\
	} while (0)
	WRONG("%d", dbl, xint);
	WRONG("%x", ptr, xint);
	WRONG("%c", lng, "char, short, or int");
	WRONG("%C", lng, "char, short, or int");
	WRONG("%e", INT, "float, double, or long double");
	WRONG("%hd", INT, "short");
	WRONG("%hd", ushrt, "short");
	WRONG("%hu", shrt, "unsigned short");
	WRONG("%hx", INT, "short");
	WRONG("%ld", INT, "long");
	WRONG("%lu", lng, "unsigned long");
	WRONG("%lx", INT, "long");
	WRONG("%llx", ulng, "long long");
	WRONG("%Lf", dbl, "long double");
	WRONG("%s", ptr, "char [] or string (or use stringof)");
	WRONG("%s", ucarr, "char [] or string (or use stringof)");
	WRONG("%S", INT, "char [] or string (or use stringof)");
	WRONG("%p", STR, "pointer or integer");
	WRONG("%a", STR, "pointer or integer");
	WRONG("%A", ptr, "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)");
	WRONG("%k", INT, "stack");
	WRONG("%Y", INT, "int64_t");
	WRONG("%T", INT, "int64_t");
	WRONG("%ls", STR, "wchar_t []");
	WRONG("%lc", lng, "int");
#undef WRONG
}

/* %d of an unsigned type becomes %u, of a 64-bit type %lld (dt_printf_validate). */
static void test_settled_formats(void **state)
{
	struct dt_pf_format *f;
	struct dt_pf_error err;
	const struct dt_pf_argtype ulng = ty(DT_PFA_INT, 8, false, "unsigned long");
	const struct dt_pf_argtype ldbl = ty(DT_PFA_FLOAT, 16, true, "long double");

	assert_int_equal(dt_pf_parse("%d %i %d %x %e %s %@d", &f, &err), 0);
	assert_int_equal(dt_pf_check(f, &printa_opts,
				     ARGS(INT, ulng, ty(DT_PFA_INT, 4, false, "uint"), ulng, ldbl,
					  STR), &err), 0);
	assert_string_equal(f->specs[0].cfmt, "d");
	assert_true(f->specs[0].is_signed);
	assert_string_equal(f->specs[1].cfmt, "llu");
	assert_string_equal(f->specs[2].cfmt, "u");
	assert_string_equal(f->specs[3].cfmt, "llx");
	assert_string_equal(f->specs[4].cfmt, "Le");
	assert_string_equal(f->specs[5].cfmt, "s");
	assert_string_equal(f->specs[6].cfmt, "lld");
	dt_pf_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_missing_dynamic),
		cmocka_unit_test(test_dynamic_types),
		cmocka_unit_test(test_value_types),
		cmocka_unit_test(test_printa_key_type),
		cmocka_unit_test(test_extra_args),
		cmocka_unit_test(test_agg_conv),
		cmocka_unit_test(test_empty_format),
		cmocka_unit_test(test_proto_messages),
		cmocka_unit_test(test_printa_keys),
		cmocka_unit_test(test_conversion_types),
		cmocka_unit_test(test_settled_formats),
	};

	return cmocka_run_group_tests_name("printf_errors", tests, NULL, NULL);
}
