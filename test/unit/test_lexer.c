/*
 * The D lexer: tokens of every kind in the three modes the parser reads
 * in (program scope, expressions, member names), constants, strings,
 * comments, line counting, macro arguments and control lines.  The rules
 * are DTrace's lexer's (dt_lex.l); errors carry its tags and messages.
 */
#include "front_helpers.h"

#include <unistd.h>

static void expect_toks_at(dtrace_hdl_t *dtp, const char *src, enum dt_lexmode mode,
			   const enum dt_tok *want, int n, const char *file, int line)
{
	struct fe_lexed *r = fe_lex(dtp, src, mode);

	if (r->error != NULL)
		fe_fail_at(file, line, "%s: %s", src, r->error);
	if (r->n != n)
		fe_fail_at(file, line, "%s: %d tokens, want %d", src, r->n, n);
	for (int i = 0; i < n; i++)
		if (r->t[i].tok != want[i])
			fe_fail_at(file, line, "%s: token %d (\"%s\") is %d, want %d", src, i,
				   r->text[i], (int)r->t[i].tok, (int)want[i]);
}

#define expect_toks(dtp, src, mode, ...)                                               \
	do {                                                                           \
		static const enum dt_tok w_[] = { __VA_ARGS__ };                       \
		expect_toks_at(dtp, src, mode, w_, (int)(sizeof(w_) / sizeof(w_[0])),  \
			       __FILE__, __LINE__);                                    \
	} while (0)

/* Lexing `src` fails with exactly `want`. */
#define expect_lex_error(dtp, src, mode, want) \
	fe_expect_lex_error(dtp, src, mode, want, __FILE__, __LINE__)

static void fe_expect_lex_error(dtrace_hdl_t *dtp, const char *src, enum dt_lexmode mode,
				const char *want, const char *file, int line)
{
	struct fe_lexed *r = fe_lex(dtp, src, mode);
	const char *got = r->error ? r->error : "(no error)";

	if (strcmp(got, want) != 0)
		fe_fail_at(file, line, "%s\n   got: %s\n  want: %s", src, got, want);
}

/* ---- Keywords and identifiers ---- */

static void test_keywords(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_toks(dtp, "auto break case char const continue counter default do double else",
		    LM_EXPR, K_AUTO, K_BREAK, K_CASE, K_CHAR, K_CONST, K_CONTINUE, K_COUNTER,
		    K_DEFAULT, K_DO, K_DOUBLE, K_ELSE);
	expect_toks(dtp, "enum extern float for goto if import inline int long offsetof probe",
		    LM_EXPR, K_ENUM, K_EXTERN, K_FLOAT, K_FOR, K_GOTO, K_IF, K_IMPORT, K_INLINE,
		    K_INT, K_LONG, K_OFFSETOF, K_PROBE);
	expect_toks(dtp, "provider register restrict return self short signed sizeof static",
		    LM_EXPR, K_PROVIDER, K_REGISTER, K_RESTRICT, K_RETURN, K_SELF, K_SHORT,
		    K_SIGNED, K_SIZEOF, K_STATIC);
	expect_toks(dtp, "string stringof struct switch this translator typedef union unsigned",
		    LM_EXPR, K_STRING, K_STRINGOF, K_STRUCT, K_SWITCH, K_THIS, K_TRANSLATOR,
		    K_TYPEDEF, K_UNION, K_UNSIGNED);
	expect_toks(dtp, "userland void volatile while xlate", LM_EXPR, K_USERLAND, K_VOID,
		    K_VOLATILE, K_WHILE, K_XLATE);
}

static void test_identifiers(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* A keyword is the whole word: prefixes, suffixes and case make identifiers. */
	expect_toks(dtp, "sizeofx _if if_ For INT int1 x9 _ __x", LM_EXPR, T_IDENT, T_IDENT,
		    T_IDENT, T_IDENT, T_IDENT, T_IDENT, T_IDENT, T_IDENT, T_IDENT);
	struct fe_lexed *r = fe_lex(dtp, "execname _x1", LM_EXPR);
	assert_string_equal(r->t[0].sval, "execname");
	assert_string_equal(r->t[1].sval, "_x1");
	/* After . and -> every keyword is a member name. */
	expect_toks(dtp, "int struct sizeof self", LM_MEMBER, T_IDENT, T_IDENT, T_IDENT,
		    T_IDENT);
	expect_lex_error(dtp, "+", LM_MEMBER, "[D_SYNTAX] line 1: syntax error near \"+\"");
}

