/* Semantic analysis of expressions and statements. */
#include <string.h>

#include "compiler/dlib.h"
#include "compiler/ident.h"
#include "compiler/ksym.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/types.h"
#include "compiler/xlator.h"
#include "lib/dt_impl.h"

#define TT(pcb) (&(pcb)->hdl->types)

static const char *opname(enum dt_tok op)
{
	return dt_tok_name(op);
}

int64_t dt_sema_cast_value(struct dt_type *t, int64_t v)
{
	t = dt_type_base(t);
	if (t == NULL || (t->kind != TK_INT && t->kind != TK_ENUM) || t->size >= 8)
		return v;
	unsigned bits = t->size * 8;
	uint64_t mask = (1ULL << bits) - 1;
	uint64_t u = (uint64_t)v & mask;
	if (t->is_signed && (u >> (bits - 1)))
		u |= ~mask;
	return (int64_t)u;
}

/*
 * The type of a binary arithmetic result, as DTrace computes it: not C's
 * promotion to int, but the operand type of greater rank (size, then
 * unsigned over signed); enums count as int.
 */
struct dt_type *dt_sema_arith(struct dt_pcb *pcb, struct dt_type *a, struct dt_type *b)
{
	if (dt_type_base(a)->kind == TK_ENUM)
		a = TT(pcb)->t_int;
	if (dt_type_base(b)->kind == TK_ENUM)
		b = TT(pcb)->t_int;
	uint32_t as = dt_type_size(a), bs = dt_type_size(b);
	bool au = !dt_type_is_signed(a), bu = !dt_type_is_signed(b);

	if (as > bs)
		return a;
	if (bs > as)
		return b;
	if (au == bu)
		return a;
	return au ? a : b;
}

/* A folded constant keeps its 64-bit value, as DTrace's folding does; casts truncate. */
static void mark_const(struct dt_node *n, struct dt_type *t, int64_t v)
{
	n->type = t;
	n->flags |= DN_CONST;
	n->cval = v;
}

/*
 * The type of an integer constant, from its value and suffix as in C; a
 * decimal one without U that fits no signed type is an error (DTrace's).
 */
static struct dt_type *int_const_type(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	uint64_t v = n->i.value;
	bool u = strpbrk(n->i.suffix, "uU") != NULL;
	int l = 0;

	for (const char *s = n->i.suffix; *s; s++)
		if (*s == 'l' || *s == 'L')
			l++;
	struct dt_type *cands[6];
	int nc = 0;
	if (!u && l == 0)
		cands[nc++] = tt->t_int;
	if ((u || !n->i.decimal) && l == 0)
		cands[nc++] = tt->t_uint;
	if (!u && l <= 1)
		cands[nc++] = tt->t_long;
	if ((u || !n->i.decimal) && l <= 1)
		cands[nc++] = tt->t_ulong;
	if (!u)
		cands[nc++] = tt->t_llong;
	/* A decimal constant is unsigned only by its suffix. */
	if (u || !n->i.decimal)
		cands[nc++] = tt->t_ullong;
	for (int i = 0; i < nc; i++) {
		struct dt_type *t = cands[i];
		uint64_t max = t->size >= 8 ? (t->is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
					    : (t->is_signed ? (1ULL << (t->size * 8 - 1)) - 1
							    : (1ULL << (t->size * 8)) - 1);
		if (v <= max)
			return t;
	}
	dt_cerror(pcb, "D_INT_OFLOW", n->line,
		  "integer constant 0x%llx cannot be represented in any built-in integral type",
		  (unsigned long long)v);
}

static bool is_lvalue_var(struct dt_node *n)
{
	return n->flags & DN_LVALUE;
}

bool dt_sema_assignable(struct dt_pcb *pcb, struct dt_type *to, struct dt_node *e)
{
	struct dt_type *from = e->type;

	(void)pcb;
	if (dt_type_is_integer(to) && dt_type_is_integer(from))
		return true;
	if (dt_type_is_string(to))
		return dt_type_is_string(from) || dt_type_is_charptr(from);
	if (dt_type_is_pointer(to)) {
		if (dt_type_is_pointer(from) || dt_type_is_array(from))
			return true;
		/* The constant 0 is a null pointer. */
		return (e->flags & DN_CONST) && e->cval == 0 && dt_type_is_integer(from);
	}
	if (dt_type_is_integer(to) && dt_type_is_pointer(from))
		return false;
	return dt_type_equal(to, from);
}

/* Is n a member access to a bit-field? */
static bool is_bitfield(struct dt_pcb *pcb, struct dt_node *n)
{
	if (n->kind != N_MEMBER)
		return false;
	struct dt_type *st = dt_type_base(n->l->type);
	if (n->op == T_PTR)
		st = dt_type_base(st->base);
	uint32_t off;
	const struct dt_member *m = dt_type_member(TT(pcb), st, n->member, &off);
	return m != NULL && m->bitsize != 0;
}

/* NULL: a void pointer, or the constant 0 (D's NULL is an int). */
static bool is_null(struct dt_node *n)
{
	struct dt_type *b = dt_type_base(n->type);

	if ((n->flags & DN_CONST) && n->cval == 0 && dt_type_is_integer(n->type))
		return true;
	return b != NULL && b->kind == TK_PTR && dt_type_is_void(dt_type_base(b->base));
}

struct dt_ident *dt_sema_resolve(struct dt_pcb *pcb, const char *name)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	struct dt_ident *id;

	/* Inside a translator's member definitions, its input comes first. */
	if (pcb->xlarg != NULL && strcmp(name, pcb->xlarg->name) == 0)
		return pcb->xlarg;
	for (int i = 0; i < pcb->niparams; i++)
		if (strcmp(name, pcb->iparams[i]->name) == 0)
			return pcb->iparams[i];
	for (int pass = 0; pass < 3; pass++) {
		if ((id = dt_ident_user(dtp, IDK_GLOBAL, name)) != NULL ||
		    (id = dt_ident_user(dtp, IDK_INLINE, name)) != NULL ||
		    (id = dt_ident_user(dtp, IDK_ARRAY, name)) != NULL ||
		    (id = dt_ident_user(dtp, IDK_ENUM, name)) != NULL ||
		    (id = dt_ident_builtin(dtp, name)) != NULL)
			return id;
		/* Perhaps the D library defines it. */
		if (pcb->is_dlib || dt_dlib_provide(dtp, name) <= 0)
			break;
	}
	return NULL;
}

