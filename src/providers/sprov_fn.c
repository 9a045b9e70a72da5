/*
 * Stable probes made on a kernel function (SP_FENTRY, SP_FEXIT): a BPF
 * trampoline at its entry or return, where no tracepoint gives what the
 * probe needs (io:::wait-start and wait-done: submit_bio_wait()).  The
 * program's context is the function's arguments as u64s.  Whether a
 * trampoline can be put there is found by trying one, when a probe is to
 * be enabled, with a program that does nothing: kernels without BPF
 * trampolines, or that forbid them (as lockdown or a hypervisor may),
 * then say why the probe cannot be enabled instead of failing to load.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/core.h"
#include "base/insn.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/sprov.h"

#define ENOTSUPP_KERNEL 524	/* the kernel's internal "not supported" */

static const char *tramp(const struct sp_probe *sp)
{
	return sp->kind == SP_FEXIT ? "fexit" : "fentry";
}

static int func_btf_id(struct dt_registry *reg, const char *fn)
{
	struct btf *btf = dt_kernel_btf(&reg->core->types);

	return btf != NULL ? btf__find_by_name_kind(btf, fn, BTF_KIND_FUNC) : -1;
}

static const char *errstr(int err)
{
	return err == ENOTSUPP_KERNEL ? "not supported by this kernel (ENOTSUPP)" : strerror(err);
}

const char *sp_fn_problem(struct dt_registry *reg, const struct sp_probe *sp)
{
	const char *fn = sp->events[0];
	int id = func_btf_id(reg, fn);

	if (id <= 0)
		return dt_arena_printf(&reg->core->arena, "it is made on the kernel function %s(), which "
				       "this kernel's BTF does not have", fn);
	struct bpf_insn insns[] = { I_MOV64_IMM(BPF_R0, 0), I_EXIT() };
	LIBBPF_OPTS(bpf_prog_load_opts, o, .attach_btf_id = (uint32_t)id,
		    .expected_attach_type = sp->kind == SP_FEXIT ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "dt_sp_try", "GPL", insns, ARRAY_SIZE(insns),
			       &o);
	const char *what = "loading";
	int err = errno;
	if (fd >= 0) {
		int lfd = bpf_raw_tracepoint_open(NULL, fd);
		err = errno;
		close(fd);
		if (lfd >= 0) {
			close(lfd);
			return NULL;
		}
		what = "attaching";
	}
	return dt_arena_printf(&reg->core->arena, "it needs a BPF trampoline (%s) on the kernel function "
			       "%s(), and %s one failed here: %s", tramp(sp), fn, what, errstr(err));
}

/* The function's parameters must be what the probe's prologue reads. */
void sp_fn_check(struct dt_cg *cg, const struct dt_probe *prp, const struct sp_probe *sp)
{
	struct btf *btf = dt_kernel_btf(&cg->cc->core->types);
	int id = func_btf_id(cg->cc->reg, sp->events[0]);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;

	if (t != NULL)
		t = btf__type_by_id(btf, t->type);
	if (!sp_params_match(cg, sp, btf, t, 0))
		dt_cerror(cg->pcb, NULL, 0, "probe %s:::%s cannot be enabled on this kernel: "
			  "the kernel function %s() does not take what the probe expects",
			  prp->desc[0], prp->desc[3], sp->events[0]);
}

void sp_fn_arg(struct dt_cg *cg, int dctx, int reg, int k)
{
	/* Copied, not loaded: a typed pointer would not be a number to the clause. */
	sp_read(cg, dctx, reg, BPF_R6, (uint32_t)(8 * k), 8);
}

static const char *fn_section(struct dt_registry *reg, struct dt_group *g)
{
	const struct sp_probe *sp = g->probes.v[0]->priv;

	return dt_arena_printf(&reg->core->arena, "%s/%s", tramp(sp), sp->events[0]);
}

int sp_fn_attach(struct dt_registry *reg, struct dt_group *g, const struct sp_probe *sp)
{
	const struct dt_probe *prp = g->probes.v[0];
	struct bpf_link *l = bpf_program__attach_trace(g->prog);

	if (l == NULL) {
		int err = errno;
		return dt_set_error(reg->core, -err, "failed to attach %s:::%s to %s %s: %s", prp->desc[0],
				    prp->desc[3], tramp(sp), sp->events[0], errstr(err));
	}
	return dt_group_link(reg, g, l, "trampoline");
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	return sp_fn_attach(reg, g, g->probes.v[0]->priv);
}

static const struct dt_mech mech_fentry = {
	.name = "stable-fentry",
	.section = "fentry",
	.group_section = fn_section,
	.per_probe = true,
	.gated = true,
	.cg_prologue = sp_prologue,
	.attach = attach,
};

static const struct dt_mech mech_fexit = {
	.name = "stable-fexit",
	.section = "fexit",
	.group_section = fn_section,
	.per_probe = true,
	.gated = true,
	.cg_prologue = sp_prologue,
	.attach = attach,
};

const struct dt_mech *sp_fn_mech(enum sp_kind kind)
{
	return kind == SP_FEXIT ? &mech_fexit : &mech_fentry;
}
