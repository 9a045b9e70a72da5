/*
 * Semantic checks, types: the type of every kind of expression as D gives
 * it (integer constants by value, base and suffix; D's arithmetic
 * conversions; comparisons; strings; pointers), constant folding, and
 * which expressions are lvalues.  The rules are DTrace's (dt_parser.c);
 * where DTrace leaves a case to C, C's.
 */
#include "front_helpers.h"

/*
 * A constant's type is the first of a list that holds its value (C's rule,
 * as DTrace documents it in dt_node_int()):
 *   decimal:                 int, long, long long
 *   octal/hex:               int, unsigned int, long, unsigned long, long long, unsigned long long
 *   u:                       unsigned int, unsigned long, unsigned long long
 *   l decimal:               long, long long
 *   l octal/hex:             long, unsigned long, long long, unsigned long long
 *   ul:                      unsigned long, unsigned long long
 *   ll decimal:              long long
 *   ll octal/hex:            long long, unsigned long long
 *   ull:                     unsigned long long
 */
static void test_integer_constant_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_const(dtp, "0", "int", 0);
	expect_const(dtp, "2147483647", "int", 2147483647);
	expect_const(dtp, "2147483648", "long", 2147483648LL);
	expect_const(dtp, "4294967295", "long", 4294967295LL);
	expect_const(dtp, "9223372036854775807", "long", INT64_MAX);
	expect_const(dtp, "0x7fffffff", "int", 0x7fffffff);
	expect_const(dtp, "0x80000000", "unsigned int", 0x80000000LL);
	expect_const(dtp, "0xffffffff", "unsigned int", 0xffffffffLL);
	expect_const(dtp, "0x100000000", "long", 0x100000000LL);
	expect_const(dtp, "0x7fffffffffffffff", "long", INT64_MAX);
	expect_const(dtp, "0x8000000000000000", "unsigned long", INT64_MIN);
	expect_const(dtp, "017777777777", "int", 017777777777);
	expect_const(dtp, "020000000000", "unsigned int", 020000000000LL);
	expect_const(dtp, "1u", "unsigned int", 1);
	expect_const(dtp, "1U", "unsigned int", 1);
	expect_const(dtp, "4294967296u", "unsigned long", 4294967296LL);
	expect_const(dtp, "1l", "long", 1);
	expect_const(dtp, "1L", "long", 1);
	expect_const(dtp, "0xffffffffL", "long", 0xffffffffLL);
	expect_const(dtp, "0xffffffffffffffffl", "unsigned long", -1);
	expect_const(dtp, "1ul", "unsigned long", 1);
	expect_const(dtp, "1ll", "long long", 1);
	expect_const(dtp, "9223372036854775807LL", "long long", INT64_MAX);
	expect_const(dtp, "0x8000000000000000ll", "unsigned long long", INT64_MIN);
	expect_const(dtp, "1ull", "unsigned long long", 1);
	expect_const(dtp, "18446744073709551615u", "unsigned long", -1);
	/* A character constant is an int. */
	expect_const(dtp, "'a'", "int", 'a');
}

/* Integer types for the arithmetic tests. */
static const char decls[] =
	"char c; unsigned char uc; short s; unsigned short us; int i; unsigned int u;\n"
	"long l; unsigned long ul; long long ll; unsigned long long ull;\n"
	"int64_t i64; uint8_t u8; enum color { RED, GREEN = 5, BLUE } col;\n"
	"int *ip; char *cp; void *vp; string str; struct pt { int x; int y; } pt;\n"
	"struct pt *ptp; int arr[4];\n";

/* A handle with the declarations above. */
static int decls_setup(void **state)
{
	dtrace_hdl_t *dtp = fe_open();

	if (fe_check(dtp, decls) == NULL)
		fail_msg("%s", fe_error(dtp));
	*state = dtp;
	return 0;
}

/*
 * D's arithmetic conversions: the operand type of greater rank (size, then
 * unsigned over signed) is the result's, with no promotion to int (as
 * DTrace's dt_type_promote() does); an enum counts as int.
 */
