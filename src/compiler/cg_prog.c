/*
 * The program builder: probes enabled by the same ordered set of clauses
 * and fired by the same mechanism share one BPF program, made of the
 * mechanism's prologue (probe id, arguments), the state gate, per-CPU
 * scratch, and calls of the clause functions.  Also the fault recorder
 * and ERROR dispatcher every object has, and the object's maps.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/rdesc.h"
#include "compiler/cg.h"
#include "compiler/cg_chain.h"
#include "compiler/cg_dctx.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_specialize.h"
#include "compiler/cg_stack.h"
#include "compiler/cg_vtime.h"
#include "compiler/chain_plan.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/vars.h"

/* Clauses enabled on each probe, in program order. */
struct probe_clauses {
	struct dt_probe *prp;
	DT_VEC(struct dt_stmt *) stmts;
};

static bool same_clauses(const struct probe_clauses *a, const struct dt_group *g)
{
	if (a->stmts.n != g->stmts.n)
		return false;
	for (size_t i = 0; i < a->stmts.n; i++)
		if (a->stmts.v[i] != g->stmts.v[i])
			return false;
	return true;
}


/*
 * What one entry of aggregation ad takes of aggsize, as DTrace counts it:
 * a string key takes strsize bytes whatever its own size (the map holds
 * only as much as the longest string the key can be), so that aggsize
 * holds as many entries as it does in DTrace, and a full one drops as
 * DTrace's does.
 */
static uint64_t agg_entry_size(const struct dt_compiler *cc, const struct dt_aggdesc *ad)
{
	uint64_t key = 0;

	for (int i = 0; i < ad->nkeys; i++)
		key += ad->keys[i].kind == DT_AGGKEY_STRING
		       ? DT_ALIGN((uint64_t)cc->core->opts.strsize, 8) : ad->keys[i].size;
	if (key < ad->key_size)
		key = ad->key_size;
	return key + ad->value_size;
}
static int form_groups(struct dt_compiler *cc, struct dt_progset *ps)
{
	size_t np = cc->reg->probes.n;
	struct probe_clauses *pc = calloc(np + 1, sizeof(*pc));
	int rc = 0;

	if (pc == NULL)
		return -ENOMEM;
	for (size_t s = 0; s < cc->stmts.n; s++) {
		struct dt_stmt *st = cc->stmts.v[s];
		for (size_t i = 0; i < st->probes.n; i++) {
			struct dt_probe *prp = st->probes.v[i];
			struct probe_clauses *p = &pc[prp->id];
			p->prp = prp;
			/* Once per description that matched it, as DTrace. */
			if (dt_vec_push(&p->stmts, st) < 0) {
				rc = -ENOMEM;
				goto out;
			}
		}
	}
	for (size_t id = 1; id <= np; id++) {
		struct probe_clauses *p = &pc[id];
		if (p->prp == NULL)
			continue;
		const char *mclass = p->prp->prov->mech_class(p->prp);
		struct dt_group *g = NULL;
		for (size_t j = 0; j < ps->groups.n; j++) {
			struct dt_group *c = ps->groups.v[j];
			if (c->prov == p->prp->prov && strcmp(c->mclass, mclass) == 0 &&
			    same_clauses(p, c)) {
				g = c;
				break;
			}
		}
		if (g == NULL) {
			g = dt_arena_zalloc(&cc->core->arena, sizeof(*g));
			if (g == NULL || dt_vec_push(&ps->groups, g) < 0) {
				rc = -ENOMEM;
				goto out;
			}
			g->prov = p->prp->prov;
			g->mclass = mclass;
			snprintf(g->name, sizeof(g->name), "dt_prog_%zu", ps->groups.n - 1);
			for (size_t k = 0; k < p->stmts.n; k++) {
				struct dt_stmt *st = p->stmts.v[k];
				if (dt_vec_push(&g->stmts, st) < 0) {
					rc = -ENOMEM;
					goto out;
				}
				g->args_used |= st->args_used;
				g->uses_scratch |= st->uses_scratch;
			}
		}
		if (dt_vec_push(&g->probes, p->prp) < 0) {
			rc = -ENOMEM;
			goto out;
		}
	}
out:
	for (size_t id = 0; id <= np; id++)
		dt_vec_free(&pc[id].stmts);
	free(pc);
	return rc;
}

/* Give back the level whose mask is at fp + lvl (none if 0). */
static void scratch_release(struct dt_cg *cg, int dctx, int lvl)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_FP, dctx + DCTX_NEST));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, lvl));
	cg_emit(cg, I_ALU64_IMM(BPF_XOR, BPF_R1, -1));
	cg_emit(cg, bpf_insn(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_R7, BPF_R1, CPU_NEST, BPF_AND));
}

/*
 * A firing's scratch area is one of the CPU's DT_SCRATCH_NEST levels: bit
 * k of the CPU's CPU_NEST word is set while level k is in use.  A bit per
 * level, not a count of levels: programs the kernel may preempt (uprobes;
 * fentry and system call tracepoints on a preemptible kernel) give their
 * levels back in any order, and a count would then hand out a level a
 * preempted program still uses.  The mask of the level taken is kept at
 * fp + lvl for scratch_release.  With every level taken the firing is not
 * run and counted as a nested probe drop.
 */
