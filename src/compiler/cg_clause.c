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
#include "compiler/chain_plan.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/program.h"

static void cg_stmt(struct dt_cg *cg, struct dt_node *s);

static void emit_fault_path(struct dt_cg *cg, int label, bool discard);
static void emit_drop_path(struct dt_cg *cg, int label, bool discard);

/* Instructions a stretch may grow to before its island (jumps reach 32767). */
#define STRETCH_MAX 16000

void cg_clause_return(struct dt_cg *cg, bool stop)
{
	/* A part that ends its clause early tells the parts after it. */
	if (stop && cg->parted)
		cg_emit(cg, I_ST(BPF_W, REG_DCTX, DCTX_PART, DCTX_PART_STOP));
	cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(cg, I_EXIT());
}

/* End a stretch: its exits and fault paths, jumped over. */
static void emit_island(struct dt_cg *cg)
{
	int over = cg_label_new(cg);

	cg_ja(cg, over);
	if (cg->exit_label >= 0) {
		cg_label_place(cg, cg->exit_label);
		cg_clause_return(cg, true);
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
	if (cg->drop_label >= 0) {
		emit_drop_path(cg, cg->drop_label, cg->records);
		cg->drop_label = -1;
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
	bool top = cg->stmt_depth++ == 0;

	for (struct dt_node *s = list; s != NULL; s = s->next) {
		/* The clause's own statements end a part once it is over budget. */
		if (top && cg->part_budget != 0 && s != list && cg_pos(cg) > cg->part_budget) {
			cg->part_next = s;
			break;
		}
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
	cg->stmt_depth--;
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

void cg_rec_cpu_spec(struct dt_cg *cg, int rec)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* The CPU (r0, below 2^32) as 8 bytes: its upper half is the speculation, 0. */
	cg_emit(cg, I_STX(BPF_DW, rec, BPF_R0, 8));
#else
	cg_emit(cg, I_STX(BPF_W, rec, BPF_R0, 8));
	cg_emit(cg, I_ST(BPF_W, rec, 12, 0));
#endif
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
	uint32_t prid;
	if (cg_prid_known(cg, &prid)) {
		cg_emit(cg, I_ST(BPF_W, REG_REC, 4, (int32_t)prid));
	} else {
		cg_emit(cg, I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PRID));
		cg_emit(cg, I_STX(BPF_W, REG_REC, BPF_R1, 4));
	}
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_smp_processor_id));
	cg_rec_cpu_spec(cg, REG_REC);
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
/* The clause's record given up (split: only the open block's; those before it stay). */
static void discard_record(struct dt_cg *cg)
{
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

/*
 * A clause given up without an error (DTrace's dt_cg_store_var when a
 * dynamic variable cannot be made): nothing it recorded is output, and
 * nothing after runs.
 */
static void emit_drop_path(struct dt_cg *cg, int label, bool discard)
{
	cg_label_place(cg, label);
	if (discard)
		discard_record(cg);
	cg_clause_return(cg, true);
}

void cg_clause_drop(struct dt_cg *cg)
{
	/* In the predicate no record is reserved yet: the clause just does not run. */
	if (cg->in_pred || !cg->records) {
		cg_ja(cg, cg->exit_label);
		return;
	}
	if (cg->drop_label < 0)
		cg->drop_label = cg_label_new(cg);
	cg_ja(cg, cg->drop_label);
}

static void emit_fault_path(struct dt_cg *cg, int label, bool discard)
{
	struct dt_stmt *stmt = cg->stmt;

	cg_label_place(cg, label);
	if (discard)
		discard_record(cg);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, REG_DCTX, DCTX_CTX));
	cg_emit(cg, I_MOV64_REG(BPF_R2, REG_DCTX));
	cg_emit(cg, I_MOV64_IMM(BPF_R3, (int32_t)stmt->id));
	/* An ERROR clause only records its fault: ERROR does not recurse. */
	struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL,
			      .target = stmt->enables_error ? "dt_fault" : "dt_error" };
	if (dt_vec_push(&cg->fn->relocs, r) < 0)
		dt_cnomem(cg->pcb);
	cg_emit(cg, I_CALL_PSEUDO());
	cg_clause_return(cg, true);
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
		cg_ld_prid(cg, BPF_R1);
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

