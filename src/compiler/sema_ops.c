/*
 * Semantic rules of D's operators: operand types, constant folding,
 * assignments and compound assignments (the variables they declare), ++/--,
 * dereference, comparison, pointer arithmetic and ?:.
 */
#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/walk.h"

#define TT(pcb) (&(pcb)->cc->core->types)

static bool is_actfunc(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_ident *id = n->kind == N_CALL ? dt_ident_builtin_visible(pcb, n->call.name) : NULL;

	return id != NULL && id->kind == IDK_ACTION;
}

static _Noreturn void incompat(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op)
{
	dt_sema_incompat_ops(pcb, n->line, n->l, dt_sema_opname(op), n->r);
}

static void need_int(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		     struct dt_node *b)
{
	if (b == NULL && !dt_sema_is_integer(a->type))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator %s requires an operand of integral type",
			  dt_sema_opname(op));
	if (b != NULL && (!dt_sema_is_integer(a->type) || !dt_sema_is_integer(b->type)))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator %s requires operands of integral type",
			  dt_sema_opname(op));
}

static void need_arith(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		       struct dt_node *b)
{
	if (!dt_sema_is_integer(a->type) || (b && !dt_sema_is_integer(b->type)))
		dt_cerror(pcb, "D_OP_ARITH", n->line, "operator %s requires operands of arithmetic type",
			  dt_sema_opname(op));
}

static void need_scalar(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
			struct dt_node *b)
{
	if (!dt_sema_is_scalar(a->type) || !dt_sema_is_scalar(b->type))
		dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator %s requires operands of scalar type",
			  dt_sema_opname(op));
}

/* Fold a binary integer operation on constants. */
static bool fold2(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, int64_t a, int64_t b,
		  bool uns, int64_t *r)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case T_ADD: *r = (int64_t)(ua + ub); return true;
	case T_SUB: *r = (int64_t)(ua - ub); return true;
	case T_MUL: *r = (int64_t)(ua * ub); return true;
	case T_DIV:
	case T_MOD:
		if (b == 0)
			dt_cerror(pcb, "D_DIV_ZERO", n->line, "expression contains division by zero");
		if (uns)
			*r = (int64_t)(op == T_DIV ? ua / ub : ua % ub);
		else if (a == INT64_MIN && b == -1)
			*r = op == T_DIV ? a : 0;
		else
			*r = op == T_DIV ? a / b : a % b;
		return true;
	case T_BAND: *r = a & b; return true;
	case T_BOR: *r = a | b; return true;
	case T_XOR: *r = a ^ b; return true;
	case T_LSH: *r = (int64_t)(ua << (ub & 63)); return true;
	case T_RSH: *r = uns ? (int64_t)(ua >> (ub & 63)) : a >> (ub & 63); return true;
	case T_LT: *r = uns ? ua < ub : a < b; return true;
	case T_LE: *r = uns ? ua <= ub : a <= b; return true;
	case T_GT: *r = uns ? ua > ub : a > b; return true;
	case T_GE: *r = uns ? ua >= ub : a >= b; return true;
	case T_EQU: *r = a == b; return true;
	case T_NEQ: *r = a != b; return true;
	case T_LAND: *r = a && b; return true;
	case T_LOR: *r = a || b; return true;
	case T_LXOR: *r = !a != !b; return true;
	default: return false;
	}
}

static enum dt_tok compound_base(enum dt_tok op)
{
	switch (op) {
	case T_ADD_EQ: return T_ADD;
	case T_SUB_EQ: return T_SUB;
	case T_MUL_EQ: return T_MUL;
	case T_DIV_EQ: return T_DIV;
	case T_MOD_EQ: return T_MOD;
	case T_AND_EQ: return T_BAND;
	case T_XOR_EQ: return T_XOR;
	case T_OR_EQ: return T_BOR;
	case T_LSH_EQ: return T_LSH;
	case T_RSH_EQ: return T_RSH;
	default: return T_EOF;
	}
}

