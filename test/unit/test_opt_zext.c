/* Zero-extensions only narrow stores read (cg_opt_zext.c). */
#include "opt_helpers.h"

/* tid into a record: the 32-bit store ignores the upper half. */
static void before_narrow_store(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R9, BPF_R0), I_MOV32_REG(BPF_R9, BPF_R9),
		I_STX(BPF_W, BPF_R7, BPF_R9, 28), I_STX(BPF_H, BPF_R7, BPF_R9, 32),
		I_MOV64_IMM(BPF_R9, 0), I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_STX(BPF_W, BPF_R7, BPF_R9, 28), I_STX(BPF_H, BPF_R7, BPF_R9, 32),
		I_MOV64_IMM(BPF_R9, 0), I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	EXPECT(cg_opt_zext, in, want);
}

/* A 64-bit store, arithmetic, an address, a call argument, or live past the block: kept. */
static void keep(void **state)
{
	(void)state;
	const struct bpf_insn wide[] = {
		I_MOV32_REG(BPF_R9, BPF_R9), I_STX(BPF_DW, BPF_R7, BPF_R9, 0),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn arith[] = {
		I_MOV32_REG(BPF_R1, BPF_R1), I_ALU64_IMM(BPF_RSH, BPF_R1, 4),
		I_STX(BPF_W, BPF_R7, BPF_R1, 0), I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn base[] = {
		I_MOV32_REG(BPF_R1, BPF_R1), I_STX(BPF_W, BPF_R1, BPF_R1, 0),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn arg[] = {
		I_MOV32_REG(BPF_R1, BPF_R1), I_STX(BPF_W, BPF_R7, BPF_R1, 0),
		I_CALL_HELPER(BPF_FUNC_trace_printk), I_EXIT(),
	};
	const struct bpf_insn live[] = {
		I_MOV32_REG(BPF_R9, BPF_R9), I_STX(BPF_W, BPF_R7, BPF_R9, 0),
		I_JMP_IMM(BPF_JEQ, BPF_R7, 0, 1),
		I_MOV64_IMM(BPF_R9, 0), I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	KEEP(cg_opt_zext, wide);
	KEEP(cg_opt_zext, arith);
	KEEP(cg_opt_zext, base);
	KEEP(cg_opt_zext, arg);
	KEEP(cg_opt_zext, live);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(before_narrow_store),
		cmocka_unit_test(keep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