/*
 * A clause whose code passes a program's budget (DT_CHAIN_MAX_INSNS
 * instructions, before the passes) is cut into parts at its top-level
 * statements, each a function of its own that the chain planner places
 * like a clause: the first up to that budget, the others up to a quarter
 * of it, so that they fill programs with little room left over.
 */
#define PART_BUDGET (DT_CHAIN_MAX_INSNS / 4)

/* What one part of a clause is built from, and what building it found. */
struct part {
	unsigned k;			/* which part: 0 holds the predicate */
	struct dt_node *list;		/* its statements (the clause's from here on) */
	bool split;			/* the clause writes a record per basic block */
	bool parted;			/* the clause has other parts */
	uint32_t budget;		/* stop at a statement past this many instructions (0: never) */
	bool more;			/* list is cut short: the clause goes on after it */
	bool clause_records;		/* the clause writes a record (in some part) */
	int action_index;		/* the clause's actions before the part */
	/* out */
	struct bo_func *fn;
	struct dt_node *next;		/* the statement where the budget stopped it, or NULL */
	int action_end;			/* the clause's actions up to its end */
	struct dt_rdesc *rdesc;		/* its record's description (not split), or NULL */
	bool may_fault;
};

/* Whether list calls speculate() (a clause calls it once at most: sema). */
static bool speculates(struct dt_node *list)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (is_action(s) && s->l->id->code == ACT_SPECULATE)
			return true;
		if ((s->kind == N_IF || s->kind == N_BLOCK) &&
		    (speculates(s->body) || speculates(s->elsebody)))
			return true;
	}
	return false;
}

