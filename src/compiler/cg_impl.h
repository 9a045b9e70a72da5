/* Internal interfaces between the code generator's files. */
#ifndef DT_CG_IMPL_H
#define DT_CG_IMPL_H

#include "base/maps.h"
#include "compiler/cg.h"


/* A new function of the object (a program if section is set), cg_prog.c. */
struct bo_func *dt_cg_new_func(struct dt_compiler *cc, const char *name, const char *section,
			       unsigned nargs);

/* Offset of `size` zero bytes in .rodata. */
uint32_t cg_rodata_zeros(struct dt_cg *cg, uint32_t size);

/* s[i] and s + i (cg_string.c). */
int cg_string_char(struct dt_cg *cg, struct dt_node *n);
int cg_string_offset(struct dt_cg *cg, struct dt_node *n);

/*
 * Strings read from memory (cg_copyin.c), into a new scratch buffer
 * (rec_off < 0: a register with its address) or into the record at
 * rec_off (returns -1): copyinstr() n, the string at the char * or char
 * array n (size bytes at most in the record), any string n into its
 * record slot of size bytes.
 */
int cg_copyinstr_to(struct dt_cg *cg, struct dt_node *n, int32_t rec_off);
int cg_str_from_mem(struct dt_cg *cg, struct dt_node *n, int32_t rec_off, uint32_t size);
void cg_rec_string(struct dt_cg *cg, struct dt_node *n, uint32_t off, uint32_t size);

/*
 * A string == or != a literal, inlined (cg_streq.c): the result register,
 * or -1 (nothing emitted) where it does not apply; for ==, a jump to label
 * when false, or false (nothing emitted).
 */
int cg_streq_value(struct dt_cg *cg, struct dt_node *n);
bool cg_streq_branch_false(struct dt_cg *cg, struct dt_node *n, int label);

/* String subroutines (cg_strfn.c); -1 if n is not one. */
int cg_strfn(struct dt_cg *cg, struct dt_node *n);

/* Reserve scratch bytes for the current statement; returns their offset. */
uint32_t cg_scratch_reserve(struct dt_cg *cg, uint32_t size);

/* Bytes of per-statement string temporaries in the scratch area. */
uint32_t cg_scratch_temps(struct dt_compiler *cc);
/* The alloca area (its two words, then its memory) and the clause-locals. */
uint32_t cg_alloca_words(struct dt_compiler *cc);
uint32_t cg_alloca_size(struct dt_compiler *cc);
uint32_t cg_locals_base(struct dt_compiler *cc);

/* alloca() and the memory it gives (cg_alloca.c). */
void cg_alloca_reset(struct dt_cg *cg);
int cg_alloca_subr(struct dt_cg *cg, struct dt_node *n);
/* Load n (1..8) bytes at the address in reg, zero-extended (cg_expr.c). */
void cg_load_bytes(struct dt_cg *cg, int reg, uint32_t n, bool userland);
/* Load a scalar from alloca()'d memory at the address in reg (cg_expr.c). */
void cg_load_alloca(struct dt_cg *cg, int reg, struct dt_type *t);
/* A verifier-safe pointer to `size` bytes of alloca()'d memory at address addr (faults if not). */
int cg_alloca_ptr(struct dt_cg *cg, int addr, uint32_t size);

void cg_binop(struct dt_cg *cg, enum dt_tok op, int l, int r, struct dt_type *lt,
	      struct dt_type *rt, struct dt_type *res);

/* A string value (pointer to BPF memory), converting char arrays/pointers. */
int cg_expr_string(struct dt_cg *cg, struct dt_node *n);

/*
 * NULL strings (cg_string.c).  A string value in a register is a pointer,
 * 0 for NULL: what strchr() & co. return when they find nothing, a
 * dynamic variable that is not there, a global or clause-local string
 * assigned NULL (marked in its storage as DTrace marks it).  cg_expr()
 * and cg_expr_string() fault (a read of address 0) on NULL; the
 * _nullable forms pass it on, for the consumers that accept it.
 */
bool cg_may_be_null(const struct dt_node *n);
int cg_expr_nullable(struct dt_cg *cg, struct dt_node *n);
/* An expression whose value is unused, for its side effects and faults (cg_expr.c). */
void cg_expr_discard(struct dt_cg *cg, struct dt_node *n);
int cg_expr_string_nullable(struct dt_cg *cg, struct dt_node *n);
void cg_null_check(struct dt_cg *cg, int reg);
/* A string variable's storage at `reg`: reg becomes 0 if it holds the NULL mark. */
void cg_str_null_mark_load(struct dt_cg *cg, int reg);
/* Store the NULL mark into string storage at `dst`. */
void cg_str_null_mark_store(struct dt_cg *cg, int dst);

