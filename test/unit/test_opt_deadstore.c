/* Stack stores and loads (cg_opt_deadstore.c). */
#include "opt_helpers.h"

/* A load of a slot just stored is the stored value; the first store is overwritten unread. */
static void forward_and_drop(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_ST(BPF_DW, BPF_FP, -24, 0),
		I_LDX(BPF_DW, BPF_R7, BPF_FP, -24),
		I_ALU64_IMM(BPF_ADD, BPF_R7, 1),
		I_STX(BPF_DW, BPF_FP, BPF_R7, -24),
		I_MOV64_REG(BPF_R3, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R3, -24),
		I_CALL_HELPER(BPF_FUNC_map_update_elem), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R7, 0),
		I_ALU64_IMM(BPF_ADD, BPF_R7, 1),
		I_STX(BPF_DW, BPF_FP, BPF_R7, -24),
		I_MOV64_REG(BPF_R3, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R3, -24),
		I_CALL_HELPER(BPF_FUNC_map_update_elem), I_EXIT(),
	};
	EXPECT(cg_opt_deadstore, in, want);
}

/* A register stored and loaded back: a move (while the register keeps its value). */
static void forward_register(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_STX(BPF_DW, BPF_FP, BPF_R6, -8),
		I_LDX(BPF_DW, BPF_R1, BPF_FP, -8),
		I_MOV64_IMM(BPF_R6, 0),
		I_LDX(BPF_DW, BPF_R2, BPF_FP, -8),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_STX(BPF_DW, BPF_FP, BPF_R6, -8),
		I_MOV64_REG(BPF_R1, BPF_R6),
		I_MOV64_IMM(BPF_R6, 0),
		I_LDX(BPF_DW, BPF_R2, BPF_FP, -8),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	EXPECT(cg_opt_deadstore, in, want);
}

/* The slot's address was taken: a call may read it, a store through a pointer may change it. */
static void keep_address_taken(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_ST(BPF_DW, BPF_FP, -16, 5),
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_ST(BPF_DW, BPF_R1, 0, 6),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -16),
		I_ST(BPF_DW, BPF_FP, -16, 7),
		I_CALL_HELPER(BPF_FUNC_trace_printk),
		I_ST(BPF_DW, BPF_FP, -16, 8),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 0),
		I_ST(BPF_DW, BPF_FP, -16, 9),
		I_LDX(BPF_DW, BPF_R0, BPF_R1, 0),
		I_ST(BPF_DW, BPF_FP, -16, 10),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_ST(BPF_DW, BPF_FP, -16, 5),
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_ST(BPF_DW, BPF_R1, 0, 6),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -16),
		I_ST(BPF_DW, BPF_FP, -16, 7),
		I_CALL_HELPER(BPF_FUNC_trace_printk),
		I_ST(BPF_DW, BPF_FP, -16, 8),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 0),
		I_ST(BPF_DW, BPF_FP, -16, 9),
		I_LDX(BPF_DW, BPF_R0, BPF_R1, 0),
		/* (The last store: nothing reads the frame after it before the exit.) */
		I_EXIT(),
	};
	EXPECT(cg_opt_deadstore, in, want);
}

/* A narrower store does not make a wider one dead; a narrower load is not forwarded. */
static void keep_partial(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_ST(BPF_DW, BPF_FP, -8, 1),
		I_ST(BPF_W, BPF_FP, -8, 2),
		I_LDX(BPF_W, BPF_R0, BPF_FP, -4),
		I_LDX(BPF_DW, BPF_R1, BPF_FP, -8),
		I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R1),
		I_EXIT(),
	};
	KEEP(cg_opt_deadstore, in);
}

/* At a jump target the slot's value is not known. */
static void keep_at_label(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_ST(BPF_DW, BPF_FP, -8, 1),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -8),
		I_EXIT(),
	};
	KEEP(cg_opt_deadstore, in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(forward_and_drop),
		cmocka_unit_test(forward_register),
		cmocka_unit_test(keep_address_taken),
		cmocka_unit_test(keep_partial),
		cmocka_unit_test(keep_at_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
