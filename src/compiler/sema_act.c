/*
 * The checks DTrace makes while it generates a clause's code, once every
 * clause of the program has been checked (dt_cg.c): the speculation rules
 * (dt_cg_clsflags), each action's own rules, and calls of actions or
 * aggregating functions where a value is wanted (D_CG_EXPR).  Running
 * them in a pass of their own keeps DTrace's order: a clause's type
 * errors come before these, and an aggregation a later clause defines
 * may be printed by an earlier one.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

/* What a clause did so far (DT_CLSFLAG_*). */
#define CF_DATAREC	0x1
#define CF_SPECULATE	0x2
#define CF_COMMIT	0x4
#define CF_AGG		0x8

/* The kinds of action the speculation rules tell apart. */
enum act_kind { AK_DATA, AK_SPECULATE, AK_COMMIT, AK_DISCARD, AK_AGG, AK_EXIT, AK_DESTRUCT };

static enum act_kind kind_of(const struct dt_ident *id)
{
	if (id->kind == IDK_AGGFUNC)
		return AK_AGG;
	if (id->kind == IDK_SUBR)
		return AK_DESTRUCT;	/* copyout(), copyoutstr() */
	switch (id->code) {
	case ACT_SPECULATE: return AK_SPECULATE;
	case ACT_COMMIT: return AK_COMMIT;
	case ACT_DISCARD: return AK_DISCARD;
	case ACT_EXIT: return AK_EXIT;
	case ACT_SYSTEM: case ACT_FREOPEN: case ACT_RAISE: case ACT_STOP:
	case ACT_PANIC: case ACT_BREAKPOINT: case ACT_CHILL:
		return AK_DESTRUCT;
	default:
		return AK_DATA;
	}
}

/*
 * dt_cg_clsflags: speculate() first and once, nothing destructive and no
 * exit() after it; commit() before anything that records data, nothing
 * that records data after it.  discard() goes anywhere; destructive
 * actions do not record data (speculation/tst.zerosize.d has chill()
 * before speculate(), which DTrace 1.x allowed: dt_stmt_append skipped
 * them, where dtrace-utils' dt_cg_clsflags no longer does).
 */
static void clsflags(struct dt_pcb *pcb, unsigned *cf, enum act_kind k, int line)
{
	switch (k) {
	case AK_COMMIT:
		if (*cf & (CF_DATAREC | CF_AGG))
			dt_cerror(pcb, "D_COMM_DREC", line,
				  "commit( ) may not follow data-recording action(s)");
		*cf |= CF_COMMIT;
		return;
	case AK_DISCARD:
		return;
	case AK_SPECULATE:
		if (*cf & CF_SPECULATE)
			dt_cerror(pcb, "D_SPEC_SPEC", line, "speculate( ) may not follow speculate( )");
		if (*cf & CF_COMMIT)
			dt_cerror(pcb, "D_SPEC_COMM", line, "speculate( ) may not follow commit( )");
		if (*cf & (CF_DATAREC | CF_AGG))
			dt_cerror(pcb, "D_SPEC_DREC", line,
				  "speculate( ) may not follow data-recording action(s)");
		*cf |= CF_SPECULATE;
		return;
	case AK_AGG:
		if (*cf & CF_COMMIT)
			dt_cerror(pcb, "D_AGG_COMM", line, "aggregating actions may not follow commit( )");
		if (*cf & CF_SPECULATE)
			dt_cerror(pcb, "D_AGG_SPEC", line,
				  "aggregating actions may not follow speculate( )");
		*cf |= CF_AGG;
		return;
	default:
		break;
	}
	if (*cf & CF_SPECULATE) {
		if (k == AK_DESTRUCT)
			dt_cerror(pcb, "D_ACT_SPEC", line,
				  "destructive actions may not follow speculate( )");
		if (k == AK_EXIT)
			dt_cerror(pcb, "D_EXIT_SPEC", line, "exit( ) may not follow speculate( )");
	}
	/* As DTrace's tests have it, destructive actions record no data. */
	if (k == AK_DESTRUCT)
		return;
	if (*cf & CF_COMMIT)
		dt_cerror(pcb, "D_DREC_COMM", line, "data-recording actions may not follow commit( )");
	*cf |= CF_DATAREC;
}

