/*
 * Registers for expression temporaries, with spilling.
 *
 * Every cg_expr() is a region (struct cg_region): its code begins at one
 * instruction and ends where cg_expr() returns; the code of the
 * evaluations around it (the region's parents) is suspended meanwhile and
 * does not touch its registers.  When no register is free, the oldest
 * register a parent holds is spilled: its value goes to a stack slot and
 * comes back at the region's exit, and the region uses the register in
 * between.  The value is stored where the region decided to spill if
 * every path through the region passes there; otherwise (a branch of ?:,
 * &&, ||, a string or NULL check decided) at the region's entry, inserted
 * when the function is finished (cg_insert.c), so that every path finds
 * the value where its owner left it.
 *
 * A region's result needs a register of its own at the exit: if it sits
 * where a spilled value comes back and no other register is free, one
 * spilled value stays spilled until the parent region's exit, or one of
 * the parent's parents' values is spilled.  A function never runs out of
 * registers unless one operation holds more than BPF has, which none does;
 * it can run out of stack (cg_frame.c).
 */
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"

/* Callee-saved registers first: they survive calls without being saved. */
static const int alloc_order[] = { BPF_R9, BPF_R8, BPF_R7, BPF_R1, BPF_R2, BPF_R3, BPF_R4,
				   BPF_R5, BPF_R0 };

static _Noreturn void oom(struct dt_cg *cg)
{
	dt_cnomem(cg->pcb);
}

static int depth(const struct dt_cg *cg)
{
	return (int)cg->regions.n;
}

/* A free register that is not in `avoid` (a bit mask), or -1. */
static int find_free(const struct dt_cg *cg, unsigned avoid)
{
	for (size_t i = 0; i < ARRAY_SIZE(alloc_order); i++) {
		int r = alloc_order[i];
		if (!cg->reg_used[r] && !cg->reg_reserved[r] && !(avoid & (1u << r)))
			return r;
	}
	return -1;
}

/* The oldest live register held by an evaluation shallower than `below`, except `except`. */
static int find_victim(const struct dt_cg *cg, int below, int except)
{
	int v = -1;

	for (size_t i = 0; i < ARRAY_SIZE(alloc_order); i++) {
		int r = alloc_order[i];
		if (!cg->reg_used[r] || cg->reg_reserved[r] || r == except || cg->reg_owner[r] >= below)
			continue;
		if (v < 0 || cg->reg_seq[r] < cg->reg_seq[v])
			v = r;
	}
	return v;
}

static void hold(struct dt_cg *cg, int r, int owner, uint32_t seq, bool written)
{
	cg->reg_used[r] = true;
	cg->reg_owner[r] = owner;
	cg->reg_seq[r] = seq;
	cg->reg_written[r] = written;
}

/* Slots used since region ri began (its active inner regions have not told it yet). */
static uint64_t touched_since(const struct dt_cg *cg, int ri)
{
	uint64_t m = 0;

	for (size_t i = (size_t)ri; i < cg->regions.n; i++)
		m |= cg->regions.v[i].touched;
	return m;
}

/* Labels jumped to when a clause leaves (never placed inside a region). */
static bool is_exit_label(const struct dt_cg *cg, int label)
{
	return label == cg->fault_label || label == cg->exit_label || label == cg->drop_label ||
	       label == cg->pred_fault_label || (cg->spec_fail > 0 && label == cg->spec_fail - 1);
}

/*
 * Whether every path through region ri passes the point where fixup
 * `to` is next: no jump of ri's since fixup `from` goes to one of its
 * labels still ahead.  (The code has no loops, and only jumps that leave
 * the clause leave a region.)
 */
static bool on_every_path(const struct dt_cg *cg, int ri, size_t from, size_t to)
{
	size_t label0 = cg->regions.v[ri].label0;

	for (size_t f = from; f < to; f++) {
		int l = cg->fixups.v[f].label;
		if ((size_t)l >= label0 && cg->labels.v[l].pos < 0 && !is_exit_label(cg, l))
			return false;
	}
	return true;
}

