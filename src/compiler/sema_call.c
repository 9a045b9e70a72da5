/*
 * Semantic analysis of calls: actions, subroutines and aggregating
 * functions, checked against their prototypes with DTrace's messages.
 */
#include <string.h>

#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/types.h"
#include "consumer/printf.h"
#include "lib/dt_impl.h"

#define TT(pcb) (&(pcb)->hdl->types)

static void check_argc(struct dt_pcb *pcb, struct dt_node *n, const char *name,
		       const struct dt_proto *p)
{
	int argc = dt_node_list_len(n->call.args);
	int min = p->nparams - p->nopt, max = p->nparams;

	if (p->varargs) {
		if (argc < min)
			dt_cerror(pcb, "D_PROTO_LEN", n->line,
				  "%s( ) prototype mismatch: %d arg%s passed, at least %d expected", name,
				  argc, argc == 1 ? "" : "s", min);
		return;
	}
	if (argc < min || argc > max) {
		if (min == max)
			dt_cerror(pcb, "D_PROTO_LEN", n->line,
				  "%s( ) prototype mismatch: %d arg%s passed, %d expected", name, argc,
				  argc == 1 ? "" : "s", min);
		dt_cerror(pcb, "D_PROTO_LEN", n->line,
			  "%s( ) prototype mismatch: %d arg%s passed, at %s %d expected", name, argc,
			  argc == 1 ? "" : "s", argc < min ? "least" : "most", argc < min ? min : max);
	}
}

static _Noreturn void bad_arg(struct dt_pcb *pcb, struct dt_node *a, const char *name, int i,
			      const char *proto)
{
	/* DTrace names a built-in's "const char *" parameter "char *". */
	if (strncmp(proto, "const ", 6) == 0)
		proto += 6;
	dt_cerror(pcb, "D_PROTO_ARG", a->line,
		  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: %s\n\t argument: %s",
		  name, i, proto, dt_sema_typestr(pcb, a->type));
}

/* Whether argument `a` may be passed for parameter type `pt`. */
static bool arg_ok(struct dt_pcb *pcb, struct dt_type *pt, struct dt_node *a)
{
	if (pt == NULL)
		return true;
	/* Strings and char pointers are interchangeable for "const char *". */
	if (dt_type_is_charptr(pt) && (dt_type_is_string(a->type) || dt_type_is_charptr(a->type)))
		return true;
	if (dt_type_is_integer(pt) && dt_type_is_integer(a->type))
		return true;
	if (dt_type_is_pointer(pt)) {
		if (dt_type_is_pointer(a->type) || dt_type_is_array(a->type))
			return true;
		/* A string is its characters' address for a "void *" (bcopy). */
		if (dt_type_is_string(a->type) && dt_type_is_void(dt_type_base(pt)->base))
			return true;
		if (dt_type_is_integer(a->type) && (a->flags & DN_CONST) && a->cval == 0)
			return true;
		return false;
	}
	return dt_sema_assignable(pcb, pt, a);
}

static void check_args(struct dt_pcb *pcb, struct dt_node *n, const char *name,
		       const struct dt_proto *p, int first)
{
	int i = 0;

	for (struct dt_node *a = n->call.args; a != NULL; a = a->next, i++) {
		/* An action as an argument is a void value (exit(exit(0))). */
		if (a->kind == N_CALL && dt_ident_builtin(pcb->hdl, a->call.name) != NULL &&
		    dt_ident_builtin(pcb->hdl, a->call.name)->kind == IDK_ACTION)
			dt_sema_call(pcb, a, true);
		else if (a->kind != N_AGG)
			dt_sema_expr(pcb, a);
		if (i < first || i >= p->nparams)
			continue;
		if (a->kind == N_AGG) {
			if (p->params[i] != NULL)
				dt_cerror(pcb, "D_PROTO_ARG", a->line,
					  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: %s\n\t argument: aggregation",
					  name, i + 1, dt_sema_typestr(pcb, p->params[i]));
			continue;
		}
		if (!arg_ok(pcb, p->params[i], a)) {
			/* DTrace names a string parameter "char *". */
			const char *ps = dt_sema_typestr(pcb, p->params[i]);
			if (strcmp(ps, "const char *") == 0)
				ps = "char *";
			bad_arg(pcb, a, name, i + 1, ps);
		}
	}
}

/* The type of an argument for a message (an aggregating function's call: void). */
static const char *arg_typestr(struct dt_pcb *pcb, struct dt_node *a)
{
	if (a->kind == N_CALL) {
		struct dt_ident *f = dt_ident_builtin(pcb->hdl, a->call.name);
		if (f != NULL && f->kind == IDK_AGGFUNC)
			return "void";
	}
	dt_sema_expr(pcb, a);
	return dt_sema_typestr(pcb, a->type);
}

