/*
 * The proc provider (the Dynamic Tracing Guide's, with Oracle Linux's
 * arguments): process and thread creation, exec, exit and signals, made
 * from the kernel's sched, signal and syscalls tracepoints.
 *
 *   create       sched_process_fork, a new process    args[0] psinfo_t * (the child)
 *   lwp-create   sched_process_fork, a new thread     args[0] lwpsinfo_t *, args[1] psinfo_t *
 *   start        the child's return from fork/clone   (in the new process)
 *   lwp-start    the same, for every new thread
 *   exec         sys_enter_execve(at)                 args[0] string (the path)
 *   exec-success sys_exit_execve(at) == 0             (in the new image)
 *   exec-failure sys_exit_execve(at) != 0             args[0] int (the return value, -errno)
 *   exit         sched_process_exit of the last thread args[0] int (CLD_EXITED ...)
 *   lwp-exit     sched_process_exit
 *   signal-send  signal_generate, sent (queued, or already pending) args[0] lwpsinfo_t *, args[1] psinfo_t *, args[2] int
 *   signal-discard signal_generate, ignored           the same
 *   signal-handle signal_deliver                      args[0] int, args[1] siginfo_t *, args[2] the handler
 *                (a fatal signal: once, in the leader, as the group's exit signal)
 */
#include <errno.h>
#include <string.h>

#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/providers.h"
#include "providers/sprov.h"
#include "providers/syscall_table.h"

#define TASK "struct task_struct *"

/* Skip unless the new task `child` (R7) is (want_leader) or is not a thread group leader. */
static void new_task(struct dt_cg *cg, int dctx, int skip, bool want_leader)
{
	uint32_t pid = sp_member(cg, "struct task_struct", "pid");
	uint32_t tgid = sp_member(cg, "struct task_struct", "tgid");

	sp_raw_arg(cg, BPF_R7, 1);
	sp_read(cg, dctx, BPF_R8, BPF_R7, pid, 4);
	sp_read(cg, dctx, BPF_R9, BPF_R7, tgid, 4);
	cg_jmp_reg(cg, want_leader ? BPF_JNE : BPF_JEQ, BPF_R8, BPF_R9, skip);
}

static void create(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	new_task(cg, dctx, skip, true);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
}

static void lwp_create(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	new_task(cg, dctx, skip, false);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

/* In a new task, its first return to user space: clone() & co. return 0. */
static void start(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	sp_tp_field(cg, BPF_R7, 16, 8, true);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R0));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R1, 32));
	cg_emit(cg, I_MOV32_REG(BPF_R0, BPF_R0));
	cg_jmp_reg(cg, BPF_JNE, BPF_R0, BPF_R1, skip);
}

static void lwp_start(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	sp_tp_field(cg, BPF_R7, 16, 8, true);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
}

static int execveat_nr(void)
{
	for (unsigned i = 0; i < dt_syscall_table_len; i++)
		if (strcmp(dt_syscall_table[i].name, "execveat") == 0)
			return (int)dt_syscall_table[i].nr;
	return -1;
}

/* The path, from execve()'s first argument or execveat()'s second. */
static void exec(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int16_t nr = sp_tp_offset(cg, "syscalls", "sys_enter_execve", "__syscall_nr");
	int16_t ve = sp_tp_offset(cg, "syscalls", "sys_enter_execve", "filename");
	int16_t vat = sp_tp_offset(cg, "syscalls", "sys_enter_execveat", "filename");
	int done = cg_label_new(cg);

	(void)skip;
	sp_tp_field(cg, BPF_R7, nr, 4, true);
	sp_tp_field(cg, BPF_R8, ve, 8, false);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, execveat_nr(), done);
	sp_tp_field(cg, BPF_R8, vat, 8, false);
	cg_label_place(cg, done);
	sp_set_arg(cg, dctx, used, 0, BPF_R8);
}

static void exec_failure(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int16_t ret = sp_tp_offset(cg, "syscalls", "sys_exit_execve", "ret");

	sp_tp_field(cg, BPF_R7, ret, 8, true);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
}

