/*
 * Clause functions are built when a program is compiled; what only the
 * programs formed at dtrace_go() tell (the buffer's size, whether a
 * firing runs other clauses) is put into them here, before the programs
 * that call them are built (their prologues are trimmed to what the
 * clauses then read, cg_dctx.c).  Each rewrite replaces an exact
 * sequence the clause builder emits (cg_clause.c) with as many
 * instructions, the ones it no longer needs becoming no-ops, which
 * cg_opt_compact() then drops.
 */
#include <string.h>

#include "base/core.h"
#include "base/maps.h"
#include "base/object.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "compiler/cg_opt.h"
#include "compiler/cg_specialize.h"
#include "compiler/compiler.h"
#include "compiler/program.h"

#define NOP I_JA(0)

static bool same_insn(const struct bpf_insn *a, const struct bpf_insn *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

static struct bo_reloc *reloc_at(struct bo_func *fn, size_t at)
{
	for (size_t i = 0; i < fn->relocs.n; i++)
		if (fn->relocs.v[i].insn == at)
			return &fn->relocs.v[i];
	return NULL;
}

static void drop_reloc(struct bo_func *fn, const struct bo_reloc *r)
{
	size_t k = (size_t)(r - fn->relocs.v);

	memmove(&fn->relocs.v[k], &fn->relocs.v[k + 1],
		(fn->relocs.n - k - 1) * sizeof(*fn->relocs.v));
	fn->relocs.n--;
}

/*
 * emit_submit()'s wake-up test, `rX = &wakemark; rX = *rX; r2 = 1; if r0
 * < rX ...`: the mark as the comparison's immediate.  The mark is the
 * one go.c writes into .bss (dt_cg_wakemark()); one that does not fit an
 * immediate stays a load.
 */
bool cg_spec_wakemark(struct bo_func *fn, uint64_t mark)
{
	struct bpf_insn *v = fn->insns.v;
	bool changed = false;

	if (mark != UINT64_MAX && mark > INT32_MAX)
		return false;
	for (size_t i = 0; i + 4 < fn->insns.n; i++) {
		struct bo_reloc *r;
		int x = v[i].dst_reg;
		if (!cg_opt_is_ldimm64(&v[i]) || v[i].imm != BSS_WAKEMARK ||
		    (r = reloc_at(fn, i)) == NULL || r->kind != BO_RELOC_BSS)
			continue;
		struct bpf_insn load = I_LDX(BPF_DW, x, x, 0);
		const struct bpf_insn *t = &v[i + 4];
		if (!same_insn(&v[i + 2], &load) || v[i + 3].code != (BPF_ALU64 | BPF_MOV | BPF_K) ||
		    v[i + 3].dst_reg == x || t->code != (BPF_JMP | BPF_JLT | BPF_X) ||
		    t->src_reg != x || t->dst_reg == x)
			continue;
		/* rX is the test's alone: emit_submit loads it for it. */
		v[i + 4] = (struct bpf_insn){ .code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = t->dst_reg,
					      .off = t->off, .imm = (int32_t)mark };
		v[i] = NOP, v[i + 1] = NOP, v[i + 2] = NOP;
		drop_reloc(fn, r);
		changed = true;
	}
	return changed;
}

/*
 * The timestamp cache at v[i], as emit_reserve() leaves it (`r0 =
 * dctx->ts; if r0 != 0 goto +2; call ktime_get_ns; dctx->ts = r0`) or
 * cg_firing_timestamp() (the same into rA, then `rA = r0`, the jump +3):
 * its length, else 0.
 */
static size_t ts_cache_at(const struct bpf_insn *v, size_t n, size_t i)
{
	int a = v[i].dst_reg;
	const struct bpf_insn load = I_LDX(BPF_DW, a, REG_DCTX, DCTX_TS);
	const struct bpf_insn call = I_CALL_HELPER(BPF_FUNC_ktime_get_ns);
	const struct bpf_insn store = I_STX(BPF_DW, REG_DCTX, BPF_R0, DCTX_TS);
	const struct bpf_insn move = I_MOV64_REG(a, BPF_R0);
	size_t len = a == BPF_R0 ? 4 : 5;

	if (i + len > n || !same_insn(&v[i], &load) || a == REG_DCTX ||
	    v[i + 1].code != (BPF_JMP | BPF_JNE | BPF_K) || v[i + 1].dst_reg != a ||
	    v[i + 1].imm != 0 || v[i + 1].off != (int16_t)(len - 2) ||
	    !same_insn(&v[i + 2], &call) || !same_insn(&v[i + 3], &store) ||
	    (len == 5 && !same_insn(&v[i + 4], &move)))
		return 0;
	return len;
}

/*
 * Whether fn reads and writes dctx's timestamp word only in one cache
 * (ts_cache_at), and lets the dctx pointer go nowhere but to the fault
 * path (which reads the word, but takes the time itself when it is 0);
 * its index in *at.
 */
static bool one_ts_site(const struct bo_func *fn, size_t *at)
{
	const struct bpf_insn *v = fn->insns.v;
	size_t n = fn->insns.n, sites = 0, len;
	const struct bpf_insn entry = I_MOV64_REG(REG_DCTX, BPF_R2);

	if (n == 0 || !same_insn(&v[0], &entry))
		return false;
	for (size_t i = 1; i < n; i++) {
		const struct bpf_insn *in = &v[i];
		int cls = BPF_CLASS(in->code);
		if (cg_opt_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (cg_opt_defs(in) & (1u << REG_DCTX))
			return false;
		if (!(cg_opt_uses(in) & (1u << REG_DCTX)))
			continue;
		if ((len = ts_cache_at(v, n, i)) != 0) {
			*at = i;
			sites++;
			i += len - 1;
			continue;
		}
		bool mem = (cls == BPF_LDX && in->src_reg == REG_DCTX) ||
			   ((cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM &&
			    in->dst_reg == REG_DCTX && (cls == BPF_ST || in->src_reg != REG_DCTX));
		if (mem) {
			int size = BPF_SIZE(in->code) == BPF_DW ? 8 : BPF_SIZE(in->code) == BPF_W ? 4
				   : BPF_SIZE(in->code) == BPF_H ? 2 : 1;
			if (in->off < DCTX_TS + 8 && in->off + size > DCTX_TS)
				return false;
			continue;
		}
		/* `r2 = dctx` for the fault path's call (cg_clause.c's emit_fault_path). */
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->dst_reg == BPF_R2 &&
		    in->src_reg == REG_DCTX && in->off == 0 && i + 2 < n &&
		    v[i + 1].code == (BPF_ALU64 | BPF_MOV | BPF_K) && v[i + 1].dst_reg == BPF_R3 &&
		    v[i + 2].code == (BPF_JMP | BPF_CALL) && v[i + 2].src_reg == BPF_PSEUDO_CALL) {
			const struct bo_reloc *r = NULL;
			for (size_t k = 0; k < fn->relocs.n; k++)
				if (fn->relocs.v[k].insn == i + 2)
					r = &fn->relocs.v[k];
			if (r != NULL && r->kind == BO_RELOC_CALL &&
			    (strcmp(r->target, "dt_fault") == 0 || strcmp(r->target, "dt_error") == 0))
				continue;
		}
		return false;
	}
	return sites == 1;
}

/*
 * The firing's timestamp is cached in dctx for every reader of the firing
 * to agree (DTrace's one timestamp per firing).  In a function that is
 * the only one its programs call, with the cache its only reader, the
 * time is read directly.  (A fault record then takes its own time, as
 * DTrace's ERROR probe fires with its own.)
 */
bool cg_spec_ts(struct bo_func *fn)
{
	size_t at;

	if (!one_ts_site(fn, &at))
		return false;
	/* Nothing else may jump to its test, which goes. */
	for (size_t i = 0; i < fn->insns.n; i++) {
		const struct bpf_insn *in = &fn->insns.v[i];
		if (cg_opt_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (cg_opt_is_jump(in) && (long)i + 1 + in->off == (long)at + 1)
			return false;
	}
	fn->insns.v[at] = NOP;
	fn->insns.v[at + 1] = NOP;
	fn->insns.v[at + 3] = NOP;
	return true;
}

/*
 * Without ERROR clauses dt_error would only call dt_fault: the fault paths
 * call dt_fault (same arguments) themselves.
 */
bool cg_spec_skip_error(struct bo_func *fn)
{
	bool changed = false;

	for (size_t k = 0; k < fn->relocs.n; k++) {
		struct bo_reloc *r = &fn->relocs.v[k];
		if (r->kind == BO_RELOC_CALL && r->target != NULL && strcmp(r->target, "dt_error") == 0) {
			r->target = "dt_fault";
			changed = true;
		}
	}
	return changed;
}

/*
 * emit_fault_path()'s call `r1 = dctx->ctx; r2 = dctx; r3 = clause; call`:
 * dt_fault reads no context (dt_error hands it to the ERROR clauses).
 */
bool cg_spec_fault_ctx(struct bo_func *fn)
{
	struct bpf_insn *v = fn->insns.v;
	const struct bpf_insn ctx = I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX);
	const struct bpf_insn dctx = I_MOV64_REG(BPF_R2, REG_DCTX);
	bool changed = false;

	for (size_t k = 0; k < fn->relocs.n; k++) {
		const struct bo_reloc *r = &fn->relocs.v[k];
		size_t c = r->insn;
		if (r->kind != BO_RELOC_CALL || r->target == NULL ||
		    strcmp(r->target, "dt_fault") != 0 || c < 3 || c >= fn->insns.n ||
		    !same_insn(&v[c - 3], &ctx) || !same_insn(&v[c - 2], &dctx) ||
		    v[c - 1].code != (BPF_ALU64 | BPF_MOV | BPF_K) || v[c - 1].dst_reg != BPF_R3)
			continue;
		v[c - 3] = NOP;
		changed = true;
	}
	return changed;
}

/* Whether every program that runs st runs it alone, as one function. */
static bool runs_alone(const struct dt_progset *ps, const struct dt_stmt *st)
{
	if (st->nparts != 1)
		return false;
	for (size_t i = 0; i < ps->groups.n; i++) {
		const struct dt_group *g = ps->groups.v[i];
		for (size_t k = 0; k < g->stmts.n; k++)
			if (g->stmts.v[k] == st && g->stmts.n != 1)
				return false;
	}
	return true;
}

void dt_cg_specialize(struct dt_pcb *pcb, struct dt_progset *ps, uint64_t wakemark,
		      bool error_clauses)
{
	struct dt_compiler *cc = pcb->cc;

	if (cc->core->opts.nooptimize)
		return;
	for (size_t s = 0; s < cc->stmts.n; s++) {
		struct dt_stmt *st = cc->stmts.v[s];
		bool alone = runs_alone(ps, st);
		for (size_t k = 0; k < st->nparts; k++) {
			struct bo_func *fn = st->parts[k];
			bool changed = cg_spec_wakemark(fn, wakemark);
			if (!error_clauses)
				changed |= cg_spec_skip_error(fn);
			changed |= cg_spec_fault_ctx(fn);
			/* (An ERROR clause runs from dt_error, after dt_fault: not alone.) */
			if (alone && !st->enables_error)
				changed |= cg_spec_ts(fn);
			if (changed)
				cg_opt_compact(pcb, fn);
		}
	}
}