static void test_arithmetic_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "c + c", "char");
	expect_type(dtp, NULL, "c * uc", "unsigned char");
	expect_type(dtp, NULL, "c + s", "short");
	expect_type(dtp, NULL, "us - s", "unsigned short");
	expect_type(dtp, NULL, "s / i", "int");
	expect_type(dtp, NULL, "i + u", "unsigned int");
	expect_type(dtp, NULL, "u % i", "unsigned int");
	expect_type(dtp, NULL, "u + l", "long");
	expect_type(dtp, NULL, "l * ul", "unsigned long");
	expect_type(dtp, NULL, "i + ull", "unsigned long long");
	expect_type(dtp, NULL, "c + 1", "int");
	expect_type(dtp, NULL, "u8 + 1", "int");
	expect_type(dtp, NULL, "i64 + 1u", "int64_t");
	expect_type(dtp, NULL, "col + c", "int");
	expect_type(dtp, NULL, "col + ul", "unsigned long");
	expect_type(dtp, NULL, "i & ul", "unsigned long");
	expect_type(dtp, NULL, "c | s", "short");
	expect_type(dtp, NULL, "uc ^ c", "unsigned char");
	expect_type(dtp, NULL, "i ? c : l", "long");
	/* DTrace folds a ?: with an integer constant condition while parsing (dt_node_op3()). */
	expect_type(dtp, NULL, "1 ? c : l", "char");
	expect_type(dtp, NULL, "0 ? c : l", "long");
	expect_type(dtp, NULL, "(1 - 1) ? c : s", "short");
	expect_type(dtp, NULL, "sizeof(int) == 4 ? c : l", "char");
	expect_type(dtp, NULL, "(char)256 ? c : l", "long");
	expect_type(dtp, NULL, "!0 && ~0 ? (0 ? l : s) : c", "short");
	/* Enumerators are parse-time constants (DTrace keeps them as inlines). */
	expect_type(dtp, NULL, "GREEN ? c : l", "char");
	expect_type(dtp, NULL, "RED ? c : l", "long");
	expect_type(dtp, NULL, "GREEN - 5 ? c : s", "short");
	/* Not parse-time constants: sizeof of an expression, variables. */
	expect_type(dtp, NULL, "sizeof(i) ? c : l", "long");
	expect_type(dtp, NULL, "i ? c : l", "long");
}

/* Unary operators and shifts keep their (left) operand's type (DTrace's rule). */
static void test_unary_and_shift_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "-c", "char");
	expect_type(dtp, NULL, "+us", "unsigned short");
	expect_type(dtp, NULL, "~uc", "unsigned char");
	expect_type(dtp, NULL, "-u", "unsigned int");
	expect_type(dtp, NULL, "c << 1", "char");
	expect_type(dtp, NULL, "us >> l", "unsigned short");
	expect_type(dtp, NULL, "i << ull", "int");
	expect_type(dtp, NULL, "!l", "int");
	expect_type(dtp, NULL, "c++", "char");
	expect_type(dtp, NULL, "--ul", "unsigned long");
	expect_type(dtp, NULL, "ip++", "int *");
}

/* Comparisons and logical operators are ints; strings compare by value. */
static void test_comparison_types(void **state)
{
	dtrace_hdl_t *dtp = *state;
	static const char *const exprs[] = {
		"c < c", "l == ul", "ull >= c", "s != i", "i && l", "c || ull", "i ^^ l", "!ip",
		"ip == 0", "ip != vp", "str == \"x\"", "\"a\" < str", "str == NULL", "cp == str",
		"ip < ip", "col == BLUE",
	};

	for (size_t k = 0; k < sizeof(exprs) / sizeof(exprs[0]); k++)
		expect_type(dtp, NULL, exprs[k], "int");
}

/*
 * Pointers compare with pointers to the same type or void, and with the
 * constant 0 (NULL); with nothing else (DTrace's dt_node_is_ptrcompat()).
 */
