/*
 * Jumps: a jump to a test whose outcome is known on the way there goes
 * where the test would send it (a boolean made 0 or 1 and then tested:
 * `r1 = 1; if c goto L; r1 = 0; L: if r1 == 0 goto X`); a conditional
 * jump over a goto becomes the opposite test; a 32-bit sign extension
 * made only for a test against a constant becomes a 32-bit test; and what
 * no path reaches any more goes (the verifier refuses it).  Each rewrite
 * only removes paths through a test, so liveness computed before is
 * still a safe over-estimate.
 */
#include <stdlib.h>

#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))

static bool cond_jump(const struct bpf_insn *in)
{
	return cg_opt_is_jump(in) && BPF_OP(in->code) != BPF_JA && BPF_OP(in->code) != BPF_JCOND;
}

/* The outcome of test `in` (immediate operand) when its register holds v; -1 if not modelled. */
static int outcome(const struct bpf_insn *in, uint64_t v)
{
	bool w32 = BPF_CLASS(in->code) == BPF_JMP32;
	uint64_t a = w32 ? (uint32_t)v : v;
	uint64_t b = w32 ? (uint32_t)in->imm : (uint64_t)(int64_t)in->imm;
	int64_t sa = w32 ? (int32_t)(uint32_t)v : (int64_t)v;
	int64_t sb = w32 ? (int32_t)in->imm : (int64_t)in->imm;

	switch (BPF_OP(in->code)) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return (a & b) != 0;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	default: return -1;
	}
}

/* The constant reg holds at instruction j on every path: set before it in its block. */
static bool known_before(const struct cg_opt *o, size_t j, int reg, uint64_t *v)
{
	size_t seen = 0;

	for (size_t k = j; k-- > 0 && seen++ < CG_OPT_WINDOW;) {
		if (o->del[k] || o->hi[k])
			continue;
		/* Did a path come into the instruction after k from elsewhere? */
		size_t after = cg_opt_next(o, k + 1);
		if (after <= j && o->leader[after])
			return false;
		const struct bpf_insn *in = &o->insn[k];
		if (cg_opt_is_jump(in) || cg_opt_is_exit(in))
			return false;
		if (!(cg_opt_defs(in) & R(reg)))
			continue;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_K) && in->off == 0) {
			*v = (uint64_t)(int64_t)in->imm;
			return true;
		}
		if (in->code == (BPF_ALU | BPF_MOV | BPF_K) && in->off == 0) {
			*v = (uint32_t)in->imm;
			return true;
		}
		return false;
	}
	return false;
}

/* Where a test reached with its register holding v sends execution; n+1 if unknown. */
static size_t resolve(const struct cg_opt *o, size_t l, uint64_t v)
{
	const struct bpf_insn *t = &o->insn[l];

	if (BPF_SRC(t->code) != BPF_K)
		return o->n + 1;
	int r = outcome(t, v);
	if (r < 0)
		return o->n + 1;
	return cg_opt_next(o, r ? (size_t)o->target[l] : l + 1);
}

/* A jump to a test (or to a goto) whose outcome is known there: to where it leads. */
static bool thread(struct cg_opt *o, uint16_t *live_in)
{
	bool changed = false;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		struct bpf_insn *in = &o->insn[i];
		if (!cg_opt_is_jump(in) || BPF_OP(in->code) == BPF_JCOND)
			continue;
		for (int hops = 0; hops < 8; hops++) {
			size_t l = cg_opt_next(o, (size_t)o->target[i]);
			if (l >= o->n || l == i)
				break;
			const struct bpf_insn *t = &o->insn[l];
			size_t to = o->n + 1;
			uint64_t v;
			if (t->code == (BPF_JMP | BPF_JA))
				to = cg_opt_next(o, (size_t)o->target[l]);
			else if (cond_jump(t) && known_before(o, i, t->dst_reg, &v))
				/* Set before this jump in its block: it holds at l on the jump's path. */
				to = resolve(o, l, v);
			if (to >= o->n || to == l)
				break;
			o->target[i] = (int)to;
			o->leader[to] = true;
			changed = true;
		}
	}
	/* `rA = c` falling into a test of rA: a goto where the test leads, when rA is dead there. */
	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		struct bpf_insn *in = &o->insn[i];
		if ((in->code != (BPF_ALU64 | BPF_MOV | BPF_K) &&
		     in->code != (BPF_ALU | BPF_MOV | BPF_K)) || in->off != 0)
			continue;
		size_t l = cg_opt_next(o, i + 1);
		if (l >= o->n || !cond_jump(&o->insn[l]) || o->insn[l].dst_reg != in->dst_reg)
			continue;
		uint64_t v = BPF_CLASS(in->code) == BPF_ALU64 ? (uint64_t)(int64_t)in->imm
							   : (uint32_t)in->imm;
		size_t to = resolve(o, l, v);
		if (to >= o->n || (live_in[to] & R(in->dst_reg)))
			continue;
		*in = I_JA(0);
		o->target[i] = (int)to;
		o->leader[to] = true;
		changed = true;
	}
	return changed;
}

