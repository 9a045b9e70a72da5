/*
 * Clause functions: predicate, record reservation, statements, submit,
 * and the fault path; plus the fault-recording and ERROR-dispatch
 * functions every object carries.
 */
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_opt.h"
#include "compiler/cg_stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/program.h"

static void cg_stmt(struct dt_cg *cg, struct dt_node *s);

static void emit_fault_path(struct dt_cg *cg, int label, bool discard);

/* Instructions a stretch may grow to before its island (jumps reach 32767). */
#define STRETCH_MAX 16000

/* End a stretch: its exits and fault paths, jumped over. */
static void emit_island(struct dt_cg *cg)
{
	int over = cg_label_new(cg);

	cg_ja(cg, over);
	if (cg->exit_label >= 0) {
		cg_label_place(cg, cg->exit_label);
		cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
		cg_emit(cg, I_EXIT());
		cg->labels.v[cg->exit_label].old_exit = true;
		cg->exit_label = cg_label_new(cg);
	}
	if (cg->pred_fault_label >= 0) {
		emit_fault_path(cg, cg->pred_fault_label, false);
		cg->pred_fault_label = -1;
		cg->island_faults = true;
	}
	if (cg->fault_label >= 0) {
		/* In the predicate no record is reserved yet. */
		emit_fault_path(cg, cg->fault_label, cg->records && !cg->in_pred);
		cg->fault_label = -1;
		cg->island_faults = true;
	}
	cg_label_place(cg, over);
	cg->stretch_start = cg_pos(cg);
}

void cg_island_if_due(struct dt_cg *cg)
{
	if (cg_pos(cg) - cg->stretch_start > STRETCH_MAX)
		emit_island(cg);
}

static bool is_action(struct dt_node *s)
{
	return s->kind == N_EXPRSTMT && s->l->kind == N_CALL && s->l->id != NULL &&
	       s->l->id->kind == IDK_ACTION;
}

static void block_open(struct dt_cg *cg, struct dt_node *first);
static void block_close(struct dt_cg *cg);
static void block_end(struct dt_cg *cg);

static void cg_stmt_list(struct dt_cg *cg, struct dt_node *list)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		dt_nest_check(cg->pcb, s->line, "statement");
		if (s->kind == N_EXPRSTMT)
			cg->action_index++;
		cg_island_if_due(cg);
		if (cg->split) {
			/* A basic block ends before an if; the next action starts one. */
			if (s->kind == N_IF || s->kind == N_BLOCK)
				block_end(cg);
			else if (!cg->rec_open && is_action(s))
				block_open(cg, s);
		}
		cg_stmt(cg, s);
	}
}

static void check_regs_free(struct dt_cg *cg, int line)
{
	if (cg->regions.n != 0 || cg->spills.n != 0)
		dt_cerror(cg->pcb, "D_UNKNOWN", line, "internal error: registers left spilled");
	for (int r = 0; r < CG_NREGS; r++) {
		if (cg->reg_used[r] && !cg->reg_reserved[r])
			dt_cerror(cg->pcb, "D_UNKNOWN", line,
				  "internal error: register r%d leaked in code generation", r);
	}
}

static void cg_stmt(struct dt_cg *cg, struct dt_node *s)
{
	int mark = cg_stack_mark(cg);

	cg_set_line(cg, s->line);
	cg->scratch_off = 0;
	switch (s->kind) {
	case N_EXPRSTMT:
		if (s->l->kind == N_CALL && s->l->id && s->l->id->kind == IDK_ACTION) {
			cg_stmt_action(cg, s->l);
			if (s->l->id->code == ACT_EXIT)
				cg->block_exit = true;
		} else if (s->l->kind == N_OP2 && s->l->l->kind == N_AGG) {
			cg_agg_assign(cg, s->l);
		} else {
			cg_expr_discard(cg, s->l);
		}
		break;
	case N_IF: {
		int other = cg_label_new(cg), done = cg_label_new(cg);
		cg_branch_false(cg, s->cond, other);
		cg_stmt_list(cg, s->body);
		block_end(cg);
		cg_ja(cg, done);
		cg_label_place(cg, other);
		cg_stmt_list(cg, s->elsebody);
		block_end(cg);
		cg_label_place(cg, done);
		break;
	}
	case N_BLOCK:
		cg_stmt_list(cg, s->body);
		block_end(cg);
		break;
	default:
		break;
	}
	check_regs_free(cg, s->line);
	cg_stack_release(cg, mark);
}

