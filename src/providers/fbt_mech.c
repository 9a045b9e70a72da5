/*
 * fbt's attach mechanisms: how each fills the probe context (probe id,
 * argN) and attaches its program.
 *
 *   fentry/fexit   BPF trampolines; one program per function (the target
 *                  is bound at load: section fentry/<function>), so the
 *                  probe id is a constant.  The context is the array of
 *                  arguments, with the return value after them on fexit.
 *   kprobe         one program, one kprobe perf event per function, the
 *                  probe id as the attach cookie.  The context is pt_regs.
 *   kprobe_multi   one program and one link for all its functions, the
 *                  probe ids as the link's cookies (kernel 5.18+).
 * Return probes: arg0 is -1 (the returning instruction is unknown), arg1
 * the return value.
 *
 * The function list is checked (fbt_funcs.c) but a few functions pass the
 * check and are still refused by the kernel.  A program for many
 * functions then leaves those out (kprobe_multi finds them by halving its
 * set); a program for a single function fails with the kernel's reason.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/fbt.h"
#include "providers/pt_regs.h"

#define NARGS 10	/* argN slots in the probe context */

static bool is_return(const struct dt_group *g)
{
	return strcmp(g->mclass, "return") == 0;
}

static void store_zero(struct dt_cg *cg, int dctx_off, int i)
{
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
}

/* argI = *(u64 *)R3, read with probe_read_kernel (R3 already set). */
static void read_into_arg(struct dt_cg *cg, int dctx_off, int i)
{
	store_zero(cg, dctx_off, i);
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, dctx_off + DCTX_ARGS + 8 * i));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 8));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
}

/* ---- fentry/fexit ---- */

static const char *fentry_section(struct dt_registry *reg, struct dt_group *g)
{
	const struct fbt_func *f = FBT_FUNC(g->probes.v[0]);

	return dt_arena_printf(&reg->core->arena, "%s/%s", is_return(g) ? "fexit" : "fentry", f->name);
}

/*
 * The context holds the arguments as u64s; pointers to structs load as
 * typed BTF pointers, which the verifier would not let clauses treat as
 * numbers, so each is copied with probe_read_kernel instead.
 */
static void fentry_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			    int skip)
{
	const struct dt_probe *prp = g->probes.v[0];
	const struct fbt_func *f = FBT_FUNC(prp);

	(void)skip;
	cg_emit(cg, I_ST(BPF_W, BPF_FP, dctx_off + DCTX_PRID, (int32_t)prp->id));
	for (int i = 0; i < NARGS; i++) {
		if (!(args & (1u << i)))
			continue;
		int slot = -1;	/* context slot to read, or none */
		if (!is_return(g) && i < f->nargs)
			slot = i;
		else if (is_return(g) && i == 1 && !f->returns_void)
			slot = f->nargs;	/* the return value, after the arguments */
		if (is_return(g) && i == 0) {
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS, -1));
		} else if (slot < 0) {
			store_zero(cg, dctx_off, i);
		} else {
			cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_R6));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, 8 * slot));
			read_into_arg(cg, dctx_off, i);
		}
	}
}

static int fentry_attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct fbt_func *f = FBT_FUNC(g->probes.v[0]);
	struct bpf_link *l = bpf_program__attach_trace(g->prog);

	return dt_group_link(reg, g, l, "failed to attach %s to %s`%s",
			     is_return(g) ? "fexit" : "fentry", f->mod->name, f->name);
}

const struct dt_mech dt_fbt_mech_fentry = {
	.name = "fbt-fentry",
	.section = "fentry",
	.group_section = fentry_section,
	.per_probe = true,
	.gated = true,
	.cg_prologue = fentry_prologue,
	.attach = fentry_attach,
};

/* ---- kprobes (single and multi): the context is struct pt_regs ---- */

static bool all_void(const struct dt_group *g)
{
	for (size_t i = 0; i < g->probes.n; i++)
		if (!FBT_FUNC(g->probes.v[i])->returns_void)
			return false;
	return true;
}

static void kprobe_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			    int skip)
{
	struct dt_regs_layout l = dt_regs_layout(&cg->cc->core->types);

	(void)skip;
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	for (int i = 0; i < NARGS; i++) {
		if (!(args & (1u << i)))
			continue;
		if (is_return(g)) {
			if (i == 0) {
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS, -1));
			} else if (i == 1 && !all_void(g)) {
				/* Void and valued functions together: all read the register. */
				cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, l.ret));
				cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8));
			} else {
				store_zero(cg, dctx_off, i);
			}
		} else if (i < l.nreg) {
			cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, l.arg[i]));
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_ARGS + 8 * i));
		} else {
			/* On the stack, above the return address (x86-64). */
			cg_emit(cg, I_LDX(BPF_DW, BPF_R3, BPF_R6, l.sp));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, l.stack_first + 8 * (i - l.nreg)));
			read_into_arg(cg, dctx_off, i);
		}
	}
}

/* "function" for vmlinux, "module:function" for a module (the kprobe syntax). */
static const char *kprobe_name(struct dt_registry *reg, const struct fbt_func *f)
{
	if (strcmp(f->mod->name, "vmlinux") == 0)
		return f->name;
	return dt_arena_printf(&reg->core->arena, "%s:%s", f->mod->name, f->name);
}

