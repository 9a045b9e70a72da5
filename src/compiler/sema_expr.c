/* Semantic analysis of expressions and statements. */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/dlib.h"
#include "compiler/ident.h"
#include "compiler/ksym.h"
#include "compiler/nest.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/walk.h"
#include "compiler/xlator.h"

#define TT(pcb) (&(pcb)->cc->core->types)

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
		mark_const(n, id->type, id->value);
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

static _Noreturn void incompat_ops(struct dt_pcb *pcb, int line, struct dt_node *a, const char *op,
				   struct dt_node *b)
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
			 : n->op == T_PREDEC || n->op == T_POSTDEC ? "--" : opname(n->op));
		break;
	case N_OP2:
		snprintf(buf, sizeof(buf), "operator %s", opname(n->op));
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
		incompat_ops(pcb, n->line, base, "+", k);
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

static bool is_string_like(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

/* Check an operand; an aggregation is a dynamic value the operator then refuses. */
static void cook_operand(struct dt_pcb *pcb, struct dt_node *n)
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

static bool is_actfunc(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_ident *id = n->kind == N_CALL ? dt_ident_builtin_visible(pcb, n->call.name) : NULL;

	return id != NULL && id->kind == IDK_ACTION;
}

static _Noreturn void incompat(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op)
{
	incompat_ops(pcb, n->line, n->l, opname(op), n->r);
}

static void need_int(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		     struct dt_node *b)
{
	if (b == NULL && !dt_sema_is_integer(a->type))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator %s requires an operand of integral type",
			  opname(op));
	if (b != NULL && (!dt_sema_is_integer(a->type) || !dt_sema_is_integer(b->type)))
		dt_cerror(pcb, "D_OP_INT", n->line, "operator %s requires operands of integral type",
			  opname(op));
}

static void need_arith(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
		       struct dt_node *b)
{
	if (!dt_sema_is_integer(a->type) || (b && !dt_sema_is_integer(b->type)))
		dt_cerror(pcb, "D_OP_ARITH", n->line, "operator %s requires operands of arithmetic type",
			  opname(op));
}

static void need_scalar(struct dt_pcb *pcb, struct dt_node *n, enum dt_tok op, struct dt_node *a,
			struct dt_node *b)
{
	if (!dt_sema_is_scalar(a->type) || !dt_sema_is_scalar(b->type))
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
			  opname(n->op));
	if (!(l->flags & DN_WRITABLE))
		dt_cerror(pcb, "D_OP_WRITE", n->line, "operator %s can only be applied to a writable variable",
			  opname(n->op));
}

