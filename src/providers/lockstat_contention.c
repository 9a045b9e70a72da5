/*
 * lockstat's contention probes, made from the kernel's lock tracepoints
 * (Linux 5.19+):
 *
 *   contention_begin(lock, flags)  a thread starts to wait for a lock:
 *                                  flags say what kind (lockstat_flags.h)
 *   contention_end(lock, ret)      it has it (ret 0), or gave up (ret < 0)
 *
 * A mutex's waiter first spins on the owner (flags MUTEX|SPIN); if it
 * has to block, a second contention_begin says so (flags MUTEX); woken
 * first in line, it may spin and block again, in the same wait.  Spin
 * locks (SPIN), reader/writer spin locks (SPIN with READ or WRITE) and
 * reader/writer semaphores (READ or WRITE) have one.  Real-time mutexes
 * (RT), per-CPU semaphores (PERCPU) and counting semaphores (no flag)
 * are none of DTrace's lock kinds and fire nothing.
 *
 * Each enabled probe's group has two programs and a map of its own:
 * one on contention_begin records, for each (thread, lock) it waits for
 * of the probe's kind, when the wait started (and when it blocked), the
 * flags, and for a semaphore its count; the group's program proper, on
 * contention_end, takes the record out (so that no stale one is ever
 * used) and fires the probe with what it says.  A wait that began before
 * tracing started has no record, and fires nothing.  The thread is its
 * task_struct: idle threads of different CPUs share pid 0.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/maps.h"
#include "base/object.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "providers/attach.h"
#include "providers/lockstat.h"
#include "providers/lockstat_flags.h"
#include "providers/tracefs.h"

#define MAP_MAX 8192	/* waits in progress at once */
#define VAL_BEGIN 0
#define VAL_BLOCK 8
#define VAL_FLAGS 16
#define VAL_COUNT 24
#define VAL_SIZE 32

/* The group's own: its map, and its companion program on contention_begin. */
struct ls_group {
	const char *map;
	const char *begin_prog;
	struct bpf_program *begin;	/* the companion, once loaded (fill_maps) */
	struct lock_flags lf;
};

const char *dt_lockstat_contention_problem(struct dt_registry *reg)
{
	struct lock_flags lf;
	const char *missing;
	const char *why = dt_tracefs_problem();

	if (why != NULL)
		return why;
	if (!dt_lock_flags_read(&lf, &missing)) {
		if (strcmp(missing, "the format file") == 0)
			return "the kernel has no lock:contention_begin tracepoint (Linux 5.19 and "
			       "later have it)";
		return dt_arena_printf(&reg->core->arena, "lock:contention_begin's format file does not "
				       "name the flag %s", missing);
	}
	return NULL;
}

/* key = { current task, lock } at fp + key. */
static void make_key(struct dt_cg *cg, int key)
{
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_get_current_task));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, key));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R0, BPF_R6, 0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, key + 8));
}

static void map_call(struct dt_cg *cg, const char *map, int helper, int key, int val)
{
	cg_ld_map_fd(cg, BPF_R1, map);
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R2, key));
	if (val != 0) {
		cg_emit(cg, I_MOV64_REG(BPF_R3, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, val));
		cg_emit(cg, I_MOV64_IMM(BPF_R4, BPF_ANY));
	}
	cg_emit(cg, I_CALL_HELPER(helper));
}

/* Jump to `out` unless the flags in R7 are of the probe's kind of lock. */
static void filter(struct dt_cg *cg, enum ls_class cls, const struct lock_flags *lf, int out)
{
	cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R7));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, (int32_t)(lf->rt | lf->percpu)));
	cg_jmp_imm(cg, BPF_JNE, BPF_R1, 0, out);
	uint32_t rw = lf->read | lf->write;
	switch (cls) {
	case LS_MUTEX:
		cg_jmp_imm(cg, BPF_JSET, BPF_R7, (int32_t)(rw), out);
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R7));
		cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, (int32_t)lf->mutex));
		cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, out);
		break;
	case LS_SPIN:
		cg_jmp_imm(cg, BPF_JNE, BPF_R7, (int32_t)lf->spin, out);
		break;
	case LS_RWSPIN:
	case LS_RWSEM:
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R7));
		cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, (int32_t)(lf->spin | lf->mutex)));
		cg_jmp_imm(cg, BPF_JNE, BPF_R1, (int32_t)(cls == LS_RWSPIN ? lf->spin : 0), out);
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R7));
		cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, (int32_t)rw));
		cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, out);
		break;
	}
}