/* The backquote scopes a name to a module: it is part of the identifier. */
static void test_backquote(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_lexed *r = fe_lex(dtp, "vmlinux`jiffies `max_pfn a`b`c", LM_EXPR);

	assert_null(r->error);
	assert_int_equal(r->n, 3);
	assert_int_equal(r->t[0].tok, T_IDENT);
	assert_string_equal(r->t[0].sval, "vmlinux`jiffies");
	assert_string_equal(r->t[1].sval, "`max_pfn");
	assert_string_equal(r->t[2].sval, "a`b`c");
	/* "mod`struct": the keyword, with its module in sval. */
	r = fe_lex(dtp, "vmlinux`struct task_struct", LM_EXPR);
	assert_int_equal(r->n, 2);
	assert_int_equal(r->t[0].tok, K_STRUCT);
	assert_string_equal(r->t[0].sval, "vmlinux");
	r = fe_lex(dtp, "vmlinux`union vmlinux`enum vmlinux`int", LM_EXPR);
	assert_int_equal(r->t[0].tok, K_UNION);
	assert_int_equal(r->t[1].tok, K_ENUM);
	assert_int_equal(r->t[2].tok, T_IDENT);
}

/* ---- Operators and punctuation ---- */

static void test_operators(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_toks(dtp, "( ) [ ] { } ; , . -> ? : ...", LM_EXPR, T_LPAR, T_RPAR, T_LBRAC,
		    T_RBRAC, T_LBRACE, T_RBRACE, T_SEMI, T_COMMA, T_DOT, T_PTR, T_QUESTION,
		    T_COLON, T_ELLIPSIS);
	expect_toks(dtp, "= += -= *= /= %= &= ^= |= <<= >>=", LM_EXPR, T_ASGN, T_ADD_EQ,
		    T_SUB_EQ, T_MUL_EQ, T_DIV_EQ, T_MOD_EQ, T_AND_EQ, T_XOR_EQ, T_OR_EQ,
		    T_LSH_EQ, T_RSH_EQ);
	expect_toks(dtp, "|| ^^ && | ^ & == != < <= > >= << >>", LM_EXPR, T_LOR, T_LXOR,
		    T_LAND, T_BOR, T_XOR, T_BAND, T_EQU, T_NEQ, T_LT, T_LE, T_GT, T_GE, T_LSH,
		    T_RSH);
	expect_toks(dtp, "+ - * % ~ ! ++ -- / 1", LM_EXPR, T_ADD, T_SUB, T_MUL, T_MOD, T_BNEG,
		    T_LNEG, T_ADDADD, T_SUBSUB, T_DIV, T_INT);
}

/* The longest operator wins, as in C (and lex). */
static void test_longest_match(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_toks(dtp, "a+++b", LM_EXPR, T_IDENT, T_ADDADD, T_ADD, T_IDENT);
	expect_toks(dtp, "a---b", LM_EXPR, T_IDENT, T_SUBSUB, T_SUB, T_IDENT);
	expect_toks(dtp, "a<<=b>>=c", LM_EXPR, T_IDENT, T_LSH_EQ, T_IDENT, T_RSH_EQ, T_IDENT);
	expect_toks(dtp, "a^^b^c", LM_EXPR, T_IDENT, T_LXOR, T_IDENT, T_XOR, T_IDENT);
	expect_toks(dtp, "a&&&b", LM_EXPR, T_IDENT, T_LAND, T_BAND, T_IDENT);
	expect_toks(dtp, "p->x-->y", LM_EXPR, T_IDENT, T_PTR, T_IDENT, T_SUBSUB, T_GT, T_IDENT);
	expect_toks(dtp, "....", LM_EXPR, T_ELLIPSIS, T_DOT);
	expect_toks(dtp, "..", LM_EXPR, T_DOT, T_DOT);
	expect_toks(dtp, "a!==b", LM_EXPR, T_IDENT, T_NEQ, T_ASGN, T_IDENT);
}

static void test_bad_characters(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_lex_error(dtp, "a # b", LM_EXPR, "[D_SYNTAX] line 1: syntax error near \"#\"");
	expect_lex_error(dtp, "\n\n  x \\ y", LM_EXPR, "[D_SYNTAX] line 3: syntax error near \"\\\"");
	expect_lex_error(dtp, "x)", LM_EXPR, "[D_SYNTAX] line 1: extra ) in input stream");
	expect_lex_error(dtp, "x]", LM_EXPR, "[D_SYNTAX] line 1: extra ] in input stream");
	expect_lex_error(dtp, "}", LM_EXPR, "[D_SYNTAX] line 1: extra } in input stream");
	expect_lex_error(dtp, "@", LM_OUTER, "[D_SYNTAX] line 1: syntax error near \"@\"");
}

