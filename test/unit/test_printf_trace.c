/*
 * trace()'s default output and the byte dumps.  Expected strings come from
 * the conformance tests named beside them (the record's text after the
 * ":BEGIN " probe column, or the whole output when quiet).
 */
#include "printf_helpers.h"

static char *trace_int(int64_t v, size_t size, bool sign, bool quiet)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_format_trace_int(&sb, &v, size, sign, quiet);
	return dt_sb_take(&sb);
}

#define assert_trace_int(expect, v, size, sign, quiet) do {		\
	char *out_ = trace_int((v), (size), (sign), (quiet));		\
	assert_string_equal(out_, (expect));				\
	free(out_);							\
} while (0)

/* actions/trace/tst.{u,}int{8,16,32,64}_t{,-quiet}.r, tst.expr.r */
static void test_trace_ints(void **state)
{
	assert_trace_int("  -1", -1, 1, true, false);
	assert_trace_int(" 255", -1, 1, false, false);
	assert_trace_int("    -1", -1, 2, true, false);
	assert_trace_int("65535", -1, 2, false, true);
	assert_trace_int("         -1", -1, 4, true, false);
	assert_trace_int(" 4294967295", -1, 4, false, false);
	assert_trace_int("                  -1", -1, 8, true, false);
	assert_trace_int(" 18446744073709551615", -1, 8, false, false);
	assert_trace_int("-1", -1, 8, true, true);
	assert_trace_int("2", 2, 4, true, true);
	assert_trace_int("-128", -128, 1, true, true);
	assert_trace_int("255", 255, 1, false, true);
}

/* An integer of no C size is dumped as bytes. */
static void test_trace_odd_int(void **state)
{
	char *out = trace_int(0x030201, 3, true, false);

	assert_non_null(strstr(out, "         0: 01 02 03 "));
	free(out);
}

static char *trace_str(const char *s, size_t n, bool quiet)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_format_trace_string(&sb, s, n, quiet);
	return dt_sb_take(&sb);
}

/* actions/trace/tst.str.r, tst.str-quiet.r, trace/tst.string.r, tst.qstring.r */
static void test_trace_strings(void **state)
{
	char *out = trace_str("a", 2, false);
	assert_string_equal(out, "  a                                ");
	free(out);
	out = trace_str("a", 2, true);
	assert_string_equal(out, "a");
	free(out);

	/* Three traces in one record, as trace/tst.string.r shows them. */
	const char *parts[] = { "this", " %should work.\n",
				"%don't w%orry -- this won't cause a %segfault.\n" };
	struct dt_strbuf sb, q;
	dt_sb_init(&sb);
	dt_sb_init(&q);
	for (int i = 0; i < 3; i++) {
		dt_format_trace_string(&sb, parts[i], 256, false);
		dt_format_trace_string(&q, parts[i], 256, true);
	}
	/* The .r lines, less the probe column and its separating space. */
	assert_string_equal(sb.s, "  this                                %should work.\n"
			    "                    %don't w%orry -- this won't cause a %segfault.\n");
	assert_string_equal(q.s, "this %should work.\n"
			    "%don't w%orry -- this won't cause a %segfault.\n");
	dt_sb_free(&sb);
	dt_sb_free(&q);

	/* The string ends at its size even without a NUL. */
	out = trace_str("abcdef", 3, true);
	assert_string_equal(out, "abc");
	free(out);
}

static char *dump(const void *data, size_t n)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_format_rawbytes(&sb, data, n);
	return dt_sb_take(&sb);
}

static const char dump_header[] =
	"\n             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef\n";

/* actions/trace/tst.array.r, tst.struct-1-byte.r, funcs/strjoin/tst.strjoin-capped-size.r */
static void test_rawbytes(void **state)
{
	char comm[16] = "dtrace";
	char *out = dump(comm, sizeof(comm));
	char expect[512];

	snprintf(expect, sizeof(expect), "%s         0: 64 74 72 61 63 65 00 00 00 00 00 00 00 "
		 "00 00 00  dtrace..........\n", dump_header);
	assert_string_equal(out, expect);
	free(out);

	out = dump("\x34", 1);
	snprintf(expect, sizeof(expect), "%s         0: 34%45s  4\n", dump_header, "");
	assert_string_equal(out, expect);
	free(out);

	out = dump("dtraceBEGI", 11);
	snprintf(expect, sizeof(expect), "%s         0: 64 74 72 61 63 65 42 45 47 49 00%15s"
		 "  dtraceBEGI.\n", dump_header, "");
	assert_string_equal(out, expect);
	free(out);

	/* Rows of 16 with hex offsets; bytes outside ' '..'~' show as '.'. */
	unsigned char b[20];
	for (int i = 0; i < 20; i++)
		b[i] = (unsigned char)(i * 13 + 30);
	out = dump(b, sizeof(b));
	assert_non_null(strstr(out, "\n        10: "));
	assert_non_null(strstr(out, " 1e 2b 38 45 52 5f 6c 79 86 93 a0 ad ba c7 d4 e1  .+8ER_ly........\n"));
	free(out);

	out = dump("", 0);
	assert_string_equal(out, "");
	free(out);
}

static char *bytes(const void *data, size_t n, int width, bool quiet)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_format_bytes(&sb, data, n, width, quiet);
	return dt_sb_take(&sb);
}

/* dt_print_bytes(): which byte buffers print as strings. */
static void test_bytes_as_string(void **state)
{
	char *out;

	assert_true(dt_bytes_are_string("hello\0\0\0", 8));
	assert_true(dt_bytes_are_string("tab\tbell\a\b\n", 11));
	assert_true(dt_bytes_are_string("full", 4));
	assert_false(dt_bytes_are_string("\0abc", 4));	/* empty: not a string */
	assert_false(dt_bytes_are_string("ab\0c", 4));	/* data after the NUL */
	assert_false(dt_bytes_are_string("a\001b", 3));
	assert_false(dt_bytes_are_string("caf\xc3\xa9", 5));
	assert_false(dt_bytes_are_string("", 0));

	out = bytes("hello\0\0\0", 8, 10, false);
	assert_string_equal(out, "  hello     ");
	free(out);
	out = bytes("hello\0\0\0", 8, 10, true);
	assert_string_equal(out, "hello");
	free(out);
	/* Printable to the end, no NUL: padded even when quiet. */
	out = bytes("full", 4, 6, true);
	assert_string_equal(out, "  full  ");
	free(out);
	out = bytes("ab\0c", 4, 10, false);
	assert_non_null(strstr(out, "0: 61 62 00 63"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_ints),
		cmocka_unit_test(test_trace_odd_int),
		cmocka_unit_test(test_trace_strings),
		cmocka_unit_test(test_rawbytes),
		cmocka_unit_test(test_bytes_as_string),
	};

	return cmocka_run_group_tests_name("printf_trace", tests, NULL, NULL);
}
