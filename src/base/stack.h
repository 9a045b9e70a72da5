/*
 * Stacks and symbol addresses as clauses record them, for the code
 * generator, the providers' prologues and the consumer.
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
#ifndef DT_STACK_H
#define DT_STACK_H

/*
 * The most frames one stack holds: the kernel's default
 * perf_event_max_stack (bpf_get_stack never returns more unless the
 * sysctl is raised).
 */
#define DT_STACK_MAXFRAMES 127

/* The least scratch a statement has for temporaries: four full stacks. */
#define DT_STACK_SCRATCH (4 * 8 * (DT_STACK_MAXFRAMES + 1))

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

#endif