static void scratch_acquire(struct dt_cg *cg, int dctx, int lvl, int skip)
{
	int key = cg_stack_alloc(cg, 8);
	int got = cg_label_new(cg), bad = cg_label_new(cg);

	cg_emit(cg, I_ST(BPF_DW, BPF_FP, lvl, 0));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, key, 0));
	cg_ld_map_fd(cg, BPF_R1, MAP_CPUINFO);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	cg_emit(cg, I_MOV64_REG(BPF_R7, BPF_R0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, dctx + DCTX_NEST));
	for (int k = 0; k < DT_SCRATCH_NEST; k++) {
		int taken = cg_label_new(cg);
		cg_emit(cg, I_MOV64_IMM(BPF_R8, 1 << k));
		cg_emit(cg, bpf_insn(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_R7, BPF_R8, CPU_NEST,
				     BPF_OR | BPF_FETCH));
		cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R8, 1 << k));
		cg_jmp_imm(cg, BPF_JNE, BPF_R8, 0, taken);
		cg_emit(cg, I_MOV64_IMM(BPF_R8, k));
		cg_ja(cg, got);
		cg_label_place(cg, taken);
	}
	cg_emit(cg, I_MOV64_IMM(BPF_R1, 1));
	cg_emit(cg, I_XADD(BPF_DW, BPF_R7, BPF_R1, CPU_NESTED_DROPS));
	cg_ja(cg, skip);
	cg_label_place(cg, got);
	cg_emit(cg, I_MOV64_IMM(BPF_R1, 1));
	cg_emit(cg, I_ALU64_REG(BPF_LSH, BPF_R1, BPF_R8));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, lvl));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R0, DT_SCRATCH_NEST));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R8));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, key));
	cg_ld_map_fd(cg, BPF_R1, MAP_SCRATCH);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, bad);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx + DCTX_SCRATCH));
	int ok = cg_label_new(cg);
	cg_ja(cg, ok);
	/* No area (cannot be: the map has every CPU's levels): give the level back. */
	cg_label_place(cg, bad);
	scratch_release(cg, dctx, lvl);
	cg_ja(cg, skip);
	cg_label_place(cg, ok);
}

static void call_func(struct dt_cg *cg, const struct bo_func *fn, int dctx)
{
	/* The context and dctx arguments only when the clause reads them. */
	uint16_t args = cg->cc->core->opts.nooptimize
				? (1u << BPF_R1) | (1u << BPF_R2)
				: cg_func_entry_reads(fn->insns.v, fn->insns.n);
	if (args & (1u << BPF_R1))
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	if (args & (1u << BPF_R2)) {
		cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, dctx));
	}
	struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL, .target = fn->name };
	if (dt_vec_push(&cg->fn->relocs, r) < 0)
		dt_cnomem(cg->pcb);
	cg_emit(cg, I_CALL_PSEUDO());
}

/*
 * A mechanism that binds one probe per program (fentry/fexit) gets a
 * group per probe: the first probe stays in g, each other one moves to a
 * new group with the same clauses, appended to ps->groups.
 */
static int split_group(struct dt_compiler *cc, struct dt_progset *ps, struct dt_group *g)
{
	while (g->probes.n > 1) {
		struct dt_group *ng = dt_arena_zalloc(&cc->core->arena, sizeof(*ng));
		if (ng == NULL || dt_vec_push(&ps->groups, ng) < 0)
			return -ENOMEM;
		ng->prov = g->prov;
		ng->mech = g->mech;
		ng->mclass = g->mclass;
		ng->args_used = g->args_used;
		ng->uses_scratch = g->uses_scratch;
		snprintf(ng->name, sizeof(ng->name), "dt_prog_%zu", ps->groups.n - 1);
		for (size_t k = 0; k < g->stmts.n; k++)
			if (dt_vec_push(&ng->stmts, g->stmts.v[k]) < 0)
				return -ENOMEM;
		if (dt_vec_push(&ng->probes, g->probes.v[--g->probes.n]) < 0)
			return -ENOMEM;
	}
	return 0;
}

static struct bo_func *new_func(struct dt_compiler *cc, const char *name, const char *section,
				unsigned nargs)
{
	struct bo_func *fn = dt_arena_zalloc(&cc->core->arena, sizeof(*fn));

	if (fn == NULL)
		return NULL;
	fn->name = dt_arena_strdup(&cc->core->arena, name);
	fn->section = section;
	fn->nargs = nargs;
	if (dt_vec_push(&cc->obj->funcs, fn) < 0)
		return NULL;
	return fn;
}

struct bo_func *dt_cg_new_func(struct dt_compiler *cc, const char *name, const char *section,
			       unsigned nargs)
{
	return new_func(cc, name, section, nargs);
}

/*
 * The CPU's probe context: taken (its count from 0 to 1) into the slot
 * at fp + pctx, or, if a program of the object is running on this CPU
 * already, a nested probe drop and a jump to `skip`.
 */
