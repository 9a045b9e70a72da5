/*
 * The sched provider (the Dynamic Tracing Guide's), made from the
 * kernel's sched tracepoints:
 *
 *   on-cpu    sched_exit_tp of a switch: in the thread now on the CPU, at
 *             the end of __schedule() or, for a new thread, of
 *             schedule_tail() (DTrace for Linux's __schedule:return and
 *             schedule_tail:return); where the kernel lacks that bare
 *             tracepoint (before Linux 6.16), sched_switch for the thread
 *             switched to, which every built-in variable and thread-local
 *             then describes, although the probe runs in the thread
 *             switched from
 *   off-cpu   sched_switch, in the thread switched from   args[0] lwpsinfo_t *, args[1] psinfo_t * (the next thread)
 *   sleep     sched_switch, the thread blocks on a synchronization object
 *   preempt   sched_switch, the thread is preempted (stays runnable)
 *   dequeue   sched_switch, the thread leaves the run queue  args[0] lwpsinfo_t *, args[1] psinfo_t *, args[2] cpuinfo_t *
 *   enqueue   sched_wakeup, sched_wakeup_new               args[0] lwpsinfo_t *, args[1] psinfo_t *, args[2] cpuinfo_t *
 *   wakeup    sched_waking, in the waker                   args[0] lwpsinfo_t *, args[1] psinfo_t *
 *   tick      a 100 Hz cpu-clock event on every CPU        args[0] lwpsinfo_t *, args[1] psinfo_t * (the thread it interrupted)
 *   remain-cpu  sched_exit_tp of no switch: __schedule() picked the
 *             running thread again (Linux 6.16 and later)
 *   surrender sched_set_need_resched_tp: a CPU's running thread is told
 *             to give it up (Solaris' cpu_surrender(); Linux 6.16 and
 *             later)                                    args[0] lwpsinfo_t *, args[1] psinfo_t * (that thread)
 *   cpucaps-sleep  sched_switch of a thread whose group has used up its
 *             CPU quota (CFS bandwidth control, which Solaris' CPU caps
 *             are; per thread since Linux 6.18: task_struct.throttled)
 *                                                       args[0] lwpsinfo_t *, args[1] psinfo_t *
 * and listed, with the reason they cannot be enabled: change-pri,
 * cpucaps-wakeup and the schedctl probes.
 */
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/providers.h"
#include "providers/sprov.h"
#include "providers/syscall_table.h"

#define TASK "struct task_struct *"
#define SWITCH { "bool", TASK, TASK, "unsigned int" }

/* sched_exit_tp(is_switch): only when a switch brought this thread on. */
static void on_cpu(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xff));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
}

/* sched_switch: the thread switched to, in the thread switched from. */
static void on_cpu_next(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)used;
	(void)skip;
	sp_raw_arg(cg, BPF_R7, 2);
	sp_set_task(cg, dctx, BPF_R7);
}

static void off_cpu(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	sp_raw_arg(cg, BPF_R7, 2);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

/*
 * sched_switch's arguments (preempt, prev, next, prev_state) say how prev
 * leaves the CPU.  It blocks (leaves the run queue) when prev_state is a
 * sleeping state and the switch is not a preemption, which ignores the
 * state; except that a preempt flag with TASK_RTLOCK_WAIT is PREEMPT_RT's
 * sleeping spinlock, a block.  Otherwise it stays runnable: preempted,
 * or giving up the CPU with the state TASK_RUNNING (at a tick, at the
 * return to user mode, in cond_resched(), by sched_yield()).
 */
#define TASK_RTLOCK_WAIT 0x1000

/* Skip unless prev blocks: R7 = prev_state. */
static void not_blocking(struct dt_cg *cg, int skip)
{
	int blocks = cg_label_new(cg);

	sp_raw_arg(cg, BPF_R7, 3);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
	sp_raw_arg(cg, BPF_R8, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, 0xff));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, blocks);
	cg_jmp_imm(cg, BPF_JSET, BPF_R7, TASK_RTLOCK_WAIT, blocks);
	cg_ja(cg, skip);
	cg_label_place(cg, blocks);
}

static void sleep_probe(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	not_blocking(cg, skip);
	/* TASK_INTERRUPTIBLE, TASK_UNINTERRUPTIBLE, or an rtlock: a synchronization object */
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0x3 | TASK_RTLOCK_WAIT));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
}

static int syscall_nr(const char *name)
{
	for (unsigned i = 0; i < dt_syscall_table_len; i++)
		if (strcmp(dt_syscall_table[i].name, name) == 0)
			return (int)dt_syscall_table[i].nr;
	return -1;
}

