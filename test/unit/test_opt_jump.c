/* Jumps (cg_opt_jump.c): threading through known tests, inversion, 32-bit tests, unreachable code. */
#include "opt_helpers.h"

/* `r = (int)x == 0 ? 1 : 0; if r == 0 goto X` as the code generator emits it. */
#define BOOL_TEST \
	I_MOV64_REG(BPF_R9, BPF_R0), \
	I_ALU64_IMM(BPF_LSH, BPF_R9, 32), \
	I_ALU64_IMM(BPF_ARSH, BPF_R9, 32), \
	I_MOV64_IMM(BPF_R1, 1), \
	I_JMP_IMM(BPF_JEQ, BPF_R9, 0, 1), \
	I_MOV64_IMM(BPF_R1, 0), \
	I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 2), \
	I_MOV64_IMM(BPF_R0, 1), \
	I_EXIT(), \
	I_MOV64_IMM(BPF_R0, 0), \
	I_EXIT()

/* One round: the first test goes past the second, the `r1 = 0` path straight to X, the shifts go. */
static void bool_one_round(void **state)
{
	(void)state;
	const struct bpf_insn in[] = { BOOL_TEST };
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_MOV64_IMM(BPF_R1, 1),
		bpf_insn(BPF_JMP32 | BPF_JEQ | BPF_K, BPF_R9, 0, 1, 0),
		I_JA(2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in, want);
}

/* All passes: one 32-bit test of r0. */
static void bool_all(void **state)
{
	(void)state;
	const struct bpf_insn in[] = { BOOL_TEST };
	const struct bpf_insn want[] = {
		bpf_insn(BPF_JMP32 | BPF_JNE | BPF_K, BPF_R0, 0, 2, 0),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	EXPECT(NULL, in, want);
}

/* Another path reaches the test between the constant and the jump: nothing known there. */
static void keep_join(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R2, 7, 1),
		I_MOV64_IMM(BPF_R1, 1),
		I_JMP_IMM(BPF_JEQ, BPF_R9, 0, 1),	/* r1 is 1 or r1 as passed */
		I_MOV64_IMM(BPF_R1, 5),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 2),
		I_MOV64_REG(BPF_R0, BPF_R1),
		I_EXIT(),
		I_MOV64_REG(BPF_R0, BPF_R1),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, in);
}

/* The constant is read where the test leads: the move stays a move. */
static void keep_live_constant(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 2),
		I_MOV64_IMM(BPF_R1, 0),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_REG(BPF_R0, BPF_R1),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, in);
}

/* A sign extension read after the test, or tested unsigned: kept. */
static void keep_sext(void **state)
{
	(void)state;
	const struct bpf_insn live[] = {
		I_ALU64_IMM(BPF_LSH, BPF_R1, 32),
		I_ALU64_IMM(BPF_ARSH, BPF_R1, 32),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_REG(BPF_R0, BPF_R1),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, live);
	const struct bpf_insn unsig[] = {
		I_ALU64_IMM(BPF_LSH, BPF_R1, 32),
		I_ALU64_IMM(BPF_ARSH, BPF_R1, 32),
		I_JMP_IMM(BPF_JGT, BPF_R1, 5, 1),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, unsig);
	const struct bpf_insn shift31[] = {
		I_ALU64_IMM(BPF_LSH, BPF_R1, 31),
		I_ALU64_IMM(BPF_ARSH, BPF_R1, 31),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, shift31);
}

/* Signed and equality tests of a sign extension, against a negative constant too. */
static void narrow_signed(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_ALU64_IMM(BPF_LSH, BPF_R1, 32),
		I_ALU64_IMM(BPF_ARSH, BPF_R1, 32),
		I_JMP_IMM(BPF_JSLT, BPF_R1, -3, 1),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		bpf_insn(BPF_JMP32 | BPF_JSLT | BPF_K, BPF_R1, 0, 1, -3),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in, want);
}

/* A test over a goto: the opposite test; not for JSET, nor a goto another jump reaches. */
static void inversion(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_REG(BPF_JGE, BPF_R1, BPF_R2, 1),
		I_JA(2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_JMP_REG(BPF_JLT, BPF_R1, BPF_R2, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in, want);
	const struct bpf_insn jset[] = {
		I_JMP_IMM(BPF_JSET, BPF_R1, 4, 1),
		I_JA(2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	KEEP(cg_opt_jump, jset);
	/* The first test reaches the goto too: it goes where the goto goes, the goto stays. */
	const struct bpf_insn joined[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R3, 0, 1),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_JA(2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	const struct bpf_insn joined_want[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R3, 0, 4),
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_JA(2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, joined, joined_want);
}

/* A goto to a goto goes to the end of the chain; what no path reaches then goes. */
static void goto_chain(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_JA(0),
		I_JA(1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in, want);
}

/*
 * A 32-bit constant move: tests see its zero-extended value, 64-bit
 * tests as a 64-bit number, 32-bit tests as a 32-bit one.  The test
 * after the jump is reached by falling through it too: it stays.
 */
static void mov32_value(void **state)
{
	(void)state;
	const struct bpf_insn in64[] = {
		I_MOV32_IMM(BPF_R1, -1),
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 0),
		I_JMP_IMM(BPF_JSGT, BPF_R1, 0, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	const struct bpf_insn want64[] = {
		I_MOV32_IMM(BPF_R1, -1),
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 3),	/* 0xffffffff s> 0 */
		I_JMP_IMM(BPF_JSGT, BPF_R1, 0, 2),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in64, want64);
	const struct bpf_insn in32[] = {
		I_MOV32_IMM(BPF_R1, -1),
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 0),
		bpf_insn(BPF_JMP32 | BPF_JSGT | BPF_K, BPF_R1, 0, 2, 0),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	const struct bpf_insn want32[] = {
		I_MOV32_IMM(BPF_R1, -1),
		I_JMP_IMM(BPF_JEQ, BPF_R2, 0, 1),	/* -1 s> 0 is false in 32 bits */
		bpf_insn(BPF_JMP32 | BPF_JSGT | BPF_K, BPF_R1, 0, 2, 0),
		I_MOV64_IMM(BPF_R0, 1),
		I_EXIT(),
		I_MOV64_IMM(BPF_R0, 2),
		I_EXIT(),
	};
	EXPECT(cg_opt_jump, in32, want32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bool_one_round),
		cmocka_unit_test(bool_all),
		cmocka_unit_test(keep_join),
		cmocka_unit_test(keep_live_constant),
		cmocka_unit_test(keep_sext),
		cmocka_unit_test(narrow_signed),
		cmocka_unit_test(inversion),
		cmocka_unit_test(goto_chain),
		cmocka_unit_test(mov32_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
