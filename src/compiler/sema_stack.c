/*
 * The arguments of stack(), ustack() and jstack(): how many frames a call
 * records and how many bytes that takes in a record or an aggregation key
 * (the layouts of base/stack.h).
 */
#include <stdint.h>

#include "base/core.h"
#include "base/stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema.h"

bool dt_stack_is_call(const struct dt_node *n)
{
	return n != NULL && n->kind == N_CALL && n->id != NULL && n->id->kind == IDK_ACTION &&
	       (n->id->code == ACT_STACK || n->id->code == ACT_USTACK ||
		n->id->code == ACT_JSTACK);
}

static bool is_posconst(const struct dt_node *n)
{
	return (n->flags & DN_CONST) && n->cval > 0;
}

uint32_t dt_stack_nframes(struct dt_pcb *pcb, const struct dt_node *call)
{
	const struct dt_options *o = &pcb->cc->core->opts;
	const char *name = call->id->name;
	const struct dt_node *a0 = call->call.args;
	const struct dt_node *a1 = a0 != NULL ? a0->next : NULL;
	int64_t n;

	switch (call->id->code) {
	case ACT_STACK:
		n = o->stackframes;
		break;
	case ACT_JSTACK:
		n = o->jstackframes;
		break;
	default:
		n = o->ustackframes;
		break;
	}
	if (a0 != NULL) {
		if (!is_posconst(a0))
			dt_cerror(pcb, call->id->code == ACT_STACK ? "D_STACK_SIZE" : "D_USTACK_FRAMES",
				  a0->line,
				  "%s( ) argument #1 must be a non-zero positive integer constant", name);
		n = a0->cval;
	}
	if (a1 != NULL && (!(a1->flags & DN_CONST) || a1->cval < 0))
		dt_cerror(pcb, "D_USTACK_STRSIZE", a1->line,
			  "%s( ) argument #2 must be a positive integer constant", name);
	/* More frames than allowed are silently cut, as DTrace does. */
	if (n > o->maxframes)
		n = o->maxframes;
	if (n > DT_STACK_MAXFRAMES)
		n = DT_STACK_MAXFRAMES;
	return n < 1 ? 1 : (uint32_t)n;
}

uint32_t dt_stack_size(struct dt_pcb *pcb, const struct dt_node *call)
{
	uint32_t n = dt_stack_nframes(pcb, call);

	/* A kernel stack has a spare frame; a user stack the tgid first. */
	return 8 * (n + 1);
}
