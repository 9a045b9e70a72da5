/*
 * Putting the spill stores (cg_reg.c) in place: each goes before the
 * instruction where its region began, once the function is complete and
 * before its jumps are resolved.  Instructions after an insertion point
 * move down; labels at the point, and line info starting there, move to
 * the first store inserted there, so that a jump to the region's entry
 * runs its stores too.
 */
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"

static int by_place(const void *a, const void *b)
{
	const struct cg_store *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static bool is_jump(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && BPF_OP(in->code) != BPF_CALL &&
	       BPF_OP(in->code) != BPF_EXIT;
}

void cg_reg_place_stores(struct dt_cg *cg)
{
	struct bo_func *fn = cg->fn;
	size_t k = cg->stores.n, n = fn->insns.n;

	if (k == 0)
		return;
	qsort(cg->stores.v, k, sizeof(*cg->stores.v), by_place);
	/* before[i]: stores placed before instruction i (i in 0..n). */
	uint32_t *before = calloc(n + 1, sizeof(*before));
	bool *fixed = calloc(n + 1, sizeof(*fixed));
	struct bpf_insn *out = malloc((n + k) * sizeof(*out));
	if (before == NULL || fixed == NULL || out == NULL) {
		free(before), free(fixed), free(out);
		dt_cnomem(cg->pcb);
	}
	size_t s = 0, j = 0;
	for (size_t i = 0; i <= n; i++) {
		before[i] = (uint32_t)s;
		while (s < k && cg->stores.v[s].at <= i) {
			const struct cg_store *st = &cg->stores.v[s++];
			out[j++] = I_STX(BPF_DW, BPF_FP, st->reg, st->off);
		}
		if (i < n)
			out[j++] = fn->insns.v[i];
	}
	/* Where an instruction went, and where a jump to it (its first store) goes. */
#define MOVED(i) ((uint32_t)(i) + before[(i) + 1])
#define ENTRY(i) ((uint32_t)(i) + before[i])
	for (size_t f = 0; f < cg->fixups.n; f++)
		fixed[cg->fixups.v[f].insn] = true;
	/* Jumps by offset (not through a label) keep their target. */
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &fn->insns.v[i];
		if (fixed[i] || !is_jump(in))
			continue;
		long t = (long)i + 1 + in->off;
		if (t < 0 || (size_t)t > n)
			continue;
		uint32_t at = MOVED(i);
		out[at].off = (int16_t)((long)ENTRY(t) - (long)at - 1);
	}
	for (size_t f = 0; f < cg->fixups.n; f++) {
		uint32_t i = cg->fixups.v[f].insn;
		cg->fixups.v[f].insn = MOVED(i);
	}
	for (size_t l = 0; l < cg->labels.n; l++)
		if (cg->labels.v[l].pos >= 0)
			cg->labels.v[l].pos = (int)ENTRY(cg->labels.v[l].pos);
	for (size_t r = 0; r < fn->relocs.n; r++) {
		uint32_t i = fn->relocs.v[r].insn;
		fn->relocs.v[r].insn = MOVED(i);
	}
	for (size_t l = 0; l < fn->lines.n; l++)
		fn->lines.v[l].insn = ENTRY(fn->lines.v[l].insn);
#undef MOVED
#undef ENTRY
	if (dt_vec_reserve(&fn->insns, n + k) < 0) {
		free(before), free(fixed), free(out);
		dt_cnomem(cg->pcb);
	}
	memcpy(fn->insns.v, out, (n + k) * sizeof(*out));
	fn->insns.n = n + k;
	cg->stores.n = 0;
	free(before), free(fixed), free(out);
}
