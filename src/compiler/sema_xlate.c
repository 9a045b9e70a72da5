/*
 * Semantic checks of translators: definitions (D_XLATE_REDECL, _SOU, _MEMB,
 * _INCOMPAT), xlate expressions (D_XLATE_NONE) and the members of
 * translated values (D_XLATE_NOCONV), with DTrace's messages.
 *
 * A translator's member expressions are checked once, where it is defined,
 * with its input identifier in scope (pcb->xlarg).  The D library's
 * translators are written for many kernels: a member whose expression does
 * not check against this kernel's BTF (a field that is not there) is kept
 * with the reason, which becomes the error of a program that uses it.
 */
#include <setjmp.h>
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/walk.h"
#include "compiler/xlator.h"

static bool is_strcompat(struct dt_type *t)
{
	return dt_type_is_string(t) || dt_type_is_charptr(t);
}

/* DTrace's rule for a value given where a type is expected (dt_node_is_argcompat). */
static bool argcompat(struct dt_type *to, struct dt_node *e)
{
	struct dt_type *from = e->type;

	if (dt_type_is_integer(to) && dt_type_is_integer(from))
		return true;
	if (is_strcompat(to) && is_strcompat(from))
		return true;
	if (dt_type_equal(to, from))
		return true;
	if (dt_type_is_pointer(to) || dt_type_is_array(to)) {
		if (dt_type_is_pointer(from) || dt_type_is_array(from))
			return true;
		return (e->flags & DN_CONST) && e->cval == 0 && dt_type_is_integer(from);
	}
	return false;
}

/* Same type, typedefs resolved (ctf_type_compat). */
static bool compat(struct dt_type *a, struct dt_type *b)
{
	return dt_type_equal(a, b);
}

static struct dt_translator *lookup_exact(struct dt_compiler *cc, struct dt_type *src,
					  struct dt_type *dst)
{
	for (struct dt_translator *xl = cc->xlators; xl != NULL; xl = xl->next)
		if (compat(xl->src, src) && compat(xl->dst, dst))
			return xl;
	return NULL;
}

/*
 * The translator for xlate <to>(e): an exact input type first, then one
 * that e can be given to as an argument (DT_XLATE_FUZZY).
 */
static struct dt_translator *lookup(struct dt_compiler *cc, struct dt_node *e, struct dt_type *to)
{
	struct dt_type *dst = dt_type_is_pointer(to) ? dt_type_base(to)->base : to;
	struct dt_translator *xl = lookup_exact(cc, e->type, dst);

	if (xl != NULL)
		return xl;
	for (xl = cc->xlators; xl != NULL; xl = xl->next)
		if (compat(xl->dst, dst) && argcompat(xl->src, e))
			return xl;
	return NULL;
}

struct dt_translator *dt_xlator_find(struct dt_compiler *cc, struct dt_type *src,
				     struct dt_type *dst)
{
	return lookup_exact(cc, src, dst);
}

static void add_xlator(struct dt_compiler *cc, struct dt_translator *xl)
{
	struct dt_translator **pp = &cc->xlators;

	while (*pp != NULL)
		pp = &(*pp)->next;
	*pp = xl;
}

static void remove_xlator(struct dt_compiler *cc, struct dt_translator *xl)
{
	for (struct dt_translator **pp = &cc->xlators; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == xl) {
			*pp = xl->next;
			return;
		}
	}
}

/* The message of the error just raised, without its "[TAG] line N: " prefix. */
static const char *bare_message(struct dt_pcb *pcb)
{
	const char *m = pcb->cc->core->errmsg;

	if (m[0] == '[' && strstr(m, "] ") != NULL)
		m = strstr(m, "] ") + 2;
	if (strncmp(m, "line ", 5) == 0 && strstr(m, ": ") != NULL)
		m = strstr(m, ": ") + 2;
	return dt_arena_strdup(&pcb->cc->core->arena, m);
}

