/*
 * A move into a register that holds the value already: after rA = rB,
 * until either is written again, rA = rB or rB = rA changes nothing and
 * goes (the value and what the verifier knows of it are the same):
 *   r6 = r1; r0 = *(u32 *)(r0 + 0); r1 = r6; call   ->   r6 = r1; r0 = ...; call
 * Within a basic block: a jump target forgets everything, a call writes
 * r0-r5.
 */
#include <stdlib.h>

#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))

/* same[a]: the registers known to hold what ra holds. */
static void forget(uint16_t *same, int r)
{
	for (int x = 0; x < 11; x++)
		same[x] &= (uint16_t)~R(r);
	same[r] = 0;
}

/* Where the jumps still kept go (o->leader also marks those of deleted ones); NULL: no memory. */
static bool *kept_targets(const struct cg_opt *o)
{
	bool *t = calloc(o->n + 1, sizeof(*t));

	for (size_t i = 0; t != NULL && i < o->n; i++)
		if (!o->del[i] && !o->hi[i] && o->target[i] >= 0)
			t[o->target[i]] = true;
	return t;
}

bool cg_opt_samemove(struct cg_opt *o)
{
	uint16_t same[11] = { 0 };
	bool changed = false, reset = true;
	bool *target = kept_targets(o);

	if (target == NULL)
		return false;
	for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
		const struct bpf_insn *in = &o->insn[i];
		if (target[i] || reset)
			for (int x = 0; x < 11; x++)
				same[x] = 0;
		reset = cg_opt_is_exit(in) || (cg_opt_is_jump(in) && BPF_OP(in->code) == BPF_JA);
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->off == 0 && in->dst_reg < 11 &&
		    in->src_reg < 11) {
			int a = in->dst_reg, b = in->src_reg;
			if (a == b || (same[a] & R(b))) {
				cg_opt_delete(o, i);
				changed = true;
				continue;
			}
			forget(same, a);
			same[a] = (uint16_t)(same[b] | R(b));
			for (int x = 0; x < 11; x++)
				if (same[a] & R(x))
					same[x] |= R(a);
			continue;
		}
		uint16_t d = cg_opt_defs(in);
		for (int r = 0; r < 11; r++)
			if (d & R(r))
				forget(same, r);
	}
	free(target);
	return changed;
}
