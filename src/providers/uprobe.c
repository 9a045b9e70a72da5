/*
 * The uprobe mechanisms of the pid and usdt providers.  A program serves
 * every probe of its class: each traced place is one uprobe (or uretprobe)
 * perf event for the probe's process, with a BPF link whose cookie holds
 * the probe id (low 32 bits) and, for usdt, the argument class of the
 * place (high 32 bits): places whose notes read their arguments alike
 * share the code that reads them.  A usdt semaphore is counted by the
 * kernel while its uprobe exists (ref_ctr_offset).  Nothing is written to
 * tracefs: closing the links removes everything.
 */
#include "providers/uprobe.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/stack.h"
#include "compiler/cg.h"
#include "providers/elf_syms.h"
#include "providers/pt_regs.h"
#include "providers/stapsdt.h"
#include "providers/uproc.h"

long dt_uprobe_pid(const char *prov, size_t *prefix_len)
{
	size_t n = strlen(prov), i = n;

	while (i > 0 && isdigit((unsigned char)prov[i - 1]))
		i--;
	*prefix_len = i;
	if (i == n)
		return 0;
	if (n - i > 9)
		return -1;
	long pid = strtol(prov + i, NULL, 10);
	return pid > 0 ? pid : -1;
}

const char *dt_uprobe_class(const struct dt_uprobe *up)
{
	switch (up->kind) {
	case DT_UPROBE_RETURN:
		return "uretprobe";
	case DT_UPROBE_USDT:
		return "usdt";
	default:
		return "uprobe";
	}
}

static void store_prid(struct dt_cg *cg, int dctx_off)
{
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
}

/* Read `size` bytes of user memory at the address in R3 into the arg slot. */
static void read_user(struct dt_cg *cg, int slot, int size)
{
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, slot));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, size));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_user));
}

/* Function arguments: six registers, then the stack above the return address. */
static void entry_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			   int skip)
{
	(void)g;
	(void)skip;
	store_prid(cg, dctx_off);
	/* At a function's first instruction: stacks take *sp (cg_stack.h). */
	int mid = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JSGE, BPF_R0, 0, mid);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_FP, dctx_off + DCTX_KSTACK));
	cg_emit(cg, I_ALU64_IMM(BPF_OR, BPF_R0, DT_STACK_UENTRY));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, dctx_off + DCTX_KSTACK));
	cg_label_place(cg, mid);
	for (int i = 0; i < 10; i++) {
		if (!(args & (1u << i)))
			continue;
		int slot = dctx_off + DCTX_ARGS + 8 * i;
		if (i < 6) {
			cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, dt_pt_call_args[i]));
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, slot));
			continue;
		}
		cg_emit(cg, I_LDX(BPF_DW, BPF_R3, BPF_R6, PT_SP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, 8 * (i - 5)));
		read_user(cg, slot, 8);
	}
}

/*
 * Return probes: arg1 is the return value.  arg0 would be the offset of
 * the return instruction taken; a uretprobe does not know it, so it is 0
 * (as in DTrace for Linux).
 */
static void return_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			    int skip)
{
	(void)g;
	(void)skip;
	store_prid(cg, dctx_off);
	for (int i = 0; i < 10; i++) {
		if (!(args & (1u << i)))
			continue;
		int slot = dctx_off + DCTX_ARGS + 8 * i;
		if (i == 1) {
			cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, PT_AX));
			cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, slot));
		} else {
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
		}
	}
}

/* Sign- or zero-extend R0 from `size` bytes (negative: signed). */
static void extend(struct dt_cg *cg, int size)
{
	int bytes = size < 0 ? -size : size;

	if (bytes >= 8)
		return;
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R0, 64 - 8 * bytes));
	cg_emit(cg, I_ALU64_IMM(size < 0 ? BPF_ARSH : BPF_RSH, BPF_R0, 64 - 8 * bytes));
}

/* One usdt argument into its dctx slot. */
static void usdt_arg(struct dt_cg *cg, const struct dt_sdt_arg *a, int slot, struct dt_uobj *obj)
{
	switch (a->kind) {
	case DT_SDT_ARG_CONST:
		cg_mov_imm64(cg, BPF_R0, (uint64_t)a->val);
		break;
	case DT_SDT_ARG_REG:
		cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, a->reg));
		if (a->shift)
			cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R0, a->shift));
		extend(cg, a->size);
		break;
	case DT_SDT_ARG_MEM: {
		uint64_t disp = (uint64_t)a->val;
		if (a->sym[0] != '\0') {
			struct dt_elf *e = dt_uobj_elf(obj);
			const struct dt_elf_sym *s = e ? dt_elf_lookup(e, a->sym) : NULL;
			if (s == NULL) {
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
				return;
			}
			disp += s->addr + (uint64_t)dt_uobj_bias(obj);
		}
		cg_mov_imm64(cg, BPF_R3, disp);
		if (a->reg >= 0 && !a->rip) {
			cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, a->reg));
			cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R3, BPF_R0));
		}
		if (a->index >= 0) {
			cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, a->index));
			cg_emit(cg, I_ALU64_IMM(BPF_MUL, BPF_R0, a->scale));
			cg_emit(cg, I_ALU64_REG(BPF_ADD, BPF_R3, BPF_R0));
		}
		read_user(cg, slot, a->size < 0 ? -a->size : a->size);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_FP, slot));
		extend(cg, a->size);
		break;
	}
	default:
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
		return;
	}
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, slot));
}