/* Whether an assignment's left side is a variable that exists already. */
static bool lvalue_known(struct dt_pcb *pcb, struct dt_node *lhs)
{
	if (lhs->kind == N_IDENT)
		return dt_sema_resolve(pcb, lhs->ident.name) != NULL;
	if (lhs->kind == N_VAR) {
		struct dt_ident *id = dt_ident_user(pcb->cc, lhs->op == T_SELF ? IDK_TLS : IDK_LOCAL,
						    lhs->member);
		return id != NULL && (id->flags & IDF_DEFINED);
	}
	if (lhs->kind == N_INDEX && lhs->l->kind == N_IDENT)
		return dt_sema_resolve(pcb, lhs->l->ident.name) != NULL;
	if (lhs->kind == N_INDEX && lhs->l->kind == N_VAR)
		return lvalue_known(pcb, lhs->l);
	return true;
}

/* Declare an implicitly typed variable on first assignment. */
void dt_sema_lvalue_decl(struct dt_pcb *pcb, struct dt_node *lhs, struct dt_node *rhs)
{
	struct dt_compiler *cc = pcb->cc;
	/*
	 * A new variable takes the value's type, void included: the
	 * assignment's type check then refuses it, as DTrace does.
	 */
	struct dt_type *t = rhs->type;

	/*
	 * A new variable takes the value's type; void (an action's result)
	 * and dynamic types (an aggregating function's) then fail DTrace's
	 * compatibility check, which names the variable by its kind.
	 */
	if ((dt_type_is_void(t) || dt_type_base(t)->special == DT_SPECIAL_DYN) &&
	    !lvalue_known(pcb, lhs))
		dt_cerror(pcb, "D_OP_INCOMPAT", lhs->line,
			  "operands have incompatible types: \"%s\" = \"%s\"",
			  dt_type_is_void(t) ? "void" : lhs->kind == N_INDEX ? "associative array" : "scalar",
			  dt_sema_node_typestr(pcb, rhs));
	if (dt_type_is_charptr(t) && dt_type_is_array(t))
		t = TT(pcb)->t_string;
	if (lhs->kind == N_IDENT && lhs->op != T_SELF && lhs->op != T_THIS) {
		/* A scoped name is a kernel symbol, never a new variable. */
		if (dt_sema_resolve(pcb, lhs->ident.name) != NULL ||
		    strchr(lhs->ident.name, '`') != NULL)
			return;
		struct dt_ident *id = dt_sema_new_var(pcb, IDK_GLOBAL, lhs->ident.name, lhs->line);
		id->type = t;
		id->flags |= IDF_DEFINED;
		return;
	}
	if (lhs->kind == N_VAR) {
		enum dt_idkind kind = lhs->op == T_SELF ? IDK_TLS : IDK_LOCAL;
		struct dt_ident *id = dt_ident_user(cc, kind, lhs->member);
		if (id != NULL && (id->flags & IDF_DEFINED))
			return;
		if (id == NULL)
			id = dt_sema_new_var(pcb, kind, lhs->member, lhs->line);
		if (id == NULL)
			dt_cnomem(pcb);
		id->type = t;
		id->flags |= IDF_DEFINED;
		return;
	}
	bool tls_array = lhs->kind == N_INDEX && lhs->l->kind == N_VAR && lhs->l->op == T_SELF;
	if (tls_array || (lhs->kind == N_INDEX && lhs->l->kind == N_IDENT && lhs->l->op != T_SELF &&
			  lhs->l->op != T_THIS)) {
		struct dt_ident *id;
		if (tls_array) {
			id = dt_ident_user(cc, IDK_TLS, lhs->l->member);
			if (id != NULL && (id->flags & IDF_DEFINED))
				return;
		} else if (dt_sema_resolve(pcb, lhs->l->ident.name) != NULL ||
			   strchr(lhs->l->ident.name, '`') != NULL) {
			return;
		}
		int ki = 1;
		for (struct dt_node *k = lhs->call.args; k != NULL; k = k->next) {
			if (k->kind != N_AGG)
				dt_sema_expr(pcb, k);
			dt_sema_check_key(pcb, k, ki++, "associative array", lhs->line);
		}
		if (tls_array)
			id = dt_sema_new_var(pcb, IDK_TLS, lhs->l->member, lhs->line);
		else
			id = dt_sema_new_var(pcb, IDK_ARRAY, lhs->l->ident.name, lhs->line);
		if (id == NULL)
			dt_cnomem(pcb);
		int nk = dt_node_list_len(lhs->call.args);
		id->keys = dt_arena_alloc(&cc->core->arena, sizeof(*id->keys) * (size_t)(nk + 1));
		if (id->keys == NULL)
			dt_cnomem(pcb);
		int i = 0;
		for (struct dt_node *k = lhs->call.args; k != NULL; k = k->next) {
			struct dt_type *kt = k->type;
			if (dt_type_is_charptr(kt) && dt_type_is_array(kt))
				kt = TT(pcb)->t_string;
			id->keys[i++] = kt;
		}
		id->nkeys = nk;
		id->type = t;
		id->flags |= IDF_DEFINED;
	}
}

