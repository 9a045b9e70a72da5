/*
 * The types notes of USDT probes (.note.dtrace, as dtrace -h and -G write
 * them): descriptors written and read back, untyped probes, padding,
 * malformed notes; the types of stapsdt operands by size and sign.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "providers/usdt_types.h"

struct seen {
	struct dt_usdt_types t[4];
	int n;
	int keep;		/* what the callback returns */
};

static int collect(struct dt_usdt_types *t, void *arg)
{
	struct seen *s = arg;

	if (s->n < 4)
		s->t[s->n++] = *t;
	return s->keep;
}

/* A note of `desc` (dlen bytes) with owner `owner` and type `type` at buf: its size. */
static size_t note(unsigned char *buf, const char *owner, uint32_t type, const void *desc,
		   size_t dlen)
{
	uint32_t namesz = (uint32_t)strlen(owner) + 1, descsz = (uint32_t)dlen;
	size_t off = 12;

	memcpy(buf, &namesz, 4);
	memcpy(buf + 4, &descsz, 4);
	memcpy(buf + 8, &type, 4);
	memset(buf + 12, 0, 64 + dlen);
	memcpy(buf + off, owner, namesz);
	off += (namesz + 3) & ~3u;
	memcpy(buf + off, desc, dlen);
	return off + ((dlen + 3) & ~3u);
}

static void test_roundtrip(void **state)
{
	const char *native[3] = { "string", "int", "struct foo *" };
	const char *xlate[3] = { NULL, NULL, "fooinfo_t *" };
	char desc[256];
	unsigned char buf[1024];
	struct seen s = { .keep = 1 };

	(void)state;
	size_t d = dt_usdt_types_desc(NULL, 0, "prov", "req__start", native, xlate, 3);
	assert_int_equal(d, dt_usdt_types_desc(desc, sizeof(desc), "prov", "req__start", native,
					       xlate, 3));
	assert_int_equal(d, 5 + 11 + 7 + 1 + 4 + 1 + 13 + 12);
	size_t len = note(buf, DT_USDT_TYPES_OWNER, DT_USDT_TYPES_NOTE, desc, d);
	/* A stapsdt note and another owner's are not types notes. */
	len += note(buf + len, "stapsdt", 3, desc, d);
	len += note(buf + len, "dtracex", DT_USDT_TYPES_NOTE, desc, d);
	assert_int_equal(dt_usdt_types_walk(buf, len, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.t[0].provider, "prov");
	assert_string_equal(s.t[0].probe, "req__start");
	assert_int_equal(s.t[0].nargs, 3);
	assert_string_equal(s.t[0].native[0], "string");
	assert_null(s.t[0].xlate[0]);
	assert_string_equal(s.t[0].native[1], "int");
	assert_string_equal(s.t[0].native[2], "struct foo *");
	assert_string_equal(s.t[0].xlate[2], "fooinfo_t *");
	dt_usdt_types_free(&s.t[0]);
}

static void test_untyped_and_empty(void **state)
{
	char desc[64];
	unsigned char buf[512];
	struct seen s = { .keep = 1 };

	(void)state;
	size_t d = dt_usdt_types_desc(desc, sizeof(desc), "p", "swapped", NULL, NULL, -1);
	size_t len = note(buf, DT_USDT_TYPES_OWNER, DT_USDT_TYPES_NOTE, desc, d);
	d = dt_usdt_types_desc(desc, sizeof(desc), "p", "none", NULL, NULL, 0);
	len += note(buf + len, DT_USDT_TYPES_OWNER, DT_USDT_TYPES_NOTE, desc, d);
	assert_int_equal(dt_usdt_types_walk(buf, len, collect, &s), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.t[0].probe, "swapped");
	assert_int_equal(s.t[0].nargs, -1);
	assert_string_equal(s.t[1].probe, "none");
	assert_int_equal(s.t[1].nargs, 0);
	dt_usdt_types_free(&s.t[0]);
	dt_usdt_types_free(&s.t[1]);
}

static void test_malformed(void **state)
{
	/* No probe name; an unterminated type; a descriptor past the end. */
	static const char noprobe[] = "prov\0";
	static const char unterminated[] = { 'p', 0, 'q', 0, 'i', 'n', 't' };
	unsigned char buf[512];
	struct seen s = { .keep = 1 };

	(void)state;
	size_t len = note(buf, DT_USDT_TYPES_OWNER, DT_USDT_TYPES_NOTE, noprobe, sizeof(noprobe));
	len += note(buf + len, DT_USDT_TYPES_OWNER, DT_USDT_TYPES_NOTE, unterminated,
		    sizeof(unterminated));
	assert_int_equal(dt_usdt_types_walk(buf, len, collect, &s), 0);
	/* The unterminated type is dropped, the note's names kept. */
	assert_int_equal(s.n, 1);
	assert_string_equal(s.t[0].probe, "q");
	assert_int_equal(s.t[0].nargs, 0);
	assert_int_equal(dt_usdt_types_walk(buf, len - 4, collect, &s), 0);
	assert_int_equal(s.n, 1);
	dt_usdt_types_free(&s.t[0]);
}

static void test_size_types(void **state)
{
	(void)state;
	assert_string_equal(dt_usdt_size_type(-4), "int32_t");
	assert_string_equal(dt_usdt_size_type(4), "uint32_t");
	assert_string_equal(dt_usdt_size_type(-1), "int8_t");
	assert_string_equal(dt_usdt_size_type(2), "uint16_t");
	assert_string_equal(dt_usdt_size_type(-8), "int64_t");
	assert_string_equal(dt_usdt_size_type(8), "uint64_t");
	assert_null(dt_usdt_size_type(0));
	assert_null(dt_usdt_size_type(3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_untyped_and_empty),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_size_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
