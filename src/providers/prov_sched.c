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
 *   sleep     sched_switch, the thread blocks
 *   preempt   sched_switch, the thread is preempted
 *   dequeue   sched_switch, the thread leaves the run queue  args[0] lwpsinfo_t *, args[1] psinfo_t *, args[2] cpuinfo_t *
 *   enqueue   sched_wakeup, sched_wakeup_new               args[0] lwpsinfo_t *, args[1] psinfo_t *, args[2] cpuinfo_t *
 *   wakeup    sched_waking, in the waker                   args[0] lwpsinfo_t *, args[1] psinfo_t *
 *   tick      a 100 Hz cpu-clock event on every CPU        args[0] lwpsinfo_t *, args[1] psinfo_t * (the thread it interrupted)
 */
#include "compiler/cg.h"
#include "providers/probe.h"
#include "providers/pattr.h"
#include "providers/provider.h"
#include "providers/sprov.h"

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

/* Skip a preemption: the thread stays runnable. */
static void not_preempted(struct dt_cg *cg, int skip)
{
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xff));
	cg_jmp_imm(cg, BPF_JNE, BPF_R7, 0, skip);
}

static void sleep_probe(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	not_preempted(cg, skip);
	/* TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE */
	sp_raw_arg(cg, BPF_R7, 3);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0x3));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
}

static void preempt(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	(void)dctx;
	(void)used;
	sp_raw_arg(cg, BPF_R7, 0);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R7, 0xff));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
}

static void dequeue(struct dt_cg *cg, int dctx, uint32_t used, int skip)
{
	not_preempted(cg, skip);
	sp_raw_arg(cg, BPF_R7, 3);
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R7, 0, skip);
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

/* on-cpu where the kernel has no sched_exit_tp (before Linux 6.16). */
static const struct sp_probe on_cpu_switch = {
	"on-cpu", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, on_cpu_next, true,
	false, NULL,
};

static const struct sp_probe probes[] = {
	{ "dequeue", SP_RAW, "sched", { "sched_switch" }, SWITCH,
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "cpuinfo_t *", NULL } }, dequeue,
	  false },
	{ "enqueue", SP_RAW, "sched", { "sched_wakeup", "sched_wakeup_new" }, { TASK },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" }, { "cpuinfo_t *", NULL } }, enqueue,
	  false },
	{ "off-cpu", SP_RAW, "sched", { "sched_switch" }, SWITCH,
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" } }, off_cpu, false },
	{ "on-cpu", SP_RAW, "sched", { "sched_exit_tp" }, { "bool" }, { { NULL } }, on_cpu, false,
	  true, &on_cpu_switch },
	{ "preempt", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, preempt, false },
	{ "sleep", SP_RAW, "sched", { "sched_switch" }, SWITCH, { { NULL } }, sleep_probe, false },
	{ "tick", SP_TICK, NULL, { NULL }, { NULL },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" } }, tick, false },
	{ "wakeup", SP_RAW, "sched", { "sched_waking" }, { TASK },
	  { { TASK, "lwpsinfo_t *" }, { TASK, "psinfo_t *" } }, wakeup, false },
};

static int populate(dtrace_hdl_t *dtp)
{
	return sp_populate(dtp, &dt_prov_sched, probes, sizeof(probes) / sizeof(probes[0]));
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
	.pattr = &dt_pattr_sdt_stable,
};
