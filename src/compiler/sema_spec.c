/*
 * DTrace's rules for speculations within a clause, applied action by
 * action in program order: speculate() comes first and once, nothing
 * destructive, no exit() and no aggregation after it; commit() comes
 * before any data and nothing that records data, speculates or aggregates
 * follows it.  discard() may go anywhere.  As in DTrace, every action
 * other than these, the aggregating functions and the destructive actions
 * counts as recording data.
 */
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

static bool destructive(const struct dt_ident *id)
{
	if (id->kind == IDK_SUBR)
		return id->code == SUB_COPYOUT || id->code == SUB_COPYOUTSTR;
	switch (id->code) {
	case ACT_SYSTEM: case ACT_RAISE: case ACT_STOP: case ACT_PANIC: case ACT_BREAKPOINT:
	case ACT_CHILL: case ACT_FREOPEN:
		return true;
	default:
		return false;
	}
}

void dt_sema_spec_rules(struct dt_pcb *pcb, struct dt_node *n, const struct dt_ident *id)
{
	struct dt_sema_ctx *cx = pcb->sema;

	if (cx == NULL)
		return;
	/* The clause may then only be enabled with -w (dtrace_go). */
	if (destructive(id))
		cx->stmt->destructive = true;
	/* Of the subroutines, only copyout() and copyoutstr() act (destructively). */
	if (id->kind == IDK_SUBR && !destructive(id))
		return;
	if (id->kind == IDK_ACTION && id->code == ACT_COMMIT) {
		if (cx->saw_data)
			dt_cerror(pcb, "D_COMM_DREC", n->line,
				  "commit( ) may not follow data-recording action(s)");
		cx->saw_commit = true;
		return;
	}
	if (id->kind == IDK_ACTION && id->code == ACT_DISCARD)
		return;
	if (id->kind == IDK_ACTION && id->code == ACT_SPECULATE) {
		if (cx->saw_speculate)
			dt_cerror(pcb, "D_SPEC_SPEC", n->line, "speculate( ) may not follow speculate( )");
		if (cx->saw_commit)
			dt_cerror(pcb, "D_SPEC_COMM", n->line, "speculate( ) may not follow commit( )");
		if (cx->saw_data)
			dt_cerror(pcb, "D_SPEC_DREC", n->line,
				  "speculate( ) may not follow data-recording action(s)");
		cx->saw_speculate = true;
		return;
	}
	if (id->kind == IDK_AGGFUNC) {
		if (cx->saw_commit)
			dt_cerror(pcb, "D_AGG_COMM", n->line,
				  "aggregating actions may not follow commit( )");
		if (cx->saw_speculate)
			dt_cerror(pcb, "D_AGG_SPEC", n->line,
				  "aggregating actions may not follow speculate( )");
		cx->saw_data = true;
		return;
	}
	if (cx->saw_speculate) {
		if (destructive(id))
			dt_cerror(pcb, "D_ACT_SPEC", n->line,
				  "destructive actions may not follow speculate( )");
		if (id->kind == IDK_ACTION && id->code == ACT_EXIT)
			dt_cerror(pcb, "D_EXIT_SPEC", n->line, "exit( ) may not follow speculate( )");
	}
	if (destructive(id))
		return;
	if (cx->saw_commit)
		dt_cerror(pcb, "D_DREC_COMM", n->line,
			  "data-recording actions may not follow commit( )");
	cx->saw_data = true;
}