struct act_walk {
	struct dt_pcb *pcb;
	unsigned cf;
};

static void walk_expr(struct act_walk *w, struct dt_node *n);

static void walk_list(struct act_walk *w, struct dt_node *n)
{
	for (; n != NULL; n = n->next)
		walk_expr(w, n);
}

/* Actions that make a value an aggregation key may hold (stack(), sym() ...). */
static bool key_action(const struct dt_node *n)
{
	if (n->kind != N_CALL || n->id == NULL || n->id->kind != IDK_ACTION)
		return false;
	switch (n->id->code) {
	case ACT_STACK: case ACT_USTACK: case ACT_JSTACK: case ACT_SYM: case ACT_FUNC:
	case ACT_MOD: case ACT_USYM: case ACT_UFUNC: case ACT_UMOD: case ACT_UADDR:
		return true;
	default:
		return false;
	}
}

/*
 * An expression's code, in evaluation order: no action may be called in
 * it.  Along a chain of binary operators (left operands) and of ?: (third
 * operands) by loops, not recursion: a chain is as deep as it is long.
 */
static void walk_expr(struct act_walk *w, struct dt_node *n)
{
	while (n != NULL) {
		dt_nest_check(w->pcb, n->line, "expression");
		switch (n->kind) {
		case N_CALL: {
			struct dt_ident *id = n->id;
			if (id != NULL && (id->kind == IDK_ACTION || id->kind == IDK_AGGFUNC))
				dt_cerror(w->pcb, "D_CG_EXPR", n->line,
					  "%s %s( ) may not be called from a D expression (D program "
					  "context required)", dt_ident_kind_name(id), id->name);
			if (id == NULL || id->kind != IDK_SUBR) {
				walk_list(w, n->call.args);
				return;
			}
			if (id->code == SUB_COPYOUT || id->code == SUB_COPYOUTSTR)
				clsflags(w->pcb, &w->cf, AK_DESTRUCT, n->line);
			walk_list(w, n->call.args);
			/* bcopy( ) and copyinto( ) write only into alloca( )'d memory. */
			if (id->code == SUB_BCOPY || id->code == SUB_COPYINTO) {
				int argno = id->code == SUB_BCOPY ? 2 : 3;
				struct dt_node *dst = n->call.args;
				for (int i = 1; i < argno; i++)
					dst = dst->next;
				if (!(dst->flags & DN_ALLOCA))
					dt_cerror(w->pcb, "D_PROTO_ARG", dst->line,
						  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: alloca pointer\n\t argument: non-alloca pointer",
						  id->name, argno);
			}
			return;
		}
		case N_INDEX:
			walk_expr(w, n->l);
			walk_list(w, n->call.args);
			return;
		case N_AGG:
			for (struct dt_node *k = n->agg.keys; k != NULL; k = k->next) {
				if (key_action(k))
					walk_list(w, k->call.args);
				else
					walk_expr(w, k);
			}
			return;
		case N_OP3:
			/* A constant condition leaves one side only (DTrace folds it while parsing). */
			if (n->cond->flags & DN_CONST) {
				n = n->cond->cval ? n->l : n->r;
				continue;
			}
			walk_expr(w, n->cond);
			walk_expr(w, n->l);
			n = n->r;
			continue;
		case N_OP2: {
			/* Down the left operands, then each right operand from the innermost up. */
			struct dt_node *small[8], **up = small, *s;
			size_t k = 0;
			for (s = n; s->kind == N_OP2; s = s->l)
				k++;
			if (k > 8)
				up = dt_palloc(w->pcb, k * sizeof(*up));
			for (s = n, k = 0; s->kind == N_OP2; s = s->l)
				up[k++] = s;
			walk_expr(w, s);
			while (k > 1)
				walk_expr(w, up[--k]->r);
			n = n->r;
			continue;
		}
		default:
			walk_expr(w, n->l);
			n = n->r;
			continue;
		}
	}
}

