/*
 * The D library (cmake/DLibrary.cmake): declarations such as NULL and the
 * errno and signal names that DTrace gives every program, and the
 * translators of the stable providers.  It comes in two parts, each
 * compiled into the handle the first time a program needs it, so that
 * programs that need none of it do not pay for it:
 *
 *   the base part, when a program names something it does not define;
 *   it must not need kernel types (no BTF is read for it);
 *
 *   the kernel part (psinfo_t, curpsinfo, bufinfo_t ...), when a program
 *   names one of the names it defines (dt_kdlib_names, generated from its
 *   text at build time).  It is compiled declaration by declaration: one
 *   that does not check against this kernel's types is left out, and a
 *   translator member that does not is kept with the reason (xlator.h).
 */
#include "compiler/dlib.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/nest.h"
#include "compiler/parser.h"
#include "compiler/pcb.h"
#include "compiler/sema.h"

extern const char dt_dlib_text[];
extern const char dt_kdlib_text[];
extern const char dt_kdlib_names[];

static void pcb_init(struct dt_pcb *pcb, struct dt_compiler *cc, const char *text)
{
	memset(pcb, 0, sizeof(*pcb));
	pcb->cc = cc;
	pcb->arena = &cc->core->arena;
	pcb->filename = "<D library>";
	pcb->show_lines = true;
	pcb->src = text;
	pcb->srclen = strlen(text);
	pcb->is_dlib = true;
	dt_nest_init(pcb);
}

/* Check one top-level declaration; false if it does not check. */
static bool sema_one(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *next = n->next;
	volatile bool ok = false;

	n->next = NULL;
	pcb->root = n;
	if (setjmp(pcb->jb) == 0) {
		dt_sema_program(pcb);
		ok = true;
	}
	n->next = next;
	return ok;
}

static void compile_kernel(struct dt_pcb *pcb)
{
	dt_parse_program(pcb);
	for (struct dt_node *n = pcb->root, *next; n != NULL; n = next) {
		next = n->next;
		if (!sema_one(pcb, n))
			dt_dprintf(pcb->cc->core, "D library declaration left out: %s\n", pcb->cc->core->errmsg);
	}
}

/* Compile one part; the library's errors must not replace the user's program's. */
static int load(struct dt_compiler *cc, int *state, const char *text, bool kernel)
{
	struct dt_pcb pcb;
	char errmsg[sizeof(cc->core->errmsg)], errtag[sizeof(cc->core->errtag)];
	int err = cc->core->err;

	if (*state != DLIB_UNLOADED)
		return *state == DLIB_LOADED ? 0 : -EINVAL;
	*state = DLIB_FAILED;
	memcpy(errmsg, cc->core->errmsg, sizeof(errmsg));
	memcpy(errtag, cc->core->errtag, sizeof(errtag));
	pcb_init(&pcb, cc, text);
	/* The library's identifiers belong to no program (pragma.c's scope rule). */
	uint32_t program = cc->program;
	cc->program = 0;
	if (setjmp(pcb.jb) == 0) {
		if (kernel) {
			compile_kernel(&pcb);
		} else {
			dt_parse_program(&pcb);
			dt_sema_program(&pcb);
		}
		*state = DLIB_LOADED;
	}
	cc->program = program;
	cc->core->err = err;
	memcpy(cc->core->errmsg, errmsg, sizeof(errmsg));
	memcpy(cc->core->errtag, errtag, sizeof(errtag));
	return *state == DLIB_LOADED ? 0 : -EINVAL;
}

int dt_dlib_load(struct dt_compiler *cc)
{
	return load(cc, &cc->dlib_state, dt_dlib_text, false);
}

int dt_dlib_load_kernel(struct dt_compiler *cc)
{
	int rc = dt_dlib_load(cc);

	if (rc < 0)
		return rc;
	return load(cc, &cc->kdlib_state, dt_kdlib_text, true);
}

bool dt_dlib_kernel_defines(const char *name)
{
	size_t n = strlen(name);

	for (const char *s = dt_kdlib_names; *s != '\0';) {
		const char *e = strchr(s, '\n');
		size_t len = e != NULL ? (size_t)(e - s) : strlen(s);
		if (len == n && memcmp(s, name, n) == 0)
			return true;
		if (e == NULL)
			break;
		s = e + 1;
	}
	return false;
}

/* What DTrace defines even without its library (its _dtrace_hardwire), as the base part does. */
static const char hardwired[] = "inline int NULL = 0;\n";

int dt_dlib_provide(struct dt_compiler *cc, const char *name)
{
	/* -x nolibs: programs get no D library at all, but NULL. */
	if (cc->core->opts.nolibs) {
		if (strcmp(name, "NULL") != 0 || cc->dlib_state != DLIB_UNLOADED ||
		    cc->hwlib_state != DLIB_UNLOADED)
			return 0;
		return load(cc, &cc->hwlib_state, hardwired, false) == 0 ? 1 : -EINVAL;
	}
	if (cc->dlib_state == DLIB_UNLOADED)
		return dt_dlib_load(cc) == 0 ? 1 : -EINVAL;
	if (cc->kdlib_state == DLIB_UNLOADED && dt_dlib_kernel_defines(name))
		return dt_dlib_load_kernel(cc) == 0 ? 1 : -EINVAL;
	return 0;
}
