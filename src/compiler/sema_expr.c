/* Semantic analysis of expressions and statements. */
#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/dlib.h"
#include "compiler/ksym.h"
#include "compiler/nest.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

#define TT(pcb) (&(pcb)->cc->core->types)

const char *dt_sema_opname(enum dt_tok op)
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
void dt_sema_mark_const(struct dt_node *n, struct dt_type *t, int64_t v)
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

/*
 * May e be assigned to (or passed as, or used as a key of) type `to`?
 * DTrace's dt_node_is_argcompat(): integers to integers, char pointers or
 * arrays to strings, pointers to pointers to the same type or void (or the
 * constant 0), anything else to its own type.  (DTrace also lets a string
 * become a char pointer; a string has no address to give here, so no.)
 */
bool dt_sema_assignable(struct dt_pcb *pcb, struct dt_type *to, struct dt_node *e)
{
	struct dt_type *from = e->type;

	(void)pcb;
	if (dt_type_is_integer(to) && dt_type_is_integer(from))
		return true;
	if (dt_type_is_string(to))
		return dt_type_is_string(from) || dt_type_is_charptr(from);
	if (dt_type_is_pointer(to) || dt_type_is_array(to)) {
		if (dt_type_is_integer(from))
			return (e->flags & DN_CONST) && e->cval == 0;	/* NULL */
		if (!dt_type_is_pointer(from) && !dt_type_is_array(from))
			return false;
		struct dt_type *a = dt_type_base(dt_type_base(to)->base);
		struct dt_type *b = dt_type_base(dt_type_base(from)->base);
		return dt_type_is_void(a) || dt_type_is_void(b) || dt_type_equal(a, b);
	}
	return dt_type_equal(to, from);
}

/* Is n a member access to a bit-field? */
bool dt_sema_is_bitfield(struct dt_pcb *pcb, struct dt_node *n)
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
bool dt_sema_is_null(struct dt_node *n)
{
	struct dt_type *b = dt_type_base(n->type);

	if ((n->flags & DN_CONST) && n->cval == 0 && dt_type_is_integer(n->type))
		return true;
	return b != NULL && b->kind == TK_PTR && dt_type_is_void(dt_type_base(b->base));
}

struct dt_ident *dt_sema_resolve(struct dt_pcb *pcb, const char *name)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_ident *id;

	/* Inside a translator's member definitions, its input comes first. */
	if (pcb->xlarg != NULL && strcmp(name, pcb->xlarg->name) == 0)
		return pcb->xlarg;
	for (int i = 0; i < pcb->niparams; i++)
		if (strcmp(name, pcb->iparams[i]->name) == 0)
			return pcb->iparams[i];
	for (int pass = 0; pass < 3; pass++) {
		if ((id = dt_ident_user(cc, IDK_GLOBAL, name)) != NULL ||
		    (id = dt_ident_user(cc, IDK_INLINE, name)) != NULL ||
		    (id = dt_ident_user(cc, IDK_ARRAY, name)) != NULL ||
		    (id = dt_ident_user(cc, IDK_ENUM, name)) != NULL ||
		    (id = dt_ident_builtin_visible(pcb, name)) != NULL)
			return id;
		/* Perhaps the D library defines it. */
		if (pcb->is_dlib || dt_dlib_provide(cc, name) <= 0)
			break;
	}
	return NULL;
}

/* "x may not be referenced as scalar": an identifier of another kind used as a value. */
static _Noreturn void badref(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id, const char *as)
{
	dt_cerror(pcb, "D_IDENT_BADREF", n->line, "%s '%s' may not be referenced as %s",
		  dt_ident_kind_name(id), id->name, as);
}