static void test_pointer_comparisons(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "ip == 0", "int");
	expect_type(dtp, NULL, "0 != ip", "int");
	expect_type(dtp, NULL, "ip == (int *)0", "int");
	expect_type(dtp, NULL, "ip >= vp", "int");
	expect_type(dtp, NULL, "ptp == NULL", "int");
	expect_type(dtp, NULL, "(const int *)ip == ip", "int");
	expect_check_error(dtp, "BEGIN\n{\nx = ip == cp;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int *\" == \"char *\"");
	expect_check_error(dtp, "BEGIN\n{\nx = ip < 1;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int *\" < \"int\"");
	expect_check_error(dtp, "BEGIN\n{\nx = i != ip;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int\" != \"int *\"");
}

/* A variable takes the type of what is first assigned to it. */
static void test_variable_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "self->v1 = c; self->v1", "char");
	expect_type(dtp, NULL, "this->v2 = ull; this->v2", "unsigned long long");
	expect_type(dtp, NULL, "v3[1, \"a\"] = ip; v3[2, \"b\"]", "int *");
	expect_type(dtp, NULL, "v4 = \"abc\"; v4", "string");
	expect_type(dtp, NULL, "v5 = ptp->x; v5", "int");
	expect_type(dtp, NULL, "self->v6[i] = 1; self->v6[2]", "int");
	/* Later assignments convert to it (or fail). */
	expect_check_ok(dtp, "BEGIN { self->v1 = 1000; v5 = c; }");
	expect_check_error(dtp, "BEGIN\n{\nv4 = 1;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"string\" = \"int\"");
	/* Pointers take pointers to the same type or void, or NULL (DTrace's argcompat). */
	expect_check_ok(dtp, "BEGIN { v7 = ip; v7 = vp; v7 = 0; v7 = arr; v8 = vp; v8 = cp; }");
	expect_check_error(dtp, "BEGIN\n{\nv7 = cp;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int *\" = \"char *\"");
	expect_check_error(dtp, "BEGIN\n{\nv7 = 1;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int *\" = \"int\"");
	expect_check_error(dtp, "BEGIN\n{\nv5 = ip;\n}",
			   "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"int\" = \"int *\"");
	expect_check_error(dtp, "BEGIN\n{\nv3[1] = ip;\n}",
			   "[D_PROTO_LEN] line 3: v3[ ] prototype mismatch: 1 key passed, 2 expected");
}

static void test_string_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "\"abc\"", "string");
	expect_type(dtp, NULL, "str", "string");
	expect_type(dtp, NULL, "stringof(i)", "string");
	expect_type(dtp, NULL, "stringof i", "string");
	expect_type(dtp, NULL, "(string)cp", "string");
	expect_type(dtp, NULL, "i ? str : \"b\"", "string");
	expect_type(dtp, NULL, "i ? cp : str", "string");
	expect_type(dtp, NULL, "str[1]", "char");
	/* Assignment declares a variable of the value's type. */
	expect_type(dtp, NULL, "newstr = \"abc\"", "string");
	expect_type(dtp, NULL, "newint = c + c", "char");
	expect_type(dtp, NULL, "x = 1; y = x", "int");
}

/*
 * Pointers: p + n and n + p are p's type (scaled by its target's size when
 * run), p - q is a ptrdiff_t; arrays decay; members and dereferences have
 * the member's and the target's type.
 */
static void test_pointer_types(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_type(dtp, NULL, "ip + 1", "int *");
	expect_type(dtp, NULL, "2 + ip", "int *");
	expect_type(dtp, NULL, "ip - c", "int *");
	expect_type(dtp, NULL, "ip - ip", "ptrdiff_t");
	expect_type(dtp, NULL, "arr + 1", "int *");
	expect_type(dtp, NULL, "*ip", "int");
	expect_type(dtp, NULL, "ip[2]", "int");
	expect_type(dtp, NULL, "arr[2]", "int");
	expect_type(dtp, NULL, "&arr[1]", "int *");
	expect_type(dtp, NULL, "ptp->y", "int");
	expect_type(dtp, NULL, "pt.x", "int");
	expect_type(dtp, NULL, "*ptp", "struct pt");
	expect_type(dtp, NULL, "(char *)ip", "char *");
	expect_type(dtp, NULL, "(struct pt *)vp", "struct pt *");
	expect_type(dtp, NULL, "(uintptr_t)ip", "uintptr_t");
	expect_type(dtp, NULL, "i ? ip : 0", "int *");
	expect_type(dtp, NULL, "i ? 0 : ip", "int *");
	/* ?: takes the more specific of compatible pointers (DTrace's rule). */
	expect_type(dtp, NULL, "i ? ip : vp", "int *");
	expect_type(dtp, NULL, "i ? vp : ip", "int *");
	expect_type(dtp, NULL, "i ? (const int *)ip : ip", "const int *");
	expect_check_error(dtp, "BEGIN\n{\nx = i ? ip : cp;\n}",
			   "[D_OP_INCOMPAT] line 3: operator ?: operands must have compatible types");
	expect_check_error(dtp, "BEGIN\n{\nx = i ? ip : 1;\n}",
			   "[D_OP_INCOMPAT] line 3: operator ?: operands must have compatible types");
	expect_type(dtp, NULL, "sizeof(*ip)", "size_t");
}

