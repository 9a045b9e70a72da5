/*
 * How deep the compiler's recursion may go.
 *
 * The parser counts nesting: each operand of a unary operator or cast,
 * each right operand of a binary operator, the operands of ?: and of an
 * assignment's right side, each postfix operator (member, subscript,
 * call), each nested statement and declarator.  The AST it builds is no
 * deeper than that count, except along chains of binary operators
 * (a + b + c ..., a || b || c ...), which the later passes (semantic
 * checks, code generation) walk without recursing; so the count bounds
 * their recursion too.  Every level costs a bounded amount of stack (see
 * nest.c for what was measured); DT_NEST_MAX bounds the total.
 *
 * The caller's thread may have a small stack: every recursive step also
 * checks that the thread's stack has room left, and fails the compile
 * cleanly if not.
 */
#ifndef DT_NEST_H
#define DT_NEST_H

#include <stdbool.h>
#include <stdint.h>

#include "compiler/pcb.h"

#define DT_NEST_MAX 500

/* Note where the running thread's stack ends (pcb->stack_floor). */
void dt_nest_init(struct dt_pcb *pcb);

/* Whether a recursive step has room on the stack. */
static inline bool dt_nest_room(const struct dt_pcb *pcb)
{
	return (uintptr_t)__builtin_frame_address(0) > pcb->stack_floor;
}

/*
 * Fail the compile: `what` (an expression, statements ...) is nested
 * deeper than DT_NEST_MAX levels (over = true) or than the stack allows.
 */
_Noreturn void dt_nest_error(struct dt_pcb *pcb, int line, const char *what, bool over);

/* Check the stack's room for one more step of a later pass. */
static inline void dt_nest_check(struct dt_pcb *pcb, int line, const char *what)
{
	if (!dt_nest_room(pcb))
		dt_nest_error(pcb, line, what, false);
}

#endif