static void cook_ident(struct dt_pcb *pcb, struct dt_node *n)
{
	/* "self" and "this" alone name no variable. */
	struct dt_ident *id = n->op == T_SELF || n->op == T_THIS ? NULL
			      : dt_sema_resolve(pcb, n->ident.name);

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
			badref(pcb, n, id, "scalar");
		n->type = dt_ident_vartype(pcb, id);
		/* Built-in variables are lvalues no D program may write. */
		n->flags |= DN_LVALUE;
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
		badref(pcb, n, id, "scalar");
	case IDK_INLINE:
		if (id->iparams != NULL)
			badref(pcb, n, id, "scalar");
		n->type = id->type;
		if (id->inline_expr->flags & DN_CONST) {
			n->flags |= DN_CONST;
			n->cval = dt_sema_cast_value(id->type, id->inline_expr->cval);
		} else {
			/* A variable to DTrace, not one a program may write here. */
			n->flags |= DN_LVALUE;
		}
		break;
	case IDK_ENUM:
		dt_sema_mark_const(n, id->type, id->value);
		break;
	case IDK_XLARG:
		n->type = id->type;
		break;
	case IDK_ACTION:
	case IDK_SUBR:
	case IDK_AGGFUNC:
		badref(pcb, n, id, "scalar");
	default:
		dt_cerror(pcb, "D_IDENT_UNDEF", n->line, "failed to resolve %s: Unknown variable name",
			  n->ident.name);
	}
}

static void cook_var(struct dt_pcb *pcb, struct dt_node *n)
{
	enum dt_idkind kind = n->op == T_SELF ? IDK_TLS : IDK_LOCAL;
	struct dt_ident *id = dt_ident_user(pcb->cc, kind, n->member);

	if (id == NULL || !(id->flags & IDF_DEFINED))
		dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s%s has not yet been declared or assigned",
			  kind == IDK_TLS ? "self->" : "this->", n->member);
	/* An associative array's keys are part of every reference to it. */
	if (id->nkeys > 0)
		dt_cerror(pcb, "D_PROTO_LEN", n->line, "%s[ ] prototype mismatch: 0 keys passed, %d expected",
			  id->name, id->nkeys);
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
		if (k->kind == N_AGG || !dt_sema_type_argcompat(pcb, id->keys[i], k))
			dt_cerror(pcb, "D_PROTO_ARG", n->line,
				  "%s[ ] key #%d is incompatible with prototype:\n\tprototype: %s\n\t      key: %s",
				  id->name, i + 1, dt_sema_typestr(pcb, id->keys[i]),
				  k->kind == N_AGG ? "aggregation" : dt_sema_typestr(pcb, k->type));
	}
}

/*
 * A dynamic value (an aggregation, translated data) has no type an
 * operator or a key can use: DTrace names its kind instead; NULL if n is
 * an ordinary value.
 */
const char *dt_sema_dynamic_name(struct dt_node *n)
{
	bool ptr = false;

	if (n->kind == N_AGG)
		return "aggregation";
	if (dt_xlate_of(n, &ptr) != NULL)
		return ptr ? "pointer to translated data" : "translated data";
	if (n->type != NULL && dt_sema_is_dynamic(n->type))
		return "dynamic variable";
	return NULL;
}

/* DTrace's keys must be values: neither void nor dynamic (D_KEY_TYPE). */
/* An operand's type as DTrace names it in messages (dynamic values by kind). */
static const char *operand_type(struct dt_pcb *pcb, struct dt_node *n)
{
	const char *dyn = dt_sema_dynamic_name(n);

	return dyn != NULL ? dyn : dt_sema_typestr(pcb, n->type);
}

_Noreturn void dt_sema_incompat_ops(struct dt_pcb *pcb, int line, struct dt_node *a,
				    const char *op, struct dt_node *b)
{
	dt_cerror(pcb, "D_OP_INCOMPAT", line, "operands have incompatible types: \"%s\" %s \"%s\"",
		  operand_type(pcb, a), op, operand_type(pcb, b));
}

void dt_sema_check_key(struct dt_pcb *pcb, struct dt_node *k, int i, const char *what, int line)
{
	const char *dyn = dt_sema_dynamic_name(k);

	if (dyn == NULL && k->kind != N_AGG && !dt_type_is_void(k->type))
		return;
	dt_cerror(pcb, "D_KEY_TYPE", line, "%s expression may not be used as %s index: key #%d",
		  dyn != NULL ? dyn : dt_sema_typestr(pcb, k->type), what, i);
}