/* DTrace's checks that an assignment's left side may be written (asgn_common). */
static void need_writable(struct dt_pcb *pcb, struct dt_node *n, struct dt_node *l)
{
	if (!(l->flags & DN_LVALUE))
		dt_cerror(pcb, "D_OP_LVAL", n->line, "operator %s requires modifiable lvalue as an operand",
			  dt_sema_opname(n->op));
	if (!(l->flags & DN_WRITABLE))
		dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable",
			  dt_sema_opname(n->op));
}

static void cook_assign(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *l = n->l, *r = n->r;
	enum dt_tok base = compound_base(n->op);

	if (l->kind == N_AGG) {
		if (n->op != T_ASGN)
			dt_cerror(pcb, "D_AGG_SCALAR", n->line,
				  "operator %s may not be applied to an aggregation", dt_sema_opname(n->op));
		dt_sema_agg_assign(pcb, n);
		return;
	}
	dt_sema_operand(pcb, r);
	/* DTrace refuses a constant zero divisor before anything else. */
	if ((base == T_DIV || base == T_MOD) && (r->flags & DN_CONST) && r->cval == 0)
		dt_cerror(pcb, "D_DIV_ZERO", n->line, "expression contains division by zero");
	/* "x += 1" reads x: it must exist already. */
	if (n->op != T_ASGN && l->kind == N_IDENT && l->op != T_SELF && l->op != T_THIS &&
	    dt_sema_resolve(pcb, l->ident.name) == NULL)
		dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s has not yet been declared or assigned",
			  l->ident.name);
	if (n->op == T_ASGN)
		dt_sema_lvalue_decl(pcb, l, r);
	dt_sema_expr(pcb, l);
	switch (n->op) {
	case T_ASGN:
		/*
		 * Structs and unions are assigned whole (the same type), and a
		 * thread-local or array element of one is deleted by assigning 0.
		 */
		if (dt_type_is_sou(l->type)) {
			bool del = (r->flags & DN_CONST) && r->cval == 0 && l->id != NULL &&
				   (l->id->kind == IDK_TLS || l->id->kind == IDK_ARRAY);
			if (!del && !dt_sema_type_compat(l->type, r->type))
				incompat(pcb, n, n->op);
			break;
		}
		if (!dt_type_is_string(l->type)) {
			struct dt_type *lb = dt_type_base(l->type);
			if (lb->kind == TK_ARRAY || lb->kind == TK_FUNC)
				dt_cerror(pcb, "D_OP_ARRFUN", n->line,
					  "operator %s may not be applied to operand of type \"%s\"",
					  dt_sema_opname(n->op), dt_sema_typestr(pcb, l->type));
		}
		if (!dt_sema_argcompat(pcb, l, r))
			incompat(pcb, n, n->op);
		break;
	case T_ADD_EQ:
	case T_SUB_EQ:
		if (dt_type_is_string(l->type) || dt_type_is_string(r->type))
			incompat(pcb, n, n->op);
		if (!dt_sema_is_integer(l->type) || !dt_sema_is_integer(r->type)) {
			if (!dt_sema_is_pointer(l->type) || dt_sema_is_vfptr(l->type))
				dt_cerror(pcb, "D_OP_VFPTR", n->line,
					  "operator %s requires left-hand scalar operand of known size",
					  dt_sema_opname(n->op));
			/* DTrace also takes pointer += pointer, which means nothing: refused. */
			if (!dt_sema_is_integer(r->type))
				incompat(pcb, n, n->op);
		}
		break;
	case T_MUL_EQ:
	case T_DIV_EQ:
		need_arith(pcb, n, n->op, l, r);
		break;
	default:
		need_int(pcb, n, n->op, l, r);
		break;
	}
	need_writable(pcb, n, l);
	if (l->id != NULL)
		l->id->flags |= IDF_WRITTEN;
	n->type = l->type;
}