static void pctx_enter(struct dt_cg *cg, int pctx, int skip)
{
	int nested = cg_label_new(cg);

	cg_emit(cg, I_ST(BPF_DW, BPF_FP, pctx, 0));
	cg_ld_map_fd(cg, BPF_R1, MAP_CPUINFO);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, pctx));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, pctx));
	cg_emit(cg, I_MOV64_IMM(BPF_R1, 1));
	cg_emit(cg, bpf_insn(BPF_STX | BPF_ATOMIC | BPF_DW, BPF_R0, BPF_R1, CPU_PCTX,
			     BPF_ADD | BPF_FETCH));
	cg_jmp_imm(cg, BPF_JNE, BPF_R1, 0, nested);
	int ok = cg_label_new(cg);
	cg_ja(cg, ok);
	cg_label_place(cg, nested);
	cg_emit(cg, I_MOV64_IMM(BPF_R1, -1));
	cg_emit(cg, I_XADD(BPF_DW, BPF_R0, BPF_R1, CPU_PCTX));
	cg_emit(cg, I_MOV64_IMM(BPF_R1, 1));
	cg_emit(cg, I_XADD(BPF_DW, BPF_R0, BPF_R1, CPU_NESTED_DROPS));
	cg_ja(cg, skip);
	cg_label_place(cg, ok);
}

static void pctx_leave(struct dt_cg *cg, int pctx)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, pctx));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, -1));
	cg_emit(cg, I_XADD(BPF_DW, BPF_R1, BPF_R2, CPU_PCTX));
}

/* Every part of every clause, in order: the calls a chain's segments divide. */
static size_t group_funcs(const struct dt_group *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->stmts.n; i++)
		n += g->stmts.v[i]->nparts;
	return n;
}

/*
 * The clause functions of program `seg` of g's chain (all of them if
 * there is no chain): a clause's parts run one after the other, and
 * exit() is looked at once the clause's last part has run.
 */
static void call_clauses(struct dt_cg *cg, struct dt_group *g, unsigned seg, int dctx, int out,
			 bool end)
{
	size_t from = seg > 0 ? g->seg_ends[seg - 1] : 0;
	size_t to = g->nsegs > 1 ? g->seg_ends[seg] : group_funcs(g);
	size_t u = 0;

	for (size_t i = 0; i < g->stmts.n && u < to; i++) {
		struct dt_stmt *st = g->stmts.v[i];
		for (size_t k = 0; k < st->nparts; k++, u++) {
			if (u < from || u >= to)
				continue;
			call_func(cg, st->parts[k], dctx);
			/* After exit() (here or in an ERROR clause), the probe's remaining clauses do not run. */
			if ((st->has_exit || st->may_fault) && !end && k + 1 == st->nparts &&
			    i + 1 < g->stmts.n) {
				cg_ld_bss(cg, BPF_R1, BSS_STATE);
				cg_emit(cg, I_LDX(BPF_W, BPF_R1, BPF_R1, 0));
				cg_jmp_imm(cg, BPF_JEQ, BPF_R1, DT_STATE_DRAINING, out);
			}
		}
	}
}

/*
 * Program k (1 ..) of the chain that starts with program `head`: the
 * probe context and scratch level the first program took, its clauses,
 * the tail call to the next, or, at the end, the level given back.
 */
static void build_link(struct dt_pcb *pcb, struct dt_group *g, const char *head,
		       const char *section, unsigned k, bool pctx_held, bool end)
{
	struct dt_cg cg;
	char name[64];

	dt_chain_prog_name(head, k, name, sizeof(name));
	struct bo_func *fn = new_func(pcb->cc, name, section, 1);
	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&cg, pcb, pcb->cc->obj, fn);
	int skip = cg_label_new(&cg), out = cg_label_new(&cg);
	int dctx = cg_stack_alloc(&cg, DCTX_SIZE);
	int pctx = pctx_held ? cg_stack_alloc(&cg, 8) : 0;
	int lvl = cg_stack_alloc(&cg, 8);

	cg_emit(&cg, I_MOV64_REG(BPF_R6, BPF_R1));
	cg_chain_resume(&cg, dctx, pctx, lvl, out, skip);
	call_clauses(&cg, g, k, dctx, out, end);
	if (k + 1 < g->nsegs)
		cg_chain_next(&cg, head, k + 1, dctx);
	cg_label_place(&cg, out);
	cg_chain_unmark(&cg, dctx);
	scratch_release(&cg, dctx, lvl);
	if (pctx != 0)
		pctx_leave(&cg, pctx);
	cg_label_place(&cg, skip);
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());
	cg_resolve(&cg);
	cg_fini(&cg);
}

/*
 * A program of one probe whose attach cookie is the probe's id: the
 * prologue's cookie calls from `from` on give that constant instead, and
 * where one's result goes straight into DCTX_PRID, the word's first store
 * (at `zero`, 0 before: the flags) stores the id (little-endian: the low
 * half) and that store goes.  The optimiser drops what is left unread.
 */
