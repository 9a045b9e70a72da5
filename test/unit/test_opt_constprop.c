/* Constants and frame addresses (cg_opt_constprop.c). */
#include "opt_helpers.h"

/* A memory access based on r9 = fp - 16 is based on r10. */
static void rebase_on_fp(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_ST(BPF_DW, BPF_R9, 0, 0), I_ST(BPF_DW, BPF_R9, 8, 0),
		I_LDX(BPF_W, BPF_R0, BPF_R9, 4), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_ST(BPF_DW, BPF_FP, -16, 0), I_ST(BPF_DW, BPF_FP, -8, 0),
		I_LDX(BPF_W, BPF_R0, BPF_FP, -12), I_EXIT(),
	};
	EXPECT(cg_opt_constprop, in, want);
}

/* The same address computed again into the register that holds it goes. */
static void redundant_address(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_MOV64_REG(BPF_R1, BPF_R9),
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_MOV64_REG(BPF_R1, BPF_R9),
		I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	EXPECT(cg_opt_constprop, in, want);
}

/* A jump target between: what the register holds there is not known. */
static void keep_after_label(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_REG(BPF_R9, BPF_R2),
		I_ST(BPF_DW, BPF_R9, 0, 0),
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_EXIT(),
	};
	KEEP(cg_opt_constprop, in);
}

/* Arithmetic on constants: the result is moved; a constant operand becomes an immediate. */
static void fold_constants(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R7, 6), I_ALU64_IMM(BPF_MUL, BPF_R7, 7),
		I_MOV64_IMM(BPF_R1, 3), I_ALU64_REG(BPF_ADD, BPF_R2, BPF_R1),
		I_MOV64_IMM(BPF_R3, -8), I_ALU64_IMM(BPF_ARSH, BPF_R3, 1),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R7, 6), I_MOV64_IMM(BPF_R7, 42),
		I_MOV64_IMM(BPF_R1, 3), I_ALU64_IMM(BPF_ADD, BPF_R2, 3),
		I_MOV64_IMM(BPF_R3, -8), I_MOV64_IMM(BPF_R3, -4),
		I_EXIT(),
	};
	EXPECT(cg_opt_constprop, in, want);
}

/* Division (by zero is defined in BPF, refused as an immediate), 32-bit ops and wide results stay. */
static void keep_unfoldable(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R1, 0), I_ALU64_REG(BPF_DIV, BPF_R2, BPF_R1),
		I_MOV32_IMM(BPF_R3, 5), I_ALU32_IMM(BPF_ADD, BPF_R3, 1),
		I_MOV64_IMM(BPF_R4, 0x40000000), I_ALU64_IMM(BPF_LSH, BPF_R4, 4),
		I_EXIT(),
	};
	KEEP(cg_opt_constprop, in);
}

/* A constant register stored to an 8-byte stack slot stores the immediate; elsewhere (maybe ctx) not. */
static void store_immediate(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R7, 1), I_STX(BPF_DW, BPF_FP, BPF_R7, -24),
		I_STX(BPF_W, BPF_FP, BPF_R7, -32), I_STX(BPF_DW, BPF_R6, BPF_R7, 0),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R7, 1), I_ST(BPF_DW, BPF_FP, -24, 1),
		I_STX(BPF_W, BPF_FP, BPF_R7, -32), I_STX(BPF_DW, BPF_R6, BPF_R7, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_constprop, in, want);
}

/* A call clobbers r0-r5: a constant in r1 is not known after it. */
static void call_clobbers(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R1, 4), I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_IMM(BPF_R1, 4), I_MOV64_REG(BPF_R0, BPF_R1), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R1, 4), I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_IMM(BPF_R1, 4), I_MOV64_IMM(BPF_R0, 4), I_EXIT(),
	};
	EXPECT(cg_opt_constprop, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rebase_on_fp),
		cmocka_unit_test(redundant_address),
		cmocka_unit_test(keep_after_label),
		cmocka_unit_test(fold_constants),
		cmocka_unit_test(keep_unfoldable),
		cmocka_unit_test(store_immediate),
		cmocka_unit_test(call_clobbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
