/*
 * Speculations in generated code: speculation(), speculate(), commit()
 * and discard() call the run-time functions of bpf/spec.bpf.c on the
 * dt_specs area in .bss; src/base/spec_abi.h explains the design.
 *
 * A speculative clause's record is the clause's one record with the
 * speculation ID in its header.  speculate() that fails (no such active
 * speculation, or a record larger than specsize) ends the clause: its
 * record is discarded.  A record that does not fit in what is left of
 * specsize gets DT_SPEC_CTLONLY with its ID: the clause runs on, the
 * consumer counts the record and drops it (what DTrace does).  commit()
 * and discard() store what they ended (the use's tag and its number of
 * records, or 0) in 8-byte slots at the front of the record, zeroed when
 * it is reserved, so that
 * a record submitted after a fault or a failed speculate() (flagged
 * DT_SPEC_CTLONLY) still tells the consumer what its clause committed or
 * discarded, and never anything it did not.
 */
#include <stddef.h>
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema_impl.h"

#define HDR_SPEC_OFF ((int16_t)offsetof(struct dt_rec_hdr, spec))

/* The .bss offset of the speculation area, laid out on first use. */
static uint32_t spec_area(struct dt_cg *cg)
{
	struct dt_compiler *cc = cg->cc;

	if (cc->descs->spec_off != 0)
		return cc->descs->spec_off;
	int64_t nspec = cc->core->opts.nspec;
	if (nspec < 0)
		nspec = 0;
	if (nspec > DT_SPEC_MAX)
		dt_cerror(cg->pcb, NULL, cg->line,
			  "nspec %lld is more speculations than this dtrace supports (%d)",
			  (long long)nspec, DT_SPEC_MAX);
	if (cc->bss_size < dt_cg_bss_base())
		cc->bss_size = dt_cg_bss_base();
	uint32_t off = DT_ALIGN(cc->bss_size, 8);
	uint32_t size = (uint32_t)DT_SPEC_AREA_SIZE(nspec);
	struct bo_var v = { .name = "dt_specs", .offset = off, .size = size };
	if (dt_vec_push(&cg->obj->bss_vars, v) < 0)
		dt_cnomem(cg->pcb);
	cc->bss_size = off + size;
	cc->descs->spec_off = off;
	cc->descs->spec_nspec = (uint32_t)nspec;
	return off;
}

static int imm_reg(struct dt_cg *cg, int64_t v)
{
	int r = cg_reg_alloc(cg);

	cg_mov_imm64(cg, r, (uint64_t)v);
	return r;
}

static int area_reg(struct dt_cg *cg)
{
	int r = cg_reg_alloc(cg);

	cg_ld_bss(cg, r, spec_area(cg));
	return r;
}

/* The speculation actions of list (block: up to its first if, which ends a basic block). */
static void scan(struct dt_node *list, bool block, int *nctl, bool *speculates)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_IF || s->kind == N_BLOCK) {
			if (block)
				return;
			scan(s->body, false, nctl, speculates);
			scan(s->elsebody, false, nctl, speculates);
			continue;
		}
		if (s->kind != N_EXPRSTMT || s->l->kind != N_CALL || s->l->id == NULL ||
		    s->l->id->kind != IDK_ACTION)
			continue;
		if (s->l->id->code == ACT_COMMIT || s->l->id->code == ACT_DISCARD)
			(*nctl)++;
		else if (s->l->id->code == ACT_SPECULATE)
			*speculates = true;
	}
}

static void begin_record(struct dt_cg *cg, struct dt_node *list, bool block)
{
	int nctl = 0;
	bool speculates = false;

	scan(list, block, &nctl, &speculates);
	/* (Clause-wide: the fault path, shared by a split clause's blocks, needs it.) */
	cg->spec_used = cg->spec_used || speculates || nctl > 0;
	cg->spec_fail = 0;
	cg->spec_size_insn = 0;
	cg->spec_nslots = cg->spec_next = 0;
	if (nctl == 0)
		return;
	cg->spec_slot = cg_rec_alloc(cg, 8 * (uint32_t)nctl, 8);
	cg->spec_nslots = nctl;
	for (int i = 0; i < nctl; i++)
		cg_emit(cg, I_ST(BPF_DW, REG_REC, (int16_t)(cg->spec_slot + 8 * (uint32_t)i), 0));
	cg->rdesc->spec_ctl = true;
}

