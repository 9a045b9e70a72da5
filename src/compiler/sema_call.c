/*
 * Semantic analysis of calls: actions, subroutines and aggregating
 * functions, checked against their prototypes with DTrace's messages.
 */
#include <string.h>

#include "base/core.h"
#include "base/printf_format.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/walk.h"

#define TT(pcb) (&(pcb)->cc->core->types)

static bool is_function(const struct dt_ident *id)
{
	return id->kind == IDK_ACTION || id->kind == IDK_SUBR || id->kind == IDK_AGGFUNC;
}

/*
 * The function a call names.  DTrace looks the name up among the global
 * identifiers as it parses the call: a name it does not know is
 * D_FUNC_UNDEF (a variable only assigned so far is not known yet), one
 * that is no function D_FUNC_IDKIND.
 */
struct dt_ident *dt_sema_callee(struct dt_pcb *pcb, const char *name, int line)
{
	struct dt_ident *id = dt_ident_builtin_visible(pcb, name);

	if (id == NULL)
		id = dt_sema_resolve(pcb, name);
	/* The D library's own subroutines are not there for programs. */
	if (id == NULL || (id->kind == IDK_SUBR && id->code == SUB_PATH_OF && !pcb->is_dlib))
		dt_cerror(pcb, "D_FUNC_UNDEF", line, "undefined function name: %s", name);
	if (!is_function(id))
		dt_cerror(pcb, "D_FUNC_IDKIND", line, "%s '%s' may not be referenced as a function",
			  dt_ident_kind_name(id), id->name);
	return id;
}

/*
 * The calls of one clause, in source order, so that a name declared
 * before the clause is known as it is when DTrace parses the call.
 * Without recursion: chains of operators make the tree thousands of
 * levels deep.
 */
void dt_sema_check_calls(struct dt_pcb *pcb, struct dt_node *clause)
{
	struct dt_walk w = { 0 };
	struct dt_node *n;

	dt_walk_push(pcb, &w, clause->clause.body);
	dt_walk_push(pcb, &w, clause->clause.pred);
	while ((n = dt_walk_pop(&w)) != NULL) {
		if (n->kind == N_CALL)
			dt_sema_callee(pcb, n->call.name, n->line);
		dt_walk_push_children(pcb, &w, n);
	}
}

static bool is_dynamic(const struct dt_node *a)
{
	return a->kind == N_AGG ||
	       (a->type != NULL && dt_type_base(a->type)->special == DT_SPECIAL_DYN);
}

const char *dt_sema_node_typestr(struct dt_pcb *pcb, struct dt_node *a)
{
	/* A dynamic value is named by its identifier's kind ("aggregation"). */
	if (a->kind == N_AGG)
		return "aggregation";
	if (is_dynamic(a) && a->id != NULL)
		return dt_ident_kind_name(a->id);
	return dt_sema_typestr(pcb, a->type);
}

/* An integer to DTrace: stack, symbol address and <DYN> are kinds of void there. */
static bool is_int(struct dt_type *t)
{
	return dt_type_is_integer(t) && dt_type_base(t)->special == DT_SPECIAL_NONE;
}

