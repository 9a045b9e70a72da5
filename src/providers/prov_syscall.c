/*
 * The syscall provider: syscall:vmlinux:<name>:entry and :return, one
 * probe per tracefs event syscalls:sys_enter_<name> / sys_exit_<name>.
 *
 * A few probes attach one tracepoint each (the attach cookie carries the
 * probe id).  Wider sets use the raw_syscalls sys_enter / sys_exit raw
 * tracepoints with a dispatch map from syscall number to probe id: one
 * attachment that is quick to create and destroy, where hundreds of perf
 * tracepoints take seconds to detach.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/object.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "bpf/runtime.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/providers.h"
#include "providers/pt_regs.h"
#include "providers/syscall_table.h"
#include "providers/tp_format.h"
#include "providers/tracefs.h"

/* More probes than this in one program use the raw_syscalls path. */
#define RAW_THRESHOLD 2
#define NR_MAX 1024
#define NO_NR UINT64_MAX

/* Tracefs names that differ from <asm/unistd.h>, and newer generic syscalls. */
static const struct dt_syscall_nr extra_nrs[] = {
	{ "newfstat", 5 }, { "newlstat", 6 }, { "newstat", 4 }, { "newuname", 63 },
	{ "sendfile64", 40 }, { "umount", 166 }, { "uretprobe", 335 }, { "uprobe", 336 },
	{ "cachestat", 451 }, { "fchmodat2", 452 }, { "map_shadow_stack", 453 },
	{ "futex_wake", 454 }, { "futex_wait", 455 }, { "futex_requeue", 456 },
	{ "statmount", 457 }, { "listmount", 458 }, { "lsm_get_self_attr", 459 },
	{ "lsm_set_self_attr", 460 }, { "lsm_list_modules", 461 }, { "mseal", 462 },
	{ "setxattrat", 463 }, { "getxattrat", 464 }, { "listxattrat", 465 },
	{ "removexattrat", 466 }, { "open_tree_attr", 467 }, { "file_getattr", 468 },
	{ "file_setattr", 469 },
};

static uint64_t syscall_nr(const char *name)
{
	for (unsigned i = 0; i < dt_syscall_table_len; i++) {
		if (strcmp(dt_syscall_table[i].name, name) == 0)
			return dt_syscall_table[i].nr;
	}
#if defined(__x86_64__)
	for (size_t i = 0; i < ARRAY_SIZE(extra_nrs); i++) {
		if (strcmp(extra_nrs[i].name, name) == 0)
			return extra_nrs[i].nr;
	}
#endif
	return NO_NR;
}

static int add_event(const char *group, const char *event, void *arg)
{
	struct dt_registry *reg = arg;

	const char *name;

	if (strcmp(group, "syscalls") != 0)
		return 0;
	if (strncmp(event, "sys_enter_", 10) == 0)
		name = event + 10;
	else if (strncmp(event, "sys_exit_", 9) == 0)
		name = event + 9;
	else
		return 0;
	/* Entry and return together, entry first, whichever tracefs lists first. */
	uint64_t nr = syscall_nr(name);
	if (dt_probe_add(reg, &dt_prov_syscall, "vmlinux", name, "entry", nr, NULL) == NULL ||
	    dt_probe_add(reg, &dt_prov_syscall, "vmlinux", name, "return", nr, NULL) == NULL)
		return -ENOMEM;
	return 0;
}

static int populate(struct dt_registry *reg)
{
	int rc = dt_tracefs_events(add_event, reg);

	return rc == -ENOENT || rc == -EACCES ? 0 : rc;
}

static const char *mech_class(const struct dt_probe *prp)
{
	bool entry = strcmp(prp->desc[3], "entry") == 0;

	/* Probes without a known number can only use their own tracepoint. */
	if (prp->data == NO_NR)
		return entry ? "entry-tp" : "return-tp";
	return entry ? "entry" : "return";
}

static bool is_entry(const struct dt_group *g)
{
	return strncmp(g->mclass, "entry", 5) == 0;
}

/* errno from a return value: -ret when -2048 < ret < 0, else 0. */
static void emit_errno(struct dt_cg *cg, int dctx_off, int reg)
{
	int done = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JSGE, reg, 0, done);
	cg_jmp_imm(cg, BPF_JSLE, reg, -2048, done);
	cg_emit(cg, I_MOV64_REG(BPF_R1, reg));
	cg_emit(cg, I_NEG64(BPF_R1));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, dctx_off + DCTX_ERRNO));
	cg_label_place(cg, done);
}