/*
 * As Oracle's: at the return of the exec call, in the new image; after
 * the ptrace stop inside execve() that -x evaltime=exec waits at.
 */
static void exec_success(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int16_t ret = sp_tp_offset(cg, "syscalls", "sys_exit_execve", "ret");

	(void)dctx;
	(void)used;
	sp_tp_field(cg, BPF_R7, ret, 8, true);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
}

/* The last thread of the process: its signal_struct has no live thread left. */
static void exit_probe(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	uint32_t sig = sp_member(cg, "struct task_struct", "signal");
	uint32_t live = sp_member(cg, "struct signal_struct", "live");
	uint32_t code = sp_member(cg, "struct task_struct", "exit_code");
	int out = cg_label_new(cg);

	sp_raw_arg(cg, BPF_R7, 0);
	sp_read(cg, dctx, BPF_R8, BPF_R7, sig, 8);
	sp_read(cg, dctx, BPF_R8, BPF_R8, live, 4);
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, 0, skip);
	/* args[0]: how it exited, from the wait status in exit_code. */
	sp_read(cg, dctx, BPF_R8, BPF_R7, code, 4);
	cg_emit(cg, I_MOV64_IMM(BPF_R9, 1));		/* CLD_EXITED */
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R8));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, 0x7f));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, out);
	cg_emit(cg, I_MOV64_IMM(BPF_R9, 3));		/* CLD_DUMPED */
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, 0x80));
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, 0, out);
	cg_emit(cg, I_MOV64_IMM(BPF_R9, 2));		/* CLD_KILLED */
	cg_label_place(cg, out);
	sp_set_arg(cg, dctx, used, 0, BPF_R9);
}

/*
 * signal_generate's result: TRACE_SIGNAL_IGNORED (1) is a discard; the
 * signal is sent when DELIVERED (0), when it joins the same signal
 * already pending (ALREADY_PENDING, 2: DTrace's sigtoproc() reports every
 * send) and when sent without its siginfo (LOSE_INFO, 4); a real-time
 * signal the full queue refused (OVERFLOW_FAIL, 3) was not sent.
 */
static void signal_generate(struct dt_cg *cg, int dctx, uint32_t used, int skip, bool discard)
{
	sp_raw_arg(cg, BPF_R7, 4);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	if (discard) {
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, 1, skip);
	} else {
		cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 1, skip);
		cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 3, skip);
	}
	sp_raw_arg(cg, BPF_R7, 2);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	sp_set_arg(cg, dctx, used, 2, BPF_R7);
}

static void signal_send(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	signal_generate(cg, dctx, used, skip, false);
}

static void signal_discard(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	signal_generate(cg, dctx, used, skip, true);
}

/*
 * A fatal signal the process does not catch (SIGTERM, SIGINT, kill -9 ...)
 * is not delivered as itself: the kernel marks the whole thread group for
 * death and every thread then meets signal_deliver as SIGKILL with no
 * siginfo.  The same path ends the other threads of a process that calls
 * exit() or exec(), and of one killed by a signal that dumps core (never
 * made a group exit: the thread that took it was reported on the ordinary
 * path).  DTrace reports the signal the process was killed by, once, in
 * the thread that acts on it: here the signal is the group's exit code,
 * and the thread group's leader reports it (a process whose leader has
 * ended reports none).  R7: sig.
 */
static void group_exit_signal(struct dt_cg *cg, int dctx, int skip)
{
	uint32_t sigp = sp_member(cg, "struct task_struct", "signal");
	/* The exec in progress (group_exit_task before Linux 5.19). */
	uint32_t exec_task = sp_member2(cg, "struct signal_struct", "group_exec_task",
					"group_exit_task");
	uint32_t code = sp_member(cg, "struct signal_struct", "group_exit_code");
	int done = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 9, done);	/* SIGKILL */
	sp_raw_arg(cg, BPF_R8, 1);
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, 0, done);	/* SEND_SIG_NOINFO */
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R0));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R1, 32));
	cg_emit(cg, I_MOV32_REG(BPF_R0, BPF_R0));
	cg_jmp_reg(cg, BPF_JNE, BPF_R0, BPF_R1, skip);
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_task));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	sp_read(cg, dctx, BPF_R8, BPF_R9, sigp, 8);
	sp_read(cg, dctx, BPF_R7, BPF_R8, exec_task, 8);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	/* A signal number, or exit()'s status << 8. */
	sp_read(cg, dctx, BPF_R7, BPF_R8, code, 4);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0x7f));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
	/* The kernel's SIG_KERNEL_COREDUMP_MASK: QUIT ILL TRAP ABRT BUS FPE SEGV XCPU XFSZ SYS. */
	cg_emit(cg, I_MOV32_IMM(BPF_R1, (int32_t)0x830009f8u));
	cg_emit(cg, I_ALU64_REG(BPF_RSH, BPF_R1, BPF_R7));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, 1));
	cg_jmp_imm(cg, BPF_JNE, BPF_R1, 0, skip);
	cg_label_place(cg, done);
}

