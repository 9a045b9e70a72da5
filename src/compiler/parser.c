/*
 * The D parser at program level: clauses, declarations, inlines,
 * translators, providers and pragmas.  Recursive descent with one token of
 * look-ahead (parse_*.c hold the rest); the lexer is told which mode to
 * read in (program scope or expressions).
 */
#include "compiler/parser.h"

#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/parser_impl.h"
#include "compiler/pragma.h"
#include "compiler/sema.h"

static struct dt_node *parse_clause(struct parser *p, struct dt_token first)
{
	struct dt_node *n = dt_node_new(p->pcb, N_CLAUSE, first.line);
	struct dt_pdesc **descs = NULL;
	int nd = 0, cap = 0;
	struct dt_token t = first;

	for (;;) {
		struct dt_pdesc *d;
		if (t.tok == T_PSPEC || t.tok == T_IDENT) {
			d = dt_pdesc_parse(p->pcb, t.sval, p->pcb->pspec_kind, t.line);
		} else if (t.tok == T_INT) {
			char buf[32];
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)t.ival);
			d = dt_pdesc_parse(p->pcb, buf, DTRACE_PSPEC_ID, t.line);
		} else {
			dtp_syntax_error(p, &t);
		}
		/* As many as the program lists (in the arena: an error frees them). */
		if (nd == cap) {
			cap = cap ? 2 * cap : 8;
			struct dt_pdesc **nv = dt_palloc(p->pcb, sizeof(*nv) * (size_t)cap);
			if (nd > 0)
				memcpy(nv, descs, sizeof(*nv) * (size_t)nd);
			descs = nv;
		}
		descs[nd++] = d;
		const struct dt_token *nt = dt_lex_peek(&p->lx, LM_OUTER);
		if (nt->tok != T_COMMA)
			break;
		dt_lex_next(&p->lx, LM_OUTER, &t);
		dt_lex_next(&p->lx, LM_OUTER, &t);
	}
	n->clause.pdescs = descs;
	n->clause.npdescs = nd;

	const struct dt_token *nt = dt_lex_peek(&p->lx, LM_OUTER);
	if (nt->tok == T_DIV) {
		struct dt_token slash;
		dt_lex_next(&p->lx, LM_OUTER, &slash);
		n->clause.pred = dtp_parse_expr(p);
		const struct dt_token *e = dtp_peek(p);
		if (e->tok != T_EPRED)
			dtp_syntax_error(p, e);
		dtp_next(p);
		if (dtp_peek_tok(p) != T_LBRACE)
			dt_cerror(p->pcb, "D_SYNTAX", n->clause.pred->line,
				  "expected actions { } following probe description and predicate");
		nt = dt_lex_peek(&p->lx, LM_OUTER);
	}
	if (nt->tok == T_LBRACE) {
		struct dt_token lb;
		dt_lex_next(&p->lx, LM_OUTER, &lb);
		n->clause.body = dtp_parse_stmts(p);
		n->clause.has_body = true;
		n->clause.end_line = dtp_expect(p, T_RBRACE)->line;
		return n;
	}
	if (!(p->pcb->cflags & DTRACE_C_PSPEC) && p->pcb->filename != NULL)
		dt_cerror(p->pcb, "D_SYNTAX", first.line,
			  "expected predicate and/or actions following probe description");
	/* Outside a file a clause may have no actions, and another may follow it ("BEGIN END"). */
	return n;
}

/* Does the declarator declare a function (its name directly takes parameters)? */
static bool is_function(const struct dt_declarator *d)
{
	while (d != NULL && d->name == NULL)
		d = d->outer;
	return d != NULL && d->outer != NULL && d->outer->kind == DK_FUNC;
}

static struct dt_node *parse_decl(struct parser *p)
{
	int line = dtp_peek(p)->line;
	struct dt_declspec *ds = dtp_parse_declspec(p, CLASS_D);
	struct dt_node *head = NULL, **tail = &head;

