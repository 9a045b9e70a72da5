/*
 * Semantic checks, errors: one program for each D_* tag the front end
 * reports, with the line it reports.  The message is checked in full
 * where it is DTrace's as its sources spell it (dt_lex.l, dt_parser.c);
 * for the rest (control lines, declarations, calls and actions, whose
 * messages other work is still aligning) the tag and the line.
 */
#include "front_helpers.h"

#include <unistd.h>

struct errcase {
	const char *src;
	const char *want;	/* "[TAG] line N: message", or "[TAG] line N" */
};

static const struct errcase cases[] = {
	{ "BEGIN\n{\nx = 1 +;\n}",
	  "[D_SYNTAX] line 3: syntax error near \";\"" },
	{ "/* nothing */\n",
	  "[D_EMPTY] line 2: empty D program translation unit" },
	{ "BEGIN\n{\nx = 18446744073709551616;\n}",
	  "[D_INT_OFLOW] line 3: constant 18446744073709551616 results in integer overflow" },
	{ "BEGIN\n{\nx = 09;\n}",
	  "[D_INT_DIGIT] line 3: constant 09 contains invalid digit 9" },
	{ "BEGIN\n{\nx = \"abc\n\";\n}",
	  "[D_STR_NL] line 4: newline encountered in string literal" },
	{ "BEGIN\n{\nx = 'a\n';\n}",
	  "[D_CHR_NL] line 4" },
	{ "BEGIN\n{\nx = '';\n}",
	  "[D_CHR_NULL] line 3" },
	{ "BEGIN\n{\nx = 'abcdefghi';\n}",
	  "[D_CHR_OFLOW] line 3" },
	{ "BEGIN\n{\nx = $3;\n}",
	  "[D_MACRO_UNDEF] line 3: macro argument $3 is not defined" },
	{ "#pragma D option\nBEGIN {}",
	  "[D_PRAGMA_MALFORM] line 1" },
	{ "#pragma D nosuch\nBEGIN {}",
	  "[D_PRAGMA_INVAL] line 1" },
	{ "#pragma D option lockmem=1\nBEGIN {}",
	  "[D_PRAGMA_OPTSET] line 1" },
	{ "#frob\nBEGIN {}",
	  "[D_PRAGCTL_INVAL] line 1" },
	{ "\n#error oops here\nBEGIN {}",
	  "[D_PRAGERR] line 2" },
	{ "#pragma D attributes Stable/Stable/Common nosuchvar\nBEGIN {}",
	  "[D_PRAGMA_UNUSED] line 1" },
	{ "#pragma D depends_on provider nosuchprov\nBEGIN {}",
	  "[D_PRAGMA_DEPEND] line 1" },
	{ "a:b:c:d:e\n{\n}",
	  "[D_PDESC_INVAL] line 1: invalid probe description \"a:b:c:d:e\": Overspecified probe description" },
	{ "BEGIN\n{\n@a[1][2] = count();\n}",
	  "[D_AGG_MDIM] line 3: improper attempt to reference @a as a multi-dimensional array" },
	{ "BEGIN\n{\nself();\n}",
	  "[D_FUNC_IDENT] line 3: function designator is not of function type" },
	{ "static extern int x;",
	  "[D_DECL_CLASS] line 1" },
	{ "char int x;",
	  "[D_DECL_COMBO] line 1" },
	{ "struct mod`foo { int a; };",
	  "[D_DECL_SCOPE] line 1" },
	{ "int a[...];",
	  "[D_DECL_PROTO_VARARGS] line 1" },
	{ "\nint;",
	  "[D_DECL_USELESS] line 2" },
	{ "static int x;",
	  "[D_DECL_BADCLASS] line 1" },
	{ "void x;",
	  "[D_DECL_VOIDOBJ] line 1" },
	{ "int x;\nchar x;",
	  "[D_DECL_IDRED] line 2" },
	{ "int a[];",
	  "[D_DECL_ARRNULL] line 1" },
	{ "int a[-1];",
	  "[D_DECL_ARRSUB] line 1" },
	{ "this int a[int];",
	  "[D_DECL_LOCASSC] line 1" },
	{ "struct s { int a; };\nstruct s { int b; };",
	  "[D_DECL_TYPERED] line 2" },
	{ "struct s {\n\tstruct nosuch m;\n};",
	  "[D_DECL_INCOMPLETE] line 2" },
	{ "struct s {\n\tint a : 0;\n};",
	  "[D_DECL_BFCONST] line 2" },
	{ "struct s {\n\tchar a : 9;\n};",
	  "[D_DECL_BFSIZE] line 2" },
	{ "struct s {\n\tint *a : 3;\n};",
	  "[D_DECL_BFTYPE] line 2" },
	{ "long char x;",
	  "[D_DECL_CHARATTR] line 1" },
	{ "unsigned void x;",
	  "[D_DECL_VOIDATTR] line 1" },
	{ "unsigned string x;",
	  "[D_DECL_SIGNINT] line 1" },
	{ "long string x;",
	  "[D_DECL_LONGINT] line 1" },
	{ "enum e {\n\tA = \"s\"\n};",
	  "[D_DECL_ENCONST] line 3" },
	{ "enum e {\n\tA = 0x100000000\n};",
	  "[D_DECL_ENOFLOW] line 3" },
	{ "int a[void];",
	  "[D_DECL_PROTO_TYPE] line 1" },
	/* (An inline's keys may be anonymous, as in DTrace: "inline int a[int] = 1;" is fine.) */
	{ "int f(void v);",
	  "[D_DECL_PROTO_NAME] line 1" },
	/* An unknown enum is a forward tag (DTrace's dt_decl_type()), so incomplete. */
	{ "enum nosuch x;",
	  "[D_DECL_INCOMPLETE] line 1" },
	{ "struct s {\n\tint a;\n\tint a;\n};",
	  "[D_UNKNOWN] line 3" },
	{ "BEGIN\n{\nx = \"a\" + \"b\";\n}",
	  "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"string\" + \"string\"" },
	{ "BEGIN\n{\nx = \"a\" * 2;\n}",
	  "[D_OP_ARITH] line 3: operator * requires operands of arithmetic type" },
	{ "BEGIN\n{\nx = \"a\" % 2;\n}",
	  "[D_OP_INT] line 3: operator % requires operands of integral type" },
	{ "BEGIN\n{\nx = \"a\" && 1;\n}",
	  "[D_OP_SCALAR] line 3: operator && requires operands of scalar type" },
	{ "BEGIN\n{\n1 = 2;\n}",
	  "[D_OP_LVAL] line 3: operator = requires modifiable lvalue as an operand" },
	{ "BEGIN\n{\ntimestamp = 1;\n}",
	  "[D_OP_WRITE] line 3: operator = can only be applied to a writable variable" },
	/* DTrace has no D_OP_VOID: a new variable takes the void type, then they differ. */
	{ "BEGIN\n{\nx = trace(1);\n}",
	  "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"void\" = \"void\"" },
	{ "int a[4];\nint b[4];\nBEGIN\n{\na = b;\n}",
	  "[D_OP_ARRFUN] line 5: operator = may not be applied to operand of type \"int [4]\"" },
	{ "BEGIN\n{\nx = 1;\ny = x[0];\n}",
	  "[D_DEREF_NONPTR] line 4: cannot dereference non-pointer type" },
	{ "BEGIN\n{\nx = 1;\ny = x->a;\n}",
	  "[D_OP_PTR] line 4: operator -> must be applied to a pointer" },
	{ "BEGIN\n{\nx = 1;\ny = x.a;\n}",
	  "[D_OP_SOU] line 4: operator . cannot be applied to type \"int\"; must be applied to a struct or union" },
	{ "struct fwd *p;\nBEGIN\n{\nx = p->a;\n}",
	  "[D_OP_INCOMPLETE] line 4: operator -> cannot be applied to a forward declaration: no struct fwd definition is available" },
	{ "BEGIN\n{\nx = arg0 ? exit(0) : exit(1);\n}",
	  "[D_OP_ACT] line 3" },
	/* DTrace folds a constant condition when it builds the node: x = exit(0). */
	{ "BEGIN\n{\nx = 1 ? exit(0) : exit(1);\n}",
	  "[D_OP_INCOMPAT] line 3: operands have incompatible types: \"void\" = \"void\"" },
	/* The operand a constant condition picks is checked alone. */
	{ "BEGIN\n{\ny = 0 ? exit(0) : \"s\";\nz = y * 2;\n}",
	  "[D_OP_ARITH] line 4" },
	/* A variable condition is no parse-time constant: such a ?: is checked whole. */
	{ "BEGIN\n{\nx = 1;\nx ? exit(0) : 1;\n}",
	  "[D_OP_INCOMPAT] line 4: operator ?: operands must have compatible types" },
	{ "struct s { int a; } v;\nBEGIN\n{\nx = v.b;\n}",
	  "[D_TYPE_MEMBER] line 4: b is not a member of struct s" },
	{ "BEGIN\n{\nx = *1;\n}",
	  "[D_DEREF_NONPTR] line 3: cannot dereference non-pointer type" },
	{ "void *p;\nBEGIN\n{\nx = *p;\n}",
	  "[D_DEREF_VOID] line 4: cannot dereference pointer to void" },
	{ "BEGIN\n{\nx = 1;\ny = &x;\n}",
	  "[D_ADDROF_VAR] line 4: cannot take address of dynamic variable" },
	{ "BEGIN\n{\ny = &1;\n}",
	  "[D_ADDROF_LVAL] line 3: unacceptable operand for unary & operator" },
	{ "struct s { int a : 3; } *p;\nBEGIN\n{\ny = &p->a;\n}",
	  "[D_ADDROF_BITFIELD] line 4: cannot take address of bit-field" },
	{ "BEGIN\n{\nx = sizeof(void);\n}",
	  "[D_SIZEOF_TYPE] line 3: cannot apply sizeof to an operand of unknown size" },
	{ "struct s { int a : 3; } *p;\nBEGIN\n{\ny = sizeof(p->a);\n}",
	  "[D_SIZEOF_BITFIELD] line 4: cannot apply sizeof to a bit-field" },
	{ "BEGIN\n{\nx = offsetof(int, a);\n}",
	  "[D_OFFSETOF_TYPE] line 3: offsetof operand must be a struct or union type" },
	{ "struct s { int a : 3; };\nBEGIN\n{\ny = offsetof(struct s, a);\n}",
	  "[D_OFFSETOF_BITFIELD] line 4: cannot take offset of a bit-field: a" },
	{ "struct s { int a; } v;\nBEGIN\n{\ny = stringof(v);\n}",
	  "[D_STRINGOF_TYPE] line 4: cannot apply stringof to a value of type struct s" },
	{ "struct s { int a; } v;\nBEGIN\n{\ny = (int)v;\n}",
	  "[D_CAST_INVAL] line 4: invalid cast expression: \"struct s\" to \"int\"" },
	{ "BEGIN\n{\nx = 1 / 0;\n}",
	  "[D_DIV_ZERO] line 3: expression contains division by zero" },
	{ "BEGIN\n{\nx = nosuch;\n}",
	  "[D_IDENT_UNDEF] line 3: failed to resolve nosuch: Unknown variable name" },
	{ "BEGIN\n{\nx = self->nosuch;\n}",
	  "[D_VAR_UNDEF] line 3: self->nosuch has not yet been declared or assigned" },
	{ "BEGIN\n{\nx = args;\n}",
	  "[D_IDENT_BADREF] line 3" },
	{ "int a[4];\nBEGIN\n{\nx = a[1, 2];\n}",
	  "[D_ARR_BADREF] line 4: cannot access scalar a as an associative array" },
	{ "int a[4];\nBEGIN\n{\nx = a[4];\n}",
	  "[D_ARR_BOUNDS] line 4" },
	{ "BEGIN\n{\na[1] = 1;\nx = a[1, 2];\n}",
	  "[D_PROTO_LEN] line 4" },
	{ "BEGIN\n{\na[1] = 1;\nx = a[\"s\"];\n}",
	  "[D_PROTO_ARG] line 4" },
	{ "struct s { int a; } v;\nBEGIN\n/v/\n{\n}",
	  "[D_PRED_SCALAR] line 5" },
	/* As DTrace: an aggregation is resolved first, then no scalar takes it. */
	{ "BEGIN\n{\nx = @a;\n}",
	  "[D_IDENT_UNDEF] line 3: failed to resolve @a: Unknown variable name" },
	{ "BEGIN\n{\n@a = count();\nx = @a;\n}",
	  "[D_OP_INCOMPAT] line 4" },
	{ "BEGIN\n{\n@a;\n}",
	  "[D_IDENT_UNDEF] line 3: failed to resolve @a: Unknown variable name" },
	/* The index count is checked first, as DTrace's dt_idcook_args(). */
	{ "BEGIN\n{\nx = args[1, 2];\n}",
	  "[D_PROTO_LEN] line 3: args[ ] prototype mismatch: 2 args passed, 1 expected" },
	{ "BEGIN\n{\ny = 1;\nx = args[y];\n}",
	  "[D_PROTO_ARG] line 4: args[ ] argument #1 is incompatible with prototype:\n\tprototype: integer constant\n\t argument: int" },
	{ "struct o { int a; };\ntranslator struct o < int x > { a = x; };\ntranslator struct o < int y > { a = y; };",
	  "[D_XLATE_REDECL] line 3" },
	{ "translator int < int x > { a = x; };",
	  "[D_XLATE_SOU] line 1" },
	{ "struct o { int a; };\ntranslator struct o < int x > {\n\tb = x;\n};",
	  "[D_XLATE_MEMB] line 4" },
	{ "struct o { int a; };\nBEGIN\n{\nx = xlate<struct o>(1);\n}",
	  "[D_XLATE_NONE] line 4" },
	{ "struct o { int a; int b; };\ntranslator struct o < int x > { a = x; };\nBEGIN\n{\ny = xlate<struct o>(1).b;\n}",
	  "[D_XLATE_NOCONV] line 5" },
	{ "struct o { int a; };\ntranslator struct o < int x > {\n\ta = \"s\";\n};",
	  "[D_XLATE_INCOMPAT] line 4" },
	{ "BEGIN\n{\nnosuch();\n}",
	  "[D_FUNC_UNDEF] line 3" },
	{ "BEGIN\n{\n@a = 1;\n}",
	  "[D_AGG_FUNC] line 3" },
	{ "BEGIN\n{\n@a = count();\n@a = sum(1);\n}",
	  "[D_AGG_REDEF] line 4" },
	{ "BEGIN\n{\ntrace(trace(1));\n}",
	  "[D_TRACE_VOID] line 3" },
	{ "BEGIN\n{\nspeculate(1);\nexit(0);\n}",
	  "[D_EXIT_SPEC] line 4" },
	{ "BEGIN\n{\nspeculate(1);\nspeculate(2);\n}",
	  "[D_SPEC_SPEC] line 4" },
	{ "BEGIN\n{\ncommit(1);\nspeculate(2);\n}",
	  "[D_SPEC_COMM] line 4" },
	{ "BEGIN\n{\n@ = lquantize(1, 0, 10, 0x10000);\n}",
	  "[D_LQUANT_STEPVAL] line 3" },
	{ "BEGIN\n{\n@ = lquantize(1, 10, 0, 1);\n}",
	  "[D_LQUANT_MISMATCH] line 3" },
	{ "BEGIN\n{\nx = \"s\";\nprintf(x);\n}",
	  "[D_PRINTF_ARG_FMT] line 4" },
	{ "BEGIN\n{\nprintf(\"%d\", \"s\");\n}",
	  "[D_PRINTF_ARG_TYPE] line 3" },
	{ "BEGIN\n{\nx = strlen(1);\n}",
	  "[D_PROTO_ARG] line 3" },
	{ "BEGIN\n{\nx = strlen();\n}",
	  "[D_PROTO_LEN] line 3" },
	{ "struct s { int a; } v;\nBEGIN\n{\nv += 1;\n}",
	  "[D_OP_VFPTR] line 4: operator += requires left-hand scalar operand of known size" },
	{ "BEGIN\n{\nx = 1;\nx |= \"s\";\n}",
	  "[D_OP_INT] line 4: operator |= requires operands of integral type" },
	{ "BEGIN\n{\nx = \"a\";\nx *= 2;\n}",
	  "[D_OP_ARITH] line 4: operator *= requires operands of arithmetic type" },
	{ "BEGIN\n{\nx = \"a\";\nx += 2;\n}",
	  "[D_OP_INCOMPAT] line 4: operands have incompatible types: \"string\" += \"int\"" },
	{ "#option quiet\nBEGIN {}",
	  "[D_PRAGCTL_INVAL] line 1" },
	{ "#pragma D option quiet bufsize=1m\nBEGIN {}",
	  "[D_PRAGMA_MALFORM] line 1" },
	{ "BEGIN\n{\n@a = count();\ntrace(@a);\n}",
	  "[D_TRACE_DYN] line 4" },
	{ "BEGIN\n{\n@a[trace(1)] = count();\n}",
	  "[D_KEY_TYPE] line 3" },
	{ "BEGIN\n{\nx = args[10];\n}",
	  "[D_ARGS_IDX] line 3" },
};

