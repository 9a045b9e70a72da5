/*
 * Copies.  For `rA = rB` where rB was computed in the same basic block
 * just to be copied (defined there from other registers, read by nothing
 * after the move), rB's computation is done in rA and the move goes:
 *   r9 = r10; r9 += -16; r1 = r9   ->   r1 = r10; r1 += -16
 * Between the definition and the move there is no jump, jump target or
 * call (a call clobbers r0-r5), and rA is neither read nor written there.
 * Otherwise the instructions after the move read rB for rA while both
 * keep their values (in the block and on past conditional jumps' fall
 * through), so that the move is left for dead code to take:
 *   r9 = r0; if r9 == 0 goto L; r7 = *(r9 + 0)  ->  if r0 == 0 goto L; r7 = *(r0 + 0)
 */
#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))

static bool is_move(const struct bpf_insn *in)
{
	return in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->off == 0 && in->dst_reg != in->src_reg &&
	       in->dst_reg != BPF_FP && in->src_reg != BPF_FP;
}

/* Instructions whose registers can be renamed: plain ALU, loads, stores, ld_imm64. */
static bool renamable(const struct bpf_insn *in)
{
	int cls = BPF_CLASS(in->code);

	if (cls == BPF_ALU || cls == BPF_ALU64 || cg_opt_is_ldimm64(in))
		return true;
	if (cls == BPF_LDX)
		return BPF_MODE(in->code) == BPF_MEM || BPF_MODE(in->code) == BPF_MEMSX;
	return (cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM;
}

static void rename(struct bpf_insn *in, int from, int to)
{
	int cls = BPF_CLASS(in->code);

	if (in->dst_reg == from)
		in->dst_reg = (uint8_t)to;
	/* Only a register operand: ld_imm64's src_reg says what the constant is, a store of an immediate or an ALU immediate has none. */
	if (in->src_reg == from && (cls == BPF_LDX || cls == BPF_STX ||
				    ((cls == BPF_ALU || cls == BPF_ALU64) && BPF_SRC(in->code) == BPF_X)))
		in->src_reg = (uint8_t)to;
}

/* The earlier kept instruction, if none of the indices between is a jump target; else n. */
static size_t prev_in_block(const struct cg_opt *o, size_t i)
{
	while (i > 0) {
		if (o->leader[i])
			return o->n;
		i--;
		if (!o->del[i] && !o->hi[i])
			return i;
	}
	return o->n;
}

static bool coalesce(struct cg_opt *o, size_t m)
{
	int a = o->insn[m].dst_reg, b = o->insn[m].src_reg, seen = 0;

	if (o->live[m] & R(b))
		return false;
	for (size_t j = prev_in_block(o, m); j < o->n && seen++ < CG_OPT_WINDOW; j = prev_in_block(o, j)) {
		const struct bpf_insn *in = &o->insn[j];
		uint16_t u = cg_opt_uses(in), d = cg_opt_defs(in);
		if (!renamable(in) || ((u | d) & R(a)))
			return false;
		if (!((u | d) & R(b)))
			continue;
		if (!(d & R(b)) || (u & R(b)))
			continue;
		/* j computes rB from other registers: rename j .. m - 1. */
		for (size_t k = j; k < m; k++) {
			if (o->del[k] || o->hi[k])
				continue;
			rename(&o->insn[k], b, a);
			if (o->live[k] & R(b))
				o->live[k] = (uint16_t)((o->live[k] & ~R(b)) | R(a));
		}
		cg_opt_delete(o, m);
		return true;
	}
	return false;
}

/* Read rB for rA in the instruction (its register operands that are read only). */
static bool substitute(struct bpf_insn *in, int a, int b)
{
	int cls = BPF_CLASS(in->code);
	bool changed = false;

	if (in->src_reg == a && (cls == BPF_LDX || cls == BPF_STX ||
				 ((cls == BPF_ALU || cls == BPF_ALU64 || cg_opt_is_jump(in)) &&
				  BPF_SRC(in->code) == BPF_X))) {
		in->src_reg = (uint8_t)b;
		changed = true;
	}
	/* dst is read only by stores (the base) and conditional jumps. */
	if (in->dst_reg == a && (cls == BPF_ST || cls == BPF_STX ||
				 (cg_opt_is_jump(in) && BPF_OP(in->code) != BPF_JA))) {
		in->dst_reg = (uint8_t)b;
		changed = true;
	}
	return changed;
}

static bool propagate(struct cg_opt *o, size_t m)
{
	int a = o->insn[m].dst_reg, b = o->insn[m].src_reg, seen = 0;
	bool changed = false;

	for (size_t j = cg_opt_next(o, m + 1); j < o->n && !o->leader[j] && seen++ < CG_OPT_WINDOW;
	     j = cg_opt_next(o, j + 1)) {
		struct bpf_insn *in = &o->insn[j];
		uint16_t u = cg_opt_uses(in), d = cg_opt_defs(in);
		if (cg_opt_is_call(in) || cg_opt_is_exit(in) ||
		    (cg_opt_is_jump(in) && BPF_OP(in->code) == BPF_JA) ||
		    (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) != BPF_MEM) ||
		    (BPF_CLASS(in->code) == BPF_LDX && BPF_MODE(in->code) != BPF_MEM &&
		     BPF_MODE(in->code) != BPF_MEMSX) || cg_opt_is_ldimm64(in))
			break;
		if (u & R(a)) {
			/* An instruction that also writes rA reads it as dst: leave it, stop. */
			if (d & R(a))
				break;
			changed |= substitute(in, a, b);
			if (cg_opt_uses(in) & R(a))
				break;
		}
		if (d & (R(a) | R(b)))
			break;
	}
	return changed;
}

bool cg_opt_copyprop(struct cg_opt *o)
{
	bool changed = false, stale = false;

	cg_opt_liveness(o);
	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		if (!is_move(&o->insn[i]))
			continue;
		/*
		 * Coalescing trusts the liveness; once a propagation made later
		 * instructions read a move's source, the source is live where the
		 * liveness says dead: no more coalescing until the next round
		 * computes it again (propagation does not use it).
		 */
		if (!stale && coalesce(o, i)) {
			changed = true;
			continue;
		}
		if (propagate(o, i))
			changed = stale = true;
	}
	return changed;
}