static void cookie_known(struct dt_cg *cg, uint32_t zero, uint32_t from, int dctx,
			 uint32_t prid)
{
	struct bo_func *fn = cg->fn;
	struct bpf_insn *z = &fn->insns.v[zero];

	if (prid > INT32_MAX)
		return;
	for (size_t i = from; i < fn->insns.n; i++) {
		struct bpf_insn *in = &fn->insns.v[i];
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			i++;
			continue;
		}
		if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0 ||
		    in->imm != BPF_FUNC_get_attach_cookie)
			continue;
		*in = I_MOV64_IMM(BPF_R0, (int32_t)prid);
		struct bpf_insn st = I_STX(BPF_W, BPF_FP, BPF_R0, (int16_t)(dctx + DCTX_PRID));
		struct bpf_insn zst = I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_PRID), 0);
		if (i + 1 < fn->insns.n && memcmp(&fn->insns.v[i + 1], &st, sizeof(st)) == 0) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			if (memcmp(z, &zst, sizeof(zst)) == 0) {
				z->imm = (int32_t)prid;
				fn->insns.v[i + 1] = I_JA(0);
				continue;
			}
#endif
			fn->insns.v[i + 1] = I_ST(BPF_W, BPF_FP, st.off, (int32_t)prid);
		}
	}
}

/*
 * `exclusive`: a mechanism of the object fires in code the object's own
 * programs run (fexit on the kernel's lock functions).  Then, as DTrace
 * fires no probe in probe context, no program runs inside another on a
 * CPU: one that would is counted as a nested probe drop.  Otherwise a
 * program taking a lock another holds on the same CPU (the ring buffer's)
 * would deadlock.
 */
static void build_program(struct dt_pcb *pcb, struct dt_group *g, bool exclusive,
			  bool error_scratch)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_cg cg;
	const char *section = g->mech->group_section ? g->mech->group_section(cc->reg, g)
						     : g->mech->section;
	char name[48];

	snprintf(name, sizeof(name), g->copy ? "%s_%u" : "%s", g->name, g->copy);
	struct bo_func *fn = section ? new_func(cc, name, section, 1) : NULL;
	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&cg, pcb, cc->obj, fn);
	if (g->copy == 0)
		g->fn = fn;
	int skip = cg_label_new(&cg);
	int dctx = cg_stack_alloc(&cg, DCTX_SIZE);
	/* dt_error hands this program's scratch area to the ERROR clauses. */
	bool scratch = g->uses_scratch;
	for (size_t i = 0; error_scratch && i < g->stmts.n; i++)
		scratch |= g->stmts.v[i]->may_fault;

	cg_emit(&cg, I_MOV64_REG(BPF_R6, BPF_R1));
	if (g->mech->gated) {
		/* In r0: r1 still holds the context for the prologue's first call. */
		cg_ld_bss(&cg, BPF_R0, BSS_STATE);
		cg_emit(&cg, I_LDX(BPF_W, BPF_R0, BPF_R0, 0));
		cg_jmp_imm(&cg, BPF_JNE, BPF_R0, DT_STATE_ACTIVE, skip);
	}
	/*
	 * -x cpu: probes fire on that CPU only (as DTrace).  Perf events are
	 * opened on it alone; the rest are checked here (BEGIN and END run
	 * on it: the consumer asks the kernel to).
	 */
	if (cc->core->opts.cpu >= 0 && !g->mech->by_consumer) {
		cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
		cg_jmp_imm(&cg, BPF_JNE, BPF_R0, (int32_t)cc->core->opts.cpu, skip);
	}
	/* (BEGIN and END run by the consumer: nothing of the object runs then.) */
	int pctx = 0, leave = skip, lvl = 0;
	if (exclusive && !g->mech->by_consumer) {
		pctx = cg_stack_alloc(&cg, 8);
		leave = cg_label_new(&cg);
		pctx_enter(&cg, pctx, skip);
	}
	uint32_t prid_zero = cg_pos(&cg);
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_PRID, 0));
	cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R6, dctx + DCTX_CTX));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_SCRATCH, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_TS, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_NEST, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_ERRNO, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_EPID, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_FAULT_PC, 0));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_KSTACK, (int32_t)cg_stack_kskip(g->mech)));
	cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_TASK, 0));
	uint32_t prologue = cg_pos(&cg);
	g->mech->cg_prologue(&cg, g, dctx, g->args_used, leave);
	if (g->mech->cookie_is_prid && g->probes.n == 1 && !cc->core->opts.nooptimize)
		cookie_known(&cg, prid_zero, prologue, dctx, g->probes.v[0]->id);
	if (scratch) {
		lvl = cg_stack_alloc(&cg, 8);
		scratch_acquire(&cg, dctx, lvl, leave);
		/* strtok()'s state lives for one firing. */
		if (cc->uses_strtok) {
			cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, dctx + DCTX_SCRATCH));
			cg_emit(&cg, I_ALU64_IMM(BPF_ADD, BPF_R1,
						 (int32_t)(cg_locals_base(cc) + cc->strtok_off)));
			cg_emit(&cg, I_ST(BPF_DW, BPF_R1, 0, 0));
		}
	}
	int out = cg_label_new(&cg);
	/* END runs draining: all its clauses run, exit() or not (as in DTrace). */
	bool end = g->mech->by_consumer && strcmp(g->probes.v[0]->desc[3], "END") == 0;
	/* bufpolicy=fill: END's records have room of their own (DTrace keeps it for them). */
	if (end && cc->core->opts.bufpolicy == DT_BUFPOLICY_FILL) {
		cg_ld_bss(&cg, BPF_R1, BSS_FILLED);
		cg_emit(&cg, I_ST(BPF_W, BPF_R1, 0, 0));
	}
	call_clauses(&cg, g, 0, dctx, out, end);
	if (g->nsegs > 1)
		cg_chain_next(&cg, name, 1, dctx);
	cg_label_place(&cg, out);
	if (g->nsegs > 1)
		cg_chain_unmark(&cg, dctx);
	if (scratch)
		scratch_release(&cg, dctx, lvl);
	if (pctx != 0) {
		cg_label_place(&cg, leave);
		pctx_leave(&cg, pctx);
	}
	cg_label_place(&cg, skip);
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());
	if (!cc->core->opts.nooptimize)
		cg_dctx_trim(&cg, dctx);
	cg_resolve(&cg);
	cg_fini(&cg);
	for (unsigned k = 1; k < g->nsegs; k++)
		build_link(pcb, g, name, section, k, exclusive && !g->mech->by_consumer, end);
}