/* How DTrace names an expression in messages (dt_node_name). */
const char *dt_sema_node_name(struct dt_pcb *pcb, struct dt_node *n)
{
	char buf[512];

	switch (n->kind) {
	case N_INT:
		snprintf(buf, sizeof(buf), "integer constant 0x%llx", (unsigned long long)n->i.value);
		break;
	case N_STRING:
		snprintf(buf, sizeof(buf), "string constant \"%.*s\"", (int)n->str.len, n->str.s);
		break;
	case N_IDENT:
	case N_VAR:
	case N_INDEX:
		if (n->id == NULL)
			return "identifier";
		snprintf(buf, sizeof(buf), "%s %s", dt_ident_kind_name(n->id), n->id->name);
		break;
	case N_CALL:
		snprintf(buf, sizeof(buf), "%s %s( )", n->id ? dt_ident_kind_name(n->id) : "function",
			 n->call.name);
		break;
	case N_OP1:
		snprintf(buf, sizeof(buf), "operator %s", n->op == T_DEREF ? "*" : n->op == T_ADDROF ? "&"
			 : n->op == T_IPOS ? "+" : n->op == T_INEG ? "-"
			 : n->op == T_PREINC || n->op == T_POSTINC ? "++"
			 : n->op == T_PREDEC || n->op == T_POSTDEC ? "--" : dt_sema_opname(n->op));
		break;
	case N_OP2:
		snprintf(buf, sizeof(buf), "operator %s", dt_sema_opname(n->op));
		break;
	case N_OP3:
		return "operator ?";
	case N_MEMBER:
		snprintf(buf, sizeof(buf), "operator %s", n->op == T_PTR ? "->" : ".");
		break;
	case N_CAST:
		return "operator (";
	case N_SIZEOF:
		return "operator sizeof";
	case N_STRINGOF:
		return "operator stringof";
	case N_XLATE:
		return "operator xlate";
	default:
		return "expression";
	}
	return dt_pstrdup(pcb, buf);
}

/*
 * e[i] on anything but an associative array is *(e + i), as in C and
 * DTrace: the sum is checked as "+" is, then dereferenced.
 */
static void cook_subscript(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *base = n->l, *k = n->call.args;

	dt_sema_expr(pcb, base);
	if (k == NULL)
		dt_cerror(pcb, "D_SYNTAX", n->line, "syntax error near \"]\"");
	if (k->kind == N_AGG)
		k->type = TT(pcb)->t_dyn;
	struct dt_type *lt = base->type, *rt = k->type;
	bool lptr = dt_type_is_string(lt) || (dt_sema_is_pointer(lt) && !dt_sema_is_vfptr(lt));
	bool rptr = dt_type_is_string(rt) || (dt_sema_is_pointer(rt) && !dt_sema_is_vfptr(rt));
	bool lint = dt_sema_is_integer(lt), rint = dt_sema_is_integer(rt);
	struct dt_type *sum;
	if (lint && rint)
		sum = lt;
	else if (lptr && rint)
		sum = lt;
	else if (lint && rptr)
		sum = rt;
	else
		dt_sema_incompat_ops(pcb, n->line, base, "+", k);
	struct dt_type *at = dt_type_base(lt);
	/* An array's size bounds constant indexes (one of unknown size does not). */
	if (at->kind == TK_ARRAY && rint && (k->flags & DN_CONST) && at->nelems > 0 &&
	    (uint64_t)k->cval >= at->nelems)
		dt_cerror(pcb, "D_ARR_BOUNDS", n->line, "index outside array bounds: %llu, max is %u",
			  (unsigned long long)k->cval, at->nelems);
	if (k->next != NULL)
		dt_cerror(pcb, "D_ARR_BADREF", n->line, "cannot access %s as an associative array",
			  dt_sema_node_name(pcb, base));
	/* A string's characters: s[i] is a char. */
	if (dt_type_is_string(sum)) {
		n->type = TT(pcb)->t_char;
		if (pcb->sema)
			pcb->sema->stmt->uses_scratch = true;
		return;
	}
	struct dt_type *st = dt_type_base(sum);
	if (st->kind != TK_PTR && st->kind != TK_ARRAY)
		dt_cerror(pcb, "D_DEREF_NONPTR", n->line, "cannot dereference non-pointer type");
	struct dt_type *et = dt_type_base(st->base);
	if (et == NULL || et->kind == TK_VOID)
		dt_cerror(pcb, "D_DEREF_VOID", n->line, "cannot dereference pointer to void");
	if (et->kind == TK_FUNC)
		dt_cerror(pcb, "D_DEREF_FUNC", n->line, "cannot dereference pointer to function");
	n->type = st->base;
	if (et->kind != TK_ARRAY)
		n->flags |= DN_LVALUE;
	if (base->flags & DN_WRITABLE)
		n->flags |= DN_WRITABLE;
	if (base->flags & DN_USERLAND)
		n->flags |= DN_USERLAND;
}

