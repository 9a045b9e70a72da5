/*
 * Stability attributes of expressions and clauses (DTrace's dt_parser.c
 * and dt_ident.c rules) and D_ATTR_MIN.
 *
 * DTrace gives each node attributes as it checks it, and with amin set
 * (-x amin, #pragma D option amin) refuses the first node below it:
 *   constants and what D defines: Stable/Stable/Common;
 *   an identifier: its own (never above Stable/Stable/Common); built-ins
 *     DTrace's (curthread Stable/Private/Common, the kernel-data
 *     subroutines Evolving/Evolving/Common); probeprov, probemod,
 *     probefunc, probename and args[] those of the clause's provider;
 *     a program's globals and inlines what #pragma D attributes gives
 *     them; an inline otherwise its value's; a kernel symbol
 *     Private/Private/Unknown;
 *   a type named (cast, sizeof, xlate): Private/Private/Unknown if it is
 *     the kernel's, else Stable/Stable/Common;
 *   an operator: the least of its operands' (a cast's type included, an
 *     xlate's translator; not a member's type: a member has its
 *     object's attributes);
 *   a call: the least of its arguments' and the function's;
 *   an aggregation assignment: its keys' (the function's arguments are
 *     checked, not counted).
 * A clause is first checked with its probe description's attributes,
 * then its statements and predicate are; what it records (dtrace -v) is
 * the description's and the least of its statements'.
 */
#include "compiler/sema_attr.h"

#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

/* How a tree is walked: from what sema left (memo) or afresh in another context. */
struct walk {
	struct dt_pcb *pcb;
	bool fresh;		/* recompute everything (another description's context) */
	bool check;		/* against amin */
};

static struct dt_attr visit(struct walk *w, struct dt_node *n);

/*
 * The minimum in force for a node of `line`: -x amin, or a #pragma D
 * option amin.  DTrace checks a clause once the whole program is parsed,
 * but what it makes of a definition (an inline, a translator) or a type
 * name as it parses, a pragma only from its line on.  The D library is
 * not held to it (it is DTrace's, not the user's program).
 */
static bool amin_at(struct dt_pcb *pcb, bool parsing, int line, struct dt_attr *a)
{
	if (pcb->is_dlib)
		return false;
	if (pcb->amin_set && (!parsing || line >= pcb->amin_line)) {
		*a = pcb->amin;
		return true;
	}
	if (pcb->cc->core->opts.amin_set) {
		*a = pcb->cc->core->opts.amin;
		return true;
	}
	return false;
}

/* Outside a clause, nodes are what DTrace makes while it parses. */
static bool parsing(struct dt_pcb *pcb)
{
	return pcb->sema == NULL && pcb->ctx == NULL;
}

static void check_named(struct dt_pcb *pcb, bool parse, int line, struct dt_attr a,
			const char *what)
{
	struct dt_attr min;
	char buf[64];

	if (!amin_at(pcb, parse, line, &min) || !dt_attr_below(a, min))
		return;
	dt_cerror(pcb, "D_ATTR_MIN", line, "attributes for %s (%s) are less than predefined minimum",
		  what, dt_attr_str(a, buf, sizeof(buf)));
}

/* The node as DTrace's messages name it (dt_node_name()). */
static const char *name_of(struct dt_pcb *pcb, struct dt_node *n)
{
	char buf[300];

	if (n->kind == N_AGG) {
		snprintf(buf, sizeof(buf), "aggregation @%s", n->agg.name);
		return dt_pstrdup(pcb, buf);
	}
	/* A subscript that is no associative array is *(a + i). */
	if (n->kind == N_INDEX && n->id == NULL)
		return "operator *";
	/* args[i] a provider translates is still args[ ]. */
	if ((n->kind == N_XLATE || n->kind == N_STRINGOF) && n->tn_spec == NULL && n->l != NULL &&
	    n->l->kind == N_INDEX && n->l->id != NULL)
		return name_of(pcb, n->l);
	return dt_sema_node_name(pcb, n);
}

static void check(struct dt_pcb *pcb, struct dt_node *n, struct dt_attr a)
{
	struct dt_attr min;
	bool parse = parsing(pcb);

	/* (The name only when it is needed.) */
	if (amin_at(pcb, parse, n->line, &min) && dt_attr_below(a, min))
		check_named(pcb, parse, n->line, a, name_of(pcb, n));
}