/*
 * dt_fault(ctx, dctx, stmt): write an error record with the fault the
 * clause left in its dctx, for the consumer to report.
 */
static void build_fault(struct dt_pcb *pcb, bool exclusive)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_cg cg;
	struct bo_func *fn = new_func(cc, "dt_fault", NULL, 3);
	uint32_t size = DT_REC_DATA_OFF + sizeof(struct dt_rec_error);

	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&cg, pcb, cc->obj, fn);
	int done = cg_label_new(&cg);
	cg_emit(&cg, I_MOV64_REG(BPF_R6, BPF_R2));
	cg_emit(&cg, I_MOV64_REG(BPF_R8, BPF_R3));
	cg_ld_map_fd(&cg, BPF_R1, MAP_RING);
	cg_emit(&cg, I_MOV64_IMM(BPF_R2, (int32_t)size));
	cg_emit(&cg, I_MOV64_IMM(BPF_R3, 0));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	cg_jmp_imm(&cg, BPF_JEQ, BPF_R0, 0, done);
	cg_emit(&cg, I_MOV64_REG(BPF_R7, BPF_R0));
	cg_emit(&cg, I_ST(BPF_W, BPF_R7, 0, 0));	/* rdesc 0: errors */
	cg_emit(&cg, I_LDX(BPF_W, BPF_R1, BPF_R6, DCTX_PRID));
	cg_emit(&cg, I_STX(BPF_W, BPF_R7, BPF_R1, 4));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	cg_rec_cpu_spec(&cg, BPF_R7);
	int have_ts = cg_label_new(&cg);
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, DCTX_TS));
	cg_jmp_imm(&cg, BPF_JNE, BPF_R0, 0, have_ts);
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R6, BPF_R0, DCTX_TS));
	cg_label_place(&cg, have_ts);
	cg_emit(&cg, I_STX(BPF_DW, BPF_R7, BPF_R0, DT_REC_TS_OFF));
	int d = DT_REC_DATA_OFF;
	cg_emit(&cg, I_STX(BPF_W, BPF_R7, BPF_R8, d + offsetof(struct dt_rec_error, stmt)));
	cg_emit(&cg, I_LDX(BPF_W, BPF_R1, BPF_R6, DCTX_FLAGS));
	cg_emit(&cg, I_MOV64_REG(BPF_R2, BPF_R1));
	cg_emit(&cg, I_ALU64_IMM(BPF_AND, BPF_R1, 0xffff));
	cg_emit(&cg, I_ALU64_IMM(BPF_RSH, BPF_R2, 16));
	cg_emit(&cg, I_STX(BPF_W, BPF_R7, BPF_R1, d + offsetof(struct dt_rec_error, fault)));
	cg_emit(&cg, I_STX(BPF_W, BPF_R7, BPF_R2, d + offsetof(struct dt_rec_error, action)));
	cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_R6, DCTX_EPID));
	cg_emit(&cg, I_STX(BPF_DW, BPF_R7, BPF_R1, d + offsetof(struct dt_rec_error, addr)));
	cg_emit(&cg, I_LDX(BPF_W, BPF_R1, BPF_R6, DCTX_FAULT_PC));
	cg_emit(&cg, I_STX(BPF_W, BPF_R7, BPF_R1, d + offsetof(struct dt_rec_error, pc)));
	cg_emit(&cg, I_MOV64_REG(BPF_R1, BPF_R7));
	/* (No wake-up where probes fire in lock functions: see wakemark() in go.c.) */
	cg_emit(&cg, I_MOV64_IMM(BPF_R2, exclusive ? BPF_RB_NO_WAKEUP : BPF_RB_FORCE_WAKEUP));
	cg_emit(&cg, I_CALL_HELPER(BPF_FUNC_ringbuf_submit));
	cg_label_place(&cg, done);
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());
	cg_resolve(&cg);
	cg_fini(&cg);
}

/*
 * dt_error(ctx, dctx, stmt): record the fault, then run the ERROR clauses
 * with DTrace's ERROR arguments: arg1 the enabled probe, arg2 the action,
 * arg3 the offset, arg4 the fault, arg5 the address.
 */