static void cook_index(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *base = n->l;

	for (struct dt_node *k = n->call.args; k != NULL; k = k->next)
		if (k->kind != N_AGG)
			dt_sema_expr(pcb, k);

	if (base->kind == N_IDENT && base->op != T_SELF && base->op != T_THIS) {
		struct dt_ident *id = dt_sema_resolve(pcb, base->ident.name);
		if (id != NULL && id->kind == IDK_BVAR && id->code == BV_ARGS) {
			dt_attr_ident_check(pcb, n, id);
			long long idx = dt_sema_builtin_index(pcb, n, id);
			dt_sema_args_check(pcb, idx, n->line);
			int i = (int)idx;	/* 0..9 once checked */
			n->id = id;
			pcb->sema->stmt->args_used |= 1u << i;
			dt_sema_args(pcb, n, i);
			return;
		}
		if (id != NULL && id->kind == IDK_BVAR && id->code == BV_UREGS) {
			dt_sema_builtin_index(pcb, n, id);
			n->id = id;
			n->type = TT(pcb)->t_uint64;
			if (pcb->sema)
				pcb->sema->stmt->uses_scratch = true;
			return;
		}
		if (id != NULL && id->kind == IDK_INLINE && id->iparams != NULL) {
			check_keys(pcb, n, id);
			n->id = id;
			n->type = id->type;
			return;
		}
		/* `sym[i]: a C subscript on a kernel array (below). */
		bool ksym = id == NULL && strchr(base->ident.name, '`') != NULL;
		if (!ksym && (id == NULL || id->kind == IDK_ARRAY)) {
			/* An array read before anything was stored in it. */
			if (id == NULL)
				dt_cerror(pcb, "D_VAR_UNDEF", n->line, "%s has not yet been declared or assigned",
					  base->ident.name);
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
		struct dt_ident *id = dt_ident_user(pcb->cc, IDK_TLS, base->member);
		if (id != NULL && (id->flags & IDF_DEFINED) && id->nkeys > 0) {
			check_keys(pcb, n, id);
			n->id = id;
			n->type = id->type;
			n->flags |= DN_LVALUE | DN_WRITABLE;
			id->flags |= IDF_READ;
			return;
		}
	}
	/* A clause-local variable is never an associative array. */
	if (base->kind == N_VAR && base->op == T_THIS) {
		struct dt_ident *id = dt_ident_user(pcb->cc, IDK_LOCAL, base->member);
		if (id == NULL || !(id->flags & IDF_DEFINED))
			dt_cerror(pcb, "D_ARR_LOCAL", n->line,
				  "local variables may not be used as associative arrays: %s", base->member);
	}
	cook_subscript(pcb, n);
}

/*
 * A member name that D reads as an integer constant (an enumerator or a
 * constant inline of the same name) is no identifier to DTrace's grammar.
 */
static bool member_is_constant(struct dt_pcb *pcb, const char *name)
{
	struct dt_ident *id = dt_ident_user(pcb->cc, IDK_GLOBAL, name);

	return id != NULL && (id->kind == IDK_ENUM ||
			      (id->kind == IDK_INLINE && id->inline_expr != NULL &&
			       (id->inline_expr->flags & DN_CONST) && id->iparams == NULL));
}

static void cook_member(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	const char *op = n->op == T_PTR ? "->" : ".";

	dt_sema_expr(pcb, n->l);
	if (member_is_constant(pcb, n->member))
		dt_cerror(pcb, "D_OP_IDENT", n->line, "operator %s must be followed by an identifier", op);
	if (dt_sema_xlate_member(pcb, n))
		return;
	struct dt_type *t = dt_type_base(n->l->type);
	if (n->op == T_PTR) {
		if (t->kind != TK_PTR)
			dt_cerror(pcb, "D_OP_PTR", n->line, "operator -> must be applied to a pointer");
		t = dt_type_base(t->base);
	}
	/* A forward declaration: the definition, if one is known by now. */
	if (t->kind == TK_FWD) {
		char key[300];
		snprintf(key, sizeof(key), "%s", dt_sema_typestr(pcb, t));
		struct dt_type *def = dt_type_base(dt_type_lookup(tt, key));
		if (def == NULL || def->kind == TK_FWD)
			dt_cerror(pcb, "D_OP_INCOMPLETE", n->line,
				  "operator %s cannot be applied to a forward declaration: no %s definition is available",
				  op, key);
		t = def;
	}
	if (t->kind != TK_STRUCT && t->kind != TK_UNION) {
		if (n->op == T_PTR)
			dt_cerror(pcb, "D_OP_SOU", n->line,
				  "operator -> cannot be applied to pointer to type \"%s\"; must be applied to a struct or union pointer",
				  dt_sema_typestr(pcb, t));
		dt_cerror(pcb, "D_OP_SOU", n->line,
			  "operator . cannot be applied to type \"%s\"; must be applied to a struct or union",
			  dt_sema_typestr(pcb, t));
	}
	uint32_t off;
	const struct dt_member *m = dt_type_member(tt, t, n->member, &off);
	if (m == NULL)
		dt_cerror(pcb, "D_TYPE_MEMBER", n->line, "%s is not a member of %s", n->member,
			  dt_sema_typestr(pcb, t));
	n->type = m->type;
	/* An array member is no lvalue (a string is); through "." only of an lvalue. */
	struct dt_type *mt = dt_type_base(m->type);
	bool array = mt->kind == TK_ARRAY;
	if (!array && (n->op == T_PTR || (n->l->flags & DN_LVALUE)))
		n->flags |= DN_LVALUE;
	if (n->l->flags & DN_WRITABLE)
		n->flags |= DN_WRITABLE;
	if ((n->l->flags & DN_USERLAND) || (n->op == T_PTR && dt_type_base(n->l->type)->userland))
		n->flags |= DN_USERLAND;
}

bool dt_sema_is_string_like(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

/* Check an operand; an aggregation is a dynamic value the operator then refuses. */
void dt_sema_operand(struct dt_pcb *pcb, struct dt_node *n)
{
	if (n->kind == N_AGG) {
		/* DTrace resolves it first: an aggregation not yet assigned is unknown. */
		if (dt_ident_user(pcb->cc, IDK_AGG, n->agg.name) == NULL)
			dt_cerror(pcb, "D_IDENT_UNDEF", n->line, "failed to resolve @%s: Unknown variable name",
				  n->agg.name);
		n->type = TT(pcb)->t_dyn;
		return;
	}
	dt_sema_expr(pcb, n);
}


static _Noreturn void bad_cast(struct dt_pcb *pcb, struct dt_node *n, struct dt_type *to)
{
	dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
		  operand_type(pcb, n->l), dt_sema_typestr(pcb, to));
}

static void cook_cast(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);

	dt_sema_operand(pcb, n->l);
	struct dt_type *from = n->l->type;
	n->type = t;
	dt_sema_xlate_cast(pcb, n, t);
	/*
	 * DTrace's casts: to the same type, between scalars (a function's
	 * address too), from an array to a pointer, anything to void, and a
	 * scalar, pointer or array to a string.
	 */
	if (dt_type_is_void(t))
		return;
	if (dt_sema_dynamic_name(n->l) != NULL)
		bad_cast(pcb, n, t);
	if (dt_type_is_sou(t)) {
		if (!dt_sema_type_compat(t, from))
			bad_cast(pcb, n, t);
		return;
	}
	if (dt_type_is_string(t)) {
		if (!dt_sema_is_scalar(from) && !dt_sema_is_pointer(from) && !dt_sema_is_string_like(from))
			bad_cast(pcb, n, t);
		return;
	}
	if (!dt_sema_is_scalar(t))
		bad_cast(pcb, n, t);
	bool from_func = dt_type_base(from) != NULL && dt_type_base(from)->kind == TK_FUNC;
	if (!dt_sema_is_scalar(from) && !from_func &&
	    !(dt_type_is_pointer(t) && dt_type_is_array(from)))
		bad_cast(pcb, n, t);
	if (n->l->flags & DN_CONST)
		dt_sema_mark_const(n, t, dt_sema_cast_value(t, n->l->cval));
	if (n->l->flags & DN_USERLAND)
		n->flags |= DN_USERLAND;
}