void cg_spec_clause_begin(struct dt_cg *cg, struct dt_node *body)
{
	begin_record(cg, body, false);
}

void cg_spec_block_begin(struct dt_cg *cg, struct dt_node *first)
{
	begin_record(cg, first, true);
}

int cg_spec_speculation(struct dt_cg *cg, struct dt_node *n)
{
	int a[2];

	(void)n;
	a[0] = area_reg(cg);
	a[1] = imm_reg(cg, cg->cc->descs->spec_nspec);
	return cg_call_func(cg, "dt_rt_speculation", a, 2);
}

static void submit_ctlonly(struct dt_cg *cg);

/* A failed speculate(): the record goes (what it committed or discarded only) or is dropped. */
static void fail_record(struct dt_cg *cg)
{
	if (cg->spec_nslots > 0) {
		cg_emit(cg, I_ST(BPF_W, REG_REC, HDR_SPEC_OFF, (int32_t)DT_SPEC_CTLONLY));
		submit_ctlonly(cg);
	} else {
		cg_emit(cg, I_MOV64_REG(BPF_R1, REG_REC));
		cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
		cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_discard));
	}
}

/*
 * The record's speculation is in its header, 0 if speculate() failed:
 * then the clause ends, there (not at its end, which a large clause's
 * jumps do not reach).
 */
static void fail_here(struct dt_cg *cg)
{
	int good = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_REC, HDR_SPEC_OFF));
	cg_jmp_imm(cg, BPF_JNE, BPF_R1, 0, good);
	fail_record(cg);
	cg_clause_return(cg, true);
	cg_label_place(cg, good);
}

/* speculate(id): the record goes to speculation id, or the clause ends. */
static void act_speculate(struct dt_cg *cg, struct dt_node *call)
{
	int a[5];

	a[1] = cg_expr(cg, call->call.args);
	/*
	 * The clause's later parts send their records to it too.  (If it
	 * fails the clause ends, and DCTX_PART says so instead.)
	 */
	if (cg->parted && !cg->split)
		cg_emit(cg, I_STX(BPF_W, REG_DCTX, a[1], DCTX_PART));
	a[0] = area_reg(cg);
	a[2] = imm_reg(cg, cg->cc->descs->spec_nspec);
	a[3] = cg_reg_alloc(cg);
	cg->spec_size_insn = cg_pos(cg) + 1;
	cg_emit(cg, I_MOV64_IMM(a[3], 0));	/* the record's size, patched at the end */
	a[4] = imm_reg(cg, cg->cc->core->opts.specsize);
	int ok = cg_call_func(cg, "dt_rt_speculate", a, 5);
	cg_emit(cg, I_STX(BPF_W, REG_REC, ok, HDR_SPEC_OFF));
	cg_reg_free(cg, ok);
	if (!cg->split) {
		fail_here(cg);
		return;
	}
	if (cg->spec_fail == 0)
		cg->spec_fail = cg_label_new(cg) + 1;
	cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_REC, HDR_SPEC_OFF));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, cg->spec_fail - 1);
}

void cg_spec_part_resume(struct dt_cg *cg)
{
	int a[5], none = cg_label_new(cg);

	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_LDX(BPF_W, a[1], REG_DCTX, DCTX_PART));
	cg_jmp_imm(cg, BPF_JEQ, a[1], 0, none);
	a[0] = area_reg(cg);
	a[2] = imm_reg(cg, cg->cc->descs->spec_nspec);
	a[3] = cg_reg_alloc(cg);
	cg->spec_size_insn = cg_pos(cg) + 1;
	cg_emit(cg, I_MOV64_IMM(a[3], 0));	/* the record's size, patched at the end */
	a[4] = imm_reg(cg, cg->cc->core->opts.specsize);
	int ok = cg_call_func(cg, "dt_rt_speculate", a, 5);
	cg_emit(cg, I_STX(BPF_W, REG_REC, ok, HDR_SPEC_OFF));
	cg_reg_free(cg, ok);
	/* Gone since (committed or discarded elsewhere): the clause ends, as speculate() failing. */
	fail_here(cg);
	/* Counted in the speculation: on a fault it goes to the consumer flagged, not dropped. */
	cg->spec_used = true;
	cg_label_place(cg, none);
}