/* An aggregation argument (printa, clear, trunc, normalize ...). */
static struct dt_ident *agg_arg(struct dt_pcb *pcb, struct dt_node *a, const char *name, int i)
{
	if (a->kind != N_AGG || a->agg.keys != NULL) {
		const char *tag = strcmp(name, "printa") == 0 ? "D_PRINTA_AGGARG"
				  : strcmp(name, "clear") == 0 ? "D_CLEAR_AGGARG"
				  : strcmp(name, "trunc") == 0 ? "D_TRUNC_AGGARG"
				  : strcmp(name, "normalize") == 0 || strcmp(name, "denormalize") == 0
				  ? "D_NORMALIZE_AGGARG" : "D_PROTO_ARG";
		const char *ts = arg_typestr(pcb, a);
		dt_cerror(pcb, tag, a->line,
			  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: aggregation\n\t argument: %s",
			  name, i, ts);
	}
	struct dt_ident *id = dt_ident_user(pcb->hdl, IDK_AGG, a->agg.name);
	if (id == NULL)
		dt_cerror(pcb, "D_IDENT_UNDEF", a->line, "failed to resolve @%s: Unknown variable name",
			  a->agg.name);
	a->id = id;
	a->type = TT(pcb)->t_void;
	return id;
}

static void check_printf(struct dt_pcb *pcb, struct dt_node *n, const char *name, bool printa)
{
	struct dt_node *fmt = n->call.args;

	if (fmt == NULL)
		dt_cerror(pcb, "D_PROTO_LEN", n->line,
			  "%s( ) prototype mismatch: 0 args passed, at least 1 expected", name);
	if (printa && fmt->kind == N_AGG) {
		int i = 1;
		for (struct dt_node *a = fmt; a != NULL; a = a->next, i++)
			agg_arg(pcb, a, name, i);
		dt_sema_printa_keys(pcb, n, fmt);
		return;
	}
	if (printa && fmt->kind != N_STRING)
		agg_arg(pcb, fmt, name, 1);
	dt_sema_expr(pcb, fmt);
	if (fmt->kind != N_STRING)
		dt_cerror(pcb, "D_PRINTF_ARG_FMT", fmt->line,
			  "%s( ) argument #1 is incompatible with prototype:\n\tprototype: string constant\n\t argument: %s",
			  name, dt_sema_typestr(pcb, fmt->type));
	if (printa && fmt->next == NULL)
		dt_cerror(pcb, "D_PRINTA_PROTO", n->line,
			  "%s( ) prototype mismatch: 1 args passed, 2 expected", name);
	int i = 2;
	for (struct dt_node *a = fmt->next; a != NULL; a = a->next, i++) {
		/* printa() takes aggregations; printf() rejects one in its format check. */
		if (a->kind == N_AGG || printa)
			agg_arg(pcb, a, name, i);
		else
			dt_sema_expr(pcb, a);
	}
	dt_sema_check_format(pcb, n, name, printa);
}

