/*
 * The rawtp provider (DTrace 2.0's): every kernel tracepoint
 * <group>:<event> in tracefs' available_events is the probe
 * rawtp:<group>::<event>, fired by a raw tracepoint program.  argN are
 * the tracepoint's TP_PROTO arguments untranslated, and args[N] have the
 * types the kernel's BTF gives them (uint64_t where BTF does not describe
 * the event).  The groups other providers own (syscalls) and the dynamic
 * ones (kprobes, uprobes, DTrace's own) are left out, as DTrace does.
 *
 * Each probe has its own program: the kernel refuses a raw tracepoint
 * program that reads more arguments than the tracepoint has.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/providers.h"
#include "providers/rawtp_proto.h"
#include "providers/tracefs.h"

struct rawtp_probe {
	const char *event;
	bool known;			/* proto was looked up */
	struct rawtp_proto proto;
};

static int add_event(const char *group, const char *event, void *arg)
{
	struct dt_registry *reg = arg;

	if (strcmp(group, "syscalls") == 0 || strcmp(group, "kprobes") == 0 ||
	    strcmp(group, "uprobes") == 0 || strcmp(group, "dt_pid") == 0 ||
	    strncmp(group, "dtrace_", 7) == 0)
		return 0;
	struct rawtp_probe *rp = dt_arena_zalloc(&reg->core->arena, sizeof(*rp));
	if (rp == NULL || (rp->event = dt_arena_strdup(&reg->core->arena, event)) == NULL)
		return -ENOMEM;
	return dt_probe_add(reg, &dt_prov_rawtp, group, "", event, 0, rp) ? 0 : -ENOMEM;
}

static int populate(struct dt_registry *reg)
{
	int rc = dt_tracefs_events(add_event, reg);

	return rc == -ENOENT || rc == -EACCES ? 0 : rc;
}

/* The probe's TP_PROTO, looked up once. */
static const struct rawtp_proto *proto(struct dt_typetab *types, const struct dt_probe *prp)
{
	struct rawtp_probe *rp = (struct rawtp_probe *)prp->priv;

	if (!rp->known) {
		rp->known = true;
		if (!dt_rawtp_proto_btf(dt_kernel_btf(types), rp->event, &rp->proto))
			rp->proto.nargs = dt_rawtp_count_args(rp->event);
	}
	return &rp->proto;
}

static struct dt_type *arg_type(struct dt_registry *reg, const struct dt_probe *prp, int i)
{
	struct dt_typetab *types = &reg->core->types;
	const struct rawtp_proto *p = proto(types, prp);

	if (i < 0 || i >= p->nargs)
		return NULL;
	if (!p->typed)
		return types->t_uint64;
	return dt_type_from_btf(types, p->btf, p->types[i]);
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	return proto(&reg->core->types, prp)->nargs;
}

/* Each tracepoint reads its own number of arguments: a program of its own. */
static const char *mech_class(const struct dt_probe *prp)
{
	return ((const struct rawtp_probe *)prp->priv)->event;
}

/*
 * The kernel passes each argument zero-extended from its own size; a
 * signed one narrower than 64 bits is sign-extended, so that argN and
 * args[N] have its value.
 */
static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip)
{
	struct dt_registry *reg = cg->cc->reg;
	const struct dt_probe *prp = g->probes.v[0];
	const struct rawtp_proto *p = proto(&reg->core->types, prp);

	(void)skip;
	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)(dctx + DCTX_PRID), (int32_t)prp->id));
	for (int i = 0; i < RAWTP_MAX_ARGS; i++) {
		if (!(args & (1u << i)))
			continue;
		int16_t slot = (int16_t)(dctx + DCTX_ARGS + 8 * i);
		if (i >= p->nargs) {
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
			continue;
		}
		cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, (int16_t)(8 * i)));
		struct dt_type *t = p->typed ? arg_type(reg, prp, i) : NULL;
		uint32_t size = t != NULL ? dt_type_size(t) : 8;
		if (t != NULL && dt_type_is_integer(t) && dt_type_is_signed(t) && size < 8) {
			cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R0, (int32_t)(64 - 8 * size)));
			cg_emit(cg, I_ALU64_IMM(BPF_ARSH, BPF_R0, (int32_t)(64 - 8 * size)));
		}
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, slot));
	}
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct rawtp_probe *rp = prp->priv;

	return dt_group_link(reg, g, bpf_program__attach_raw_tracepoint(g->prog, rp->event),
			     "failed to attach raw tracepoint %s (probe %s:%s::%s)", rp->event,
			     prp->desc[0], prp->desc[1], prp->desc[3]);
}

static const struct dt_mech mech_raw = {
	.name = "rawtp",
	.section = "raw_tp",
	.gated = true,
	.cg_prologue = prologue,
	.attach = attach,
};

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];

	if (proto(&reg->core->types, prp)->nargs < 0) {
		dt_set_error(reg->core, -ENOENT, "cannot enable %s:%s::%s: the kernel has no raw tracepoint "
			     "%s (or refuses raw tracepoint programs)", prp->desc[0], prp->desc[1],
			     prp->desc[3], ((const struct rawtp_probe *)prp->priv)->event);
		return NULL;
	}
	return &mech_raw;
}

static const char *unavailable(struct dt_registry *reg)
{
	(void)reg;
	return dt_tracefs_problem();
}

const struct dt_provider dt_prov_rawtp = {
	.name = "rawtp",
	.pattr = &dt_pattr_sdt,
	.populate = populate,
	.mech_class = mech_class,
	.choose = choose,
	.arg_type = arg_type,
	.arg_count = arg_count,
	.unavailable = unavailable,
};
