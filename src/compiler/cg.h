/*
 * Code generation: each clause becomes one BPF function; programs are
 * built per (mechanism, clause set).  This header holds the per-function
 * generator state and the emission, register and stack primitives used by
 * the cg_*.c files.
 */
#ifndef DT_CG_H
#define DT_CG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/abi.h"
#include "base/insn.h"
#include "base/object.h"
#include "compiler/ast.h"
#include "compiler/pcb.h"

struct dt_stmt;
struct dt_rdesc;
struct dt_type;
struct dt_ident;
struct dt_compiler;
struct dt_progset;

/*
 * The probe context passed to every clause function (R2), kept in the
 * program's stack frame.  Offsets are fixed so clauses can read it.
 */
#define DCTX_PRID	0	/* u32 probe id */
#define DCTX_FLAGS	4	/* u32 */
#define DCTX_CTX	8	/* the program's context pointer */
#define DCTX_SCRATCH	16	/* per-CPU scratch area (0 if none) */
#define DCTX_TS		24	/* cached timestamp (0: not read yet) */
#define DCTX_ARGS	32	/* u64 args[10] */
#define DCTX_NEST	112	/* pointer to the CPU's scratch levels in use (CPU_NEST) */
#define DCTX_ERRNO	120	/* s64 errno for this firing */
#define DCTX_EPID	128	/* u64 fault address for the error path */
#define DCTX_FAULT_PC	136	/* u32 instruction offset of a fault */
/*
 * u32: a clause cut into parts (cg_clause.c) keeps here what its later
 * parts need: DCTX_PART_STOP once the clause has ended early (predicate
 * false, fault, drop), else the speculation its speculate() chose (0:
 * none).  Zeroed with DCTX_FAULT_PC by every prologue.
 */
#define DCTX_PART	140
#define DCTX_PART_STOP	0x40000000
#define DCTX_KSTACK	144	/* u64 kernel stack frames to skip (cg_stack.h) */
#define DCTX_TASK	152	/* task_struct * built-ins describe, 0: the current one */
#define DCTX_SIZE	160

/* Per-CPU scratch: strings and clause-locals, one area per nesting level. */
#define DT_SCRATCH_NEST 4

/* Register roles inside a clause function. */
#define REG_DCTX	BPF_R6	/* the dctx pointer */
#define REG_REC		BPF_R7	/* the reserved ring-buffer record */
#define REG_SCRATCH	BPF_R8	/* the scratch area */

#define CG_NREGS 11	/* R0-R10 */

struct cg_label {
	int pos;		/* instruction index, -1 until placed */
	bool old_exit;		/* an exit placed in an island: later jumps take the current one */
};

struct cg_fixup {
	uint32_t insn;
	int label;
};

/*
 * Register spilling (cg_reg.c).  Each cg_expr() is a region: code enters
 * at one instruction and leaves at its end.  When no register is free,
 * one holding a value of an enclosing evaluation (suspended meanwhile) is
 * spilled: stored where every path through the region passes (or at its
 * entry), reloaded at its exit, so that every path finds it in the
 * register afterwards.
 */
struct cg_region {
	uint32_t entry;			/* instruction index where it began */
	uint64_t touched;		/* stack slots used since (see cg_frame.c) */
	size_t fix0;			/* jumps and labels before it */
	size_t label0;
};

struct cg_spill {
	int reg;
	int slot;			/* frame slot, -1 if nothing was stored */
	int owner;
	uint32_t seq;
	int region;			/* index of the region that reloads it */
	int store;			/* index in stores if the store waits, else -1 */
	long stored_at;			/* instruction of the store if it is in place, else -1 */
};

struct cg_store {
	uint32_t at;			/* inserted before this instruction */
	int reg;
	int16_t off;
};

struct cg_slots {
	int first, n;
};

struct dt_cg {
	struct dt_pcb *pcb;
	struct dt_compiler *cc;
	struct bo_object *obj;
	struct bo_func *fn;
	struct dt_stmt *stmt;
	struct dt_rdesc *rdesc;
	int line;			/* current source line for line info */
	uint32_t label_pos;		/* where the last label was placed */

	/* Registers (cg_reg.c) */
	bool reg_used[CG_NREGS];
	bool reg_reserved[CG_NREGS];	/* R6-R8 roles, R10 */
	bool reg_written[CG_NREGS];	/* some instruction wrote it since it was allocated */
	int reg_owner[CG_NREGS];	/* the evaluation depth whose code holds it */
	uint32_t reg_seq[CG_NREGS];	/* when it was allocated (spill victims: oldest first) */
	uint32_t reg_clock;
	DT_VEC(struct cg_region) regions;	/* evaluations in progress, innermost last */
	DT_VEC(struct cg_spill) spills;		/* values waiting in stack slots */
	DT_VEC(struct cg_store) stores;		/* spill stores, inserted by cg_resolve */