/*
 * "e == TAG" with e of an enum type: a name the enum defines is its value,
 * unless that name is also a global (DTrace: ambiguous).
 */
static void enum_tag(struct dt_pcb *pcb, struct dt_node *n, struct dt_node *l, struct dt_node *r)
{
	struct dt_type *e = dt_type_base(l->type);

	if (e == NULL || e->kind != TK_ENUM || r->kind != N_IDENT || r->op != 0 ||
	    strchr(r->ident.name, '`') != NULL)
		return;
	for (uint32_t i = 0; i < e->nenums; i++) {
		if (strcmp(e->enums[i].name, r->ident.name) != 0)
			continue;
		struct dt_ident *id = dt_sema_resolve(pcb, r->ident.name);
		if (id != NULL && id->kind == IDK_ENUM)
			return;
		if (id != NULL)
			dt_cerror(pcb, "D_IDENT_AMBIG", n->line,
				  "ambiguous use of operator %s: %s is both a %s enum tag and a global %s",
				  dt_sema_opname(n->op), r->ident.name, dt_sema_typestr(pcb, l->type),
				  dt_ident_kind_name(id));
		r->kind = N_INT;
		r->i.value = (uint64_t)e->enums[i].value;
		r->i.suffix[0] = '\0';
		r->i.decimal = true;
		dt_sema_mark_const(r, l->type, e->enums[i].value);
		/* DTrace gives the tag a kernel symbol's attributes. */
		dt_attr_fixed(pcb, r, dt_attr_private, NULL);
		return;
	}
}

static void cook_compare(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op)
{
	struct dt_typetab *tt = TT(pcb);
	struct dt_node *l = n->l, *r = n->r;

	/* l is checked already (cook_op2). */
	enum_tag(pcb, n, l, r);
	if (r->kind != N_INT || !(r->flags & DN_CONST))
		dt_sema_operand(pcb, r);
	n->type = tt->t_int;
	bool ls = dt_type_is_string(l->type), rs = dt_type_is_string(r->type);
	/* A string compared with NULL: is it there at all?  (Only == and != here.) */
	if ((ls && dt_sema_is_null(r)) || (rs && dt_sema_is_null(l))) {
		if (op != T_EQU && op != T_NEQ)
			incompat(pcb, n, op);
		return;
	}
	if (dt_sema_is_dynamic(l->type) || dt_sema_is_dynamic(r->type) ||
	    dt_sema_dynamic_name(l) != NULL || dt_sema_dynamic_name(r) != NULL)
		incompat(pcb, n, op);
	if (dt_sema_is_string_like(l->type) && dt_sema_is_string_like(r->type) && (ls || rs)) {
		if (pcb->sema)
			pcb->sema->stmt->uses_scratch = true;
		return;
	}
	/*
	 * DTrace lets compatible structs be compared, but what it compares is
	 * their addresses; refusing them is safer than such a result.
	 */
	if (ls || rs || dt_type_is_sou(l->type) || dt_type_is_sou(r->type))
		incompat(pcb, n, op);
	if (!dt_sema_type_compat(l->type, r->type) &&
	    !(dt_sema_is_integer(l->type) && dt_sema_is_integer(r->type)) &&
	    !dt_sema_ptrcompat(pcb, l, r))
		incompat(pcb, n, op);
}

