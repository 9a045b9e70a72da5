/*
 * The arrays of aggregation maps (base/aggdesc.h): what libbpf needs to
 * create them, and their slots filled once the object is loaded.
 */
#ifndef DT_AGG_OUTER_H
#define DT_AGG_OUTER_H

struct dtrace_hdl;
struct dt_runtime;

/* Before load: give each array a map like its elements (the kernel checks them against it). */
int dt_agg_outer_prepare(struct dtrace_hdl *dtp, struct dt_runtime *rt);
/* After load: put each aggregation's map at its slot. */
int dt_agg_outer_fill(struct dtrace_hdl *dtp, struct dt_runtime *rt);
/* Close the maps prepare made (once the object is loaded, or given up). */
void dt_agg_outer_release(struct dt_runtime *rt);

#endif
