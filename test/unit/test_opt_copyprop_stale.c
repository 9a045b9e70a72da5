/*
 * Copy propagation changes what is live: after it makes an instruction
 * read rB for rA, rB is live where the liveness computed before said it
 * was dead, and a move from rB may not be coalesced on that liveness
 * (found by differential testing of the passes on random programs).
 */
#include "opt_helpers.h"

/*
 *   r7 = r10; r4 = r7; r2 = r7; r0 ^= r4; r0 ^= r2; exit
 * Propagating r4 = r7 makes `r0 ^= r4` read r7, so r7 is live after
 * r2 = r7 and r2 = r7 must not be coalesced (that renamed r7 = r10 into
 * r2 = r10 and left `r0 ^= r7` reading a register nothing set).
 */
static void no_coalesce_on_stale_liveness(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R7, BPF_FP),
		I_MOV64_REG(BPF_R4, BPF_R7),
		I_MOV64_REG(BPF_R2, BPF_R7),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R4),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R2),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R7, BPF_FP),
		I_MOV64_REG(BPF_R4, BPF_R7),
		I_MOV64_REG(BPF_R2, BPF_R7),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R7),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R7),
		I_EXIT(),
	};
	EXPECT(cg_opt_copyprop, in, want);
}

/* All the passes: both operands are r10's value, read from the one register that holds it. */
static void all_passes_keep_the_value(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R7, BPF_FP),
		I_MOV64_REG(BPF_R4, BPF_R7),
		I_ALU64_REG(BPF_ADD, BPF_R2, BPF_R2),
		I_MOV64_REG(BPF_R2, BPF_R7),
		I_LDX(BPF_DW, BPF_R7, BPF_FP, -40),
		I_MOV64_REG(BPF_R7, BPF_R2),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R4),
		I_ALU64_REG(BPF_XOR, BPF_R0, BPF_R7),
		I_EXIT(),
	};
	struct bpf_insn out[16];
	size_t k = opt_apply(NULL, in, N(in), out);

	/* Every register the result reads is set before (r0 on entry aside). */
	uint16_t set = 1u << BPF_R0 | 1u << BPF_FP;
	for (size_t i = 0; i < k; i++) {
		uint16_t u = cg_opt_uses(&out[i]);
		if ((u & ~set) != 0)
			opt_print("reads a register nothing set", out, k);
		assert_int_equal(u & ~set, 0);
		set |= cg_opt_defs(&out[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_coalesce_on_stale_liveness),
		cmocka_unit_test(all_passes_keep_the_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
