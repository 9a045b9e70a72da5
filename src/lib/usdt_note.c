/* The types notes of dtrace -h and -G (usdt_note.h). */
#include "lib/usdt_note.h"

#include <string.h>

#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"

const struct dt_node *dt_usdt_decl_probe(dtrace_hdl_t *dtp, const char *prov, const char *probe)
{
	for (size_t i = 0; i < dtp->cc->progs.n; i++) {
		const dtrace_prog_t *pgp = dtp->cc->progs.v[i];
		for (size_t j = 0; j < pgp->nproviders; j++) {
			const struct dt_node *pv = pgp->providers[j];
			if (strcmp(pv->provider.name, prov) != 0)
				continue;
			for (const struct dt_node *pr = pv->provider.probes; pr; pr = pr->next)
				if (strcmp(pr->decl.decl->name, probe) == 0)
					return pr;
		}
	}
	return NULL;
}

/* A parameter list ("(void)" is empty: the checks left no type on it); NULL if none. */
static const struct dt_node *params(const struct dt_declarator *d)
{
	while (d != NULL && d->kind != DK_FUNC)
		d = d->outer;
	const struct dt_node *p = d != NULL ? d->params : NULL;
	return p != NULL && p->next == NULL && p->type == NULL ? NULL : p;
}

static const char *param_name(const struct dt_node *p)
{
	for (const struct dt_declarator *d = p->decl.decl; d != NULL; d = d->outer)
		if (d->kind == DK_NAME)
			return d->name;
	return NULL;
}

/* A type's D name, or NULL if it has none a note can hold. */
static const char *type_name(dtrace_hdl_t *dtp, struct dt_type *t)
{
	const char *s = t != NULL ? dt_type_str(&dtp->core->types, t) : NULL;

	if (s == NULL || s[0] == '\0' || strchr(s, '"') != NULL || strchr(s, '\\') != NULL)
		return NULL;
	return s;
}

int dt_usdt_decl_argmap(const struct dt_node *probe, int *map)
{
	const struct dt_node *in = params(probe->decl.decl);
	const struct dt_node *out = probe->l != NULL ? params(probe->l->decl.decl) : in;
	int n = 0, nin = 0;

	for (const struct dt_node *p = in; p != NULL; p = p->next)
		nin++;
	for (const struct dt_node *o = out; o != NULL; o = o->next, n++) {
		if (n >= DT_USDT_TYPES_MAX)
			return -1;
		/* sema_provider's rule: the input argument of its name, else the one in its place. */
		int k = n, j = 0;
		const char *name = out != in ? param_name(o) : NULL;
		for (const struct dt_node *p = in; name != NULL && p != NULL; p = p->next, j++)
			if (param_name(p) != NULL && strcmp(param_name(p), name) == 0)
				k = j;
		if (k >= nin)
			return -1;
		map[n] = k;
	}
	return n;
}

/* The k-th parameter of a list. */
static const struct dt_node *nth(const struct dt_node *p, int k)
{
	while (p != NULL && k-- > 0)
		p = p->next;
	return p;
}

int dt_usdt_decl_types(dtrace_hdl_t *dtp, const struct dt_node *probe, const char **native,
		       const char **xlate)
{
	const struct dt_node *in = params(probe->decl.decl);
	const struct dt_node *out = probe->l != NULL ? params(probe->l->decl.decl) : in;
	int map[DT_USDT_TYPES_MAX];
	int n = dt_usdt_decl_argmap(probe, map);

	for (int i = 0; i < n; i++) {
		const struct dt_node *src = nth(in, map[i]), *o = nth(out, i);
		native[i] = type_name(dtp, src->type);
		xlate[i] = NULL;
		if (native[i] == NULL)
			return -1;
		if (out == in)
			continue;
		struct dt_type *a = dt_type_base(src->type), *b = dt_type_base(o->type);
		if (b == NULL)
			return -1;
		/* An integer as another: its value, of the declared type. */
		if (dt_type_is_integer(a) && dt_type_is_integer(b)) {
			native[i] = type_name(dtp, o->type);
			if (native[i] == NULL)
				return -1;
		} else if (!dt_type_equal(a, b) && (xlate[i] = type_name(dtp, o->type)) == NULL) {
			return -1;
		}
	}
	return n;
}

void dt_usdt_note_asm(FILE *fp, dtrace_hdl_t *dtp, const char *prov, const struct dt_node *probe)
{
	const char *native[DT_USDT_TYPES_MAX], *xlate[DT_USDT_TYPES_MAX];
	const char *name = probe->decl.decl->name;
	int n = dt_usdt_decl_types(dtp, probe, native, xlate);

	/* One note per probe in a program: a group the linker keeps one of. */
	fprintf(fp, "__asm__(\".pushsection %s,\\\"G\\\",@note,__dtrace_types_%s___%s,comdat\\n\"\n",
		DT_USDT_TYPES_SECTION, prov, name);
	fprintf(fp, "\t\"\\t.balign 4\\n\"\n");
	fprintf(fp, "\t\"\\t.4byte 2f-1f, 4f-3f, %d\\n\"\n", DT_USDT_TYPES_NOTE);
	fprintf(fp, "\t\"1:\\t.asciz \\\"%s\\\"\\n\"\n", DT_USDT_TYPES_OWNER);
	fprintf(fp, "\t\"2:\\t.balign 4\\n\"\n");
	fprintf(fp, "\t\"3:\\t.asciz \\\"%s\\\"\\n\"\n", prov);
	fprintf(fp, "\t\"\\t.asciz \\\"%s\\\"\\n\"\n", name);
	for (int i = 0; i < (n < 0 ? 1 : n); i++) {
		const char *t = n < 0 ? DT_USDT_UNTYPED : native[i];
		const char *x = n < 0 || xlate[i] == NULL ? "" : xlate[i];
		fprintf(fp, "\t\"\\t.asciz \\\"%s\\\"\\n\"\n", t);
		fprintf(fp, "\t\"\\t.asciz \\\"%s\\\"\\n\"\n", x);
	}
	fprintf(fp, "\t\"4:\\t.balign 4\\n\"\n");
	fprintf(fp, "\t\"\\t.popsection\\n\");\n");
}
