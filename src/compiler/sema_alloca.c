/*
 * Which pointers point into alloca()'d memory.  Loads and stores through
 * them are checked against what the clause allocated (cg_alloca.c), so
 * the compiler follows them: from alloca() and copyin(), through casts,
 * pointer arithmetic, ?:, & and the variables they are stored in.
 */
#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/ident.h"
#include "compiler/pcb.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

static bool null_const(const struct dt_node *n)
{
	return (n->flags & DN_CONST) && n->cval == 0;
}

/* A variable node's identifier, if the node names a variable. */
static struct dt_ident *var_ident(const struct dt_node *n)
{
	if (n->id == NULL)
		return NULL;
	switch (n->id->kind) {
	case IDK_GLOBAL:
	case IDK_TLS:
	case IDK_LOCAL:
	case IDK_ARRAY:
		return n->kind == N_INDEX && n->id->kind != IDK_ARRAY ? NULL : n->id;
	default:
		return NULL;
	}
}

void dt_sema_alloca_taint(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_ident *id;

	switch (n->kind) {
	case N_CALL:
		if (n->id && n->id->kind == IDK_SUBR &&
		    (n->id->code == SUB_ALLOCA || n->id->code == SUB_COPYIN))
			n->flags |= DN_ALLOCA;
		break;
	case N_CAST:
		n->flags |= n->l->flags & DN_ALLOCA;
		break;
	case N_IDENT:
	case N_VAR:
		if ((id = var_ident(n)) != NULL && (id->flags & IDF_ALLOCA))
			n->flags |= DN_ALLOCA;
		break;
	case N_INDEX:
		if ((id = var_ident(n)) != NULL) {
			if (id->flags & IDF_ALLOCA)
				n->flags |= DN_ALLOCA;
		} else if (n->l->flags & (DN_ALLOCA | DN_AMEM)) {
			n->flags |= DN_AMEM;
		}
		break;
	case N_MEMBER:
		if ((n->op == T_PTR && (n->l->flags & DN_ALLOCA)) ||
		    (n->op == T_DOT && (n->l->flags & DN_AMEM)))
			n->flags |= DN_AMEM;
		break;
	case N_OP1:
		if (n->op == T_DEREF && (n->l->flags & DN_ALLOCA))
			n->flags |= DN_AMEM;
		else if (n->op == T_ADDROF && (n->l->flags & DN_AMEM))
			n->flags |= DN_ALLOCA;
		break;
	case N_OP2:
		switch (n->op) {
		case T_ADD:
		case T_SUB:
			if (dt_type_is_pointer(n->type))
				n->flags |= (n->l->flags | n->r->flags) & DN_ALLOCA;
			/* An address as an integer ((long)p + 1) is still one, not a difference of two. */
			else if (dt_type_is_integer(n->type))
				n->flags |= (n->l->flags ^ n->r->flags) & DN_ALLOCA;
			break;
		case T_ADD_EQ:
		case T_SUB_EQ:
			n->flags |= n->l->flags & DN_ALLOCA;
			break;
		case T_COMMA:
			n->flags |= n->r->flags & DN_ALLOCA;
			break;
		case T_ASGN:
			if (n->r->flags & DN_AMIXED)
				dt_cerror(pcb, "D_ALLOCA_INCOMPAT", n->line,
					  "ternary conditional with alloca and non-alloca branches cannot be assigned to a variable");
			n->flags |= n->r->flags & DN_ALLOCA;
			if ((n->r->flags & DN_ALLOCA) && (id = var_ident(n->l)) != NULL)
				id->flags |= IDF_ALLOCA;
			break;
		default:
			break;
		}
		break;
	case N_OP3: {
		int a = n->l->flags & DN_ALLOCA, b = n->r->flags & DN_ALLOCA;
		if (a && b)
			n->flags |= DN_ALLOCA;
		else if ((a && null_const(n->r)) || (b && null_const(n->l)))
			n->flags |= DN_ALLOCA;
		else if ((a || b) && dt_type_is_pointer(n->type))
			n->flags |= DN_AMIXED;
		break;
	}
	default:
		break;
	}
	/* An array in alloca()'d memory is used as a pointer to it. */
	if ((n->flags & DN_AMEM) && dt_type_is_array(n->type))
		n->flags |= DN_ALLOCA;
	/*
	 * alloca()'d memory does not outlive its clause: any clause that
	 * allocates or uses a pointer into it starts with nothing allocated,
	 * so a pointer kept from another clause is an invalid address there.
	 */
	if ((n->flags & (DN_ALLOCA | DN_AMEM)) && pcb->sema)
		pcb->sema->stmt->uses_alloca = true;
}
