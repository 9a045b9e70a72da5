/*
 * stapsdt notes and their argument specifications (x86_64), as gcc writes
 * them for <sys/sdt.h> and for the headers of dtrace -h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "providers/stapsdt.h"

#define PT_AX 80
#define PT_BX 40
#define PT_DX 96
#define PT_SI 104
#define PT_DI 112
#define PT_BP 32
#define PT_R8 72
#define PT_R12 24
#define PT_IP 128

static void test_registers(void **state)
{
	struct dt_sdt_arg a[8];
	int n = dt_sdt_args_parse("-4@%edi 8@%rax 2@%si -1@%r8b 8@%r12 1@%ah", a, 8);

	(void)state;
	assert_int_equal(n, 6);
	assert_int_equal(a[0].kind, DT_SDT_ARG_REG);
	assert_int_equal(a[0].reg, PT_DI);
	assert_int_equal(a[0].size, -4);
	assert_int_equal(a[1].reg, PT_AX);
	assert_int_equal(a[1].size, 8);
	assert_int_equal(a[2].reg, PT_SI);
	assert_int_equal(a[2].size, 2);
	assert_int_equal(a[3].reg, PT_R8);
	assert_int_equal(a[3].size, -1);
	assert_int_equal(a[4].reg, PT_R12);
	assert_int_equal(a[5].reg, PT_AX);
	assert_int_equal(a[5].shift, 8);
}

static void test_constants(void **state)
{
	struct dt_sdt_arg a[4];
	int n = dt_sdt_args_parse("8@$-1 4@$5 8@$0x10", a, 4);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(a[0].kind, DT_SDT_ARG_CONST);
	assert_int_equal(a[0].val, -1);
	assert_int_equal(a[1].val, 5);
	assert_int_equal(a[2].val, 16);
}

static void test_memory(void **state)
{
	struct dt_sdt_arg a[6];
	int n = dt_sdt_args_parse("8@-16(%rbp) -4@(%rbx) 8@8(%rax,%rdx,4) 4@counter(%rip) "
				  "8@counter+8(%rip) 8@(%rsi,%rdi)", a, 6);

	(void)state;
	assert_int_equal(n, 6);
	assert_int_equal(a[0].kind, DT_SDT_ARG_MEM);
	assert_int_equal(a[0].reg, PT_BP);
	assert_int_equal(a[0].val, -16);
	assert_int_equal(a[0].index, -1);
	assert_int_equal(a[1].reg, PT_BX);
	assert_int_equal(a[1].val, 0);
	assert_int_equal(a[1].size, -4);
	assert_int_equal(a[2].reg, PT_AX);
	assert_int_equal(a[2].index, PT_DX);
	assert_int_equal(a[2].scale, 4);
	assert_int_equal(a[2].val, 8);
	assert_int_equal(a[3].reg, PT_IP);
	assert_true(a[3].rip);
	assert_string_equal(a[3].sym, "counter");
	assert_int_equal(a[3].val, 0);
	assert_string_equal(a[4].sym, "counter");
	assert_int_equal(a[4].val, 8);
	assert_int_equal(a[5].reg, PT_SI);
	assert_int_equal(a[5].index, PT_DI);
	assert_int_equal(a[5].scale, 1);
}

/* What cannot be read is kept in place (later arguments keep their index). */
static void test_unknown(void **state)
{
	struct dt_sdt_arg a[4];
	int n = dt_sdt_args_parse("8@%xmm0 3@%rax 8@16(%rip) 8@%rdi", a, 4);

	(void)state;
	assert_int_equal(n, 4);
	assert_int_equal(a[0].kind, DT_SDT_ARG_NONE);
	assert_int_equal(a[1].kind, DT_SDT_ARG_NONE);
	assert_int_equal(a[2].kind, DT_SDT_ARG_NONE);
	assert_int_equal(a[3].kind, DT_SDT_ARG_REG);
	assert_int_equal(dt_sdt_args_parse("", a, 4), 0);
	assert_int_equal(dt_sdt_args_parse("  ", a, 4), 0);
}

static int count_note(const struct dt_sdt_note *n, void *arg)
{
	int *count = arg;

	assert_string_equal(n->provider, "prov");
	assert_string_equal(n->name, "probe__one");
	assert_string_equal(n->args, "-4@%edi");
	assert_int_equal(n->pc, 0x1122);
	assert_int_equal(n->base, 0x2000);
	assert_int_equal(n->sema, 0x4010);
	(*count)++;
	return 0;
}

static size_t put_note(unsigned char *p, uint32_t type, const char *owner)
{
	static const char strs[] = "prov\0probe__one\0-4@%edi";
	uint64_t addrs[3] = { 0x1122, 0x2000, 0x4010 };
	uint32_t namesz = (uint32_t)strlen(owner) + 1, descsz = 24 + sizeof(strs);
	size_t off = 12;

	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memcpy(p + off, owner, namesz);
	off += (namesz + 3) & ~3u;
	memcpy(p + off, addrs, 24);
	memcpy(p + off + 24, strs, sizeof(strs));
	off += (descsz + 3) & ~3u;
	return off;
}

static void test_notes(void **state)
{
	unsigned char buf[512];
	size_t len = 0;
	int count = 0;

	(void)state;
	memset(buf, 0, sizeof(buf));
	len += put_note(buf + len, 3, "stapsdt");
	len += put_note(buf + len, 1, "GNU");	/* another owner: skipped */
	len += put_note(buf + len, 3, "stapsdt");
	assert_int_equal(dt_sdt_notes_walk(buf, len, count_note, &count), 0);
	assert_int_equal(count, 2);
	/* Truncated: the last note is dropped, nothing is read past the end. */
	count = 0;
	assert_int_equal(dt_sdt_notes_walk(buf, len - 8, count_note, &count), 0);
	assert_int_equal(count, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registers),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_memory),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_notes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