/* ---- Aggregations and macros ---- */

static void test_aggregation_names(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_lexed *r = fe_lex(dtp, "@counts @ @_x1 @a[1] @1", LM_EXPR);

	assert_null(r->error);
	assert_int_equal(r->t[0].tok, T_AGG);
	assert_string_equal(r->t[0].sval, "counts");
	/* The anonymous aggregation is named "_". */
	assert_int_equal(r->t[1].tok, T_AGG);
	assert_string_equal(r->t[1].sval, "_");
	assert_string_equal(r->t[2].sval, "_x1");
	assert_int_equal(r->t[3].tok, T_AGG);
	assert_string_equal(r->t[3].sval, "a");
	assert_int_equal(r->t[4].tok, T_LBRAC);
	/* A name starts with a letter or '_': "@1" is "@" and 1. */
	assert_int_equal(r->t[7].tok, T_AGG);
	assert_string_equal(r->t[7].sval, "_");
	assert_int_equal(r->t[8].tok, T_INT);
	assert_int_equal(r->n, 9);
}

static void test_macro_arguments(void **state)
{
	dtrace_hdl_t *dtp = *state;
	char *const argv[] = { "t.d", "42", "foo", "hello world", "\"quoted\"", "-7", "0x10ul",
			       "a\\tb" };
	struct fe_lexed *r = fe_lex_args(dtp, "$1 $2 $3 $4 $5 $6 $$1 $$3 $$7 $0", LM_EXPR, 0, 8,
					 argv);

	assert_null(r->error);
	assert_int_equal(r->n, 10);
	/* An integer argument is an integer token. */
	assert_int_equal(r->t[0].tok, T_INT);
	assert_int_equal(r->t[0].ival, 42);
	assert_true(r->t[0].idecimal);
	/* An identifier is an identifier. */
	assert_int_equal(r->t[1].tok, T_IDENT);
	assert_string_equal(r->t[1].sval, "foo");
	/* Anything else is a string, its quotes stripped. */
	assert_int_equal(r->t[2].tok, T_STRING);
	assert_string_equal(r->t[2].sval, "hello world");
	assert_int_equal(r->t[3].tok, T_STRING);
	assert_string_equal(r->t[3].sval, "quoted");
	/* A sign is part of the number. */
	assert_int_equal(r->t[4].tok, T_INT);
	assert_int_equal((int64_t)r->t[4].ival, -7);
	/* With its suffix and base. */
	assert_int_equal(r->t[5].tok, T_INT);
	assert_int_equal(r->t[5].ival, 16);
	assert_string_equal(r->t[5].isuffix, "ul");
	assert_false(r->t[5].idecimal);
	/* $$n is always a string, escapes converted. */
	assert_int_equal(r->t[6].tok, T_STRING);
	assert_string_equal(r->t[6].sval, "42");
	assert_string_equal(r->t[7].sval, "hello world");
	assert_string_equal(r->t[8].sval, "a\tb");
	/* $0 is the script's name. */
	assert_int_equal(r->t[9].tok, T_STRING);
	assert_string_equal(r->t[9].sval, "t.d");

	r = fe_lex_args(dtp, "x\n+ $8", LM_EXPR, 0, 8, argv);
	assert_string_equal(r->error, "[D_MACRO_UNDEF] line 2: macro argument $8 is not defined");
	r = fe_lex_args(dtp, "$$9", LM_EXPR, 0, 8, argv);
	assert_string_equal(r->error, "[D_MACRO_UNDEF] line 1: macro argument $$9 is not defined");
	/* No wrap-around to a small number. */
	r = fe_lex_args(dtp, "$4294967297", LM_EXPR, 0, 8, argv);
	assert_string_equal(r->error,
			    "[D_MACRO_UNDEF] line 1: macro argument $4294967297 is not defined");
	char *const big[] = { "t.d", "18446744073709551616" };
	r = fe_lex_args(dtp, "$1", LM_EXPR, 0, 2, big);
	assert_string_equal(r->error, "[D_MACRO_OFLOW] line 1: macro argument $1 constant "
				      "18446744073709551616 results in integer overflow");
	r = fe_lex(dtp, "$", LM_EXPR);
	assert_string_equal(r->error, "[D_SYNTAX] line 1: syntax error near \"$\"");
	r = fe_lex(dtp, "$ 1", LM_EXPR);
	assert_string_equal(r->error, "[D_SYNTAX] line 1: syntax error near \"$\"");
}

