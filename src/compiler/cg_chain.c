/*
 * Clauses of a probe spread over programs chained by tail calls, when
 * they do not fit in one (the kernel's limits on functions and on the
 * verifier's work per program).  The first program runs the prologue and
 * the gate and takes the scratch nesting level; each ends by a tail call
 * to the next, the last releases the level.  The probe context (dctx)
 * lives on a program's stack, so it travels in the level's scratch area
 * (its last DCTX_SIZE bytes): pointers in it are found again (the context
 * is the tail call's; the scratch level is the one whose saved context
 * has the context's address, which no other chain running on the CPU
 * has, as each chain clears it when it ends), the rest is copied.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/maps.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "compiler/cg_chain.h"
#include "compiler/cg_impl.h"
#include "compiler/chain_plan.h"
#include "compiler/compiler.h"
#include "compiler/program.h"

/* dctx fields copied through the scratch area: all but its pointers (CTX, SCRATCH, NEST). */
static const int16_t carried[] = {
	DCTX_PRID, DCTX_TS, DCTX_ARGS + 0, DCTX_ARGS + 8, DCTX_ARGS + 16, DCTX_ARGS + 24,
	DCTX_ARGS + 32, DCTX_ARGS + 40, DCTX_ARGS + 48, DCTX_ARGS + 56, DCTX_ARGS + 64,
	DCTX_ARGS + 72, DCTX_ERRNO, DCTX_EPID, DCTX_FAULT_PC, DCTX_KSTACK, DCTX_TASK,
};

uint32_t cg_chain_carry_off(struct dt_compiler *cc)
{
	return cg_locals_base(cc) + DT_ALIGN(cc->locals_size, 8);
}

typedef DT_VEC(const char *) name_vec;
typedef DT_VEC(const struct bo_func *) func_vec;

static const struct bo_func *object_func(const struct dt_compiler *cc, const char *name)
{
	for (size_t i = 0; i < cc->obj->funcs.n; i++)
		if (strcmp(cc->obj->funcs.v[i]->name, name) == 0)
			return cc->obj->funcs.v[i];
	return NULL;
}

static bool has_name(const name_vec *v, const char *name)
{
	for (size_t i = 0; i < v->n; i++)
		if (strcmp(v->v[i], name) == 0)
			return true;
	return false;
}

/*
 * The maps fn uses, and those of the object's functions it calls, each
 * once, added to out.  (The run-time library's are in the reserve.)
 */
static int func_maps(const struct dt_compiler *cc, const struct bo_func *fn, name_vec *out,
		     func_vec *seen)
{
	func_vec todo = { 0 };
	int rc = 0;

	if (fn == NULL)
		return 0;
	if (dt_vec_push(&todo, fn) < 0)
		return -ENOMEM;
	while (todo.n > 0 && rc == 0) {
		const struct bo_func *f = todo.v[--todo.n];
		bool done = false;
		for (size_t i = 0; i < seen->n && !done; i++)
			done = seen->v[i] == f;
		if (done)
			continue;
		if (dt_vec_push(seen, f) < 0) {
			rc = -ENOMEM;
			break;
		}
		for (size_t i = 0; i < f->relocs.n && rc == 0; i++) {
			const struct bo_reloc *r = &f->relocs.v[i];
			const struct bo_func *callee;
			if (r->kind == BO_RELOC_MAP_FD && !has_name(out, r->target))
				rc = dt_vec_push(out, r->target) < 0 ? -ENOMEM : 0;
			else if (r->kind == BO_RELOC_CALL && (callee = object_func(cc, r->target)) != NULL)
				rc = dt_vec_push(&todo, callee) < 0 ? -ENOMEM : 0;
		}
	}
	dt_vec_free(&todo);
	return rc;
}

/* The distinct maps of one clause function (seen: scratch for func_maps). */
static int clause_maps(const struct dt_compiler *cc, const struct bo_func *fn, name_vec *out)
{
	func_vec seen = { 0 };
	int rc = func_maps(cc, fn, out, &seen);

	dt_vec_free(&seen);
	return rc;
}

size_t cg_chain_error_maps(struct dt_compiler *cc, const struct dt_group *eg)
{
	name_vec all = { 0 };
	size_t n;
	int rc = 0;

	for (size_t i = 0; eg != NULL && i < eg->stmts.n && rc == 0; i++)
		for (size_t k = 0; k < eg->stmts.v[i]->nparts && rc == 0; k++)
			rc = clause_maps(cc, eg->stmts.v[i]->parts[k], &all);
	n = all.n;
	dt_vec_free(&all);
	return n;
}

