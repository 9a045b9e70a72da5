/*
 * Calls of helpers and BPF functions: arguments moved into R1..R5, live
 * caller-saved registers kept in stack slots across the call, the result
 * taken out of R0 (into a callee-saved register if one is free, else left
 * in R0 unless a saved value comes back there).
 */
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"

/*
 * Move the arguments into R1..Rn: a parallel move (an argument may sit in
 * the register another one goes to), cycles broken through R0 or, when R0
 * is itself an argument, a stack slot.
 */
static void move_args(struct dt_cg *cg, const struct cg_arg *args, int nargs)
{
	int src[5];
	bool done[5] = { false };
	int pending = nargs, slot = -1;

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
				cg_emit(cg, I_LDX(BPF_DW, d, BPF_FP, CG_SLOT_OFF(slot)));
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
			if (slot < 0)
				slot = cg_frame_take(cg, 0);
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, src[i], CG_SLOT_OFF(slot)));
			src[i] = -2;
		}
	}
	if (slot >= 0)
		cg_frame_give(cg, slot);
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
	bool isarg[CG_NREGS] = { false }, live[BPF_R5 + 1];
	int saved[BPF_R5 + 1];

	for (int i = 0; i < nargs; i++)
		if (args[i].kind == CG_ARG_REG)
			isarg[args[i].v] = true;
	/*
	 * Live caller-saved registers the call does not consume wait in stack
	 * slots; arguments are consumed (dead after the call).
	 */
	for (int r = BPF_R0; r <= BPF_R5; r++) {
		live[r] = cg->reg_used[r] && !isarg[r];
		saved[r] = live[r] ? cg_reg_save(cg, r) : -1;
	}
	move_args(cg, args, nargs);
	for (int i = 0; i < nargs; i++)
		if (args[i].kind == CG_ARG_REG)
			cg->reg_used[args[i].v] = false;
	/* R0-R5 hold nothing of ours during the call. */
	for (int r = BPF_R0; r <= BPF_R5; r++)
		cg->reg_used[r] = true;
	if (fname != NULL) {
		struct bo_reloc r = { .insn = cg_pos(cg), .kind = BO_RELOC_CALL, .target = fname };
		if (dt_vec_push(&cg->fn->relocs, r) < 0)
			dt_cnomem(cg->pcb);
	}
	cg_emit(cg, call);

	int res = -1, park = -1;
	if (want) {
		/* Keep the result in a callee-saved register if one is free. */
		for (int r = BPF_R9; r >= BPF_R6; r--) {
			if (!cg->reg_used[r] && !cg->reg_reserved[r]) {
				res = r;
				break;
			}
		}
		if (res >= 0) {
			cg_emit(cg, I_MOV64_REG(res, BPF_R0));
			cg_reg_claim(cg, res);
		} else if (!live[BPF_R0]) {
			/* r0 itself: no value of ours comes back into it. */
			res = BPF_R0;
		} else {
			/* Park the result on the stack until R0-R5 are back. */
			park = cg_frame_take(cg, 0);
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, CG_SLOT_OFF(park)));
		}
	}
	for (int r = BPF_R5; r >= BPF_R0; r--) {
		cg->reg_used[r] = live[r];
		if (live[r])
			cg_reg_restore(cg, r, saved[r]);
	}
	if (res == BPF_R0)
		cg_reg_claim(cg, res);
	if (park >= 0) {
		res = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, res, BPF_FP, CG_SLOT_OFF(park)));
		cg_frame_give(cg, park);
	}
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
