/* A thread-identity helper called again while r0 holds its result (cg_opt_purecall.c). */
#include "opt_helpers.h"

/* pid then tid, as printf("%d %d", pid, tid) emits them: one call. */
static void pid_tid(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_ALU64_IMM(BPF_RSH, BPF_R9, 32),
		I_STX(BPF_W, BPF_R7, BPF_R9, 24),
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_MOV32_REG(BPF_R9, BPF_R9),
		I_STX(BPF_W, BPF_R7, BPF_R9, 28),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_ALU64_IMM(BPF_RSH, BPF_R9, 32),
		I_STX(BPF_W, BPF_R7, BPF_R9, 24),
		I_MOV64_REG(BPF_R9, BPF_R0),
		I_MOV32_REG(BPF_R9, BPF_R9),
		I_STX(BPF_W, BPF_R7, BPF_R9, 28),
		I_MOV64_IMM(BPF_R0, 0), I_EXIT(),
	};
	EXPECT(cg_opt_purecall, in, want);
}

/* r0 changed, another helper, a jump target, a time, a call with arguments: all kept. */
static void keep(void **state)
{
	(void)state;
	const struct bpf_insn r0_changed[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_ALU64_IMM(BPF_RSH, BPF_R0, 32),
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_EXIT(),
	};
	KEEP(cg_opt_purecall, r0_changed);
	const struct bpf_insn other[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_CALL_HELPER(BPF_FUNC_get_current_uid_gid),
		I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid),
		I_EXIT(),
	};
	KEEP(cg_opt_purecall, other);
	const struct bpf_insn joined[] = {
		I_JMP_IMM(BPF_JEQ, BPF_R1, 0, 1),
		I_CALL_HELPER(BPF_FUNC_get_current_task),
		I_CALL_HELPER(BPF_FUNC_get_current_task),
		I_EXIT(),
	};
	KEEP(cg_opt_purecall, joined);
	const struct bpf_insn time[] = {
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_MOV64_REG(BPF_R6, BPF_R0),
		I_CALL_HELPER(BPF_FUNC_ktime_get_ns),
		I_EXIT(),
	};
	KEEP(cg_opt_purecall, time);
	const struct bpf_insn pseudo[] = {
		I_CALL_HELPER(BPF_FUNC_get_current_task),
		bpf_insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, BPF_FUNC_get_current_task),
		I_EXIT(),
	};
	KEEP(cg_opt_purecall, pseudo);
}

/* The CPU, twice with stores between: once. */
static void cpu(void **state)
{
	(void)state;
	const struct bpf_insn in[] = {
		I_CALL_HELPER(BPF_FUNC_get_smp_processor_id),
		I_STX(BPF_W, BPF_R7, BPF_R0, 8),
		I_ST(BPF_W, BPF_R7, 12, 0),
		I_CALL_HELPER(BPF_FUNC_get_smp_processor_id),
		I_EXIT(),
	};
	const struct bpf_insn want[] = {
		I_CALL_HELPER(BPF_FUNC_get_smp_processor_id),
		I_STX(BPF_W, BPF_R7, BPF_R0, 8),
		I_ST(BPF_W, BPF_R7, 12, 0),
		I_EXIT(),
	};
	EXPECT(cg_opt_purecall, in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pid_tid),
		cmocka_unit_test(keep),
		cmocka_unit_test(cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
