/*
 * Nesting limits of the compiler (see nest.h).
 *
 * Stack per level, measured on x86-64 with gcc -O2 by the smallest thread
 * stack that compiles a construct nested N levels: about 400 bytes per
 * parenthesis (the parser's eight functions between two of them), 260 per
 * unary operator or cast, 450 per call with its argument list, 300 per
 * ?: operand; the semantic checks and code generation take less per level
 * than the parser does per level it counted.  So DT_NEST_MAX (500) costs
 * at most about 200 KB, and code generation's deepest (inline definitions
 * expanded, cg_expr.c) about 400 KB more; sanitizers make frames two to
 * four times larger.  A thread's stack is checked besides (see below).
 * Freeing takes none: the AST lives in the compile's arena and goes with
 * it, unwalked.
 */
#include <pthread.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/nest.h"

/* Stack kept free below the deepest step: for the error report and leaf calls. */
#define MARGIN_MIN (32 * 1024)
#define MARGIN_MAX (256 * 1024)

void dt_nest_init(struct dt_pcb *pcb)
{
	pthread_attr_t attr;
	void *lo;
	size_t size;

	pcb->stack_floor = 0;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return;
	int rc = pthread_attr_getstack(&attr, &lo, &size);
	pthread_attr_destroy(&attr);
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);
	if (rc != 0 || here <= (uintptr_t)lo || here - (uintptr_t)lo > size)
		return;
	size_t avail = here - (uintptr_t)lo, margin = avail / 8;
	if (margin < MARGIN_MIN)
		margin = MARGIN_MIN;
	if (margin > MARGIN_MAX)
		margin = MARGIN_MAX;
	if (margin > avail / 2)
		margin = avail / 2;
	pcb->stack_floor = (uintptr_t)lo + margin;
}

void dt_nest_error(struct dt_pcb *pcb, int line, const char *what, bool over)
{
	if (over)
		dt_cerror(pcb, "D_SYNTAX", line, "%s nested too deeply: more than %d levels", what,
			  DT_NEST_MAX);
	dt_cerror(pcb, "D_SYNTAX", line, "%s nested too deeply for the thread's stack", what);
}
