/* Dead code (cg_opt_dce.c) and the peephole pass (cg_opt_peephole.c). */
#include "opt_helpers.h"

static void dead_results(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R7, 1),
		I_LD_IMM64_LO(BPF_R8, BPF_PSEUDO_MAP_FD, 0), I_LD_IMM64_HI(0),
		I_LDX(BPF_DW, BPF_R9, BPF_FP, -8),
		I_MOV64_REG(BPF_R1, BPF_R6),
		I_CALL_HELPER(BPF_FUNC_get_attach_cookie),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = { I_MOV64_IMM(BPF_R0, 0), I_EXIT() };
	EXPECT(cg_opt_dce, in, want);
}

/* Stores, calls with effects, a result read on one path only: kept. */
static void keep_effects(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_ST(BPF_DW, BPF_FP, -8, 0),
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -8),
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		I_MOV64_IMM(BPF_R7, 3),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 1),
		I_MOV64_REG(BPF_R0, BPF_R7),
		I_EXIT(),
	};
	KEEP(cg_opt_dce, in);
}

/* An atomic fetch writes memory: kept though its fetched value is unused. */
static void keep_atomic(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R1, 1),
		bpf_insn(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_R7, BPF_R1, 0, BPF_ADD | BPF_FETCH),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	KEEP(cg_opt_dce, in);
}

static void peephole(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JA(0),
		I_MOV64_REG(BPF_R1, BPF_R1),
		I_ALU64_IMM(BPF_ADD, BPF_R1, 0),
		I_MOV32_REG(BPF_R2, BPF_R2),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 0),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV32_REG(BPF_R2, BPF_R2),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
	};
	EXPECT(cg_opt_peephole, in, want);
}

/* All passes: the agg count's lookup path as the code generator gives it. */
static void all_passes(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_JA(0),
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_ST(BPF_DW, BPF_R9, 0, 0), I_ST(BPF_DW, BPF_R9, 8, 0),
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_MOV64_IMM(BPF_R7, 16),
		I_MOV64_REG(BPF_R1, BPF_R9), I_MOV64_REG(BPF_R2, BPF_R7),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_ST(BPF_DW, BPF_FP, -16, 0), I_ST(BPF_DW, BPF_FP, -8, 0),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	EXPECT(NULL, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dead_results),
		cmocka_unit_test(keep_effects),
		cmocka_unit_test(keep_atomic),
		cmocka_unit_test(peephole),
		cmocka_unit_test(all_passes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