/* Constant expressions fold to their value, with 64-bit arithmetic as DTrace's. */
static void test_constant_folding(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_const(dtp, "1 + 2 * 3", "int", 7);
	expect_const(dtp, "(1 + 2) * 3", "int", 9);
	expect_const(dtp, "7 / 2", "int", 3);
	expect_const(dtp, "-7 / 2", "int", -3);
	expect_const(dtp, "-7 % 2", "int", -1);
	expect_const(dtp, "7 % -2", "int", 1);
	expect_const(dtp, "0xffffffff / 2", "unsigned int", 0x7fffffff);
	expect_const(dtp, "-1 / 2u", "unsigned int", 0x7fffffffffffffffLL);
	expect_const(dtp, "1 << 4", "int", 16);
	expect_const(dtp, "1l << 40", "long", 1LL << 40);
	expect_const(dtp, "256 >> 4", "int", 16);
	/* A signed right shift keeps the sign, as C (and D when not folding) does. */
	expect_const(dtp, "-16 >> 2", "int", -4);
	expect_const(dtp, "-16 >> 2u", "int", -4);
	expect_const(dtp, "0xfffffff0 >> 2", "unsigned int", 0x3ffffffc);
	expect_const(dtp, "0xf0 & 0x3c", "int", 0x30);
	expect_const(dtp, "0xf0 | 0x0f", "int", 0xff);
	expect_const(dtp, "0xf0 ^ 0xff", "int", 0x0f);
	expect_const(dtp, "~0", "int", -1);
	expect_const(dtp, "~0u", "unsigned int", ~0ULL);
	expect_const(dtp, "-1", "int", -1);
	/* Negating an unsigned constant stays within its width (DTrace's dt_node_op1()). */
	expect_const(dtp, "-1u", "unsigned int", 0xffffffffLL);
	expect_const(dtp, "-1ul", "unsigned long", -1);
	expect_const(dtp, "!0", "int", 1);
	expect_const(dtp, "!5", "int", 0);
	/* Comparisons follow the operands' common type. */
	expect_const(dtp, "-1 < 0", "int", 1);
	expect_const(dtp, "-1 < 0u", "int", 0);
	expect_const(dtp, "-1 < 0l", "int", 1);
	expect_const(dtp, "0xffffffff > -1", "int", 0);
	expect_const(dtp, "3 == 3", "int", 1);
	expect_const(dtp, "3 != 3", "int", 0);
	expect_const(dtp, "2 <= 1", "int", 0);
	expect_const(dtp, "2 >= 2", "int", 1);
	expect_const(dtp, "2 && 0", "int", 0);
	expect_const(dtp, "2 || 0", "int", 1);
	expect_const(dtp, "2 ^^ 3", "int", 0);
	expect_const(dtp, "2 ^^ 0", "int", 1);
	expect_const(dtp, "1 ? 2 : 3", "int", 2);
	expect_const(dtp, "0 ? 2 : 3", "int", 3);
	expect_const(dtp, "(1, 2)", "int", 2);
	/* 64-bit arithmetic: an int result keeps bits above 32 until a cast. */
	expect_const(dtp, "2147483647 + 1", "int", 2147483648LL);
	expect_const(dtp, "(int)(2147483647 + 1)", "int", INT32_MIN);
	expect_const(dtp, "9223372036854775807 + 1", "long", INT64_MIN);
}

