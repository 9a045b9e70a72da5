/* A compiled clause (statement) and the program-wide compile entry points. */
#ifndef DT_PROGRAM_H
#define DT_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "base/attr.h"
#include "base/util.h"
#include "compiler/ast.h"
#include "dtrace.h"

struct dt_probe;
struct dt_rdesc;
struct bo_func;
struct dt_compiler;

struct dt_stmt {
	uint32_t id;			/* clause number, in program order */
	struct dt_node *clause;		/* N_CLAUSE */
	DT_VEC(struct dt_probe *) probes;	/* probes it enables */
	DT_VEC(int) probe_pdesc;		/* which probe description matched each */
	int npdescs;
	/* Per description: DTrace's descattr and stmtattr (sema_attr.c), for dtrace -v. */
	struct dt_attr *descattr, *stmtattr;
	struct dtrace_prog *prog;
	struct bo_func *func;		/* its BPF function, after codegen */
	/*
	 * Its functions in the order they run, func first: more than one
	 * when the clause is too large for one (cut into parts, cg_clause.c).
	 */
	struct bo_func **parts;
	size_t nparts;
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

/* A compiled program (dtrace_prog_t): its clauses. */
struct dtrace_prog {
	DT_VEC(struct dt_stmt *) stmts;
	int nprobes;			/* distinct probes enabled */
	bool execed;
	struct dt_node **providers;	/* provider definitions (N_PROVIDER), in the arena */
	size_t nproviders;
};

/*
 * Compile a program as dtrace_compile() does (text is a file name with
 * DTRACE_C_FILE); the handle owns the program.  NULL with the error set.
 */
dtrace_prog_t *dt_compile(struct dt_compiler *cc, const char *text, const char *name,
			  enum dtrace_pspec kind, unsigned flags, int argc, char *const argv[]);

/* Add the program's clauses to those dtrace_go() loads.  0 or a negative errno. */
int dt_prog_exec(struct dt_compiler *cc, dtrace_prog_t *pgp);

/* How far dt_compile_front() takes a program. */
enum dt_front_stage {
	DT_FRONT_PARSE,		/* lex and parse only */
	DT_FRONT_CHECK,		/* and the semantic checks of every declaration and clause */
};

/*
 * The front end alone, for tests that need neither root nor a kernel:
 * `src` is lexed, parsed and (DT_FRONT_CHECK) checked as dtrace_compile()
 * does with the same flags, but no probe is matched (each clause is
 * checked as if it enabled none) and no code is generated.  With
 * DTRACE_C_FILE, `src` is the text of the script `name`, not read from a
 * file.  The program's top-level nodes (in the handle's arena, checked
 * ones annotated with types), or NULL with the error in the handle.
 */
struct dt_node *dt_compile_front(struct dt_compiler *cc, const char *src, const char *name,
				 unsigned flags, enum dt_front_stage stage, int argc,
				 char *const argv[]);

#endif
