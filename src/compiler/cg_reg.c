/*
 * Register allocation for expression temporaries, and calls that keep
 * live caller-saved registers intact (spilled to fixed stack slots).
 */
#include <string.h>

#include "compiler/cg.h"
#include "lib/dt_impl.h"

#define SPILL_OFF(r) (-8 * ((r) + 1))

/* Callee-saved registers first: they survive calls without spilling. */
static const int alloc_order[] = { BPF_R9, BPF_R8, BPF_R7, BPF_R1, BPF_R2, BPF_R3, BPF_R4,
				   BPF_R5, BPF_R0 };

int cg_reg_alloc(struct dt_cg *cg)
{
	for (size_t i = 0; i < ARRAY_SIZE(alloc_order); i++) {
		int r = alloc_order[i];
		if (!cg->reg_used[r] && !cg->reg_reserved[r]) {
			cg->reg_used[r] = true;
			return r;
		}
	}
	dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
		  "expression too complex: out of registers");
}

void cg_reg_free(struct dt_cg *cg, int reg)
{
	if (reg < 0)
		return;
	if (cg->reg_spilled_for[reg] > 0) {
		/* Freeing a value that was spilled aside: it needs no restore. */
		cg->reg_spilled_for[reg] = -1;
		return;
	}
	cg->reg_used[reg] = false;
}

void cg_reg_xalloc(struct dt_cg *cg, int reg)
{
	if (cg->reg_used[reg]) {
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, SPILL_OFF(reg)));
		cg->reg_spilled_for[reg] = 1;
	} else {
		cg->reg_spilled_for[reg] = 0;
	}
	cg->reg_used[reg] = true;
}

void cg_reg_xfree(struct dt_cg *cg, int reg)
{
	if (cg->reg_spilled_for[reg] == 1) {
		cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, SPILL_OFF(reg)));
		cg->reg_used[reg] = true;
	} else if (cg->reg_spilled_for[reg] == -1) {
		/* The spilled value was freed meanwhile. */
		cg->reg_used[reg] = false;
	} else {
		cg->reg_used[reg] = false;
	}
	cg->reg_spilled_for[reg] = 0;
}

/* Where an argument value is now: its register, or its spill slot. */
static void load_arg(struct dt_cg *cg, int dst, int src, const bool *spilled)
{
	if (spilled[src])
		cg_emit(cg, I_LDX(BPF_DW, dst, BPF_FP, SPILL_OFF(src)));
	else if (src != dst)
		cg_emit(cg, I_MOV64_REG(dst, src));
}

static int do_call(struct dt_cg *cg, struct bpf_insn call, const char *fname, const int *args,
		   int nargs, bool want)
{
	bool spilled[CG_NREGS] = { false };

	/* Spill every live caller-saved register (R0-R5). */
	for (int r = BPF_R0; r <= BPF_R5; r++) {
		cg_reg_xalloc(cg, r);
		spilled[r] = cg->reg_spilled_for[r] == 1;
	}
	for (int i = 0; i < nargs; i++)
		load_arg(cg, BPF_R1 + i, args[i], spilled);
	/* Arguments are consumed by the call. */
	for (int i = 0; i < nargs; i++) {
		int a = args[i];
		if (a >= BPF_R0 && a <= BPF_R5 && spilled[a])
			cg->reg_spilled_for[a] = -1;
		else if (a > BPF_R5)
			cg->reg_used[a] = false;
	}
	if (fname != NULL) {
		struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL, .target = fname };
		if (dt_vec_push(&cg->fn->relocs, r) < 0)
			dt_cerror(cg->pcb, "D_NOMEM", cg->line, "out of memory");
	}
	cg_emit(cg, call);

	int res = -1;
	if (want) {
		/* Keep the result in a callee-saved register if one is free. */
		for (int r = BPF_R9; r >= BPF_R6; r--) {
			if (!cg->reg_used[r] && !cg->reg_reserved[r]) {
				cg->reg_used[r] = true;
				res = r;
				break;
			}
		}
		if (res < 0) {
			/* Park the result on the stack until R0-R5 are restored. */
			int slot = cg_stack_alloc(cg, 8);
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, slot));
			for (int r = BPF_R5; r >= BPF_R0; r--)
				cg_reg_xfree(cg, r);
			res = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(BPF_DW, res, BPF_FP, slot));
			return res;
		}
		cg_emit(cg, I_MOV64_REG(res, BPF_R0));
	}
	for (int r = BPF_R5; r >= BPF_R0; r--)
		cg_reg_xfree(cg, r);
	return res;
}

int cg_call_helper(struct dt_cg *cg, int helper, const int *args, int nargs)
{
	return do_call(cg, I_CALL_HELPER(helper), NULL, args, nargs, true);
}

void cg_call_helper_void(struct dt_cg *cg, int helper, const int *args, int nargs)
{
	do_call(cg, I_CALL_HELPER(helper), NULL, args, nargs, false);
}

static void note_extern(struct dt_cg *cg, const char *name, int nargs)
{
	struct bo_object *o = cg->obj;

	if (strncmp(name, "dt_rt_", 6) != 0)
		return;
	for (size_t i = 0; i < o->externs.n; i++) {
		if (strcmp(o->externs.v[i].name, name) == 0)
			return;
	}
	struct bo_extern e = { .name = name, .nargs = (unsigned)nargs };
	if (dt_vec_push(&o->externs, e) < 0)
		dt_cerror(cg->pcb, "D_NOMEM", cg->line, "out of memory");
}

int cg_call_func(struct dt_cg *cg, const char *name, const int *args, int nargs)
{
	note_extern(cg, name, nargs);
	return do_call(cg, I_CALL_PSEUDO(), name, args, nargs, true);
}

void cg_call_func_void(struct dt_cg *cg, const char *name, const int *args, int nargs)
{
	note_extern(cg, name, nargs);
	do_call(cg, I_CALL_PSEUDO(), name, args, nargs, false);
}

/* ---- stack ---- */

#define SPILL_AREA (8 * CG_NREGS)

int cg_stack_alloc(struct dt_cg *cg, int size)
{
	size = (int)DT_ALIGN((unsigned)size, 8u);
	cg->stack_top += size;
	if (cg->stack_top > cg->stack_max)
		cg->stack_max = cg->stack_top;
	if (SPILL_AREA + cg->stack_top > 320)
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "clause needs too much BPF stack (%d bytes)", SPILL_AREA + cg->stack_top);
	return -(SPILL_AREA + cg->stack_top);
}

int cg_stack_mark(struct dt_cg *cg)
{
	return cg->stack_top;
}

void cg_stack_release(struct dt_cg *cg, int mark)
{
	cg->stack_top = mark;
}