static void build_part(struct dt_pcb *pcb, struct bo_object *obj, struct dt_stmt *stmt,
		       struct part *p)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_node *c = stmt->clause;
	/* The clause as this part sees it: its statements, the predicate in part 0 only. */
	struct dt_node pc = *c;
	char name[64];
	struct dt_cg cg;

	pc.clause.body = p->list;
	if (p->k > 0)
		pc.clause.pred = NULL;
	if (p->k == 0)
		snprintf(name, sizeof(name), "dt_clause_%u", stmt->id);
	else
		snprintf(name, sizeof(name), "dt_clause_%u_p%u", stmt->id, p->k);
	struct bo_func *fn = new_func(pcb, name, NULL, 2);
	cg_init(&cg, pcb, obj, fn);
	cg.stmt = stmt;
	cg.clause = &pc;
	cg.action_index = p->action_index;
	cg.parted = p->parted;
	cg.part_budget = p->budget;
	cg.records = c->clause.has_body ? cg_clause_records(p->list) : true;
	/*
	 * Every part of a clause that records writes a record, held by the
	 * consumer until the last part's: a fault drops them all, as it drops
	 * a clause's one record.  (A split clause's blocks are clauses of
	 * their own to DTrace: their records stand alone.)
	 */
	if (p->parted && !p->split && p->clause_records)
		cg.records = true;
	cg.split = p->split;
	cg.reg_reserved[REG_DCTX] = true;
	cg.reg_reserved[REG_SCRATCH] = true;
	if (cg.split) {
		cg.reg_reserved[REG_REC] = true;
	} else if (cg.records) {
		cg.reg_reserved[REG_REC] = true;
		cg.rdesc = new_rdesc(cc, stmt);
		if (cg.rdesc == NULL)
			dt_cnomem(pcb);
		if (stmt->rdesc == NULL)
			stmt->rdesc = cg.rdesc;
		cg.rec_off = DT_REC_DATA_OFF;
		cg.rdesc->part_held = p->parted;
	}
	p->rdesc = cg.split ? NULL : cg.rdesc;
	cg_set_line(&cg, p->list != NULL ? p->list->line : c->line);

	cg_emit(&cg, I_MOV64_REG(REG_DCTX, BPF_R2));
	uint32_t scratch_insn = cg_pos(&cg);
	cg_emit(&cg, I_LDX(BPF_DW, REG_SCRATCH, REG_DCTX, DCTX_SCRATCH));
	cg.exit_label = cg_label_new(&cg);
	cg.pred_fault_label = -1;
	int done = cg.exit_label;
	if (p->parted && p->k == 0) {
		cg_emit(&cg, I_ST(BPF_W, REG_DCTX, DCTX_PART, 0));
	} else if (p->parted) {
		/* The clause ended in an earlier part: this one does not run. */
		int go = cg_label_new(&cg);
		cg_emit(&cg, I_LDX(BPF_W, BPF_R1, REG_DCTX, DCTX_PART));
		cg_emit(&cg, I_ALU64_IMM(BPF_AND, BPF_R1, DCTX_PART_STOP));
		cg_jmp_imm(&cg, BPF_JEQ, BPF_R1, 0, go);
		cg_emit(&cg, I_MOV64_IMM(BPF_R0, 0));
		cg_emit(&cg, I_EXIT());
		cg_label_place(&cg, go);
	}
	if (stmt->uses_alloca && p->k == 0)
		cg_alloca_reset(&cg);
	cg_bvar_thread_key_once(&cg, &pc, true);
	cg_var_tls_cache_plan(&cg, &pc);
	check_regs_free(&cg, c->line);

	cg.stretch_start = 0;
	if (pc.clause.pred != NULL) {
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
	cg_bvar_thread_key_once(&cg, &pc, false);
	check_regs_free(&cg, c->line);
	uint32_t size_insn = 0, fill_insn = 0;
	bool fill = cc->core->opts.bufpolicy == DT_BUFPOLICY_FILL;
	if (cg.split) {
		cg_emit(&cg, I_MOV64_IMM(REG_REC, 0));
	} else if (cg.records) {
		if (fill)
			emit_fill_check(&cg, done, &fill_insn);
		size_insn = emit_reserve(&cg, done);
		cg_spec_clause_begin(&cg, p->list);
		/* A speculate() of an earlier part holds for this part's record too. */
		if (p->parted && p->k > 0 && !speculates(p->list))
			cg_spec_part_resume(&cg);
	}
	if (c->clause.has_body) {
		cg_stmt_list(&cg, p->list);
	} else {
		/* No action given: DTrace's default action traces nothing but the probe. */
	}
	if (cg.split) {
		cg_set_line(&cg, c->line);
		/* A part's end ends a basic block: after one that called exit(), no part runs. */
		if (p->parted)
			block_end(&cg);
		else
			block_close(&cg);
	} else if (cg.records) {
		cg_set_line(&cg, c->line);
		record_finish(&cg, size_insn, fill_insn);
		emit_submit(&cg);
	}
	cg_stack_note_proc(&cg);
	if (p->parted)
		cg_clause_return(&cg, false);
	cg_label_place(&cg, cg.exit_label);
	cg_clause_return(&cg, true);

	p->may_fault = cg.pred_fault_label >= 0 || cg.fault_label >= 0 || cg.island_faults;
	if (cg.pred_fault_label >= 0)
		emit_fault_path(&cg, cg.pred_fault_label, false);
	if (cg.fault_label >= 0)
		emit_fault_path(&cg, cg.fault_label, cg.records);
	if (cg.drop_label >= 0)
		emit_drop_path(&cg, cg.drop_label, cg.records);
	if (cg.records && !cg.split)
		cg_spec_clause_end(&cg);
	if (!stmt->uses_scratch)
		fn->insns.v[scratch_insn] = I_JA(0);
	if (cg.scratch_max > cc->scratch_max)
		cc->scratch_max = cg.scratch_max;
	p->next = cg.part_next;
	p->action_end = cg.action_index;
	/* Cut short (or too short): the caller builds it again. */
	if (p->next == NULL && !p->more)
		cg_resolve(&cg);
	cg_fini(&cg);
	p->fn = fn;
}

/* Forget a build of p: its records' descriptions and its code. */
static void unbuild(struct dt_pcb *pcb, struct dt_stmt *stmt, struct part *p, size_t nrdescs,
		    struct dt_rdesc *rdesc)
{
	struct dt_descs *d = pcb->cc->descs;

	for (size_t i = nrdescs; i < d->rdescs.n; i++)
		dt_vec_free(&d->rdescs.v[i]->items);
	d->rdescs.n = nrdescs;
	stmt->rdesc = rdesc;
	dt_vec_free(&p->fn->insns);
	dt_vec_free(&p->fn->relocs);
	dt_vec_free(&p->fn->lines);
}

