/*
 * A call of a helper that only reads the running thread's identity (or
 * its CPU) while r0 still holds what the same call returned earlier in
 * the block: the call goes.  A program runs in one thread on one CPU
 * (migration is disabled while it runs), and these values change only
 * by that thread's own doing (exec, setuid), never within the program.
 * Leaving r1-r5 as they were is harmless: nothing may read them after a
 * call.  ktime_get_ns and anything with arguments are not such calls.
 */
#include "compiler/cg_opt.h"

static bool same_in_run(const struct bpf_insn *in)
{
	if (!cg_opt_is_call(in) || in->src_reg != 0)
		return false;
	switch (in->imm) {
	case BPF_FUNC_get_current_pid_tgid:
	case BPF_FUNC_get_current_uid_gid:
	case BPF_FUNC_get_current_task:
	case BPF_FUNC_get_current_task_btf:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_numa_node_id:
		return true;
	default:
		return false;
	}
}

bool cg_opt_purecall(struct cg_opt *o)
{
	bool changed = false;
	int32_t held = -1;		/* the helper whose result r0 holds, in this block */

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		const struct bpf_insn *in = &o->insn[i];
		if (o->leader[i])
			held = -1;
		if (same_in_run(in) && in->imm == held) {
			cg_opt_delete(o, i);
			changed = true;
			continue;
		}
		if (same_in_run(in))
			held = in->imm;
		else if ((cg_opt_defs(in) & 1u) || cg_opt_is_jump(in) || cg_opt_is_exit(in))
			held = -1;
	}
	return changed;
}