static void cook_ident(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_ident *id = dt_sema_resolve(pcb, n->ident.name);

	if (n->op == T_SELF || n->op == T_THIS)
		dt_cerror(pcb, "D_SYNTAX", n->line, "syntax error near \"%s\"", n->ident.name);
	if (id == NULL && strchr(n->ident.name, '`') != NULL) {
		dt_ksym_cook(pcb, n);
		return;
	}
	if (id == NULL)
		dt_cerror(pcb, "D_IDENT_UNDEF", n->line, "failed to resolve %s: Unknown variable name",
			  n->ident.name);
	n->id = id;
	switch (id->kind) {
	case IDK_BVAR:
		if (id->code == BV_ARGS || id->code == BV_UREGS)
			dt_cerror(pcb, "D_IDENT_BADREF", n->line,
				  "%s[ ] must be referenced as an array", id->name);
		n->type = dt_ident_vartype(pcb, id);
		if (id->code >= BV_ARG0 && id->code <= BV_ARG9 && pcb->sema)
			pcb->sema->stmt->args_used |= 1u << (id->code - BV_ARG0);
		break;
	case IDK_GLOBAL:
		if (!(id->flags & IDF_DEFINED))
			dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s has not yet been declared or assigned",
				  id->name);
		n->type = id->type;
		n->flags |= DN_LVALUE | DN_WRITABLE;
		id->flags |= IDF_READ;
		break;
	case IDK_ARRAY:
		dt_cerror(pcb, "D_IDENT_BADREF", n->line,
			  "associative array '%s' may not be referenced as scalar", id->name);
	case IDK_INLINE:
		n->type = id->type;
		if (id->inline_expr->flags & DN_CONST) {
			n->flags |= DN_CONST;
			n->cval = dt_sema_cast_value(id->type, id->inline_expr->cval);
		}
		break;
	case IDK_ENUM:
		mark_const(n, id->type, id->value);
		break;
	case IDK_XLARG:
		n->type = id->type;
		break;
	case IDK_ACTION:
	case IDK_SUBR:
	case IDK_AGGFUNC:
		dt_cerror(pcb, "D_IDENT_BADREF", n->line, "%s( ) may not be referenced as a scalar",
			  id->name);
	default:
		dt_cerror(pcb, "D_IDENT_UNDEF", n->line, "failed to resolve %s: Unknown variable name",
			  n->ident.name);
	}
}

static void cook_var(struct dt_pcb *pcb, struct dt_node *n)
{
	enum dt_idkind kind = n->op == T_SELF ? IDK_TLS : IDK_LOCAL;
	struct dt_ident *id = dt_ident_user(pcb->hdl, kind, n->member);

	if (id == NULL || !(id->flags & IDF_DEFINED))
		dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s%s has not yet been declared or assigned",
			  kind == IDK_TLS ? "self->" : "this->", n->member);
	n->id = id;
	n->type = id->type;
	n->flags |= DN_LVALUE | DN_WRITABLE;
	id->flags |= IDF_READ;
	if (kind == IDK_LOCAL && pcb->sema)
		pcb->sema->stmt->uses_scratch = true;
}

/* Check the keys of an associative array reference against its signature. */
static void check_keys(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id)
{
	int nk = dt_node_list_len(n->call.args);

	if (nk != id->nkeys)
		dt_cerror(pcb, "D_PROTO_LEN", n->line, "%s[ ] prototype mismatch: %d key%s passed, %d expected",
			  id->name, nk, nk == 1 ? "" : "s", id->nkeys);
	int i = 0;
	for (struct dt_node *k = n->call.args; k != NULL; k = k->next, i++) {
		if (!dt_sema_assignable(pcb, id->keys[i], k))
			dt_cerror(pcb, "D_PROTO_ARG", k->line,
				  "%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				  id->name, i + 1, dt_sema_typestr(pcb, id->keys[i]),
				  dt_sema_typestr(pcb, k->type));
	}
}