static void test_macro_variables(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_lexed *r = fe_lex(dtp, "$pid $$pid $uid $target", LM_EXPR);

	assert_null(r->error);
	assert_int_equal(r->t[0].tok, T_INT);
	assert_int_equal(r->t[0].ival, (uint64_t)getpid());
	assert_int_equal(r->t[1].tok, T_STRING);
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	assert_string_equal(r->t[1].sval, pid);
	assert_int_equal(r->t[2].ival, (uint64_t)getuid());
	assert_int_equal(r->t[3].ival, 0);	/* no -c or -p */
	r = fe_lex(dtp, "$nosuch", LM_EXPR);
	assert_string_equal(r->error, "[D_MACRO_UNDEF] line 1: macro variable $nosuch is not defined");
}

/* ---- Integer constants ---- */

static void expect_int_at(dtrace_hdl_t *dtp, const char *src, uint64_t value, const char *suffix,
			  bool decimal, const char *file, int line)
{
	struct fe_lexed *r = fe_lex(dtp, src, LM_EXPR);

	if (r->error != NULL)
		fe_fail_at(file, line, "%s: %s", src, r->error);
	if (r->n != 1 || r->t[0].tok != T_INT)
		fe_fail_at(file, line, "%s: not one integer token", src);
	if (r->t[0].ival != value || strcmp(r->t[0].isuffix, suffix) != 0 ||
	    r->t[0].idecimal != decimal)
		fe_fail_at(file, line, "%s: %llu \"%s\" %s", src, (unsigned long long)r->t[0].ival,
			   r->t[0].isuffix, r->t[0].idecimal ? "decimal" : "octal/hex");
}

#define expect_int(dtp, src, value, suffix, decimal) \
	expect_int_at(dtp, src, value, suffix, decimal, __FILE__, __LINE__)

static void test_integer_bases(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_int(dtp, "0", 0, "", false);
	expect_int(dtp, "123", 123, "", true);
	expect_int(dtp, "0x1F", 31, "", false);
	expect_int(dtp, "0X1f", 31, "", false);
	expect_int(dtp, "0xdeadBEEF", 0xdeadbeef, "", false);
	expect_int(dtp, "017", 15, "", false);
	expect_int(dtp, "00", 0, "", false);
	expect_int(dtp, "18446744073709551615", UINT64_MAX, "", true);
	expect_int(dtp, "0xffffffffffffffff", UINT64_MAX, "", false);
	expect_int(dtp, "01777777777777777777777", UINT64_MAX, "", false);
}

static void test_integer_suffixes(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_int(dtp, "1u", 1, "u", true);
	expect_int(dtp, "1U", 1, "U", true);
	expect_int(dtp, "1l", 1, "l", true);
	expect_int(dtp, "1L", 1, "L", true);
	expect_int(dtp, "1ul", 1, "ul", true);
	expect_int(dtp, "1UL", 1, "UL", true);
	expect_int(dtp, "1ll", 1, "ll", true);
	expect_int(dtp, "1LL", 1, "LL", true);
	expect_int(dtp, "1ull", 1, "ull", true);
	expect_int(dtp, "0x10uLL", 16, "uLL", false);
	expect_int(dtp, "010l", 8, "l", false);
	/* [uU]?[lL]?[lL]?: "lu" is the constant 1l and the identifier u. */
	expect_toks(dtp, "1lu", LM_EXPR, T_INT, T_IDENT);
	expect_toks(dtp, "1lll", LM_EXPR, T_INT, T_IDENT);
	expect_toks(dtp, "1uu", LM_EXPR, T_INT, T_IDENT);
	/* Hex digits end at the first non-digit. */
	expect_toks(dtp, "0x1g", LM_EXPR, T_INT, T_IDENT);
	expect_toks(dtp, "0x", LM_EXPR, T_INT, T_IDENT);
	expect_toks(dtp, "12abc", LM_EXPR, T_INT, T_IDENT);
}

static void test_integer_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_lex_error(dtp, "18446744073709551616", LM_EXPR,
			 "[D_INT_OFLOW] line 1: constant 18446744073709551616 results in integer overflow");
	expect_lex_error(dtp, "\n0x10000000000000000ul", LM_EXPR,
			 "[D_INT_OFLOW] line 2: constant 0x10000000000000000ul results in integer overflow");
	expect_lex_error(dtp, "02000000000000000000000", LM_EXPR,
			 "[D_INT_OFLOW] line 1: constant 02000000000000000000000 results in integer overflow");
	/* Octal constants have octal digits. */
	expect_lex_error(dtp, "08", LM_EXPR,
			 "[D_INT_DIGIT] line 1: constant 08 contains invalid digit 8");
	expect_lex_error(dtp, "x = 0129u", LM_EXPR,
			 "[D_INT_DIGIT] line 1: constant 0129u contains invalid digit 9");
	/* Constants at program scope (probe IDs) follow the same rules. */
	expect_lex_error(dtp, "09", LM_OUTER,
			 "[D_INT_DIGIT] line 1: constant 09 contains invalid digit 9");
}

