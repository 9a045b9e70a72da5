/* curcpu's data: each CPU's cpuinfo_t in the dt_curcpu map (curcpu.c). */
#ifndef DT_CURCPU_H
#define DT_CURCPU_H

#include "dtrace.h"

struct bpf_object;

/* Fill dt_curcpu for every CPU, if the loaded object has it; 0 or -errno. */
int dt_curcpu_fill(dtrace_hdl_t *dtp, struct bpf_object *obj);

#endif
