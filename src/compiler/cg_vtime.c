/*
 * vtimestamp: the current thread's time on CPU, in nanoseconds, kept as
 * DTrace keeps it (Solaris' t_dtrace_vtime, added to at every context
 * switch): a program on the sched_switch raw tracepoint adds the time a
 * thread ran to its total when it leaves the CPU and notes when it comes
 * back, for the threads whose vtimestamp was read; the value is that total
 * plus the time since the thread last went on CPU.
 *
 * The kernel's own se.sum_exec_runtime only advances at scheduler events
 * and ticks, and its se.exec_start is in the run queue's task clock,
 * which no BPF helper reads (it lags bpf_ktime_get_ns() by the steal and
 * interrupt time of that CPU, seconds on a virtual machine), so "sum plus
 * now minus exec_start" cannot be computed at probe time.  It gives the
 * starting point only: a thread's total starts, the first time its
 * vtimestamp is read, at its sum_exec_runtime when it last went on CPU,
 * which the switch program notes per CPU (exact then: the kernel brings
 * it up to date when the thread left the CPU), plus the time since; so a
 * thread created while tracing counts from its first run.  From then on
 * every delta is bpf_ktime_get_ns() time the thread spent on CPU
 * (interrupts and steal time included, as in DTrace).  The value is taken
 * at the firing's timestamp, so it stands still within a firing as DTrace
 * documents (time in predicates and actions is not the thread's); the time
 * of earlier firings is not subtracted, it cannot be measured here.
 */
#include "compiler/cg_vtime.h"

#include "base/core.h"
#include "base/descs.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"

/* A thread's entry in MAP_VTIME (key: its tid). */
#define VT_ACC	0	/* time on CPU up to VT_ON */
#define VT_ON	8	/* when it last went on CPU (bpf_ktime_get_ns) */
#define VT_TASK	16	/* its task_struct: an entry of a reused tid starts over */
#define VT_SIZE	VTIME_VALUE

/* The kernel's total run time of the task at reg (a kernel address), into reg. */
static void sum_exec_runtime(struct dt_cg *cg, int reg)
{
	uint32_t se = cg_kmember(cg, "struct task_struct", "se", "vtimestamp");
	uint32_t sum = cg_kmember(cg, "struct sched_entity", "sum_exec_runtime", "vtimestamp");

	cg_emit(cg, I_ALU64_IMM(BPF_ADD, reg, (int32_t)(se + sum)));
	cg_load_scalar(cg, reg, dt_type_int(&cg->cc->core->types, 8, false), false);
}

/*
 * now - on + acc of the entry at v (a map value), into r.  "now" is the
 * firing's timestamp: the time DTrace spends in predicates and actions is
 * not the thread's, so vtimestamp does not advance within a firing.
 */
static void from_entry(struct dt_cg *cg, int v, int r)
{
	int now = cg_firing_timestamp(cg);
	int x = cg_reg_alloc(cg);

	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_ON));
	cg_emit(cg, I_ALU64_REG(BPF_SUB, now, x));
	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_ACC));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, now, x));
	cg_emit(cg, I_MOV64_REG(r, now));
	cg_reg_free(cg, x);
	cg_reg_free(cg, now);
}

/*
 * A new entry (at fp + ent) for the current thread (key at fp + key), and
 * its vtimestamp into r.  If the thread went on this CPU since tracing
 * began, the switch program noted when, and its kernel total then, which
 * is exact (the kernel brings it up to date when a thread leaves the
 * CPU): the entry starts from there, and a thread created since counts
 * from its first run.  Otherwise it starts now, from the kernel's total,
 * which may lag by up to a tick.
 */
