/*
 * The sdt provider: every kernel tracepoint <group>:<event> is the probe
 * sdt:<group>::<event> (DTrace for Linux's naming).  A program is attached
 * to each enabled tracepoint; argN are the event's fields in order, read
 * from the tracepoint record as its format file describes, and args[N]
 * have the fields' C types (arrays and __data_loc strings are addresses
 * in the record).
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/cg.h"
#include "providers/attach.h"
#include "providers/providers.h"
#include "providers/tp_format.h"
#include "providers/tracefs.h"

static int add_event(const char *group, const char *event, void *arg)
{
	struct dt_registry *reg = arg;

	/* Other providers own these groups. */
	if (strcmp(group, "syscalls") == 0 || strcmp(group, "kprobes") == 0 ||
	    strcmp(group, "uprobes") == 0 || strcmp(group, "dt_pid") == 0 ||
	    strncmp(group, "dtrace_", 7) == 0)
		return 0;
	char *key = dt_arena_printf(&reg->core->arena, "%s:%s", group, event);
	if (key == NULL)
		return -ENOMEM;
	return dt_probe_add(reg, &dt_prov_sdt, group, "", event, 0, key) ? 0 : -ENOMEM;
}

static int populate(struct dt_registry *reg)
{
	int rc = dt_tracefs_events(add_event, reg);

	return rc == -ENOENT || rc == -EACCES ? 0 : rc;
}

/* Each tracepoint has its own record layout, so its own program. */
static const char *mech_class(const struct dt_probe *prp)
{
	return prp->priv;
}

static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args, int skip)
{
	struct dt_probe *prp = g->probes.v[0];
	struct dt_tp_field f[10];
	int n = dt_tp_format(prp->desc[1], prp->desc[3], f, 10);

	(void)skip;
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	for (int i = 0; i < 10; i++) {
		if (!(args & (1u << i)))
			continue;
		if (i >= n) {
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
			continue;
		}
		int sz = f[i].size;
		if (f[i].data_loc) {
			/* The string's address: the record plus the low 16 bits. */
			cg_emit(cg, I_LDX(BPF_W, BPF_R0, BPF_R6, (int16_t)f[i].off));
			cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R0, 0xffff));
			cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R0, BPF_R6));
		} else if (sz == 1 || sz == 2 || sz == 4 || sz == 8) {
			int code = sz == 1 ? BPF_B : sz == 2 ? BPF_H : sz == 4 ? BPF_W : BPF_DW;
			cg_emit(cg, I_LDX(code, BPF_R0, BPF_R6, (int16_t)f[i].off));
			if (f[i].is_signed && sz < 8) {
				cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R0, 64 - 8 * sz));
				cg_emit(cg, I_ALU64_IMM(BPF_ARSH, BPF_R0, 64 - 8 * sz));
			}
		} else {
			/* Arrays: the field's address in the record. */
			cg_emit(cg, I_MOV64_REG(BPF_R0, BPF_R6));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R0, f[i].off));
		}
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8 * i));
	}
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	for (size_t i = 0; i < g->probes.n; i++) {
		struct dt_probe *prp = g->probes.v[i];
		LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = prp->id);
		struct bpf_link *l = bpf_program__attach_tracepoint_opts(g->prog, prp->desc[1],
									 prp->desc[3], &opts);
		int rc = dt_group_link(reg, g, l, "failed to attach tracepoint %s:%s", prp->desc[1],
				       prp->desc[3]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static struct dt_type *arg_type(struct dt_registry *reg, const struct dt_probe *prp, int i)
{
	struct dt_tp_field f[10];
	int n = dt_tp_format(prp->desc[1], prp->desc[3], f, 10);

	return i >= 0 && i < n ? dt_tp_field_type(reg, &f[i]) : NULL;
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	struct dt_tp_field f[10];
	int n = dt_tp_format(prp->desc[1], prp->desc[3], f, 10);

	(void)reg;
	return n < 0 ? -1 : n;
}

static const struct dt_mech mech_tp = {
	.name = "sdt-tracepoint",
	.section = "tracepoint",
	.gated = true,
	.cookie_is_prid = true,
	.cg_prologue = prologue,
	.attach = attach,
};

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	(void)g;
	return &mech_tp;
}

static const char *unavailable(struct dt_registry *reg)
{
	(void)reg;
	return dt_tracefs_problem();
}

const struct dt_provider dt_prov_sdt = {
	.name = "sdt",
	.pattr = &dt_pattr_sdt,
	.populate = populate,
	.mech_class = mech_class,
	.choose = choose,
	.arg_type = arg_type,
	.arg_count = arg_count,
	.unavailable = unavailable,
};