/* DTrace's rule for types: the kernel's are Private, C's and D's Stable. */
static struct dt_attr type_attr(struct dt_type *t)
{
	while (t != NULL && t->module == NULL && (t->kind == TK_PTR || t->kind == TK_ARRAY))
		t = t->base;
	return t != NULL && t->module != NULL ? dt_attr_private : dt_attr_default;
}

static bool evolving_subr(int code)
{
	switch (code) {
	case SUB_D_PATH: case SUB_DDI_PATHNAME: case SUB_GETMAJOR: case SUB_GETMINOR:
	case SUB_HTONL: case SUB_HTONLL: case SUB_HTONS: case SUB_NTOHL: case SUB_NTOHLL:
	case SUB_NTOHS: case SUB_MUTEX_OWNED: case SUB_MUTEX_OWNER: case SUB_MUTEX_TYPE_ADAPTIVE:
	case SUB_MUTEX_TYPE_SPIN: case SUB_RW_ISWRITER: case SUB_RW_READ_HELD:
	case SUB_RW_WRITE_HELD:
		return true;
	default:
		return false;
	}
}

/* An identifier's attributes (dt_open.c's table; the clause's for the probe variables). */
static struct dt_attr ident_attr(struct dt_pcb *pcb, const struct dt_ident *id)
{
	static const struct dt_attr curthread = DT_ATTR(STABLE, PRIVATE, COMMON);
	static const struct dt_attr evolving = DT_ATTR(EVOLVING, EVOLVING, COMMON);
	const struct dt_pattr *ctx = pcb->ctx;
	struct dt_attr a = dt_attr_default;

	if (id->attr_set) {
		a = id->attr;
	} else if ((id->flags & IDF_BUILTIN) && id->kind == IDK_BVAR) {
		switch (id->code) {
		case BV_CURTHREAD: a = curthread; break;
		case BV_PROBEPROV: a = ctx ? ctx->provider : a; break;
		case BV_PROBEMOD: a = ctx ? ctx->mod : a; break;
		case BV_PROBEFUNC: a = ctx ? ctx->func : a; break;
		case BV_PROBENAME: a = ctx ? ctx->name : a; break;
		case BV_ARGS: a = ctx ? ctx->args : a; break;
		default: break;
		}
	} else if ((id->flags & IDF_BUILTIN) && id->kind == IDK_SUBR && evolving_subr(id->code)) {
		a = evolving;
	}
	/* What names it adds nothing above Stable/Stable/Common (dt_ident_cook()). */
	return dt_attr_min(a, dt_attr_default);
}

static struct dt_attr child(struct walk *w, struct dt_node *k)
{
	if (!w->fresh && (k->flags & (DN_ATTR | DN_ATTRFIX)))
		return k->attr;
	return visit(w, k);
}

static struct dt_attr list_min(struct walk *w, struct dt_attr a, struct dt_node *list)
{
	for (struct dt_node *k = list; k != NULL; k = k->next)
		a = dt_attr_min(a, child(w, k));
	return a;
}

/* A translator's: the least of its members' (Standard if it has none). */
static struct dt_attr xlator_attr(struct walk *w, const struct dt_translator *xl)
{
	struct dt_attr a = dt_attr_max;
	struct walk memo = { w->pcb, false, false };

	for (const struct dt_trmember *m = xl->members; m != NULL; m = m->next)
		if (m->expr != NULL)
			a = dt_attr_min(a, child(&memo, m->expr));
	return a;
}

/* A name DTrace reads as an integer while it parses: an enumerator, a constant inline. */
static bool parse_time_int(struct dt_pcb *pcb, const struct dt_ident *id)
{
	return id->kind == IDK_ENUM ||
	       (id->kind == IDK_INLINE && id->iparams == NULL && id->inline_expr != NULL &&
		dt_sema_parse_int(pcb, id->inline_expr));
}

static struct dt_attr node_attr(struct walk *w, struct dt_node *n)
{
	struct dt_pcb *pcb = w->pcb;
	struct dt_attr def = dt_attr_default;