static void cook_sizeof(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t;

	if (n->l != NULL) {
		dt_sema_operand(pcb, n->l);
		if (dt_sema_is_bitfield(pcb, n->l))
			dt_cerror(pcb, "D_SIZEOF_BITFIELD", n->line, "cannot apply sizeof to a bit-field");
		t = n->l->type;
	} else {
		t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);
	}
	struct dt_type *b = dt_type_base(t);
	bool dynamic = n->l != NULL && dt_sema_dynamic_name(n->l) != NULL;
	if (dynamic || b->kind == TK_FUNC || b->kind == TK_FWD || b->kind == TK_VOID ||
	    dt_type_size(t) == 0)
		dt_cerror(pcb, "D_SIZEOF_TYPE", n->line,
			  "cannot apply sizeof to an operand of unknown size");
	/* A string constant's size is its characters and the NUL. */
	if (n->l != NULL && n->l->kind == N_STRING) {
		dt_sema_mark_const(n, TT(pcb)->t_size, (int64_t)dt_expr_strsize(pcb->cc, n->l));
		return;
	}
	dt_sema_mark_const(n, TT(pcb)->t_size, (int64_t)dt_type_size(t));
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
	dt_sema_mark_const(n, TT(pcb)->t_size, off / 8);
}

void dt_sema_expr(struct dt_pcb *pcb, struct dt_node *n)
{
	dt_nest_check(pcb, n->line, "expression");
	switch (n->kind) {
	case N_INT:
		dt_sema_mark_const(n, int_const_type(pcb, n), (int64_t)n->i.value);
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
		dt_sema_op1(pcb, n);
		break;
	case N_OP2:
		dt_sema_op2(pcb, n);
		break;
	case N_OP3:
		dt_sema_op3(pcb, n);
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
		dt_sema_operand(pcb, n->l);
		if (dt_sema_dynamic_name(n->l) != NULL ||
		    (!dt_sema_is_scalar(n->l->type) && !dt_sema_is_pointer(n->l->type) &&
		     !dt_sema_is_string_like(n->l->type)))
			dt_cerror(pcb, "D_STRINGOF_TYPE", n->line,
				  "cannot apply stringof to a value of type %s", operand_type(pcb, n->l));
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
	dt_attr_expr(pcb, n);
}

void dt_sema_stmts(struct dt_pcb *pcb, struct dt_node *list)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		dt_nest_check(pcb, s->line, "statement");
		switch (s->kind) {
		case N_EXPRSTMT:
			while (dt_sema_fold_cond(pcb, s->l))
				continue;
			if (s->l->kind == N_CALL)
				dt_sema_call(pcb, s->l, true);
			else if (s->l->kind == N_AGG)
				dt_sema_agg_stmt(pcb, s->l);
			else
				dt_sema_expr(pcb, s->l);
			if (s->l->kind == N_CALL || s->l->kind == N_AGG)
				dt_attr_expr(pcb, s->l);
			break;
		case N_IF:
			dt_sema_expr(pcb, s->cond);
			if (!dt_type_is_scalar(s->cond->type) && !dt_sema_is_string_like(s->cond->type))
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