/* The action's aggregation argument: defined by now (dt_cg_act_clear ...). */
static void agg_arg(struct dt_pcb *pcb, struct dt_node *call, struct dt_node *a, int argno,
		    const char *argtag, const char *badtag)
{
	if (a->kind != N_AGG)
		dt_cerror(pcb, argtag, call->line,
			  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
			  call->id->name, argno, dt_sema_node_typestr(pcb, a));
	if (a->id == NULL)
		a->id = dt_ident_user(pcb->cc, IDK_AGG, a->agg.name);
	if (a->id == NULL)
		dt_cerror(pcb, badtag, call->line, "undefined aggregation: @%s", a->agg.name);
}

static void act_printf(struct dt_pcb *pcb, struct dt_node *call)
{
	struct dt_node *fmt = call->call.args;
	const char *name = call->id->name;

	if (fmt->kind != N_STRING)
		dt_cerror(pcb, "D_PRINTF_ARG_FMT", call->line,
			  "%s( ) argument #1 is incompatible with prototype:\n\tprototype: string constant\n\t argument: %s",
			  name, dt_sema_node_typestr(pcb, fmt));
	/* "." is how DTrace's freopen() record says "back to stdout". */
	if (call->id->code == ACT_FREOPEN && strcmp(fmt->str.s, ".") == 0)
		dt_cerror(pcb, "D_FREOPEN_INVALID", call->line, "freopen( ) argument #1 cannot be \".\"");
	dt_sema_check_format(pcb, call, name, false);
}

static void act_printa(struct dt_pcb *pcb, struct dt_node *call)
{
	struct dt_node *a = call->call.args;
	int argc = dt_node_list_len(a), argno = 1;

	if (a->kind == N_STRING) {
		a = a->next;
		argno = 2;
	}
	if (argc < argno)
		dt_cerror(pcb, "D_PRINTA_PROTO", call->line,
			  "printa( ) prototype mismatch: %d args passed, %d expected", argc, argno);
	struct dt_node *aggs = a;
	for (; a != NULL; a = a->next, argno++)
		agg_arg(pcb, call, a, argno, "D_PRINTA_AGGARG", "D_PRINTA_AGGBAD");
	if (call->call.args->kind == N_STRING)
		dt_sema_check_format(pcb, call, "printa", true);
	else
		dt_sema_printa_keys(pcb, call, aggs);
}

static void act_print(struct dt_pcb *pcb, struct dt_node *call)
{
	struct dt_node *a = call->call.args;
	struct dt_type *pt = dt_type_base(a->type);

	/*
	 * What print() prints is what its argument points to: its prototype
	 * is void(void *), so any pointer fits it, and one to void then has
	 * nothing to print (size 0).
	 */
	if (pt == NULL || pt->kind != TK_PTR)
		dt_cerror(pcb, "D_PROTO_ARG", call->line,
			  "print( ) argument #1 is incompatible with prototype:\n\tprototype: void *\n\t argument: %s",
			  dt_sema_node_typestr(pcb, a));
	if (dt_type_size(pt->base) == 0)
		dt_cerror(pcb, "D_PRINT_SIZE", a->line,
			  "print( ) argument #1 reference has type '%s' with size 0; cannot print( ) it.",
			  dt_sema_typestr(pcb, pt->base));
}

static bool posconst(const struct dt_node *n)
{
	return (n->flags & DN_CONST) && dt_type_is_integer(n->type) && n->cval > 0;
}