/* D has no floating-point constants: DTrace refuses what its lexer reads as one. */
static void test_floating_constants(void **state)
{
	dtrace_hdl_t *dtp = *state;
	const char *fp[] = { "1.5", "1.", ".5", "1e5", "1E+5", "2e-3", "1.5e10", "0.0", "1.5f",
			     "3f", "3F", "012f", "1.5L", "08.5", "x = 1.0" };

	for (size_t i = 0; i < sizeof(fp) / sizeof(fp[0]); i++)
		expect_lex_error(dtp, fp[i], LM_EXPR,
				 "[D_SYNTAX] line 1: floating-point constants are not permitted");
	/* Hex digits are not exponents; a lone 'e' is an identifier; "l" is a suffix. */
	expect_int(dtp, "0x1e5", 0x1e5, "", false);
	expect_toks(dtp, "1e", LM_EXPR, T_INT, T_IDENT);
	expect_toks(dtp, "1e+", LM_EXPR, T_INT, T_IDENT, T_ADD);
	expect_int(dtp, "3l", 3, "l", true);
	/* A member access is not a fraction. */
	expect_toks(dtp, "a.b", LM_EXPR, T_IDENT, T_DOT, T_IDENT);
}

/*
 * Character constants are integers (their escapes and byte order are
 * tested with the rest of their rules in test_lex_char.c).
 */
static void test_char_constants(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_int(dtp, "'a'", 'a', "", true);
	expect_int(dtp, "'\\n'", '\n', "", true);
	expect_int(dtp, "'\\0'", 0, "", true);
	expect_lex_error(dtp, "''", LM_EXPR, "[D_CHR_NULL] line 1: empty character constant");
	expect_lex_error(dtp, "x = 'a\n'", LM_EXPR,
			 "[D_CHR_NL] line 2: newline encountered in character constant");
}

/* ---- Strings ---- */

static void expect_str_at(dtrace_hdl_t *dtp, const char *src, const char *want, size_t len,
			     const char *file, int line)
{
	struct fe_lexed *r = fe_lex(dtp, src, LM_EXPR);

	if (r->error != NULL)
		fe_fail_at(file, line, "%s: %s", src, r->error);
	if (r->n != 1 || r->t[0].tok != T_STRING)
		fe_fail_at(file, line, "%s: not one string token", src);
	if (r->t[0].slen != len || memcmp(r->t[0].sval, want, len) != 0)
		fe_fail_at(file, line, "%s: \"%s\" (%zu bytes)", src, r->t[0].sval, r->t[0].slen);
}

#define expect_str(dtp, src, want) \
	expect_str_at(dtp, src, want, sizeof(want) - 1, __FILE__, __LINE__)

static void test_strings(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_str(dtp, "\"\"", "");
	expect_str(dtp, "\"abc\"", "abc");
	expect_str(dtp, "\"a b\\tc\"", "a b\tc");
	expect_str(dtp, "\"\\n\\t\\v\\b\\r\\f\\a\\\\\\\"\"", "\n\t\v\b\r\f\a\\\"");
	expect_str(dtp, "\"\\101\\x42\\7\"", "AB\a");
	/* Octal escapes take up to three digits. */
	expect_str(dtp, "\"\\1011\"", "A1");
	/* A NUL inside a string is kept: the length says where it ends. */
	expect_str(dtp, "\"a\\0b\"", "a\0b");
	/* Comment markers and quotes inside strings are text. */
	expect_str(dtp, "\"/* x */ // '\"", "/* x */ // '");
	/* Adjacent strings are separate tokens (D does not concatenate them). */
	expect_toks(dtp, "\"a\" \"b\"", LM_EXPR, T_STRING, T_STRING);
}

static void test_string_errors(void **state)
{
	dtrace_hdl_t *dtp = *state;

	/* DTrace reports the line after the string's start (where the newline took it). */
	expect_lex_error(dtp, "x = \"abc\ndef\"", LM_EXPR,
			 "[D_STR_NL] line 2: newline encountered in string literal");
	expect_lex_error(dtp, "\n\n\"abc\n", LM_EXPR,
			 "[D_STR_NL] line 4: newline encountered in string literal");
}