static void new_entry(struct dt_cg *cg, int key, int ent, int r)
{
	int a[4];
	int other = cg_label_new(cg), set = cg_label_new(cg);
	int task = cg_call_helper(cg, BPF_FUNC_get_current_task, NULL, 0);

	cg_emit(cg, I_STX(BPF_DW, BPF_FP, task, (int16_t)(ent + VT_TASK)));
	cg_reg_free(cg, task);
	int now = cg_firing_timestamp(cg);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, now, (int16_t)(ent + VT_ON)));
	cg_reg_free(cg, now);
	/* The CPU's last switch-in (the key: 0, in the tid's slot for now). */
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(ent + VT_ACC), 0));
	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], MAP_VTIME_CPU);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], ent + VT_ACC));
	int v = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	cg_jmp_imm(cg, BPF_JEQ, v, 0, other);
	int x = cg_reg_alloc(cg), y = cg_reg_alloc(cg);
	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_TASK));
	cg_emit(cg, I_LDX(BPF_DW, y, BPF_FP, (int16_t)(ent + VT_TASK)));
	cg_jmp_reg(cg, BPF_JNE, x, y, other);
	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_ACC));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, x, (int16_t)(ent + VT_ACC)));
	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_ON));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, x, (int16_t)(ent + VT_ON)));
	cg_reg_free(cg, x);
	cg_reg_free(cg, y);
	cg_reg_free(cg, v);
	cg_ja(cg, set);
	cg_label_place(cg, other);
	int cur = cg_call_helper(cg, BPF_FUNC_get_current_task, NULL, 0);
	sum_exec_runtime(cg, cur);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, cur, (int16_t)(ent + VT_ACC)));
	cg_reg_free(cg, cur);
	cg_label_place(cg, set);
	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], MAP_VTIME);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], key));
	a[2] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[2], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[2], ent));
	a[3] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[3], BPF_ANY));
	/* A full map leaves the thread untracked: each read then starts over. */
	cg_call_helper_void(cg, BPF_FUNC_map_update_elem, a, 4);
	/* The value: the entry's total plus the time since it went on CPU. */
	int e = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(e, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, e, ent));
	from_entry(cg, e, r);
	cg_reg_free(cg, e);
}

/* The current thread's vtimestamp into a new register. */
static int current_vtime(struct dt_cg *cg)
{
	int mark = cg_stack_mark(cg);
	int key = cg_stack_alloc(cg, 8), ent = cg_stack_alloc(cg, VT_SIZE), a[2];
	int r = cg_reg_alloc(cg);
	int fresh = cg_label_new(cg), idle = cg_label_new(cg), done = cg_label_new(cg);

	cg_emit(cg, I_MOV64_IMM(r, 0));
	int t = cg_call_helper(cg, BPF_FUNC_get_current_pid_tgid, NULL, 0);
	cg_emit(cg, I_MOV32_REG(t, t));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, t, (int16_t)key));
	/* The idle threads (one per CPU) all have tid 0: the kernel's total for them. */
	cg_jmp_imm(cg, BPF_JEQ, t, 0, idle);
	cg_reg_free(cg, t);
	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], MAP_VTIME);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], key));
	int v = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	cg_jmp_imm(cg, BPF_JEQ, v, 0, fresh);
	int task = cg_call_helper(cg, BPF_FUNC_get_current_task, NULL, 0);
	int x = cg_reg_alloc(cg);
	cg_emit(cg, I_LDX(BPF_DW, x, v, VT_TASK));
	cg_jmp_reg(cg, BPF_JNE, x, task, fresh);
	cg_reg_free(cg, x);
	cg_reg_free(cg, task);
	from_entry(cg, v, r);
	cg_reg_free(cg, v);
	cg_ja(cg, done);
	cg_label_place(cg, fresh);
	new_entry(cg, key, ent, r);
	cg_ja(cg, done);
	cg_label_place(cg, idle);
	int cur = cg_call_helper(cg, BPF_FUNC_get_current_task, NULL, 0);
	sum_exec_runtime(cg, cur);
	cg_emit(cg, I_MOV64_REG(r, cur));
	cg_reg_free(cg, cur);
	cg_label_place(cg, done);
	cg_stack_release(cg, mark);
	return r;
}

