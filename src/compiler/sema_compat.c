/*
 * DTrace's classification of operand types and its compatibility rules
 * (dt_node_is_integer, _scalar, _arith, _pointer, _vfptr, _strcompat,
 * _ptrcompat, _argcompat), which decide its operators' type errors.
 * D's own types (stack(), func() results and dynamic values) are none of
 * integer, scalar or pointer.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"

static bool special(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->special != DT_SPECIAL_NONE;
}

bool dt_sema_is_integer(struct dt_type *t)
{
	return dt_type_is_integer(t) && !special(t);
}

bool dt_sema_is_scalar(struct dt_type *t)
{
	return dt_sema_is_integer(t) || dt_type_is_pointer(t);
}

bool dt_sema_is_pointer(struct dt_type *t)
{
	return dt_type_is_pointer(t) || dt_type_is_array(t);
}

bool dt_sema_is_dynamic(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && t->special == DT_SPECIAL_DYN;
}

/* A pointer to void or to a function: no size to step by. */
bool dt_sema_is_vfptr(struct dt_type *t)
{
	t = dt_type_base(t);
	if (t == NULL || t->kind != TK_PTR)
		return false;
	struct dt_type *r = dt_type_base(t->base);
	return r == NULL || r->kind == TK_VOID || r->kind == TK_FUNC;
}

bool dt_sema_is_strcompat(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

/* C's compatible types (ctf_type_compat): the same type, typedefs aside. */
bool dt_sema_type_compat(struct dt_type *a, struct dt_type *b)
{
	struct dt_type *x = dt_type_base(a), *y = dt_type_base(b);

	if (x == NULL || y == NULL)
		return false;
	if (x->special != y->special)
		return false;
	return dt_type_equal(x, y);
}

static bool null_constant(const struct dt_node *n)
{
	return (n->flags & DN_CONST) && n->cval == 0;
}

static bool userland(const struct dt_node *n)
{
	struct dt_type *b = dt_type_base(n->type);

	return (n->flags & DN_USERLAND) || (b != NULL && b->userland);
}

/* What a pointer, array or string points at; NULL for other types. */
static struct dt_type *referent(struct dt_pcb *pcb, struct dt_type *t)
{
	struct dt_type *b = dt_type_base(t);

	if (b == NULL)
		return NULL;
	if (b->kind == TK_STRING)
		return pcb->cc->core->types.t_char;
	if (b->kind == TK_PTR || b->kind == TK_ARRAY)
		return b->base;
	return NULL;
}

/*
 * Two pointers (or arrays, or strings) to compatible types or with one a
 * void pointer, or a pointer and the constant 0; pointers into user space
 * only with each other.
 */
bool dt_sema_ptrcompat(struct dt_pcb *pcb, struct dt_node *l, struct dt_node *r)
{
	if (dt_sema_is_dynamic(l->type) || dt_sema_is_dynamic(r->type))
		return false;
	bool li = dt_sema_is_integer(l->type), ri = dt_sema_is_integer(r->type);
	if (li && ri)
		return false;
	if ((li && !null_constant(l)) || (ri && !null_constant(r)))
		return false;
	if (!li && !ri && userland(l) != userland(r))
		return false;
	struct dt_type *lt = li ? r->type : l->type, *rt = ri ? l->type : r->type;
	struct dt_type *lref = referent(pcb, lt), *rref = referent(pcb, rt);
	if (lref == NULL || rref == NULL)
		return false;
	return dt_type_is_void(lref) || dt_type_is_void(rref) || dt_sema_type_compat(lref, rref);
}

/* Whether r may be assigned to (or passed as) l, DTrace's rule for both. */
bool dt_sema_argcompat(struct dt_pcb *pcb, struct dt_node *l, struct dt_node *r)
{
	struct dt_type *lt = l->type, *rt = r->type;
	struct dt_type *lb = dt_type_base(lt), *rb = dt_type_base(rt);

	if (dt_sema_is_integer(lt) && dt_sema_is_integer(rt))
		return true;
	if (dt_sema_is_strcompat(lt) && dt_sema_is_strcompat(rt))
		return true;
	if (lb != NULL && rb != NULL && lb->special != DT_SPECIAL_NONE &&
	    lb->special != DT_SPECIAL_DYN) {
		/* stack() with stack(), func() with func() ... */
		int ls = lb->special == DT_SPECIAL_USTACK ? DT_SPECIAL_STACK : lb->special;
		int rs = rb->special == DT_SPECIAL_USTACK ? DT_SPECIAL_STACK : rb->special;
		if (ls == rs)
			return true;
	}
	if (lb != NULL && (lb->kind == TK_FUNC || lb->kind == TK_STRUCT || lb->kind == TK_UNION))
		return dt_sema_type_compat(lt, rt);
	return dt_sema_ptrcompat(pcb, l, r);
}

/* The same, for a value of type t (a declaration's type, a prototype's parameter). */
bool dt_sema_type_argcompat(struct dt_pcb *pcb, struct dt_type *t, struct dt_node *r)
{
	struct dt_node l;

	memset(&l, 0, sizeof(l));
	l.kind = N_TYPEEXPR;
	l.type = t;
	return dt_sema_argcompat(pcb, &l, r);
}