/* ---- Comments, blanks and lines ---- */

static void expect_lines_at(dtrace_hdl_t *dtp, const char *src, const int *lines, int n,
			    const char *file, int line)
{
	struct fe_lexed *r = fe_lex(dtp, src, LM_EXPR);

	if (r->error != NULL)
		fe_fail_at(file, line, "%s: %s", src, r->error);
	if (r->n != n)
		fe_fail_at(file, line, "%s: %d tokens, want %d", src, r->n, n);
	for (int i = 0; i < n; i++)
		if (r->t[i].line != lines[i])
			fe_fail_at(file, line, "%s: token %d (\"%s\") on line %d, want %d", src, i,
				   r->text[i], r->t[i].line, lines[i]);
}

#define expect_lines(dtp, src, ...)                                                     \
	do {                                                                            \
		static const int l_[] = { __VA_ARGS__ };                                \
		expect_lines_at(dtp, src, l_, (int)(sizeof(l_) / sizeof(l_[0])), __FILE__, \
				__LINE__);                                              \
	} while (0)

static void test_comments(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_toks(dtp, "a /* b c */ d/**/e/***/f/* * / */g", LM_EXPR, T_IDENT, T_IDENT,
		    T_IDENT, T_IDENT, T_IDENT);
	/* Comments do not nest. */
	expect_lex_error(dtp, "a /* b /* c */", LM_EXPR,
			 "[D_SYNTAX] line 1: /* encountered inside a comment");
	expect_lex_error(dtp, "a /* b\n\n", LM_EXPR,
			 "[D_SYNTAX] line 3: end-of-file encountered before matching */");
	/* D has no // comments (cpp removes them with -C). */
	expect_toks(dtp, "a // b", LM_EXPR, T_IDENT, T_EPRED, T_DIV, T_IDENT);
}

static void test_line_counting(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_lines(dtp, "a\nb\n\nc", 1, 2, 4);
	/* Through comments. */
	expect_lines(dtp, "a /* 1\n2\n3 */ b\nc", 1, 3, 4);
	/* Through strings (a string on one line) and blanks of every kind. */
	expect_lines(dtp, "\"x\"\n\t\r\f\v \"y\"\n z", 1, 2, 3);
	/* A backslash at the end of a line continues it, but lines still count. */
	expect_lines(dtp, "a \\\nb\nc", 1, 2, 3);
	/* A token's line is where it starts. */
	expect_lines(dtp, "\n\n  x /* \n */ + \n\n y", 3, 4, 6);
	/* Errors carry the line they are found on. */
	expect_lex_error(dtp, "a\n/* x\n*/ b \n\n b #", LM_EXPR,
			 "[D_SYNTAX] line 5: syntax error near \"#\"");
	expect_lex_error(dtp, "\"a\"\n\"b\" \\\n 08", LM_EXPR,
			 "[D_INT_DIGIT] line 3: constant 08 contains invalid digit 8");
}

/*
 * Control lines: cpp line markers ("# N") set the line of the next line;
 * "#line N" makes it N + 1, as DTrace's dt_pragma() steps yylineno back
 * before a named directive and forward again after it; #! is skipped.
 * (What #pragma lines do is tested with the semantic checks.)
 */
static void test_control_lines(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_lines(dtp, "a\n#line 10\nb\nc", 1, 11, 12);
	expect_lines(dtp, "a\n#pragma line 10\nb", 1, 11);
	expect_lines(dtp, "a\n# 20 \"x.d\"\nb", 1, 20);
	expect_lines(dtp, "a\n  #  7 \"x.d\" 2\nb", 1, 7);
	expect_lines(dtp, "#!/usr/sbin/dtrace -s\na", 2);
	expect_lines(dtp, "# 1 \"/usr/include/x.h\" 1 3 4\na\n# 9 \"/dev/stdin\" 2\nb", 1, 9);
	/* '#' starts a control line only at the start of a line. */
	expect_lex_error(dtp, "a #line 3", LM_EXPR, "[D_SYNTAX] line 1: syntax error near \"#\"");
	expect_lex_error(dtp, "#pragma D option", LM_EXPR,
			 "[D_SYNTAX] line 1: end-of-file encountered before end of control line");
	expect_lex_error(dtp, "#pragma D \"abc\n", LM_EXPR,
			 "[D_STR_NL] line 1: newline encountered in string literal");
}

