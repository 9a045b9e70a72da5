/*
 * Character constants and escapes as DTrace's lexer reads them (dt_lex.l,
 * stresc2chr): the bytes of an integer, first byte most significant, each
 * unsigned; DTrace's escapes; D_CHR_NULL, D_CHR_OFLOW, D_CHR_NL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/escape.h"
#include "compiler/lexer.h"
#include "compiler/pcb.h"
#include "lib/dt_impl.h"

struct lexed {
	bool failed;
	char tag[32];
	char msg[2048];
	enum dt_tok tok;
	uint64_t value;
	int line;
};

/* Lex the first token of src inside a clause body. */
static struct lexed lex_one(const char *src)
{
	struct dt_core core = { 0 };
	struct dt_compiler cc = { .core = &core };
	struct dtrace_hdl hdl = { .core = &core, .cc = &cc }, *dtp = &hdl;
	struct dt_arena arena = { 0 };
	struct dt_pcb pcb;
	struct dt_lexer lx;
	struct dt_token t;
	struct lexed r = { 0 };

	memset(&pcb, 0, sizeof(pcb));
	pcb.cc = dtp->cc;
	pcb.arena = &arena;
	if (setjmp(pcb.jb) != 0) {
		r.failed = true;
		snprintf(r.tag, sizeof(r.tag), "%.31s", dtp->core->errtag);
		snprintf(r.msg, sizeof(r.msg), "%.2047s", dtp->core->errmsg);
	} else {
		dt_lex_init(&lx, &pcb, src, strlen(src), NULL);
		dt_lex_next(&lx, LM_EXPR, &t);
		r.tok = t.tok;
		r.value = t.ival;
		r.line = t.line;
		assert_true(t.idecimal);
		assert_string_equal(t.isuffix, "");
	}
	dt_arena_free(&arena);
	return r;
}

static uint64_t char_value(const char *src)
{
	struct lexed r = lex_one(src);

	if (r.failed)
		fail_msg("%s: %s %s", src, r.tag, r.msg);
	assert_int_equal(r.tok, T_INT);
	return r.value;
}

static void expect_error(const char *src, const char *tag, const char *msg, int line)
{
	struct dt_core core = { 0 };
	struct dt_compiler cc = { .core = &core };
	struct dtrace_hdl hdl = { .core = &core, .cc = &cc }, *dtp = &hdl;
	struct dt_arena arena = { 0 };
	struct dt_pcb pcb;
	struct dt_lexer lx;
	struct dt_token t;

	memset(&pcb, 0, sizeof(pcb));
	pcb.cc = dtp->cc;
	pcb.arena = &arena;
	pcb.show_lines = true;
	if (setjmp(pcb.jb) == 0) {
		dt_lex_init(&lx, &pcb, src, strlen(src), NULL);
		dt_lex_next(&lx, LM_EXPR, &t);
		fail_msg("%s: no error", src);
	}
	assert_string_equal(dtp->core->errtag, tag);
	char want[2048];
	snprintf(want, sizeof(want), "line %d: %s", line, msg);
	assert_string_equal(dtp->core->errmsg, want);
	dt_arena_free(&arena);
}

static void simple_escapes(void **state)
{
	(void)state;
	assert_int_equal(char_value("'\\n'"), 10);
	assert_int_equal(char_value("'\\t'"), 9);
	assert_int_equal(char_value("'\\a'"), 7);
	assert_int_equal(char_value("'\\b'"), 8);
	assert_int_equal(char_value("'\\f'"), 12);
	assert_int_equal(char_value("'\\r'"), 13);
	assert_int_equal(char_value("'\\v'"), 11);
	assert_int_equal(char_value("'\\\\'"), '\\');
	assert_int_equal(char_value("'\\\"'"), '"');
	assert_int_equal(char_value("'\\0'"), 0);
	assert_int_equal(char_value("'A'"), 65);
	assert_int_equal(char_value("' '"), 32);
	assert_int_equal(char_value("'\"'"), '"');
}

/* DTrace knows no \' or \?: like any unknown escape they keep the backslash. */
static void unknown_escapes_keep_the_backslash(void **state)
{
	(void)state;
	assert_int_equal(char_value("'\\''"), 0x5c27);
	assert_int_equal(char_value("'\\?'"), 0x5c3f);
	assert_int_equal(char_value("'\\q'"), 0x5c71);
	assert_int_equal(char_value("'\\e'"), 0x5c65);
	assert_int_equal(char_value("'\\8'"), 0x5c38);
	assert_int_equal(char_value("'\\X41'"), 0x5c583431);
}

