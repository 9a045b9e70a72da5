/* Built-in variables: pid, tid, execname, timestamp, arg0..9, probe names ... */
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_stack.h"
#include "compiler/cg_vtime.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"
#include "compiler/walk.h"

static int helper0(struct dt_cg *cg, int helper)
{
	return cg_call_helper(cg, helper, NULL, 0);
}

/* Read once per probe firing, as DTrace does: every read in a firing agrees. */
int cg_firing_timestamp(struct dt_cg *cg)
{
	int r = cg_reg_alloc(cg);
	int have = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_TS));
	cg_jmp_imm(cg, BPF_JNE, r, 0, have);
	int t = helper0(cg, BPF_FUNC_ktime_get_ns);
	cg_emit(cg, I_STX(BPF_DW, REG_DCTX, t, DCTX_TS));
	cg_emit(cg, I_MOV64_REG(r, t));
	cg_reg_free(cg, t);
	cg_label_place(cg, have);
	return r;
}

/*
 * A clause enabled on one probe runs only where that probe fired (a
 * program's probes all enable the same clauses; dt_error's ERROR clauses
 * get ERROR's id): its probe id is a constant, not a load from dctx.
 */
bool cg_prid_known(struct dt_cg *cg, uint32_t *prid)
{
	const struct dt_stmt *st = cg->stmt;

	if (cg->cc->core->opts.nooptimize || st == NULL || st->probes.n == 0)
		return false;
	for (size_t i = 1; i < st->probes.n; i++)
		if (st->probes.v[i]->id != st->probes.v[0]->id)
			return false;
	if (st->probes.v[0]->id > INT32_MAX)
		return false;
	*prid = st->probes.v[0]->id;
	return true;
}

void cg_ld_prid(struct dt_cg *cg, int reg)
{
	uint32_t prid;

	if (cg_prid_known(cg, &prid))
		cg_emit(cg, I_MOV64_IMM(reg, (int32_t)prid));
	else
		cg_emit(cg, I_LDX(BPF_W, reg, REG_DCTX, DCTX_PRID));
}

uint32_t cg_kmember(struct dt_cg *cg, const char *sou, const char *member, const char *what)
{
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *t = dt_type_lookup(tt, sou);
	uint32_t off = 0;

	if (t == NULL || dt_type_member(tt, t, member, &off) == NULL)
		dt_cerror(cg->pcb, NULL, cg->line,
			  "%s needs kernel BTF (%s.%s not found in /sys/kernel/btf/vmlinux)", what,
			  sou, member);
	return off / 8;
}

/*
 * Read a kernel word at reg + off into reg (reg holds the address of a
 * task's member, or of what it points to, which is always there: 0 if
 * not, no fault).  One stack slot: old verifiers count a clause's stack
 * with its callees' against 512 bytes.
 */
static void kread(struct dt_cg *cg, int reg, uint32_t off, uint32_t size)
{
	int mark = cg_stack_mark(cg);
	int slot = cg_stack_alloc(cg, 8);

	if (off)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, reg, (int32_t)off));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
	cg_reg_free(cg, cg_probe_read(cg, slot, size, reg, false));
	/* The call consumed reg as its argument: it holds the value again. */
	cg_reg_claim(cg, reg);
	cg_emit(cg, I_LDX(cg_size_code(size), reg, BPF_FP, (int16_t)slot));
	if (size < 8) {
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, reg, 64 - 8 * (int32_t)size));
		cg_emit(cg, I_ALU64_IMM(BPF_ARSH, reg, 64 - 8 * (int32_t)size));
	}
	cg_stack_release(cg, mark);
}

/* The probe-name strings: a constant when every probe of the clause agrees. */
static int probe_string(struct dt_cg *cg, int which)
{
	struct dt_stmt *s = cg->stmt;
	const char *v = NULL;
	bool same = s->probes.n > 0;

	for (size_t i = 0; i < s->probes.n; i++) {
		const char *pv = dt_probe_field(s->probes.v[i], which);
		if (v == NULL)
			v = pv;
		else if (strcmp(v, pv) != 0)
			same = false;
	}
	if (same) {
		int r = cg_reg_alloc(cg);
		cg_ld_rodata(cg, r, cg_rodata(cg, v, strlen(v) + 1));
		return r;
	}
	/* Look the probe up in the dt_probes map by id. */
	cg->cc->descs->need_probe_map = true;
	int slot = cg_stack_alloc(cg, 8);
	int k = cg_reg_alloc(cg);
	cg_ld_prid(cg, k);
	cg_emit(cg, I_STX(BPF_W, BPF_FP, k, slot));
	cg_emit(cg, I_MOV64_REG(k, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, k, slot));
	int a[2];
	a[0] = cg_reg_alloc(cg);
	cg_ld_map_fd(cg, a[0], MAP_PROBES);
	a[1] = k;
	int p = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JNE, p, 0, ok);
	cg_fault(cg, DT_FLT_ILLOP, -1);
	cg_label_place(cg, ok);
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, p, (int32_t)dt_probe_field_offset(which)));
	return p;
}

