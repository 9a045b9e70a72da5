/*
 * Stacks and symbols in code generation: stack(), ustack() and jstack()
 * as actions and aggregation keys, sym()/func()/mod() and
 * usym()/ufunc()/umod()/uaddr(), and the built-in variables caller,
 * ucaller, stackdepth and ustackdepth.
 *
 * Layouts (records and aggregation keys alike, 8-aligned):
 *   stack(n)        u64 pc[n + 1], zero after the last frame: the first
 *                   may be a __traceiter_<tp>() frame the consumer drops
 *                   (cg_stack_kskip), else the last is not printed
 *   ustack(n, s)    u64 tgid, u64 pc[n], zero after the last frame
 *   sym(), mod()    u64 address
 *   usym() & co.    u64 tgid, u64 address
 * Frames are captured with bpf_get_stack(); the consumer symbolizes them.
 */
#ifndef DT_CG_STACK_H
#define DT_CG_STACK_H

#include <stdbool.h>
#include <stdint.h>

struct dt_cg;
struct dt_node;
struct dt_pcb;
struct dt_mech;
struct dt_aggkey;

/*
 * The most frames one stack holds: the kernel's default
 * perf_event_max_stack (bpf_get_stack never returns more unless the
 * sysctl is raised).
 */
#define DT_STACK_MAXFRAMES 127

/* The least scratch a statement has for temporaries: four full stacks. */
#define DT_STACK_SCRATCH (4 * 8 * (DT_STACK_MAXFRAMES + 1))

/*
 * The frames a stack()/ustack()/jstack() call records: its first argument
 * (a non-zero positive integer constant, else a compile error with
 * DTrace's tag) or the stackframes/ustackframes/jstackframes option,
 * silently cut to maxframes.  Also checks ustack()'s strsize argument.
 */
uint32_t dt_stack_nframes(struct dt_pcb *pcb, const struct dt_node *call);

/* Bytes a stack-valued call takes in a record or key (the tgid first for ustack). */
uint32_t dt_stack_size(struct dt_pcb *pcb, const struct dt_node *call);

/* Whether n is a call of stack(), ustack() or jstack(). */
bool dt_stack_is_call(const struct dt_node *n);

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
 * The probe context's DCTX_KSTACK word for a mechanism: the frames of the
 * kernel stack that belong to the tracing machinery (bpf_get_stack's skip
 * count), or DT_KSTACK_NONE where a probe has no kernel stack of its own
 * (BEGIN and END run from the consumer).
 */
#define DT_KSTACK_NONE 0x100
#define DT_KSTACK_SPARE 1

/*
 * Also in that word: the probe fires at a function's first instruction,
 * before the function pushed its frame (pid entry and offset-0 probes).
 * User stacks then take the caller's return address from the top of the
 * stack, as DTrace does at entry probes, and ucaller is that address.
 */
#define DT_STACK_UENTRY 0x200
int64_t cg_stack_kskip(const struct dt_mech *mech);

#endif
