/*
 * A zero-extension (wX = wX: the upper 32 bits cleared) that nothing
 * needs: every reader of rX before it is written again or dead stores
 * 32 bits or fewer of it, which the upper half does not touch:
 *   r9 = r0; w9 = w9; *(u32 *)(r7 + 28) = r9   ->   r9 = r0; *(u32 *)(r7 + 28) = r9
 * Within a basic block; past its end, rX must be dead.
 */
#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))

static bool is_zext(const struct bpf_insn *in)
{
	return in->code == (BPF_ALU | BPF_MOV | BPF_X) && in->off == 0 && in->imm == 0 &&
	       in->dst_reg == in->src_reg;
}

/* Stores the low 32 bits or fewer of rx (as the value, not the address). */
static bool narrow_store_of(const struct bpf_insn *in, int x)
{
	return BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_MEM &&
	       BPF_SIZE(in->code) != BPF_DW && in->src_reg == x && in->dst_reg != x;
}

static bool unneeded(const struct cg_opt *o, size_t i)
{
	int x = o->insn[i].dst_reg;
	size_t last = i;

	for (size_t j = cg_opt_next(o, i + 1); j < o->n && !o->leader[j]; j = cg_opt_next(o, j + 1)) {
		const struct bpf_insn *in = &o->insn[j];
		if ((cg_opt_uses(in) & R(x)) && !narrow_store_of(in, x))
			return false;
		last = j;
		if (cg_opt_defs(in) & R(x))
			return true;
		if (cg_opt_is_jump(in) || cg_opt_is_exit(in) || cg_opt_is_call(in))
			break;
	}
	return !(o->live[last] & R(x));
}

bool cg_opt_zext(struct cg_opt *o)
{
	bool changed = false;

	cg_opt_liveness(o);
	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		if (is_zext(&o->insn[i]) && unneeded(o, i)) {
			cg_opt_delete(o, i);
			changed = true;
		}
	}
	return changed;
}