static struct bo_func *new_func(struct dt_pcb *pcb, const char *name, const char *section,
				unsigned nargs)
{
	struct bo_func *fn = dt_arena_zalloc(&pcb->cc->core->arena, sizeof(*fn));

	if (fn == NULL)
		dt_cnomem(pcb);
	fn->name = dt_arena_strdup(&pcb->cc->core->arena, name);
	fn->section = section;
	fn->nargs = nargs;
	return fn;
}

static struct dt_rdesc *new_rdesc(struct dt_compiler *cc, struct dt_stmt *stmt)
{
	struct dt_rdesc *rd = dt_arena_zalloc(&cc->core->arena, sizeof(*rd));

	if (rd == NULL || dt_vec_push(&cc->descs->rdescs, rd) < 0)
		return NULL;
	rd->id = (uint32_t)cc->descs->rdescs.n - 1;
	rd->internal = stmt == NULL;
	rd->clause = stmt != NULL ? stmt->id : 0;
	return rd;
}

/*
 * bufpolicy=fill: the records of a run share bufsize bytes, counted in
 * BSS_FILLED; the first record that does not fit is a drop and stops
 * tracing (END still runs).  The limit (bufsize less the record's size) is
 * patched at *limit_insn once the size is known.
 */
static void emit_fill_check(struct dt_cg *cg, int done, uint32_t *limit_insn)
{
	int fits = cg_label_new(cg);

	cg_ld_bss(cg, BPF_R1, BSS_FILLED);
	*limit_insn = cg_pos(cg);
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
	cg_emit(cg, bpf_insn(BPF_STX | BPF_ATOMIC | BPF_W, BPF_R1, BPF_R2, 0, BPF_ADD | BPF_FETCH));
	cg_emit(cg, I_LD_IMM64_LO(BPF_R3, 0, 0));
	cg_emit(cg, I_LD_IMM64_HI(0));
	cg_emit(cg, I_ALU64_REG(BPF_SUB, BPF_R3, BPF_R2));
	cg_jmp_imm(cg, BPF_JSGE, BPF_R3, 0, fits);
	cg_count_drop(cg, CPU_RING_DROPS);
	cg_ld_bss(cg, BPF_R1, BSS_STATE);
	cg_emit(cg, I_ST(BPF_W, BPF_R1, 0, DT_STATE_DRAINING));
	cg_ja(cg, done);
	cg_label_place(cg, fits);
}

/* Reserve the record; the size immediate is patched once it is known. */
static uint32_t emit_reserve(struct dt_cg *cg, int done)
{
	cg_ld_map_fd(cg, BPF_R1, MAP_RING);
	uint32_t size_insn = cg_pos(cg);
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
	cg_emit(cg, I_MOV64_IMM(BPF_R3, 0));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_reserve));
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JNE, BPF_R0, 0, ok);
	cg_count_drop(cg, CPU_RING_DROPS);
	cg_ja(cg, done);
	cg_label_place(cg, ok);
	cg_emit(cg, I_MOV64_REG(REG_REC, BPF_R0));
	/* Header: description, probe, CPU, speculation, timestamp. */
	cg_emit(cg, I_ST(BPF_W, REG_REC, 0, (int32_t)cg->rdesc->id));
	cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PRID));
	cg_emit(cg, I_STX(BPF_W, REG_REC, BPF_R1, 4));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	cg_emit(cg, I_STX(BPF_W, REG_REC, BPF_R0, 8));
	cg_emit(cg, I_ST(BPF_W, REG_REC, 12, 0));
	/* D's timestamp, read once per firing (DCTX_TS, shared with `timestamp`). */
	int have_ts = cg_label_new(cg);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R0, REG_DCTX, DCTX_TS));
	cg_jmp_imm(cg, BPF_JNE, BPF_R0, 0, have_ts);
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	cg_emit(cg, I_STX(BPF_DW, REG_DCTX, BPF_R0, DCTX_TS));
	cg_label_place(cg, have_ts);
	cg_emit(cg, I_STX(BPF_DW, REG_REC, BPF_R0, DT_REC_TS_OFF));
	return size_insn;
}