static int opposite(int op)
{
	switch (op) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JGT: return BPF_JLE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JGE: return BPF_JLT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSLT: return BPF_JSGE;
	default: return -1;
	}
}

/* `if c goto A; goto B; A:` (nothing else reaching the goto): `if !c goto B`. */
static bool invert(struct cg_opt *o)
{
	bool changed = false;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		struct bpf_insn *in = &o->insn[i];
		if (!cond_jump(in) || opposite(BPF_OP(in->code)) < 0)
			continue;
		size_t g = cg_opt_next(o, i + 1);
		if (g >= o->n || o->insn[g].code != (BPF_JMP | BPF_JA) || o->leader[g])
			continue;
		if (cg_opt_next(o, (size_t)o->target[i]) != cg_opt_next(o, g + 1))
			continue;
		in->code = (uint8_t)(BPF_CLASS(in->code) | BPF_SRC(in->code) | opposite(BPF_OP(in->code)));
		o->target[i] = o->target[g];
		cg_opt_delete(o, g);
		changed = true;
	}
	return changed;
}

/*
 * `rA <<= 32; rA s>>= 32; ... if rA op K` with rA dead after the test and
 * op ==, !=, or signed: the sign extension of the low word compares with
 * the sign-extended K as the low word compares with K in 32 bits.
 */
static bool narrow(struct cg_opt *o)
{
	bool changed = false;

	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		const struct bpf_insn *sh = &o->insn[i];
		if (sh->code != (BPF_ALU64 | BPF_LSH | BPF_K) || sh->imm != 32)
			continue;
		int r = sh->dst_reg;
		size_t a = cg_opt_next(o, i + 1);
		if (a >= o->n || o->leader[a] || o->insn[a].code != (BPF_ALU64 | BPF_ARSH | BPF_K) ||
		    o->insn[a].imm != 32 || o->insn[a].dst_reg != r)
			continue;
		size_t j = cg_opt_next(o, a + 1);
		int seen = 0;
		while (j < o->n && !o->leader[j] && seen++ < 16 && !cg_opt_is_jump(&o->insn[j]) &&
		       !cg_opt_is_call(&o->insn[j]) && !cg_opt_is_exit(&o->insn[j]) &&
		       !((cg_opt_uses(&o->insn[j]) | cg_opt_defs(&o->insn[j])) & R(r)))
			j = cg_opt_next(o, j + 1);
		if (j >= o->n || o->leader[j])
			continue;
		struct bpf_insn *t = &o->insn[j];
		int op = BPF_OP(t->code);
		if (t->code != (BPF_JMP | BPF_K | op) || t->dst_reg != r || (o->live[j] & R(r)) ||
		    !(op == BPF_JEQ || op == BPF_JNE || op == BPF_JSGT || op == BPF_JSGE ||
		      op == BPF_JSLT || op == BPF_JSLE))
			continue;
		t->code = (uint8_t)(BPF_JMP32 | BPF_K | op);
		cg_opt_delete(o, i);
		cg_opt_delete(o, a);
		changed = true;
	}
	return changed;
}

/* Delete what no path from the first instruction reaches. */
static bool unreachable(struct cg_opt *o)
{
	bool *seen = calloc(o->n + 1, sizeof(*seen));
	size_t *work = malloc((o->n + 1) * sizeof(*work));
	size_t nw = 0;
	bool changed = false;

	if (seen == NULL || work == NULL) {
		free(seen), free(work);
		return false;
	}
	size_t first = cg_opt_next(o, 0);
	if (first < o->n)
		seen[first] = true, work[nw++] = first;
	while (nw > 0) {
		size_t k = work[--nw];
		const struct bpf_insn *in = &o->insn[k];
		size_t succ[2];
		int ns = 0;
		if (cg_opt_is_jump(in))
			succ[ns++] = cg_opt_next(o, (size_t)o->target[k]);
		if (!cg_opt_is_exit(in) && in->code != (BPF_JMP | BPF_JA))
			succ[ns++] = cg_opt_next(o, k + 1);
		for (int s = 0; s < ns; s++)
			if (succ[s] < o->n && !seen[succ[s]])
				seen[succ[s]] = true, work[nw++] = succ[s];
	}
	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1))
		if (!seen[i]) {
			cg_opt_delete(o, i);
			changed = true;
		}
	free(seen), free(work);
	return changed;
}

bool cg_opt_jump(struct cg_opt *o)
{
	uint16_t *live_in = calloc(o->n + 1, sizeof(*live_in));

	if (live_in == NULL)
		return false;
	cg_opt_liveness(o);
	for (size_t i = 0; i < o->n; i++)
		if (!o->del[i] && !o->hi[i])
			live_in[i] = cg_opt_uses(&o->insn[i]) |
				     (o->live[i] & (uint16_t)~cg_opt_defs(&o->insn[i]));
	bool changed = thread(o, live_in);
	changed |= invert(o);
	changed |= narrow(o);
	if (changed)
		unreachable(o);
	free(live_in);
	return changed;
}
