/*
 * Constants and frame addresses, forward through each basic block.  A
 * register known to hold a constant or fp + c (from `r = K`, `r = r10;
 * r += c`) lets its users take the value directly:
 *  - a second computation of the value the register already holds goes;
 *  - a memory access based on fp + c becomes one on r10 with the offset;
 *  - an ALU64 operation on constants becomes a move of the result, one
 *    with a constant register operand takes it as an immediate;
 *  - a store of a constant register to an 8-byte stack slot stores the
 *    immediate (the verifier keeps such a constant exactly; elsewhere a
 *    base may be the context, which takes no immediate stores).
 * Division and modulo are left alone (their by-zero cases), and so is
 * 32-bit arithmetic.  At a jump target nothing is known.
 */
#include "compiler/cg_opt.h"

enum { UNK, CONST, FP };

struct val {
	int kind;
	int64_t v;
};

static bool fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static bool fits16(int64_t v)
{
	return v >= INT16_MIN && v <= INT16_MAX;
}

/* a op b for the ALU64 operations folded here; false if not one of them. */
static bool fold(int op, int64_t a, int64_t b, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case BPF_ADD: *r = (int64_t)(ua + ub); return true;
	case BPF_SUB: *r = (int64_t)(ua - ub); return true;
	case BPF_MUL: *r = (int64_t)(ua * ub); return true;
	case BPF_OR: *r = a | b; return true;
	case BPF_AND: *r = a & b; return true;
	case BPF_XOR: *r = a ^ b; return true;
	case BPF_LSH: if (ub > 63) return false; *r = (int64_t)(ua << ub); return true;
	case BPF_RSH: if (ub > 63) return false; *r = (int64_t)(ua >> ub); return true;
	case BPF_ARSH:
		if (ub > 63)
			return false;
		/* An arithmetic shift, as BPF does, whatever C does with negative numbers. */
		*r = a < 0 ? (int64_t)~(~ua >> ub) : (int64_t)(ua >> ub);
		return true;
	default: return false;
	}
}

static bool same(struct val a, struct val b)
{
	return a.kind != UNK && a.kind == b.kind && a.v == b.v;
}

/* A memory access based on a register holding fp + c: based on r10. */
static bool rebase(struct bpf_insn *in, bool src, const struct val *s)
{
	int base = src ? in->src_reg : in->dst_reg;

	if (base == BPF_FP || s[base].kind != FP || !fits16(s[base].v + in->off))
		return false;
	in->off = (int16_t)(s[base].v + in->off);
	if (src)
		in->src_reg = BPF_FP;
	else
		in->dst_reg = BPF_FP;
	return true;
}

static bool alu64(struct cg_opt *o, size_t i, struct val *s)
{
	struct bpf_insn *in = &o->insn[i];
	int op = BPF_OP(in->code);
	int d = in->dst_reg;
	bool changed = false;

	if (op == BPF_MOV) {
		struct val nv = { UNK, 0 };
		if (BPF_SRC(in->code) == BPF_K) {
			nv = (struct val){ CONST, in->imm };
		} else if (in->off == 0) {
			nv = in->src_reg == BPF_FP ? (struct val){ FP, 0 } : s[in->src_reg];
			if (nv.kind == CONST && fits32(nv.v) && !same(s[d], nv)) {
				*in = I_MOV64_IMM(d, (int32_t)nv.v);
				changed = true;
			}
		}
		/* r = r10; r += c where r holds fp + c already. */
		size_t j = cg_opt_next(o, i + 1);
		if (nv.kind == FP && j < o->n && !o->leader[j] &&
		    o->insn[j].code == (BPF_ALU64 | BPF_ADD | BPF_K) && o->insn[j].dst_reg == d &&
		    s[d].kind == FP && s[d].v == nv.v + o->insn[j].imm) {
			cg_opt_delete(o, i);
			cg_opt_delete(o, j);
			return true;
		}
		if (same(s[d], nv)) {
			cg_opt_delete(o, i);
			return true;
		}
		s[d] = nv;
		return changed;
	}
	if (op == BPF_DIV || op == BPF_MOD || op == BPF_NEG || op == BPF_END || in->off != 0) {
		s[d].kind = UNK;
		return false;
	}
	int64_t k;
	if (BPF_SRC(in->code) == BPF_X) {
		if (s[in->src_reg].kind != CONST || !fits32(s[in->src_reg].v) ||
		    in->src_reg == BPF_FP || !fold(op, 0, s[in->src_reg].v, &k)) {
			s[d].kind = UNK;
			return false;
		}
		*in = I_ALU64_IMM(op, d, (int32_t)s[in->src_reg].v);
		changed = true;
	}
	int64_t r;
	if (s[d].kind == CONST && fold(op, s[d].v, in->imm, &r)) {
		if (fits32(r)) {
			*in = I_MOV64_IMM(d, (int32_t)r);
			changed = true;
		}
		s[d].v = r;
	} else if (s[d].kind == FP && (op == BPF_ADD || op == BPF_SUB)) {
		s[d].v += op == BPF_ADD ? in->imm : -(int64_t)in->imm;
	} else {
		s[d].kind = UNK;
	}
	return changed;
}

bool cg_opt_constprop(struct cg_opt *o)
{
	struct val s[11];
	bool changed = false;
	bool fresh = true;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		struct bpf_insn *in = &o->insn[i];
		if (fresh || o->leader[i]) {
			for (int r = 0; r < 11; r++)
				s[r].kind = UNK;
			fresh = false;
		}
		switch (BPF_CLASS(in->code)) {
		case BPF_ALU64:
			changed |= alu64(o, i, s);
			continue;
		case BPF_LDX:
			if (BPF_MODE(in->code) == BPF_MEM || BPF_MODE(in->code) == BPF_MEMSX)
				changed |= rebase(in, true, s);
			break;
		case BPF_ST:
			if (BPF_MODE(in->code) == BPF_MEM)
				changed |= rebase(in, false, s);
			break;
		case BPF_STX:
			if (BPF_MODE(in->code) != BPF_MEM)
				break;
			changed |= rebase(in, false, s);
			struct val v = s[in->src_reg];
			if (in->src_reg != BPF_FP && v.kind == CONST && fits32(v.v) &&
			    in->dst_reg == BPF_FP && BPF_SIZE(in->code) == BPF_DW) {
				*in = I_ST(BPF_SIZE(in->code), in->dst_reg, in->off, (int32_t)v.v);
				changed = true;
			}
			break;
		default:
			break;
		}
		uint16_t d = cg_opt_defs(in);
		for (int r = 0; r < 11; r++)
			if (d & (1u << r))
				s[r].kind = UNK;
		/* After a goto or exit only a jump reaches the next instruction. */
		if (cg_opt_is_exit(in) || (cg_opt_is_jump(in) && BPF_OP(in->code) == BPF_JA))
			fresh = true;
	}
	return changed;
}
