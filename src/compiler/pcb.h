/*
 * The compile context ("parser control block"): everything one call of
 * dtrace_compile() needs while lexing, parsing and checking.  Compile
 * errors longjmp back to the entry point after recording the message.
 */
#ifndef DT_PCB_H
#define DT_PCB_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/attr.h"
#include "base/util.h"
#include "compiler/ast.h"
#include "dtrace.h"

struct dt_compiler;
struct dt_sema_ctx;
struct dt_cg;
struct dt_pattr;

struct dt_pcb {
	struct dt_compiler *cc;
	struct dt_arena *arena;		/* AST and types of this program */
	const char *filename;		/* for messages: script name or NULL */
	const char *src;		/* the source text (after cpp) */
	size_t srclen;
	unsigned cflags;		/* DTRACE_C_* */
	int pspec_kind;			/* enum dtrace_pspec for DTRACE_C_PSPEC */

	/* Macro arguments: $0 .. $(argc-1). */
	int argc;
	char *const *argv;
	bool *argref;			/* which were referenced */

	jmp_buf jb;			/* compile errors land here */
	uintptr_t stack_floor;		/* recursion stops above it (nest.h) */

	struct dt_node *root;		/* program: list of top-level nodes */
	struct dt_sema_ctx *sema;	/* the clause being checked */
	const char *region;		/* "predicate" / "action list" while checking a clause */
	bool show_lines;		/* errors say "line N:" (scripts and -C) */
	bool is_dlib;			/* compiling the D library */
	bool is_library;		/* compiling a -L library (may be empty) */
	const char *filetag;		/* a library's path: errors say "path", line N */
	const char *linetag;		/* a file named by #line (an included header), or NULL */
	struct dt_node *parsed;		/* the top-level nodes parsed so far ... */
	int nparsed;			/* ... and how many */
	bool check_as_parsed;		/* check each declaration as soon as it is parsed */
	uint32_t program;		/* numbers this program's identifiers (0: a library) */
	/* Code being generated, and how the code generator frees it when an error abandons it. */
	struct dt_cg *cg;
	void (*cg_cleanup)(struct dt_cg *cg);
	struct dt_ident *xlarg;		/* a translator's input, while its members are checked */
	/* Variables so far, global, thread-local and clause-local (DTrace limits each). */
	int nvars[3];
	bool nvars_counted[3];
	struct dt_ident **iparams;	/* an inline array's parameters, while its value is checked */
	int niparams;
	/* #pragma D attributes/binding naming identifiers this program must define. */
	struct dt_pragma_ref {
		const char *what, *name;
		int line;
		struct dt_attr attr;	/* attributes: what it gives the identifier */
	} *prefs;
	int nprefs;
	/* #pragma D option amin: this compile's minimum attributes, from that line on. */
	struct dt_attr amin;
	bool amin_set;
	int amin_line;
	/* The provider attributes of the clause description being checked (sema_attr.c). */
	const struct dt_pattr *ctx;
};

/*
 * Record a compile error and abandon the compile.  `tag` is DTrace's error
 * tag without brackets ("D_SYNTAX"); line 0 means no line to report.
 */
_Noreturn void dt_cerror(struct dt_pcb *pcb, const char *tag, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Fail the compile for want of memory (DTrace's message, no tag). */
_Noreturn void dt_cnomem(struct dt_pcb *pcb);

/*
 * Set up a compile of `src` (copied into the handle's arena) as
 * dtrace_compile() does for its flags (DTRACE_C_*), `kind` and macro
 * arguments; pcb->argref is malloc'ed (the caller frees it).  0, or a
 * negative errno with the message in the handle.
 */
int dt_pcb_init(struct dt_pcb *pcb, struct dt_compiler *cc, const char *src, size_t len,
		const char *name, unsigned flags, enum dtrace_pspec kind, int argc,
		char *const argv[]);

/* Allocate from the compile arena or fail the compile with ENOMEM. */
void *dt_palloc(struct dt_pcb *pcb, size_t size);
char *dt_pstrdup(struct dt_pcb *pcb, const char *s);
char *dt_pstrndup(struct dt_pcb *pcb, const char *s, size_t n);

/* Line text of the source, for line info (allocated in the arena). */
const char *const *dt_pcb_lines(struct dt_pcb *pcb, size_t *nlines);

#endif