static void cook_additive(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op)
{
	struct dt_typetab *tt = TT(pcb);
	struct dt_node *l = n->l, *r = n->r;
	struct dt_type *lt = l->type, *rt = r->type;

	/* A string plus an integer: the string from that character on. */
	if (op == T_ADD && ((dt_type_is_string(lt) && dt_sema_is_integer(rt)) ||
			    (dt_type_is_string(rt) && dt_sema_is_integer(lt)))) {
		n->type = tt->t_string;
		if (pcb->sema)
			pcb->sema->stmt->uses_scratch = true;
		return;
	}
	bool lptr = dt_sema_is_pointer(lt) && !dt_sema_is_vfptr(lt);
	bool rptr = dt_sema_is_pointer(rt) && !dt_sema_is_vfptr(rt);
	bool lint = dt_sema_is_integer(lt), rint = dt_sema_is_integer(rt);
	if (lint && rint) {
		n->type = dt_sema_arith(pcb, lt, rt);
	} else if (lptr && rint) {
		struct dt_type *b = dt_type_base(lt);
		/* The size of what an array holds bounds a constant offset into it. */
		if (b->kind == TK_ARRAY && (r->flags & DN_CONST) && b->nelems > 0 &&
		    (uint64_t)r->cval >= b->nelems)
			dt_cerror(pcb, "D_ARR_BOUNDS", n->line, "index outside array bounds: %llu, max is %u",
				  (unsigned long long)r->cval, b->nelems);
		n->type = b->kind == TK_ARRAY ? dt_type_ptr(tt, b->base) : lt;
	} else if (lint && rptr && op == T_ADD) {
		struct dt_type *b = dt_type_base(rt);
		n->type = b->kind == TK_ARRAY ? dt_type_ptr(tt, b->base) : rt;
	} else if (lptr && rptr && op == T_SUB && dt_sema_ptrcompat(pcb, l, r)) {
		n->type = dt_type_lookup(tt, "ptrdiff_t");
		if (n->type == NULL)
			n->type = tt->t_long;
	} else {
		incompat(pcb, n, op);
	}
}

/* A binary operator that checks its left operand first (not an assignment). */
static bool op2_chains(const struct dt_node *n)
{
	return n->kind == N_OP2 && n->op != T_ASGN && compound_base(n->op) == T_EOF;
}

static void op2_after(struct dt_pcb *pcb, struct dt_node *n);

/*
 * A chain of binary operators (a + b - c ..., a || b || c ..., a, b, c)
 * is as deep as it is long: it is walked down its left operands and back
 * up without recursion, checking in the order recursion would.
 */
void dt_sema_op2(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *s;
	size_t k = 0;

	if (!op2_chains(n)) {
		cook_assign(pcb, n);
		return;
	}
	for (s = n; op2_chains(s); s = s->l)
		k++;
	struct dt_node *small[8], **up = k <= 8 ? small : dt_palloc(pcb, k * sizeof(*up));
	for (s = n; op2_chains(s); s = s->l)
		up[--k] = s;
	dt_sema_operand(pcb, s);
	for (; up[k] != n; k++) {
		op2_after(pcb, up[k]);
		dt_sema_alloca_taint(pcb, up[k]);
	}
	op2_after(pcb, n);
}

