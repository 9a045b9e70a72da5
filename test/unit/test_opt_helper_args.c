/* A helper call reads only its prototype's argument registers (cg_opt_insn.c). */
#include "opt_helpers.h"

#define R(r) ((uint16_t)(1u << (r)))

static void uses(void **state)
{
	(void)state;
	const struct bpf_insn ktime = I_CALL_HELPER(BPF_FUNC_ktime_get_ns);
	const struct bpf_insn comm = I_CALL_HELPER(BPF_FUNC_get_current_comm);
	const struct bpf_insn read = I_CALL_HELPER(BPF_FUNC_probe_read_kernel);
	const struct bpf_insn update = I_CALL_HELPER(BPF_FUNC_map_update_elem);
	const struct bpf_insn cookie = I_CALL_HELPER(BPF_FUNC_get_attach_cookie);
	const struct bpf_insn unknown = I_CALL_HELPER(BPF_FUNC_snprintf);
	const struct bpf_insn pseudo = I_CALL_PSEUDO();
	const uint16_t all = R(1) | R(2) | R(3) | R(4) | R(5);

	assert_int_equal(cg_opt_uses(&ktime), 0);
	assert_int_equal(cg_opt_uses(&cookie), R(1));
	assert_int_equal(cg_opt_uses(&comm), R(1) | R(2));
	assert_int_equal(cg_opt_uses(&read), R(1) | R(2) | R(3));
	assert_int_equal(cg_opt_uses(&update), R(1) | R(2) | R(3) | R(4));
	assert_int_equal(cg_opt_uses(&unknown), all);
	assert_int_equal(cg_opt_uses(&pseudo), all);
	/* A call still clobbers r0-r5 whatever it reads. */
	assert_int_equal(cg_opt_defs(&ktime), R(0) | all);
}

/* An argument past the helper's last is set for nothing: it goes; the others stay. */
static void dead_argument(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_ST(BPF_DW, BPF_FP, -16, 0), I_ST(BPF_DW, BPF_FP, -8, 0),
		I_MOV64_IMM(BPF_R2, 16),
		I_MOV64_IMM(BPF_R3, 7),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -16), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -16),
		I_ST(BPF_DW, BPF_FP, -16, 0), I_ST(BPF_DW, BPF_FP, -8, 0),
		I_MOV64_IMM(BPF_R2, 16),
		I_CALL_HELPER(BPF_FUNC_get_current_comm),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -16), I_EXIT(),
	};
	EXPECT(cg_opt_dce, in, want);
	const struct bpf_insn read[] = {
		I_MOV64_REG(BPF_R1, BPF_FP), I_ALU64_IMM(BPF_ADD, BPF_R1, -8),
		I_MOV64_IMM(BPF_R2, 8),
		I_MOV64_REG(BPF_R3, BPF_R7),
		I_CALL_HELPER(BPF_FUNC_probe_read_kernel),
		I_LDX(BPF_DW, BPF_R0, BPF_FP, -8), I_EXIT(),
	};
	KEEP(cg_opt_dce, read);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(uses),
		cmocka_unit_test(dead_argument),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