static bool strcompat(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

/* What a pointer, array or string refers to (NULL for anything else). */
static struct dt_type *referent(struct dt_pcb *pcb, struct dt_type *t)
{
	struct dt_type *b = dt_type_base(t);

	if (b == NULL)
		return NULL;
	if (b->kind == TK_STRING)
		return TT(pcb)->t_char;
	if (b->kind == TK_PTR || b->kind == TK_ARRAY)
		return b->base;
	return NULL;
}

/*
 * DTrace's dt_node_is_ptrcompat for a parameter type: pointers (arrays,
 * strings) to the same type or to void on either side; an integer only
 * as the constant 0; a userland pointer never for a kernel one.
 */
static bool ptrcompat(struct dt_pcb *pcb, struct dt_type *pt, struct dt_node *a)
{
	struct dt_type *at = a->type;

	if (is_dynamic(a))
		return false;
	if (is_int(pt))
		return false;
	struct dt_type *lref = referent(pcb, pt), *rref = referent(pcb, at);
	if (is_int(at))
		return (a->flags & DN_CONST) && a->cval == 0 && lref != NULL;
	if (lref == NULL || rref == NULL)
		return false;
	if (dt_type_base(at)->userland != dt_type_base(pt)->userland)
		return false;
	return dt_type_is_void(lref) || dt_type_is_void(rref) || dt_type_equal(lref, rref);
}

/* DTrace's dt_node_is_argcompat: may `a` be passed for a parameter of type pt? */
static bool argcompat(struct dt_pcb *pcb, struct dt_type *pt, struct dt_node *a)
{
	if (pt == NULL)
		return true;	/* "@": any type */
	if (is_dynamic(a))
		return false;
	struct dt_type *at = a->type, *pb = dt_type_base(pt), *ab = dt_type_base(at);
	if (is_int(pt) && is_int(at))
		return true;
	if (strcompat(pt) && strcompat(at))
		return true;
	int ps = pb->special, as = ab->special;
	if (ps != DT_SPECIAL_NONE || as != DT_SPECIAL_NONE) {
		/* stack() and ustack() both make a "stack". */
		bool pstack = ps == DT_SPECIAL_STACK || ps == DT_SPECIAL_USTACK;
		bool astack = as == DT_SPECIAL_STACK || as == DT_SPECIAL_USTACK;
		if (ps == as || (pstack && astack))
			return true;
	}
	if (pb->kind == TK_STRUCT || pb->kind == TK_UNION || pb->kind == TK_FUNC)
		return dt_type_equal(pt, at);
	return ptrcompat(pcb, pt, a);
}

/* DTrace's dt_idcook_sign: the number of arguments, then each one's type. */
static void check_sign(struct dt_pcb *pcb, struct dt_node *n, const char *name,
		       const struct dt_proto *p)
{
	int argc = dt_node_list_len(n->call.args);
	int min = p->nparams - p->nopt, max = p->nparams;
	const char *s = argc == 1 ? "" : "s";

	if (p->varargs) {
		if (argc < min)
			dt_cerror(pcb, "D_PROTO_LEN", n->line,
				  "%s( ) prototype mismatch: %d arg%s passed, at least %d expected", name,
				  argc, s, min);
	} else if (p->nopt > 0 && (argc < min || argc > max)) {
		dt_cerror(pcb, "D_PROTO_LEN", n->line,
			  "%s( ) prototype mismatch: %d arg%s passed, at %s %d expected", name, argc, s,
			  argc < min ? "least" : "most", argc < min ? min : max);
	} else if (argc != max && p->nopt == 0) {
		dt_cerror(pcb, "D_PROTO_LEN", n->line,
			  "%s( ) prototype mismatch: %d arg%s passed, %d expected", name, argc, s, max);
	}
	int i = 0;
	for (struct dt_node *a = n->call.args; a != NULL && i < p->nparams; a = a->next, i++) {
		if (argcompat(pcb, p->params[i], a))
			continue;
		/* DTrace names a built-in's "const char *" parameter "char *". */
		const char *ps = dt_sema_typestr(pcb, p->params[i]);
		if (strcmp(ps, "const char *") == 0)
			ps = "char *";
		dt_cerror(pcb, "D_PROTO_ARG", n->line,
			  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
			  name, i + 1, ps, dt_sema_node_typestr(pcb, a));
	}
}

/*
 * An aggregation named as an argument (printa(@a), clear(@a) ...): it
 * must be known by now (DTrace checks the program clause by clause); one
 * with keys names the aggregation too, which need not be defined yet.
 */
static void cook_agg_ref(struct dt_pcb *pcb, struct dt_node *a)
{
	struct dt_ident *id = dt_ident_user(pcb->cc, IDK_AGG, a->agg.name);

	for (struct dt_node *k = a->agg.keys; k != NULL; k = k->next)
		dt_sema_expr(pcb, k);
	if (id == NULL && a->agg.keys == NULL)
		dt_cerror(pcb, "D_IDENT_UNDEF", a->line, "failed to resolve @%s: Unknown variable name",
			  a->agg.name);
	a->id = id;
	a->type = TT(pcb)->t_dyn;
}

/* "@a[k];" or "@a;": a reference only, its null effect reported with the actions. */
void dt_sema_agg_stmt(struct dt_pcb *pcb, struct dt_node *a)
{
	cook_agg_ref(pcb, a);
}

static void cook_args(struct dt_pcb *pcb, struct dt_node *n)
{
	for (struct dt_node *a = n->call.args; a != NULL; a = a->next) {
		if (a->kind == N_AGG)
			cook_agg_ref(pcb, a);
		else
			dt_sema_expr(pcb, a);
	}
}

/* What using a call tells about its clause: destructive, needs scratch. */
static void note_effects(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id)
{
	struct dt_sema_ctx *cx = pcb->sema;

	if (cx == NULL)
		return;
	if (id->kind == IDK_ACTION) {
		switch (id->code) {
		case ACT_SYSTEM: case ACT_RAISE: case ACT_STOP: case ACT_PANIC:
		case ACT_BREAKPOINT: case ACT_CHILL: case ACT_FREOPEN:
			cx->stmt->destructive = true;
			break;
		case ACT_EXIT:
			cx->saw_exit = true;
			break;
		default:
			break;
		}
		return;
	}
	if (id->kind != IDK_SUBR)
		return;
	if (id->code == SUB_COPYOUT || id->code == SUB_COPYOUTSTR) {
		cx->stmt->destructive = true;
		cx->stmt->uses_scratch = true;
	}
	if (dt_type_is_string(n->type) || id->code == SUB_ALLOCA || id->code == SUB_COPYIN)
		cx->stmt->uses_scratch = true;
}

/*
 * A call, cooked as DTrace does: its arguments, then their number and
 * types against the prototype.  An action is a value of its result type
 * (void mostly) and an aggregating function a dynamic one: the operator
 * around either objects, or code generation does (dt_sema_act_clause).
 */
void dt_sema_call(struct dt_pcb *pcb, struct dt_node *n, bool stmt_level)
{
	struct dt_ident *id = dt_sema_callee(pcb, n->call.name, n->line);

	n->id = id;
	struct dt_proto *p = dt_ident_proto(pcb, id);
	cook_args(pcb, n);
	check_sign(pcb, n, id->name, p);
	n->type = id->kind == IDK_AGGFUNC ? TT(pcb)->t_dyn : p->ret;
	if (id->kind == IDK_ACTION && !stmt_level)
		n->flags |= DN_ACTION;
	/* inet_ntoa6()'s strictness is chosen at compile time. */
	if (id->kind == IDK_SUBR && id->code == SUB_INET_NTOA6 && n->call.args->next != NULL &&
	    (!(n->call.args->next->flags & DN_CONST) ||
	     !dt_type_is_integer(n->call.args->next->type)))
		dt_cerror(pcb, "D_PROTO_ARG", n->line,
			  "inet_ntoa6( ) argument #2 must be an integer constant");
	note_effects(pcb, n, id);
}

/*
 * @name[keys] = func(args), as DTrace cooks it: the function call first,
 * then whether it aggregates and is the aggregation's function, then the
 * keys (their types fix the aggregation's signature on first use; later
 * uses must match it like a prototype).
 */
void dt_sema_agg_assign(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_node *agg = n->l, *fn = n->r;

	if (pcb->sema == NULL)
		dt_cerror(pcb, "D_AGG_SCALAR", n->line, "aggregations may only be used in clauses");
	if (fn->kind != N_CALL) {
		dt_sema_expr(pcb, fn);
		dt_cerror(pcb, "D_AGG_FUNC", n->line,
			  "@%s must be assigned the result of an aggregating function", agg->agg.name);
	}
	struct dt_ident *fid = dt_sema_callee(pcb, fn->call.name, fn->line);
	fn->id = fid;
	struct dt_proto *p = dt_ident_proto(pcb, fid);
	cook_args(pcb, fn);
	check_sign(pcb, fn, fid->name, p);
	if (fid->kind != IDK_AGGFUNC)
		dt_cerror(pcb, "D_AGG_FUNC", n->line,
			  "@%s must be assigned the result of an aggregating function", agg->agg.name);
	fn->type = TT(pcb)->t_dyn;
	struct dt_ident *id = dt_ident_user(cc, IDK_AGG, agg->agg.name);
	if (id != NULL && id->aggfunc != fid->code)
		dt_cerror(pcb, "D_AGG_REDEF", n->line,
			  "aggregation redefined: @%s\n\t current: @%s = %s( )\n\tprevious: @%s = %s( ) : line %d",
			  agg->agg.name, agg->agg.name, fid->name, agg->agg.name,
			  dt_agg_func_name(id->aggfunc), id->line);
	int nk = dt_node_list_len(agg->agg.keys), i = 0;
	for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next, i++) {
		if (k->kind != N_AGG)
			dt_sema_expr(pcb, k);
		/* The first use fixes the keys' types (DTrace's dt_idcook_sign). */
		if (id == NULL)
			dt_sema_check_key(pcb, k, i + 1, "aggregation", agg->line);
	}
	bool first = id == NULL;
	if (!first && id->nkeys != nk)
		dt_cerror(pcb, "D_PROTO_LEN", agg->line,
			  "@%s[ ] prototype mismatch: %d key%s passed, %d expected", agg->agg.name, nk,
			  nk == 1 ? "" : "s", id->nkeys);
	i = 0;
	for (struct dt_node *k = agg->agg.keys; k != NULL && !first; k = k->next, i++) {
		if (!argcompat(pcb, id->keys[i], k))
			dt_cerror(pcb, "D_PROTO_ARG", agg->line,
				  "@%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				  agg->agg.name, i + 1, dt_sema_typestr(pcb, id->keys[i]),
				  dt_sema_node_typestr(pcb, k));
	}
	if (first) {
		id = dt_ident_user_add(cc, IDK_AGG, agg->agg.name, n->line);
		if (id == NULL)
			dt_cnomem(pcb);
		id->aggfunc = fid->code;
		id->nkeys = nk;
		id->keys = dt_arena_alloc(&cc->core->arena, sizeof(*id->keys) * (size_t)(nk + 1));
		if (id->keys == NULL)
			dt_cnomem(pcb);
		i = 0;
		for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next) {
			struct dt_type *kt = k->type;
			if (dt_type_is_charptr(kt) && dt_type_is_array(kt))
				kt = TT(pcb)->t_string;
			id->keys[i++] = kt;
		}
		id->flags |= IDF_DEFINED;
		id->type = fn->call.args ? fn->call.args->type : TT(pcb)->t_int64;
	}
	agg->id = id;
	dt_sema_agg_check(pcb, id, agg, fn, first);
	agg->type = TT(pcb)->t_void;
	n->type = TT(pcb)->t_void;
	n->id = id;
	pcb->sema->nactions++;
}
