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
#include "consumer/output.h"
#include "dtrace.h"

struct dt_stmt;
struct dt_node;

/*
 * The handle: one part per stage, each handed only its own (the
 * compiler its dt_compiler, providers the dt_registry, the consumer its
 * dt_output, process control its dt_procs); what they all share is the
 * core.  Only the library's API functions (src/lib/) see the whole.
 */
struct dtrace_hdl {
	struct dt_core *core;
	struct dt_registry *reg;
	struct dt_compiler *cc;
	struct dt_descs *descs;
	struct dt_output *out;
	struct dt_procs *procs;
};

/* Tear down links, programs and maps; safe to call more than once (go.c). */
void dt_runtime_destroy(struct dtrace_hdl *dtp);

#endif
