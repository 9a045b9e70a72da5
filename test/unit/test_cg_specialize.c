/* Clause functions specialised once the programs are formed (cg_specialize.c). */
#include "opt_helpers.h"

#include "base/maps.h"
#include "base/object.h"
#include "compiler/cg.h"
#include "compiler/cg_specialize.h"

#define NOP I_JA(0)

/* A function over a copy of in[0..n) with the given relocations. */
static struct bo_func *func(const struct bpf_insn *in, size_t n, const struct bo_reloc *r,
			    size_t nr)
{
	struct bo_func *fn = calloc(1, sizeof(*fn));

	assert_non_null(fn);
	fn->insns.v = malloc(n * sizeof(*in));
	assert_non_null(fn->insns.v);
	memcpy(fn->insns.v, in, n * sizeof(*in));
	fn->insns.n = fn->insns.cap = n;
	if (nr > 0) {
		fn->relocs.v = malloc(nr * sizeof(*r));
		assert_non_null(fn->relocs.v);
		memcpy(fn->relocs.v, r, nr * sizeof(*r));
		fn->relocs.n = fn->relocs.cap = nr;
	}
	return fn;
}

static void func_free(struct bo_func *fn)
{
	free(fn->insns.v), free(fn->relocs.v), free(fn);
}

static void same_insns(const struct bo_func *fn, const struct bpf_insn *want, size_t n)
{
	assert_int_equal(fn->insns.n, n);
	assert_memory_equal(fn->insns.v, want, n * sizeof(*want));
}

/* emit_submit()'s test, as the clause builder leaves it. */
#define SUBMIT(reg)                                                        \
	I_CALL_HELPER(BPF_FUNC_ringbuf_query), I_LD_IMM64_LO(reg, 0, BSS_WAKEMARK), \
	I_LD_IMM64_HI(0), I_LDX(BPF_DW, reg, reg, 0), I_MOV64_IMM(BPF_R2, 1),     \
	I_JMP_REG(BPF_JLT, BPF_R0, reg, 1), I_MOV64_IMM(BPF_R2, 2),                \
	I_MOV64_REG(BPF_R1, BPF_R7), I_CALL_HELPER(BPF_FUNC_ringbuf_submit)

static void wakemark_immediate(void **state)
{
	(void)state;
	const struct bpf_insn in[] = { SUBMIT(BPF_R3), I_EXIT() };
	const struct bo_reloc r[] = { { .insn = 1, .kind = BO_RELOC_BSS } };
	const struct bpf_insn want[] = {
		I_CALL_HELPER(BPF_FUNC_ringbuf_query), NOP, NOP, NOP, I_MOV64_IMM(BPF_R2, 1),
		I_JMP_IMM(BPF_JLT, BPF_R0, 4096, 1), I_MOV64_IMM(BPF_R2, 2),
		I_MOV64_REG(BPF_R1, BPF_R7), I_CALL_HELPER(BPF_FUNC_ringbuf_submit), I_EXIT(),
	};
	struct bo_func *fn = func(in, N(in), r, N(r));

	assert_true(cg_spec_wakemark(fn, 4096));
	same_insns(fn, want, N(want));
	/* The .bss address is gone with its load. */
	assert_int_equal(fn->relocs.n, 0);
	func_free(fn);
}

/* Never (lockstat): all ones, which no count of bytes waiting reaches. */
static void wakemark_never(void **state)
{
	(void)state;
	const struct bpf_insn in[] = { SUBMIT(BPF_R3), I_EXIT() };
	const struct bo_reloc r[] = { { .insn = 1, .kind = BO_RELOC_BSS } };
	struct bo_func *fn = func(in, N(in), r, N(r));

	assert_true(cg_spec_wakemark(fn, UINT64_MAX));
	assert_int_equal(fn->insns.v[5].code, BPF_JMP | BPF_JLT | BPF_K);
	assert_int_equal(fn->insns.v[5].imm, -1);
	func_free(fn);
}