/* ---- Program scope: probe descriptions ---- */

static void expect_pspec_at(dtrace_hdl_t *dtp, const char *src, const char *want, unsigned flags,
			    const char *file, int line)
{
	struct fe_lexed *r = fe_lex_args(dtp, src, LM_OUTER, flags, 0, NULL);

	if (r->error != NULL)
		fe_fail_at(file, line, "%s: %s", src, r->error);
	if (r->n < 1 || r->t[0].tok != T_PSPEC || strcmp(r->t[0].sval, want) != 0)
		fe_fail_at(file, line, "%s: first token %d \"%s\"", src, r->n ? (int)r->t[0].tok : -1,
			   r->n ? r->text[0] : "");
}

#define expect_pspec(dtp, src, want) expect_pspec_at(dtp, src, want, 0, __FILE__, __LINE__)

static void test_probe_descriptions(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_pspec(dtp, "syscall::open*:entry", "syscall::open*:entry");
	expect_pspec(dtp, "pid$1:::", "pid$1:::");
	expect_pspec(dtp, "profile-97", "profile-97");
	expect_pspec(dtp, "tick-1sec", "tick-1sec");
	expect_pspec(dtp, "BEGIN", "BEGIN");
	expect_pspec(dtp, "END{", "END");
	expect_pspec(dtp, "fbt:vmlinux:vfs_read:entry", "fbt:vmlinux:vfs_read:entry");
	expect_pspec(dtp, "syscall::read:entry/", "syscall::read:entry");
	expect_pspec(dtp, "sched:::on-cpu", "sched:::on-cpu");
	expect_pspec(dtp, "a.b?c[de]!f\\g", "a.b?c[de]!f\\g");
	expect_pspec(dtp, "*:::", "*:::");
	expect_pspec(dtp, ":::tick-1", ":::tick-1");
	expect_pspec(dtp, "foo*", "foo*");
	expect_pspec(dtp, "vmlinux`x:::", "vmlinux`x:::");
	/* Descriptions, commas, the predicate's slash and the action's brace. */
	expect_toks(dtp, "a:b:c:d, e:f:g:h\n/x/ {", LM_OUTER, T_PSPEC, T_COMMA, T_PSPEC, T_DIV,
		    T_PSPEC, T_DIV, T_LBRACE);
	/* A probe ID. */
	expect_toks(dtp, "12345 {", LM_OUTER, T_INT, T_LBRACE);
	expect_lex_error(dtp, "syscall::read:entry ;", LM_OUTER,
			 "[D_SYNTAX] line 1: syntax error near \";\"");
}

/*
 * At program scope a word that is a type (or its part before '*') begins
 * a declaration, unless it has characters only probe descriptions have or
 * is BEGIN, END or ERROR; with -n/-P/... (DTRACE_C_PSPEC) it never does.
 */
static void test_outer_types(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct fe_lexed *r;

	expect_toks(dtp, "int", LM_OUTER, K_INT);
	expect_toks(dtp, "struct", LM_OUTER, K_STRUCT);
	expect_toks(dtp, "inline translator provider typedef self this", LM_OUTER, K_INLINE,
		    K_TRANSLATOR, K_PROVIDER, K_TYPEDEF, K_SELF, K_THIS);
	/* "int*x": the type, its '*' left for the declaration. */
	r = fe_lex(dtp, "int*x", LM_OUTER);
	assert_int_equal(r->t[0].tok, K_INT);
	assert_string_equal(r->text[0], "int");
	/* D's own typedefs are type names. */
	r = fe_lex(dtp, "uint64_t*", LM_OUTER);
	assert_int_equal(r->t[0].tok, T_TNAME);
	assert_string_equal(r->t[0].sval, "uint64_t");
	/* Keywords only clauses know are no declaration: a probe description. */
	expect_pspec(dtp, "sizeof", "sizeof");
	expect_pspec(dtp, "while", "while");
	/* Probe-description characters rule out a type. */
	expect_pspec(dtp, "int:::", "int:::");
	expect_pspec(dtp, "int-1", "int-1");
	expect_pspec(dtp, "integer", "integer");
	/* As a probe specifier (-n), never a type. */
	expect_pspec_at(dtp, "int*", "int*", DTRACE_C_PSPEC, __FILE__, __LINE__);
	expect_pspec_at(dtp, "uint64_t", "uint64_t", DTRACE_C_PSPEC, __FILE__, __LINE__);
}