/* A cast of a constant truncates or extends it to the type, as C does. */
static void test_constant_casts(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_const(dtp, "(char)300", "char", 44);
	expect_const(dtp, "(char)255", "char", -1);
	expect_const(dtp, "(unsigned char)-1", "unsigned char", 255);
	expect_const(dtp, "(short)0x18000", "short", -32768);
	expect_const(dtp, "(unsigned short)-2", "unsigned short", 65534);
	expect_const(dtp, "(unsigned int)-1", "unsigned int", 0xffffffffLL);
	expect_const(dtp, "(int)4294967295", "int", -1);
	expect_const(dtp, "(long)-1", "long", -1);
	expect_const(dtp, "(uint64_t)-1", "uint64_t", -1);
	expect_const(dtp, "(int8_t)0x80", "int8_t", -128);
	expect_const(dtp, "(uint8_t)0x1ff", "uint8_t", 0xff);
	expect_const(dtp, "(int)(char)200", "int", -56);
	expect_const(dtp, "(int)(unsigned char)200", "int", 200);
}

static void test_sizeof_offsetof(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_typed t;

	expect_const(dtp, "sizeof(char)", "size_t", 1);
	expect_const(dtp, "sizeof(short)", "size_t", 2);
	expect_const(dtp, "sizeof(int)", "size_t", 4);
	expect_const(dtp, "sizeof(long)", "size_t", 8);
	expect_const(dtp, "sizeof(long long)", "size_t", 8);
	/* DTrace's LP64 floating-point intrinsics (dt_open.c), gcc's x86-64 sizes. */
	expect_const(dtp, "sizeof(float)", "size_t", 4);
	expect_const(dtp, "sizeof(double)", "size_t", 8);
	expect_const(dtp, "sizeof(long double)", "size_t", 16);
	expect_const(dtp, "sizeof(_Bool)", "size_t", 1);
	expect_const(dtp, "sizeof(int *)", "size_t", 8);
	expect_const(dtp, "sizeof(int[3])", "size_t", 12);
	expect_const(dtp, "sizeof(uint16_t)", "size_t", 2);
	expect_const(dtp, "sizeof 'a'", "size_t", 4);
	expect_const(dtp, "sizeof(1l)", "size_t", 8);
	/* A string constant's size counts its NUL. */
	expect_const(dtp, "sizeof(\"abc\")", "size_t", 4);
	expect_const(dtp, "sizeof(int) * 2 + 1", "size_t", 9);
	t = fe_typeof(dtp, "struct s { char a; int b; char c; short d; long e; };",
		      "sizeof(struct s)");
	assert_true(t.is_const);
	assert_int_equal(t.value, 24);
	t = fe_typeof(dtp, NULL, "offsetof(struct s, e) + offsetof(struct s, d) * 100");
	assert_int_equal(t.value, 16 + 10 * 100);
	t = fe_typeof(dtp, "union u { char a; long b; int c[3]; };", "sizeof(union u)");
	assert_int_equal(t.value, 16);
	/* long double is aligned as its size, 16. */
	t = fe_typeof(dtp, "struct ld { char a; long double b; float c; };",
		      "sizeof(struct ld) * 100 + offsetof(struct ld, b)");
	assert_int_equal(t.value, 48 * 100 + 16);
}