static void op2_after(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	enum dt_tok op = n->op;
	struct dt_node *l = n->l, *r = n->r;

	/* The left operand is checked already (cook_op2). */
	switch (op) {
	case T_COMMA:
		dt_sema_operand(pcb, r);
		if (dt_sema_dynamic_name(l) != NULL || dt_sema_dynamic_name(r) != NULL)
			dt_cerror(pcb, "D_OP_DYN", n->line, "operator , operands cannot be of dynamic type");
		if (is_actfunc(pcb, l) || is_actfunc(pcb, r))
			dt_cerror(pcb, "D_OP_ACT", n->line, "operator , operands cannot be actions");
		n->type = r->type;
		if ((l->flags & DN_CONST) && (r->flags & DN_CONST))
			dt_sema_mark_const(n, r->type, r->cval);
		return;
	case T_EQU:
	case T_NEQ:
	case T_LT:
	case T_LE:
	case T_GT:
	case T_GE:
		cook_compare(pcb, n, op);
		break;
	default:
		dt_sema_operand(pcb, r);
		break;
	}

	switch (op) {
	case T_LAND:
	case T_LOR:
	case T_LXOR:
		need_scalar(pcb, n, op, l, r);
		n->type = tt->t_int;
		break;
	case T_EQU:
	case T_NEQ:
	case T_LT:
	case T_LE:
	case T_GT:
	case T_GE:
		break;
	case T_ADD:
	case T_SUB:
		cook_additive(pcb, n, op);
		if (dt_type_is_string(n->type))
			return;
		break;
	case T_MUL:
	case T_DIV:
	case T_MOD:
		if (op != T_MUL && (r->flags & DN_CONST) && r->cval == 0)
			dt_cerror(pcb, "D_DIV_ZERO", n->line, "expression contains division by zero");
		if (op == T_MOD)
			need_int(pcb, n, op, l, r);
		else
			need_arith(pcb, n, op, l, r);
		n->type = dt_sema_arith(pcb, l->type, r->type);
		break;
	case T_BAND:
	case T_BOR:
	case T_XOR:
		need_int(pcb, n, op, l, r);
		n->type = dt_sema_arith(pcb, l->type, r->type);
		break;
	case T_LSH:
	case T_RSH:
		/* The left operand's type, unpromoted (DTrace's; so are the unary operators'). */
		need_int(pcb, n, op, l, r);
		n->type = l->type;
		break;
	default:
		dt_cerror(pcb, "D_UNKNOWN", n->line, "invalid binary op %s", dt_sema_opname(op));
	}

	if ((l->flags & DN_CONST) && (r->flags & DN_CONST) && dt_sema_is_integer(l->type) &&
	    dt_sema_is_integer(r->type)) {
		int64_t v;
		/* A shift's signedness is its left operand's, as when it runs. */
		struct dt_type *ct = op == T_LSH || op == T_RSH ? l->type
				     : dt_sema_arith(pcb, l->type, r->type);
		bool uns = !dt_type_is_signed(ct);
		if (fold2(pcb, n, op, l->cval, r->cval, uns, &v))
			dt_sema_mark_const(n, n->type, v);
	}
}

/* "x++" on a variable not seen yet declares it as an int, as DTrace does. */
static void declare_incdec(struct dt_pcb *pcb, struct dt_node *l)
{
	struct dt_node zero;

	memset(&zero, 0, sizeof(zero));
	zero.kind = N_INT;
	zero.line = l->line;
	zero.type = TT(pcb)->t_int64;
	zero.flags = DN_CONST;
	dt_sema_lvalue_decl(pcb, l, &zero);
}

/* A D variable, an associative array's element or an aggregation: no address. */
static bool is_dynamic_var(const struct dt_node *l)
{
	if (l->kind == N_VAR || l->kind == N_AGG)
		return true;
	if (l->id == NULL || (l->kind != N_IDENT && l->kind != N_INDEX))
		return false;
	switch (l->id->kind) {
	case IDK_GLOBAL:
	case IDK_BVAR:
	case IDK_ARRAY:
	case IDK_TLS:
		return true;
	case IDK_INLINE:
		return !(l->flags & DN_CONST);
	default:
		return false;
	}
}