/*
 * usdt: the cookie's high half selects the argument class; each class
 * reads the arguments its notes describe.
 */
static void usdt_prologue(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			  int skip)
{
	DT_VEC(const char *) classes = { 0 };
	DT_VEC(struct dt_uobj *) objs = { 0 };

	(void)skip;
	for (size_t i = 0; i < g->probes.n; i++) {
		const struct dt_uprobe *up = g->probes.v[i]->priv;
		for (struct dt_usite *s = up->sites; s != NULL; s = s->next) {
			size_t k;
			/* Symbolic operands depend on the object and where it is loaded. */
			for (k = 0; k < classes.n; k++)
				if (strcmp(classes.v[k], s->args) == 0 && objs.v[k] == up->obj)
					break;
			if (k == classes.n &&
			    (dt_vec_push(&classes, s->args) < 0 || dt_vec_push(&objs, up->obj) < 0))
				dt_cnomem(cg->pcb);
			s->cls = (uint32_t)k;
		}
	}
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R6));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_attach_cookie));
	cg_emit(cg, I_STX(BPF_W, BPF_FP, BPF_R0, dctx_off + DCTX_PRID));
	cg_emit(cg, I_MOV64_REG(BPF_R9, BPF_R0));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R9, 32));
	int done = cg_label_new(cg);
	for (size_t k = 0; k < classes.n; k++) {
		struct dt_sdt_arg a[DT_SDT_MAXARGS];
		int n = dt_sdt_args_parse(classes.v[k], a, DT_SDT_MAXARGS);
		int next = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, BPF_R9, (int32_t)k, next);
		for (int i = 0; i < 10; i++) {
			int slot = dctx_off + DCTX_ARGS + 8 * i;
			if (!(args & (1u << i)))
				continue;
			if (i < n)
				usdt_arg(cg, &a[i], slot, objs.v[k]);
			else
				cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
		}
		cg_ja(cg, done);
		cg_label_place(cg, next);
	}
	for (int i = 0; i < 10; i++)
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, dctx_off + DCTX_ARGS + 8 * i, 0));
	cg_label_place(cg, done);
	dt_vec_free(&classes);
	dt_vec_free(&objs);
}

/* One perf event per place, or one uprobe_multi link per file and process. */
#define MECHS(prefix, nm, prologue)							\
	const struct dt_mech dt_mech_##prefix = {					\
		.name = nm, .section = "uprobe", .gated = true, .cg_prologue = prologue,	\
		.attach = dt_uprobe_attach,						\
	};										\
	const struct dt_mech dt_mech_##prefix##_multi = {				\
		.name = nm "-multi", .section = "uprobe", .gated = true,		\
		.cg_prologue = prologue, .attach = dt_uprobe_attach,			\
		.detach = dt_uprobe_detach, .prepare = dt_uprobe_prepare,		\
	};
MECHS(uprobe, "uprobe", entry_prologue)
MECHS(uretprobe, "uretprobe", return_prologue)
MECHS(usdt, "usdt", usdt_prologue)

const struct dt_mech *dt_uprobe_choose(struct dt_registry *reg, struct dt_group *g)
{
	bool multi = dt_uprobe_have_multi(reg);

	if (strcmp(g->mclass, "uretprobe") == 0)
		return multi ? &dt_mech_uretprobe_multi : &dt_mech_uretprobe;
	if (strcmp(g->mclass, "usdt") == 0)
		return multi ? &dt_mech_usdt_multi : &dt_mech_usdt;
	return multi ? &dt_mech_uprobe_multi : &dt_mech_uprobe;
}

bool dt_uprobe_is_return(const struct dt_group *g)
{
	return g->mech == &dt_mech_uretprobe || g->mech == &dt_mech_uretprobe_multi;
}

const char *dt_uprobe_unavailable(struct dt_registry *reg)
{
	struct stat st;

	(void)reg;
	if (stat("/sys/bus/event_source/devices/uprobe/type", &st) < 0)
		return "the kernel has no uprobe perf events (CONFIG_UPROBE_EVENTS)";
	return NULL;
}