static void build_error(struct dt_pcb *pcb, struct dt_group *eg)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_cg cg;
	struct bo_func *fn = new_func(cc, "dt_error", NULL, 3);

	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(&cg, pcb, cc->obj, fn);
	cg_emit(&cg, I_MOV64_REG(BPF_R6, BPF_R1));
	cg_emit(&cg, I_MOV64_REG(BPF_R7, BPF_R2));
	cg_emit(&cg, I_MOV64_REG(BPF_R8, BPF_R3));
	struct bo_reloc r = { .insn = cg_pos(&cg), .kind = BO_RELOC_CALL, .target = "dt_fault" };
	if (dt_vec_push(&fn->relocs, r) < 0)
		dt_cnomem(pcb);
	cg_emit(&cg, I_CALL_PSEUDO());
	if (eg != NULL && eg->stmts.n > 0) {
		int dctx = cg_stack_alloc(&cg, DCTX_SIZE);
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_PRID, 0));
		cg_emit(&cg, I_ST(BPF_W, BPF_FP, dctx + DCTX_PRID, (int32_t)eg->probes.v[0]->id));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R6, dctx + DCTX_CTX));
		cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_R7, DCTX_SCRATCH));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx + DCTX_SCRATCH));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_TS, 0));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_NEST, 0));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_ERRNO, 0));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_EPID, 0));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_FAULT_PC, 0));
		cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_R7, DCTX_KSTACK));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx + DCTX_KSTACK));
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, dctx + DCTX_TASK, 0));
		/* As DTrace for Linux: arg0 0; arg1 the probe (its `id`); arg2 the
		 * clause (dt_clause_N); arg3 the offset; arg4 the fault; arg5 the
		 * address. */
		int a = dctx + DCTX_ARGS;
		cg_emit(&cg, I_ST(BPF_DW, BPF_FP, a, 0));
		cg_emit(&cg, I_LDX(BPF_W, BPF_R1, BPF_R7, DCTX_PRID));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R1, a + 8));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R8, a + 16));
		cg_emit(&cg, I_LDX(BPF_W, BPF_R1, BPF_R7, DCTX_FLAGS));
		cg_emit(&cg, I_LDX(BPF_W, BPF_R2, BPF_R7, DCTX_FAULT_PC));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R2, a + 24));
		cg_emit(&cg, I_ALU64_IMM(BPF_AND, BPF_R1, 0xffff));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R1, a + 32));
		cg_emit(&cg, I_LDX(BPF_DW, BPF_R1, BPF_R7, DCTX_EPID));
		cg_emit(&cg, I_STX(BPF_DW, BPF_FP, BPF_R1, a + 40));
		for (int i = 6; i < 10; i++)
			cg_emit(&cg, I_ST(BPF_DW, BPF_FP, a + 8 * i, 0));
		for (size_t i = 0; i < eg->stmts.n; i++)
			for (size_t k = 0; k < eg->stmts.v[i]->nparts; k++)
				call_func(&cg, eg->stmts.v[i]->parts[k], dctx);
	}
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());
	cg_resolve(&cg);
	cg_fini(&cg);
}

static int add_map(struct dt_compiler *cc, const char *name, uint32_t type, uint32_t ksize,
		   uint32_t vsize, uint32_t max, uint32_t flags)
{
	struct bo_map m = { .name = name, .type = type, .key_size = ksize, .value_size = vsize,
			    .max_entries = max, .flags = flags };

	return dt_vec_push(&cc->obj->maps, m) < 0 ? -ENOMEM : 0;
}

static uint32_t pow2_at_least(uint64_t v, uint32_t min)
{
	uint64_t p = min;

	while (p < v && p < (1u << 31))
		p <<= 1;
	return (uint32_t)p;
}

uint32_t dt_cg_drop_cpus(void)
{
	int ncpus = libbpf_num_possible_cpus();

	return pow2_at_least(ncpus > 0 ? (uint64_t)ncpus : 1, 1);
}

/*
 * How much waiting in the ring makes a record wake the consumer up: an
 * eighth of the buffer.  Never, where a mechanism fires in the kernel's
 * lock functions (lockstat's hold probes): the wake-up (an irq_work, in
 * the interrupted thread) takes locks whose probes would write records
 * that wake it again, for ever.  The consumer then reads at switchrate.
 */
uint64_t dt_cg_wakemark(const struct dt_compiler *cc, const struct dt_progset *ps)
{
	for (size_t i = 0; i < ps->groups.n; i++)
		if (ps->groups.v[i]->mech->exclusive)
			return UINT64_MAX;
	return (uint64_t)cc->core->opts.bufsize / 8;
}

uint32_t dt_cg_bss_base(void)
{
	return BSS_DROPS + dt_cg_drop_cpus() * BSS_DROPS_STRIDE;
}