/*
 * Whether the clause runs for a probe whose built-in variables describe
 * another thread than the one running it (sched:::on-cpu): that thread's
 * task_struct is then in DCTX_TASK (0 for the clause's other probes).
 */
static const struct dt_probe *other_thread_probe(struct dt_cg *cg)
{
	struct dt_stmt *s = cg->stmt;

	for (size_t i = 0; s != NULL && i < s->probes.n; i++) {
		const struct dt_probe *prp = s->probes.v[i];
		if (prp->prov->other_thread != NULL && prp->prov->other_thread(cg->cc->reg, prp))
			return prp;
	}
	return NULL;
}

bool cg_bvar_other_thread(struct dt_cg *cg)
{
	return other_thread_probe(cg) != NULL;
}

void cg_bvar_need_current(struct dt_cg *cg, const char *what)
{
	const struct dt_probe *prp = other_thread_probe(cg);

	/* Not a DTrace condition, so no tag (DTrace has none for it). */
	if (prp != NULL)
		dt_cerror(cg->pcb, NULL, cg->line,
			  "%s cannot be used in %s:%s:%s:%s on this kernel: the probe fires in "
			  "another thread than the one it describes, and %s would be that "
			  "thread's", what, prp->desc[0], prp->desc[1], prp->desc[2], prp->desc[3],
			  what);
}

/* The task the built-in variables describe: DCTX_TASK, or the current one. */
static int described_task(struct dt_cg *cg)
{
	/* DCTX_TASK is 0 unless a probe of the clause describes another thread. */
	if (!cg_bvar_other_thread(cg))
		return helper0(cg, BPF_FUNC_get_current_task);
	int r = cg_reg_alloc(cg);
	int done = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_TASK));
	cg_jmp_imm(cg, BPF_JNE, r, 0, done);
	int t = helper0(cg, BPF_FUNC_get_current_task);
	cg_emit(cg, I_MOV64_REG(r, t));
	cg_reg_free(cg, t);
	cg_label_place(cg, done);
	return r;
}

int cg_bvar_task(struct dt_cg *cg)
{
	return described_task(cg);
}

/* pid, tid, uid, gid of the described task, read from its task_struct. */
static int task_id(struct dt_cg *cg, int code)
{
	int r = described_task(cg);

	switch (code) {
	case BV_PID:
		kread(cg, r, cg_kmember(cg, "struct task_struct", "tgid", "pid"), 4);
		break;
	case BV_TID:
		kread(cg, r, cg_kmember(cg, "struct task_struct", "pid", "tid"), 4);
		break;
	default: {
		uint32_t cred = cg_kmember(cg, "struct task_struct", "cred", "uid");
		uint32_t id = cg_kmember(cg, "struct cred", code == BV_UID ? "uid" : "gid", "uid");
		kread(cg, r, cred, 8);
		kread(cg, r, id, 4);
		cg_emit(cg, I_MOV32_REG(r, r));
		break;
	}
	}
	return r;
}

/*
 * uregs[i]: slot i of the current thread's user registers (struct pt_regs,
 * found with bpf_task_pt_regs); past the saved registers, the segment
 * registers and the trap number, which x86_64 keeps in the thread's
 * struct thread_struct (ds, es, fsbase, gsbase, trap_nr).  The index is
 * a constant that sema checked (dt_sema_builtin_index).
 */
#define UREGS_SAVED 21		/* pt_regs slots on x86_64 */

static int uregs_thread(struct dt_cg *cg, long long i)
{
	static const char *const field[] = { "ds", "es", "fsbase", "gsbase", "trap_nr" };
	struct dt_typetab *tt = &cg->cc->core->types;
	struct dt_type *ts = dt_type_lookup(tt, "struct thread_struct");
	uint32_t th = cg_kmember(cg, "struct task_struct", "thread", "uregs[]");
	uint32_t off = cg_kmember(cg, "struct thread_struct", field[i - UREGS_SAVED], "uregs[]");
	uint32_t bits;
	uint32_t size = dt_type_size(dt_type_member(tt, ts, field[i - UREGS_SAVED], &bits)->type);
	int r = helper0(cg, BPF_FUNC_get_current_task);

	kread(cg, r, th + off, size);
	/* Unsigned: kread sign-extends a narrow member. */
	if (size < 8)
		cg_emit(cg, I_ALU64_IMM(BPF_AND, r, (int32_t)((1u << (8 * size)) - 1)));
	return r;
}

