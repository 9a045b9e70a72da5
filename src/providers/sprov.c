/*
 * The machinery the stable providers share (sprov.h): listing, one BPF
 * program per probe (its id is an immediate: a probe may fire on several
 * tracepoints, and raw tracepoints carry no cookie here), the BTF check of
 * a raw tracepoint's prototype, attachment, and the pieces prologues are
 * made of.
 */
#include "providers/sprov.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/maps.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/tp_format.h"
#include "providers/tracefs.h"

/* A bare tracepoint (no tracefs event): the kernel's BTF has its btf_trace_ type. */
static bool bare_exists(struct dt_registry *reg, const char *event)
{
	struct btf *btf = dt_kernel_btf(&reg->core->types);
	char name[128];

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	return btf != NULL && btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

static bool event_exists(struct dt_registry *reg, const struct sp_probe *sp, const char *event)
{
	const char *base = dt_tracefs();
	const char *group = sp->group;
	char path[512];
	struct stat st;

	if (sp->bare)
		return bare_exists(reg, event);
	if (base == NULL)
		return false;
	snprintf(path, sizeof(path), "%s/events/%s/%s", base, group, event);
	return stat(path, &st) == 0;
}

int sp_populate(struct dt_registry *reg, const struct dt_provider *prov, const struct sp_probe *probes,
		size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct sp_probe *sp = &probes[i];
		/* With an alternative, whether the bare tracepoint is there waits for enabling. */
		const struct sp_probe *lsp = sp->bare && sp->alt != NULL ? sp->alt : sp;
		/* The first tracepoint is the probe's; others (execveat ...) may be missing. */
		bool ok = sp->why != NULL || lsp->kind == SP_TICK || lsp->kind == SP_FENTRY ||
			  lsp->kind == SP_FEXIT || event_exists(reg, lsp, lsp->events[0]);
		if (ok && dt_probe_add(reg, prov, "vmlinux", "", sp->name, 0, sp) == NULL)
			return -ENOMEM;
	}
	return 0;
}

/* How the probe is made on this kernel: the entry, or its alternative. */
static const struct sp_probe *made(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct sp_probe *sp = prp->priv;

	if (sp->bare && sp->alt != NULL && !bare_exists(reg, sp->events[0]))
		return sp->alt;
	return sp;
}

const char *sp_mech_class(const struct dt_probe *prp)
{
	return prp->desc[3];
}

bool sp_arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		 const char **xlate)
{
	const struct sp_probe *sp = prp->priv;

	(void)reg;
	if (i < 0 || i >= 4 || sp->args[i].native == NULL)
		return false;
	*native = sp->args[i].native;
	*xlate = sp->args[i].xlate;
	return true;
}

int sp_arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct sp_probe *sp = prp->priv;
	int n = 0;

	(void)reg;
	while (n < 4 && sp->args[n].native != NULL)
		n++;
	return n;
}

bool sp_other_thread(struct dt_registry *reg, const struct dt_probe *prp)
{
	return made(reg, prp)->other_thread;
}

const char *sp_unavailable(struct dt_registry *reg)
{
	(void)reg;
	return dt_tracefs_problem();
}

const char *sp_probe_unavailable(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct sp_probe *sp = prp->priv;

	if (sp->kind == SP_FENTRY || sp->kind == SP_FEXIT)
		return sp_fn_problem(reg, sp);
	if (sp->why == NULL)
		return NULL;
	const struct sp_probe *m = made(reg, prp);
	if (m->events[0] == NULL || !event_exists(reg, m, m->events[0]) ||
	    (sp->usable != NULL && !sp->usable(reg)))
		return sp->why;
	return NULL;
}

bool sp_has_member(struct dt_registry *reg, const char *sou, const char *member)
{
	struct dt_type *t = dt_type_lookup(&reg->core->types, sou);
	uint32_t off;

	return t != NULL && dt_type_member(&reg->core->types, t, member, &off) != NULL;
}

/* ---- Prologue pieces ---- */

uint32_t sp_member(struct dt_cg *cg, const char *sou, const char *member)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	uint32_t off = 0;

	if (t == NULL || dt_type_member(tt, t, member, &off) == NULL)
		dt_cerror(cg->pcb, NULL, 0,
			  "the probe needs %s member %s, which this kernel's BTF does not have",
			  sou, member);
	return off / 8;
}

