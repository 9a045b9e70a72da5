/*
 * Stacks and symbols: bpf_get_stack() into the record, an aggregation key
 * or a scratch buffer; addresses (with the process for user ones) for the
 * consumer to symbolize.
 *
 * Aggregation keys hold the frames themselves, not a stack id from
 * bpf_get_stackid() and a BPF_MAP_TYPE_STACK_TRACE map.  Per event both
 * walk the stack once and hash it once (the stack map hashes the frames
 * to find its bucket, the aggregation hash hashes the key), so the stack
 * map saves nothing; it would add a second map, lose stacks to bucket
 * collisions (-EEXIST) or overwrite older ones (BPF_F_REUSE_STACKID) while
 * their aggregation entries still name them, and keep stacks alive after
 * clear() and trunc() removed their entries.  With the frames in the key,
 * per-CPU merging, sorting and clearing work on keys like any other, and
 * the key is no longer than the frames asked for (stack(5): 40 bytes).
 */
#include "compiler/cg_stack.h"

#include <stdio.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/provider.h"
#include "base/rdesc.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"

int64_t cg_stack_kskip(const struct dt_mech *mech)
{
	/*
	 * Frames of the tracing machinery on top of a kernel stack, by
	 * mechanism name, then by section (program type).  Measured on 6.x
	 * kernels: the first frame left is the function holding the probe
	 * site, for fbt the probed function (as DTrace for Linux shows it),
	 * except on kretprobes, which fire in the caller after the return.
	 */
	static const struct {
		const char *name;	/* mechanism name, or NULL */
		const char *section;	/* else the section's program type */
		int64_t skip;
	} skips[] = {
		/* syscalls:sys_enter_* tracepoints: perf_syscall_enter/exit(). */
		{ "syscall-tracepoint", NULL, 1 },
		/*
		 * Raw tracepoints: bpf_get_stack() starts in the BPF code: the
		 * clause, the program, bpf_trace_run<n>(), __bpf_trace_<tp>().
		 */
		{ NULL, "raw_tp", 4 },
		/* perf_trace_<tp>() hands over the registers of its caller. */
		{ NULL, "tracepoint", 0 },
		/* The interrupted context's registers; a uprobe's are user registers. */
		{ NULL, "perf_event", 0 },
		{ NULL, "uprobe", 0 },
		{ NULL, "uretprobe", 0 },
		/* A kprobe's registers are at the probed function itself. */
		{ NULL, "kprobe", 0 },
		{ NULL, "kretprobe", 0 },
		/*
		 * fentry/fexit: the clause, the program and the trampoline; then
		 * the probed function (the return address of its call of the
		 * trampoline).
		 */
		{ NULL, "fentry", 3 },
		{ NULL, "fexit", 3 },
	};

	/*
	 * A tracepoint with several probes attached calls them through
	 * __traceiter_<tp>(), with one it calls the probe directly: whether
	 * that frame is there depends on who else traces.  Kernel stacks
	 * take one frame more than asked and the consumer drops a leading
	 * __traceiter_<tp>() frame, or else the last (DT_KSTACK_SPARE).
	 */
	if (mech->by_consumer)
		return DT_KSTACK_NONE;	/* BEGIN and END: no probe context in the kernel */
	for (size_t i = 0; i < ARRAY_SIZE(skips); i++) {
		if (skips[i].name != NULL && mech->name != NULL &&
		    strcmp(skips[i].name, mech->name) == 0)
			return skips[i].skip;
	}
	for (size_t i = 0; i < ARRAY_SIZE(skips); i++) {
		size_t n = skips[i].section != NULL ? strlen(skips[i].section) : 0;
		if (n > 0 && mech->section != NULL && strncmp(mech->section, skips[i].section, n) == 0 &&
		    (mech->section[n] == '\0' || mech->section[n] == '/' || mech->section[n] == '.'))
			return skips[i].skip;
	}
	return 0;
}

static int imm(struct dt_cg *cg, int32_t v)
{
	int r = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_IMM(r, v));
	return r;
}

static int ctx_reg(struct dt_cg *cg)
{
	int r = cg_reg_alloc(cg);

	cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_CTX));
	return r;
}

/* Byte offset of a kernel struct member, or -1 if the kernel has none. */
static int64_t kmember(struct dt_cg *cg, const char *sou, const char *member)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	uint32_t off = 0;

	if (t == NULL || dt_type_member(tt, t, member, &off) == NULL)
		return -1;
	return off / 8;
}

