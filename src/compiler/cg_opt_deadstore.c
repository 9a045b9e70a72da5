/*
 * Stack slots within a basic block.  A load of an 8-byte slot that an
 * earlier store of the block filled with a constant, or with a register
 * that still holds the value, becomes a move.  A store whose bytes are
 * all stored again before anything can read them goes, and so does one
 * the function exits after without a read.  Anything may read the stack
 * through a pointer: a load not based on r10, a call or an atomic
 * operation counts as a read of every slot, a store not based on r10 as
 * a write of any (so it forgets what the slots held).  At a jump or a
 * jump target nothing is assumed.
 */
#include "compiler/cg_opt.h"

#define NSLOT 64

struct slot {
	int16_t off;
	bool reg;		/* holds register r, else constant k */
	uint8_t r;
	int32_t k;
};

static bool overlaps(int a, int an, int b, int bn)
{
	return a < b + bn && b < a + an;
}

static int size_bytes(const struct bpf_insn *in)
{
	switch (BPF_SIZE(in->code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static void forget_range(struct slot *t, int *n, int off, int size)
{
	for (int k = 0; k < *n;)
		if (overlaps(t[k].off, 8, off, size))
			t[k] = t[--*n];
		else
			k++;
}

static bool forward(struct cg_opt *o)
{
	struct slot t[NSLOT];
	int n = 0;
	bool changed = false;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		struct bpf_insn *in = &o->insn[i];
		if (o->leader[i])
			n = 0;
		int cls = BPF_CLASS(in->code);
		if (cls == BPF_LDX && BPF_MODE(in->code) == BPF_MEM && in->src_reg == BPF_FP &&
		    BPF_SIZE(in->code) == BPF_DW) {
			for (int k = 0; k < n; k++) {
				if (t[k].off != in->off)
					continue;
				*in = t[k].reg ? I_MOV64_REG(in->dst_reg, t[k].r)
					       : I_MOV64_IMM(in->dst_reg, t[k].k);
				changed = true;
				break;
			}
		} else if ((cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM &&
			   in->dst_reg == BPF_FP) {
			forget_range(t, &n, in->off, size_bytes(in));
			if (BPF_SIZE(in->code) == BPF_DW && in->off % 8 == 0 && n < NSLOT &&
			    (cls == BPF_ST || in->src_reg != BPF_FP))
				t[n++] = (struct slot){ .off = in->off, .reg = cls == BPF_STX,
							.r = in->src_reg, .k = in->imm };
		} else if (cls == BPF_ST || cls == BPF_STX || cg_opt_is_call(in) ||
			   cg_opt_is_jump(in) || cg_opt_is_exit(in)) {
			n = 0;
		}
		uint16_t d = cg_opt_defs(in);
		for (int k = 0; k < n;)
			if (t[k].reg && (d & (1u << t[k].r)))
				t[k] = t[--n];
			else
				k++;
	}
	return changed;
}

/* Whether the bytes stored by instruction i are stored again, or the function exits, before any read. */
static bool dead_store(const struct cg_opt *o, size_t i)
{
	const struct bpf_insn *s = &o->insn[i];
	int off = s->off, size = size_bytes(s), seen = 0;

	for (size_t j = cg_opt_next(o, i + 1); j < o->n && seen++ < CG_OPT_WINDOW;
	     j = cg_opt_next(o, j + 1)) {
		const struct bpf_insn *in = &o->insn[j];
		int cls = BPF_CLASS(in->code);
		if (o->leader[j] || cg_opt_is_call(in) || cg_opt_is_jump(in))
			return false;
		if (cg_opt_is_exit(in))
			return true;
		if (cls == BPF_LDX) {
			if (in->src_reg != BPF_FP || overlaps(in->off, size_bytes(in), off, size))
				return false;
		} else if ((cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) != BPF_MEM) {
			return false;
		} else if ((cls == BPF_ST || cls == BPF_STX) && in->dst_reg == BPF_FP &&
			   in->off <= off && in->off + size_bytes(in) >= off + size) {
			return true;
		} else if (cls == BPF_LD && !cg_opt_is_ldimm64(in)) {
			return false;
		}
	}
	return false;
}

bool cg_opt_deadstore(struct cg_opt *o)
{
	bool changed = forward(o);

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		const struct bpf_insn *in = &o->insn[i];
		int cls = BPF_CLASS(in->code);
		if ((cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM &&
		    in->dst_reg == BPF_FP && dead_store(o, i)) {
			cg_opt_delete(o, i);
			changed = true;
		}
	}
	return changed;
}