/* The fields of the syscall's tracepoint after __syscall_nr: its arguments, or "ret". */
static int syscall_fields(const struct dt_probe *prp, struct dt_tp_field *f, int max)
{
	bool entry = strcmp(prp->desc[3], "entry") == 0;
	char event[128];
	struct dt_tp_field all[8];

	snprintf(event, sizeof(event), "sys_%s_%s", entry ? "enter" : "exit", prp->desc[2]);
	int n = dt_tp_format("syscalls", event, all, 8), k = 0;
	for (int i = 0; i < n && k < max; i++)
		if (strcmp(all[i].name, "__syscall_nr") != 0)
			f[k++] = all[i];
	return n < 0 ? n : k;
}

/*
 * How many arguments every probe's sys_enter_ tracepoint of the group has:
 * a program that reads past the shortest record is refused at attach
 * (EACCES), so arguments beyond it read as 0, as in raw_syscalls' absence.
 */
static int tp_nargs(const struct dt_group *g)
{
	int n = 6;

	for (size_t i = 0; i < g->probes.n; i++) {
		struct dt_tp_field f[6];
		int k = syscall_fields(g->probes.v[i], f, 6);
		if (k >= 0 && k < n)
			n = k;
	}
	return n;
}

static void tp_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			int skip)
{
	(void)skip;
	int nargs = is_entry(g) && (args & 0x3f) ? tp_nargs(g) : 6;
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	if (is_entry(g)) {
		/* struct syscall_trace_enter: the arguments start at offset 16. */
		for (int i = 0; i < 10; i++) {
			if (!(args & (1u << i)))
				continue;
			if (i < nargs) {
				cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, 16 + 8 * i));
				cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8 * i));
			} else {
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
			}
		}
		return;
	}
	/* struct syscall_trace_exit: ret at offset 16; arg0 = arg1 = ret. */
	cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, 16));
	for (int i = 0; i < 10; i++) {
		if (args & (1u << i)) {
			if (i < 2)
				cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8 * i));
			else
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
		}
	}
	emit_errno(cg, dctx_off, BPF_R0);
}

static int tp_attach(struct dt_registry *reg, struct dt_group *g)
{
	bool entry = is_entry(g);

	for (size_t i = 0; i < g->probes.n; i++) {
		struct dt_probe *prp = g->probes.v[i];
		char ev[128];
		LIBBPF_OPTS(bpf_tracepoint_opts, opts, .bpf_cookie = prp->id);
		snprintf(ev, sizeof(ev), "%s%s", entry ? "sys_enter_" : "sys_exit_", prp->desc[2]);
		struct bpf_link *l = bpf_program__attach_tracepoint_opts(g->prog, "syscalls", ev,
									 &opts);
		int rc = dt_group_link(reg, g, l, "failed to attach tracepoint syscalls:%s", ev);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct dt_mech mech_tp = {
	.name = "syscall-tracepoint",
	.section = "tracepoint",
	.gated = true,
	.cookie_is_prid = true,
	.cg_prologue = tp_prologue,
	.attach = tp_attach,
};

/* ---- raw_syscalls ---- */

static const char *sysmap_name(struct dt_registry *reg, struct dt_group *g)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "dt_sysmap_%s", g->name + 8 /* after "dt_prog_" */);
	return dt_arena_strdup(&reg->core->arena, buf);
}

/* Read a u64 at R7 + off into the dctx slot, with probe_read_kernel. */
static void read_reg(struct dt_cg *cg, int dctx_off, int slot_off, int16_t regs_off)
{
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, dctx_off + slot_off));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 8));
	cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_R7));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, regs_off));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
}