int cg_chain_plan(struct dt_compiler *cc, struct dt_group *g, size_t error_funcs,
		  size_t error_maps)
{
	struct dt_chain_limits lim;
	size_t n = 0, nclauses = g->stmts.n;
	int rc = 0;

	/* What the chain divides: each clause's functions (its parts), in order. */
	for (size_t i = 0; i < nclauses; i++)
		n += g->stmts.v[i]->nparts;
	g->nsegs = 1;
	if (n == 0)
		return 0;
	struct dt_clause_cost *cost = calloc(n, sizeof(*cost));
	name_vec *maps = calloc(n, sizeof(*maps));
	size_t *ends = dt_arena_zalloc(&cc->core->arena, n * sizeof(*ends));
	if (cost == NULL || maps == NULL || ends == NULL) {
		free(cost), free(maps);
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	}
	for (size_t i = 0, u = 0; i < nclauses && rc == 0; i++) {
		const struct dt_stmt *st = g->stmts.v[i];
		for (size_t k = 0; k < st->nparts && rc == 0; k++, u++) {
			cost[u].funcs = 1;
			cost[u].insns = st->parts[k]->insns.n;
			rc = clause_maps(cc, st->parts[k], &maps[u]);
			cost[u].maps = maps[u].v;
			cost[u].nmaps = maps[u].n;
		}
	}
	dt_chain_limits_default(&lim, error_funcs, error_maps);
	int nseg = rc < 0 ? rc : dt_chain_plan(cost, n, &lim, ends);
	free(cost);
	for (size_t i = 0; i < n; i++)
		dt_vec_free(&maps[i]);
	free(maps);
	if (nseg == -ENOMEM)
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	if (nseg < 0) {
		char desc[512];
		dt_probe_fullname(g->probes.v[0], desc, sizeof(desc));
		return dt_set_error(cc->core, -E2BIG, "failed to enable '%s': its %zu clauses need more "
				    "than %zu BPF programs chained by tail calls, and the kernel makes "
				    "at most %d tail calls per firing (a program holds at most %zu "
				    "clauses or parts of one, %zu of their instructions and %zu maps "
				    "of theirs): enable fewer clauses on the probe, or make them "
				    "smaller", desc, nclauses,
				    lim.max_progs, DT_BPF_MAX_TAIL_CALLS, lim.max_funcs, lim.max_insns,
				    lim.max_maps);
	}
	g->nsegs = (unsigned)nseg;
	g->seg_ends = ends;
	/* The chain carries the probe context in scratch memory. */
	if (nseg > 1)
		g->uses_scratch = true;
	return 0;
}

void cg_chain_next(struct dt_cg *cg, const char *head, unsigned k, int dctx)
{
	char map[64];

	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_FP, dctx + DCTX_SCRATCH));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R7, (int32_t)cg_chain_carry_off(cg->cc)));
	for (size_t i = 0; i < sizeof(carried) / sizeof(carried[0]); i++) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, dctx + carried[i]));
		cg_emit(cg, I_STX(BPF_DW, BPF_R7, BPF_R1, carried[i]));
	}
	/* The context's address marks the level as this firing's (cg_chain_resume). */
	cg_emit(cg, I_STX(BPF_DW, BPF_R7, BPF_R6, DCTX_CTX));
	dt_chain_map_name(head, map, sizeof(map));
	const char *name = dt_arena_strdup(&cg->cc->core->arena, map);
	if (name == NULL)
		dt_cnomem(cg->pcb);
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_ld_map_fd(cg, BPF_R2, name);
	cg_emit(cg, I_MOV64_IMM(BPF_R3, (int32_t)k));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_tail_call));
	/* Only if the next program is missing: the chain ends here, released by the caller. */
}

void cg_chain_unmark(struct dt_cg *cg, int dctx)
{
	int none = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, dctx + DCTX_SCRATCH));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, none);
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, (int32_t)cg_chain_carry_off(cg->cc)));
	cg_emit(cg, I_ST(BPF_DW, BPF_R1, DCTX_CTX, 0));
	cg_label_place(cg, none);
}

void cg_chain_resume(struct dt_cg *cg, int dctx, int pctx, int lvl, int release, int skip)
{
	int key = cg_stack_alloc(cg, 8);
	int found = cg_label_new(cg);

	cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_SCRATCH, 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, lvl, 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, key, 0));
	cg_ld_map_fd(cg, BPF_R1, MAP_CPUINFO);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	/* (The CPU's own entry of a per-CPU array: never missing.) */
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	cg_emit(cg, I_MOV64_REG(BPF_R7, BPF_R0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, dctx + DCTX_NEST));
	if (pctx != 0)
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, pctx));
	/*
	 * The first program's level: the one in use whose saved context is
	 * this firing's (other firings on this CPU, preempted, may hold
	 * levels too, in any order).
	 */
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R0, DT_SCRATCH_NEST));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	for (int i = 0; i < DT_SCRATCH_NEST; i++) {
		int next = cg_label_new(cg);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R8, BPF_R7, CPU_NEST));
		cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, 1 << i));
		cg_jmp_imm(cg, BPF_JEQ, BPF_R8, 0, next);
		cg_emit(cg, I_MOV64_REG(BPF_R0, BPF_R9));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R0, i));
		cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, key));
		cg_ld_map_fd(cg, BPF_R1, MAP_SCRATCH);
		cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
		cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
		cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, next);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0,
				  (int32_t)cg_chain_carry_off(cg->cc) + DCTX_CTX));
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, lvl, 1 << i));
		cg_jmp_reg(cg, BPF_JEQ, BPF_R1, BPF_R6, found);
		cg_label_place(cg, next);
	}
	/* (Not found: cannot be; then no level is given back.) */
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, lvl, 0));
	cg_ja(cg, release);
	cg_label_place(cg, found);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx + DCTX_SCRATCH));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R6, dctx + DCTX_CTX));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R0, (int32_t)cg_chain_carry_off(cg->cc)));
	for (size_t i = 0; i < sizeof(carried) / sizeof(carried[0]); i++) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, carried[i]));
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx + carried[i]));
	}
}