	/* Stack frame: 8-byte slots at fp-8, fp-16, ... (cg_frame.c) */
	uint64_t slot_used;
	DT_VEC(struct cg_slots) slot_log;	/* temporaries since the marks */
	int frame_size;			/* bytes of stack the function uses */

	/* Labels */
	DT_VEC(struct cg_label) labels;
	DT_VEC(struct cg_fixup) fixups;
	int fault_label;		/* where faults go (-1 if none yet) */
	/*
	 * A large clause is cut into stretches, each ending in an island
	 * (jumped over) that holds the exits and fault paths its jumps
	 * target, so that no jump spans more than 16-bit offsets reach.
	 */
	int exit_label;			/* the clause's early exit (predicate false ...) */
	int pred_fault_label;		/* faults in the predicate (-1 if none) */
	int drop_label;			/* a clause given up without an error (-1 if none yet) */
	uint32_t stretch_start;		/* first instruction after the last island */
	bool island_faults;		/* an island held a fault path */

	/* Record being built */
	bool records;			/* the clause writes a record */
	/*
	 * Actions in if/else branches: each basic block writes a record of
	 * its own (cg_clause.c); REG_REC is 0 between them.
	 */
	bool split;
	bool agg_planned, agg_indirect;	/* the clause's aggregations through arrays of maps (cg_agg.c) */
	bool rec_open;			/* split: a block's record is reserved */
	bool block_exit;		/* the current basic block calls exit() */
	uint32_t size_insn, fill_insn;	/* split: the open record's patch points */
	uint32_t rec_off;		/* next free byte in the record */
	bool rec_force_wakeup;
	bool user_addrs;		/* the clause records user addresses (cg_stack.c) */
	int action_index;
	bool in_pred;
	/*
	 * A clause too large for one function is cut into parts at its
	 * top-level statements (cg_clause.c): `parted` while one is built;
	 * part_budget (0: none) the instructions after which the next
	 * top-level statement starts a new part, part_next that statement.
	 */
	bool parted;
	struct dt_node *clause;		/* the clause as the function sees it (N_CLAUSE): its part */
	uint32_t part_budget;
	struct dt_node *part_next;
	int stmt_depth;			/* statement lists being generated, nested */
	int tls_key_slot;		/* fp offset of the clause's thread key, computed once (0: none) */
	/*
	 * The value of the thread-local the predicate reads first, kept in a
	 * stack slot for the clause's later reads until something stores
	 * to it (cg_var.c): the load that fills it, the variable, the slot.
	 */
	const struct dt_node *tls_cache_node;
	const struct dt_ident *tls_cache_id;
	int tls_cache_slot;
	bool tls_cache_valid;

	/* Scratch usage within the current statement (bytes) */
	uint32_t scratch_off;
	uint32_t scratch_max;

	/* A dynamic variable's storage, while a member of it is assigned (cg_var.c):
	 * cg_lvalue_addr() takes lv_root's address from the stack slot. */
	struct dt_node *lv_root;
	int lv_root_slot;

	/* Translator inputs bound while a translated member is generated (cg_xlate.c). */
	const struct dt_ident *xl_arg[8];
	int xl_slot[8];			/* fp offset of the input value */
	int xl_n;

	/* Speculations (cg_spec.c) */
	bool spec_used;			/* the clause has speculate(), commit() or discard() */
	int spec_fail;			/* label + 1 for a failed speculate(); 0: none */
	uint32_t spec_size_insn;	/* + 1: the insn that gets the record's size */
	uint32_t spec_slot;		/* first commit()/discard() result in the record */
	int spec_nslots, spec_next;
};

/* ---- emission (cg_emit.c) ---- */
/* Build the program groups and every function of the object (cg_prog.c). */
int dt_cg_programs(struct dt_compiler *cc, struct dt_progset *ps);
/* The CPUs .bss has drop counts for (a power of two, at least the possible CPUs; cg_prog.c). */
uint32_t dt_cg_drop_cpus(void);
/* Where .bss's globals start: after the fixed words and the drop counts. */
uint32_t dt_cg_bss_base(void);
/* How many bytes waiting in the ring make a record wake the consumer (BSS_WAKEMARK). */
uint64_t dt_cg_wakemark(const struct dt_compiler *cc, const struct dt_progset *ps);