int cg_bvar(struct dt_cg *cg, struct dt_node *n);
/* The firing's timestamp into a new register: read once per firing (DCTX_TS). */
int cg_firing_timestamp(struct dt_cg *cg);
/* The probe id when the clause is enabled on one probe only (cg_bvar.c); false otherwise or under nooptimize. */
bool cg_prid_known(struct dt_cg *cg, uint32_t *prid);
/* The firing's probe id into reg: that constant, else from dctx. */
void cg_ld_prid(struct dt_cg *cg, int reg);
/* Whether the clause's built-in variables may describe another thread (sched:::on-cpu). */
bool cg_bvar_other_thread(struct dt_cg *cg);
/* A register with the task they describe (struct task_struct *, as a number). */
int cg_bvar_task(struct dt_cg *cg);
/* Store its thread id, as 8 bytes at base + off. */
void cg_bvar_tid_at(struct dt_cg *cg, int base, int16_t off);
/* The described thread's thread-local key (16 bytes: tid, start time) at base + off. */
void cg_bvar_thread_key_at(struct dt_cg *cg, int base, int16_t off);
/* The thread key once, before the predicate or after it, if the clause names self-> variables more than once. */
void cg_bvar_thread_key_once(struct dt_cg *cg, struct dt_node *clause, bool before_pred);
/*
 * Refuse `what` (user memory, user registers, stacks, signals: what only
 * the thread running the probe gives) in a clause whose built-in variables
 * describe another thread: it would describe the wrong one.
 */
void cg_bvar_need_current(struct dt_cg *cg, const char *what);
int cg_assign(struct dt_cg *cg, struct dt_node *n);
/* Before the predicate: whether the thread-local it reads first is kept for the clause (cg_var.c). */
void cg_var_tls_cache_plan(struct dt_cg *cg, struct dt_node *clause);
/* An assignment, ++ or -- whose value is unused (a statement): no register keeps it. */
void cg_assign_discard(struct dt_cg *cg, struct dt_node *n);
void cg_incdec_discard(struct dt_cg *cg, struct dt_node *n);
/* A tuple (array or aggregation keys) of at most tregs keys, as DTrace allows. */
void cg_check_tuple(struct dt_cg *cg, struct dt_node *keys);
int cg_incdec(struct dt_cg *cg, struct dt_node *n);
int cg_addr_of(struct dt_cg *cg, struct dt_node *n);
int cg_subscript(struct dt_cg *cg, struct dt_node *n);
int cg_member(struct dt_cg *cg, struct dt_node *n);
int cg_subr(struct dt_cg *cg, struct dt_node *n);

/* Add an item of kind `kind` (enum dt_rkind) to the record description; its index. */
size_t cg_rec_item(struct dt_cg *cg, int kind);

/*
 * Copy `size` bytes at the address `addr` evaluates to into the record at
 * `off` (from user memory if `user`); a bad address is DTrace's invalid
 * address fault (cg_action.c).
 */
void cg_rec_copy_mem(struct dt_cg *cg, struct dt_node *addr, uint32_t off, uint32_t size,
		     bool user);
/* print() (cg_print.c). */
void cg_act_print(struct dt_cg *cg, struct dt_node *call);

/* raise(), stop(), chill() and copyout(), copyoutstr() (cg_destructive.c). */
void cg_act_destructive(struct dt_cg *cg, struct dt_node *call);
int cg_copyout_subr(struct dt_cg *cg, struct dt_node *n);
/* Kernel struct member offset in bytes, from BTF; a compile error naming `what` if missing. */
uint32_t cg_kmember(struct dt_cg *cg, const char *sou, const char *member, const char *what);
/* mutex_owned() & co., rw_*_held() (cg_klock.c); -1 if not one of them. */
int cg_klock_subr(struct dt_cg *cg, struct dt_node *n);
/* d_path() and the D library's __path_of() (cg_dpath.c); -1 if not one of them. */
int cg_dpath_subr(struct dt_cg *cg, struct dt_node *n);
/* tracemem() (cg_tracemem.c). */
void cg_act_tracemem(struct dt_cg *cg, struct dt_node *call);

/*
 * Between the operands of a long chain (or statements): past a stretch
 * of instructions, the clause's exits and fault paths go here, jumped
 * over, so that jumps to them stay in range (cg_clause.c).
 */
void cg_island_if_due(struct dt_cg *cg);
/*
 * Return from the clause function; `stop`: the clause ends here, so a
 * clause cut into parts runs none of the parts after this one.
 */
void cg_clause_return(struct dt_cg *cg, bool stop);
void cg_clause_drop(struct dt_cg *cg);

/* A record header's CPU (in r0) and speculation 0, at rec + 8 (cg_clause.c). */
void cg_rec_cpu_spec(struct dt_cg *cg, int rec);

/* Count a drop of the given kind (CPU_*_DROPS) on this CPU. */
void cg_count_drop(struct dt_cg *cg, int which);

/* The address of a kernel or user object (structs, arrays, members). */
int cg_lvalue_addr(struct dt_cg *cg, struct dt_node *n, bool *userland);

#endif