/* A mark past an immediate, another .bss word, no relocation, another shape: left. */
static void wakemark_kept(void **state)
{
	(void)state;
	const struct bpf_insn in[] = { SUBMIT(BPF_R3), I_EXIT() };
	const struct bo_reloc r[] = { { .insn = 1, .kind = BO_RELOC_BSS } };
	struct bpf_insn other[] = { SUBMIT(BPF_R3), I_EXIT() };
	struct bpf_insn shape[] = { SUBMIT(BPF_R3), I_EXIT() };
	struct bo_func *fn;

	fn = func(in, N(in), r, N(r));
	assert_false(cg_spec_wakemark(fn, (uint64_t)INT32_MAX + 1));
	same_insns(fn, in, N(in));
	func_free(fn);
	fn = func(in, N(in), NULL, 0);
	assert_false(cg_spec_wakemark(fn, 4096));
	func_free(fn);
	other[1].imm = BSS_STATE;
	fn = func(other, N(other), r, N(r));
	assert_false(cg_spec_wakemark(fn, 4096));
	func_free(fn);
	/* The loaded register compared with something else. */
	shape[5] = I_JMP_REG(BPF_JLT, BPF_R0, BPF_R4, 1);
	fn = func(shape, N(shape), r, N(r));
	assert_false(cg_spec_wakemark(fn, 4096));
	func_free(fn);
}

/* emit_reserve()'s timestamp, as the clause builder leaves it. */
#define TS_CACHE                                                                         \
	I_LDX(BPF_DW, BPF_R0, REG_DCTX, DCTX_TS), I_JMP_IMM(BPF_JNE, BPF_R0, 0, 2),       \
	I_CALL_HELPER(BPF_FUNC_ktime_get_ns), I_STX(BPF_DW, REG_DCTX, BPF_R0, DCTX_TS),   \
	I_STX(BPF_DW, REG_REC, BPF_R0, 16)

static void ts_direct(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PRID),
		TS_CACHE, I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PRID),
		NOP, NOP, I_CALL_HELPER(BPF_FUNC_ktime_get_ns), NOP,
		I_STX(BPF_DW, REG_REC, BPF_R0, 16), I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	struct bo_func *fn = func(in, N(in), NULL, 0);

	assert_true(cg_spec_ts(fn));
	same_insns(fn, want, N(want));
	func_free(fn);
}

/* `timestamp` (cg_firing_timestamp) into another register. */
static void ts_builtin(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), I_LDX(BPF_DW, BPF_R9, REG_DCTX, DCTX_TS),
		I_JMP_IMM(BPF_JNE, BPF_R9, 0, 3), I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_STX(BPF_DW, REG_DCTX, BPF_R0, DCTX_TS), I_MOV64_REG(BPF_R9, BPF_R0),
		I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), NOP, NOP, I_CALL_HELPER(BPF_FUNC_ktime_get_ns), NOP,
		I_MOV64_REG(BPF_R9, BPF_R0), I_MOV64_REG(BPF_R0, BPF_R9), I_EXIT(),
	};
	struct bpf_insn bad[N(in)];
	struct bo_func *fn = func(in, N(in), NULL, 0);

	assert_true(cg_spec_ts(fn));
	same_insns(fn, want, N(want));
	func_free(fn);
	/* Not its jump's length, not its move: not the cache. */
	memcpy(bad, in, sizeof(bad));
	bad[2].off = 2;
	fn = func(bad, N(bad), NULL, 0);
	assert_false(cg_spec_ts(fn));
	func_free(fn);
	memcpy(bad, in, sizeof(bad));
	bad[5] = I_MOV64_REG(BPF_R8, BPF_R0);
	fn = func(bad, N(bad), NULL, 0);
	assert_false(cg_spec_ts(fn));
	func_free(fn);
}

/* A jump from elsewhere to the cache's test: left. */
static void ts_jumped_into(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1), TS_CACHE,
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	struct bo_func *fn = func(in, N(in), NULL, 0);

	assert_false(cg_spec_ts(fn));
	same_insns(fn, in, N(in));
	func_free(fn);
}

/* The fault path gets dctx: it reads the word, 0, and takes its own time. */
static void ts_with_fault_path(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), TS_CACHE, I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
		I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX), I_MOV64_REG(BPF_R2, REG_DCTX),
		I_MOV64_IMM(BPF_R3, 1), I_CALL_PSEUDO(), I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bo_reloc fault[] = { { .insn = 11, .kind = BO_RELOC_CALL, .target = "dt_fault" } };
	const struct bo_reloc other[] = { { .insn = 11, .kind = BO_RELOC_CALL, .target = "dt_rt_x" } };
	struct bo_func *fn = func(in, N(in), fault, N(fault));

	assert_true(cg_spec_ts(fn));
	assert_int_equal(fn->insns.v[3].code, BPF_JMP | BPF_CALL);
	func_free(fn);
	/* Any other function given dctx may read the word. */
	fn = func(in, N(in), other, N(other));
	assert_false(cg_spec_ts(fn));
	func_free(fn);
}

