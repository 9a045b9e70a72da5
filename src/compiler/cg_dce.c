/*
 * Dropping unreachable instructions before jumps are resolved.  Code for
 * a branch that a constant condition never takes (a predicate that is
 * always false, `1 ? a : b`, `0 && x`) is still emitted, and the verifier
 * refuses programs with unreachable instructions: this pass removes them
 * and renumbers labels, relocations and line info.
 */
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"

static bool is_jump(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && BPF_OP(in->code) != BPF_CALL &&
	       BPF_OP(in->code) != BPF_EXIT;
}

static bool is_ld_imm64(const struct bpf_insn *in)
{
	return in->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/*
 * Labels, fixups, relocations and line info after instructions were
 * dropped: the kept ones moved to newpos[i], k of them (newpos[n] == k),
 * and instruction i was dropped when newpos[i] == newpos[i + 1].  A label
 * or a line at a dropped instruction moves to the next kept one; a fixup
 * or a relocation of one goes with it.
 */
void cg_renumber(struct dt_cg *cg, const uint32_t *newpos, uint32_t k)
{
	struct bo_func *fn = cg->fn;
	size_t m = 0;

	for (size_t i = 0; i < cg->labels.n; i++)
		if (cg->labels.v[i].pos >= 0)
			cg->labels.v[i].pos = (int)newpos[cg->labels.v[i].pos];
	for (size_t i = 0; i < cg->fixups.n; i++) {
		uint32_t at = cg->fixups.v[i].insn;
		if (newpos[at] == newpos[at + 1])
			continue;
		cg->fixups.v[m] = cg->fixups.v[i];
		cg->fixups.v[m++].insn = newpos[at];
	}
	cg->fixups.n = m;
	m = 0;
	for (size_t i = 0; i < fn->relocs.n; i++) {
		uint32_t at = fn->relocs.v[i].insn;
		if (newpos[at] == newpos[at + 1])
			continue;
		fn->relocs.v[m] = fn->relocs.v[i];
		fn->relocs.v[m++].insn = newpos[at];
	}
	fn->relocs.n = m;
	m = 0;
	for (size_t i = 0; i < fn->lines.n; i++) {
		uint32_t p = newpos[fn->lines.v[i].insn];
		/* A line whose first instruction went away starts at the next kept one. */
		if (p >= k || (m > 0 && fn->lines.v[m - 1].insn == p)) {
			if (p < k && m > 0)
				fn->lines.v[m - 1] = fn->lines.v[i], fn->lines.v[m - 1].insn = p;
			continue;
		}
		fn->lines.v[m] = fn->lines.v[i];
		fn->lines.v[m++].insn = p;
	}
	fn->lines.n = m;
}

void cg_drop_unreachable(struct dt_cg *cg)
{
	struct bo_func *fn = cg->fn;
	size_t n = fn->insns.n;
	int *target = malloc((n + 1) * sizeof(int));
	uint32_t *newpos = malloc((n + 1) * sizeof(uint32_t));
	uint8_t *live = calloc(n + 1, 1);
	uint32_t *stack = malloc((n + 1) * sizeof(uint32_t));

	if (target == NULL || newpos == NULL || live == NULL || stack == NULL) {
		free(target), free(newpos), free(live), free(stack);
		dt_cnomem(cg->pcb);
	}
	/* Jump targets: from the label of a fixup, else from the offset. */
	for (size_t i = 0; i < n; i++)
		target[i] = is_jump(&fn->insns.v[i]) ? (int)i + 1 + fn->insns.v[i].off : -1;
	for (size_t i = 0; i < cg->fixups.n; i++)
		target[cg->fixups.v[i].insn] = cg->labels.v[cg->fixups.v[i].label].pos;

	size_t sp = 0;
	if (n > 0)
		stack[sp++] = 0;
	while (sp > 0) {
		uint32_t i = stack[--sp];
		if (i >= n || live[i])
			continue;
		live[i] = 1;
		const struct bpf_insn *in = &fn->insns.v[i];
		uint32_t next = i + 1;
		if (is_ld_imm64(in)) {
			live[i + 1] = 1;
			next = i + 2;
		}
		if (is_jump(in)) {
			if (target[i] >= 0 && (size_t)target[i] <= n)
				stack[sp++] = (uint32_t)target[i];
			if (BPF_OP(in->code) == BPF_JA)
				continue;
		} else if (BPF_CLASS(in->code) == BPF_JMP && BPF_OP(in->code) == BPF_EXIT) {
			continue;
		}
		stack[sp++] = next;
	}

	uint32_t k = 0;
	for (size_t i = 0; i < n; i++) {
		newpos[i] = k;
		if (live[i])
			k++;
	}
	newpos[n] = k;
	if (k == n)
		goto out;

	/* Non-label jumps keep pointing at the same (renumbered) place. */
	for (size_t i = 0; i < n; i++) {
		if (!live[i] || !is_jump(&fn->insns.v[i]) || target[i] < 0)
			continue;
		fn->insns.v[i].off = (int16_t)((int)newpos[target[i]] - (int)newpos[i] - 1);
	}
	for (size_t i = 0; i < n; i++)
		if (live[i])
			fn->insns.v[newpos[i]] = fn->insns.v[i];
	fn->insns.n = k;
	cg_renumber(cg, newpos, k);
out:
	free(target), free(newpos), free(live), free(stack);
}