/*
 * Submit: wake the consumer only for exit() or when the mark the
 * consumer sets (BSS_WAKEMARK: an eighth of the buffer) is waiting;
 * otherwise it reads at its switchrate (batched wake-ups).  An eighth
 * leaves the consumer room to be late by seven.
 */
static void emit_submit(struct dt_cg *cg)
{
	if (cg->rec_force_wakeup) {
		cg_emit(cg, I_MOV64_IMM(BPF_R2, BPF_RB_FORCE_WAKEUP));
	} else {
		cg_ld_map_fd(cg, BPF_R1, MAP_RING);
		cg_emit(cg, I_MOV64_IMM(BPF_R2, BPF_RB_AVAIL_DATA));
		cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_query));
		cg_ld_bss(cg, BPF_R3, BSS_WAKEMARK);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R3, BPF_R3, 0));
		cg_emit(cg, I_MOV64_IMM(BPF_R2, BPF_RB_NO_WAKEUP));
		int quiet = cg_label_new(cg);
		cg_jmp_reg(cg, BPF_JLT, BPF_R0, BPF_R3, quiet);
		cg_emit(cg, I_MOV64_IMM(BPF_R2, BPF_RB_FORCE_WAKEUP));
		cg_label_place(cg, quiet);
	}
	cg_emit(cg, I_MOV64_REG(BPF_R1, REG_REC));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_submit));
}

/* Discard the record, record the fault, run ERROR clauses, return. */
static void emit_fault_path(struct dt_cg *cg, int label, bool discard)
{
	struct dt_stmt *stmt = cg->stmt;

	cg_label_place(cg, label);
	if (discard) {
		/* Split: only the open block's record goes; those before it stay. */
		int none = cg_label_new(cg);
		if (cg->split)
			cg_jmp_imm(cg, BPF_JEQ, REG_REC, 0, none);
		if (!cg_spec_fault_submit(cg)) {
			cg_emit(cg, I_MOV64_REG(BPF_R1, REG_REC));
			cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
			cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_discard));
		}
		cg_label_place(cg, none);
	}
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX));
	cg_emit(cg, I_MOV64_REG(BPF_R2, REG_DCTX));
	cg_emit(cg, I_MOV64_IMM(BPF_R3, (int32_t)stmt->id));
	/* An ERROR clause only records its fault: ERROR does not recurse. */
	struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL,
			      .target = stmt->enables_error ? "dt_fault" : "dt_error" };
	if (dt_vec_push(&cg->fn->relocs, r) < 0)
		dt_cnomem(cg->pcb);
	cg_emit(cg, I_CALL_PSEUDO());
	cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(cg, I_EXIT());
}

/* The record's size, now known, into its reservation (and fill check). */
static void record_finish(struct dt_cg *cg, uint32_t size_insn, uint32_t fill_insn)
{
	struct dt_compiler *cc = cg->cc;
	struct bo_func *fn = cg->fn;

	cg->rdesc->size = DT_ALIGN(cg->rec_off, 8);
	fn->insns.v[size_insn].imm = (int32_t)cg->rdesc->size;
	if (cc->core->opts.bufpolicy == DT_BUFPOLICY_FILL) {
		/* R2 = size, then the limit: bufsize - size (64 bits) */
		int64_t lim = cc->core->opts.bufsize - (int64_t)cg->rdesc->size;
		fn->insns.v[fill_insn].imm = (int32_t)cg->rdesc->size;
		fn->insns.v[fill_insn + 2].imm = (int32_t)(uint32_t)lim;
		fn->insns.v[fill_insn + 3].imm = (int32_t)(uint32_t)((uint64_t)lim >> 32);
	}
	/* The statement's record is its largest (the buffer must hold it). */
	if (cg->stmt->rdesc == NULL || cg->stmt->rdesc->size < cg->rdesc->size)
		cg->stmt->rdesc = cg->rdesc;
}