static void cook_index(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *base = n->l;

	for (struct dt_node *k = n->call.args; k != NULL; k = k->next)
		dt_sema_expr(pcb, k);

	if (base->kind == N_IDENT && base->op != T_SELF && base->op != T_THIS) {
		struct dt_ident *id = dt_sema_resolve(pcb, base->ident.name);
		if (id != NULL && id->kind == IDK_BVAR && id->code == BV_ARGS) {
			if (dt_node_list_len(n->call.args) != 1)
				dt_cerror(pcb, "D_ARGS_MULTI", n->line, "args[ ] may not be referenced using a tuple");
			struct dt_node *k = n->call.args;
			if (!dt_type_is_integer(k->type))
				dt_cerror(pcb, "D_PROTO_ARG", n->line,
					  "args[ ] key #1 is incompatible with prototype:\n\tprototype: int\n\t      key: %s",
					  dt_sema_typestr(pcb, k->type));
			if (!(k->flags & DN_CONST))
				dt_cerror(pcb, "D_ARGS_IDX", n->line, "index for args[ ] must be a constant");
			if (k->cval < 0 || k->cval > 9)
				dt_cerror(pcb, "D_ARGS_IDX", n->line,
					  "index %lld is out of range for args[ ]", (long long)k->cval);
			dt_sema_args_check(pcb, (int)k->cval, n->line);
			n->id = id;
			pcb->sema->stmt->args_used |= 1u << k->cval;
			dt_sema_args(pcb, n, (int)k->cval);
			return;
		}
		if (id != NULL && id->kind == IDK_BVAR && id->code == BV_UREGS) {
			if (dt_node_list_len(n->call.args) != 1)
				dt_cerror(pcb, "D_ARGS_MULTI", n->line,
					  "uregs[ ] may not be referenced using a tuple");
			if (!dt_type_is_integer(n->call.args->type))
				dt_cerror(pcb, "D_PROTO_ARG", n->line,
					  "uregs[ ] key #1 is incompatible with prototype:\n\tprototype: int\n\t      key: %s",
					  dt_sema_typestr(pcb, n->call.args->type));
			n->id = id;
			n->type = TT(pcb)->t_uint64;
			if (pcb->sema)
				pcb->sema->stmt->uses_scratch = true;
			return;
		}
		if (id != NULL && id->kind == IDK_INLINE && id->iparams != NULL) {
			int nk = dt_node_list_len(n->call.args);
			if (nk != id->nkeys)
				dt_cerror(pcb, "D_PROTO_LEN", n->line,
					  "%s[ ] prototype mismatch: %d arg%s passed, %d expected", id->name,
					  nk, nk == 1 ? "" : "s", id->nkeys);
			n->id = id;
			n->type = id->type;
			return;
		}
		/* `sym[i]: a C subscript on a kernel array (below). */
		bool ksym = id == NULL && strchr(base->ident.name, '`') != NULL;
		if (!ksym && (id == NULL || id->kind == IDK_ARRAY)) {
			if (id == NULL)
				dt_cerror(pcb, "D_IDENT_UNDEF", n->line,
					  "failed to resolve %s: Unknown variable name", base->ident.name);
			check_keys(pcb, n, id);
			n->id = id;
			n->type = id->type;
			n->flags |= DN_LVALUE | DN_WRITABLE;
			id->flags |= IDF_READ;
			return;
		}
	}
	/* self->a[k]: a thread-local associative array. */
	if (base->kind == N_VAR && base->op == T_SELF) {
		struct dt_ident *id = dt_ident_user(pcb->hdl, IDK_TLS, base->member);
		if (id != NULL && (id->flags & IDF_DEFINED) && id->nkeys > 0) {
			check_keys(pcb, n, id);
			n->id = id;
			n->type = id->type;
			n->flags |= DN_LVALUE | DN_WRITABLE;
			id->flags |= IDF_READ;
			return;
		}
	}
	/* C subscript on an array or pointer. */
	dt_sema_expr(pcb, base);
	if (dt_node_list_len(n->call.args) != 1)
		dt_cerror(pcb, "D_IDX_TUPLE", n->line, "tuple index is only valid for associative arrays");
	struct dt_type *bt = dt_type_base(base->type);
	struct dt_node *k = n->call.args;
	/* A string's characters: s[i] is a char. */
	if (dt_type_is_string(base->type) && dt_type_is_integer(k->type)) {
		n->type = TT(pcb)->t_char;
		if (pcb->sema)
			pcb->sema->stmt->uses_scratch = true;
		return;
	}
	if (bt->kind != TK_ARRAY && bt->kind != TK_PTR)
		dt_cerror(pcb, "D_OP_ARRPTR", n->line,
			  "operator [ ] may not be applied to operand of type \"%s\"",
			  dt_sema_typestr(pcb, base->type));
	if (!dt_type_is_integer(k->type))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator [ ] index must be of integral type");
	if (bt->kind == TK_ARRAY && (k->flags & DN_CONST) && bt->nelems > 0 &&
	    (k->cval < 0 || (uint64_t)k->cval >= bt->nelems))
		dt_cerror(pcb, "D_ARR_BOUNDS", n->line, "index outside array bounds: %lld, max is %u",
			  (long long)k->cval, bt->nelems);
	n->type = bt->base;
	n->flags |= DN_LVALUE | DN_WRITABLE;
	if (base->flags & DN_USERLAND)
		n->flags |= DN_USERLAND;
}