static void raw_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			 int skip)
{
	struct dt_regs_layout l = dt_regs_layout(&cg->cc->core->types);
	bool entry = is_entry(g);

	if (g->priv == NULL)
		g->priv = (void *)sysmap_name(cg->cc->reg, g);
	const char *map = g->priv;

	/* R7 = struct pt_regs *; the syscall number into R1. */
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 0));
	if (entry) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R6, 8));
	} else {
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_EPID, 0));
		read_reg(cg, dctx_off, DCTX_EPID, l.sysnr);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, dctx_off + DCTX_EPID));
	}
	cg_jmp_imm(cg, BPF_JGE, BPF_R1, NR_MAX, skip);
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R1, dctx_off + DCTX_PRID));
	cg_ld_map_fd(cg, BPF_R1, map);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, dctx_off + DCTX_PRID));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_map_lookup_elem));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	cg_emit(cg, I_LDX(BPF_W, BPF_R0, BPF_R0, 0));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	if (entry) {
		for (int i = 0; i < 10; i++) {
			if (!(args & (1u << i)))
				continue;
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
			if (i < 6)
				read_reg(cg, dctx_off, DCTX_ARGS + 8 * i, l.sysarg[i]);
		}
		return;
	}
	cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, 8));
	for (int i = 0; i < 10; i++) {
		if (args & (1u << i)) {
			if (i < 2)
				cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8 * i));
			else
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
		}
	}
	emit_errno(cg, dctx_off, BPF_R0);
}

static int raw_add_maps(struct dt_registry *reg, struct dt_group *g, struct bo_object *obj)
{
	struct bo_map m = {
		.name = g->priv ? g->priv : sysmap_name(reg, g),
		.type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = 4,
		.max_entries = NR_MAX,
	};

	if (m.name == NULL || dt_vec_push(&obj->maps, m) < 0)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	g->priv = (void *)m.name;
	return 0;
}

static int raw_fill_maps(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, g->priv);

	if (map == NULL)
		return dt_set_error(reg->core, -ENOENT, "syscall dispatch map missing");
	for (size_t i = 0; i < g->probes.n; i++) {
		uint32_t nr = (uint32_t)g->probes.v[i]->data, id = g->probes.v[i]->id;
		if (nr >= NR_MAX)
			continue;
		if (bpf_map_update_elem(bpf_map__fd(map), &nr, &id, BPF_ANY) < 0)
			return dt_set_error(reg->core, -errno, "failed to fill the syscall dispatch map: %s",
					    strerror(errno));
	}
	return 0;
}

static int raw_attach(struct dt_registry *reg, struct dt_group *g)
{
	const char *tp = is_entry(g) ? "sys_enter" : "sys_exit";
	struct bpf_link *l = bpf_program__attach_raw_tracepoint(g->prog, tp);

	return dt_group_link(reg, g, l, "failed to attach raw tracepoint %s", tp);
}

static const struct dt_mech mech_raw = {
	.name = "syscall-raw",
	.section = "raw_tp",
	.gated = true,
	.cg_prologue = raw_prologue,
	.attach = raw_attach,
	.add_maps = raw_add_maps,
	.fill_maps = raw_fill_maps,
};

/* args[] have the syscall's parameter types; its pointers are user addresses. */
static struct dt_type *arg_type(struct dt_registry *reg, const struct dt_probe *prp, int i)
{
	struct dt_tp_field f[6];
	int n = syscall_fields(prp, f, 6);

	if (i < 0 || i >= n)
		return NULL;
	struct dt_type *t = dt_tp_field_type(reg, &f[i]);
	if (t == NULL || !dt_type_is_pointer(t))
		return t;
	struct dt_type *u = dt_arena_alloc(&reg->core->types.arena, sizeof(*u));
	if (u == NULL)
		return t;
	*u = *dt_type_base(t);
	u->ptr_to = NULL;
	u->userland = true;
	return u;
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	struct dt_tp_field f[6];

	(void)reg;
	int n = syscall_fields(prp, f, 6);
	return n < 0 ? -1 : n;
}

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	(void)reg;
	if (strstr(g->mclass, "-tp") != NULL)
		return &mech_tp;
	if (g->probes.n > RAW_THRESHOLD)
		return &mech_raw;
	/* Syscalls of different arities whose arguments are read: raw_syscalls has them all. */
	if (is_entry(g) && g->probes.n > 1 && (g->args_used & 0x3f) >> tp_nargs(g) != 0)
		return &mech_raw;
	return &mech_tp;
}

static const char *unavailable(struct dt_registry *reg)
{
	(void)reg;
	return dt_tracefs_problem();
}

const struct dt_provider dt_prov_syscall = {
	.name = "syscall",
	.pattr = &dt_pattr_kernel,
	.populate = populate,
	.mech_class = mech_class,
	.choose = choose,
	.arg_type = arg_type,
	.arg_count = arg_count,
	.unavailable = unavailable,
};
