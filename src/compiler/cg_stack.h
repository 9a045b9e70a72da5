/*
 * Stacks and symbols in code generation: stack(), ustack() and jstack()
 * as actions and aggregation keys, sym()/func()/mod() and
 * usym()/ufunc()/umod()/uaddr(), and the built-in variables caller,
 * ucaller, stackdepth and ustackdepth.
 */
#ifndef DT_CG_STACK_H
#define DT_CG_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/stack.h"

struct dt_cg;
struct dt_node;
struct dt_pcb;
struct dt_mech;
struct dt_aggkey;

/* The stack(), ustack() and jstack() actions. */
void cg_act_stack(struct dt_cg *cg, struct dt_node *call);

/* The sym(), func(), mod(), usym(), ufunc(), umod() and uaddr() actions. */
void cg_act_symaddr(struct dt_cg *cg, struct dt_node *call);

/* The value of sym() & co. in an expression: the address argument. */
int cg_symaddr_value(struct dt_cg *cg, struct dt_node *call);

/*
 * Store aggregation key component k (a stack or a symbol kind) at the
 * address in register dst (freed).
 */
void cg_stack_key(struct dt_cg *cg, struct dt_node *k, const struct dt_aggkey *ak, int dst);

/*
 * At the end of a clause that recorded user addresses: tell the consumer
 * the first time in a while that the current process has some, so that
 * it reads the process's mappings while the process lives
 * (dt_rt_proc_seen, DT_REC_PROC_SEEN).
 */
void cg_stack_note_proc(struct dt_cg *cg);

/* caller, ucaller, stackdepth, ustackdepth (enum dt_bvar); -1 for others. */
int cg_stack_bvar(struct dt_cg *cg, int code);

/*
 * The probe context's DCTX_KSTACK word for a mechanism (base/stack.h): the
 * frames of the kernel stack that belong to the tracing machinery.
 */
int64_t cg_stack_kskip(const struct dt_mech *mech);

#endif
