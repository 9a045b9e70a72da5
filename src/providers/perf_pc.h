/*
 * The arguments of probes fired by perf events (profile, tick, cpc):
 * arg0 is the kernel program counter, or 0 if the CPU was in user mode;
 * arg1 the user program counter, or 0 if it was in the kernel.
 */
#ifndef DT_PERF_PC_H
#define DT_PERF_PC_H

#include <stdint.h>

struct dt_cg;

/*
 * Fill the probe context's arguments a clause uses (bit i of `args`):
 * arg0 and arg1 from the perf event's saved registers (R6 holds the
 * program's context, struct bpf_perf_event_data), the others 0.
 */
void dt_perf_pc_args(struct dt_cg *cg, int dctx_off, uint32_t args);

#endif
