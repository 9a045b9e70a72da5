/* Which dctx fields a clause function reads (cg_dctx.c). */
#include "opt_helpers.h"

#include "compiler/cg.h"
#include "compiler/cg_dctx.h"

#define W(off) (1u << ((off) / 8))
#define ALL ((1u << (DCTX_SIZE / 8)) - 1)

static void reads_through_r6(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_LDX(BPF_DW, BPF_R1, BPF_R6, DCTX_TS),
		I_JMP_IMM(BPF_JNE, BPF_R1, 0, 2),
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_STX(BPF_DW, BPF_R6, BPF_R0, DCTX_TS),
		I_LDX(BPF_W, BPF_R0, BPF_R6, DCTX_FLAGS),
		I_ST(BPF_DW, BPF_R6, DCTX_EPID, 0),
		I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(in, N(in)), W(DCTX_TS) | W(DCTX_FLAGS));
}

static void nothing_read(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(in, N(in)), 0);
}

/* The pointer passed on (dt_fault), stored, kept in r2 over a jump, r6 written again: all. */
static void escapes(void **state)
{
	(void)state;
	const struct bpf_insn passed[] = {
		I_MOV64_REG(BPF_R6, BPF_R2), I_MOV64_IMM(BPF_R0, 0),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 2),
		I_MOV64_REG(BPF_R2, BPF_R6), I_CALL_PSEUDO(),
		I_EXIT(),
	};
	const struct bpf_insn stored[] = {
		I_MOV64_REG(BPF_R6, BPF_R2), I_STX(BPF_DW, BPF_FP, BPF_R6, -8), I_EXIT(),
	};
	const struct bpf_insn in_r2[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 0),
		I_LDX(BPF_DW, BPF_R0, BPF_R2, DCTX_TS), I_EXIT(),
	};
	const struct bpf_insn rewritten[] = {
		I_MOV64_REG(BPF_R6, BPF_R2), I_JA(0),
		I_MOV64_REG(BPF_R6, BPF_R1), I_LDX(BPF_DW, BPF_R0, BPF_R6, 0), I_EXIT(),
	};
	const struct bpf_insn arith[] = {
		I_MOV64_REG(BPF_R6, BPF_R2), I_ALU64_IMM(BPF_ADD, BPF_R6, 8), I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(passed, N(passed)), ALL);
	assert_int_equal(cg_dctx_reads(stored, N(stored)), ALL);
	assert_int_equal(cg_dctx_reads(in_r2, N(in_r2)), ALL);
	assert_int_equal(cg_dctx_reads(rewritten, N(rewritten)), ALL);
	assert_int_equal(cg_dctx_reads(arith, N(arith)), ALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_through_r6),
		cmocka_unit_test(nothing_read),
		cmocka_unit_test(escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