/*
 * The kernel offsets bpf/ustack.bpf.c maps uretprobe trampolines back with,
 * in 8-byte units packed as bpf/ustack.bpf.c says (13 bits for members
 * of task_struct and mm_struct, 5 for the small structures'); 0 (no
 * mapping) where the kernel has no uprobes or one of them does not fit.
 */
static uint64_t uret_offsets(struct dt_cg *cg)
{
	static const int bits[8] = { 13, 13, 13, 5, 5, 5, 5, 5 };
	int64_t o[8] = {
		kmember(cg, "vmlinux`struct task_struct", "utask"),
		kmember(cg, "vmlinux`struct task_struct", "mm"),
		kmember(cg, "vmlinux`struct mm_struct", "uprobes_state"),
		kmember(cg, "vmlinux`struct uprobe_task", "return_instances"),
		kmember(cg, "vmlinux`struct xol_area", "vaddr"),
		kmember(cg, "vmlinux`struct return_instance", "stack"),
		kmember(cg, "vmlinux`struct return_instance", "orig_ret_vaddr"),
		kmember(cg, "vmlinux`struct return_instance", "next"),
	};
	int64_t xol = kmember(cg, "vmlinux`struct uprobes_state", "xol_area");
	uint64_t w = 0;
	int shift = 0;

	if (xol < 0)
		return 0;
	o[2] += xol;
	for (int i = 0; i < 8; i++) {
		if (o[i] < 0 || o[i] % 8 != 0 || o[i] / 8 >= (1 << bits[i]))
			return 0;
		w |= (uint64_t)(o[i] / 8) << shift;
		shift += bits[i];
	}
	return w;
}

/*
 * A user stack into dst (freed): bpf_get_stack()'s, or at a function's
 * first instruction (DT_STACK_UENTRY) dt_rt_ustack_entry()'s own walk;
 * with the uretprobe trampolines mapped back (dt_rt_ustack_fix()).
 * Returns a register with the bytes stored (negative on failure).
 */
static int get_ustack(struct dt_cg *cg, int dst, uint32_t size)
{
	uint64_t offs = uret_offsets(cg);
	int a[4];

	cg_bvar_need_current(cg, "a user stack");
	int res = cg_reg_alloc(cg);
	int keep = cg_reg_alloc(cg);
	int flags = cg_reg_alloc(cg);
	int entry = cg_label_new(cg), done = cg_label_new(cg);

	cg_emit(cg, I_MOV64_IMM(res, 0));	/* saved across the calls: defined */
	cg_emit(cg, I_MOV64_REG(keep, dst));
	cg_emit(cg, I_LDX(BPF_DW, flags, REG_DCTX, DCTX_KSTACK));
	cg_jmp_imm(cg, BPF_JSET, flags, DT_STACK_UENTRY, entry);
	cg_reg_free(cg, flags);
	a[0] = ctx_reg(cg);
	a[1] = dst;
	a[2] = imm(cg, (int32_t)size);
	a[3] = imm(cg, BPF_F_USER_STACK);
	int rc = cg_call_helper(cg, BPF_FUNC_get_stack, a, 4);
	/*
	 * Kernels since 6.11 map the trampolines in their own walk; the fix
	 * then finds none to map (a feature is not told by version number).
	 */
	if (offs != 0) {
		a[0] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[0], keep));
		a[1] = imm(cg, (int32_t)size);
		a[2] = rc;
		a[3] = cg_reg_alloc(cg);
		cg_mov_imm64(cg, a[3], offs);
		rc = cg_call_func(cg, "dt_rt_ustack_fix", a, 4);
	}
	cg_emit(cg, I_MOV64_REG(res, rc));
	cg_reg_free(cg, rc);
	cg_ja(cg, done);
	cg_label_place(cg, entry);
	a[0] = keep;
	a[1] = imm(cg, (int32_t)size);
	a[2] = cg_reg_alloc(cg);
	cg_mov_imm64(cg, a[2], offs);
	rc = cg_call_func(cg, "dt_rt_ustack_entry", a, 3);
	cg_emit(cg, I_MOV64_REG(res, rc));
	cg_reg_free(cg, rc);
	cg_label_place(cg, done);
	return res;
}

/*
 * bpf_get_stack(ctx, dst, size, flags): the kernel stack less the
 * tracing machinery's frames, or a user stack (get_ustack); dst (freed)
 * is zero-filled past the last frame.  Returns a register with the bytes
 * stored (negative on failure, 0 for no kernel stack).
 */