void cg_init(struct dt_cg *cg, struct dt_pcb *pcb, struct bo_object *obj, struct bo_func *fn);
void cg_fini(struct dt_cg *cg);
void cg_emit(struct dt_cg *cg, struct bpf_insn insn);
/* The BPF size code (BPF_B .. BPF_DW) of a load or store of `size` bytes. */
int cg_size_code(uint32_t size);
uint32_t cg_pos(struct dt_cg *cg);
int cg_label_new(struct dt_cg *cg);
void cg_label_place(struct dt_cg *cg, int label);
/* Conditional jump to a label: if (dst op src/imm) goto label. */
void cg_jmp_reg(struct dt_cg *cg, int op, int dst, int src, int label);
void cg_jmp_imm(struct dt_cg *cg, int op, int dst, int32_t imm, int label);
void cg_ja(struct dt_cg *cg, int label);
/* Resolve jumps; fails the compile if a label was never placed. */
void cg_resolve(struct dt_cg *cg);
void cg_mov_imm64(struct dt_cg *cg, int reg, uint64_t v);
void cg_ld_map_fd(struct dt_cg *cg, int reg, const char *map);
void cg_ld_bss(struct dt_cg *cg, int reg, uint32_t off);
void cg_ld_rodata(struct dt_cg *cg, int reg, uint32_t off);
/* Put bytes into .rodata (deduplicated); returns the offset. */
uint32_t cg_rodata(struct dt_cg *cg, const void *data, size_t len);
void cg_set_line(struct dt_cg *cg, int line);

/* ---- registers (cg_reg.c) ---- */
/* A free register; never fails for want of one (it spills). */
int cg_reg_alloc(struct dt_cg *cg);
void cg_reg_free(struct dt_cg *cg, int reg);
/* Take back a register that a call consumed as its argument. */
void cg_reg_claim(struct dt_cg *cg, int reg);
/* Begin and end an evaluation's region; cg_reg_leave returns where its result is now. */
void cg_reg_enter(struct dt_cg *cg);
int cg_reg_leave(struct dt_cg *cg, int result);
/* Registers an instruction just emitted writes (cg_emit). */
void cg_reg_note_insn(struct dt_cg *cg, const struct bpf_insn *in);
/* Put the spill stores in place (cg_resolve, before jumps are resolved). */
void cg_reg_place_stores(struct dt_cg *cg);
/* Hand a caller-saved register to a call: store its value if it is live; -1 or the slot. */
int cg_reg_save(struct dt_cg *cg, int reg);
void cg_reg_restore(struct dt_cg *cg, int reg, int slot);

/* ---- calls (cg_call.c) ---- */
/*
 * Call a helper or BPF function with arguments already in registers
 * args[0..nargs-1] (which are freed); returns a new register holding R0.
 * Live caller-saved registers are preserved across the call.
 */
int cg_call_helper(struct dt_cg *cg, int helper, const int *args, int nargs);
int cg_call_func(struct dt_cg *cg, const char *name, const int *args, int nargs);
/* As above but discard the result. */
void cg_call_helper_void(struct dt_cg *cg, int helper, const int *args, int nargs);
void cg_call_func_void(struct dt_cg *cg, const char *name, const int *args, int nargs);
/*
 * A call argument that takes no register before the call: a value in a
 * register, a frame address (fp + v) or a constant, the latter two put
 * straight into their argument register.
 */
struct cg_arg {
	enum { CG_ARG_REG, CG_ARG_FP, CG_ARG_IMM } kind;
	int32_t v;
};
int cg_call_helper_args(struct dt_cg *cg, int helper, const struct cg_arg *args, int nargs);
/* probe_read_{kernel,user}(fp + slot, size, addr): the result register (0 on success). */
int cg_probe_read(struct dt_cg *cg, int slot, uint32_t size, int addr, bool userland);

/* ---- stack (cg_frame.c) ---- */
/* Temporaries, freed together back to a mark; fp-relative offsets. */
int cg_stack_alloc(struct dt_cg *cg, int size);
int cg_stack_mark(struct dt_cg *cg);
void cg_stack_release(struct dt_cg *cg, int mark);
/* One slot for a spilled register, avoiding the slots in `avoid`; its fp offset is CG_SLOT_OFF. */
int cg_frame_take(struct dt_cg *cg, uint64_t avoid);
void cg_frame_give(struct dt_cg *cg, int slot);
#define CG_SLOT_OFF(slot) (-8 * ((slot) + 1))
/* Bytes of BPF stack one function may use (the rest is its callers' and callees'). */
#define CG_FRAME_MAX 320