static void cook_member(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);

	dt_sema_expr(pcb, n->l);
	if (dt_sema_xlate_member(pcb, n))
		return;
	struct dt_type *t = dt_type_base(n->l->type);
	if (n->op == T_PTR) {
		if (t->kind != TK_PTR)
			dt_cerror(pcb, "D_OP_PTR", n->line, "operator -> must be applied to a pointer");
		struct dt_type *st = dt_type_base(t->base);
		if (st->kind == TK_FWD)
			dt_cerror(pcb, "D_OP_INCOMPLETE", n->line,
				  "operator -> cannot be applied to a forward declaration: no struct %s definition is available",
				  st->name);
		if (st->kind != TK_STRUCT && st->kind != TK_UNION)
			dt_cerror(pcb, "D_OP_SOU", n->line,
				  "operator -> cannot be applied to pointer to type \"%s\"; must be applied to a struct or union pointer",
				  dt_sema_typestr(pcb, t->base));
		t = st;
	} else {
		if (t->kind == TK_FWD)
			dt_cerror(pcb, "D_OP_INCOMPLETE", n->line,
				  "operator . cannot be applied to a forward declaration: no struct %s definition is available",
				  t->name);
		if (t->kind != TK_STRUCT && t->kind != TK_UNION)
			dt_cerror(pcb, "D_OP_SOU", n->line,
				  "operator . cannot be applied to type \"%s\"; must be applied to a struct or union",
				  dt_sema_typestr(pcb, n->l->type));
	}
	uint32_t off;
	const struct dt_member *m = dt_type_member(tt, t, n->member, &off);
	if (m == NULL)
		dt_cerror(pcb, "D_TYPE_MEMBER", n->line, "%s is not a member of %s", n->member,
			  dt_sema_typestr(pcb, t));
	n->type = m->type;
	n->flags |= DN_LVALUE | DN_WRITABLE;
	if ((n->l->flags & DN_USERLAND) || (n->op == T_PTR && dt_type_base(n->l->type)->userland))
		n->flags |= DN_USERLAND;
}

static bool is_string_like(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

static void need_int(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		     struct dt_node *b)
{
	if (!dt_type_is_integer(a->type) || (b && !dt_type_is_integer(b->type)))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator %s requires operands of integral type",
			  opname(op));
}

static void need_arith(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		       struct dt_node *b)
{
	if (!dt_type_is_arith(a->type) || (b && !dt_type_is_arith(b->type)))
		dt_cerror(pcb, "D_OP_ARITH", n->line, "operator %s requires operands of arithmetic type",
			  opname(op));
}

static void need_scalar(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
			struct dt_node *b)
{
	bool ok = dt_type_is_scalar(a->type) || is_string_like(a->type);
	if (b)
		ok = ok && (dt_type_is_scalar(b->type) || is_string_like(b->type));
	if (!ok)
		dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator %s requires operands of scalar type",
			  opname(op));
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

