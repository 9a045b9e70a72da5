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

/*
 * Move the arguments into R1..Rn: a parallel move (an argument may sit in
 * the register another one goes to), cycles broken through R0 or, when R0
 * is itself an argument, a stack slot.
 */
static void move_args(struct dt_cg *cg, const struct cg_arg *args, int nargs)
{
	int src[5];
	bool done[5] = { false };
	int pending = nargs, slot_for = -1, slot = 0;

	for (int i = 0; i < nargs; i++) {
		src[i] = args[i].kind == CG_ARG_REG ? args[i].v : -1;
		if (src[i] < 0) {
			done[i] = true;	/* materialized once the registers are in place */
			pending--;
		}
	}
	while (pending > 0) {
		bool progress = false;
		for (int i = 0; i < nargs; i++) {
			if (done[i])
				continue;
			int d = BPF_R1 + i;
			bool blocked = false;
			for (int j = 0; j < nargs; j++)
				if (j != i && !done[j] && src[j] == d)
					blocked = true;
			if (blocked && src[i] != d)
				continue;
			if (src[i] == -2)
				cg_emit(cg, I_LDX(BPF_DW, d, BPF_FP, slot));
			else if (src[i] != d)
				cg_emit(cg, I_MOV64_REG(d, src[i]));
			done[i] = true;
			pending--;
			progress = true;
		}
		if (progress)
			continue;
		/* A cycle: park one argument elsewhere and go on. */
		int i = 0;
		while (done[i])
			i++;
		bool r0_busy = false;
		for (int j = 0; j < nargs; j++)
			if (!done[j] && src[j] == BPF_R0)
				r0_busy = true;
		if (!r0_busy) {
			cg_emit(cg, I_MOV64_REG(BPF_R0, src[i]));
			src[i] = BPF_R0;
		} else {
			if (slot_for < 0) {
				slot = cg_stack_alloc(cg, 8);
				slot_for = i;
			}
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, src[i], slot));
			src[i] = -2;
		}
	}
	for (int i = 0; i < nargs; i++) {
		if (args[i].kind == CG_ARG_FP) {
			cg_emit(cg, I_MOV64_REG(BPF_R1 + i, BPF_FP));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1 + i, args[i].v));
		} else if (args[i].kind == CG_ARG_IMM) {
			cg_emit(cg, I_MOV64_IMM(BPF_R1 + i, args[i].v));
		}
	}
}

static int do_call(struct dt_cg *cg, struct bpf_insn call, const char *fname,
		   const struct cg_arg *args, int nargs, bool want)
{
	bool isarg[CG_NREGS] = { false };

	for (int i = 0; i < nargs; i++)
		if (args[i].kind == CG_ARG_REG)
			isarg[args[i].v] = true;
	/*
	 * Caller-saved registers: live values the call does not consume are
	 * spilled and restored; arguments are consumed (dead after the call).
	 */
	for (int r = BPF_R0; r <= BPF_R5; r++) {
		if (isarg[r]) {
			cg->reg_spilled_for[r] = 0;
			cg->reg_used[r] = true;
			continue;
		}
		cg_reg_xalloc(cg, r);
	}
	move_args(cg, args, nargs);
	for (int i = 0; i < nargs; i++) {
		if (args[i].kind == CG_ARG_REG && args[i].v > BPF_R5)
			cg->reg_used[args[i].v] = false;
	}
	if (fname != NULL) {
		struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL, .target = fname };
		if (dt_vec_push(&cg->fn->relocs, r) < 0)
			dt_cnomem(cg->pcb);
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

static void reg_args(struct cg_arg *out, const int *args, int nargs)
{
	for (int i = 0; i < nargs; i++)
		out[i] = (struct cg_arg){ CG_ARG_REG, args[i] };
}

int cg_call_helper(struct dt_cg *cg, int helper, const int *args, int nargs)
{
	struct cg_arg a[5];

	reg_args(a, args, nargs);
	return do_call(cg, I_CALL_HELPER(helper), NULL, a, nargs, true);
}

void cg_call_helper_void(struct dt_cg *cg, int helper, const int *args, int nargs)
{
	struct cg_arg a[5];

	reg_args(a, args, nargs);
	do_call(cg, I_CALL_HELPER(helper), NULL, a, nargs, false);
}

int cg_call_helper_args(struct dt_cg *cg, int helper, const struct cg_arg *args, int nargs)
{
	return do_call(cg, I_CALL_HELPER(helper), NULL, args, nargs, true);
}

int cg_probe_read(struct dt_cg *cg, int slot, uint32_t size, int addr, bool userland)
{
	const struct cg_arg a[3] = {
		{ CG_ARG_FP, slot }, { CG_ARG_IMM, (int32_t)size }, { CG_ARG_REG, addr },
	};

	return cg_call_helper_args(cg, userland ? BPF_FUNC_probe_read_user
						: BPF_FUNC_probe_read_kernel, a, 3);
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
		dt_cnomem(cg->pcb);
}

int cg_call_func(struct dt_cg *cg, const char *name, const int *args, int nargs)
{
	struct cg_arg a[5];

	reg_args(a, args, nargs);
	note_extern(cg, name, nargs);
	return do_call(cg, I_CALL_PSEUDO(), name, a, nargs, true);
}

void cg_call_func_void(struct dt_cg *cg, const char *name, const int *args, int nargs)
{
	struct cg_arg a[5];

	reg_args(a, args, nargs);
	note_extern(cg, name, nargs);
	do_call(cg, I_CALL_PSEUDO(), name, a, nargs, false);
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