int cg_vtime(struct dt_cg *cg)
{
	cg->cc->descs->uses_vtime = true;
	if (!cg_bvar_other_thread(cg))
		return current_vtime(cg);
	/* sched:::on-cpu firing in another thread (sched_switch): the described one's kernel total. */
	int r = cg_reg_alloc(cg), cur = cg_label_new(cg), done = cg_label_new(cg);
	cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_TASK));
	cg_jmp_imm(cg, BPF_JEQ, r, 0, cur);
	sum_exec_runtime(cg, r);
	cg_ja(cg, done);
	cg_label_place(cg, cur);
	int v = current_vtime(cg);
	cg_emit(cg, I_MOV64_REG(r, v));
	cg_reg_free(cg, v);
	cg_label_place(cg, done);
	return r;
}

/*
 * dt_vtime_switch(ctx), on the sched_switch raw tracepoint (args: preempt,
 * prev, next, prev_state), in the context of prev: prev's entry adds the
 * time since it went on CPU, next's notes that it goes on now.
 */
void dt_cg_vtime_program(struct dt_pcb *pcb)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_cg cg;

	if (!cc->descs->uses_vtime)
		return;
	struct bo_func *fn = dt_cg_new_func(cc, "dt_vtime_switch", "raw_tp/sched_switch", 1);
	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&cg, pcb, cc->obj, fn);
	uint32_t pid_off = cg_kmember(&cg, "struct task_struct", "pid", "vtimestamp");
	uint32_t se_off = cg_kmember(&cg, "struct task_struct", "se", "vtimestamp");
	uint32_t sum_off = cg_kmember(&cg, "struct sched_entity", "sum_exec_runtime", "vtimestamp");
	int key = cg_stack_alloc(&cg, 8), now = cg_stack_alloc(&cg, 8);
	int next = cg_label_new(&cg), noslot = cg_label_new(&cg), out = cg_label_new(&cg);

	cg_emit(&cg, I_MOV64_REG(BPF_R6, BPF_R1));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R0, now));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_get_current_pid_tgid));
	cg_emit(&cg, I_MOV32_REG(BPF_R0, BPF_R0));
	cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R0, key));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, next);
	cg_ld_map_fd(&cg, BPF_R1, MAP_VTIME);
	cg_emit(&cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, next);
	/* acc += now - on; on = now (only this CPU runs prev now). */
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, now));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R2, BPF_R0, VT_ON));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R0, BPF_R1, VT_ON));
	cg_emit(&cg, I_ALU64_REG(BPF_SUB, BPF_R1, BPF_R2));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R2, BPF_R0, VT_ACC));
	cg_emit(&cg, I_ALU64_REG(BPF_ADD, BPF_R1, BPF_R2));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R0, BPF_R1, VT_ACC));
	cg_label_place(&cg, next);
	/* This CPU's switch-in: next, now, and next's kernel total (exact: it is off CPU). */
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, key, 0));
	cg_ld_map_fd(&cg, BPF_R1, MAP_VTIME_CPU);
	cg_emit(&cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, noslot);
	cg_emit(&cg, I_MOV64_REG(BPF_R7, BPF_R0));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R3, BPF_R6, 16));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R7, BPF_R3, VT_TASK));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, now));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R7, BPF_R1, VT_ON));
	cg_emit(&cg, I_MOV64_REG(BPF_R1, BPF_R7));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R1, VT_ACC));
	cg_emit(&cg, I_MOV64_IMM(BPF_R2, 8));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R3, (int32_t)(se_off + sum_off)));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_label_place(&cg, noslot);
	/* next->pid */
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, key, 0));
	cg_emit(&cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R1, key));
	cg_emit(&cg, I_MOV64_IMM(BPF_R2, 4));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R3, BPF_R6, 16));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R3, (int32_t)pid_off));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_emit(&cg, I_LDX(BPF_W, BPF_R0, BPF_FP, key));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, out);
	cg_ld_map_fd(&cg, BPF_R1, MAP_VTIME);
	cg_emit(&cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, out);
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, now));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R0, BPF_R1, VT_ON));
	cg_label_place(&cg, out);
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());
	cg_resolve(&cg);
	cg_fini(&cg);
}
