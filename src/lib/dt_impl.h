/* The handle: what one dtrace session holds; nothing is global. */
#ifndef DT_IMPL_H
#define DT_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/proc.h"
#include "bpf/runtime.h"
#include "compiler/compiler.h"
#include "consumer/consumer.h"
#include "dtrace.h"


/*
 * The handle: one part per stage, each handed only its own, as libbpf
 * hands out its objects: the compiler its dt_compiler, providers the
 * dt_registry, the consumer its dt_consumer (with the run time once
 * loaded), process control its dt_procs; what they all share is the core,
 * and the compiler writes the descriptions the consumer reads.  Each part
 * points to the parts it may use (handle.c sets them up).  Only the
 * library's API functions (src/lib/) see the whole.
 */
struct dtrace_hdl {
	struct dt_core *core;
	struct dt_registry *reg;
	struct dt_compiler *cc;
	struct dt_descs *descs;
	struct dt_consumer *cons;
	struct dt_procs *procs;
};

/* Tear down links, programs and maps; safe to call more than once (go.c). */
void dt_runtime_destroy(struct dtrace_hdl *dtp);

#endif