	switch (n->kind) {
	case N_IDENT:
	case N_VAR:
		if (n->id == NULL || parse_time_int(pcb, n->id))
			return def;
		return ident_attr(pcb, n->id);
	case N_INDEX:
		if (n->id == NULL)
			return dt_attr_min(child(w, n->l), list_min(w, def, n->call.args));
		return dt_attr_min(list_min(w, def, n->call.args), ident_attr(pcb, n->id));
	case N_CALL:
		return dt_attr_min(list_min(w, def, n->call.args),
				   n->id != NULL ? ident_attr(pcb, n->id) : def);
	case N_OP1:
	case N_MEMBER:
	case N_STRINGOF:
		return n->l != NULL ? child(w, n->l) : def;
	case N_SIZEOF:
		if (n->l != NULL)
			return child(w, n->l);
		return type_attr(dt_sema_typename(pcb, n->tn_spec, n->tn_decl, NULL));
	case N_OP2:
		if (n->op == T_ASGN && n->l->kind == N_AGG) {
			/* The function is checked; the aggregation is what its keys are. */
			child(w, n->r);
			return list_min(w, def, n->l->agg.keys);
		}
		return dt_attr_min(child(w, n->l), child(w, n->r));
	case N_OP3:
		return dt_attr_min(child(w, n->cond), dt_attr_min(child(w, n->l), child(w, n->r)));
	case N_CAST:
		return dt_attr_min(type_attr(n->type), child(w, n->l));
	case N_XLATE:
		if (n->tn_spec == NULL || n->aux == NULL)
			return child(w, n->l);
		return dt_attr_min(child(w, n->l), xlator_attr(w, n->aux));
	default:
		return def;
	}
}

static struct dt_attr settle(struct walk *w, struct dt_node *n, struct dt_attr a)
{
	if (w->check)
		check(w->pcb, n, a);
	if (!w->fresh) {
		n->attr = a;
		n->flags |= DN_ATTR;
	}
	return a;
}

/*
 * A binary operator or ?: whose attributes are its operands' and not
 * known yet: a link of a chain (a + b + c ... down left operands,
 * a ? b : c ? d : e ... down third operands).
 */
static struct dt_node *chain_next(const struct walk *w, const struct dt_node *n)
{
	if ((n->flags & DN_ATTRFIX) || (!w->fresh && (n->flags & DN_ATTR)))
		return NULL;
	if (n->kind == N_OP2 && !(n->op == T_ASGN && n->l->kind == N_AGG))
		return n->l;
	if (n->kind == N_OP3)
		return n->r;
	return NULL;
}

struct link {
	struct dt_node *n;
	struct dt_attr a;	/* of the operands walked before the next link */
};

/*
 * A chain is as deep as it is long: it is walked down and back up by
 * loops, in the order recursion would (left operand, right operand, the
 * operator; condition, second, third operand, the operator).
 */
static struct dt_attr visit(struct walk *w, struct dt_node *n)
{
	if (n->flags & DN_ATTRFIX)
		return n->attr;
	dt_nest_check(w->pcb, n->line, "expression");
	if (chain_next(w, n) == NULL)
		return settle(w, n, node_attr(w, n));

	struct dt_node *s;
	size_t k = 0, len;
	for (s = n; chain_next(w, s) != NULL; s = chain_next(w, s))
		k++;
	len = k;
	struct link small[8], *up = len <= 8 ? small : dt_palloc(w->pcb, len * sizeof(*up));
	for (s = n, k = 0; k < len; s = chain_next(w, s), k++) {
		up[k].n = s;
		up[k].a = s->kind == N_OP3 ? dt_attr_min(child(w, s->cond), child(w, s->l))
					   : dt_attr_max;
	}
	struct dt_attr a = child(w, s);
	while (k-- > 0) {
		a = dt_attr_min(a, up[k].a);
		if (up[k].n->kind == N_OP2)
			a = dt_attr_min(a, child(w, up[k].n->r));
		a = settle(w, up[k].n, a);
	}
	return a;
}

void dt_attr_expr(struct dt_pcb *pcb, struct dt_node *n)
{
	struct walk w = { pcb, false, true };

	/* A sizeof of a type is the type's: fixed once known. */
	if (n->kind == N_SIZEOF && n->l == NULL && !(n->flags & DN_ATTRFIX)) {
		n->attr = node_attr(&w, n);
		n->flags |= DN_ATTRFIX;
		check(pcb, n, n->attr);
		return;
	}
	n->flags &= ~DN_ATTR;
	visit(&w, n);
}

void dt_attr_fixed(struct dt_pcb *pcb, struct dt_node *n, struct dt_attr a, const char *what)
{
	n->attr = a;
	n->flags |= DN_ATTRFIX;
	check_named(pcb, parsing(pcb), n->line, a, what != NULL ? what : name_of(pcb, n));
}

void dt_attr_ident_check(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id)
{
	struct dt_attr a = ident_attr(pcb, id);
	char what[200];

	snprintf(what, sizeof(what), "%s %s", dt_ident_kind_name(id), id->name);
	check_named(pcb, parsing(pcb), n->line, a, what);
}