/* commit(id), discard(id): the use it ended (DT_SPEC_ENDED, or 0) into the next slot. */
static void act_drain(struct dt_cg *cg, struct dt_node *call, bool commit)
{
	struct dt_ritem it;
	int a[4];

	if (cg->spec_next >= cg->spec_nslots)
		dt_cerror(cg->pcb, "D_UNKNOWN", call->line,
			  "internal error: no record slot for %s( )", call->id->name);
	uint32_t off = cg->spec_slot + 8 * (uint32_t)cg->spec_next++;
	a[1] = cg_expr(cg, call->call.args);
	a[0] = area_reg(cg);
	a[2] = imm_reg(cg, cg->cc->descs->spec_nspec);
	a[3] = imm_reg(cg, commit ? DT_SPEC_COMMITTING : DT_SPEC_DISCARDING);
	int r = cg_call_func(cg, "dt_rt_spec_drain", a, 4);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JNE, r, -1, ok);
	cg_fault(cg, DT_FLT_ILLOP, -1);
	cg_label_place(cg, ok);
	cg_emit(cg, I_STX(BPF_DW, REG_REC, r, (int16_t)off));
	cg_reg_free(cg, r);

	memset(&it, 0, sizeof(it));
	it.kind = commit ? RK_COMMIT : RK_DISCARD;
	it.off = off;
	it.size = 8;
	it.type = cg->cc->core->types.t_int;
	if (dt_vec_push(&cg->rdesc->items, it) < 0)
		dt_cnomem(cg->pcb);
}

void cg_spec_action(struct dt_cg *cg, struct dt_node *call)
{
	if (call->id->code == ACT_SPECULATE)
		act_speculate(cg, call);
	else
		act_drain(cg, call, call->id->code == ACT_COMMIT);
}

static void submit_ctlonly(struct dt_cg *cg)
{
	cg_emit(cg, I_MOV64_REG(BPF_R1, REG_REC));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, BPF_RB_NO_WAKEUP));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_submit));
}

bool cg_spec_fault_submit(struct dt_cg *cg)
{
	if (!cg->spec_used)
		return false;
	cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_REC, HDR_SPEC_OFF));
	cg_emit(cg, I_ALU64_IMM(BPF_OR, BPF_R1, (int32_t)DT_SPEC_CTLONLY));
	cg_emit(cg, I_STX(BPF_W, REG_REC, BPF_R1, HDR_SPEC_OFF));
	submit_ctlonly(cg);
	return true;
}

/* The record's size into the speculate() call, now that it is known. */
static void patch_size(struct dt_cg *cg)
{
	if (cg->spec_size_insn != 0) {
		/*
		 * What specsize counts: DTrace's record header and the data,
		 * with the string constants that DTrace records (strsize and
		 * a NUL each) and ours keep in the record's description.
		 */
		uint64_t size = DT_SPEC_REC_HDR + cg->rdesc->size - DT_REC_DATA_OFF;
		for (size_t i = 0; i < cg->rdesc->items.n; i++) {
			const struct dt_ritem *it = &cg->rdesc->items.v[i];
			if (it->is_const && it->is_string)
				size += dt_str_bytes(cg->cc);
		}
		if (size > INT32_MAX)
			size = INT32_MAX;
		cg->fn->insns.v[cg->spec_size_insn - 1].imm = (int32_t)size;
	}
}

/* A split clause's failed speculate(), at the end of its block. */
static void fail_path(struct dt_cg *cg)
{
	cg_label_place(cg, cg->spec_fail - 1);
	fail_record(cg);
}

void cg_spec_clause_end(struct dt_cg *cg)
{
	patch_size(cg);
	if (cg->spec_fail == 0)
		return;
	fail_path(cg);
	cg_clause_return(cg, true);
}

/*
 * A basic block of a split clause is a clause to DTrace (dt_sugar.c): a
 * failed speculate() ends the block, and the blocks after it run.
 */
void cg_spec_block_end(struct dt_cg *cg, int cont)
{
	patch_size(cg);
	if (cg->spec_fail != 0) {
		cg_ja(cg, cont);
		fail_path(cg);
		cg_emit(cg, I_MOV64_IMM(REG_REC, 0));
	}
	cg->spec_fail = 0;
	cg->spec_size_insn = 0;
	cg->spec_nslots = cg->spec_next = 0;
}