static int get_stack(struct dt_cg *cg, int dst, uint32_t size, bool user)
{
	int a[4];

	if (user)
		return get_ustack(cg, dst, size);
	cg_bvar_need_current(cg, "a kernel stack");
	int res = cg_reg_alloc(cg);
	int keep = cg_reg_alloc(cg);
	int flags = cg_reg_alloc(cg);
	int none = cg_label_new(cg), done = cg_label_new(cg);

	cg_emit(cg, I_MOV64_IMM(res, 0));	/* saved across the calls: defined */
	cg_emit(cg, I_MOV64_REG(keep, dst));
	cg_emit(cg, I_LDX(BPF_DW, flags, REG_DCTX, DCTX_KSTACK));
	cg_jmp_imm(cg, BPF_JSET, flags, DT_KSTACK_NONE, none);
	cg_emit(cg, I_ALU64_IMM(BPF_AND, flags, BPF_F_SKIP_FIELD_MASK));
	a[0] = ctx_reg(cg);
	a[1] = dst;
	a[2] = imm(cg, (int32_t)size);
	a[3] = flags;
	int rc = cg_call_helper(cg, BPF_FUNC_get_stack, a, 4);
	cg_emit(cg, I_MOV64_REG(res, rc));
	cg_reg_free(cg, rc);
	cg_ja(cg, done);

	/* No kernel stack: a failed read zero-fills the buffer. */
	cg_label_place(cg, none);
	a[0] = keep;
	a[1] = imm(cg, (int32_t)size);
	a[2] = imm(cg, 0);
	cg_call_helper_void(cg, BPF_FUNC_probe_read_kernel, a, 3);
	cg_emit(cg, I_MOV64_IMM(res, 0));
	cg_label_place(cg, done);
	return res;
}

static int current_tgid(struct dt_cg *cg)
{
	cg_bvar_need_current(cg, "a user address");
	int r = cg_call_helper(cg, BPF_FUNC_get_current_pid_tgid, NULL, 0);

	cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 32));
	return r;
}

/*
 * A stack at dst (freed): for a user stack the tgid, then the frames; a
 * kernel stack has DT_KSTACK_SPARE frames more.
 */
static void store_stack(struct dt_cg *cg, int dst, uint32_t nframes, bool user)
{
	if (!user)
		nframes += DT_KSTACK_SPARE;
	if (user) {
		cg_bvar_need_current(cg, "a user stack");
		int t = current_tgid(cg);
		cg_emit(cg, I_STX(BPF_DW, dst, t, 0));
		cg_reg_free(cg, t);
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, 8));
		cg->cc->descs->uses_usyms = true;
		cg->user_addrs = true;
	}
	cg_reg_free(cg, get_stack(cg, dst, 8 * nframes, user));
}

void cg_act_stack(struct dt_cg *cg, struct dt_node *call)
{
	bool user = call->id->code != ACT_STACK;
	uint32_t nframes = dt_stack_nframes(cg->pcb, call);
	uint32_t size = 8 * (nframes + 1);	/* the tgid, or a spare kernel frame */
	size_t idx = cg_rec_item(cg, user ? RK_USTACK : RK_STACK);
	uint32_t off = cg_rec_alloc(cg, size, 8);
	int dst = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(dst, REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, (int32_t)off));
	store_stack(cg, dst, nframes, user);
	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
	it->type = call->type;
	if (user && call->call.args != NULL && call->call.args->next != NULL)
		it->cval = call->call.args->next->cval;	/* strsize: no ustack helpers use it */
}

static bool is_user_symaddr(int code)
{
	return code == ACT_USYM || code == ACT_UFUNC || code == ACT_UMOD || code == ACT_UADDR;
}

static bool is_symaddr_call(const struct dt_node *n)
{
	if (n == NULL || n->kind != N_CALL || n->id == NULL || n->id->kind != IDK_ACTION)
		return false;
	switch (n->id->code) {
	case ACT_SYM: case ACT_FUNC: case ACT_MOD:
	case ACT_USYM: case ACT_UFUNC: case ACT_UMOD: case ACT_UADDR:
		return true;
	default:
		return false;
	}
}

int cg_symaddr_value(struct dt_cg *cg, struct dt_node *call)
{
	if (!is_symaddr_call(call))
		dt_cerror(cg->pcb, NULL, call->line,
			  "%s( ) may only be used as an action or an aggregation key", call->id->name);
	return cg_expr(cg, call->call.args);
}

