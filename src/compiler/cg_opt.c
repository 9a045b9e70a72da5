/*
 * The optimiser's driver: a view of the function for the passes, the
 * passes run to a fixed point, and the result written back with labels,
 * jumps, relocations and line info renumbered (as cg_dce.c does).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/cg_opt.h"
#include "compiler/compiler.h"

int cg_opt_init(struct cg_opt *o, struct bpf_insn *insns, size_t n, const int *target)
{
	memset(o, 0, sizeof(*o));
	o->insn = insns;
	o->n = n;
	o->target = malloc((n + 1) * sizeof(*o->target));
	o->leader = calloc(n + 1, sizeof(*o->leader));
	o->del = calloc(n + 1, sizeof(*o->del));
	o->hi = calloc(n + 1, sizeof(*o->hi));
	o->live = calloc(n + 1, sizeof(*o->live));
	if (o->target == NULL || o->leader == NULL || o->del == NULL || o->hi == NULL ||
	    o->live == NULL) {
		cg_opt_free(o);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		o->target[i] = cg_opt_is_jump(&insns[i]) && !o->hi[i] ? target[i] : -1;
		if (o->target[i] >= 0 && (size_t)o->target[i] <= n)
			o->leader[o->target[i]] = true;
		if (cg_opt_is_ldimm64(&insns[i]) && !o->hi[i] && i + 1 < n)
			o->hi[i + 1] = true;
	}
	o->target[n] = -1;
	return 0;
}

void cg_opt_free(struct cg_opt *o)
{
	free(o->target), free(o->leader), free(o->del), free(o->hi), free(o->live);
	o->target = NULL, o->leader = NULL, o->del = NULL, o->hi = NULL, o->live = NULL;
}

/* Code the passes do not model (long jumps, may_goto, legacy packet loads): left as it is. */
static bool modelled(const struct cg_opt *o)
{
	for (size_t i = 0; i < o->n; i++) {
		const struct bpf_insn *in = &o->insn[i];
		if (o->hi[i])
			continue;
		if (cg_opt_is_jump(in) && (BPF_CLASS(in->code) == BPF_JMP32 ?
					   BPF_OP(in->code) == BPF_JA : BPF_OP(in->code) == BPF_JCOND))
			return false;
		if (cg_opt_is_jump(in) && (o->target[i] < 0 || (size_t)o->target[i] > o->n))
			return false;
		if (BPF_CLASS(in->code) == BPF_LD && !cg_opt_is_ldimm64(in))
			return false;
	}
	return true;
}

void cg_opt_run(struct cg_opt *o)
{
	if (!modelled(o))
		return;
	/* Each round only removes or simplifies: a few rounds reach the fixed point. */
	for (int round = 0; round < 8; round++) {
		bool changed = false;
		changed |= cg_opt_constprop(o);
		changed |= cg_opt_deadstore(o);
		changed |= cg_opt_copyprop(o);
		changed |= cg_opt_samemove(o);
		changed |= cg_opt_zext(o);
		changed |= cg_opt_dce(o);
		changed |= cg_opt_peephole(o);
		changed |= cg_opt_jump(o);
		changed |= cg_opt_purecall(o);
		if (!changed)
			break;
	}
}

/* Write the view back into cg's function: drop deleted instructions, renumber. */
static void apply(struct dt_cg *cg, struct cg_opt *o, uint32_t *newpos, const bool *fixed)
{
	struct bo_func *fn = cg->fn;
	size_t n = o->n;
	uint32_t k = 0;

	for (size_t i = 0; i < n; i++) {
		newpos[i] = k;
		if (!o->del[i])
			k++;
	}
	newpos[n] = k;
	for (size_t i = 0; i < n; i++) {
		if (o->del[i] || fixed[i] || o->target[i] < 0)
			continue;
		o->insn[i].off = (int16_t)((int)newpos[o->target[i]] - (int)newpos[i] - 1);
	}
	for (size_t i = 0; i < n; i++)
		if (!o->del[i])
			fn->insns.v[newpos[i]] = o->insn[i];
	fn->insns.n = k;
	cg_renumber(cg, newpos, k);
}

void cg_opt_compact(struct dt_pcb *pcb, struct bo_func *fn)
{
	struct dt_cg cg;

	/* No labels or fixups: every jump's target comes from its offset. */
	memset(&cg, 0, sizeof(cg));
	cg.pcb = pcb;
	cg.cc = pcb->cc;
	cg.obj = pcb->cc->obj;
	cg.fn = fn;
	cg_optimize(&cg);
	cg_fini(&cg);
}

void cg_optimize(struct dt_cg *cg)
{
	struct bo_func *fn = cg->fn;
	size_t n = fn->insns.n;

	if (cg->cc->core->opts.nooptimize || n == 0)
		return;
	/* The passes change instructions in place: a copy, so a failure leaves the function as it was. */
	struct bpf_insn *copy = malloc(n * sizeof(*copy));
	int *target = malloc((n + 1) * sizeof(*target));
	bool *fixed = calloc(n + 1, sizeof(*fixed));
	uint32_t *newpos = malloc((n + 1) * sizeof(*newpos));
	struct cg_opt o;

	if (copy == NULL || target == NULL || fixed == NULL || newpos == NULL) {
		free(copy), free(target), free(fixed), free(newpos);
		dt_cnomem(cg->pcb);
	}
	memcpy(copy, fn->insns.v, n * sizeof(*copy));
	/* Jump targets: from the label of a fixup, else from the offset. */
	for (size_t i = 0; i < n; i++)
		target[i] = cg_opt_is_jump(&copy[i]) ? (int)i + 1 + copy[i].off : -1;
	for (size_t i = 0; i < cg->fixups.n; i++) {
		target[cg->fixups.v[i].insn] = cg->labels.v[cg->fixups.v[i].label].pos;
		fixed[cg->fixups.v[i].insn] = true;
	}
	bool ok = true;
	for (size_t i = 0; i < n; i++)
		if (cg_opt_is_jump(&copy[i]) && (target[i] < 0 || (size_t)target[i] > n))
			ok = false;
	if (ok && cg_opt_init(&o, copy, n, target) == 0) {
		cg_opt_run(&o);
		/* A jump a pass sent elsewhere: its offset from the view, no longer from its label. */
		size_t m = 0;
		for (size_t i = 0; i < cg->fixups.n; i++) {
			uint32_t at = cg->fixups.v[i].insn;
			if (!o.del[at] && o.target[at] != target[at]) {
				fixed[at] = false;
				continue;
			}
			cg->fixups.v[m++] = cg->fixups.v[i];
		}
		cg->fixups.n = m;
		apply(cg, &o, newpos, fixed);
		cg_opt_free(&o);
	}
	free(copy), free(target), free(fixed), free(newpos);
}
