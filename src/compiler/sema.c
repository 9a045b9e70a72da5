/*
 * Semantic analysis of a program: its declarations in order (sema_decl.c,
 * types in sema_type.c), then each clause.  Expressions are checked in
 * sema_expr.c, calls in sema_call.c.
 */
#include "compiler/sema.h"

#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

const char *dt_sema_typestr(struct dt_pcb *pcb, struct dt_type *t)
{
	return dt_type_str(&pcb->cc->core->types, t);
}

int64_t dt_sema_const(struct dt_pcb *pcb, struct dt_node *n, const char *tag, const char *what)
{
	dt_sema_expr(pcb, n);
	if (!(n->flags & DN_CONST))
		dt_cerror(pcb, tag, n->line, "%s", what);
	return n->cval;
}

void dt_sema_toplevel(struct dt_pcb *pcb, struct dt_node *n)
{
	if (n->flags & DN_CHECKED)
		return;
	n->flags |= DN_CHECKED;
	switch (n->kind) {
	case N_DECL:
		dt_attr_typenames(pcb, n);
		dt_sema_declare(pcb, n);
		break;
	case N_INLINE:
		dt_attr_typenames(pcb, n);
		dt_sema_inline(pcb, n);
		break;
	case N_XLATOR:
		dt_attr_typenames(pcb, n);
		dt_sema_translator(pcb, n);
		break;
	case N_PROVIDER:
		dt_attr_typenames(pcb, n);
		dt_sema_provider(pcb, n);
		break;
	default:
		break;
	}
}

void dt_sema_program(struct dt_pcb *pcb)
{
	for (struct dt_node *n = pcb->root; n != NULL; n = n->next) {
		switch (n->kind) {
		case N_CLAUSE:
			dt_sema_check_calls(pcb, n);
			dt_attr_typenames(pcb, n);
			break;
		default:
			dt_sema_toplevel(pcb, n);
			break;
		}
	}
}

static void check_pred(struct dt_pcb *pcb, struct dt_node *c)
{
	if (c->clause.pred == NULL)
		return;
	pcb->region = "predicate";
	dt_sema_expr(pcb, c->clause.pred);
	/* A string is not a scalar to DTrace (dt_node_is_scalar): no NULL test here. */
	struct dt_type *pt = c->clause.pred->type;
	bool ptr;	/* a translated pointer is dynamic to DTrace */
	if (!dt_type_is_scalar(pt) || dt_type_base(pt)->special != DT_SPECIAL_NONE ||
	    dt_xlate_of(c->clause.pred, &ptr) != NULL)
		dt_cerror(pcb, "D_PRED_SCALAR", c->clause.end_line ? c->clause.end_line : c->line,
			  "predicate result must be of scalar type");
}

/*
 * DTrace checks the actions first (they may declare what the predicate
 * uses); if that fails on an undefined name and there is a predicate, it
 * checks the predicate first instead.
 */
void dt_sema_clause(struct dt_pcb *pcb, struct dt_stmt *stmt)
{
	struct dt_node *c = stmt->clause;
	struct dt_sema_ctx ctx;
	jmp_buf saved;

	memset(&ctx, 0, sizeof(ctx));
	ctx.stmt = stmt;
	pcb->sema = &ctx;
	memcpy(saved, pcb->jb, sizeof(jmp_buf));
	if (setjmp(pcb->jb) == 0) {
		pcb->region = "action list";
		dt_sema_stmts(pcb, c->clause.body);
		memcpy(pcb->jb, saved, sizeof(jmp_buf));
		check_pred(pcb, c);
	} else {
		memcpy(pcb->jb, saved, sizeof(jmp_buf));
		const char *tag = pcb->cc->core->errtag;
		if (c->clause.pred == NULL ||
		    (strcmp(tag, "D_IDENT_UNDEF") != 0 && strcmp(tag, "D_VAR_UNDEF") != 0))
			longjmp(pcb->jb, 1);
		memset(&ctx, 0, sizeof(ctx));
		ctx.stmt = stmt;
		stmt->args_used = 0;
		stmt->uses_scratch = false;
		check_pred(pcb, c);
		pcb->region = "action list";
		dt_sema_stmts(pcb, c->clause.body);
	}
	pcb->region = NULL;
	pcb->sema = NULL;
}