/* Check one `member = expr;` of translator xl. */
static void check_member(struct dt_pcb *pcb, struct dt_translator *xl, struct dt_node *mn,
			 struct dt_trmember *tm)
{
	uint32_t off;
	const struct dt_member *m = dt_type_member(&pcb->cc->core->types, xl->dst, mn->member, &off);

	if (m == NULL)
		dt_cerror(pcb, "D_XLATE_MEMB", xl->line, "translator member %s is not a member of %s",
			  mn->member, dt_sema_typestr(pcb, xl->dst));
	tm->type = m->type;
	pcb->xlarg = xl->arg;
	dt_sema_expr(pcb, mn->r);
	pcb->xlarg = NULL;
	if (!argcompat(m->type, mn->r))
		dt_cerror(pcb, "D_XLATE_INCOMPAT", xl->line,
			  "translator member %s definition uses incompatible types: \"%s\" = \"%s\"",
			  mn->member, dt_sema_typestr(pcb, m->type), dt_sema_typestr(pcb, mn->r->type));
	tm->expr = mn->r;
}

/* Check a member; false (with the error on the handle) if it does not check. */
static bool try_member(struct dt_pcb *pcb, struct dt_translator *xl, struct dt_node *mn,
		       struct dt_trmember *tm)
{
	jmp_buf saved;
	volatile bool ok = false;

	memcpy(saved, pcb->jb, sizeof(jmp_buf));
	if (setjmp(pcb->jb) == 0) {
		check_member(pcb, xl, mn, tm);
		ok = true;
	}
	memcpy(pcb->jb, saved, sizeof(jmp_buf));
	pcb->xlarg = NULL;
	return ok;
}

/*
 * A library member that does not check here keeps the reason; the first
 * definition of a name that checks is the one used (a library may give
 * alternatives for different kernels).  A user's translator with a member
 * that does not check is an error (and is not defined).
 */
static void check_members(struct dt_pcb *pcb, struct dt_translator *xl, struct dt_node *list)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_trmember **tail = &xl->members;

	for (struct dt_node *mn = list; mn != NULL; mn = mn->next) {
		struct dt_trmember *tm = dt_arena_zalloc(&cc->core->arena, sizeof(*tm));
		if (tm == NULL)
			dt_cnomem(pcb);
		tm->name = mn->member;
		tm->xl = xl;
		if (!try_member(pcb, xl, mn, tm)) {
			if (!xl->dlib) {
				remove_xlator(cc, xl);
				longjmp(pcb->jb, 1);
			}
			tm->expr = NULL;
			tm->err = bare_message(pcb);
			tm->errtag = dt_arena_strdup(&cc->core->arena, cc->core->errtag);
		}
		/* An alternative that checks replaces a broken first definition. */
		struct dt_trmember *first = xl->members;
		while (first != NULL && strcmp(first->name, tm->name) != 0)
			first = first->next;
		if (first != NULL && first->expr == NULL && tm->expr != NULL) {
			first->expr = tm->expr;
			first->type = tm->type;
			continue;
		}
		*tail = tm;
		tail = &tm->next;
	}
}