static void action_check(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id)
{
	struct dt_sema_ctx *cx = pcb->sema;
	const char *name = id->name;
	struct dt_proto *p = dt_ident_proto(pcb, id);

	switch (id->code) {
	case ACT_PRINTF:
	case ACT_SYSTEM:
		check_printf(pcb, n, name, false);
		break;
	case ACT_PRINTA:
		check_printf(pcb, n, name, true);
		break;
	case ACT_CLEAR:
	case ACT_DENORMALIZE:
	case ACT_TRUNC:
	case ACT_NORMALIZE: {
		check_argc(pcb, n, name, p);
		agg_arg(pcb, n->call.args, name, 1);
		struct dt_node *a2 = n->call.args->next;
		if (a2 != NULL && a2->kind == N_AGG)
			dt_cerror(pcb, "D_PROTO_ARG", a2->line,
				  "%s( ) argument #2 is incompatible with prototype:\n\tprototype: uint64_t\n\t argument: aggregation",
				  name);
		if (a2 != NULL) {
			dt_sema_expr(pcb, a2);
			if (!dt_type_is_integer(a2->type))
				bad_arg(pcb, a2, name, 2, "uint64_t");
		}
		break;
	}
	case ACT_PRINT: {
		check_argc(pcb, n, name, p);
		struct dt_node *a = n->call.args;
		dt_sema_expr(pcb, a);
		struct dt_type *pt = dt_type_base(a->type);
		if (pt == NULL || pt->kind != TK_PTR || dt_type_is_void(pt->base))
			dt_cerror(pcb, "D_PRINT_ARG", a->line,
				  "print( ) argument #1 must be a pointer to a type");
		if (dt_type_size(pt->base) == 0)
			dt_cerror(pcb, "D_PRINT_SIZE", a->line,
				  "print( ) argument #1 reference has type '%s' with size 0; cannot print( ) it.",
				  dt_sema_typestr(pcb, pt->base));
		break;
	}
	case ACT_FREOPEN: {
		check_printf(pcb, n, name, false);
		const char *f = n->call.args->str.s;
		if (strcmp(f, ".") == 0 || strcmp(f, "..") == 0)
			dt_cerror(pcb, "D_FREOPEN_INVALID", n->line,
				  "freopen( ) argument #1 cannot be \"%s\"", f);
		break;
	}
	case ACT_TRACEMEM: {
		check_argc(pcb, n, name, p);
		check_args(pcb, n, name, p, 1);
		struct dt_node *a = n->call.args, *sz = a->next;
		if (!dt_type_is_integer(a->type) && !dt_type_is_pointer(a->type))
			dt_cerror(pcb, "D_TRACEMEM_ADDR", a->line,
				  "tracemem( ) argument #1 is incompatible with prototype:\n\tprototype: pointer or integer\n\t argument: %s",
				  dt_sema_typestr(pcb, a->type));
		if (!(sz->flags & DN_CONST) || sz->cval <= 0)
			dt_cerror(pcb, "D_TRACEMEM_SIZE", sz->line,
				  "tracemem( ) argument #2 must be a non-zero positive integral constant expression");
		break;
	}
	case ACT_TRACE: {
		check_argc(pcb, n, name, p);
		struct dt_node *a = n->call.args;
		/* An aggregation is a dynamic expression to DTrace. */
		if (a->kind == N_AGG)
			dt_cerror(pcb, "D_TRACE_DYN", a->line,
				  "trace( ) may not be applied to a dynamic expression");
		dt_sema_expr(pcb, a);
		if (dt_type_is_void(a->type))
			dt_cerror(pcb, "D_TRACE_VOID", a->line, "trace( ) may not be applied to a void expression");
		if (dt_type_base(a->type)->special == DT_SPECIAL_DYN)
			dt_cerror(pcb, "D_TRACE_DYN", a->line, "trace( ) may not be applied to a dynamic expression");
		break;
	}
	default:
		check_argc(pcb, n, name, p);
		check_args(pcb, n, name, p, 0);
		break;
	}

	switch (id->code) {
	case ACT_SYSTEM: case ACT_RAISE: case ACT_STOP: case ACT_PANIC: case ACT_BREAKPOINT:
	case ACT_CHILL: case ACT_FREOPEN:
		cx->stmt->destructive = true;
		cx->saw_destructive = true;
		break;
	case ACT_EXIT:
		cx->saw_exit = true;
		break;
	default:
		break;
	}
	dt_sema_spec_rules(pcb, n, id);
	cx->nactions++;
}

void dt_sema_call(struct dt_pcb *pcb, struct dt_node *n, bool stmt_level)
{
	struct dt_ident *id = dt_ident_builtin(pcb->hdl, n->call.name);

	if (id == NULL || (id->kind != IDK_ACTION && id->kind != IDK_SUBR &&
			   id->kind != IDK_AGGFUNC)) {
		if (id == NULL && dt_sema_resolve(pcb, n->call.name) == NULL)
			dt_cerror(pcb, "D_FUNC_UNDEF", n->line, "undefined function name: %s",
				  n->call.name);
		dt_cerror(pcb, "D_FUNC_IDENT", n->line,
			  "%s is not a function: it may not be called", n->call.name);
	}
	n->id = id;
	if (id->kind == IDK_AGGFUNC && stmt_level)
		dt_cerror(pcb, "D_CG_EXPR", n->line,
			  "aggregating function %s( ) may not be called from a D expression (D program "
			  "context required)", id->name);
	if (id->kind == IDK_AGGFUNC)
		dt_cerror(pcb, "D_AGG_FUNC", n->line,
			  "%s( ) may only be used as the value of an aggregation", id->name);
	if (id->kind == IDK_ACTION) {
		struct dt_proto *p = dt_ident_proto(pcb, id);
		bool value_action = dt_type_base(p->ret)->special != DT_SPECIAL_NONE;
		/*
		 * Inside an expression an action is a void value: its arguments
		 * are checked, then the operator around it objects (DTrace's
		 * errors come from there).
		 */
		if (!stmt_level && !value_action) {
			check_argc(pcb, n, id->name, p);
			check_args(pcb, n, id->name, p, 0);
			n->type = p->ret;
			n->flags |= DN_ACTION;
			return;
		}
		if (!pcb->sema)
			dt_cerror(pcb, "D_ACT_SPEC", n->line, "%s( ) may only be used in a clause", id->name);
		action_check(pcb, n, id);
		n->type = p->ret;
		return;
	}
	struct dt_proto *p = dt_ident_proto(pcb, id);
	check_argc(pcb, n, id->name, p);
	check_args(pcb, n, id->name, p, 0);
	n->type = p->ret;
	/* inet_ntoa6()'s strictness is chosen at compile time. */
	if (id->code == SUB_INET_NTOA6 && n->call.args->next != NULL &&
	    (!(n->call.args->next->flags & DN_CONST) || !dt_type_is_integer(n->call.args->next->type)))
		dt_cerror(pcb, "D_PROTO_ARG", n->line,
			  "inet_ntoa6( ) argument #2 must be an integer constant");
	if (stmt_level)
		dt_sema_spec_rules(pcb, n, id);
	if (pcb->sema && (id->code == SUB_COPYOUT || id->code == SUB_COPYOUTSTR)) {
		pcb->sema->stmt->destructive = true;
		pcb->sema->stmt->uses_scratch = true;
	}
	if (pcb->sema && (dt_type_is_string(n->type) || id->code == SUB_ALLOCA ||
			  id->code == SUB_COPYIN))
		pcb->sema->stmt->uses_scratch = true;
}