/* Declare an implicitly typed variable on first assignment. */
void dt_sema_lvalue_decl(struct dt_pcb *pcb, struct dt_node *lhs, struct dt_node *rhs)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	struct dt_type *t = rhs->type;

	if (dt_type_is_void(t))
		dt_cerror(pcb, "D_OP_VOID", lhs->line, "operator = cannot assign from a void expression");
	if (dt_type_is_charptr(t) && dt_type_is_array(t))
		t = TT(pcb)->t_string;
	if (lhs->kind == N_IDENT && lhs->op != T_SELF && lhs->op != T_THIS) {
		/* A scoped name is a kernel symbol, never a new variable. */
		if (dt_sema_resolve(pcb, lhs->ident.name) != NULL ||
		    strchr(lhs->ident.name, '`') != NULL)
			return;
		struct dt_ident *id = dt_ident_user_add(dtp, IDK_GLOBAL, lhs->ident.name, lhs->line);
		if (id == NULL)
			dt_cerror(pcb, "D_NOMEM", lhs->line, "out of memory");
		id->type = t;
		id->flags |= IDF_DEFINED;
		return;
	}
	if (lhs->kind == N_VAR) {
		enum dt_idkind kind = lhs->op == T_SELF ? IDK_TLS : IDK_LOCAL;
		struct dt_ident *id = dt_ident_user(dtp, kind, lhs->member);
		if (id != NULL && (id->flags & IDF_DEFINED))
			return;
		if (id == NULL)
			id = dt_ident_user_add(dtp, kind, lhs->member, lhs->line);
		if (id == NULL)
			dt_cerror(pcb, "D_NOMEM", lhs->line, "out of memory");
		id->type = t;
		id->flags |= IDF_DEFINED;
		return;
	}
	bool tls_array = lhs->kind == N_INDEX && lhs->l->kind == N_VAR && lhs->l->op == T_SELF;
	if (tls_array || (lhs->kind == N_INDEX && lhs->l->kind == N_IDENT && lhs->l->op != T_SELF &&
			  lhs->l->op != T_THIS)) {
		struct dt_ident *id;
		if (tls_array) {
			id = dt_ident_user(dtp, IDK_TLS, lhs->l->member);
			if (id != NULL && (id->flags & IDF_DEFINED))
				return;
		} else if (dt_sema_resolve(pcb, lhs->l->ident.name) != NULL ||
			   strchr(lhs->l->ident.name, '`') != NULL) {
			return;
		}
		for (struct dt_node *k = lhs->call.args; k != NULL; k = k->next)
			dt_sema_expr(pcb, k);
		if (tls_array)
			id = dt_ident_user_add(dtp, IDK_TLS, lhs->l->member, lhs->line);
		else
			id = dt_ident_user_add(dtp, IDK_ARRAY, lhs->l->ident.name, lhs->line);
		if (id == NULL)
			dt_cerror(pcb, "D_NOMEM", lhs->line, "out of memory");
		int nk = dt_node_list_len(lhs->call.args);
		id->keys = dt_arena_alloc(&dtp->arena, sizeof(*id->keys) * (size_t)(nk + 1));
		if (id->keys == NULL)
			dt_cerror(pcb, "D_NOMEM", lhs->line, "out of memory");
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

static void cook_assign(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *l = n->l, *r = n->r;

	if (l->kind == N_AGG) {
		if (n->op != T_ASGN)
			dt_cerror(pcb, "D_AGG_SCALAR", n->line,
				  "operator %s may not be applied to an aggregation", opname(n->op));
		dt_sema_agg_assign(pcb, n);
		return;
	}
	/* "x += 1" reads x: it must exist already. */
	if (n->op != T_ASGN && l->kind == N_IDENT && l->op != T_SELF && l->op != T_THIS &&
	    dt_sema_resolve(pcb, l->ident.name) == NULL)
		dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s has not yet been declared or assigned",
			  l->ident.name);
	dt_sema_expr(pcb, r);
	if (n->op == T_ASGN)
		dt_sema_lvalue_decl(pcb, l, r);
	dt_sema_expr(pcb, l);
	if (l->kind == N_IDENT && l->id != NULL && l->id->kind == IDK_BVAR)
		dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable",
			  opname(n->op));
	if (!is_lvalue_var(l))
		dt_cerror(pcb, "D_OP_LVAL", n->line, "operator %s requires modifiable lvalue as an operand",
			  opname(n->op));
	if (!(l->flags & DN_WRITABLE))
		dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable",
			  opname(n->op));
	/*
	 * Structs and unions are assigned whole (the same type), and a
	 * thread-local or array element of one is deleted by assigning 0.
	 */
	if (dt_type_is_sou(l->type) && n->op == T_ASGN) {
		bool del = (r->flags & DN_CONST) && r->cval == 0 && l->id != NULL &&
			   (l->id->kind == IDK_TLS || l->id->kind == IDK_ARRAY);
		if (!del && !dt_type_equal(l->type, r->type))
			dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dt_sema_typestr(pcb, l->type), opname(n->op),
				  dt_sema_typestr(pcb, r->type));
		if (l->id != NULL)
			l->id->flags |= IDF_WRITTEN;
		n->type = l->type;
		return;
	}
	if (dt_type_is_array(l->type) || dt_type_is_sou(l->type))
		dt_cerror(pcb, "D_OP_ARRFUN", n->line, "operator %s may not be applied to operand of type \"%s\"",
			  opname(n->op), dt_sema_typestr(pcb, l->type));
	if (n->op == T_ASGN) {
		/* A string variable can be NULL. */
		bool null_string = dt_type_is_string(l->type) && is_null(r);
		if (!null_string && !dt_sema_assignable(pcb, l->type, r))
			dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dt_sema_typestr(pcb, l->type), opname(n->op),
				  dt_sema_typestr(pcb, r->type));
	} else {
		enum dt_tok base = compound_base(n->op);
		bool ptr_ok = (base == T_ADD || base == T_SUB) && dt_type_is_pointer(l->type) &&
			      dt_type_is_integer(r->type);
		if (!ptr_ok && (!dt_type_is_integer(l->type) || !dt_type_is_integer(r->type)))
			dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dt_sema_typestr(pcb, l->type), opname(n->op),
				  dt_sema_typestr(pcb, r->type));
		if ((base == T_DIV || base == T_MOD) && (r->flags & DN_CONST) && r->cval == 0)
			dt_cerror(pcb, "D_DIV_ZERO", n->line, "expression contains division by zero");
	}
	if (l->id != NULL)
		l->id->flags |= IDF_WRITTEN;
	n->type = l->type;
}