/*
 * Skip if the current thread (prev) is in the sched_yield system call:
 * its own switch gives the CPU up, it is not preempted (Solaris' yield()
 * fires no preempt probe).  The system call is the saved user registers'
 * orig_ax: x86_64's number (also with x32's bit), or i386's 158 for a
 * 32-bit task (TS_COMPAT, where the kernel has it).
 */
static void yielding(struct dt_cg *cg, int dctx, int skip)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *ti = dt_type_lookup(tt, "vmlinux`struct thread_info");
	uint32_t orig_ax = sp_member(cg, "struct pt_regs", "orig_ax");
	uint32_t ti_off = 0, status = 0;
	int nr = syscall_nr("sched_yield");
	int no = cg_label_new(cg);
	bool compat = ti != NULL && dt_type_member(tt, ti, "status", &status) != NULL;

	if (compat)
		ti_off = sp_member(cg, "struct task_struct", "thread_info");
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_task_btf));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R0));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_task_pt_regs));
	sp_read(cg, dctx, BPF_R7, BPF_R0, orig_ax, 8);
	cg_emit(cg, I_MOV64_REG(BPF_R8, BPF_R7));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, ~0x40000000));	/* __X32_SYSCALL_BIT */
	if (nr >= 0)
		cg_jmp_imm(cg, BPF_JEQ, BPF_R8, nr, skip);
	if (compat) {
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, 158, no);	/* i386's __NR_sched_yield */
		sp_read(cg, dctx, BPF_R8, BPF_R9, ti_off + status / 8, 4);
		cg_jmp_imm(cg, BPF_JSET, BPF_R8, 0x2, skip);	/* TS_COMPAT */
	}
	cg_label_place(cg, no);
}

/*
 * Skip a switch of a thread whose group has used up its CPU quota: it
 * leaves the run queue for the group's (cpucaps-sleep), preempted or not.
 */
static void capped(struct dt_cg *cg, int dctx, int skip)
{
	if (!sp_has_member(cg->cc->reg, "struct task_struct", "throttled"))
		return;
	sp_raw_arg(cg, BPF_R8, 1);
	sp_read(cg, dctx, BPF_R8, BPF_R8, sp_member(cg, "struct task_struct", "throttled"), 1);
	cg_jmp_imm(cg, BPF_JNE, BPF_R8, 0, skip);
}

/*
 * preempt: prev is preempted and stays runnable.  A preemption (the flag,
 * unless an rtlock wait), or a switch with prev_state TASK_RUNNING,
 * which is how a thread is switched out at a tick or at the return to
 * user mode with need_resched set; but not the idle thread's switches,
 * nor a sched_yield()'s.
 */
static void preempt(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	int running = cg_label_new(cg), yes = cg_label_new(cg);

	(void)used;
	capped(cg, dctx, skip);
	sp_raw_arg(cg, BPF_R7, 3);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	sp_raw_arg(cg, BPF_R8, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, 0xff));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, running);
	cg_jmp_imm(cg, BPF_JSET, BPF_R7, TASK_RTLOCK_WAIT, skip);
	cg_ja(cg, yes);
	cg_label_place(cg, running);
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	cg_emit(cg, I_MOV32_REG(BPF_R0, BPF_R0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	yielding(cg, dctx, skip);
	cg_label_place(cg, yes);
}

static void dequeue(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	not_blocking(cg, skip);
	sp_raw_arg(cg, BPF_R7, 1);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
	if (used & 4) {
		sp_cpuinfo(cg, dctx, BPF_R7, -1);
		sp_set_arg(cg, dctx, used, 2, BPF_R7);
	}
}

/* The woken thread; for enqueue, the CPU whose run queue it joins. */
static void woken(struct dt_cg *cg, int dctx, uint32_t used, bool cpu)
{
	sp_raw_arg(cg, BPF_R7, 0);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
	if (cpu && (used & 4)) {
		sp_read(cg, dctx, BPF_R8, BPF_R7, sp_task_cpu(cg), 4);
		sp_cpuinfo(cg, dctx, BPF_R7, BPF_R8);
		sp_set_arg(cg, dctx, used, 2, BPF_R7);
	}
}

static void enqueue(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	woken(cg, dctx, used, true);
}

static void wakeup(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	woken(cg, dctx, used, false);
}

/* The thread the clock interrupted. */
static void tick(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	if (!(used & 3))
		return;
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_task));
	cg_emit(cg, I_MOV64_REG(BPF_R7, BPF_R0));
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

/* sched_exit_tp(is_switch) of no switch: prev == next. */
static void remain_cpu(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xff));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
}

/* sched_set_need_resched_tp(tsk, cpu, tif): tsk, running on cpu, is to give it up. */
static void surrender(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)skip;
	sp_raw_arg(cg, BPF_R7, 0);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

