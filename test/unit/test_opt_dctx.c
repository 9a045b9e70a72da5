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
		I_LDX(BPF_DW, BPF_R0, BPF_R6, DCTX_TS),
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

/* Past the first jump only registers still read hold the pointer: r2 left as it was, r6 set anew. */
static void dead_copies(void **state)
{
	(void)state;
	const struct bpf_insn r2_left[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_LDX(BPF_DW, BPF_R9, BPF_R6, DCTX_TS),
		I_JMP_IMM(BPF_JNE, BPF_R9, 0, 1),
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_LDX(BPF_DW, BPF_R0, BPF_R6, DCTX_TASK),
		I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(r2_left, N(r2_left)), W(DCTX_TS) | W(DCTX_TASK));
	const struct bpf_insn r6_anew[] = {
		I_MOV64_REG(BPF_R6, BPF_R2), I_JA(0),
		I_MOV64_REG(BPF_R6, BPF_R1), I_LDX(BPF_DW, BPF_R0, BPF_R6, 0), I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(r6_anew, N(r6_anew)), 0);
	/* r2 read after the jump: everything. */
	const struct bpf_insn r2_read[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_JMP_IMM(BPF_JNE, BPF_R1, 0, 1),
		I_LDX(BPF_DW, BPF_R0, BPF_R2, DCTX_TS),
		I_EXIT(),
	};
	assert_int_equal(cg_dctx_reads(r2_read, N(r2_read)), ALL);
}

#define A(r) (1u << (r))

/* Which argument registers a clause reads before it sets them (cg_func_entry_reads). */
static void entry_reads(void **state)
{
	(void)state;
	/* The dctx kept, the context overwritten first: r2 only. */
	const struct bpf_insn dctx_only[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_LDX(BPF_DW, BPF_R0, BPF_R6, DCTX_TS), I_EXIT(),
	};
	/* (A call counts as reading r1-r5: r3-r5 may show too.) */
	assert_int_equal(cg_func_entry_reads(dctx_only, N(dctx_only)) & (A(1) | A(2)), A(2));
	/* Neither: both set before any read (execname as a key). */
	const struct bpf_insn neither[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	assert_int_equal(cg_func_entry_reads(neither, N(neither)) & (A(1) | A(2)), 0);
	/* Read on one path only (after a jump over its setting): read. */
	const struct bpf_insn one_path[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 1),
		I_MOV64_IMM(BPF_R1, 0),
		I_MOV64_REG(BPF_R0, BPF_R1), I_EXIT(),
	};
	assert_int_equal(cg_func_entry_reads(one_path, N(one_path)) & A(1), A(1));
	/* A long jump is not modelled: every argument. */
	const struct bpf_insn gotol[] = {
		bpf_insn(BPF_JMP32 | BPF_JA, 0, 0, 0, 0),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	assert_int_equal(cg_func_entry_reads(gotol, N(gotol)), A(1) | A(2) | A(3) | A(4) | A(5));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_through_r6),
		cmocka_unit_test(nothing_read),
		cmocka_unit_test(escapes),
		cmocka_unit_test(entry_reads),
		cmocka_unit_test(dead_copies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
