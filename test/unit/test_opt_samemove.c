/* Moves into a register that holds the same value already (cg_opt_samemove.c). */
#include "opt_helpers.h"

/* The prologue's r6 = r1, r1 not written since: r1 = r6 goes. */
static void back_and_forth(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R6, BPF_R1),
		I_LD_IMM64_LO(BPF_R0, BPF_PSEUDO_MAP_VALUE, 0), I_LD_IMM64_HI(0),
		I_LDX(BPF_W, BPF_R0, BPF_R0, 0),
		I_JMP_IMM(BPF_JNE, BPF_R0, 1, 2),
		I_MOV64_REG(BPF_R1, BPF_R6),
		I_CALL_HELPER(BPF_FUNC_get_attach_cookie),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R6, BPF_R1),
		I_LD_IMM64_LO(BPF_R0, BPF_PSEUDO_MAP_VALUE, 0), I_LD_IMM64_HI(0),
		I_LDX(BPF_W, BPF_R0, BPF_R0, 0),
		I_JMP_IMM(BPF_JNE, BPF_R0, 1, 1),
		I_CALL_HELPER(BPF_FUNC_get_attach_cookie),
		I_EXIT(),
	};
	EXPECT(cg_opt_samemove, in, want);
}

/* Through a third register, and the same move twice. */
static void transitive(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R7, BPF_R0), I_MOV64_REG(BPF_R8, BPF_R7),
		I_MOV64_REG(BPF_R0, BPF_R8), I_MOV64_REG(BPF_R8, BPF_R7), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R7, BPF_R0), I_MOV64_REG(BPF_R8, BPF_R7), I_EXIT(),
	};
	EXPECT(cg_opt_samemove, in, want);
}

/* Either written in between (by an instruction, a call), or a jump target: kept. */
static void keep(void **state)
{
	(void)state;
	const struct bpf_insn written[] = {
		I_MOV64_REG(BPF_R6, BPF_R1), I_ALU64_IMM(BPF_ADD, BPF_R1, 8),
		I_MOV64_REG(BPF_R1, BPF_R6), I_EXIT(),
	};
	const struct bpf_insn called[] = {
		I_MOV64_REG(BPF_R6, BPF_R1), I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_REG(BPF_R1, BPF_R6), I_EXIT(),
	};
	const struct bpf_insn target[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 1),
		I_MOV64_REG(BPF_R6, BPF_R1),
		I_MOV64_REG(BPF_R1, BPF_R6), I_EXIT(),
	};
	const struct bpf_insn narrow[] = {
		I_MOV64_REG(BPF_R6, BPF_R1), I_MOV32_REG(BPF_R1, BPF_R6),
		I_MOV64_REG(BPF_R1, BPF_R6), I_EXIT(),
	};
	KEEP(cg_opt_samemove, written);
	KEEP(cg_opt_samemove, called);
	KEEP(cg_opt_samemove, target);
	KEEP(cg_opt_samemove, narrow);
}

/* A jump deleted by another pass no longer makes its target a block's start. */
static void after_deleted_jump(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R6, BPF_R1), I_JA(0),
		I_MOV64_REG(BPF_R1, BPF_R6),
		I_CALL_HELPER(BPF_FUNC_get_attach_cookie),
		I_STX(BPF_W, BPF_R6, BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R6, BPF_R1),
		I_CALL_HELPER(BPF_FUNC_get_attach_cookie),
		I_STX(BPF_W, BPF_R6, BPF_R0, 0), I_EXIT(),
	};
	EXPECT(NULL, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(back_and_forth),
		cmocka_unit_test(transitive),
		cmocka_unit_test(keep),
		cmocka_unit_test(after_deleted_jump),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