static int kprobe_attach(struct dt_registry *reg, struct dt_group *g)
{
	bool ret = is_return(g);
	size_t attached = 0;

	for (size_t i = 0; i < g->probes.n; i++) {
		const struct dt_probe *prp = g->probes.v[i];
		const struct fbt_func *f = FBT_FUNC(prp);
		/* By address when kallsyms shows it: names may be ambiguous. */
		LIBBPF_OPTS(bpf_kprobe_opts, o, .bpf_cookie = prp->id, .retprobe = ret,
			    .offset = (size_t)f->addr);
		const char *name = f->addr != 0 ? NULL : kprobe_name(reg, f);
		struct bpf_link *l = bpf_program__attach_kprobe_opts(g->prog, name, &o);
		if (l == NULL && g->probes.n > 1 && dt_fbt_refused(errno))
			continue;
		int rc = dt_group_link(reg, g, l, "failed to attach %s to %s`%s",
				       ret ? "kretprobe" : "kprobe", f->mod->name, f->name);
		if (rc < 0)
			return rc;
		attached++;
	}
	if (attached == 0)
		return dt_set_error(reg->core, -EINVAL, "failed to attach %s: the kernel refuses to trace "
				    "any of the %zu functions", ret ? "kretprobes" : "kprobes",
				    g->probes.n);
	return 0;
}

/* Return probes have sections of their own: stacks start elsewhere (cg_stack.c). */
const struct dt_mech dt_fbt_mech_kprobe = {
	.name = "fbt-kprobe",
	.section = "kprobe",
	.gated = true,
	.cg_prologue = kprobe_prologue,
	.attach = kprobe_attach,
};

const struct dt_mech dt_fbt_mech_kretprobe = {
	.name = "fbt-kretprobe",
	.section = "kretprobe",
	.gated = true,
	.cg_prologue = kprobe_prologue,
	.attach = kprobe_attach,
};

struct multi {
	unsigned long *addrs;
	const char **syms;
	__u64 *cookies;
	bool by_addr;
	size_t attached;
};

/*
 * One link for functions [lo, hi).  The kernel takes all or none; when it
 * refuses some function of a set of several, each half is tried alone,
 * down to the functions it refuses, which are left out.
 */
static int multi_range(struct dt_registry *reg, struct dt_group *g, struct multi *m, size_t lo,
		       size_t hi)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .cookies = m->cookies + lo, .cnt = hi - lo,
		    .retprobe = is_return(g));
	if (m->by_addr)
		o.addrs = m->addrs + lo;
	else
		o.syms = m->syms + lo;
	struct bpf_link *l = bpf_program__attach_kprobe_multi_opts(g->prog, NULL, &o);
	if (l != NULL) {
		int rc = dt_group_link(reg, g, l, "kprobe_multi");
		if (rc == 0)
			m->attached += hi - lo;
		return rc;
	}
	int err = errno;
	if (g->probes.n > 1 && dt_fbt_refused(err)) {
		if (hi - lo == 1)
			return 0;
		size_t mid = lo + (hi - lo) / 2;
		int rc = multi_range(reg, g, m, lo, mid);
		return rc < 0 ? rc : multi_range(reg, g, m, mid, hi);
	}
	const struct fbt_func *f = FBT_FUNC(g->probes.v[lo]);
	return dt_set_error(reg->core, -err, "failed to attach kprobe_multi to %s`%s%s: %s",
			    f->mod->name, f->name, hi - lo > 1 ? " and other functions" : "",
			    strerror(err));
}

static int kprobe_multi_attach(struct dt_registry *reg, struct dt_group *g)
{
	size_t n = g->probes.n;
	struct multi m = {
		.addrs = calloc(n, sizeof(*m.addrs)),
		.syms = calloc(n, sizeof(*m.syms)),
		.cookies = calloc(n, sizeof(*m.cookies)),
		.by_addr = true,
	};
	int rc = 0;

	if (m.addrs == NULL || m.syms == NULL || m.cookies == NULL) {
		rc = dt_set_error(reg->core, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct fbt_func *f = FBT_FUNC(g->probes.v[i]);
		m.addrs[i] = (unsigned long)f->addr;
		m.syms[i] = kprobe_name(reg, f);
		m.cookies[i] = g->probes.v[i]->id;
		m.by_addr = m.by_addr && f->addr != 0;
	}
	rc = multi_range(reg, g, &m, 0, n);
	if (rc == 0 && m.attached == 0)
		rc = dt_set_error(reg->core, -EINVAL, "failed to attach kprobe_multi: the kernel refuses "
				  "to trace any of the %zu functions", n);
out:
	free(m.addrs);
	free(m.syms);
	free(m.cookies);
	return rc;
}

const struct dt_mech dt_fbt_mech_kprobe_multi = {
	.name = "fbt-kprobe-multi",
	.section = "kprobe.multi",
	.gated = true,
	.cg_prologue = kprobe_prologue,
	.attach = kprobe_multi_attach,
};

const struct dt_mech dt_fbt_mech_kretprobe_multi = {
	.name = "fbt-kretprobe-multi",
	.section = "kretprobe.multi",
	.gated = true,
	.cg_prologue = kprobe_prologue,
	.attach = kprobe_multi_attach,
};