void dt_sema_translator(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_compiler *cc = pcb->cc;
	int line = n->xlator.end_line > 0 ? n->xlator.end_line : n->line;
	struct dt_type *dst = dt_sema_typename(pcb, n->xlator.to_spec, n->xlator.to_decl, NULL);
	const char *name = NULL;
	struct dt_type *src = dt_sema_typename(pcb, n->xlator.from_spec, n->xlator.from_decl,
					       &name);

	if (lookup_exact(cc, src, dst) != NULL)
		dt_cerror(pcb, "D_XLATE_REDECL", line,
			  "translator from %s to %s has already been declared",
			  dt_sema_typestr(pcb, src), dt_sema_typestr(pcb, dst));
	struct dt_type *b = dt_type_base(dst);
	if (b->kind == TK_FWD)
		dt_cerror(pcb, "D_XLATE_SOU", line, "incomplete struct/union/enum %s",
			  dt_sema_typestr(pcb, dst));
	if (b->kind != TK_STRUCT && b->kind != TK_UNION)
		dt_cerror(pcb, "D_XLATE_SOU", line, "translator output type must be a struct or union");
	if (name == NULL)
		dt_cerror(pcb, "D_SYNTAX", n->line, "translator input requires a name");

	struct dt_translator *xl = dt_arena_zalloc(&cc->core->arena, sizeof(*xl));
	struct dt_ident *arg = dt_arena_zalloc(&cc->core->arena, sizeof(*arg));
	if (xl == NULL || arg == NULL)
		dt_cnomem(pcb);
	arg->name = dt_arena_strdup(&cc->core->arena, name);
	arg->kind = IDK_XLARG;
	arg->type = src;
	arg->flags = IDF_DECLARED | IDF_DEFINED;
	arg->line = n->line;
	xl->src = src;
	xl->dst = dst;
	xl->arg = arg;
	xl->dlib = pcb->is_dlib;
	xl->line = line;
	/* Defined before its members are checked, as in DTrace. */
	add_xlator(cc, xl);
	check_members(pcb, xl, n->xlator.members);
}

void dt_sema_xlate(struct dt_pcb *pcb, struct dt_node *n)
{
	/* args[i] a provider translates (dt_sema_args), checked again. */
	if (n->tn_spec == NULL && n->aux != NULL) {
		dt_sema_expr(pcb, n->l);
		return;
	}
	struct dt_type *to = dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL);

	dt_sema_expr(pcb, n->l);
	struct dt_translator *xl = lookup(pcb->cc, n->l, to);
	if (xl == NULL)
		dt_cerror(pcb, "D_XLATE_NONE", n->line, "cannot translate from \"%s\" to \"%s\"",
			  dt_sema_typestr(pcb, n->l->type), dt_sema_typestr(pcb, to));
	n->type = to;
	n->aux = xl;
}

struct dt_node *dt_xlate_of(struct dt_node *n, bool *ptr)
{
	for (int depth = 0; n != NULL && depth < 64; depth++) {
		if (n->kind == N_XLATE && n->aux != NULL) {
			*ptr = dt_type_is_pointer(n->type);
			return n;
		}
		if ((n->kind == N_IDENT || n->kind == N_INDEX) && n->id != NULL &&
		    n->id->kind == IDK_INLINE && n->id->inline_expr != NULL) {
			n = n->id->inline_expr;
			continue;
		}
		if (n->kind == N_OP1 && n->op == T_DEREF) {
			bool p = false;
			struct dt_node *x = dt_xlate_of(n->l, &p);
			if (x == NULL || !p)
				return NULL;
			*ptr = false;
			return x;
		}
		return NULL;
	}
	return NULL;
}

/* The expressions of inlines and translated members already pushed, in the arena. */
struct seen {
	const struct dt_node **v;
	size_t n, cap;
};

/* An expression an inline or a translated member stands for, pushed once per walk. */
static void push_once(struct dt_pcb *pcb, struct dt_walk *w, struct seen *s, struct dt_node *n)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == n)
			return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		const struct dt_node **v = dt_palloc(pcb, cap * sizeof(*v));
		if (s->n > 0)
			memcpy(v, s->v, s->n * sizeof(*v));
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = n;
	dt_walk_push(pcb, w, n);
}

/*
 * What a translated member brings to the clause that uses it: the probe
 * arguments its expression reads, alloca() memory; through inlines and
 * further translations, however deep.
 */