static void test_named_constants(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_typed t;

	t = fe_typeof(dtp, "enum e { A, B = 5, C, D = -1, E };", "C");
	assert_true(t.is_const);
	assert_string_equal(t.type, "enum e");
	assert_int_equal(t.value, 6);
	t = fe_typeof(dtp, NULL, "E");
	assert_int_equal(t.value, 0);
	t = fe_typeof(dtp, NULL, "A + C * 10");
	assert_true(t.is_const);
	assert_string_equal(t.type, "int");
	assert_int_equal(t.value, 60);
	t = fe_typeof(dtp, "inline int one = 1;\ninline uint8_t small = 257;", "one + small");
	assert_true(t.is_const);
	assert_int_equal(t.value, 2);
	assert_string_equal(t.type, "int");
	/* Enumerators may use the ones before them. */
	t = fe_typeof(dtp, "enum f { F1 = 3, F2 = F1 * 2 };", "F2");
	assert_int_equal(t.value, 6);
	/* An integer inline or an enumerator is a parse-time constant: its ?: is folded. */
	t = fe_typeof(dtp, "inline int opt = 1;\ninline int opt0 = opt - 1;", "opt ? (char)1 : 2LL");
	assert_string_equal(t.type, "char");
	t = fe_typeof(dtp, NULL, "opt0 ? (char)1 : 2LL");
	assert_string_equal(t.type, "long long");
	t = fe_typeof(dtp, NULL, "F1 ? (char)1 : 2LL");
	assert_string_equal(t.type, "char");
	t = fe_typeof(dtp, "inline int opte = F2;", "opte ? (char)1 : 2LL");
	assert_string_equal(t.type, "char");
}

/* What may be assigned to: D variables, members and elements through pointers. */
static void test_lvalues(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_typed t;

	t = fe_typeof(dtp, NULL, "i");
	assert_true(t.flags & DN_LVALUE);
	assert_true(t.flags & DN_WRITABLE);
	t = fe_typeof(dtp, NULL, "*ip");
	assert_true(t.flags & DN_LVALUE);
	t = fe_typeof(dtp, NULL, "ptp->x");
	assert_true(t.flags & DN_LVALUE);
	t = fe_typeof(dtp, NULL, "i + 1");
	assert_false(t.flags & DN_LVALUE);
	t = fe_typeof(dtp, NULL, "timestamp");
	assert_false(t.flags & DN_WRITABLE);
	t = fe_typeof(dtp, NULL, "RED");
	assert_false(t.flags & DN_LVALUE);
	expect_check_ok(dtp, "BEGIN { self->x = 1; this->y = 2; a[1, \"s\"] = 3; self->x++; }");

	expect_check_error(dtp, "BEGIN\n{\n1 = 2;\n}",
			   "[D_OP_LVAL] line 3: operator = requires modifiable lvalue as an operand");
	expect_check_error(dtp, "BEGIN\n{\n(i + 1) = 2;\n}",
			   "[D_OP_LVAL] line 3: operator = requires modifiable lvalue as an operand");
	expect_check_error(dtp, "BEGIN\n{\n1++;\n}",
			   "[D_OP_LVAL] line 3: operator ++ requires modifiable lvalue as an operand");
	expect_check_error(dtp, "BEGIN\n{\n$pid++;\n}",
			   "[D_OP_LVAL] line 3: operator ++ requires modifiable lvalue as an operand");
	expect_check_error(dtp, "BEGIN\n{\ntimestamp = 1;\n}",
			   "[D_OP_WRITE] line 3: operator = can only be applied to a writable variable");
	expect_check_error(dtp, "BEGIN\n{\nx = 1;\n&x;\n}",
			   "[D_ADDROF_VAR] line 4: cannot take address of dynamic variable");
	expect_check_error(dtp, "BEGIN\n{\n&1;\n}",
			   "[D_ADDROF_LVAL] line 3: unacceptable operand for unary & operator");
	expect_check_error(dtp, "BEGIN\n{\nx = self->nope;\n}",
			   "[D_VAR_UNDEF] line 3: self->nope has not yet been declared or assigned");
	expect_check_error(dtp, "BEGIN\n{\nx = this->nope + 1;\n}",
			   "[D_VAR_UNDEF] line 3: this->nope has not yet been declared or assigned");
	expect_check_error(dtp, "BEGIN\n{\nnope += 1;\n}",
			   "[D_VAR_UNDEF] line 3: nope has not yet been declared or assigned");
	/* ++ on a new variable declares it (an int64_t). */
	t = fe_typeof(dtp, NULL, "fresh++");
	assert_string_equal(t.type, "int64_t");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_integer_constant_types, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_arithmetic_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_unary_and_shift_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_comparison_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_pointer_comparisons, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_variable_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_string_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_pointer_types, decls_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_constant_folding, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_constant_casts, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_sizeof_offsetof, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_named_constants, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_lvalues, decls_setup, fe_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