/*
 * The companion program: on contention_begin, record a wait of the
 * probe's kind.  It records only while tracing is active, as the probe's
 * program takes records out: no record is left from before (a mutex's
 * blocked wait would make the next one look like its continuation).
 */
static void build_begin(struct dt_cg *outer, const struct ls_probe *lp, const struct ls_group *lg)
{
	struct dt_pcb *pcb = outer->pcb;
	struct bo_func *fn = dt_cg_new_func(outer->cc, lg->begin_prog, "raw_tp/contention_begin", 1);
	struct dt_cg c, *cg = &c;

	if (fn == NULL)
		dt_cnomem(pcb);
	cg_init(cg, pcb, outer->obj, fn);
	const struct lock_flags *lf = &lg->lf;
	int key = cg_stack_alloc(cg, 16), val = cg_stack_alloc(cg, VAL_SIZE);
	int out = cg_label_new(cg);
	uint32_t count_off = 0;

	if (lp->cls == LS_RWSEM)
		count_off = cg_kmember(cg, "struct rw_semaphore", "count", "lockstat:::rw-block");
	cg_emit(cg, I_MOV64_REG(BPF_R6, BPF_R1));
	cg_ld_bss(cg, BPF_R1, BSS_STATE);
	cg_emit(cg, I_LDX(BPF_W, BPF_R1, BPF_R1, 0));
	cg_jmp_imm(cg, BPF_JNE, BPF_R1, DT_STATE_ACTIVE, out);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R7, BPF_R6, 8));
	cg_emit(cg, I_MOV32_REG(BPF_R7, BPF_R7));
	filter(cg, lp->cls, lf, out);
	make_key(cg, key);
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	cg_emit(cg, I_MOV64_REG(BPF_R8, BPF_R0));
	if (lp->cls == LS_MUTEX) {
		/*
		 * A mutex's waiter spins (MUTEX|SPIN), then blocks (MUTEX); woken
		 * first in line, it spins and blocks again, still the same wait:
		 * its record keeps when it first blocked.
		 */
		int spinning = cg_label_new(cg), fresh = cg_label_new(cg);
		cg_mov_imm64(cg, BPF_R9, LS_BLOCKED);
		map_call(cg, lg->map, BPF_FUNC_map_lookup_elem, key, 0);
		cg_jmp_imm(cg, BPF_JSET, BPF_R7, (int32_t)lf->spin, spinning);
		cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, fresh);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, VAL_FLAGS));
		cg_jmp_reg(cg, BPF_JSET, BPF_R1, BPF_R9, out);
		cg_emit(cg, I_STX(BPF_DW, BPF_R0, BPF_R8, VAL_BLOCK));
		cg_emit(cg, I_ALU64_REG(BPF_OR, BPF_R1, BPF_R9));
		cg_emit(cg, I_STX(BPF_DW, BPF_R0, BPF_R1, VAL_FLAGS));
		cg_ja(cg, out);
		/* It blocks, its spinning not seen (tracing started since): only the blocking is known. */
		cg_label_place(cg, fresh);
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R8, val + VAL_BEGIN));
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R8, val + VAL_BLOCK));
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_R7));
		cg_emit(cg, I_ALU64_REG(BPF_OR, BPF_R1, BPF_R9));
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, val + VAL_FLAGS));
		cg_emit(cg, I_ST(BPF_DW, BPF_FP, val + VAL_COUNT, 0));
		map_call(cg, lg->map, BPF_FUNC_map_update_elem, key, val);
		cg_ja(cg, out);
		/* Spinning again after it blocked: the same wait. */
		cg_label_place(cg, spinning);
		int first = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, first);
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, VAL_FLAGS));
		cg_jmp_reg(cg, BPF_JSET, BPF_R1, BPF_R9, out);
		cg_label_place(cg, first);
	}
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R8, val + VAL_BEGIN));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, val + VAL_BLOCK, 0));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R7, val + VAL_FLAGS));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, val + VAL_COUNT, 0));
	if (lp->cls == LS_RWSEM) {
		/* The semaphore's count when the thread blocks: who holds it. */
		cg_emit(cg, I_MOV64_REG(BPF_R1, BPF_FP));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R1, val + VAL_COUNT));
		cg_emit(cg, I_MOV64_IMM(BPF_R2, 8));
		cg_emit(cg, I_LDX(BPF_DW, BPF_R3, BPF_R6, 0));
		if (count_off != 0)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, BPF_R3, (int32_t)count_off));
		cg_emit(cg, I_CALL_HELPER(BPF_FUNC_probe_read_kernel));
	}
	map_call(cg, lg->map, BPF_FUNC_map_update_elem, key, val);
	cg_label_place(cg, out);
	cg_emit(cg, I_MOV64_IMM(BPF_R0, 0));
	cg_emit(cg, I_EXIT());
	cg_resolve(cg);
	cg_fini(cg);
	pcb->cg = outer;
}