static int uregs(struct dt_cg *cg, struct dt_node *n)
{
	cg_bvar_need_current(cg, "uregs[]");
	long long i = (long long)n->call.args->cval;

	if (i >= UREGS_SAVED && i <= UREGS_LAST)
		return uregs_thread(cg, i);
	int idx = cg_reg_alloc(cg);
	int task = helper0(cg, BPF_FUNC_get_current_task_btf);
	int regs = cg_call_helper(cg, BPF_FUNC_task_pt_regs, &task, 1);
	cg_emit(cg, I_LDX(BPF_DW, idx, regs, (int16_t)(8 * i)));
	cg_reg_free(cg, regs);
	return idx;
}

void cg_bvar_tid_at(struct dt_cg *cg, int base, int16_t off)
{
	if (!cg_bvar_other_thread(cg)) {
		int r = helper0(cg, BPF_FUNC_get_current_pid_tgid);
		cg_emit(cg, I_MOV32_REG(r, r));
		cg_emit(cg, I_STX(BPF_DW, base, r, off));
		cg_reg_free(cg, r);
		return;
	}
	/* Read straight into place: no stack for a temporary (old verifiers count it). */
	int t = described_task(cg);
	int d = cg_reg_alloc(cg);
	cg_emit(cg, I_ST(BPF_DW, base, off, 0));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, (int32_t)cg_kmember(cg, "struct task_struct", "pid", "tid")));
	cg_emit(cg, I_MOV64_REG(d, base));
	if (off)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, d, off));
	struct cg_arg a[3] = { { CG_ARG_REG, d }, { CG_ARG_IMM, 4 }, { CG_ARG_REG, t } };
	cg_reg_free(cg, cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel, a, 3));
}

/*
 * A tid is reused once its thread has ended; the thread's start time
 * tells a new thread from the ended one, so a new thread never sees the
 * thread-local values an ended one left behind (DTrace keys them by a
 * thread identity that is never reused).
 */
void cg_bvar_thread_key_at(struct dt_cg *cg, int base, int16_t off)
{
	if (cg->tls_key_slot != 0) {
		/* Computed once at the clause's start (cg_clause.c): copied. */
		int w = cg_reg_alloc(cg);
		for (int16_t k = 0; k < 16; k += 8) {
			cg_emit(cg, I_LDX(BPF_DW, w, BPF_FP, (int16_t)(cg->tls_key_slot + k)));
			cg_emit(cg, I_STX(BPF_DW, base, w, (int16_t)(off + k)));
		}
		cg_reg_free(cg, w);
		return;
	}
	cg_bvar_tid_at(cg, base, off);
	uint32_t start = cg_kmember(cg, "struct task_struct", "start_time", "a thread-local variable");
	if (!cg_bvar_other_thread(cg) && cg->cc->core->features.task_btf_load && start <= INT16_MAX) {
		/* The current task's start time, loaded through its BTF pointer: no helper call. */
		int t = helper0(cg, BPF_FUNC_get_current_task_btf);
		cg_emit(cg, I_LDX(BPF_DW, t, t, (int16_t)start));
		cg_emit(cg, I_STX(BPF_DW, base, t, (int16_t)(off + 8)));
		cg_reg_free(cg, t);
		return;
	}
	int t = described_task(cg);
	int d = cg_reg_alloc(cg);
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, (int32_t)start));
	cg_emit(cg, I_MOV64_REG(d, base));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, d, off + 8));
	struct cg_arg a[3] = { { CG_ARG_REG, d }, { CG_ARG_IMM, 8 }, { CG_ARG_REG, t } };
	cg_reg_free(cg, cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel, a, 3));
}

/* How many times the tree under n names a thread-local variable (up to 2). */
static int tls_refs(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_walk w = { 0 };
	int refs = 0;

	dt_walk_push(cg->pcb, &w, n);
	while (refs < 2 && (n = dt_walk_pop(&w)) != NULL) {
		if (n->kind == N_VAR && n->id != NULL && n->id->kind == IDK_TLS)
			refs++;
		dt_walk_push_children(cg->pcb, &w, n);
	}
	return refs;
}

/*
 * Whether evaluating the predicate always names a thread-local variable:
 * the operand evaluated first, down the tree (the left of any binary
 * operator, && and || included; the condition of ?:), is one.
 */