static void signal_handle(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	group_exit_signal(cg, dctx, skip);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_raw_arg(cg, BPF_R7, 1);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
	if (used & 4) {
		uint32_t sa = sp_member(cg, "struct k_sigaction", "sa");
		uint32_t h = sp_member(cg, "struct sigaction", "sa_handler");
		sp_raw_arg(cg, BPF_R7, 2);
		sp_read(cg, dctx, BPF_R7, BPF_R7, sa + h, 8);
		sp_set_arg(cg, dctx, used, 2, BPF_R7);
	}
}

static const struct sp_probe probes[] = {
	{ "create", SP_RAW, "sched", { "sched_process_fork" }, { TASK, TASK },
	  { { TASK, "psinfo_t *" } }, create, false },
	{ "exec", SP_TP, "syscalls", { "sys_enter_execve", "sys_enter_execveat" }, { NULL },
	  { { "userland char *", "string" } }, exec, false },
	{ "exec-failure", SP_TP, "syscalls", { "sys_exit_execve", "sys_exit_execveat" }, { NULL },
	  { { "int", NULL } }, exec_failure, false },
	{ "exec-success", SP_TP, "syscalls", { "sys_exit_execve", "sys_exit_execveat" }, { NULL },
	  { { NULL } }, exec_success, false },
	{ "exit", SP_RAW, "sched", { "sched_process_exit" }, { TASK }, { { "int", NULL } },
	  exit_probe, false },
	{ "lwp-create", SP_RAW, "sched", { "sched_process_fork" }, { TASK, TASK },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" } }, lwp_create, false },
	{ "lwp-exit", SP_RAW, "sched", { "sched_process_exit" }, { TASK }, { { NULL } }, NULL,
	  false },
	{ "lwp-start", SP_TP, "syscalls",
	  { "sys_exit_clone", "sys_exit_clone3", "sys_exit_fork", "sys_exit_vfork" }, { NULL },
	  { { NULL } }, lwp_start, false },
	{ "signal-discard", SP_RAW, "signal", { "signal_generate" },
	  { "int", "struct kernel_siginfo *", TASK, "int", "int" },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "int", NULL } }, signal_discard,
	  false },
	{ "signal-handle", SP_RAW, "signal", { "signal_deliver" },
	  { "int", "struct kernel_siginfo *", "struct k_sigaction *" },
	  { { "int", NULL }, { "siginfo_t *", NULL }, { "void (*)(int)", NULL } }, signal_handle,
	  false },
	{ "signal-send", SP_RAW, "signal", { "signal_generate" },
	  { "int", "struct kernel_siginfo *", TASK, "int", "int" },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "int", NULL } }, signal_send,
	  false },
	{ "start", SP_TP, "syscalls",
	  { "sys_exit_clone", "sys_exit_clone3", "sys_exit_fork", "sys_exit_vfork" }, { NULL },
	  { { NULL } }, start, false },
};

static int populate(struct dt_registry *reg)
{
	return sp_populate(reg, &dt_prov_proc, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_proc = {
	.name = "proc",
	.populate = populate,
	.mech_class = sp_mech_class,
	.choose = sp_choose,
	.arg_desc = sp_arg_desc,
	.arg_count = sp_arg_count,
	.other_thread = sp_other_thread,
	.unavailable = sp_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
