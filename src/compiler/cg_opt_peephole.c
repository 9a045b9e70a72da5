/*
 * Peephole: a jump to where execution goes anyway, a 64-bit move of a
 * register to itself, adding or subtracting 0 (a 32-bit operation stays:
 * it zero-extends).
 */
#include "compiler/cg_opt.h"

bool cg_opt_peephole(struct cg_opt *o)
{
	bool changed = false;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		const struct bpf_insn *in = &o->insn[i];
		bool drop = false;
		if (cg_opt_is_jump(in))
			drop = cg_opt_next(o, (size_t)o->target[i]) == cg_opt_next(o, i + 1);
		else if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X))
			drop = in->off == 0 && in->dst_reg == in->src_reg;
		else if (in->code == (BPF_ALU64 | BPF_ADD | BPF_K) ||
			 in->code == (BPF_ALU64 | BPF_SUB | BPF_K))
			drop = in->imm == 0;
		if (drop) {
			cg_opt_delete(o, i);
			changed = true;
		}
	}
	return changed;
}