/* sched_switch of prev with task_struct.throttled set. */
static void cpucaps_sleep(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	sp_raw_arg(cg, BPF_R7, 1);
	sp_read(cg, dctx, BPF_R8, BPF_R7, sp_member(cg, "struct task_struct", "throttled"), 1);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, skip);
	sp_set_arg(cg, dctx, used, 0, BPF_R7);
	sp_set_arg(cg, dctx, used, 1, BPF_R7);
}

static bool per_thread_caps(struct dt_registry *reg)
{
	return sp_has_member(reg, "struct task_struct", "throttled");
}

#define THREAD { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" } }
#define NO_SCHEDCTL "Linux has no schedctl preemption control"

/* on-cpu where the kernel has no sched_exit_tp (before Linux 6.16). */
static const struct sp_probe on_cpu_switch = {
	"on-cpu", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, on_cpu_next, true,
	false, NULL,
};

static const struct sp_probe probes[] = {
	{ "change-pri", SP_RAW, NULL, { NULL }, { NULL },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "int", NULL } }, NULL, false,
	  false, NULL,
	  "Linux changes a thread's priority in set_user_nice() and __sched_setscheduler(), "
	  "which have no tracepoint (only priority inheritance has one, sched_pi_setprio)" },
	{ "cpucaps-sleep", SP_RAW, "sched", { "sched_switch" }, SWITCH, THREAD, cpucaps_sleep,
	  false, false, NULL,
	  "this kernel throttles a group that used up its CPU quota as a whole, without "
	  "marking its threads (task_struct.throttled, Linux 6.18)", per_thread_caps },
	{ "cpucaps-wakeup", SP_RAW, NULL, { NULL }, { NULL }, THREAD, NULL, false, false, NULL,
	  "Linux puts the threads of a group back on the run queue when its CPU quota is "
	  "refilled (tg_unthrottle_up()) without a tracepoint" },
	{ "dequeue", SP_RAW, "sched", { "sched_switch" }, SWITCH,
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "cpuinfo_t *", NULL } }, dequeue,
	  false },
	{ "enqueue", SP_RAW, "sched", { "sched_wakeup", "sched_wakeup_new" }, { TASK },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "cpuinfo_t *", NULL } }, enqueue,
	  false },
	{ "off-cpu", SP_RAW, "sched", { "sched_switch" }, SWITCH, THREAD, off_cpu, false },
	{ "on-cpu", SP_RAW, "sched", { "sched_exit_tp" }, { "bool" }, { { NULL } }, on_cpu, false,
	  true, &on_cpu_switch },
	{ "preempt", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, preempt, false },
	{ "remain-cpu", SP_RAW, "sched", { "sched_exit_tp" }, { "bool" }, { { NULL } }, remain_cpu,
	  false, true, NULL,
	  "this kernel has no sched_exit_tp tracepoint (Linux 6.16 and later have it), where "
	  "__schedule() ends without a switch" },
	{ "schedctl-nopreempt", SP_RAW, NULL, { NULL }, { NULL }, THREAD, NULL, false, false,
	  NULL, NO_SCHEDCTL },
	{ "schedctl-preempt", SP_RAW, NULL, { NULL }, { NULL }, THREAD, NULL, false, false, NULL,
	  NO_SCHEDCTL },
	{ "schedctl-yield", SP_RAW, NULL, { NULL }, { NULL }, THREAD, NULL, false, false, NULL,
	  NO_SCHEDCTL },
	{ "sleep", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, sleep_probe, false },
	{ "surrender", SP_RAW, "sched", { "sched_set_need_resched_tp" },
	  { TASK, "int", "int" }, THREAD, surrender, false, true, NULL,
	  "this kernel has no sched_set_need_resched_tp tracepoint (Linux 6.16 and later have "
	  "it), where a CPU is told to reschedule" },
	{ "tick", SP_TICK, NULL, { NULL }, { NULL }, THREAD, tick, false },
	{ "wakeup", SP_RAW, "sched", { "sched_waking" }, { TASK }, THREAD, wakeup, false },
};

static int populate(struct dt_registry *reg)
{
	return sp_populate(reg, &dt_prov_sched, probes, sizeof(probes) / sizeof(probes[0]));
}

const struct dt_provider dt_prov_sched = {
	.name = "sched",
	.populate = populate,
	.mech_class = sp_mech_class,
	.choose = sp_choose,
	.arg_desc = sp_arg_desc,
	.arg_count = sp_arg_count,
	.other_thread = sp_other_thread,
	.unavailable = sp_unavailable,
	.probe_unavailable = sp_probe_unavailable,
	.pattr = &dt_pattr_sdt_stable,
};