/* The address, and for user kinds the tgid before it, at dst (freed). */
static void store_symaddr(struct dt_cg *cg, struct dt_node *val, bool user, int dst)
{
	int v = is_symaddr_call(val) ? cg_expr(cg, val->call.args) : cg_expr(cg, val);

	cg_emit(cg, I_STX(BPF_DW, dst, v, user ? 8 : 0));
	cg_reg_free(cg, v);
	if (user) {
		cg_bvar_need_current(cg, "a user stack");
		int t = current_tgid(cg);
		cg_emit(cg, I_STX(BPF_DW, dst, t, 0));
		cg_reg_free(cg, t);
		cg->cc->descs->uses_usyms = true;
		cg->user_addrs = true;
	}
	cg_reg_free(cg, dst);
}

void cg_act_symaddr(struct dt_cg *cg, struct dt_node *call)
{
	enum dt_rkind kind;

	switch (call->id->code) {
	case ACT_MOD: kind = RK_MOD; break;
	case ACT_USYM: case ACT_UFUNC: kind = RK_USYM; break;
	case ACT_UMOD: kind = RK_UMOD; break;
	case ACT_UADDR: kind = RK_UADDR; break;
	default: kind = RK_SYM; break;
	}
	bool user = is_user_symaddr(call->id->code);
	uint32_t size = user ? 16 : 8;
	size_t idx = cg_rec_item(cg, kind);
	uint32_t off = cg_rec_alloc(cg, size, 8);
	int dst = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(dst, REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, (int32_t)off));
	store_symaddr(cg, call, user, dst);
	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
	it->type = call->type;
}

void cg_stack_key(struct dt_cg *cg, struct dt_node *k, const struct dt_aggkey *ak, int dst)
{
	switch (ak->kind) {
	case DT_AGGKEY_STACK:
	case DT_AGGKEY_USTACK: {
		bool user = ak->kind == DT_AGGKEY_USTACK;
		if (!dt_stack_is_call(k))
			dt_cerror(cg->pcb, NULL, k->line,
				  "a stack key must be a call of stack( ), ustack( ) or jstack( )");
		/* The key is as long as the first use asked; later uses fit in it. */
		uint32_t room = ak->size / 8 - 1;
		uint32_t nframes = dt_stack_nframes(cg->pcb, k);
		store_stack(cg, dst, nframes < room ? nframes : room, user);
		return;
	}
	case DT_AGGKEY_SYM:
	case DT_AGGKEY_MOD:
		store_symaddr(cg, k, false, dst);
		return;
	default:
		store_symaddr(cg, k, true, dst);
		return;
	}
}

void cg_stack_note_proc(struct dt_cg *cg)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	uint32_t off;
	int a[4];

	if (!cg->user_addrs)
		return;
	struct dt_type *task = dt_type_lookup(tt, "struct task_struct");
	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], MAP_USEEN);
	a[1] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[1], MAP_RING);
	a[2] = current_tgid(cg);
	/* Each program a process execs is seen anew: task_struct's exec count. */
	a[3] = cg_reg_alloc(cg);
	if (task != NULL && dt_type_member(tt, task, "self_exec_id", &off) != NULL)
		cg_emit(cg, I_MOV64_IMM(a[3], (int32_t)(off / 8)));
	else
		cg_emit(cg, I_MOV64_IMM(a[3], -1));
	cg_call_func_void(cg, "dt_rt_proc_seen", a, 4);
}

int cg_stack_bvar(struct dt_cg *cg, int code)
{
	switch (code) {
	case BV_CALLER:
	case BV_UCALLER: {
		/* The second frame: the caller of the function the probe is in. */
		int slot = cg_stack_alloc(cg, 16);
		int dst = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(dst, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, dst, slot));
		cg_reg_free(cg, get_stack(cg, dst, 16, code == BV_UCALLER));
		int r = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, r, BPF_FP, (int16_t)(slot + 8)));
		return r;
	}
	case BV_STACKDEPTH:
	case BV_USTACKDEPTH: {
		int64_t max = cg->cc->core->opts.maxframes;
		if (max > DT_STACK_MAXFRAMES)
			max = DT_STACK_MAXFRAMES;
		if (max < 1)
			max = 1;
		int dst = cg_scratch_alloc(cg, 8 * (uint32_t)max);
		int r = get_stack(cg, dst, 8 * (uint32_t)max, code == BV_USTACKDEPTH);
		int ok = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JSGE, r, 0, ok);
		cg_emit(cg, I_MOV64_IMM(r, 0));
		cg_label_place(cg, ok);
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 3));
		return r;
	}
	default:
		return -1;
	}
}