uint32_t sp_member2(struct dt_cg *cg, const char *sou, const char *member, const char *older)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	uint32_t off;

	if (t != NULL && dt_type_member(tt, t, member, &off) != NULL)
		return off / 8;
	return sp_member(cg, sou, older);
}

uint32_t sp_task_cpu(struct dt_cg *cg)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, "struct task_struct");
	uint32_t ti, cpu;

	if (t != NULL && dt_type_member(tt, t, "cpu", &cpu) != NULL)
		return cpu / 8;
	ti = sp_member(cg, "struct task_struct", "thread_info");
	return ti + sp_member(cg, "struct thread_info", "cpu");
}

void sp_raw_arg(struct dt_cg *cg, int reg, int k)
{
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_R6, (int16_t)(8 * k)));
}

void sp_tp_field(struct dt_cg *cg, int reg, int16_t off, int size, bool is_signed)
{
	cg_emit(cg, I_LDX(cg_size_code((uint32_t)size), reg, BPF_R6, off));
	if (is_signed && size < 8) {
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, reg, 64 - 8 * size));
		cg_emit(cg, I_ALU64_IMM(BPF_ARSH, reg, 64 - 8 * size));
	}
}

int16_t sp_tp_offset(struct dt_cg *cg, const char *group, const char *event, const char *field)
{
	struct dt_tp_field f[16];
	int n = dt_tp_format(group, event, f, 16);

	for (int i = 0; i < n; i++)
		if (strcmp(f[i].name, field) == 0)
			return (int16_t)f[i].off;
	dt_cerror(cg->pcb, NULL, 0, "tracepoint %s:%s has no field %s", group, event,
		  field);
}

void sp_read(struct dt_cg *cg, int dctx, int reg, int src, uint32_t off, int size)
{
	int slot = cg_stack_alloc(cg, 8);

	(void)dctx;
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
	cg_emit(cg, I_MOV64_REG(BPF_R3, src));
	if (off)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, (int32_t)off));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, slot));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, size));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_emit(cg, I_LDX(cg_size_code((uint32_t)size), reg, BPF_FP, slot));
}

void sp_set_arg(struct dt_cg *cg, int dctx, uint32_t used, int i, int reg)
{
	if (used & (1u << i))
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)(dctx + DCTX_ARGS + 8 * i)));
}

void sp_set_task(struct dt_cg *cg, int dctx, int reg)
{
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)(dctx + DCTX_TASK)));
}

void sp_cpuinfo(struct dt_cg *cg, int dctx, int reg, int cpu_reg)
{
	int key = cg_stack_alloc(cg, 8), tmp = cg_stack_alloc(cg, 8);

	(void)dctx;
	cg->cc->descs->need_curcpu_map = true;
	if (cpu_reg >= 0)
		cg_emit(cg, I_MOV64_REG(BPF_R3, cpu_reg));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, key, 0));
	cg_ld_map_fd(cg, BPF_R1, MAP_CURCPU);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	cg_emit(cg, I_CALL_HELPER(cpu_reg >= 0 ? BPF_FUNC_map_lookup_percpu_elem
					       : BPF_FUNC_map_lookup_elem));
	/* An address as a plain number: copied out of the stack by probe_read. */
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, key));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, tmp));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 8));
	cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, key));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	cg_emit(cg, I_LDX(BPF_DW, reg, BPF_FP, tmp));
}

/* ---- Programs ---- */

bool sp_params_match(struct dt_cg *cg, const struct sp_probe *sp, struct btf *btf,
		     const struct btf_type *t, int skip)
{
	if (t == NULL || !btf_is_func_proto(t))
		return false;
	const struct btf_param *p = btf_params(t);
	int np = btf_vlen(t) - skip, want = 0;
	while (want < 6 && sp->params[want] != NULL)
		want++;
	if (np < want)
		return false;
	for (int i = 0; i < want; i++) {
		struct dt_type *pt = dt_type_from_btf(&cg->cc->core->types, btf, p[i + skip].type);
		const char *s = pt != NULL ? dt_type_str(&cg->cc->core->types, pt) : "";
		if (strcmp(s, sp->params[i]) != 0)
			return false;
	}
	return true;
}