static void cook_op2(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	enum dt_tok op = n->op;
	struct dt_node *l = n->l, *r = n->r;

	if (compound_base(op) != T_EOF || op == T_ASGN) {
		cook_assign(pcb, n);
		return;
	}
	if (op == T_COMMA) {
		dt_sema_expr(pcb, l);
		dt_sema_expr(pcb, r);
		n->type = r->type;
		if ((l->flags & DN_CONST) && (r->flags & DN_CONST))
			mark_const(n, r->type, r->cval);
		return;
	}
	/* An aggregation is a dynamic value: no operator applies to it. */
	if (l->kind == N_AGG || r->kind == N_AGG)
		dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
			  "operator %s may not be applied to aggregation @%s", opname(op),
			  l->kind == N_AGG ? l->agg.name : r->agg.name);
	dt_sema_expr(pcb, l);
	dt_sema_expr(pcb, r);

	switch (op) {
	case T_LAND:
	case T_LOR:
	case T_LXOR:
		/* Strings are not truth values. */
		if (!dt_type_is_scalar(l->type) || !dt_type_is_scalar(r->type))
			dt_cerror(pcb, "D_OP_SCALAR", n->line,
				  "operator %s requires operands of scalar type", opname(op));
		n->type = tt->t_int;
		break;
	case T_EQU:
	case T_NEQ:
	case T_LT:
	case T_LE:
	case T_GT:
	case T_GE: {
		bool ls = dt_type_is_string(l->type), rs = dt_type_is_string(r->type);
		/* A string compared with NULL (a void pointer): is it there at all? */
		if ((ls && is_null(r)) || (rs && is_null(l))) {
			if (op != T_EQU && op != T_NEQ)
				dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
					  "operands have incompatible types: \"%s\" %s \"%s\"",
					  dt_sema_typestr(pcb, l->type), opname(op),
					  dt_sema_typestr(pcb, r->type));
			n->type = tt->t_int;
			return;
		}
		if (ls || rs) {
			if (!is_string_like(l->type) || !is_string_like(r->type))
				dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
					  "operands have incompatible types: \"%s\" %s \"%s\"",
					  dt_sema_typestr(pcb, l->type), opname(op),
					  dt_sema_typestr(pcb, r->type));
			n->type = tt->t_int;
			if (pcb->sema)
				pcb->sema->stmt->uses_scratch = true;
			return;
		}
		need_scalar(pcb, n, op, l, r);
		bool lp = dt_type_is_pointer(l->type), rp = dt_type_is_pointer(r->type);
		if (lp != rp && !((l->flags & DN_CONST) || (r->flags & DN_CONST)) &&
		    (op != T_EQU && op != T_NEQ))
			dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dt_sema_typestr(pcb, l->type), opname(op),
				  dt_sema_typestr(pcb, r->type));
		n->type = tt->t_int;
		break;
	}
	case T_ADD:
	case T_SUB:
		/* A string plus an integer: the string from that character on. */
		if (op == T_ADD && ((dt_type_is_string(l->type) && dt_type_is_integer(r->type)) ||
				    (dt_type_is_string(r->type) && dt_type_is_integer(l->type)))) {
			n->type = tt->t_string;
			if (pcb->sema)
				pcb->sema->stmt->uses_scratch = true;
			return;
		}
		{
		bool lp = dt_type_is_pointer(l->type) || dt_type_is_array(l->type);
		bool rp = dt_type_is_pointer(r->type) || dt_type_is_array(r->type);
		if (lp && rp && op == T_SUB) {
			n->type = tt->t_long;
			return;
		}
		if (lp && dt_type_is_integer(r->type)) {
			struct dt_type *lt = dt_type_base(l->type);
			n->type = lt->kind == TK_ARRAY ? dt_type_ptr(tt, lt->base) : l->type;
			if (dt_type_is_void(dt_type_base(n->type)->base))
				dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
					  "operands have incompatible types: \"%s\" %s \"%s\"",
					  dt_sema_typestr(pcb, l->type), opname(op),
					  dt_sema_typestr(pcb, r->type));
			return;
		}
		if (rp && op == T_ADD && dt_type_is_integer(l->type)) {
			struct dt_type *rt = dt_type_base(r->type);
			n->type = rt->kind == TK_ARRAY ? dt_type_ptr(tt, rt->base) : r->type;
			return;
		}
		if (!dt_type_is_arith(l->type) || !dt_type_is_arith(r->type))
			dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dt_sema_typestr(pcb, l->type), opname(op),
				  dt_sema_typestr(pcb, r->type));
		n->type = dt_sema_arith(pcb, l->type, r->type);
		break;
	}
	case T_MUL:
	case T_DIV:
	case T_MOD:
		need_arith(pcb, n, op, l, r);
		if (op == T_MOD)
			need_int(pcb, n, op, l, r);
		n->type = dt_sema_arith(pcb, l->type, r->type);
		if ((op == T_DIV || op == T_MOD) && (r->flags & DN_CONST) && r->cval == 0)
			dt_cerror(pcb, "D_DIV_ZERO", n->line, "expression contains division by zero");
		break;
	case T_BAND:
	case T_BOR:
	case T_XOR:
		need_int(pcb, n, op, l, r);
		n->type = dt_sema_arith(pcb, l->type, r->type);
		break;
	case T_LSH:
	case T_RSH:
		/* D has no integer promotions: the left operand's type (as DTrace). */
		need_int(pcb, n, op, l, r);
		n->type = l->type;
		break;
	default:
		dt_cerror(pcb, "D_UNKNOWN", n->line, "internal error: unknown operator %s", opname(op));
	}

	if ((l->flags & DN_CONST) && (r->flags & DN_CONST)) {
		int64_t v;
		/* A right shift is arithmetic when its left operand (its type) is signed. */
		struct dt_type *ct = op == T_LSH || op == T_RSH ? l->type
							: dt_sema_arith(pcb, l->type, r->type);
		bool uns = !dt_type_is_signed(ct);
		if (fold2(pcb, n, op, l->cval, r->cval, uns, &v))
			mark_const(n, n->type, v);
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

static void cook_op1(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	struct dt_node *l = n->l;

	if (n->op == T_PREINC || n->op == T_PREDEC || n->op == T_POSTINC || n->op == T_POSTDEC)
		declare_incdec(pcb, l);
	if (n->op == T_ADDROF && l->kind == N_AGG)
		dt_cerror(pcb, "D_ADDROF_VAR", n->line, "cannot take address of dynamic variable");
	dt_sema_expr(pcb, l);
	switch (n->op) {
	case T_LNEG:
		need_scalar(pcb, n, T_LNEG, l, NULL);
		n->type = tt->t_int;
		if (l->flags & DN_CONST)
			mark_const(n, n->type, !l->cval);
		break;
	/* ~ - + keep their operand's type: D has no integer promotions (as DTrace). */
	case T_BNEG:
		need_int(pcb, n, T_BNEG, l, NULL);
		n->type = l->type;
		if (l->flags & DN_CONST)
			mark_const(n, n->type, ~l->cval);
		break;
	case T_INEG:
	case T_IPOS:
		if (!dt_type_is_arith(l->type))
			dt_cerror(pcb, "D_OP_ARITH", n->line, "operator %s requires an operand of arithmetic type",
				  n->op == T_INEG ? "-" : "+");
		n->type = l->type;
		if (l->flags & DN_CONST) {
			int64_t v = n->op == T_INEG ? (int64_t)(0 - (uint64_t)l->cval) : l->cval;
			/* Negating an unsigned constant stays within its width. */
			uint32_t sz = dt_type_size(n->type);
			if (n->op == T_INEG && !dt_type_is_signed(n->type) && sz < 8)
				v &= (int64_t)(~0ULL >> (64 - 8 * sz));
			mark_const(n, n->type, v);
		}
		break;
	case T_DEREF: {
		struct dt_type *t = dt_type_base(l->type);
		if (t->kind != TK_PTR && t->kind != TK_ARRAY)
			dt_cerror(pcb, "D_DEREF_NONPTR", n->line,
				  "cannot dereference non-pointer type");
		if (dt_type_is_void(t->base))
			dt_cerror(pcb, "D_DEREF_VOID", n->line, "cannot dereference pointer to void");
		n->type = t->base;
		n->flags |= DN_LVALUE | DN_WRITABLE;
		if (l->flags & DN_USERLAND || t->userland)
			n->flags |= DN_USERLAND;
		break;
	}
	case T_ADDROF:
		if (is_bitfield(pcb, l))
			dt_cerror(pcb, "D_ADDROF_BITFIELD", n->line, "cannot take address of bit-field");
		if (l->kind == N_VAR || (l->kind == N_IDENT && l->id && l->id->kind != IDK_BVAR) ||
		    (l->kind == N_INDEX && l->id && l->id->kind == IDK_ARRAY))
			dt_cerror(pcb, "D_ADDROF_VAR", n->line, "cannot take address of dynamic variable");
		if (!(l->flags & DN_LVALUE) || l->kind == N_IDENT)
			dt_cerror(pcb, "D_ADDROF_LVAL", n->line, "unacceptable operand for unary & operator");
		n->type = dt_type_ptr(tt, l->type);
		break;
	case T_PREINC:
	case T_PREDEC:
	case T_POSTINC:
	case T_POSTDEC: {
		const char *s = (n->op == T_PREINC || n->op == T_POSTINC) ? "++" : "--";
		if (!(l->flags & DN_LVALUE))
			dt_cerror(pcb, "D_OP_LVAL", n->line, "operator %s requires modifiable lvalue as an operand", s);
		if (!(l->flags & DN_WRITABLE))
			dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable", s);
		if (!dt_type_is_integer(l->type) && !dt_type_is_pointer(l->type))
			dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator %s requires operand of scalar type", s);
		if (l->id)
			l->id->flags |= IDF_WRITTEN;
		n->type = l->type;
		break;
	}
	default:
		dt_cerror(pcb, "D_UNKNOWN", n->line, "internal error: unknown unary operator");
	}
}

static void cook_op3(struct dt_pcb *pcb, struct dt_node *n)
{
	dt_sema_expr(pcb, n->cond);
	dt_sema_expr(pcb, n->l);
	dt_sema_expr(pcb, n->r);
	if ((n->l->flags | n->r->flags) & DN_ACTION)
		dt_cerror(pcb, "D_OP_ACT", n->line, "action cannot be used in a conditional context");
	if (!dt_type_is_scalar(n->cond->type))
		dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator ?: expression must be of scalar type");
	struct dt_type *a = n->l->type, *b = n->r->type;
	if (dt_type_is_integer(a) && dt_type_is_integer(b)) {
		n->type = dt_sema_arith(pcb, a, b);
	} else if (is_string_like(a) && is_string_like(b) &&
		   (dt_type_is_string(a) || dt_type_is_string(b))) {
		n->type = TT(pcb)->t_string;
	} else if (dt_type_equal(a, b)) {
		n->type = a;
	} else if (dt_type_is_pointer(a) && (n->r->flags & DN_CONST) && n->r->cval == 0) {
		n->type = a;
	} else if (dt_type_is_pointer(b) && (n->l->flags & DN_CONST) && n->l->cval == 0) {
		n->type = b;
	} else {
		dt_cerror(pcb, "D_OP_INCOMPAT", n->line,
			  "operator ?: operands must have compatible types");
	}
	if (n->cond->flags & DN_CONST) {
		struct dt_node *pick = n->cond->cval ? n->l : n->r;
		if (pick->flags & DN_CONST)
			mark_const(n, n->type, pick->cval);
	}
}

static void cook_cast(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);

	dt_sema_expr(pcb, n->l);
	struct dt_type *from = n->l->type;
	n->type = t;
	dt_sema_xlate_cast(pcb, n, t);
	if (dt_type_is_void(t))
		return;
	/* A struct or union cast to its own type. */
	if (dt_type_is_sou(t) && dt_type_equal(t, from))
		return;
	if (dt_type_is_string(t)) {
		/* A pointer (alloca() or copyin() memory) reads as the string it points to. */
		if (!is_string_like(from) && !dt_type_is_string(from) && !dt_type_is_pointer(from))
			dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
				  dt_sema_typestr(pcb, from), dt_sema_typestr(pcb, t));
		return;
	}
	if (!dt_type_is_scalar(t))
		dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
			  dt_sema_typestr(pcb, from), dt_sema_typestr(pcb, t));
	if (!dt_type_is_scalar(from) && !dt_type_is_array(from))
		dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
			  dt_sema_typestr(pcb, from), dt_sema_typestr(pcb, t));
	if (n->l->flags & DN_CONST)
		mark_const(n, t, dt_sema_cast_value(t, n->l->cval));
	if (n->l->flags & DN_USERLAND)
		n->flags |= DN_USERLAND;
}