/*
 * A clause with actions in an if or else branch writes a record per basic
 * block (the statements before, in and after each if and else) that has
 * actions, as DTrace does: it makes each block a clause of its own
 * (dt_sugar.c), so an action in a branch not taken records nothing, and a
 * fault keeps the records of the blocks before it.  Each block's record
 * may be speculative on its own (its speculate() and what follows it in
 * the block), and after a block that called exit() the clause's later
 * blocks do not run, as the probe's later clauses do not (but in END).
 */
static bool has_branch_action(struct dt_node *list, bool in_branch)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_IF &&
		    (has_branch_action(s->body, true) || has_branch_action(s->elsebody, true)))
			return true;
		if (s->kind == N_BLOCK && has_branch_action(s->body, in_branch))
			return true;
		if (in_branch && is_action(s))
			return true;
	}
	return false;
}

/* Whether list has an if (then a block may follow an exit()) and an exit(). */
static void scan_exit(struct dt_node *list, bool *has_if, bool *has_exit)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_IF || s->kind == N_BLOCK) {
			*has_if = true;
			scan_exit(s->body, has_if, has_exit);
			scan_exit(s->elsebody, has_if, has_exit);
		} else if (is_action(s) && s->l->id->code == ACT_EXIT) {
			*has_exit = true;
		}
	}
}

static bool split_clause(struct dt_node *body)
{
	bool has_if = false, has_exit = false;

	scan_exit(body, &has_if, &has_exit);
	return has_branch_action(body, false) || (has_if && has_exit);
}

static void block_open(struct dt_cg *cg, struct dt_node *first)
{
	cg->rdesc = new_rdesc(cg->cc, cg->stmt);
	if (cg->rdesc == NULL)
		dt_cnomem(cg->pcb);
	cg->rec_off = DT_REC_DATA_OFF;
	if (cg->cc->core->opts.bufpolicy == DT_BUFPOLICY_FILL)
		emit_fill_check(cg, cg->exit_label, &cg->fill_insn);
	cg->size_insn = emit_reserve(cg, cg->exit_label);
	cg->rec_open = true;
	cg_spec_block_begin(cg, first);
}

static void block_close(struct dt_cg *cg)
{
	if (!cg->split || !cg->rec_open)
		return;
	record_finish(cg, cg->size_insn, cg->fill_insn);
	emit_submit(cg);
	cg_emit(cg, I_MOV64_IMM(REG_REC, 0));
	cg->rec_open = false;
	int cont = cg_label_new(cg);
	cg_spec_block_end(cg, cont);
	cg_label_place(cg, cont);
}

/* The end of a basic block: its record, and no more blocks after an exit() (not in END). */
static void block_end(struct dt_cg *cg)
{
	block_close(cg);
	if (!cg->split || !cg->block_exit)
		return;
	cg->block_exit = false;
	int go_on = cg_label_new(cg);
	struct dt_probe *end = dt_probe_lookup(cg->cc->reg, "dtrace", "", "", "END");
	if (end != NULL) {
		cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PRID));
		cg_jmp_imm(cg, BPF_JEQ, BPF_R1, (int32_t)end->id, go_on);
	}
	cg_ld_bss(cg, BPF_R1, BSS_STATE);
	cg_emit(cg, I_LDX(BPF_W, BPF_R1, BPF_R1, 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, DT_STATE_DRAINING, cg->exit_label);
	cg_label_place(cg, go_on);
}

/*
 * Whether the clause reads REG_SCRATCH (only its first instruction sets
 * it, from DCTX_SCRATCH; the register is reserved for that): a run-time
 * function or an ERROR clause gets the area only through it or dctx.
 */