static void cook_deref(struct dt_pcb *pcb, struct dt_node *n, struct dt_node *l)
{
	struct dt_type *t = dt_type_base(l->type);

	if (t->kind != TK_PTR && t->kind != TK_ARRAY)
		dt_cerror(pcb, "D_DEREF_NONPTR", n->line, "cannot dereference non-pointer type");
	struct dt_type *r = dt_type_base(t->base);
	if (r == NULL || r->kind == TK_VOID)
		dt_cerror(pcb, "D_DEREF_VOID", n->line, "cannot dereference pointer to void");
	if (r->kind == TK_FUNC)
		dt_cerror(pcb, "D_DEREF_FUNC", n->line, "cannot dereference pointer to function");
	n->type = t->base;
	/* An array is no lvalue; what a D variable points to may be written (*(p + i) too). */
	if (r->kind != TK_ARRAY)
		n->flags |= DN_LVALUE;
	if ((l->flags & DN_WRITABLE) ||
	    (l->kind == N_OP2 && l->op == T_ADD && (l->l->flags & DN_WRITABLE)))
		n->flags |= DN_WRITABLE;
	if (l->flags & DN_USERLAND || t->userland)
		n->flags |= DN_USERLAND;
}

void dt_sema_op1(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	struct dt_node *l = n->l;

	if (n->op == T_PREINC || n->op == T_PREDEC || n->op == T_POSTINC || n->op == T_POSTDEC)
		declare_incdec(pcb, l);
	dt_sema_operand(pcb, l);
	switch (n->op) {
	case T_LNEG:
		if (!dt_sema_is_scalar(l->type))
			dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator ! requires an operand of scalar type");
		n->type = tt->t_int;
		if (l->flags & DN_CONST)
			dt_sema_mark_const(n, n->type, !l->cval);
		break;
	/* ~ - + keep their operand's type: D has no integer promotions (as DTrace). */
	case T_BNEG:
		if (!dt_sema_is_integer(l->type))
			dt_cerror(pcb, "D_OP_INT", n->line, "operator ~ requires an operand of integral type");
		n->type = l->type;
		if (l->flags & DN_CONST)
			dt_sema_mark_const(n, n->type, ~l->cval);
		break;
	case T_INEG:
	case T_IPOS:
		if (!dt_sema_is_integer(l->type))
			dt_cerror(pcb, "D_OP_ARITH", n->line, "operator %s requires an operand of arithmetic type",
				  n->op == T_INEG ? "-" : "+");
		n->type = l->type;
		if (l->flags & DN_CONST) {
			int64_t v = n->op == T_INEG ? (int64_t)(0 - (uint64_t)l->cval) : l->cval;
			/* Negating an unsigned constant stays within its width. */
			uint32_t sz = dt_type_size(n->type);
			if (n->op == T_INEG && !dt_type_is_signed(n->type) && sz < 8)
				v &= (int64_t)(~0ULL >> (64 - 8 * sz));
			dt_sema_mark_const(n, n->type, v);
		}
		break;
	case T_DEREF:
		cook_deref(pcb, n, l);
		break;
	case T_ADDROF:
		if (is_dynamic_var(l))
			dt_cerror(pcb, "D_ADDROF_VAR", n->line, "cannot take address of dynamic variable");
		if (dt_sema_dynamic_name(l) != NULL)
			dt_cerror(pcb, "D_ADDROF_VAR", n->line, "cannot take address of dynamic object");
		if (!(l->flags & DN_LVALUE))
			dt_cerror(pcb, "D_ADDROF_LVAL", n->line, "unacceptable operand for unary & operator");
		if (dt_sema_is_bitfield(pcb, l))
			dt_cerror(pcb, "D_ADDROF_BITFIELD", n->line, "cannot take address of bit-field");
		n->type = dt_type_ptr(tt, l->type);
		if (l->flags & DN_USERLAND)
			n->flags |= DN_USERLAND;
		break;
	case T_PREINC:
	case T_PREDEC:
	case T_POSTINC:
	case T_POSTDEC: {
		const char *s = (n->op == T_PREINC || n->op == T_POSTINC) ? "++" : "--";
		if (!dt_sema_is_scalar(l->type))
			dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator %s requires operand of scalar type", s);
		if (dt_sema_is_vfptr(l->type))
			dt_cerror(pcb, "D_OP_VFPTR", n->line, "operator %s requires an operand of known size", s);
		if (!(l->flags & DN_LVALUE))
			dt_cerror(pcb, "D_OP_LVAL", n->line, "operator %s requires modifiable lvalue as an operand", s);
		if (!(l->flags & DN_WRITABLE))
			dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable", s);
		if (l->id)
			l->id->flags |= IDF_WRITTEN;
		n->type = l->type;
		break;
	}
	default:
		dt_cerror(pcb, "D_UNKNOWN", n->line, "invalid unary op %s", dt_sema_opname(n->op));
	}
}

