/* Clause functions specialised once dtrace_go() has formed the programs (cg_specialize.c). */
#ifndef DT_CG_SPECIALIZE_H
#define DT_CG_SPECIALIZE_H

#include <stdbool.h>
#include <stdint.h>

struct bo_func;
struct dt_pcb;
struct dt_progset;

/* The wake-up test's mark as an immediate (UINT64_MAX: never); whether fn changed. */
bool cg_spec_wakemark(struct bo_func *fn, uint64_t mark);
/* The timestamp read directly where dctx's cache is fn's only reader; whether fn changed. */
bool cg_spec_ts(struct bo_func *fn);
/* Fault paths calling dt_fault rather than dt_error (no ERROR clauses); whether fn changed. */
bool cg_spec_skip_error(struct bo_func *fn);
/* No context loaded for a call of dt_fault, which reads none; whether fn changed. */
bool cg_spec_fault_ctx(struct bo_func *fn);
/* Those that apply, over every clause function of the programs ps. */
void dt_cg_specialize(struct dt_pcb *pcb, struct dt_progset *ps, uint64_t wakemark,
		      bool error_clauses);

#endif
