/*
 * dt_x86_func_returns(): whether a function's code has a way back to its
 * caller (a ret, or a jump out of it), which decides whether it gets a pid
 * return probe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "providers/x86_insn.h"

#define RETURNS(...) do {							\
	static const uint8_t c_[] = { __VA_ARGS__ };				\
	assert_true(dt_x86_func_returns(c_, sizeof(c_)));			\
} while (0)
#define NEVER(...) do {								\
	static const uint8_t c_[] = { __VA_ARGS__ };				\
	assert_false(dt_x86_func_returns(c_, sizeof(c_)));			\
} while (0)

static void test_rets(void **state)
{
	(void)state;
	RETURNS(0x31, 0xc0, 0xc3);			/* xor eax,eax; ret */
	RETURNS(0xf3, 0xc3);				/* repz ret */
	RETURNS(0xc2, 0x08, 0x00);			/* ret $8 */
	RETURNS(0x48, 0xcb);				/* lretq */
	/* a ret after code that jumps over it */
	RETURNS(0x85, 0xff, 0x74, 0x01, 0xc3, 0x31, 0xc0, 0xc3);
}

static void test_tail_calls(void **state)
{
	(void)state;
	/* add $1,%edi; jmp rel32 to before the function */
	RETURNS(0x83, 0xc7, 0x01, 0xe9, 0xe8, 0xff, 0xff, 0xff);
	/* jmp rel8 past the end */
	RETURNS(0x90, 0xeb, 0x10);
	/* a conditional tail call: je rel32 out, then a loop to itself */
	RETURNS(0x0f, 0x84, 0x00, 0x01, 0x00, 0x00, 0xeb, 0xfe);
}

static void test_never(void **state)
{
	(void)state;
	/* _start: xor ebp,ebp; mov rdx,r9; pop rsi; ...; call *rel(%rip); hlt */
	NEVER(0x31, 0xed, 0x49, 0x89, 0xd1, 0x5e, 0x48, 0x89, 0xe2, 0x48, 0x83, 0xe4, 0xf0,
	      0x50, 0x54, 0x45, 0x31, 0xc0, 0x31, 0xc9, 0x48, 0x8d, 0x3d, 0x65, 0xff, 0xff, 0xff,
	      0xff, 0x15, 0x9f, 0x2e, 0x00, 0x00, 0xf4);
	/* mov %ebx,%edi; call _exit (rel32 out: a call, not a way back) */
	NEVER(0x89, 0xdf, 0xe8, 0x00, 0xf0, 0xff, 0xff);
	/* a loop that jumps only within the function */
	NEVER(0x90, 0x75, 0xfd, 0xeb, 0xfb);
	/* an indirect jump (a dispatcher, not a return) */
	NEVER(0x41, 0xff, 0xe4);
	/* bytes that look like a ret inside other instructions */
	NEVER(0xb8, 0xc3, 0xc3, 0xc3, 0xc3, 0x0f, 0x0b);
}

static void test_undecodable(void **state)
{
	(void)state;
	/* an instruction the decoder does not know (06: push es), then a ret */
	RETURNS(0x90, 0x06, 0x00, 0xc3);
	/* ... then nothing that could be a ret or a jmp */
	NEVER(0x90, 0x06, 0x00, 0x01, 0x02);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rets),
		cmocka_unit_test(test_tail_calls),
		cmocka_unit_test(test_never),
		cmocka_unit_test(test_undecodable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