/* ---- expressions (cg_expr.c) ---- */
/* Evaluate an expression into a new register (value or, for by-ref types, a pointer). */
int cg_expr(struct dt_cg *cg, struct dt_node *n);
/* Evaluate a condition and jump to `label` if it is false (zero). */
void cg_branch_false(struct dt_cg *cg, struct dt_node *n, int label);
/* Whether reg holds a constant just moved into it (straight-line code), and which. */
bool cg_known_imm(struct dt_cg *cg, int reg, int64_t *v);
/* Remove instructions no path reaches (cg_dce.c); cg_resolve does it. */
void cg_drop_unreachable(struct dt_cg *cg);
/* Labels, fixups, relocations and lines after dropping instructions (cg_dce.c). */
void cg_renumber(struct dt_cg *cg, const uint32_t *newpos, uint32_t k);
/* Sign- or zero-extend a register to 64 bits from type t's width. */
void cg_normalize(struct dt_cg *cg, int reg, struct dt_type *t);
/* Read `size` bytes at a kernel/user address into a register value. */
void cg_load_scalar(struct dt_cg *cg, int reg, struct dt_type *t, bool userland);
/* Go to the fault path with (fault code, address register or -1). */
void cg_fault(struct dt_cg *cg, int fault, int addr_reg);
/* Maximum length a string expression may have (buffer size). */
uint32_t cg_string_size(struct dt_cg *cg, struct dt_node *n);
/* Whether a type is passed by reference (strings, structs, arrays). */
bool cg_is_byref(struct dt_type *t);

/* ---- variables (cg_var.c) ---- */
int cg_var_load(struct dt_cg *cg, struct dt_node *n);
void cg_var_store(struct dt_cg *cg, struct dt_node *lhs, int val);
/* Address of a variable's storage (for by-ref types and ++/--). */
int cg_var_addr(struct dt_cg *cg, struct dt_node *lhs, bool create);

/* ---- strings (cg_string.c) ---- */
int cg_string_literal(struct dt_cg *cg, struct dt_node *n);
/* Compare two strings: returns a register with <0, 0, >0. */
int cg_strcmp(struct dt_cg *cg, struct dt_node *a, int ra, struct dt_node *b, int rb);
/* Scratch space for a string temporary; returns register with its address. */
int cg_scratch_alloc(struct dt_cg *cg, uint32_t size);
/* Copy a string value to dst (bounded by size). */
void cg_strcpy(struct dt_cg *cg, int dst, int src, uint32_t size);

/* ---- actions and records (cg_action.c) ---- */
void cg_stmt_action(struct dt_cg *cg, struct dt_node *call);
/* Reserve `size` bytes in the clause's record; returns the offset. */
uint32_t cg_rec_alloc(struct dt_cg *cg, uint32_t size, uint32_t align);
/* Whether a clause body writes a record. */
bool cg_clause_records(struct dt_node *body);

/* ---- speculations (cg_spec.c) ---- */
/* At a recording clause's start: slots for commit()/discard() results. */
void cg_spec_clause_begin(struct dt_cg *cg, struct dt_node *body);
/* speculate(), commit(), discard() */
void cg_spec_action(struct dt_cg *cg, struct dt_node *call);
/* speculation(): a register with the new ID or 0. */
int cg_spec_speculation(struct dt_cg *cg, struct dt_node *n);
/* On the fault path: submit the record flagged DT_SPEC_CTLONLY if the clause
 * speculates or commits (true), rather than discard it (false: nothing emitted). */
bool cg_spec_fault_submit(struct dt_cg *cg);
/* After the clause's code: the record size for speculate(), its failure path. */
void cg_spec_clause_end(struct dt_cg *cg);
/* Split clauses: the same for the record of the basic block from `first` to the
 * next if; a failed speculate() gives that record up and goes on at `cont`. */
void cg_spec_block_begin(struct dt_cg *cg, struct dt_node *first);
/*
 * In a later part of a clause cut into parts (after cg_spec_clause_begin):
 * the part's record goes to the speculation an earlier part's speculate()
 * chose, if any (DCTX_PART).
 */
void cg_spec_part_resume(struct dt_cg *cg);
void cg_spec_block_end(struct dt_cg *cg, int cont);

/* ---- aggregations (cg_agg.c) ---- */
void cg_agg_assign(struct dt_cg *cg, struct dt_node *n);

/* ---- clause functions (cg_clause.c) ---- */
int dt_cg_clause(struct dt_pcb *pcb, struct bo_object *obj, struct dt_stmt *stmt);
/* The ERROR handler function (records faults, runs ERROR clauses). */
int dt_cg_error_func(struct dt_compiler *cc, struct bo_object *obj);

#endif