static void check_case(const struct errcase *c)
{
	dtrace_hdl_t *dtp = fe_open();
	struct dt_node *root = fe_check(dtp, c->src);
	const char *got = root != NULL ? "(no error)" : fe_error(dtp);
	size_t n = strlen(c->want);
	bool ok = strchr(strchr(c->want, ']'), ':') != NULL
			  ? strcmp(got, c->want) == 0
			  : strncmp(got, c->want, n) == 0 && (got[n] == ':' || got[n] == '\0');

	if (!ok)
		fail_msg("%s\n   got: %s\n  want: %s", c->src, got, c->want);
	dtrace_close(dtp);
}

/* Each case on a fresh handle: declarations of one must not meet another's. */
static void test_error_tags(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_case(&cases[i]);
}

/* Macro arguments: too big a number, and one the program never uses. */
static void test_macro_argument_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;
	char *const big[] = { "t.d", "99999999999999999999" };
	char *const extra[] = { "t.d", "1", "2" };

	assert_null(dt_compile_front(dtp->cc, "BEGIN\n{\nx = $1;\n}", "t.d", DTRACE_C_FILE,
				     DT_FRONT_CHECK, 2, big));
	assert_string_equal(fe_error(dtp), "[D_MACRO_OFLOW] line 3: macro argument $1 constant "
					   "99999999999999999999 results in integer overflow");
	/* DTrace names the last argument not referenced; the message has no line. */
	assert_null(dt_compile_front(dtp->cc, "BEGIN\n{\nx = $1;\n}", "t.d", DTRACE_C_FILE,
				     DT_FRONT_CHECK, 3, extra));
	assert_string_equal(fe_error(dtp),
			    "[D_MACRO_UNUSED] extraneous argument '2' ($2 is not referenced)");
	assert_non_null(dt_compile_front(dtp->cc, "BEGIN\n{\ny = $2 + $$1;\n}", "t.d",
					 DTRACE_C_FILE, DT_FRONT_CHECK, 3, extra));
}