static void cook_sizeof(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t;

	if (n->l != NULL) {
		dt_sema_expr(pcb, n->l);
		if (is_bitfield(pcb, n->l))
			dt_cerror(pcb, "D_SIZEOF_BITFIELD", n->line, "cannot apply sizeof to a bit-field");
		t = n->l->type;
	} else {
		t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);
	}
	struct dt_type *b = dt_type_base(t);
	if (b->kind == TK_FUNC)
		dt_cerror(pcb, "D_SIZEOF_TYPE", n->line, "cannot apply sizeof to a function");
	if (b->kind == TK_FWD || b->kind == TK_VOID)
		dt_cerror(pcb, "D_SIZEOF_TYPE", n->line,
			  "cannot apply sizeof to an operand of unknown size");
	/* A string constant's size is its characters and the NUL. */
	if (n->l != NULL && n->l->kind == N_STRING) {
		mark_const(n, TT(pcb)->t_size, (int64_t)dt_expr_strsize(pcb->hdl, n->l));
		return;
	}
	mark_const(n, TT(pcb)->t_size, (int64_t)dt_type_size(t));
}

static void cook_offsetof(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);

	if (!dt_type_is_sou(t))
		dt_cerror(pcb, "D_OFFSETOF_TYPE", n->line, "offsetof operand must be a struct or union type");
	uint32_t off;
	const struct dt_member *m = dt_type_member(TT(pcb), t, n->member, &off);
	if (m == NULL)
		dt_cerror(pcb, "D_UNKNOWN", n->line, "failed to determine offset of %s: Member name not found",
			  n->member);
	if (m->bitsize != 0)
		dt_cerror(pcb, "D_OFFSETOF_BITFIELD", n->line,
			  "cannot take offset of a bit-field: %s", n->member);
	mark_const(n, TT(pcb)->t_size, off / 8);
}