/* End p->list after its first n statements (0: all); what followed, to put back. */
static struct dt_node *cut_after(struct part *p, size_t n, struct dt_node **last)
{
	struct dt_node *s = p->list;

	*last = NULL;
	if (n == 0)
		return NULL;
	for (size_t i = 1; i < n && s->next != NULL; i++)
		s = s->next;
	struct dt_node *rest = s->next;
	s->next = NULL;
	*last = s;
	return rest;
}

/*
 * Build p from the statements that fit its budget.  A build over the
 * clause's remaining statements finds where the budget ends the part,
 * then the part is built again from those statements alone (what a
 * function's set-up looks at, its records, speculations and thread key,
 * is then the part's).  The first build sees `*len` statements (0: all),
 * twice as many each time that is too few, so that it looks at no more
 * than about twice the part: a clause's parts cost time in proportion to
 * the clause.  *len becomes twice the part's statements, for the next.
 */
static void build_cut_part(struct dt_pcb *pcb, struct bo_object *obj, struct dt_stmt *stmt,
			   struct part *p, size_t *len)
{
	size_t nrdescs = pcb->cc->descs->rdescs.n;
	struct dt_rdesc *rdesc = stmt->rdesc;
	struct dt_node *last, *rest;

	for (;;) {
		rest = cut_after(p, *len, &last);
		p->more = rest != NULL;
		build_part(pcb, obj, stmt, p);
		if (last != NULL)
			last->next = rest;
		if (p->next != NULL || !p->more)
			break;
		unbuild(pcb, stmt, p, nrdescs, rdesc);
		*len *= 2;
	}
	size_t n = 0;
	for (struct dt_node *s = p->list; s != NULL && s != p->next; s = s->next)
		n++;
	*len = 2 * n;
	if (p->next == NULL)
		return;
	unbuild(pcb, stmt, p, nrdescs, rdesc);
	struct dt_node *next = p->next;
	rest = cut_after(p, n, &last);
	p->budget = 0;
	p->more = false;
	p->parted = true;
	build_part(pcb, obj, stmt, p);
	last->next = rest;
	p->next = next;
}

int dt_cg_clause(struct dt_pcb *pcb, struct bo_object *obj, struct dt_stmt *stmt)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_node *c = stmt->clause;
	struct part p = {
		.list = c->clause.has_body ? c->clause.body : NULL,
		.split = c->clause.has_body && split_clause(c->clause.body),
		.budget = c->clause.has_body ? DT_CHAIN_MAX_INSNS : 0,
		.action_index = -1,
	};
	DT_VEC(struct bo_func *) parts = { 0 };
	bool may_fault = false;
	size_t len = 0;

	p.clause_records = !c->clause.has_body || cg_clause_records(c->clause.body);
	/* As one function; past the budget, part after part. */
	for (;;) {
		build_cut_part(pcb, obj, stmt, &p, &len);
		may_fault |= p.may_fault;
		if (dt_vec_push(&parts, p.fn) < 0) {
			dt_vec_free(&parts);
			dt_cnomem(pcb);
		}
		if (p.next == NULL)
			break;
		p.list = p.next;
		p.action_index = p.action_end;
		p.budget = PART_BUDGET;
		p.k++;
	}
	/* The last part's record ends the clause's firing (consumer/parts.h). */
	if (p.parted && p.rdesc != NULL) {
		p.rdesc->part_held = false;
		p.rdesc->part_last = true;
	}
	stmt->parts = dt_arena_zalloc(&cc->core->arena, parts.n * sizeof(*stmt->parts));
	if (stmt->parts == NULL) {
		dt_vec_free(&parts);
		dt_cnomem(pcb);
	}
	memcpy(stmt->parts, parts.v, parts.n * sizeof(*stmt->parts));
	stmt->nparts = parts.n;
	stmt->func = parts.v[0];
	stmt->may_fault = may_fault;
	dt_vec_free(&parts);
	/* Sema marks what may need scratch; after the passes nothing may read it. */
	if (stmt->uses_scratch && !cc->core->opts.nooptimize) {
		bool reads = false;
		for (size_t i = 0; i < stmt->nparts && !reads; i++)
			reads = reads_scratch(stmt->parts[i]);
		stmt->uses_scratch = reads;
	}
	return 0;
}