static bool pred_names_tls(const struct dt_node *n)
{
	while (n != NULL) {
		switch (n->kind) {
		case N_VAR:
			return n->id != NULL && n->id->kind == IDK_TLS;
		case N_OP1:
		case N_OP2:
		case N_CAST:
			n = n->l;
			break;
		case N_OP3:
			n = n->cond;
			break;
		default:
			return false;
		}
	}
	return false;
}

static void key_once(struct dt_cg *cg)
{
	int slot = cg_stack_alloc(cg, 16);

	cg_bvar_thread_key_at(cg, BPF_FP, (int16_t)slot);
	cg->tls_key_slot = slot;
}

/*
 * A clause naming thread-local variables more than once computes the
 * thread key (a helper call and a kernel read) once, into a stack slot it
 * keeps; every access then uses that slot.  The tid and start time of
 * the described thread do not change within a firing, so the key is the
 * value each access computed before.  It is computed before the
 * predicate when the predicate always names one, else after it for a
 * body naming them twice or more: a false predicate costs no more than
 * before.  A name missed here (none is) only means the key is computed
 * at each access.
 */
void cg_bvar_thread_key_once(struct dt_cg *cg, struct dt_node *clause, bool before_pred)
{
	struct dt_node *pred = clause->clause.pred;

	if (cg->cc->core->opts.nooptimize || cg->tls_key_slot != 0)
		return;
	if (before_pred) {
		if (pred != NULL && pred_names_tls(pred) &&
		    tls_refs(cg, pred) + tls_refs(cg, clause->clause.body) >= 2)
			key_once(cg);
	} else if (tls_refs(cg, clause->clause.body) >= 2) {
		key_once(cg);
	}
}

