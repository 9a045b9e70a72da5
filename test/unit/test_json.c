/*
 * The JSON writer: escaping of every byte value, UTF-8 validation (what is
 * kept, what becomes U+FFFD), commas and nesting, 64-bit numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "consumer/json.h"

static char *esc(const char *s, size_t n, bool *kept)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	bool k = dt_json_escape(&sb, s, n);
	if (kept)
		*kept = k;
	return dt_sb_take(&sb);
}

#define assert_esc(expect, s, n, expect_kept) do {			\
	bool kept_;							\
	char *out_ = esc((s), (n), &kept_);				\
	assert_string_equal(out_, (expect));				\
	assert_int_equal(kept_, (expect_kept));				\
	free(out_);							\
} while (0)

static void test_escape_specials(void **state)
{
	(void)state;
	assert_esc("\"\"", "", 0, true);
	assert_esc("\"plain text\"", "plain text", 10, true);
	assert_esc("\"a\\\"b\\\\c\"", "a\"b\\c", 5, true);
	assert_esc("\"\\n\\t\\r\\b\\f\"", "\n\t\r\b\f", 5, true);
	assert_esc("\"\\u0000\\u0001\\u001b\\u001f\\u007f\"", "\0\1\x1b\x1f\x7f", 5, true);
	/* '/' needs no escape */
	assert_esc("\"a/b\"", "a/b", 3, true);
}

static void test_escape_utf8(void **state)
{
	(void)state;
	/* valid: 2, 3 and 4-byte forms, the largest code point, U+2028 */
	assert_esc("\"caf\xc3\xa9\"", "caf\xc3\xa9", 5, true);
	assert_esc("\"\xe2\x82\xac\"", "\xe2\x82\xac", 3, true);
	assert_esc("\"\xf0\x9f\x98\x80\"", "\xf0\x9f\x98\x80", 4, true);
	assert_esc("\"\xf4\x8f\xbf\xbf\"", "\xf4\x8f\xbf\xbf", 4, true);
	assert_esc("\"\xe2\x80\xa8\"", "\xe2\x80\xa8", 3, true);
	/* invalid: one U+FFFD per byte that does not start a valid sequence */
	assert_esc("\"\xef\xbf\xbd\"", "\xff", 1, false);
	assert_esc("\"a\xef\xbf\xbd" "b\"", "a\x80" "b", 3, false);
	/* overlong '/' (c0 af), overlong 3-byte (e0 80 af) */
	assert_esc("\"\xef\xbf\xbd\xef\xbf\xbd\"", "\xc0\xaf", 2, false);
	assert_esc("\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"", "\xe0\x80\xaf", 3, false);
	/* a UTF-16 surrogate (ed a0 80), past U+10FFFF (f4 90 80 80) */
	assert_esc("\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"", "\xed\xa0\x80", 3, false);
	assert_esc("\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"", "\xf4\x90\x80\x80", 4,
		   false);
	/* truncated at the end of the input, then a valid one after a bad one */
	assert_esc("\"x\xef\xbf\xbd\"", "x\xe2\x82", 2, false);
	assert_esc("\"\xef\xbf\xbd\xc3\xa9\"", "\xe2\xc3\xa9", 3, false);
	/* NUL in the middle is data, not the end */
	assert_esc("\"a\\u0000b\"", "a\0b", 3, true);
}

/*
 * Decode a JSON string (as written by dt_json_escape) back to bytes; fail
 * the test on anything that is not valid JSON string syntax.
 */
static size_t unescape(const char *in, char *out)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)in;

	assert_int_equal(*p++, '"');
	while (*p != '"') {
		assert_true(*p >= 0x20);
		if (*p != '\\') {
			out[n++] = (char)*p++;
			continue;
		}
		p++;
		switch (*p) {
		case '"': case '\\': case '/': out[n++] = (char)*p; break;
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'u': {
			char h[5] = { (char)p[1], (char)p[2], (char)p[3], (char)p[4], 0 };
			unsigned long v = strtoul(h, NULL, 16);
			assert_true(v < 0x80);	/* the writer only escapes ASCII */
			out[n++] = (char)v;
			p += 4;
			break;
		}
		default:
			fail_msg("bad escape \\%c", *p);
		}
		p++;
	}
	assert_int_equal(p[1], '\0');
	return n;
}

/* Random bytes: the output is valid JSON text in valid UTF-8 and round-trips. */
static void test_escape_random(void **state)
{
	(void)state;
	srand(42);
	for (int round = 0; round < 20000; round++) {
		char in[64], expect[64 * 3], back[64 * 3 + 8];
		size_t n = (size_t)(rand() % 64), m = 0;
		bool kept;

		for (size_t i = 0; i < n; i++) {
			/* mostly high bytes and control characters: the hard cases */
			int r = rand() % 4;
			in[i] = (char)(r == 0 ? rand() % 32 : r == 1 ? 0x80 + rand() % 128 : rand() % 256);
		}
		/* what the writer should keep: valid sequences, U+FFFD per bad byte */
		bool all_valid = true;
		for (size_t i = 0; i < n;) {
			size_t len = dt_utf8_seqlen((const unsigned char *)in + i, n - i);
			if (len == 0) {
				memcpy(expect + m, "\xef\xbf\xbd", 3);
				m += 3;
				i++;
				all_valid = false;
			} else {
				memcpy(expect + m, in + i, len);
				m += len;
				i += len;
			}
		}
		char *out = esc(in, n, &kept);
		assert_int_equal(kept, all_valid);
		/* the whole output is valid UTF-8 */
		size_t olen = strlen(out);
		for (size_t i = 0; i < olen;) {
			size_t len = dt_utf8_seqlen((const unsigned char *)out + i, olen - i);
			assert_true(len > 0);
			i += len;
		}
		size_t bn = unescape(out, back);
		assert_int_equal(bn, m);
		assert_memory_equal(back, expect, m);
		free(out);
	}
}

static void test_structure(void **state)
{
	struct dt_strbuf sb;
	struct dt_json j;

	(void)state;
	dt_sb_init(&sb);
	dt_json_init(&j, &sb);
	dt_json_object(&j);
	dt_json_kstr(&j, "event", "probe");
	dt_json_kint(&j, "min", INT64_MIN);
	dt_json_kuint(&j, "max", UINT64_MAX);
	dt_json_key(&j, "list");
	dt_json_array(&j);
	dt_json_int(&j, -1);
	dt_json_object(&j);
	dt_json_object_end(&j);
	dt_json_array(&j);
	dt_json_array_end(&j);
	dt_json_null(&j);
	dt_json_bool(&j, true);
	dt_json_hex(&j, "\x00\xff\x10", 3);
	dt_json_array_end(&j);
	dt_json_kstr(&j, "none", NULL);
	dt_json_key(&j, "k\"ey");
	dt_json_string(&j, "v", 1);
	dt_json_object_end(&j);
	assert_false(sb.oom);
	assert_string_equal(sb.s, "{\"event\":\"probe\",\"min\":-9223372036854775808,"
			    "\"max\":18446744073709551615,\"list\":[-1,{},[],null,true,"
			    "\"00ff10\"],\"none\":null,\"k\\\"ey\":\"v\"}");
	dt_sb_free(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_specials),
		cmocka_unit_test(test_escape_utf8),
		cmocka_unit_test(test_escape_random),
		cmocka_unit_test(test_structure),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