static void cook_assign(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *l = n->l, *r = n->r;
	enum dt_tok base = compound_base(n->op);

	if (l->kind == N_AGG) {
		if (n->op != T_ASGN)
			dt_cerror(pcb, "D_AGG_SCALAR", n->line,
				  "operator %s may not be applied to an aggregation", opname(n->op));
		dt_sema_agg_assign(pcb, n);
		return;
	}
	cook_operand(pcb, r);
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
					  opname(n->op), dt_sema_typestr(pcb, l->type));
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
					  opname(n->op));
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
				  opname(n->op), r->ident.name, dt_sema_typestr(pcb, l->type),
				  dt_ident_kind_name(id));
		r->kind = N_INT;
		r->i.value = (uint64_t)e->enums[i].value;
		r->i.suffix[0] = '\0';
		r->i.decimal = true;
		mark_const(r, l->type, e->enums[i].value);
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
		cook_operand(pcb, r);
	n->type = tt->t_int;
	bool ls = dt_type_is_string(l->type), rs = dt_type_is_string(r->type);
	/* A string compared with NULL: is it there at all?  (Only == and != here.) */
	if ((ls && is_null(r)) || (rs && is_null(l))) {
		if (op != T_EQU && op != T_NEQ)
			incompat(pcb, n, op);
		return;
	}
	if (dt_sema_is_dynamic(l->type) || dt_sema_is_dynamic(r->type) ||
	    dt_sema_dynamic_name(l) != NULL || dt_sema_dynamic_name(r) != NULL)
		incompat(pcb, n, op);
	if (is_string_like(l->type) && is_string_like(r->type) && (ls || rs)) {
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
static void cook_op2(struct dt_pcb *pcb, struct dt_node *n)
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
	cook_operand(pcb, s);
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
		cook_operand(pcb, r);
		if (dt_sema_dynamic_name(l) != NULL || dt_sema_dynamic_name(r) != NULL)
			dt_cerror(pcb, "D_OP_DYN", n->line, "operator , operands cannot be of dynamic type");
		if (is_actfunc(pcb, l) || is_actfunc(pcb, r))
			dt_cerror(pcb, "D_OP_ACT", n->line, "operator , operands cannot be actions");
		n->type = r->type;
		if ((l->flags & DN_CONST) && (r->flags & DN_CONST))
			mark_const(n, r->type, r->cval);
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
		cook_operand(pcb, r);
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
		dt_cerror(pcb, "D_UNKNOWN", n->line, "invalid binary op %s", opname(op));
	}

	if ((l->flags & DN_CONST) && (r->flags & DN_CONST) && dt_sema_is_integer(l->type) &&
	    dt_sema_is_integer(r->type)) {
		int64_t v;
		/* A shift's signedness is its left operand's, as when it runs. */
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

static void cook_op1(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = TT(pcb);
	struct dt_node *l = n->l;

	if (n->op == T_PREINC || n->op == T_PREDEC || n->op == T_POSTINC || n->op == T_POSTDEC)
		declare_incdec(pcb, l);
	cook_operand(pcb, l);
	switch (n->op) {
	case T_LNEG:
		if (!dt_sema_is_scalar(l->type))
			dt_cerror(pcb, "D_OP_SCALAR", n->line, "operator ! requires an operand of scalar type");
		n->type = tt->t_int;
		if (l->flags & DN_CONST)
			mark_const(n, n->type, !l->cval);
		break;
	/* ~ - + keep their operand's type: D has no integer promotions (as DTrace). */
	case T_BNEG:
		if (!dt_sema_is_integer(l->type))
			dt_cerror(pcb, "D_OP_INT", n->line, "operator ~ requires an operand of integral type");
		n->type = l->type;
		if (l->flags & DN_CONST)
			mark_const(n, n->type, ~l->cval);
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
			mark_const(n, n->type, v);
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
		if (is_bitfield(pcb, l))
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
		dt_cerror(pcb, "D_UNKNOWN", n->line, "invalid unary op %s", opname(n->op));
	}
}

static void op3_after(struct dt_pcb *pcb, struct dt_node *n);

/*
 * DTrace's order of checks (dt_cook_op3()): condition, operand types,
 * actions; a constant condition is folded as DTrace's parser does
 * (sema_fold.c).  A chain a ? b : c ? d : e ... is walked down its third
 * operands and back up without recursion, in the order recursion would.
 */
static void cook_op3(struct dt_pcb *pcb, struct dt_node *n)
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
			cook_operand(pcb, s->cond);
		cook_operand(pcb, s->l);
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
		cook_operand(pcb, s);
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
	} else if (is_string_like(a) && is_string_like(b) &&
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
			mark_const(n, n->type, pick->cval);
	}
}

static _Noreturn void bad_cast(struct dt_pcb *pcb, struct dt_node *n, struct dt_type *to)
{
	dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
		  operand_type(pcb, n->l), dt_sema_typestr(pcb, to));
}

static void cook_cast(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);

	cook_operand(pcb, n->l);
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
		if (!dt_sema_is_scalar(from) && !dt_sema_is_pointer(from) && !is_string_like(from))
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
		mark_const(n, t, dt_sema_cast_value(t, n->l->cval));
	if (n->l->flags & DN_USERLAND)
		n->flags |= DN_USERLAND;
}

static void cook_sizeof(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_type *t;

	if (n->l != NULL) {
		cook_operand(pcb, n->l);
		if (is_bitfield(pcb, n->l))
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
		mark_const(n, TT(pcb)->t_size, (int64_t)dt_expr_strsize(pcb->cc, n->l));
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
	dt_nest_check(pcb, n->line, "expression");
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
		cook_operand(pcb, n->l);
		if (dt_sema_dynamic_name(n->l) != NULL ||
		    (!dt_sema_is_scalar(n->l->type) && !dt_sema_is_pointer(n->l->type) &&
		     !is_string_like(n->l->type)))
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