int cg_bvar(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_ident *id = n->id;
	int r;

	switch (id->code) {
	case BV_PID:
	case BV_TID:
	case BV_UID:
	case BV_GID:
		if (cg_bvar_other_thread(cg))
			return task_id(cg, id->code);
		break;
	default:
		break;
	}
	switch (id->code) {
	case BV_ARG0: case BV_ARG1: case BV_ARG2: case BV_ARG3: case BV_ARG4:
	case BV_ARG5: case BV_ARG6: case BV_ARG7: case BV_ARG8: case BV_ARG9:
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_ARGS + 8 * (id->code - BV_ARG0)));
		return r;
	case BV_UREGS:
		return uregs(cg, n);
	case BV_ARGS: {
		int i = (int)n->call.args->cval;
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_ARGS + 8 * i));
		cg_normalize(cg, r, n->type);
		return r;
	}
	case BV_PID:
		r = helper0(cg, BPF_FUNC_get_current_pid_tgid);
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 32));
		return r;
	case BV_TID:
		r = helper0(cg, BPF_FUNC_get_current_pid_tgid);
		cg_emit(cg, I_MOV32_REG(r, r));
		return r;
	case BV_UID:
		r = helper0(cg, BPF_FUNC_get_current_uid_gid);
		cg_emit(cg, I_MOV32_REG(r, r));
		return r;
	case BV_GID:
		r = helper0(cg, BPF_FUNC_get_current_uid_gid);
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 32));
		return r;
	case BV_CPU:
		return helper0(cg, BPF_FUNC_get_smp_processor_id);
	case BV_ID:
		r = cg_reg_alloc(cg);
		cg_ld_prid(cg, r);
		return r;
	case BV_EPID:
		/* The enabled probe: this clause on this probe. */
		r = cg_reg_alloc(cg);
		cg_ld_prid(cg, r);
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, r, 16));
		cg_emit(cg, I_ALU64_IMM(BPF_OR, r, (int32_t)cg->stmt->id));
		return r;
	case BV_ERRNO:
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, r, REG_DCTX, DCTX_ERRNO));
		return r;
	case BV_TIMESTAMP:
		return cg_firing_timestamp(cg);
	case BV_WALLTIMESTAMP: {
		r = helper0(cg, BPF_FUNC_ktime_get_ns);
		int off = cg_reg_alloc(cg);
		cg_ld_bss(cg, off, BSS_WALLOFF);
		cg_emit(cg, I_LDX(BPF_DW, off, off, 0));
		cg_emit(cg, I_ALU64_REG(BPF_ADD, r, off));
		cg_reg_free(cg, off);
		return r;
	}
	case BV_VTIMESTAMP:
		return cg_vtime(cg);
	case BV_PPID: {
		uint32_t parent = cg_kmember(cg, "struct task_struct", "real_parent", "ppid");
		uint32_t tgid = cg_kmember(cg, "struct task_struct", "tgid", "ppid");
		r = described_task(cg);
		kread(cg, r, parent, 8);
		kread(cg, r, tgid, 4);
		return r;
	}
	case BV_CURTHREAD:
		if (cg_bvar_other_thread(cg))
			return described_task(cg);
		return helper0(cg, BPF_FUNC_get_current_task);
	case BV_CURCPU: {
		/* This CPU's cpuinfo_t, in a per-CPU map the consumer fills. */
		cg->cc->descs->need_curcpu_map = true;
		int slot = cg_stack_alloc(cg, 8);
		int a[2];
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
		a[0] = cg_reg_alloc(cg);
		cg_ld_map_fd(cg, a[0], MAP_CURCPU);
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], slot));
		r = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
		int ok = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, r, 0, ok);
		cg_fault(cg, DT_FLT_ILLOP, -1);
		cg_label_place(cg, ok);
		/* A plain number (it is read with probe_read like any address):
		 * laundered through scratch memory, which the verifier does not track. */
		uint32_t w = cg_scratch_reserve(cg, 8);
		cg_emit(cg, I_STX(BPF_DW, REG_SCRATCH, r, (int16_t)w));
		cg_emit(cg, I_LDX(BPF_DW, r, REG_SCRATCH, (int16_t)w));
		return r;
	}
	case BV_EXECNAME: {
		int slot = cg_stack_alloc(cg, 16);
		int a[2];
		a[0] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[0], BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[0], slot));
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[1], 16));
		if (cg_bvar_other_thread(cg)) {
			/* The described task's comm (the current one's if DCTX_TASK is 0). */
			int t = described_task(cg);
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, t,
						(int32_t)cg_kmember(cg, "struct task_struct", "comm", "execname")));
			int b[3] = { a[0], a[1], t };
			cg_call_helper_void(cg, BPF_FUNC_probe_read_kernel_str, b, 3);
		} else {
			cg_call_helper_void(cg, BPF_FUNC_get_current_comm, a, 2);
		}
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(r, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, slot));
		return r;
	}
	case BV_EXECARGS: {
		cg_bvar_need_current(cg, "execargs");
		uint32_t mm = cg_kmember(cg, "struct task_struct", "mm", "execargs");
		uint32_t as = cg_kmember(cg, "struct mm_struct", "arg_start", "execargs");
		uint32_t ae = cg_kmember(cg, "struct mm_struct", "arg_end", "execargs");
		uint32_t nb = dt_str_bytes(cg->cc);
		int a[5];
		a[0] = cg_scratch_alloc(cg, nb);
		r = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(r, a[0]));
		int imm[4] = { (int32_t)nb, (int32_t)mm, (int32_t)as, (int32_t)ae };
		for (int i = 0; i < 4; i++) {
			a[i + 1] = cg_reg_alloc(cg);
			cg_emit(cg, I_MOV64_IMM(a[i + 1], imm[i]));
		}
		cg_call_func_void(cg, "dt_rt_execargs", a, 5);
		return r;
	}
	case BV_PROBEPROV:
		return probe_string(cg, 0);
	case BV_PROBEMOD:
		return probe_string(cg, 1);
	case BV_PROBEFUNC:
		return probe_string(cg, 2);
	case BV_PROBENAME:
		return probe_string(cg, 3);
	default:
		if ((r = cg_stack_bvar(cg, id->code)) >= 0)
			return r;
		dt_cerror(cg->pcb, NULL, n->line,
			  "built-in variable %s is not supported yet", id->name);
	}
}

/*
 * The CPU's counter in .bss (BSS_DROPS): its number, masked to the
 * entries there (a no-op for a real CPU number, a bound for the
 * verifier), picks it; one atomic add, as a preempting program may count
 * on the same CPU.
 */
_Static_assert(BSS_DROPS_STRIDE == 1 << 5, "cg_count_drop shifts by 5");
void cg_count_drop(struct dt_cg *cg, int which)
{
	int cpu = helper0(cg, BPF_FUNC_get_smp_processor_id);
	int p = cg_reg_alloc(cg);

	cg_emit(cg, I_ALU64_IMM(BPF_AND, cpu, (int32_t)(dt_cg_drop_cpus() - 1)));
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, cpu, 5));
	cg_ld_bss(cg, p, BSS_DROPS + which);
	cg_emit(cg, I_ALU64_REG(BPF_ADD, p, cpu));
	cg_emit(cg, I_MOV64_IMM(cpu, 1));
	cg_emit(cg, I_XADD(BPF_DW, p, cpu, 0));
	cg_reg_free(cg, cpu);
	cg_reg_free(cg, p);
}