/*
 * contention_end: take the wait's record out; argN from it (the probe's
 * end function), arg0 the lock.  No record: not a wait of this kind, or
 * one that began before tracing did.
 */
static void prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip)
{
	struct dt_arena *arena = &cg->cc->core->arena;
	const struct dt_probe *prp = g->probes.v[0];
	const struct ls_probe *lp = LS_PROBE(prp);
	struct ls_group *lg = dt_arena_zalloc(arena, sizeof(*lg));
	const char *missing;

	if (lg == NULL)
		dt_cnomem(cg->pcb);
	lg->map = dt_arena_printf(arena, "dt_ls_%s", g->name + 8 /* after "dt_prog_" */);
	lg->begin_prog = dt_arena_printf(arena, "%s_begin", g->name);
	if (lg->map == NULL || lg->begin_prog == NULL)
		dt_cnomem(cg->pcb);
	if (!dt_lock_flags_read(&lg->lf, &missing))
		dt_cerror(cg->pcb, NULL, 0, "cannot enable lockstat:::%s: lock:contention_begin's "
			  "format does not name the flag %s", lp->name, missing);
	g->priv = lg;
	build_begin(cg, lp, lg);

	struct ls_end e = { .dctx = dctx, .lf = &lg->lf };
	int key = cg_stack_alloc(cg, 16);
	e.now = cg_stack_alloc(cg, 8);
	e.begin = cg_stack_alloc(cg, 8);
	e.block = cg_stack_alloc(cg, 8);
	e.flags = cg_stack_alloc(cg, 8);
	e.count = cg_stack_alloc(cg, 8);
	e.ret = cg_stack_alloc(cg, 8);

	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)(dctx + DCTX_PRID), (int32_t)prp->id));
	for (int i = 0; i < 10; i++)
		if (args & (1u << i))
			cg_emit(cg, I_ST(BPF_DW, BPF_FP, (int16_t)(dctx + DCTX_ARGS + 8 * i), 0));
	cg_emit(cg, I_CALL_HELPER(BPF_FUNC_ktime_get_ns));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R0, e.now));
	make_key(cg, key);
	map_call(cg, lg->map, BPF_FUNC_map_lookup_elem, key, 0);
	cg_jmp_imm(cg, BPF_JEQ, BPF_R0, 0, skip);
	int slots[] = { e.begin, e.block, e.flags, e.count };
	for (int i = 0; i < 4; i++) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R0, (int16_t)(8 * i)));
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, slots[i]));
	}
	map_call(cg, lg->map, BPF_FUNC_map_delete_elem, key, 0);
	/* ret is an int, passed zero-extended. */
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R6, 8));
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R1, 32));
	cg_emit(cg, I_ALU64_IMM(BPF_ARSH, BPF_R1, 32));
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, e.ret));
	if (args & 1u) {
		cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_R6, 0));
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, BPF_R1, (int16_t)(dctx + DCTX_ARGS)));
	}
	lp->end(cg, &e, args, skip);
}

/* ---- The probes' end functions ---- */

static void set_arg(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int i, int reg)
{
	if (used & (1u << i))
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, (int16_t)(e->dctx + DCTX_ARGS + 8 * i)));
}

/* Skip unless contention_end's result is 0 (acquired), or (want_error) is not. */
static void need_ret(struct dt_cg *cg, const struct ls_end *e, bool want_error, int skip)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->ret));
	cg_jmp_imm(cg, want_error ? BPF_JEQ : BPF_JNE, BPF_R1, 0, skip);
}

/* argi = now - the time in slot `from`. */
static void elapsed(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int i, int from)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->now));
	cg_emit(cg, I_LDX(BPF_DW, BPF_R2, BPF_FP, from));
	cg_emit(cg, I_ALU64_REG(BPF_SUB, BPF_R1, BPF_R2));
	set_arg(cg, e, used, i, BPF_R1);
}

/* Skip unless the wait blocked (`blocked`) or only spun. */
static void need_blocked(struct dt_cg *cg, const struct ls_end *e, bool blocked, int skip)
{
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->flags));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R1, 31));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, 1));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, blocked ? 0 : 1, skip);
}

/* adaptive-spin: the mutex was taken after spinning only; arg1 the time spent. */
void dt_ls_end_adaptive_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, false, skip);
	need_blocked(cg, e, false, skip);
	elapsed(cg, e, used, 1, e->begin);
}

