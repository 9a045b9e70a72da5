/*
 * lockstat's hold probes: a lock is taken or released when one of the
 * kernel's out-of-line lock functions returns (mutex_lock, _raw_spin_lock,
 * _raw_read_unlock_irqrestore ...).  An fexit program on each sees the
 * function's arguments and result together, so the lock and whether a
 * trylock succeeded come from the same call, whatever nests or migrates.
 * A probe's functions each need a program of their own (a trampoline
 * binds one function): copies of the group's program (dt_mech.copies).
 *
 * A kernel that inlines one of the functions a probe needs (the unlock
 * functions, when built without preemption) would hide some of the lock
 * operations from it: such a probe fails to enable and says which.  No
 * kprobe fallback: a kretprobe does not see the arguments, and matching
 * a return to its entry across interrupts is where counts go wrong.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "providers/attach.h"
#include "providers/fbt.h"
#include "providers/lockstat.h"

/* The functions a group's copies are attached to, by copy. */
struct ls_hold {
	size_t n;
	const struct ls_func **lf;
	const struct fbt_func **ff;
	struct bpf_program **progs;	/* once loaded (find_copies) */
};

static struct ls_hold *hold(const struct dt_group *g)
{
	return g->priv;
}

static const char *section(struct dt_registry *reg, struct dt_group *g)
{
	return dt_arena_printf(&reg->core->arena, "fexit/%s", hold(g)->ff[g->copy]->name);
}

static unsigned copies(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	return (unsigned)hold(g)->n - 1;
}

/*
 * The context is the function's arguments, then its result.  The lock
 * is read with probe_read_kernel: loaded directly it would be a typed
 * BTF pointer, which clauses could not use as a number.
 */
static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct ls_func *lf = hold(g)->lf[g->copy];
	const struct fbt_func *ff = hold(g)->ff[g->copy];

	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)(dctx + DCTX_PRID), (int32_t)prp->id));
	for (int i = 0; i < 10; i++)
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 8 * i), 0));
	if (lf->ok_ret >= 0) {
		/* A trylock that failed, or an interrupted wait: no lock taken. */
		cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, (int16_t)(8 * ff->nargs)));
		cg_emit(cg, I_MOV32_REG(BPF_R0, BPF_R0));
		cg_jmp_imm(cg, BPF_JNE, BPF_R0, lf->ok_ret, skip);
	}
	if (args & 1u) {
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, dctx + DCTX_ARGS));
		cg_emit(cg, I_MOV64_IMM(BPF_R2, 8));
		cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_R6));
		cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	}
	if (lf->rw >= 0 && (args & 2u))
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 8), lf->rw));
}

/* Once loaded: each copy's program (<g->name>_<k>, cg_prog.c), for attach. */
static int find_copies(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj)
{
	struct ls_hold *h = hold(g);

	h->progs[0] = g->prog;
	for (size_t k = 1; k < h->n; k++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_%u", g->name, (unsigned)k);
		h->progs[k] = bpf_object__find_program_by_name(obj, name);
		if (h->progs[k] == NULL)
			return dt_set_error(reg->core, -ENOENT, "lockstat:::%s: program %s not found "
					    "in the loaded object", LS_PROBE(g->probes.v[0])->name,
					    name);
	}
	return 0;
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct ls_hold *h = hold(g);

	for (size_t k = 0; k < h->n; k++) {
		int rc = dt_group_link(reg, g, bpf_program__attach_trace(h->progs[k]),
				       "failed to attach lockstat:::%s to fexit of %s",
				       LS_PROBE(g->probes.v[0])->name, h->ff[k]->name);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct dt_mech mech_fexit = {
	.name = "lockstat-fexit",
	.section = "fexit",
	.group_section = section,
	.gated = true,
	/* dtrace's own programs take spin locks (the ring buffer's): never inside them. */
	.exclusive = true,
	.cg_prologue = prologue,
	.attach = attach,
	.fill_maps = find_copies,
	.copies = copies,
};

static bool present(const struct fbt_func *f)
{
	return f != NULL && f->listed && f->fentry_ok;
}

const struct dt_mech *dt_lockstat_hold_choose(struct dt_registry *reg, struct dt_group *g)
{
	const struct ls_probe *lp = LS_PROBE(g->probes.v[0]);
	struct dt_fbt *fbt = dt_fbt_state(reg);
	int rc;

	if (fbt == NULL) {
		dt_set_error(reg->core, -ENOMEM, "out of memory");
		return NULL;
	}
	if ((rc = dt_fbt_funcs_load(reg, fbt)) < 0) {
		dt_set_error(reg->core, rc, "cannot enable lockstat:::%s: the kernel's functions cannot be "
			     "listed: %s", lp->name, strerror(-rc));
		return NULL;
	}
	const struct fbt_func *sample = dt_fbt_func(fbt, "vmlinux", lp->funcs[0].name);
	if (!dt_fbt_feature(reg, fbt, FBT_FENTRY, sample)) {
		dt_set_error(reg->core, -ENOTSUP, "cannot enable lockstat:::%s: it fires when %s, which only "
			     "fexit probes on the kernel's lock functions (%s ...) can see, and this "
			     "kernel offers no fexit: %s", lp->name, lp->what, lp->funcs[0].name,
			     fbt->feat[FBT_FENTRY].why);
		return NULL;
	}
	struct ls_hold *h = dt_arena_zalloc(&reg->core->arena, sizeof(*h));
	size_t max = 0;
	while (lp->funcs[max].name != NULL)
		max++;
	if (h == NULL || (h->lf = dt_arena_zalloc(&reg->core->arena, max * sizeof(*h->lf))) == NULL ||
	    (h->ff = dt_arena_zalloc(&reg->core->arena, max * sizeof(*h->ff))) == NULL ||
	    (h->progs = dt_arena_zalloc(&reg->core->arena, max * sizeof(*h->progs))) == NULL) {
		dt_set_error(reg->core, -ENOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < max; i++) {
		const struct ls_func *lf = &lp->funcs[i];
		const struct fbt_func *ff = dt_fbt_func(fbt, "vmlinux", lf->name);
		if (present(ff)) {
			h->lf[h->n] = lf;
			h->ff[h->n++] = ff;
			continue;
		}
		if (!lf->required || (lf->alt != NULL && present(dt_fbt_func(fbt, "vmlinux", lf->alt))))
			continue;
		dt_set_error(reg->core, -ENOTSUP, "cannot enable lockstat:::%s: this kernel has no traceable "
			     "function %s%s%s (it is inlined, or fexit cannot attach to it), so the "
			     "probe would miss some of the times %s", lp->name, lf->name,
			     lf->alt ? " nor " : "", lf->alt ? lf->alt : "", lp->what);
		return NULL;
	}
	g->priv = h;
	return &mech_fexit;
}