/* "/" in an expression: division, or the predicate's end before ; { / or end of input. */
static void test_predicate_slash(void **state)
{
	dtrace_hdl_t *dtp = *state;

	expect_toks(dtp, "a / b", LM_EXPR, T_IDENT, T_DIV, T_IDENT);
	expect_toks(dtp, "a /", LM_EXPR, T_IDENT, T_EPRED);
	expect_toks(dtp, "a / {", LM_EXPR, T_IDENT, T_EPRED, T_LBRACE);
	expect_toks(dtp, "a /\n\n;", LM_EXPR, T_IDENT, T_EPRED, T_SEMI);
	expect_toks(dtp, "a //", LM_EXPR, T_IDENT, T_EPRED, T_EPRED);
	expect_toks(dtp, "a /= b", LM_EXPR, T_IDENT, T_DIV_EQ, T_IDENT);
	expect_toks(dtp, "a / (b)", LM_EXPR, T_IDENT, T_DIV, T_LPAR, T_IDENT, T_RPAR);
	/* A predicate's parentheses and brackets must be closed. */
	expect_lex_error(dtp, "(a /", LM_EXPR,
			 "[D_SYNTAX] line 1: closing ) expected in predicate before /");
	expect_lex_error(dtp, "a[1 /\n{", LM_EXPR,
			 "[D_SYNTAX] line 2: closing ] expected in predicate before /");
}

/*
 * A NUL byte in a script is no blank: DTrace's lexer stops at it
 * ("end-of-input" inside a clause); it ends a predicate's look-ahead.
 */
static void test_nul_bytes(void **state)
{
	dtrace_hdl_t *dtp = *state;
	static const char a[] = "x = 1\0+ 2;", b[] = "x\n\0 #", c[] = "1u\0l", d[] = "a /\0 b";
	struct fe_lexed *r;

	r = fe_lex_bytes(dtp, a, sizeof(a) - 1, LM_EXPR, 0, 0, NULL);
	assert_string_equal(r->error, "[D_SYNTAX] line 1: syntax error near end-of-input");
	assert_int_equal(r->n, 3);
	r = fe_lex_bytes(dtp, b, sizeof(b) - 1, LM_EXPR, 0, 0, NULL);
	assert_string_equal(r->error, "[D_SYNTAX] line 2: syntax error near end-of-input");
	r = fe_lex_bytes(dtp, c, sizeof(c) - 1, LM_EXPR, 0, 0, NULL);
	assert_int_equal(r->n, 1);
	assert_string_equal(r->t[0].isuffix, "u");
	assert_string_equal(r->text[0], "1u");
	r = fe_lex_bytes(dtp, d, sizeof(d) - 1, LM_EXPR, 0, 0, NULL);
	assert_int_equal(r->t[1].tok, T_EPRED);
}

/* Look-ahead in one mode and reading in another re-reads the text. */
static void test_mode_switch(void **state)
{
	dtrace_hdl_t *dtp = *state;
	struct dt_pcb pcb;
	struct dt_lexer lx;
	struct dt_token t;
	const char *src = "a-b:c";

	if (dt_pcb_init(&pcb, dtp->cc, src, strlen(src), NULL, 0, DTRACE_PSPEC_NAME, 0, NULL) < 0)
		fail();
	dt_lex_init(&lx, &pcb, pcb.src, pcb.srclen, NULL);
	if (setjmp(pcb.jb) != 0)
		fail_msg("%s", dtrace_errmsg(dtp));
	assert_int_equal(dt_lex_peek(&lx, LM_EXPR)->tok, T_IDENT);
	assert_int_equal(dt_lex_peek(&lx, LM_OUTER)->tok, T_PSPEC);
	dt_lex_next(&lx, LM_EXPR, &t);
	assert_int_equal(t.tok, T_IDENT);
	assert_string_equal(t.sval, "a");
	dt_lex_next(&lx, LM_EXPR, &t);
	assert_int_equal(t.tok, T_SUB);
	dt_lex_next(&lx, LM_EXPR, &t);
	assert_int_equal(t.tok, T_IDENT);
	assert_string_equal(t.sval, "b");
	free(pcb.argref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_keywords, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_identifiers, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_backquote, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_operators, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_longest_match, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_bad_characters, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_aggregation_names, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_macro_arguments, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_macro_variables, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_integer_bases, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_integer_suffixes, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_integer_errors, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_floating_constants, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_char_constants, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_strings, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_string_errors, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_comments, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_line_counting, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_control_lines, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_probe_descriptions, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_outer_types, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_predicate_slash, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_nul_bytes, fe_setup, fe_teardown),
		cmocka_unit_test_setup_teardown(test_mode_switch, fe_setup, fe_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