/* adaptive-block: the mutex was taken after blocking; arg1 the time blocked. */
void dt_ls_end_adaptive_block(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, false, skip);
	need_blocked(cg, e, true, skip);
	elapsed(cg, e, used, 1, e->block);
}

/* adaptive-acquire-error: the wait ended without the mutex; arg1 the error. */
void dt_ls_end_adaptive_error(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, true, skip);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->ret));
	set_arg(cg, e, used, 1, BPF_R1);
}

/* spin-spin: arg1 the time spent spinning. */
void dt_ls_end_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, false, skip);
	elapsed(cg, e, used, 1, e->begin);
}

/* RW_READER (1) for a reader's wait, RW_WRITER (0) for a writer's, into argi. */
static void rw_kind(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int i)
{
	int reader = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->flags));
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 1));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R1, (int32_t)e->lf->write));
	cg_jmp_imm(cg, BPF_JEQ, BPF_R1, 0, reader);
	cg_emit(cg, I_MOV64_IMM(BPF_R2, 0));
	cg_label_place(cg, reader);
	set_arg(cg, e, used, i, BPF_R2);
}

/* rw-spin: arg1 the time spent spinning, arg2 RW_READER or RW_WRITER. */
void dt_ls_end_rw_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, false, skip);
	elapsed(cg, e, used, 1, e->begin);
	rw_kind(cg, e, used, 2);
}

/*
 * rw-block: arg1 the time blocked, arg2 RW_READER or RW_WRITER, arg3
 * whether a writer held the semaphore when the thread blocked, arg4 how
 * many readers did.  The semaphore's count then says (kernel/locking/
 * rwsem.c): bit 0 is RWSEM_WRITER_LOCKED, bits 8 to 62 the readers.
 */
void dt_ls_end_rw_block(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip)
{
	need_ret(cg, e, false, skip);
	elapsed(cg, e, used, 1, e->begin);
	rw_kind(cg, e, used, 2);
	cg_emit(cg, I_LDX(BPF_DW, BPF_R1, BPF_FP, e->count));
	cg_emit(cg, I_MOV64_REG(BPF_R2, BPF_R1));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, BPF_R2, 1));
	set_arg(cg, e, used, 3, BPF_R2);
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, BPF_R1, 1));
	cg_emit(cg, I_ALU64_IMM(BPF_RSH, BPF_R1, 9));
	set_arg(cg, e, used, 4, BPF_R1);
}

/* ---- Maps and attachment ---- */

static int add_maps(struct dt_registry *reg, struct dt_group *g, struct bo_object *obj)
{
	const struct ls_group *lg = g->priv;
	struct bo_map m = {
		.name = lg->map,
		.type = BPF_MAP_TYPE_HASH,
		.key_size = 16,
		.value_size = VAL_SIZE,
		.max_entries = MAP_MAX,
		/* Not LRU: its lists' locks could be taken by a program nested in another. */
		.flags = BPF_F_NO_PREALLOC,
	};

	if (dt_vec_push(&obj->maps, m) < 0)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	return 0;
}

/* Once loaded: the companion program, for attach (which is given the group only). */
static int find_begin(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj)
{
	struct ls_group *lg = g->priv;

	lg->begin = bpf_object__find_program_by_name(obj, lg->begin_prog);
	if (lg->begin == NULL)
		return dt_set_error(reg->core, -ENOENT, "lockstat:::%s: program %s not found in the "
				    "loaded object", LS_PROBE(g->probes.v[0])->name, lg->begin_prog);
	return 0;
}

static int attach_one(struct dt_registry *reg, struct dt_group *g, struct bpf_program *p,
		      const char *tp)
{
	return dt_group_link(reg, g, bpf_program__attach_raw_tracepoint(p, tp),
			     "failed to attach lockstat:::%s to raw tracepoint %s",
			     LS_PROBE(g->probes.v[0])->name, tp);
}

static int attach(struct dt_registry *reg, struct dt_group *g)
{
	const struct ls_group *lg = g->priv;
	int rc = attach_one(reg, g, g->prog, "contention_end");

	return rc < 0 ? rc : attach_one(reg, g, lg->begin, "contention_begin");
}

const struct dt_mech dt_lockstat_mech_contention = {
	.name = "lockstat-contention",
	.section = "raw_tp/contention_end",
	.gated = true,
	.cg_prologue = prologue,
	.attach = attach,
	.add_maps = add_maps,
	.fill_maps = find_begin,
};