/* The program array of each chain of g (one per copy of its program): program k at k. */
static int add_chain_maps(struct dt_compiler *cc, struct dt_group *g)
{
	unsigned copies = g->mech->copies ? g->mech->copies(cc->reg, g) : 0;
	char head[48], map[64];

	for (unsigned c = 0; c <= copies; c++) {
		snprintf(head, sizeof(head), c ? "%s_%u" : "%s", g->name, c);
		dt_chain_map_name(head, map, sizeof(map));
		const char *name = dt_arena_strdup(&cc->core->arena, map);
		if (name == NULL ||
		    add_map(cc, name, BPF_MAP_TYPE_PROG_ARRAY, 4, 4, g->nsegs, 0) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int add_maps(struct dt_compiler *cc, struct dt_progset *ps)
{
	int ncpus = libbpf_num_possible_cpus();
	uint32_t scratch = cg_locals_base(cc) + DT_ALIGN(cc->locals_size, 8);
	int rc = 0;

	/* Chained programs pass the probe context on at the end of the scratch area. */
	for (size_t i = 0; i < ps->groups.n; i++)
		if (ps->groups.v[i]->nsegs > 1) {
			scratch = cg_chain_carry_off(cc) + DCTX_SIZE;
			break;
		}

	if (ncpus <= 0)
		ncpus = 1;
	ps->ncpus = ncpus;
	/* As DTrace: a buffer must hold the largest record a clause writes. */
	for (size_t i = 0; i < cc->descs->rdescs.n; i++) {
		const struct dt_rdesc *rd = cc->descs->rdescs.v[i];
		if (rd != NULL && !rd->internal && (int64_t)rd->size > cc->core->opts.bufsize)
			return dt_set_error(cc->core, -E2BIG, "Enabling exceeds size of buffer");
	}
	rc |= add_map(cc, MAP_RING, BPF_MAP_TYPE_RINGBUF, 0, 0,
		      pow2_at_least((uint64_t)cc->core->opts.bufsize, 4096), 0);
	rc |= add_map(cc, MAP_CPUINFO, BPF_MAP_TYPE_PERCPU_ARRAY, 4, CPU_INFO_SIZE, 1, 0);
	rc |= add_map(cc, MAP_SCRATCH, BPF_MAP_TYPE_ARRAY, 4, scratch,
		      (uint32_t)ncpus * DT_SCRATCH_NEST, 0);
	if (cc->descs->need_curcpu_map)
		rc |= add_map(cc, MAP_CURCPU, BPF_MAP_TYPE_PERCPU_ARRAY, 4, CURCPU_SIZE, 1, 0);
	if (cc->descs->uses_usyms)
		rc |= add_map(cc, MAP_USEEN, BPF_MAP_TYPE_LRU_HASH, 8, 4, USEEN_MAX, 0);
	if (cc->descs->uses_vtime) {
		rc |= add_map(cc, MAP_VTIME, BPF_MAP_TYPE_LRU_HASH, 4, VTIME_VALUE, VTIME_MAX, 0);
		rc |= add_map(cc, MAP_VTIME_CPU, BPF_MAP_TYPE_PERCPU_ARRAY, 4, VTIME_VALUE, 1, 0);
	}
	if (cc->descs->need_probe_map)
		rc |= add_map(cc, MAP_PROBES, BPF_MAP_TYPE_ARRAY, 4, DT_PROBE_MAP_VALUE,
			      (uint32_t)cc->reg->probes.n + 1, 0);
	for (size_t i = 0; i < cc->dynvars.n; i++) {
		struct dt_ident *id = cc->dynvars.v[i];
		uint32_t ks = dt_var_key_size(cc, id), vs = id->size;
		/* As DTrace: an array that cannot hold one element cannot be enabled. */
		if (id->kind == IDK_ARRAY && (uint64_t)cc->core->opts.dynvarsize < (uint64_t)ks + vs)
			return dt_set_error(cc->core, -E2BIG, "Enabling exceeds size of buffer");
		/* Room for all of dynvarsize's variables: the shared count limits them. */
		uint64_t max = (uint64_t)dt_var_room(cc);
		if (max < 1)
			max = 1;
		if (max > (1u << 24))
			max = 1u << 24;
		rc |= add_map(cc, dt_var_map_name(cc, id), BPF_MAP_TYPE_HASH, ks, vs,
			      (uint32_t)max, BPF_F_NO_PREALLOC);
	}
	for (size_t i = 0; i < cc->descs->aggs.n; i++) {
		struct dt_aggdesc *ad = cc->descs->aggs.v[i];
		uint64_t max = (uint64_t)cc->core->opts.aggsize / agg_entry_size(cc, ad);
		/* DTrace's message (one entry of @name does not fit in aggsize). */
		if (max < 1)
			return dt_set_error(cc->core, -E2BIG, "Enabling exceeds size of buffer");
		if (max > (1u << 24))
			max = 1u << 24;
		if (dt_agg_keyless(ad))
			rc |= add_map(cc, ad->map_name, BPF_MAP_TYPE_PERCPU_ARRAY,
				      dt_agg_map_key_size(ad), dt_agg_map_value_size(ad), 1, 0);
		else
			rc |= add_map(cc, ad->map_name, BPF_MAP_TYPE_PERCPU_HASH, ad->key_size,
				      ad->value_size, (uint32_t)max, BPF_F_NO_PREALLOC);
	}
	/* (Filled with the aggregations' maps once loaded: lib/agg_outer.c.) */
	for (size_t i = 0; i < cc->descs->agg_outer.n; i++) {
		const struct dt_aggouter *o = cc->descs->agg_outer.v[i];
		rc |= add_map(cc, o->name, BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, o->n, 0);
	}
	for (size_t i = 0; i < ps->groups.n; i++) {
		struct dt_group *g = ps->groups.v[i];
		if (g->mech->add_maps != NULL && g->mech->add_maps(cc->reg, g, cc->obj) < 0)
			return -EINVAL;
		if (g->nsegs > 1 && add_chain_maps(cc, g) < 0)
			return -ENOMEM;
	}
	return rc ? -ENOMEM : 0;
}

int dt_cg_programs(struct dt_compiler *cc, struct dt_progset *ps)
{
	struct dt_pcb pcb;
	struct dt_arena arena = { 0 };
	struct dt_group *volatile error_group = NULL;
	int rc;

	memset(&pcb, 0, sizeof(pcb));
	pcb.cc = cc;
	pcb.arena = &arena;
	if (setjmp(pcb.jb) != 0) {
		dt_arena_free(&arena);
		return cc->core->err ? cc->core->err : -EINVAL;
	}
	if ((rc = form_groups(cc, ps)) < 0) {
		dt_arena_free(&arena);
		return dt_set_error(cc->core, rc, "out of memory");
	}
	bool exclusive = false;
	for (size_t i = 0; i < ps->groups.n; i++) {
		struct dt_group *g = ps->groups.v[i];
		const char *why = g->prov->unavailable ? g->prov->unavailable(cc->reg) : NULL;
		if (why != NULL) {
			dt_arena_free(&arena);
			return dt_set_error(cc->core, -ENOTSUP, "cannot enable %s probes: %s",
					    g->prov->name, why);
		}
		/* Groups split off below come with their mechanism chosen. */
		if (g->mech == NULL)
			g->mech = g->prov->choose(cc->reg, g);
		if (g->mech == NULL) {
			dt_arena_free(&arena);
			return cc->core->err ? cc->core->err : dt_set_error(cc->core, -ENOTSUP, "cannot enable %s probes",
								  g->prov->name);
		}
		if (g->mech->per_probe && g->probes.n > 1 && split_group(cc, ps, g) < 0) {
			dt_arena_free(&arena);
			return dt_set_error(cc->core, -ENOMEM, "out of memory");
		}
		exclusive |= g->mech->exclusive;
	}
	/* dt_error calls every ERROR clause: they take room in every program. */
	size_t error_funcs = 0, error_maps = 0;
	for (size_t i = 0; i < ps->groups.n; i++)
		if (ps->groups.v[i]->mech->section == NULL) {
			error_funcs = group_funcs(ps->groups.v[i]);
			error_maps = cg_chain_error_maps(cc, ps->groups.v[i]);
		}
	bool error_scratch = false;
	for (size_t i = 0; i < ps->groups.n; i++)
		if (ps->groups.v[i]->mech->section == NULL)
			for (size_t k = 0; k < ps->groups.v[i]->stmts.n; k++)
				error_scratch |= ps->groups.v[i]->stmts.v[k]->uses_scratch;
	for (size_t i = 0; i < ps->groups.n; i++)
		if (ps->groups.v[i]->mech->section == NULL) {
			error_group = ps->groups.v[i];
			ps->error_clauses = true;
		}
	/* Before the programs: their prologues are trimmed to what the clauses read. */
	dt_cg_specialize(&pcb, ps, dt_cg_wakemark(cc, ps), error_group != NULL);
	/* First: a program's prologue is trimmed to what these read too (cg_dctx.c). */
	build_fault(&pcb, exclusive);
	if (error_group != NULL || cc->core->opts.nooptimize)
		build_error(&pcb, error_group);
	for (size_t i = 0; i < ps->groups.n; i++) {
		struct dt_group *g = ps->groups.v[i];
		if (g->mech->section == NULL)
			continue;
		if ((rc = cg_chain_plan(cc, g, error_funcs, error_maps)) < 0) {
			dt_arena_free(&arena);
			return rc;
		}
		if (g->mech->by_consumer) {
			if (strcmp(g->probes.v[0]->desc[3], "BEGIN") == 0)
				ps->begin = g;
			else
				ps->end = g;
		}
		build_program(&pcb, g, exclusive, error_scratch);
		unsigned copies = g->mech->copies ? g->mech->copies(cc->reg, g) : 0;
		for (g->copy = 1; g->copy <= copies; g->copy++)
			build_program(&pcb, g, exclusive, error_scratch);
		g->copy = 0;
	}
	dt_cg_vtime_program(&pcb);
	if (cc->bss_size < dt_cg_bss_base())
		cc->bss_size = dt_cg_bss_base();
	cc->obj->bss_size = cc->bss_size;
	struct bo_var v = { .name = "dt_state", .offset = BSS_STATE, .size = 4 };
	struct bo_var w = { .name = "dt_walloff", .offset = BSS_WALLOFF, .size = 8 };
	struct bo_var m = { .name = "dt_wakemark", .offset = BSS_WAKEMARK, .size = 8 };
	struct bo_var d = { .name = "dt_drops", .offset = BSS_DROPS,
			    .size = dt_cg_drop_cpus() * BSS_DROPS_STRIDE };
	if (dt_vec_push(&cc->obj->bss_vars, v) < 0 || dt_vec_push(&cc->obj->bss_vars, w) < 0 ||
	    dt_vec_push(&cc->obj->bss_vars, m) < 0 || dt_vec_push(&cc->obj->bss_vars, d) < 0 ||
	    add_maps(cc, ps) < 0) {
		dt_arena_free(&arena);
		return cc->core->err ? cc->core->err : dt_set_error(cc->core, -ENOMEM, "out of memory");
	}
	dt_arena_free(&arena);
	return 0;
}