static void clause_needs(struct dt_pcb *pcb, struct dt_node *expr)
{
	struct dt_stmt *st = pcb->sema != NULL ? pcb->sema->stmt : NULL;
	struct dt_walk w = { 0 };
	struct seen seen = { 0 };
	struct dt_node *n;

	if (st == NULL)
		return;
	dt_walk_push(pcb, &w, expr);
	while ((n = dt_walk_pop(&w)) != NULL) {
		if (n->flags & DN_ALLOCA)
			st->uses_alloca = true;
		switch (n->kind) {
		case N_IDENT:
			if (n->id != NULL && n->id->kind == IDK_BVAR && n->id->code >= BV_ARG0 &&
			    n->id->code <= BV_ARG9)
				st->args_used |= 1u << (n->id->code - BV_ARG0);
			if (n->id != NULL && n->id->kind == IDK_INLINE && n->id->inline_expr != NULL)
				push_once(pcb, &w, &seen, n->id->inline_expr);
			break;
		case N_INDEX:
			if (n->id != NULL && n->id->kind == IDK_INLINE && n->id->inline_expr != NULL)
				push_once(pcb, &w, &seen, n->id->inline_expr);
			if (n->id != NULL && n->id->kind == IDK_BVAR && n->id->code == BV_ARGS &&
			    n->call.args != NULL && (n->call.args->flags & DN_CONST))
				st->args_used |= 1u << (n->call.args->cval % 10);
			break;
		case N_MEMBER:
			if (n->aux != NULL && ((struct dt_xluse *)n->aux)->m->expr != NULL)
				push_once(pcb, &w, &seen, ((struct dt_xluse *)n->aux)->m->expr);
			break;
		default:
			break;
		}
		if (n->kind == N_CALL || n->kind == N_INDEX)
			for (struct dt_node *a = n->call.args; a != NULL; a = a->next)
				dt_walk_push(pcb, &w, a);
		dt_walk_push(pcb, &w, n->l);
		dt_walk_push(pcb, &w, n->r);
		dt_walk_push(pcb, &w, n->cond);
	}
}

bool dt_sema_xlate_member(struct dt_pcb *pcb, struct dt_node *n)
{
	bool ptr = false;
	struct dt_node *xn = dt_xlate_of(n->l, &ptr);

	if (xn == NULL)
		return false;
	struct dt_translator *xl = xn->aux;
	struct dt_trmember *m = xl->members;
	while (m != NULL && strcmp(m->name, n->member) != 0)
		m = m->next;
	if (m == NULL)
		dt_cerror(pcb, "D_XLATE_NOCONV", n->line,
			  "translator does not define conversion for member: %s", n->member);
	if (n->op == T_PTR && !ptr)
		dt_cerror(pcb, "D_OP_PTR", n->line, "operator -> must be applied to a pointer");
	if (n->op == T_DOT && ptr)
		dt_cerror(pcb, "D_OP_SOU", n->line,
			  "operator . cannot be applied to type \"%s\"; must be applied to a struct or union",
			  dt_sema_typestr(pcb, n->l->type));
	if (m->expr == NULL)
		dt_cerror(pcb, m->errtag != NULL && m->errtag[0] ? m->errtag : "D_XLATE_NOCONV",
			  n->line, "translator member %s is not available on this kernel: %s",
			  n->member, m->err != NULL ? m->err : "");
	struct dt_xluse *use = dt_palloc(pcb, sizeof(*use));
	use->m = m;
	use->xlate = xn;
	n->type = m->type;
	n->aux = use;
	clause_needs(pcb, m->expr);
	return true;
}

void dt_sema_xlate_cast(struct dt_pcb *pcb, struct dt_node *n, struct dt_type *to)
{
	bool ptr = false;

	if (dt_type_is_void(to) || dt_xlate_of(n->l, &ptr) == NULL)
		return;
	dt_cerror(pcb, "D_CAST_INVAL", n->line, "invalid cast expression: \"%s\" to \"%s\"",
		  ptr ? "pointer to translated data" : "translated data", dt_sema_typestr(pcb, to));
}