void dt_sema_agg_assign(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	struct dt_node *agg = n->l, *fn = n->r;

	if (pcb->sema == NULL)
		dt_cerror(pcb, "D_AGG_SCALAR", n->line, "aggregations may only be used in clauses");
	if (fn->kind != N_CALL)
		dt_cerror(pcb, "D_AGG_FUNC", n->line,
			  "@%s must be assigned the result of an aggregating function", agg->agg.name);
	struct dt_ident *fid = dt_ident_builtin(dtp, fn->call.name);
	if (fid == NULL) {
		if (dt_sema_resolve(pcb, fn->call.name) == NULL)
			dt_cerror(pcb, "D_FUNC_UNDEF", fn->line, "undefined function name: %s",
				  fn->call.name);
		dt_cerror(pcb, "D_FUNC_IDENT", fn->line, "function designator is not of function type");
	}
	if (fid->kind != IDK_AGGFUNC)
		dt_cerror(pcb, "D_AGG_FUNC", n->line,
			  "@%s must be assigned the result of an aggregating function", agg->agg.name);
	fn->id = fid;
	struct dt_proto *p = dt_ident_proto(pcb, fid);
	check_argc(pcb, fn, fid->name, p);
	check_args(pcb, fn, fid->name, p, 0);
	int ki = 1;
	for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next) {
		if (k->kind != N_AGG)
			dt_sema_expr(pcb, k);
		dt_sema_check_key(pcb, k, ki++, "aggregation", agg->line);
	}
	struct dt_ident *id = dt_ident_user(dtp, IDK_AGG, agg->agg.name);
	int nk = dt_node_list_len(agg->agg.keys);
	bool first = id == NULL;
	if (first) {
		id = dt_ident_user_add(dtp, IDK_AGG, agg->agg.name, n->line);
		if (id == NULL)
			dt_cnomem(pcb);
		id->aggfunc = fid->code;
		id->nkeys = nk;
		id->keys = dt_arena_alloc(&dtp->arena, sizeof(*id->keys) * (size_t)(nk + 1));
		if (id->keys == NULL)
			dt_cnomem(pcb);
		int i = 0;
		for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next) {
			struct dt_type *kt = k->type;
			if (dt_type_is_charptr(kt) && dt_type_is_array(kt))
				kt = TT(pcb)->t_string;
			id->keys[i++] = kt;
		}
		id->flags |= IDF_DEFINED;
		id->type = fn->call.args ? fn->call.args->type : TT(pcb)->t_int64;
	} else {
		if (id->aggfunc != fid->code)
			dt_cerror(pcb, "D_AGG_REDEF", n->line,
				  "aggregation redefined: @%s\n\t current: @%s = %s( )\n\tprevious: @%s = %s( ) : line %d",
				  agg->agg.name, agg->agg.name, fid->name, agg->agg.name,
				  dt_agg_func_name(id->aggfunc), id->line);
		/* Keys are checked against the first use's, as DTrace checks a prototype. */
		if (id->nkeys != nk)
			dt_cerror(pcb, "D_PROTO_LEN", agg->line,
				  "@%s[ ] prototype mismatch: %d key%s passed, %d expected", agg->agg.name,
				  nk, nk == 1 ? "" : "s", id->nkeys);
		int i = 0;
		for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next, i++)
			if (!dt_sema_type_argcompat(pcb, id->keys[i], k))
				dt_cerror(pcb, "D_PROTO_ARG", agg->line,
					  "@%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
					  agg->agg.name, i + 1, dt_sema_typestr(pcb, id->keys[i]),
					  dt_sema_typestr(pcb, k->type));
	}
	agg->id = id;
	dt_sema_agg_check(pcb, id, agg, fn, first);
	agg->type = TT(pcb)->t_void;
	n->type = TT(pcb)->t_void;
	n->id = id;
	dt_sema_spec_rules(pcb, n, fid);
	pcb->sema->nactions++;
}
