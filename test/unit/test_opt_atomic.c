/*
 * Atomic instructions as the optimisation passes see them: which
 * registers each form reads and writes (cg_opt_insn.c), and that the
 * passes do not carry a value across one that writes the register.
 */
#include "opt_helpers.h"

#ifndef BPF_LOAD_ACQ
#define BPF_LOAD_ACQ 0x100
#endif
#ifndef BPF_STORE_REL
#define BPF_STORE_REL 0x110
#endif

#define R(r) ((uint16_t)(1u << (r)))

static struct bpf_insn atomic(int size, int dst, int src, int16_t off, int32_t imm)
{
	return bpf_insn((uint8_t)(BPF_STX | BPF_ATOMIC | size), (uint8_t)dst, (uint8_t)src, off, imm);
}

/* Each atomic form: what it reads and what it writes. */
static void uses_and_defs(void **state)
{
	(void)state;
	struct bpf_insn add = atomic(BPF_DW, BPF_R1, BPF_R2, 0, BPF_ADD);
	struct bpf_insn fadd = atomic(BPF_DW, BPF_R1, BPF_R2, 0, BPF_ADD | BPF_FETCH);
	struct bpf_insn xchg = atomic(BPF_DW, BPF_R1, BPF_R2, 0, BPF_XCHG);
	struct bpf_insn cmpxchg = atomic(BPF_DW, BPF_R1, BPF_R2, 0, BPF_CMPXCHG);
	/* dst = load_acquire(src + off); store_release(dst + off, src) */
	struct bpf_insn lacq = atomic(BPF_DW, BPF_R3, BPF_R1, 0, BPF_LOAD_ACQ);
	struct bpf_insn srel = atomic(BPF_DW, BPF_R1, BPF_R3, 0, BPF_STORE_REL);

	assert_int_equal(cg_opt_uses(&add), R(1) | R(2));
	assert_int_equal(cg_opt_defs(&add), 0);
	assert_int_equal(cg_opt_uses(&fadd), R(1) | R(2));
	assert_int_equal(cg_opt_defs(&fadd), R(2));
	assert_int_equal(cg_opt_defs(&xchg), R(2));
	assert_int_equal(cg_opt_uses(&cmpxchg), R(0) | R(1) | R(2));
	assert_int_equal(cg_opt_defs(&cmpxchg), R(0));
	assert_int_equal(cg_opt_uses(&lacq), R(1));
	assert_int_equal(cg_opt_defs(&lacq), R(3));
	assert_int_equal(cg_opt_uses(&srel), R(1) | R(3));
	assert_int_equal(cg_opt_defs(&srel), 0);
}

/* A constant in r3 is gone once a load-acquire writes r3: the move after it stays a move, the constant is dead. */
static void load_acquire_writes_dst(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_IMM(BPF_R3, 5),
		atomic(BPF_DW, BPF_R3, BPF_R1, 0, BPF_LOAD_ACQ),
		I_MOV64_REG(BPF_R0, BPF_R3),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		atomic(BPF_DW, BPF_R3, BPF_R1, 0, BPF_LOAD_ACQ),
		I_MOV64_REG(BPF_R0, BPF_R3),
		I_EXIT(),
	};
	EXPECT(NULL, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uses_and_defs),
		cmocka_unit_test(load_acquire_writes_dst),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