/*
 * Predicates: DTrace reports an operator's type error where its parser
 * stood, on the token after the closing '/'; the actions are checked first
 * (they may assign what the predicate reads).
 */
static void test_predicate_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_check_error(dtp, "BEGIN\n/\"a\" * 2/\n{\n}",
			   "[D_OP_ARITH] line 3: operator * requires operands of arithmetic type");
	expect_check_error(dtp, "syscall::read:entry,\nsyscall::write:entry\n/ \"a\" < 1 /\n{\n}",
			   "[D_OP_INCOMPAT] line 4: operands have incompatible types: \"string\" < \"int\"");
	expect_check_error(dtp, "BEGIN\n/y/\n{\nx = 1;\n}",
			   "[D_IDENT_UNDEF] line 2: failed to resolve y: Unknown variable name");
	expect_check_ok(dtp, "BEGIN\n/z == 1/\n{\nz = 1;\n}");
	expect_check_error(dtp, "BEGIN\n/1/\n{\nw = nosuch;\n}",
			   "[D_IDENT_UNDEF] line 4: failed to resolve nosuch: Unknown variable name");
}

/*
 * Errors carry DTrace's tag and line through the public API too, and with
 * -x errtags the message starts with the tag.  No root needed: dtrace:::BEGIN
 * is matched without the kernel and nothing is loaded.
 */