/* A store of reg at region ri's entry, into a slot nothing used since; its index in stores. */
static int store_at_entry(struct dt_cg *cg, int reg, int ri, int *slot)
{
	*slot = cg_frame_take(cg, touched_since(cg, ri));
	struct cg_store st = { .at = cg->regions.v[ri].entry, .reg = reg,
			       .off = (int16_t)CG_SLOT_OFF(*slot) };
	if (dt_vec_push(&cg->stores, st) < 0)
		oom(cg);
	return (int)cg->stores.n - 1;
}

/*
 * Spill the value in `reg` (its owner is suspended for the whole of
 * region `ri`, whose code is running) until ri's exit.  Where every path
 * through ri passes, it is stored here; otherwise at ri's entry.  A
 * register nothing wrote yet holds nothing to keep.
 */
static void spill(struct dt_cg *cg, int reg, int ri)
{
	struct cg_spill s = { .reg = reg, .slot = -1, .owner = cg->reg_owner[reg],
			      .seq = cg->reg_seq[reg], .region = ri, .store = -1, .stored_at = -1 };

	if (cg->reg_written[reg]) {
		if (on_every_path(cg, ri, cg->regions.v[ri].fix0, cg->fixups.n)) {
			s.slot = cg_frame_take(cg, 0);
			s.stored_at = (long)cg_pos(cg);
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, CG_SLOT_OFF(s.slot)));
		} else {
			s.store = store_at_entry(cg, reg, ri, &s.slot);
		}
	}
	if (dt_vec_push(&cg->spills, s) < 0)
		oom(cg);
	cg->reg_used[reg] = false;
}

static void reload(struct dt_cg *cg, size_t i)
{
	struct cg_spill s = cg->spills.v[i];

	memmove(&cg->spills.v[i], &cg->spills.v[i + 1], (cg->spills.n - i - 1) * sizeof(s));
	cg->spills.n--;
	if (cg->reg_used[s.reg])
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "internal error: spilled register r%d taken at its reload", s.reg);
	if (s.slot >= 0) {
		cg_emit(cg, I_LDX(BPF_DW, s.reg, BPF_FP, CG_SLOT_OFF(s.slot)));
		cg_frame_give(cg, s.slot);
	}
	hold(cg, s.reg, s.owner, s.seq, s.slot >= 0);
}

/*
 * Leave spill i, of region ri + 1, to region ri until ri's exit.  Its
 * store stays where it is if every path through ri enters ri + 1;
 * otherwise the value is stored at ri's entry (in a slot ri has not used)
 * and the store in ri + 1 goes.
 */
static void hand_over(struct dt_cg *cg, size_t i, int ri)
{
	struct cg_spill *s = &cg->spills.v[i];

	s->region = ri;
	if (s->slot < 0 || on_every_path(cg, ri, cg->regions.v[ri].fix0, cg->regions.v[ri + 1].fix0))
		return;
	if (s->stored_at >= 0)
		cg->fn->insns.v[s->stored_at] = I_JA(0);
	else
		cg->stores.v[s->store].reg = -1;
	int old = s->slot;
	s->store = store_at_entry(cg, s->reg, ri, &s->slot);
	s->stored_at = -1;
	cg_frame_give(cg, old);
}

int cg_reg_alloc(struct dt_cg *cg)
{
	int r = find_free(cg, 0);

	if (r < 0) {
		int d = depth(cg);
		r = d > 0 ? find_victim(cg, d, -1) : -1;
		if (r < 0)
			dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
				  "internal error: an operation holds more registers than BPF has");
		spill(cg, r, d - 1);
	}
	hold(cg, r, depth(cg), ++cg->reg_clock, false);
	return r;
}

void cg_reg_free(struct dt_cg *cg, int reg)
{
	if (reg >= 0)
		cg->reg_used[reg] = false;
}

void cg_reg_claim(struct dt_cg *cg, int reg)
{
	if (cg->reg_used[reg])
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "internal error: register r%d claimed while in use", reg);
	hold(cg, reg, depth(cg), ++cg->reg_clock, true);
}