/* `timestamp` read too, the word touched elsewhere, the pointer let go, dctx moved: left. */
static void ts_kept(void **state)
{
	(void)state;
	const struct bpf_insn twice[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), TS_CACHE, TS_CACHE, I_EXIT(),
	};
	const struct bpf_insn other[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), TS_CACHE, I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_TS + 4),
		I_EXIT(),
	};
	const struct bpf_insn escape[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), TS_CACHE, I_MOV64_REG(BPF_R1, REG_DCTX),
		I_CALL_HELPER(BPF_FUNC_get_current_comm), I_EXIT(),
	};
	const struct bpf_insn moved[] = {
		I_MOV64_REG(REG_DCTX, BPF_R2), TS_CACHE, I_ALU64_IMM(BPF_ADD, REG_DCTX, 8), I_EXIT(),
	};
	const struct bpf_insn no_entry[] = { TS_CACHE, I_EXIT() };
	const struct bpf_insn none[] = { I_MOV64_REG(REG_DCTX, BPF_R2), I_EXIT() };
	const struct { const struct bpf_insn *v; size_t n; } cases[] = {
		{ twice, N(twice) }, { other, N(other) }, { escape, N(escape) },
		{ moved, N(moved) }, { no_entry, N(no_entry) }, { none, N(none) },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct bo_func *fn = func(cases[i].v, cases[i].n, NULL, 0);
		assert_false(cg_spec_ts(fn));
		same_insns(fn, cases[i].v, cases[i].n);
		func_free(fn);
	}
}

/* emit_fault_path()'s call, to dt_error as the clause builder leaves it. */
#define FAULT_CALL                                                                    \
	I_MOV64_REG(REG_DCTX, BPF_R2), I_MOV64_IMM(BPF_R0, 0), I_EXIT(),               \
	I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX), I_MOV64_REG(BPF_R2, REG_DCTX),      \
	I_MOV64_IMM(BPF_R3, 7), I_CALL_PSEUDO(), I_MOV64_IMM(BPF_R0, 0), I_EXIT()

static void fault_direct(void **state)
{
	(void)state;
	const struct bpf_insn fault_call[] = { FAULT_CALL };
	const struct bpf_insn nop = NOP;
	const struct bo_reloc r[] = { { .insn = 6, .kind = BO_RELOC_CALL, .target = "dt_error" } };
	struct bo_func *fn = func(fault_call, N(fault_call), r, N(r));

	/* dt_error hands the context to ERROR clauses: kept for it. */
	assert_false(cg_spec_fault_ctx(fn));
	same_insns(fn, fault_call, N(fault_call));
	assert_true(cg_spec_skip_error(fn));
	assert_string_equal(fn->relocs.v[0].target, "dt_fault");
	assert_false(cg_spec_skip_error(fn));
	/* dt_fault reads none. */
	assert_true(cg_spec_fault_ctx(fn));
	assert_memory_equal(&fn->insns.v[3], &nop, sizeof(nop));
	assert_memory_equal(&fn->insns.v[4], &fault_call[4], 5 * sizeof(struct bpf_insn));
	func_free(fn);
}

/* Another function called, or the context loaded otherwise: left. */
static void fault_ctx_kept(void **state)
{
	(void)state;
	const struct bpf_insn fault_call[] = { FAULT_CALL };
	const struct bo_reloc other[] = { { .insn = 6, .kind = BO_RELOC_CALL, .target = "dt_rt_x" } };
	const struct bo_reloc fault[] = { { .insn = 6, .kind = BO_RELOC_CALL, .target = "dt_fault" } };
	struct bpf_insn reg[N(fault_call)];
	struct bo_func *fn = func(fault_call, N(fault_call), other, N(other));

	assert_false(cg_spec_fault_ctx(fn));
	assert_false(cg_spec_skip_error(fn));
	func_free(fn);
	memcpy(reg, fault_call, sizeof(reg));
	reg[3] = I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX + 8);
	fn = func(reg, N(reg), fault, N(fault));
	assert_false(cg_spec_fault_ctx(fn));
	same_insns(fn, reg, N(reg));
	func_free(fn);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wakemark_immediate),
		cmocka_unit_test(wakemark_never),
		cmocka_unit_test(wakemark_kept),
		cmocka_unit_test(ts_direct),
		cmocka_unit_test(ts_builtin),
		cmocka_unit_test(ts_jumped_into),
		cmocka_unit_test(ts_with_fault_path),
		cmocka_unit_test(ts_kept),
		cmocka_unit_test(fault_direct),
		cmocka_unit_test(fault_ctx_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
