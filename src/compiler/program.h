/* A compiled clause (statement) and the program-wide compile entry points. */
#ifndef DT_PROGRAM_H
#define DT_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/ast.h"
#include "lib/util.h"

struct dt_probe;
struct dt_rdesc;
struct bo_func;
struct dtrace_hdl;

struct dt_stmt {
	uint32_t id;			/* clause number, in program order */
	struct dt_node *clause;		/* N_CLAUSE */
	DT_VEC(struct dt_probe *) probes;	/* probes it enables */
	DT_VEC(int) probe_pdesc;		/* which probe description matched each */
	int npdescs;
	struct dtrace_prog *prog;
	struct bo_func *func;		/* its BPF function, after codegen */
	struct dt_rdesc *rdesc;		/* the (largest) record it writes, NULL if none */
	uint32_t args_used;		/* bitmask of argN the clause reads */
	bool uses_scratch;		/* needs per-CPU scratch memory */
	bool uses_alloca;		/* alloca(), copyin(): memory for this clause */
	bool destructive;
	bool enables_error;		/* one of its probes is dtrace:::ERROR */
	bool may_fault;			/* it can fault (and so run ERROR clauses) */
	bool has_exit;			/* it calls exit() */
	int nlocals_size;		/* this-> variables' bytes */
};

#endif