void dt_sema_expr(struct dt_pcb *pcb, struct dt_node *n)
{
	switch (n->kind) {
	case N_INT:
		mark_const(n, int_const_type(pcb, n), (int64_t)n->i.value);
		break;
	case N_STRING:
		n->type = TT(pcb)->t_string;
		break;
	case N_IDENT:
		cook_ident(pcb, n);
		break;
	case N_VAR:
		cook_var(pcb, n);
		break;
	case N_OP1:
		cook_op1(pcb, n);
		break;
	case N_OP2:
		cook_op2(pcb, n);
		break;
	case N_OP3:
		cook_op3(pcb, n);
		break;
	case N_CALL:
		dt_sema_call(pcb, n, false);
		break;
	case N_INDEX:
		cook_index(pcb, n);
		break;
	case N_AGG:
		dt_cerror(pcb, "D_AGG_SCALAR", n->line, "aggregation @%s may not be used as a scalar",
			  n->agg.name);
	case N_MEMBER:
		cook_member(pcb, n);
		break;
	case N_CAST:
		cook_cast(pcb, n);
		break;
	case N_SIZEOF:
		cook_sizeof(pcb, n);
		break;
	case N_OFFSETOF:
		cook_offsetof(pcb, n);
		break;
	case N_STRINGOF:
		dt_sema_expr(pcb, n->l);
		if (!dt_type_is_scalar(n->l->type) && !is_string_like(n->l->type))
			dt_cerror(pcb, "D_STRINGOF_TYPE", n->line,
				  "cannot apply stringof to a value of type %s",
				  dt_sema_typestr(pcb, n->l->type));
		n->type = TT(pcb)->t_string;
		if (pcb->sema)
			pcb->sema->stmt->uses_scratch = true;
		break;
	case N_XLATE:
		dt_sema_xlate(pcb, n);
		break;
	default:
		dt_cerror(pcb, "D_UNKNOWN", n->line, "internal error: unexpected node in expression");
	}
	dt_sema_alloca_taint(pcb, n);
}

void dt_sema_stmts(struct dt_pcb *pcb, struct dt_node *list)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		switch (s->kind) {
		case N_EXPRSTMT:
			if (s->l->kind == N_CALL)
				dt_sema_call(pcb, s->l, true);
			else if (s->l->kind == N_AGG)
				dt_cerror(pcb, "D_AGG_NULL", s->l->line, "expression has null effect: @%s",
					  s->l->agg.name);
			else
				dt_sema_expr(pcb, s->l);
			break;
		case N_IF:
			dt_sema_expr(pcb, s->cond);
			if (!dt_type_is_scalar(s->cond->type) && !is_string_like(s->cond->type))
				dt_cerror(pcb, "D_OP_SCALAR", s->line,
					  "if condition must be of scalar type");
			dt_sema_stmts(pcb, s->body);
			dt_sema_stmts(pcb, s->elsebody);
			break;
		case N_BLOCK:
			dt_sema_stmts(pcb, s->body);
			break;
		default:
			break;
		}
	}
}