/*
 * The attributes #pragma D attributes gives a name declared on `line`:
 * DTrace sets those of a pragma after the declaration as it reads it,
 * and keeps those before it until the name is declared (the first such
 * pragma's then winning), so the last pragma after, else the first one.
 */
static bool pragma_attr(struct dt_pcb *pcb, const char *name, int line, struct dt_attr *a)
{
	bool found = false, after = false;

	for (int i = 0; i < pcb->nprefs; i++) {
		const struct dt_pragma_ref *r = &pcb->prefs[i];
		if (strcmp(r->what, "attributes") != 0 || strcmp(r->name, name) != 0)
			continue;
		if (r->line > line) {
			*a = r->attr;
			found = after = true;
		} else if (!found && !after) {
			*a = r->attr;
			found = true;
		}
	}
	return found;
}

void dt_attr_declared(struct dt_pcb *pcb, struct dt_ident *id, int line)
{
	struct dt_attr a = dt_attr_default;
	/* Pragmas name globals: not thread-locals or clause-locals. */
	bool global = id->kind == IDK_GLOBAL || id->kind == IDK_ARRAY;

	id->attr_set = (global && pragma_attr(pcb, id->name, line, &a)) || id->nkeys > 0;
	/* An associative array's are also those of its key types (DTrace cooks them). */
	for (int i = 0; i < id->nkeys; i++)
		a = dt_attr_min(a, type_attr(id->keys[i]));
	id->attr = id->nkeys > 0 ? dt_attr_min(a, dt_attr_default) : a;
}

void dt_attr_inline(struct dt_pcb *pcb, struct dt_ident *id, struct dt_node *expr, int line)
{
	struct walk w = { pcb, false, false };
	struct dt_attr a;

	if (!pragma_attr(pcb, id->name, line, &a))
		a = dt_attr_min(dt_attr_default, child(&w, expr));
	id->attr = a;
	id->attr_set = true;
}

static void check_typename(struct dt_pcb *pcb, struct dt_declspec *spec,
			   struct dt_declarator *decl, int line)
{
	struct dt_attr min;

	if (!amin_at(pcb, true, line, &min))
		return;
	struct dt_type *t = dt_sema_typename(pcb, spec, decl, NULL);
	char what[300];
	snprintf(what, sizeof(what), "type %s", dt_sema_typestr(pcb, t));
	check_named(pcb, true, line, type_attr(t), what);
}

/* The parameters of a declarator (a function's, an associative array's keys): type nodes too. */
static void params(struct dt_pcb *pcb, struct dt_declarator *d)
{
	for (; d != NULL; d = d->outer) {
		if (d->kind != DK_FUNC && !(d->kind == DK_ARRAY && d->assoc))
			continue;
		for (struct dt_node *p = d->params; p != NULL; p = p->next) {
			params(pcb, p->decl.decl);
			if (p->decl.spec != NULL)
				check_typename(pcb, p->decl.spec, p->decl.decl, p->line);
		}
	}
}

/* Type names in source order: DTrace makes them nodes (and checks them) as it parses. */
static void typenames(struct dt_pcb *pcb, struct dt_node *n)
{
	for (; n != NULL; n = n->next) {
		if (n->tn_spec != NULL &&
		    (n->kind == N_CAST || n->kind == N_XLATE || (n->kind == N_SIZEOF && n->l == NULL)))
			check_typename(pcb, n->tn_spec, n->tn_decl, n->line);
		switch (n->kind) {
		case N_CLAUSE:
			typenames(pcb, n->clause.pred);
			typenames(pcb, n->clause.body);
			continue;
		case N_CALL:
		case N_INDEX:
			typenames(pcb, n->l);
			typenames(pcb, n->call.args);
			continue;
		case N_AGG:
			typenames(pcb, n->agg.keys);
			continue;
		case N_XLATOR:
			for (struct dt_node *m = n->xlator.members; m != NULL; m = m->next)
				typenames(pcb, m->r);
			continue;
		case N_DECL:
			params(pcb, n->decl.decl);
			continue;
		case N_INLINE:
			params(pcb, n->decl.decl);
			typenames(pcb, n->l);
			continue;
		case N_PROVIDER:
			for (struct dt_node *pr = n->provider.probes; pr != NULL; pr = pr->next) {
				params(pcb, pr->decl.decl);
				if (pr->l != NULL)
					params(pcb, pr->l->decl.decl);
			}
			continue;
		case N_OP3:
			typenames(pcb, n->cond);
			typenames(pcb, n->l);
			typenames(pcb, n->r);
			continue;
		case N_IF:
			typenames(pcb, n->cond);
			typenames(pcb, n->body);
			typenames(pcb, n->elsebody);
			continue;
		default:
			typenames(pcb, n->l);
			typenames(pcb, n->r);
			typenames(pcb, n->body);
			continue;
		}
	}
}

