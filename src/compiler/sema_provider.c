/*
 * Provider declarations ("provider p { probe x(int) : (long); };"), checked
 * as DTrace checks them (dt_node_provider, dt_node_probe and
 * dt_cook_provider): the provider's name, the length of the probes'
 * argument lists, a probe declared twice, a provider declared again with
 * a different interface, and translated arguments without a translator.
 */
#include <ctype.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/pcb.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

/* DTrace's limits: provider names below DTRACE_PROVNAMELEN, arguments in a uint8_t. */
#define PROVNAMELEN 64
#define MAX_PROBE_ARGS 255

struct args {
	int n;
	struct dt_type **types;
	const char **names;
};

static const struct dt_declarator *probe_func(const struct dt_node *pr)
{
	const struct dt_declarator *d = pr->decl.decl;

	return d != NULL ? d->outer : NULL;
}

/* A parameter list's types ("(void)" has none). */
static void param_types(struct dt_pcb *pcb, const struct dt_declarator *f, struct args *a)
{
	int n = f != NULL ? dt_node_list_len(f->params) : 0;

	a->n = 0;
	a->types = dt_palloc(pcb, sizeof(*a->types) * (size_t)(n + 1));
	a->names = dt_palloc(pcb, sizeof(*a->names) * (size_t)(n + 1));
	for (struct dt_node *p = f != NULL ? f->params : NULL; p != NULL; p = p->next) {
		const char *name = NULL;
		struct dt_type *t = dt_sema_typename(pcb, p->decl.spec, p->decl.decl, &name);
		if (dt_type_is_void(t) && n == 1 && name == NULL)
			break;
		p->type = t;	/* for the types dtrace -h and -G record (usdt_types.h) */
		a->types[a->n] = t;
		a->names[a->n++] = name;
	}
}

struct probe_args {
	struct args in, out;	/* out is in when the probe translates nothing */
	bool translated;
};

static void probe_args(struct dt_pcb *pcb, const struct dt_node *pr, struct probe_args *pa)
{
	param_types(pcb, probe_func(pr), &pa->in);
	pa->translated = pr->l != NULL;
	if (pa->translated)
		param_types(pcb, pr->l->decl.decl, &pa->out);
	else
		pa->out = pa->in;
}

static const char *probe_name(const struct dt_node *pr)
{
	return pr->decl.decl != NULL && pr->decl.decl->name != NULL ? pr->decl.decl->name : "";
}

static const struct dt_node *find_probe(const struct dt_node *prov, const struct dt_node *upto,
					const char *name)
{
	for (const struct dt_node *pr = prov->provider.probes; pr != NULL && pr != upto;
	     pr = pr->next)
		if (strcmp(probe_name(pr), name) == 0)
			return pr;
	return NULL;
}

/* An earlier declaration of the provider: in earlier programs, or earlier in this one. */
static const struct dt_node *previous(struct dt_pcb *pcb, const struct dt_node *n)
{
	struct dt_compiler *cc = pcb->cc;
	const char *name = n->provider.name;

	for (size_t i = 0; i < cc->progs.n; i++) {
		const dtrace_prog_t *pgp = cc->progs.v[i];
		for (size_t j = 0; j < pgp->nproviders; j++)
			if (strcmp(pgp->providers[j]->provider.name, name) == 0)
				return pgp->providers[j];
	}
	/* (The program's nodes as parsed so far: a provider is checked once parsed.) */
	for (const struct dt_node *p = pcb->parsed; p != NULL && p != n; p = p->next)
		if (p->kind == N_PROVIDER && strcmp(p->provider.name, name) == 0)
			return p;
	return NULL;
}

static bool strcompat(struct dt_type *t)
{
	struct dt_type *b = dt_type_base(t);

	return dt_type_is_string(b) || dt_type_is_charptr(b) ||
	       (b->kind == TK_ARRAY && b->base != NULL && dt_type_base(b->base)->is_char);
}

/* DTrace's dt_node_is_argcompat: whether a value of type a may be passed as b. */
static bool argcompat(struct dt_type *a, struct dt_type *b)
{
	struct dt_type *x = dt_type_base(a), *y = dt_type_base(b);

	if (dt_type_is_integer(x) && dt_type_is_integer(y))
		return true;
	if (strcompat(x) && strcompat(y))
		return true;
	if (x->kind == TK_PTR && y->kind == TK_PTR) {
		struct dt_type *xb = dt_type_base(x->base), *yb = dt_type_base(y->base);
		return dt_type_is_void(xb) || dt_type_is_void(yb) || dt_type_equal(xb, yb);
	}
	return dt_type_equal(x, y);
}

static void type_str(struct dt_type *t, char *buf, size_t len)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	dt_type_name(t, &sb);
	snprintf(buf, len, "%s", sb.s ? sb.s : "?");
	dt_sb_free(&sb);
}