/* A raw tracepoint's TP_PROTO must be what the probe's prologue reads. */
static void check_proto(struct dt_cg *cg, const struct dt_probe *prp, const char *event)
{
	const struct sp_probe *sp = made(cg->cc->reg, prp);
	struct btf *btf = dt_kernel_btf(&cg->cc->core->types);
	char name[128];
	const char *why = "this kernel's BTF does not describe it";

	if (btf == NULL)
		goto bad;
	snprintf(name, sizeof(name), "btf_trace_%s", event);
	int id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (uint32_t)id) : NULL;
	if (t != NULL)
		t = btf__type_by_id(btf, t->type);
	if (t != NULL && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (t == NULL || !btf_is_func_proto(t))
		goto bad;
	why = "its arguments differ from what the probe expects";
	/* The first parameter is the tracepoint's data. */
	if (!sp_params_match(cg, sp, btf, t, 1))
		goto bad;
	return;
bad:
	dt_cerror(cg->pcb, NULL, 0, "probe %s:::%s cannot be enabled on this kernel: "
		  "raw tracepoint %s: %s", prp->desc[0], prp->desc[3], event, why);
}

void sp_prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct sp_probe *sp = made(cg->cc->reg, prp);

	if (sp->kind == SP_FENTRY || sp->kind == SP_FEXIT)
		sp_fn_check(cg, prp, sp);
	if (sp->kind == SP_RAW)
		for (int e = 0; e < 4 && sp->events[e] != NULL; e++)
			if (e == 0 || event_exists(cg->cc->reg, sp, sp->events[e]))
				check_proto(cg, prp, sp->events[e]);
	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)(dctx + DCTX_PRID), (int32_t)prp->id));
	/* Arguments the probe does not give are 0. */
	for (int i = 0; i < 10; i++)
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 8 * i), 0));
	if (sp->prologue != NULL)
		sp->prologue(cg, dctx, args, skip);
}

/* The clock tick: a cpu-clock event at 100 Hz on every online CPU. */
static int attach_tick(struct dt_registry *reg, struct dt_group *g)
{
	int ncpus = libbpf_num_possible_cpus();
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 100;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = (int)syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && errno == ENODEV)
			continue;	/* offline CPU */
		if (fd < 0)
			return dt_set_error(reg->core, -errno, "failed to create the clock tick on CPU %d: %s",
					    cpu, strerror(errno));
		struct bpf_link *l = bpf_program__attach_perf_event(g->prog, fd);
		if (l == NULL) {
			int err = errno;
			close(fd);
			errno = err;
		}
		int rc = dt_group_link(reg, g, l, "failed to attach to the clock tick");
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct sp_probe *sp = made(reg, prp);

	if (sp->kind == SP_TICK)
		return attach_tick(reg, g);
	for (int e = 0; e < 4 && sp->events[e] != NULL; e++) {
		if (e > 0 && !event_exists(reg, sp, sp->events[e]))
			continue;
		struct bpf_link *l = sp->kind == SP_RAW
			? bpf_program__attach_raw_tracepoint(g->prog, sp->events[e])
			: bpf_program__attach_tracepoint(g->prog, sp->group, sp->events[e]);
		int rc = dt_group_link(reg, g, l, "failed to attach %s:::%s to %s %s:%s",
				       prp->desc[0], prp->desc[3],
				       sp->kind == SP_RAW ? "raw tracepoint" : "tracepoint",
				       sp->group, sp->events[e]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const struct dt_mech mech_raw = {
	.name = "stable-raw-tracepoint",
	.section = "raw_tp",
	.gated = true,
	.cg_prologue = sp_prologue,
	.attach = attach,
};

static const struct dt_mech mech_tp = {
	.name = "stable-tracepoint",
	.section = "tracepoint",
	.gated = true,
	.cg_prologue = sp_prologue,
	.attach = attach,
};

static const struct dt_mech mech_tick = {
	.name = "stable-tick",
	.section = "perf_event",
	.gated = true,
	.cg_prologue = sp_prologue,
	.attach = attach,
};

const struct dt_mech *sp_choose(struct dt_registry *reg, struct dt_group *g)
{
	const struct sp_probe *sp = g->probes.v[0]->priv;

	(void)reg;
	if (sp->kind == SP_FENTRY || sp->kind == SP_FEXIT)
		return sp_fn_mech(sp->kind);
	return sp->kind == SP_RAW ? &mech_raw : sp->kind == SP_TICK ? &mech_tick : &mech_tp;
}