static bool reads_scratch(const struct bo_func *fn)
{
	for (size_t i = 0; i < fn->insns.n; i++) {
		const struct bpf_insn *in = &fn->insns.v[i];
		if (cg_opt_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (cg_opt_uses(in) & (1u << REG_SCRATCH))
			return true;
	}
	return false;
}

int dt_cg_clause(struct dt_pcb *pcb, struct bo_object *obj, struct dt_stmt *stmt)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_node *c = stmt->clause;
	char name[64];
	struct dt_cg cg;

	snprintf(name, sizeof(name), "dt_clause_%u", stmt->id);
	struct bo_func *fn = new_func(pcb, name, NULL, 2);
	cg_init(&cg, pcb, obj, fn);
	cg.stmt = stmt;
	cg.action_index = -1;
	cg.records = c->clause.has_body ? cg_clause_records(c->clause.body) : true;
	cg.split = c->clause.has_body && split_clause(c->clause.body);
	cg.reg_reserved[REG_DCTX] = true;
	cg.reg_reserved[REG_SCRATCH] = true;
	if (cg.split) {
		cg.reg_reserved[REG_REC] = true;
	} else if (cg.records) {
		cg.reg_reserved[REG_REC] = true;
		cg.rdesc = new_rdesc(cc, stmt);
		if (cg.rdesc == NULL)
			dt_cnomem(pcb);
		stmt->rdesc = cg.rdesc;
		cg.rec_off = DT_REC_DATA_OFF;
	}
	cg_set_line(&cg, c->line);

	cg_emit(&cg, I_MOV64_REG(REG_DCTX, BPF_R2));
	uint32_t scratch_insn = cg_pos(&cg);
	cg_emit(&cg, I_LDX(BPF_DW, REG_SCRATCH, REG_DCTX, DCTX_SCRATCH));
	if (stmt->uses_alloca)
		cg_alloca_reset(&cg);
	cg_bvar_thread_key_once(&cg, c, true);
	cg_var_tls_cache_plan(&cg, c);
	check_regs_free(&cg, c->line);

	cg.exit_label = cg_label_new(&cg);
	cg.pred_fault_label = -1;
	cg.stretch_start = 0;
	int done = cg.exit_label;
	if (c->clause.pred != NULL) {
		cg_set_line(&cg, c->clause.pred->line);
		cg.in_pred = true;
		cg_branch_false(&cg, c->clause.pred, done);
		cg.in_pred = false;
		check_regs_free(&cg, c->clause.pred->line);
		cg.scratch_off = 0;
		/* Faults before the record exists have nothing to discard. */
		cg.pred_fault_label = cg.fault_label;
		cg.fault_label = -1;
	}
	cg_bvar_thread_key_once(&cg, c, false);
	check_regs_free(&cg, c->line);
	uint32_t size_insn = 0, fill_insn = 0;
	bool fill = cc->core->opts.bufpolicy == DT_BUFPOLICY_FILL;
	if (cg.split) {
		cg_emit(&cg, I_MOV64_IMM(REG_REC, 0));
	} else if (cg.records) {
		if (fill)
			emit_fill_check(&cg, done, &fill_insn);
		size_insn = emit_reserve(&cg, done);
		cg_spec_clause_begin(&cg, c->clause.body);
	}
	if (c->clause.has_body) {
		cg_stmt_list(&cg, c->clause.body);
	} else {
		/* No action given: DTrace's default action traces nothing but the probe. */
	}
	if (cg.split) {
		cg_set_line(&cg, c->line);
		block_close(&cg);
	} else if (cg.records) {
		cg_set_line(&cg, c->line);
		record_finish(&cg, size_insn, fill_insn);
		emit_submit(&cg);
	}
	cg_stack_note_proc(&cg);
	cg_label_place(&cg, cg.exit_label);
	cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(&cg, I_EXIT());

	stmt->may_fault = cg.pred_fault_label >= 0 || cg.fault_label >= 0 || cg.island_faults;
	if (cg.pred_fault_label >= 0)
		emit_fault_path(&cg, cg.pred_fault_label, false);
	if (cg.fault_label >= 0)
		emit_fault_path(&cg, cg.fault_label, cg.records);
	if (cg.records && !cg.split)
		cg_spec_clause_end(&cg);
	if (!stmt->uses_scratch)
		fn->insns.v[scratch_insn] = I_JA(0);
	if (cg.scratch_max > cc->scratch_max)
		cc->scratch_max = cg.scratch_max;
	cg_resolve(&cg);
	/* Sema marks what may need scratch; after the passes nothing may read it. */
	if (stmt->uses_scratch && !cc->core->opts.nooptimize && !reads_scratch(fn))
		stmt->uses_scratch = false;
	cg_fini(&cg);
	stmt->func = fn;
	return 0;
}
