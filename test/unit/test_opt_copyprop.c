/* Copy propagation and move coalescing (cg_opt_copyprop.c). */
#include "opt_helpers.h"

/* r9 = r10; r9 += -16; r1 = r9: computed in r1. */
static void coalesce_address(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R9, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R9, -16),
		I_MOV64_IMM(BPF_R7, 16),
		I_MOV64_REG(BPF_R1, BPF_R9), I_MOV64_REG(BPF_R2, BPF_R7),
		I_CALL_HELPER(BPF_FUNC_get_current_comm), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm), I_EXIT(),
	};
	EXPECT(cg_opt_copyprop, in, want);
}

/* A map's ld_imm64 moved into r1 is loaded into r1. */
static void coalesce_ldimm64(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_LD_IMM64_LO(BPF_R9, BPF_PSEUDO_MAP_FD, 0), I_LD_IMM64_HI(0),
		I_MOV64_REG(BPF_R7, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R7, -16),
		I_MOV64_REG(BPF_R1, BPF_R9), I_MOV64_REG(BPF_R2, BPF_R7),
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_LD_IMM64_LO(BPF_R1, BPF_PSEUDO_MAP_FD, 0), I_LD_IMM64_HI(0),
		I_MOV64_REG(BPF_R2, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R2, -16),
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem), I_EXIT(),
	};
	EXPECT(cg_opt_copyprop, in, want);
}

/* The source is read after the move: both stay. */
static void keep_source_live(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R7, 5), I_MOV64_REG(BPF_R1, BPF_R7),
		I_ALU64_REG(BPF_ADD, BPF_R1, BPF_R7), I_MOV64_REG(BPF_R0, BPF_R1), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R7, 5), I_MOV64_REG(BPF_R1, BPF_R7),
		I_ALU64_REG(BPF_ADD, BPF_R1, BPF_R7), I_EXIT(),
	};
	/* (Only the last move, whose source r1 is dead after it, is coalesced: r0 computes it.) */
	struct bpf_insn w2[N(want)];
	memcpy(w2, want, sizeof(want));
	w2[1] = I_MOV64_REG(BPF_R0, BPF_R7);
	w2[2] = I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R7);
	opt_expect(cg_opt_copyprop, in, N(in), w2, N(w2));
}

/* A jump target between the definition and the move: not one block, kept. */
static void keep_label_between(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_IMM(BPF_R9, 1),
		I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	KEEP(cg_opt_copyprop, in);
}

/* A call between clobbers r1-r5: the definition is not moved into r1. */
static void keep_call_between(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R9, 7),
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_REG(BPF_R1, BPF_R9),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	KEEP(cg_opt_copyprop, in);
}

/* The destination is read between: renaming would change what it reads. */
static void keep_dest_used_between(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R9, 7),
		I_STX(BPF_DW, BPF_FP, BPF_R1, -8),
		I_MOV64_REG(BPF_R1, BPF_R9),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	KEEP(cg_opt_copyprop, in);
}

/* r9 = r0; if r9 == 0 ...; loads through r9 read r0 instead. */
static void forward_after_call(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_JMP_IMM(BPF_JEQ, BPF_R9, 0, 3),
		I_LDX(BPF_DW, BPF_R7, BPF_R9, 0),
		I_ALU64_IMM(BPF_ADD, BPF_R7, 1),
		I_STX(BPF_DW, BPF_R9, BPF_R7, 0),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_CALL_HELPER(BPF_FUNC_map_lookup_elem),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 3),
		I_LDX(BPF_DW, BPF_R7, BPF_R0, 0),
		I_ALU64_IMM(BPF_ADD, BPF_R7, 1),
		I_STX(BPF_DW, BPF_R0, BPF_R7, 0),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	EXPECT(cg_opt_copyprop, in, want);
}

/* The source is written again: later reads keep the copy. */
static void forward_stops_at_redefinition(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_MOV64_IMM(BPF_R0, 4),
		I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R9), I_EXIT(),
	};
	KEEP(cg_opt_copyprop, in);
}

/* Renaming r0: the unused src_reg fields (0) of an immediate store and an ALU immediate stay 0. */
static void rename_r0_only_operands(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R0, 3),
		I_ST(BPF_DW, BPF_FP, -8, 1),
		I_ALU64_IMM(BPF_ADD, BPF_R0, 2),
		I_ALU64_IMM(BPF_ADD, BPF_R5, 2),
		I_MOV64_REG(BPF_R7, BPF_R0),
		I_MOV64_REG(BPF_R1, BPF_R7),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_IMM(BPF_R1, 3),
		I_ST(BPF_DW, BPF_FP, -8, 1),
		I_ALU64_IMM(BPF_ADD, BPF_R1, 2),
		I_ALU64_IMM(BPF_ADD, BPF_R5, 2),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	EXPECT(cg_opt_copyprop, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coalesce_address),
		cmocka_unit_test(coalesce_ldimm64),
		cmocka_unit_test(keep_source_live),
		cmocka_unit_test(keep_label_between),
		cmocka_unit_test(keep_call_between),
		cmocka_unit_test(keep_dest_used_between),
		cmocka_unit_test(forward_after_call),
		cmocka_unit_test(forward_stops_at_redefinition),
		cmocka_unit_test(rename_r0_only_operands),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
