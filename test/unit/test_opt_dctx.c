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

/* A function with these instructions, its call at `at` to `callee`. */
static struct bo_func *func(const char *name, const struct bpf_insn *v, size_t n, long at,
			    const char *callee)
{
	struct bo_func *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->name = name;
	for (size_t i = 0; i < n; i++)
		assert_int_equal(dt_vec_push(&f->insns, v[i]), 0);
	if (at >= 0) {
		struct bo_reloc r = { .insn = (uint32_t)at, .kind = BO_RELOC_CALL, .target = callee };
		assert_int_equal(dt_vec_push(&f->relocs, r), 0);
	}
	return f;
}

static void func_free(struct bo_func *f)
{
	dt_vec_free(&f->insns);
	dt_vec_free(&f->relocs);
	free(f);
}

/*
 * The dctx passed in r2 to a function of the object (the fault path):
 * what that function reads, but the fault's address and place, which
 * every path to dt_error and dt_fault sets first.  A function not in the
 * object, or the pointer in another argument too: everything.
 */
static void through_calls(void **state)
{
	(void)state;
	const struct bpf_insn clause[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_LDX(BPF_DW, BPF_R0, BPF_R6, DCTX_TS),
		I_JMP_IMM(BPF_JEQ, BPF_R0, 0, 2),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
		I_ST(BPF_DW, BPF_R6, DCTX_EPID, 0),
		I_LDX(BPF_DW, BPF_R1, BPF_R6, DCTX_CTX),
		I_MOV64_REG(BPF_R2, BPF_R6),
		I_MOV64_IMM(BPF_R3, 0),
		I_CALL_PSEUDO(),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const long call = 9;
	const struct bpf_insn fault[] = {
		I_MOV64_REG(BPF_R6, BPF_R2),
		I_LDX(BPF_W, BPF_R1, BPF_R6, DCTX_PRID),
		I_LDX(BPF_DW, BPF_R1, BPF_R6, DCTX_EPID),
		I_LDX(BPF_W, BPF_R1, BPF_R6, DCTX_FAULT_PC),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	/* dt_error: dt_fault with the same dctx, then reads of its own. */
	const struct bpf_insn error[] = {
		I_MOV64_REG(BPF_R7, BPF_R2), I_CALL_PSEUDO(),
		I_LDX(BPF_DW, BPF_R1, BPF_R7, DCTX_KSTACK),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	struct bo_object obj;
	memset(&obj, 0, sizeof(obj));
	struct bo_func *c = func("dt_clause_0", clause, N(clause), call, "dt_error");
	struct bo_func *e = func("dt_error", error, N(error), 1, "dt_fault");
	struct bo_func *f = func("dt_fault", fault, N(fault), -1, NULL);
	struct bo_func *other = func("other", fault, N(fault), -1, NULL);
	struct bo_func *to_other = func("dt_clause_1", clause, N(clause), call, "other");
	struct bo_func *to_none = func("dt_clause_2", clause, N(clause), call, "missing");
	assert_int_equal(dt_vec_push(&obj.funcs, c), 0);
	assert_int_equal(dt_vec_push(&obj.funcs, e), 0);
	assert_int_equal(dt_vec_push(&obj.funcs, f), 0);
	assert_int_equal(dt_vec_push(&obj.funcs, other), 0);
	uint32_t mine = W(DCTX_TS) | W(DCTX_CTX);
	assert_int_equal(cg_dctx_reads_calls(&obj, c), mine | W(DCTX_PRID) | W(DCTX_KSTACK));
	assert_int_equal(cg_dctx_reads_calls(&obj, to_other),
			 mine | W(DCTX_PRID) | W(DCTX_EPID) | W(DCTX_FAULT_PC));
	assert_int_equal(cg_dctx_reads_calls(&obj, to_none), ALL);
	/* Without the object's functions: everything, as before. */
	assert_int_equal(cg_dctx_reads(clause, N(clause)), ALL);
	/* The pointer in r1 as well: everything. */
	struct bpf_insn twice[N(clause)];
	memcpy(twice, clause, sizeof(clause));
	twice[6] = I_MOV64_REG(BPF_R1, BPF_R6);
	struct bo_func *both = func("dt_clause_3", twice, N(twice), call, "dt_error");
	assert_int_equal(cg_dctx_reads_calls(&obj, both), ALL);
	func_free(c), func_free(e), func_free(f), func_free(other), func_free(to_other);
	func_free(to_none), func_free(both);
	dt_vec_free(&obj.funcs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_through_r6),
		cmocka_unit_test(nothing_read),
		cmocka_unit_test(escapes),
		cmocka_unit_test(entry_reads),
		cmocka_unit_test(dead_copies),
		cmocka_unit_test(through_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
