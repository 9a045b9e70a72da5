/*
 * if/else in a clause that writes a record.  The record is reserved
 * with room for every action of the clause, so the consumer has to be
 * told which of them ran: each branch that holds actions itself (not only
 * in nested ifs) gets a flag byte in the record, zeroed when the record is
 * reserved and set when the branch is entered.  Each item of the record's
 * description names the flag of its innermost branch (dt_ritem.guard);
 * the consumer skips the items whose flag is clear (dt_ritem_ran).  A
 * firing in which no action ran writes no record, as a clause without
 * actions writes none.  A clause without such branches is not changed.
 *
 * DTrace leaves if/else undocumented (the Guide says D has none);
 * illumos implements it by cutting the clause into one clause per basic
 * block, which prints a probe line per block without -q.  Here a clause
 * stays one clause, as in C: statements after the if run (also after an
 * exit() in a branch), and a fault discards the whole record.
 */
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/ident.h"
#include "consumer/rdesc.h"

static bool is_action(const struct dt_node *s)
{
	return s->kind == N_EXPRSTMT && s->l->kind == N_CALL && s->l->id != NULL &&
	       s->l->id->kind == IDK_ACTION;
}

/* Whether a statement list has an action outside its ifs (blocks are looked into). */
static bool direct_action(const struct dt_node *list)
{
	for (const struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_BLOCK ? direct_action(s->body) : is_action(s))
			return true;
	}
	return false;
}

/* Branches (then or else bodies) of the ifs in list that hold actions directly. */
static int count_branches(const struct dt_node *list)
{
	int n = 0;

	for (const struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_BLOCK) {
			n += count_branches(s->body);
		} else if (s->kind == N_IF) {
			n += direct_action(s->body) + direct_action(s->elsebody);
			n += count_branches(s->body) + count_branches(s->elsebody);
		}
	}
	return n;
}

void cg_branch_clause_begin(struct dt_cg *cg, struct dt_node *body)
{
	int n = count_branches(body);

	cg->guard = 0;
	cg->nflags = n;
	cg->next_flag = 0;
	if (n == 0)
		return;
	uint32_t size = DT_ALIGN((uint32_t)n, 8);
	cg->flags_off = cg_rec_alloc(cg, size, 8);
	for (uint32_t o = 0; o < size; o += 8)
		cg_emit(cg, I_ST(BPF_DW, REG_REC, (int16_t)(cg->flags_off + o), 0));
	/* With an action outside every branch, the record always goes out. */
	cg->flags_only = !direct_action(body);
}

uint32_t cg_branch_enter(struct dt_cg *cg, struct dt_node *list)
{
	uint32_t saved = cg->guard;

	if (!cg->records || cg->nflags == 0 || !direct_action(list))
		return saved;
	if (cg->next_flag >= cg->nflags)
		dt_cerror(cg->pcb, "D_UNKNOWN", list->line,
			  "internal error: no record flag for a branch");
	cg->guard = cg->flags_off + (uint32_t)cg->next_flag++;
	cg_emit(cg, I_ST(BPF_B, REG_REC, (int16_t)cg->guard, 1));
	return saved;
}

void cg_branch_leave(struct dt_cg *cg, uint32_t saved)
{
	cg->guard = saved;
}

void cg_branch_clause_end(struct dt_cg *cg, int exit_label, bool fill)
{
	if (cg->nflags == 0 || !cg->flags_only)
		return;
	int ran = cg_label_new(cg);
	for (uint32_t o = 0; o < DT_ALIGN((uint32_t)cg->nflags, 8); o += 8) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, REG_REC, (int16_t)(cg->flags_off + o)));
		cg_jmp_imm(cg, BPF_JNE, BPF_R1, 0, ran);
	}
	/* Nothing ran: no record, and (bufpolicy=fill) its room is given back. */
	cg_emit(cg, I_MOV64_REG(BPF_R1, REG_REC));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ringbuf_discard));
	if (fill) {
		cg_ld_bss(cg, BPF_R1, BSS_FILLED);
		cg_emit(cg, I_MOV64_IMM(BPF_R2, -(int32_t)cg->rdesc->size));
		cg_emit(cg, bpf_insn(BPF_STX | BPF_ATOMIC | BPF_W, BPF_R1, BPF_R2, 0, BPF_ADD));
	}
	cg_ja(cg, exit_label);
	cg_label_place(cg, ran);
}