static void compare_args(struct dt_pcb *pcb, const char *prov, const struct dt_node *pr,
			 const char *kind, const struct args *old, const struct args *cur)
{
	if (old->n != cur->n)
		dt_cerror(pcb, "D_PROV_INCOMPAT", pr->line,
			  "probe %s:%s %s prototype mismatch:\n\t current: %d arg%s\n\tprevious: %d arg%s",
			  prov, probe_name(pr), kind, cur->n, cur->n != 1 ? "s" : "", old->n,
			  old->n != 1 ? "s" : "");
	for (int i = 0; i < old->n; i++) {
		if (dt_type_equal(old->types[i], cur->types[i]))
			continue;
		char a[256], b[256];
		type_str(cur->types[i], a, sizeof(a));
		type_str(old->types[i], b, sizeof(b));
		dt_cerror(pcb, "D_PROV_INCOMPAT", pr->line,
			  "probe %s:%s %s prototype argument #%d mismatch:\n\t current: %s\n\tprevious: %s",
			  prov, probe_name(pr), kind, i + 1, a, b);
	}
}

/* Every translated argument needs a translator from its native argument, or compatible types. */
static void check_xlators(struct dt_pcb *pcb, const char *prov, const struct dt_node *pr,
			  const struct probe_args *pa)
{
	if (!pa->translated)
		return;
	for (int i = 0; i < pa->out.n; i++) {
		/* An output argument named as an input one takes that one; else the same position. */
		int k = i;
		for (int j = 0; pa->out.names[i] != NULL && j < pa->in.n; j++)
			if (pa->in.names[j] != NULL && strcmp(pa->in.names[j], pa->out.names[i]) == 0)
				k = j;
		if (k >= pa->in.n)
			continue;
		struct dt_type *src = pa->in.types[k], *dst = pa->out.types[i];
		/* A translator to T also translates to T * (DTrace's fuzzy lookup). */
		struct dt_type *to = dt_type_is_pointer(dst) ? dt_type_base(dst)->base : dst;
		if (dt_xlator_find(pcb->cc, src, to) != NULL || argcompat(src, dst))
			continue;
		char a[256], b[256];
		type_str(src, a, sizeof(a));
		type_str(dst, b, sizeof(b));
		dt_cerror(pcb, "D_PROV_PRXLATOR", pr->line,
			  "translator for %s:%s output argument #%d from %s to %s is not defined", prov,
			  probe_name(pr), i + 1, a, b);
	}
}

void dt_sema_provider(struct dt_pcb *pcb, struct dt_node *n)
{
	const char *name = n->provider.name;
	size_t len = strlen(name);
	int line = n->provider.end_line ? n->provider.end_line : n->line;

	if (strchr(name, '`') != NULL)
		dt_cerror(pcb, "D_PROV_BADNAME", line,
			  "provider name may not contain scoping operator: %s", name);
	if (len >= PROVNAMELEN)
		dt_cerror(pcb, "D_PROV_BADNAME", line,
			  "provider name may not exceed %d characters: %s", PROVNAMELEN - 1, name);
	if (len > 0 && isdigit((unsigned char)name[len - 1]))
		dt_cerror(pcb, "D_PROV_BADNAME", line, "provider name may not end with a digit: %s",
			  name);

	const struct dt_node *prev = previous(pcb, n);
	const struct dt_provider *sys = prev == NULL ? dt_provider_lookup(pcb->cc->reg, name) : NULL;
	for (const struct dt_node *pr = n->provider.probes; pr != NULL; pr = pr->next) {
		struct probe_args pa;
		const char *pname = probe_name(pr);
		probe_args(pcb, pr, &pa);
		if (pa.in.n > MAX_PROBE_ARGS)
			dt_cerror(pcb, "D_PROV_PRARGLEN", pr->line,
				  "probe %s input prototype exceeds %u parameters: %d params used", pname,
				  MAX_PROBE_ARGS, pa.in.n);
		if (pa.out.n > MAX_PROBE_ARGS)
			dt_cerror(pcb, "D_PROV_PRARGLEN", pr->line,
				  "probe %s output prototype exceeds %u parameters: %d params used", pname,
				  MAX_PROBE_ARGS, pa.out.n);
		const struct dt_node *old = prev != NULL ? find_probe(prev, NULL, pname) : NULL;
		bool exists = old != NULL;
		/* A system provider: the probe must be one of its probes (of any module or function). */
		if (sys != NULL) {
			struct dt_pdesc pd = { .prov = (char *)name, .mod = "", .func = "",
					       .name = (char *)pname };
			exists = dt_probe_match(pcb->cc->reg, &pd, NULL, NULL) > 0;
		}
		if ((prev != NULL || sys != NULL) && !exists)
			dt_cerror(pcb, "D_PROV_INCOMPAT", pr->line,
				  "provider interface mismatch: %s\n\t current: probe %s:%s defined\n"
				  "\tprevious: probe %s:%s not defined", name, name, pname, name, pname);
		if (old != NULL) {
			struct probe_args po;
			probe_args(pcb, old, &po);
			compare_args(pcb, name, pr, "output", &po.out, &pa.out);
			if (po.translated && pa.translated)
				compare_args(pcb, name, pr, "input", &po.in, &pa.in);
		} else if (prev == NULL && sys == NULL && find_probe(n, pr, pname) != NULL) {
			dt_cerror(pcb, "D_PROV_PRDUP", pr->line, "probe redeclared: %s:%s", name, pname);
		}
		check_xlators(pcb, name, pr, &pa);
	}
}