static void op3_after(struct dt_pcb *pcb, struct dt_node *n);

/*
 * DTrace's order of checks (dt_cook_op3()): condition, operand types,
 * actions; a constant condition is folded as DTrace's parser does
 * (sema_fold.c).  A chain a ? b : c ? d : e ... is walked down its third
 * operands and back up without recursion, in the order recursion would.
 */
void dt_sema_op3(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *small[8], *s = n, *x;
	struct dt_walk more = { 0 };	/* the deeper ones of a long chain */
	size_t k = 0;
	bool folded = false;

	for (;;) {
		while (s->kind == N_OP3 && dt_sema_fold_cond(pcb, s))
			folded = true;
		if (s->kind != N_OP3)
			break;
		if (s->cond->type == NULL)
			dt_sema_operand(pcb, s->cond);
		dt_sema_operand(pcb, s->l);
		if (k < 8)
			small[k++] = s;
		else
			dt_walk_push(pcb, &more, s);
		s = s->r;
		folded = false;
	}
	/* An operand folded from a ?: is checked as that ?: would be, as itself. */
	if (folded)
		dt_sema_expr(pcb, s);
	else
		dt_sema_operand(pcb, s);
	while ((x = dt_walk_pop(&more)) != NULL || (k > 0 && (x = small[--k]) != NULL)) {
		op3_after(pcb, x);
		if (x != n)
			dt_sema_alloca_taint(pcb, x);
	}
}

/* The type of ?: once its operands are checked. */
static void op3_after(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *l = n->l, *r = n->r;

	if (!dt_sema_is_scalar(n->cond->type))
		dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator ?: expression must be of scalar type");
	if (dt_sema_dynamic_name(l) != NULL || dt_sema_dynamic_name(r) != NULL)
		dt_cerror(pcb, "D_OP_DYN", n->line, "operator ?: operands cannot be of dynamic type");
	struct dt_type *a = l->type, *b = r->type;
	if (dt_sema_is_integer(a) && dt_sema_is_integer(b)) {
		n->type = dt_sema_arith(pcb, a, b);
	} else if (dt_sema_type_compat(a, b)) {
		n->type = a;
	} else if (dt_sema_is_string_like(a) && dt_sema_is_string_like(b) &&
		   (dt_type_is_string(a) || dt_type_is_string(b))) {
		n->type = TT(pcb)->t_string;
	} else if (dt_sema_ptrcompat(pcb, l, r)) {
		/* The pointer that is not 0 or void *. */
		bool rvoid = dt_sema_is_integer(b) || dt_type_is_void(dt_type_base(b)->base);
		n->type = rvoid ? (dt_sema_is_integer(a) ? b : a) : b;
	} else {
		dt_cerror(pcb, "D_OP_INCOMPAT", n->line, "operator ?: operands must have compatible types");
	}
	if (is_actfunc(pcb, l) || is_actfunc(pcb, r))
		dt_cerror(pcb, "D_OP_ACT", n->line, "action cannot be used in a conditional context");
	/* A condition constant only to sema (not as DTrace parses): the value, not the type. */
	if (n->cond->flags & DN_CONST) {
		struct dt_node *pick = n->cond->cval ? l : r;
		if (pick->flags & DN_CONST)
			dt_sema_mark_const(n, n->type, pick->cval);
	}
}