/* The rules of one action, in the order dt_cg_act_*() applies them. */
static void act_rules(struct dt_pcb *pcb, struct dt_node *call)
{
	struct dt_node *a = call->call.args;

	switch (call->id->code) {
	case ACT_PRINTF:
	case ACT_SYSTEM:
	case ACT_FREOPEN:
		act_printf(pcb, call);
		break;
	case ACT_PRINTA:
		act_printa(pcb, call);
		break;
	case ACT_CLEAR:
		agg_arg(pcb, call, a, 1, "D_CLEAR_AGGARG", "D_CLEAR_AGGBAD");
		break;
	case ACT_NORMALIZE:
	case ACT_DENORMALIZE:
		agg_arg(pcb, call, a, 1, "D_NORMALIZE_AGGARG", "D_NORMALIZE_AGGBAD");
		break;
	case ACT_TRUNC:
		agg_arg(pcb, call, a, 1, "D_TRUNC_AGGARG", "D_TRUNC_AGGBAD");
		break;
	case ACT_TRACE: {
		bool ptr;
		if (dt_type_is_void(a->type))
			dt_cerror(pcb, "D_TRACE_VOID", a->line,
				  "trace( ) may not be applied to a void expression");
		/* A translated value (xlate <T> or xlate <T *>) is dynamic to DTrace. */
		if (a->kind == N_AGG || dt_type_base(a->type)->special == DT_SPECIAL_DYN ||
		    dt_xlate_of(a, &ptr) != NULL)
			dt_cerror(pcb, "D_TRACE_DYN", a->line,
				  "trace( ) may not be applied to a dynamic expression");
		break;
	}
	case ACT_TRACEMEM:
		/* DTrace's dt_node_is_pointer(): an array is a pointer here too. */
		if (!dt_type_is_integer(a->type) && !dt_type_is_pointer(a->type) &&
		    !dt_type_is_array(a->type))
			dt_cerror(pcb, "D_TRACEMEM_ADDR", a->line,
				  "tracemem( ) argument #1 is incompatible with prototype:\n\tprototype: pointer or integer\n\t argument: %s",
				  dt_sema_node_typestr(pcb, a));
		if (!posconst(a->next))
			dt_cerror(pcb, "D_TRACEMEM_SIZE", a->next->line,
				  "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
		break;
	case ACT_PRINT:
		act_print(pcb, call);
		break;
	case ACT_PANIC:
	case ACT_BREAKPOINT:
		/* A BPF program can neither panic the kernel nor stop it in a debugger. */
		dt_cerror(pcb, "D_UNKNOWN", call->line, "%s() is not implemented (yet)",
			  call->id->name);
	default:
		break;
	}
}

static void walk_stmts(struct act_walk *w, struct dt_node *s);

static void walk_stmt(struct act_walk *w, struct dt_node *s)
{
	struct dt_pcb *pcb = w->pcb;
	struct dt_node *e = s->l;

	switch (s->kind) {
	case N_EXPRSTMT:
		break;
	case N_IF:
		/*
		 * DTrace makes each basic block (before, in and after each
		 * branch) a clause of its own (dt_sugar.c): the rules above
		 * hold within a block.
		 */
		w->cf = 0;
		walk_expr(w, s->cond);
		walk_stmts(w, s->body);
		w->cf = 0;
		walk_stmts(w, s->elsebody);
		w->cf = 0;
		return;
	case N_BLOCK:
		walk_stmts(w, s->body);
		return;
	default:
		return;
	}
	if (e->kind == N_CALL && e->id != NULL && e->id->kind == IDK_ACTION) {
		clsflags(pcb, &w->cf, kind_of(e->id), e->line);
		act_rules(pcb, e);
		for (struct dt_node *a = e->call.args; a != NULL; a = a->next)
			if (a->kind != N_AGG)
				walk_expr(w, a);
		return;
	}
	if (e->kind == N_AGG) {
		clsflags(pcb, &w->cf, AK_AGG, e->line);
		dt_cerror(pcb, "D_AGG_NULL", e->line, "expression has null effect: @%s", e->agg.name);
	}
	if (e->kind == N_OP2 && e->op == T_ASGN && e->l->kind == N_AGG) {
		clsflags(pcb, &w->cf, AK_AGG, e->l->line);
		walk_expr(w, e->l);
		walk_list(w, e->r->call.args);
		return;
	}
	/* dt_cg() refuses a statement whose value is a translated pointer. */
	bool ptr = false;
	if (dt_xlate_of(e, &ptr) != NULL && ptr)
		dt_cerror(pcb, "D_CG_DYN", e->line,
			  "expression cannot evaluate to result of a translated pointer");
	walk_expr(w, e);
}

static void walk_stmts(struct act_walk *w, struct dt_node *s)
{
	for (; s != NULL; s = s->next)
		walk_stmt(w, s);
}

void dt_sema_act_clause(struct dt_pcb *pcb, struct dt_stmt *st)
{
	struct act_walk w = { pcb, 0 };
	struct dt_node *c = st->clause;

	walk_expr(&w, c->clause.pred);
	walk_stmts(&w, c->clause.body);
}
