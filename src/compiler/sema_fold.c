/*
 * DTrace folds a ?: whose condition is an integer constant while it
 * parses (dt_node_op3()): the expression becomes the operand the
 * condition picks, and the other one is dropped unchecked.  So an action
 * may be an operand (the DTraceToolkit's `OPT_time ? printf(...) : 1;`,
 * `OPT_stack ? ustack() : 1;`), and the result has the picked operand's
 * type.  The constants of that rule are DTrace's parse-time integer nodes
 * (DT_NODE_INT), fewer than the constant expressions sema folds later:
 *
 *   integer and character constants (macro arguments and variables too:
 *   the lexer makes them integer tokens); an identifier naming an inline
 *   whose value is such a constant, or an enumerator declared in D (which
 *   DTrace keeps as such an inline, dt_decl_enumerator()), as
 *   dt_node_ident() turns them into integers; -, +, ~ and ! of
 *   one (dt_node_op1()); sizeof of a type name or a string constant;
 *   offsetof(); the arithmetic, bitwise, shift, relational, equality and
 *   logical operators on two of them (dt_node_op2(), not the comma or
 *   assignments); a cast of one to an integer or enum type; and a ?:
 *   folded this way that picked one.
 *
 * Variables and sizeof of an expression are not: with such a condition
 * ?: is checked as any other.  The condition's value is the one sema
 * computes for it (D's conversions, as dt_node_op2() and dt_cast() do).
 */
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"

/*
 * Down left operands, operands of unary operators and casts, and inline
 * definitions by a loop, not recursion: a chain a + b + c ... is as deep
 * as it is long.
 */
bool dt_sema_parse_int(struct dt_pcb *pcb, const struct dt_node *n)
{
	for (;;) {
		dt_nest_check(pcb, n->line, "expression");
		switch (n->kind) {
		case N_INT:
		case N_OFFSETOF:
			return true;
		case N_SIZEOF:
			return n->l == NULL || n->l->kind == N_STRING;
		case N_IDENT:
			if (n->id != NULL && n->id->kind == IDK_ENUM)
				return true;
			if (n->id == NULL || n->id->kind != IDK_INLINE || n->id->iparams != NULL ||
			    n->id->inline_expr == NULL)
				return false;
			n = n->id->inline_expr;
			continue;
		case N_OP1:
			switch (n->op) {
			case T_INEG: case T_IPOS: case T_BNEG: case T_LNEG:
				n = n->l;
				continue;
			default:
				return false;
			}
		case N_OP2:
			switch (n->op) {
			case T_LOR: case T_LXOR: case T_LAND: case T_BOR: case T_XOR: case T_BAND:
			case T_EQU: case T_NEQ: case T_LT: case T_LE: case T_GT: case T_GE:
			case T_LSH: case T_RSH: case T_ADD: case T_SUB: case T_MUL: case T_DIV:
			case T_MOD:
				if (!dt_sema_parse_int(pcb, n->r))
					return false;
				n = n->l;
				continue;
			default:
				return false;
			}
		case N_CAST:
			if (n->type == NULL || !dt_sema_is_integer(n->type))
				return false;
			n = n->l;
			continue;
		default:
			return false;
		}
	}
}

bool dt_sema_fold_cond(struct dt_pcb *pcb, struct dt_node *n)
{
	/* (An aggregation as condition: cook_op3() says what is wrong.) */
	if (n->kind != N_OP3 || n->cond->kind == N_AGG)
		return false;
	/* Cooking the condition folds the ?: nested in it first, as parsing does. */
	if (n->cond->type == NULL)
		dt_sema_expr(pcb, n->cond);
	if (!dt_sema_parse_int(pcb, n->cond) || !(n->cond->flags & DN_CONST))
		return false;
	struct dt_node *next = n->next;
	*n = n->cond->cval != 0 ? *n->l : *n->r;
	n->next = next;
	return true;
}