void cg_reg_enter(struct dt_cg *cg)
{
	struct cg_region r = { .entry = cg_pos(cg), .touched = cg->slot_used,
			       .fix0 = cg->fixups.n, .label0 = cg->labels.n };

	if (dt_vec_push(&cg->regions, r) < 0)
		oom(cg);
	/* Spill stores may go here: no constant is known across it. */
	cg->label_pos = cg_pos(cg);
}

/*
 * The result is in a register a value of this region comes back to and
 * no other is free: keep one value spilled into the parent region, or
 * spill one of the parent's parents' values there.  Returns the register
 * the result moves to, or -1 if it may stay.
 */
static int make_room(struct dt_cg *cg, int ri, int result)
{
	int pd = ri;	/* the parent's depth */
	long pick = -1;

	for (size_t i = 0; i < cg->spills.n; i++) {
		const struct cg_spill *s = &cg->spills.v[i];
		if (s->region != ri || s->owner >= pd)
			continue;
		if (pick < 0 || s->reg == result)
			pick = (long)i;
	}
	if (pick >= 0) {
		int reg = cg->spills.v[pick].reg;
		hand_over(cg, (size_t)pick, ri - 1);
		return reg == result ? -1 : reg;
	}
	int v = ri > 0 ? find_victim(cg, pd, result) : -1;
	if (v < 0)
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "internal error: an operation holds more registers than BPF has");
	spill(cg, v, ri - 1);
	return v;
}

int cg_reg_leave(struct dt_cg *cg, int result)
{
	int ri = (int)cg->regions.n - 1;
	unsigned back = 0;

	for (size_t i = 0; i < cg->spills.n; i++)
		if (cg->spills.v[i].region == ri)
			back |= 1u << cg->spills.v[i].reg;
	if (result >= 0) {
		cg->reg_owner[result] = ri;
		if (back & (1u << result)) {
			int to = find_free(cg, back);
			if (to < 0)
				to = make_room(cg, ri, result);
			if (to >= 0) {
				cg_emit(cg, I_MOV64_REG(to, result));
				hold(cg, to, ri, cg->reg_seq[result], true);
				cg->reg_used[result] = false;
				result = to;
			}
		}
	}
	for (size_t i = cg->spills.n; i-- > 0;)
		if (cg->spills.v[i].region == ri)
			reload(cg, i);
	uint64_t touched = cg->regions.v[ri].touched;
	cg->regions.n--;
	if (ri > 0)
		cg->regions.v[ri - 1].touched |= touched;
	return result;
}

void cg_reg_note_insn(struct dt_cg *cg, const struct bpf_insn *in)
{
	switch (BPF_CLASS(in->code)) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
		cg->reg_written[in->dst_reg] = true;
		break;
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_IMM | BPF_DW))
			cg->reg_written[in->dst_reg] = true;
		else if (BPF_MODE(in->code) == BPF_ABS || BPF_MODE(in->code) == BPF_IND)
			cg->reg_written[BPF_R0] = true;
		break;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			if (in->imm == BPF_CMPXCHG)
				cg->reg_written[BPF_R0] = true;
			else if (in->imm & BPF_FETCH)
				cg->reg_written[in->src_reg] = true;
		}
		break;
	case BPF_JMP:
		if (BPF_OP(in->code) == BPF_CALL)
			cg->reg_written[BPF_R0] = true;
		break;
	default:
		break;
	}
}

int cg_reg_save(struct dt_cg *cg, int reg)
{
	if (!cg->reg_used[reg] || !cg->reg_written[reg])
		return -1;
	int slot = cg_frame_take(cg, 0);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, CG_SLOT_OFF(slot)));
	return slot;
}

void cg_reg_restore(struct dt_cg *cg, int reg, int slot)
{
	if (slot < 0)
		return;
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, CG_SLOT_OFF(slot)));
	cg_frame_give(cg, slot);
}
