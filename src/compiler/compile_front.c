/*
 * dt_compile_front(): lexing, parsing and semantic checks without probe
 * matching or code generation, in the order dtrace_compile() runs them,
 * so that the front end can be tested without root or a kernel.
 */
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/macros.h"
#include "compiler/parser.h"
#include "compiler/pcb.h"
#include "compiler/pragma.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/ulib.h"

struct dt_node *dt_compile_front(struct dt_compiler *cc, const char *src, const char *name,
				 unsigned flags, enum dt_front_stage stage, int argc,
				 char *const argv[])
{
	struct dt_pcb pcb;

	if (dt_ulib_load(cc) < 0)
		return NULL;
	if (dt_pcb_init(&pcb, cc, src, strlen(src), name, flags & ~DTRACE_C_CPP, DTRACE_PSPEC_NAME,
			argc, argv) < 0)
		return NULL;
	if (setjmp(pcb.jb) != 0) {
		free(pcb.argref);
		return NULL;
	}
	pcb.check_as_parsed = stage == DT_FRONT_CHECK;
	dt_parse_program(&pcb);
	if (stage == DT_FRONT_CHECK) {
		size_t nclauses = 0, k = 0;

		dt_pragma_check_unused(&pcb);
		dt_macro_check_unused(&pcb);
		dt_sema_program(&pcb);
		for (struct dt_node *n = pcb.root; n != NULL; n = n->next)
			nclauses += n->kind == N_CLAUSE;
		struct dt_stmt **stmts = dt_palloc(&pcb, (nclauses + 1) * sizeof(*stmts));
		for (struct dt_node *n = pcb.root; n != NULL; n = n->next) {
			if (n->kind != N_CLAUSE)
				continue;
			struct dt_stmt *st = dt_palloc(&pcb, sizeof(*st));
			st->clause = n;
			st->npdescs = n->clause.npdescs;
			dt_attr_clause(&pcb, st);
			stmts[k++] = st;
		}
		/* Actions are checked after all clauses, as dtrace_compile() does. */
		for (k = 0; k < nclauses; k++)
			dt_sema_act_clause(&pcb, stmts[k]);
	}
	free(pcb.argref);
	return pcb.root;
}