void dt_attr_typenames(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_node *next = n->next;

	/* Only amin makes them matter: nothing is looked up without it. */
	if (!pcb->amin_set && !pcb->cc->core->opts.amin_set)
		return;
	n->next = NULL;
	typenames(pcb, n);
	n->next = next;
}

/* The least attributes of a statement list (Stable/Stable/Common if empty). */
static struct dt_attr stmts_attr(struct walk *w, struct dt_node *list)
{
	struct dt_attr a = dt_attr_default;

	for (struct dt_node *s = list; s != NULL; s = s->next) {
		switch (s->kind) {
		case N_EXPRSTMT:
			a = dt_attr_min(a, child(w, s->l));
			break;
		case N_IF:
			a = dt_attr_min(a, child(w, s->cond));
			a = dt_attr_min(a, stmts_attr(w, s->body));
			a = dt_attr_min(a, stmts_attr(w, s->elsebody));
			break;
		case N_BLOCK:
			a = dt_attr_min(a, stmts_attr(w, s->body));
			break;
		default:
			break;
		}
	}
	return a;
}

/* The statements' attributes: of the actions, then of the predicate. */
static struct dt_attr clause_attr(struct walk *w, struct dt_node *c)
{
	w->pcb->region = "action list";
	struct dt_attr a = stmts_attr(w, c->clause.body);
	if (c->clause.pred != NULL) {
		w->pcb->region = "predicate";
		a = dt_attr_min(a, child(w, c->clause.pred));
	}
	w->pcb->region = NULL;
	return a;
}

/* The description's fields; a probe named by id is named by its own fields. */
static void pdesc_fields(struct dt_stmt *st, int i, const char *f[4],
			 const struct dt_probe **first, size_t *n)
{
	const struct dt_pdesc *pd = st->clause->clause.pdescs[i];

	*first = NULL;
	*n = 0;
	for (size_t k = 0; k < st->probes.n; k++) {
		if (st->probe_pdesc.v[k] != i)
			continue;
		if (*first == NULL)
			*first = st->probes.v[k];
		(*n)++;
	}
	f[0] = pd->prov;
	f[1] = pd->mod;
	f[2] = pd->func;
	f[3] = pd->name;
	if (pd->id != 0 && *first != NULL)
		memcpy(f, (*first)->desc, sizeof(*f) * 4);
}

static bool pdesc_info(struct dt_pcb *pcb, struct dt_stmt *st, int i, struct dt_attr *da,
		       const struct dt_pattr **ctx)
{
	const char *f[4];
	const struct dt_probe *first;
	size_t n;

	pdesc_fields(st, i, f, &first, &n);
	return dt_pdesc_info(pcb->cc->reg, f, first, n, da, ctx);
}

bool dt_attr_pdesc_known(struct dt_pcb *pcb, struct dt_stmt *st)
{
	struct dt_attr da;
	const struct dt_pattr *ctx;

	return pdesc_info(pcb, st, 0, &da, &ctx);
}

void dt_attr_clause(struct dt_pcb *pcb, struct dt_stmt *st)
{
	struct dt_node *c = st->clause;
	int n = st->npdescs, line = c->clause.end_line ? c->clause.end_line : c->line;

	st->descattr = dt_palloc(pcb, sizeof(*st->descattr) * (size_t)(n > 0 ? n : 1));
	st->stmtattr = dt_palloc(pcb, sizeof(*st->stmtattr) * (size_t)(n > 0 ? n : 1));
	for (int i = 0; i < n; i++) {
		const struct dt_pattr *ctx;
		pdesc_info(pcb, st, i, &st->descattr[i], &ctx);
		pcb->ctx = ctx;
		/* DTrace's first check of a clause: the description's attributes. */
		check_named(pcb, false, line, st->descattr[i], "clause");
		struct walk w = { pcb, i > 0, i > 0 };
		if (i == 0)
			dt_sema_clause(pcb, st);
		st->stmtattr[i] = clause_attr(&w, c);
	}
	pcb->ctx = NULL;
}
