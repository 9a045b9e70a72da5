/* The programs of chained groups, in the loaded object (chain_fill.c). */
#ifndef DT_CHAIN_FILL_H
#define DT_CHAIN_FILL_H

struct dtrace_hdl;
struct dt_runtime;

/* Before load: make each chained program what its mechanism needs (dt_mech.prepare). */
int dt_chain_prepare(struct dtrace_hdl *dtp, struct dt_runtime *rt);
/* After load, before attach: put each chain's programs in its program array. */
int dt_chain_fill(struct dtrace_hdl *dtp, struct dt_runtime *rt);

#endif
