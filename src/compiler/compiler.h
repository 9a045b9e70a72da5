/*
 * The compiler's part of the handle: what lasts from one compile to the
 * next (identifiers, translators, the D libraries, the object being
 * built, the programs and their clauses).  The front end and the code
 * generator are handed it; it points to the probe registry they match
 * descriptions in and to the descriptions they produce.
 */
#ifndef DT_COMPILER_H
#define DT_COMPILER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/util.h"
#include "dtrace.h"

struct dt_core;
struct dt_registry;
struct dt_descs;
struct dt_procs;
struct dt_kdebug;
struct dt_translator;
struct dt_ident;
struct dt_stmt;
struct bo_object;

struct dt_compiler {
	struct dt_core *core;
	struct dt_registry *reg;	/* probes and providers */
	struct dt_descs *descs;		/* what the programs tell the loader and consumer */
	struct dt_procs *procs;		/* $target */
	struct dt_kdebug *kdebug;	/* the kernel's debuginfo, opened on first need */
	bool ctfpath_checked;		/* -x ctfpath looked at (compile.c) */
	bool kdebug_tried;

	/* Identifiers: user variables, inlines (built-ins are static tables). */
	struct dt_htab idents;
	uint32_t bss_size;		/* .bss bytes used by globals and state */
	uint32_t nvars;
	/* The program being compiled (0: a library), which owns the identifiers it creates. */
	uint32_t program, nprograms;
	uint32_t locals_size;		/* clause-local (this->) bytes in scratch */
	int dlib_state;			/* enum dt_dlib_state */
	int kdlib_state;		/* ... of the library's kernel part (dlib.h) */
	int hwlib_state;		/* NULL alone, under -x nolibs (dlib.c) */
	int ulib_state;			/* -L libraries: 0 not loaded, 1 loaded, <0 failed */
	struct dt_translator *xlators;	/* translators, in definition order (xlator.h) */
	bool uses_strtok;		/* strtok()'s state is in scratch ... */
	uint32_t strtok_off;		/* ... at this offset among the locals */
	uint32_t scratch_max;		/* largest per-statement temporaries */
	DT_VEC(struct dt_ident *) dynvars;	/* thread-locals and arrays with maps */
	struct bo_object *obj;		/* the BPF object being built */

	/* Compiled and enabled programs, in order. */
	DT_VEC(dtrace_prog_t *) progs;
	DT_VEC(struct dt_stmt *) stmts;		/* every exec'ed clause, in order */
	uint32_t nextstmt;

	/* Macro arguments. */
	int argc;
	char **argv;
};

#endif