	if (dtp_peek_tok(p) == T_SEMI) {
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, line);
		n->decl.spec = ds;
		n->decl.end_line = dtp_next(p)->line;
		return n;
	}
	do {
		struct dt_node *n = dt_node_new(p->pcb, N_DECL, dtp_peek(p)->line);
		n->decl.spec = ds;
		n->decl.decl = dtp_parse_declarator(p, false);
		n->decl.end_line = dtp_peek(p)->line;
		/*
		 * A C function definition (from a header included with -C):
		 * D has no functions, so its body is skipped.
		 */
		if (dtp_peek_tok(p) == T_LBRACE && is_function(n->decl.decl) &&
		    (ds->dclass == DC_STATIC || ds->dclass == DC_EXTERN)) {
			int depth = 0;
			do {
				struct dt_token b = *dtp_next(p);
				if (b.tok == T_LBRACE)
					depth++;
				else if (b.tok == T_RBRACE)
					depth--;
				else if (b.tok == T_EOF)
					dtp_syntax_error(p, &b);
			} while (depth > 0);
			return head ? head : dt_node_new(p->pcb, N_EMPTY, line);
		}
		struct dt_declarator *d = n->decl.decl;
		while (d != NULL && d->name == NULL)
			d = d->outer;
		if (d != NULL && ds->dclass == DC_TYPEDEF)
			dtp_nameset_add(p, &p->typedefs, d->name);
		else if (d != NULL && (ds->dclass == DC_NONE || ds->dclass == DC_EXTERN)) {
			dtp_add_var(p, d->name);
		}
		*tail = n;
		tail = &n->next;
	} while (dtp_accept(p, T_COMMA));
	dtp_expect(p, T_SEMI);
	return head;
}

static struct dt_node *parse_inline(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_INLINE, line);

	n->decl.spec = dtp_parse_declspec(p, CLASS_D);
	n->decl.decl = dtp_parse_declarator(p, false);
	dtp_expect(p, T_ASGN);
	n->l = dtp_parse_assign(p);
	n->decl.end_line = dtp_expect(p, T_SEMI)->line;
	return n;
}

static struct dt_node *parse_translator(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_XLATOR, line);
	struct dt_node tmp;

	memset(&tmp, 0, sizeof(tmp));
	dtp_parse_type_name(p, &tmp);
	n->xlator.to_spec = tmp.tn_spec;
	n->xlator.to_decl = tmp.tn_decl;
	dtp_expect(p, T_LT);
	memset(&tmp, 0, sizeof(tmp));
	tmp.tn_spec = dtp_parse_declspec(p, CLASS_NONE);
	/* The input declarator ends with the identifier before '>'. */
	struct dt_declarator *d = dtp_parse_declarator(p, false);
	n->xlator.from_spec = tmp.tn_spec;
	n->xlator.from_decl = d;
	n->xlator.from_name = d->name;
	dtp_expect(p, T_GT);
	dtp_expect(p, T_LBRACE);
	struct dt_node *head = NULL, **tail = &head;
	while (dtp_peek_tok(p) != T_RBRACE) {
		struct dt_token m;
		dt_lex_next(&p->lx, LM_MEMBER, &m);
		if (m.tok != T_IDENT)
			dtp_syntax_error(p, &m);
		struct dt_token eq = *dtp_expect(p, T_ASGN);
		struct dt_node *mn = dt_node_new(p->pcb, N_OP2, m.line);
		mn->op = T_ASGN;
		mn->member = m.sval;
		mn->r = dtp_parse_assign(p);
		(void)eq;
		dtp_expect(p, T_SEMI);
		*tail = mn;
		tail = &mn->next;
	}
	dtp_expect(p, T_RBRACE);
	n->xlator.end_line = dtp_expect(p, T_SEMI)->line;
	n->xlator.members = head;
	return n;
}

static struct dt_node *parse_provider(struct parser *p, int line)
{
	struct dt_node *n = dt_node_new(p->pcb, N_PROVIDER, line);
	struct dt_token name = *dtp_expect(p, T_IDENT);
	struct dt_node *head = NULL, **tail = &head;