static void octal_escapes(void **state)
{
	(void)state;
	assert_int_equal(char_value("'\\101'"), 'A');
	assert_int_equal(char_value("'\\7'"), 7);
	assert_int_equal(char_value("'\\18'"), 0x0138);	/* two digits, then '8' */
	assert_int_equal(char_value("'\\1011'"), 0x4131);	/* three digits at most */
	assert_int_equal(char_value("'\\377'"), 255);		/* unsigned: not -1 */
	assert_int_equal(char_value("'\\400'"), 0);		/* wraps to a byte */
	assert_int_equal(char_value("'\\777'"), 255);
	assert_int_equal(char_value("'\\0a'"), 0x0061);
}

static void hex_escapes(void **state)
{
	(void)state;
	assert_int_equal(char_value("'\\x41'"), 'A');
	assert_int_equal(char_value("'\\xA'"), 10);
	assert_int_equal(char_value("'\\xff'"), 255);
	assert_int_equal(char_value("'\\xFF'"), 255);
	/* Every hex digit is read; the low byte stays. */
	assert_int_equal(char_value("'\\x141'"), 0x41);
	assert_int_equal(char_value("'\\x123456789abc'"), 0xbc);
	/* \x without digits is a NUL byte. */
	assert_int_equal(char_value("'\\x'"), 0);
	assert_int_equal(char_value("'\\xg'"), 0x0067);
}

static void multi_character_constants(void **state)
{
	(void)state;
	assert_int_equal(char_value("'ab'"), 0x6162);
	assert_int_equal(char_value("'abcd'"), 0x61626364);
	assert_int_equal(char_value("'abcdefgh'"), 0x6162636465666768ULL);
	assert_int_equal(char_value("'\\377\\377'"), 0xffff);
	assert_int_equal(char_value("'a\\0'"), 0x6100);
	/* Bytes above 127, as written in UTF-8: unsigned too. */
	assert_int_equal(char_value("'\xc3\xa9'"), 0xc3a9);
}

static void errors(void **state)
{
	(void)state;
	expect_error("''", "D_CHR_NULL", "empty character constant", 1);
	expect_error("'abcdefghi'", "D_CHR_OFLOW", "character constant is too long", 1);
	/* Nine bytes after decoding, though eight escapes were written. */
	expect_error("'\\1\\2\\3\\4\\5\\6\\7\\10\\11'", "D_CHR_OFLOW",
		     "character constant is too long", 1);
	/* Escapes that keep their backslash count twice. */
	expect_error("'\\'\\'\\'\\'\\''", "D_CHR_OFLOW", "character constant is too long", 1);
	/* DTrace reports the newline on the line it ends. */
	expect_error("'ab\ncd'", "D_CHR_NL", "newline encountered in character constant", 2);
	expect_error("\n'\n'", "D_CHR_NL", "newline encountered in character constant", 3);
	/* Unterminated at the end of input: the quote is the error. */
	expect_error("'ab", "D_SYNTAX", "syntax error near \"'\"", 1);
	expect_error("'a\\", "D_SYNTAX", "syntax error near \"'\"", 1);
	/* An escaped quote does not end the constant. */
	expect_error("'\\'", "D_SYNTAX", "syntax error near \"'\"", 1);
}

static void escape_decode(void **state)
{
	char s[64];

	(void)state;
	strcpy(s, "abc\\\"\\t\\044\\?\\x4D");
	assert_int_equal(dt_escape_decode(s), 9);
	assert_string_equal(s, "abc\"\t$\\?M");
	strcpy(s, "\\?\\\\\\'\\\"\\0x");
	assert_int_equal(dt_escape_decode(s), 8);
	assert_memory_equal(s, "\\?\\\\'\"\0x", 8);
	strcpy(s, "a\\");
	assert_int_equal(dt_escape_decode(s), 1);
	assert_string_equal(s, "a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(simple_escapes),
		cmocka_unit_test(unknown_escapes_keep_the_backslash),
		cmocka_unit_test(octal_escapes),
		cmocka_unit_test(hex_escapes),
		cmocka_unit_test(multi_character_constants),
		cmocka_unit_test(errors),
		cmocka_unit_test(escape_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