static void test_public_api(void **state)
{
	int err;
	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	char path[] = "/tmp/test_sema_errors.XXXXXX";
	int fd = mkstemp(path);
	static const char script[] = "dtrace:::BEGIN\n{\n\tx = 1;\n\ty = x +;\n}\n";

	assert_true(fd >= 0);
	assert_int_equal(write(fd, script, sizeof(script) - 1), (ssize_t)(sizeof(script) - 1));
	close(fd);
	assert_null(dtrace_compile(dtp, path, path, DTRACE_PSPEC_NAME, DTRACE_C_FILE, 0, NULL));
	assert_string_equal(dtrace_errmsg(dtp), "line 4: syntax error near \";\"");
	assert_int_equal(dtrace_setopt(dtp, "errtags", NULL), 0);
	assert_null(dtrace_compile(dtp, path, path, DTRACE_PSPEC_NAME, DTRACE_C_FILE, 0, NULL));
	assert_string_equal(dtrace_errmsg(dtp), "[D_SYNTAX] line 4: syntax error near \";\"");
	unlink(path);
	/* As -n gives it: no line, the part of the clause instead. */
	assert_null(dtrace_compile(dtp, "dtrace:::BEGIN { x = nosuch; }", NULL, DTRACE_PSPEC_NAME,
				   DTRACE_C_PSPEC, 0, NULL));
	assert_string_equal(dtrace_errmsg(dtp),
			    "[D_IDENT_UNDEF] in action list: failed to resolve nosuch: Unknown variable name");
	dtrace_prog_t *pgp = dtrace_compile(dtp, "dtrace:::BEGIN { x = 1 + 2; }", NULL,
					    DTRACE_PSPEC_NAME, DTRACE_C_PSPEC, 0, NULL);
	assert_non_null(pgp);
	assert_int_equal(dtrace_prog_nprobes(pgp), 1);
	dtrace_close(dtp);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_tags),
		cmocka_unit_test_setup_teardown(test_macro_argument_errors, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_predicate_errors, fe_setup, fe_teardown),
		cmocka_unit_test(test_public_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