	n->provider.name = name.sval;
	dtp_expect(p, T_LBRACE);
	while (dtp_peek_tok(p) != T_RBRACE) {
		struct dt_token pk = *dtp_expect(p, K_PROBE);
		struct dt_token pn = *dtp_expect(p, T_IDENT);
		struct dt_node *pr = dt_node_new(p->pcb, N_DECL, pk.line);
		struct dt_declarator *d = dtp_mkdecl(p, DK_NAME, pn.line);
		d->name = pn.sval;
		struct dt_declarator *f = dtp_mkdecl(p, DK_FUNC, pn.line);
		dtp_expect(p, T_LPAR);
		dtp_parse_params(p, f);
		dtp_expect(p, T_RPAR);
		d->outer = f;
		pr->decl.decl = d;
		if (dtp_accept(p, T_COLON)) {
			/* Translated argument types: "probe p(a) : (b)". */
			struct dt_declarator *xf = dtp_mkdecl(p, DK_FUNC, pn.line);
			dtp_expect(p, T_LPAR);
			dtp_parse_params(p, xf);
			dtp_expect(p, T_RPAR);
			pr->l = dt_node_new(p->pcb, N_DECL, pn.line);
			pr->l->decl.decl = xf;
		}
		dtp_expect(p, T_SEMI);
		*tail = pr;
		tail = &pr->next;
	}
	dtp_expect(p, T_RBRACE);
	n->provider.end_line = dtp_expect(p, T_SEMI)->line;
	n->provider.probes = head;
	return n;
}

static int pragma_cb(struct dt_pcb *pcb, const struct dt_ctok *toks, int ntoks, int line)
{
	return dt_pragma(pcb, toks, ntoks, line);
}

void dt_parse_program(struct dt_pcb *pcb)
{
	struct parser p;
	struct dt_node *head = NULL, **tail = &head;

	memset(&p, 0, sizeof(p));
	p.pcb = pcb;
	dt_lex_init(&p.lx, pcb, pcb->src, pcb->srclen, pragma_cb);
	p.lx.is_tname = dtp_declared_typedef;
	p.lx.tname_arg = &p;

	for (;;) {
		struct dt_token t;
		const struct dt_token *pt = dt_lex_peek(&p.lx, LM_OUTER);
		struct dt_node *n;

		switch (pt->tok) {
		case T_EOF:
			/* Nothing at all (comments aside) is an error, as in DTrace. */
			if (head == NULL && !pcb->is_dlib && !pcb->is_library && !pcb->cc->core->opts.empty)
				dt_cerror(pcb, "D_EMPTY", pt->line, "empty D program translation unit");
			pcb->root = head;
			return;
		case K_INLINE:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_inline(&p, t.line);
			break;
		case K_TRANSLATOR:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_translator(&p, t.line);
			break;
		case K_PROVIDER:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_provider(&p, t.line);
			break;
		case T_PSPEC:
		case T_INT:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			n = parse_clause(&p, t);
			break;
		case T_COMMA:
		case T_DIV:
		case T_LBRACE:
			dt_lex_next(&p.lx, LM_OUTER, &t);
			dtp_syntax_error(&p, &t);
		default:
			/* Declaration keywords and type names: read them as C tokens. */
			if (pt->tok == K_COUNTER || pt->tok == K_IMPORT) {
				dt_lex_next(&p.lx, LM_OUTER, &t);
				dtp_syntax_error(&p, &t);
			}
			p.in_decl = true;
			n = parse_decl(&p);
			p.in_decl = false;
			break;
		}
		*tail = n;
		pcb->parsed = head;
		/*
		 * DTrace declares as it parses: a declaration's error comes before
		 * any later clause's syntax error.  Clauses are checked afterwards.
		 */
		for (;;) {
			pcb->nparsed++;
			if (pcb->check_as_parsed && n->kind != N_CLAUSE)
				dt_sema_toplevel(pcb, n);
			if (n->next == NULL)
				break;
			n = n->next;
		}
		tail = &n->next;
	}
}

struct dt_node *dt_parse_type_string(struct dt_pcb *pcb, const char *text)
{
	struct parser p;

	memset(&p, 0, sizeof(p));
	p.pcb = pcb;
	dt_lex_init(&p.lx, pcb, text, strlen(text), NULL);
	struct dt_node *n = dt_node_new(pcb, N_TYPEEXPR, 0);
	dtp_parse_type_name(&p, n);
	if (dtp_peek_tok(&p) != T_EOF)
		dtp_syntax_error(&p, dtp_peek(&p));
	return n;
}
