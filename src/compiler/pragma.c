/*
 * Control lines (DTrace's dt_pragma.c rules): #pragma D option, attributes,
 * binding, depends_on; #error, #ident, #line and cpp's line markers, in
 * any of the forms DTrace accepts ("#error", "#pragma error",
 * "#pragma D error" ...).
 */
#include "compiler/pragma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/attr.h"
#include "base/core.h"
#include "base/optval.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "compiler/compiler.h"
#include "compiler/dlib.h"
#include "compiler/ident.h"
#include "compiler/pcb.h"

/* Where a directive may appear: after '#', after "#pragma", after "#pragma D". */
enum { PK_DIR, PK_SUB, PK_DCP };

struct pctx {
	struct dt_pcb *pcb;
	const char *name;		/* the directive, for messages */
	int line;			/* the control line's own line */
	int next_line;			/* the line after it (a line directive changes it) */
};

/* The kinds of global identifier a pragma may name. */
static const enum dt_idkind pragma_kinds[] = { IDK_GLOBAL, IDK_ARRAY, IDK_INLINE, IDK_ENUM };

/*
 * A global identifier that another program created (built-in, library,
 * earlier program): this one's own declarations, checked as they are
 * parsed, may already be there.
 */
static bool defined_outside(struct dt_pcb *pcb, const char *name)
{
	struct dt_compiler *cc = pcb->cc;

	if (dt_ident_builtin(cc, name) != NULL)
		return true;
	for (int pass = 0; pass < 3; pass++) {
		for (size_t k = 0; k < ARRAY_SIZE(pragma_kinds); k++) {
			struct dt_ident *id = dt_ident_user(cc, pragma_kinds[k], name);
			if (id != NULL && (id->program != pcb->program || pcb->program == 0))
				return true;
		}
		/* The D library's names are DTrace's too, loaded or not yet (two parts). */
		if (dt_dlib_provide(cc, name) <= 0)
			break;
	}
	return false;
}

/* A pragma after this program declared the name sets its attributes there and then, as DTrace. */
static void set_declared_attr(struct dt_pcb *pcb, const char *name, const struct dt_attr *attr)
{

	for (size_t k = 0; k < ARRAY_SIZE(pragma_kinds); k++) {
		struct dt_ident *id = dt_ident_user(pcb->cc, pragma_kinds[k], name);
		if (id != NULL && id->program == pcb->program) {
			id->attr = *attr;
			id->attr_set = true;
		}
	}
}

/* Remember an attributes/binding pragma for an identifier the program has yet to define. */
static void defer(struct pctx *c, const char *name, const struct dt_attr *attr)
{
	struct dt_pcb *pcb = c->pcb;
	struct dt_pragma_ref *r = dt_palloc(pcb, sizeof(*r) * (size_t)(pcb->nprefs + 1));

	if (pcb->nprefs > 0)
		memcpy(r, pcb->prefs, sizeof(*r) * (size_t)pcb->nprefs);
	r[pcb->nprefs].what = c->name;
	r[pcb->nprefs].name = dt_pstrdup(pcb, name);
	r[pcb->nprefs].line = c->line;
	r[pcb->nprefs].attr = attr != NULL ? *attr : dt_attr_default;
	pcb->prefs = r;
	pcb->nprefs++;
}

/* A provider of the system, or one this program declared before the pragma. */
static bool provider_known(struct dt_pcb *pcb, const char *name)
{
	int i = 0;

	if (dt_provider_lookup(pcb->cc->reg, name) != NULL)
		return true;
	for (struct dt_node *n = pcb->parsed; n != NULL && i < pcb->nparsed; n = n->next, i++)
		if (n->kind == N_PROVIDER && strcmp(n->provider.name, name) == 0)
			return true;
	return false;
}

static void pragma_attributes(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_pcb *pcb = c->pcb;
	struct dt_attr attr;

	if (n < 2 || t[0].kind != CT_IDENT || t[1].kind != CT_IDENT)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line, "malformed #pragma %s <attributes> <ident>",
			  c->name);
	if (dt_str2attr(t[0].s, &attr) < 0)
		dt_cerror(pcb, "D_PRAGMA_INVAL", c->line, "invalid attributes specified by #pragma %s",
			  c->name);
	const char *name = t[1].s;
	if (strcmp(name, "provider") == 0) {
		/* attributes <attr> provider <name> <part>: DTrace reads both words unchecked. */
		if (n < 4 || t[2].kind != CT_IDENT || t[3].kind != CT_IDENT)
			dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line,
				  "malformed #pragma %s <attributes> <ident>", c->name);
		name = t[2].s;
		if (provider_known(pcb, name)) {
			/* The provider's attributes change for the rest of the handle's life. */
			int rc = dt_pattr_set(pcb->cc->reg, name, dt_provider_lookup(pcb->cc->reg, name),
					      t[3].s, attr);
			if (rc == -ENOMEM)
				dt_cnomem(pcb);
			if (rc == 0)
				return;
			/* DTrace's message names the provider as the component and vice versa. */
			dt_cerror(pcb, "D_PRAGMA_INVAL", c->line,
				  "invalid component \"%s\" in attribute #pragma for provider %s", name,
				  t[3].s);
		}
	} else if (defined_outside(pcb, name)) {
		dt_cerror(pcb, "D_PRAGMA_SCOPE", c->line,
			  "#pragma %s cannot modify entity defined outside program scope", c->name);
	} else {
		set_declared_attr(pcb, name, &attr);
	}
	defer(c, name, &attr);
}

static void pragma_binding(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_pcb *pcb = c->pcb;
	uint32_t v;

	if (n < 2 || t[0].kind != CT_STRING || t[1].kind != CT_IDENT)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line,
			  "malformed #pragma %s \"version\" <ident>", c->name);
	if (dt_optval_version(t[0].s, &v) < 0)
		dt_cerror(pcb, "D_PRAGMA_INVAL", c->line,
			  "invalid version string specified by #pragma %s", c->name);
	if (defined_outside(pcb, t[1].s))
		dt_cerror(pcb, "D_PRAGMA_SCOPE", c->line,
			  "#pragma %s cannot modify entity defined outside program scope", c->name);
	defer(c, t[1].s, NULL);
}

/* A kernel module with type information (vmlinux, or a module with BTF). */
static bool module_present(const char *name)
{
	char path[512];
	struct stat st;

	if (strchr(name, '/') != NULL)
		return false;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", name);
	return stat(path, &st) == 0;
}

static void pragma_depends(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_pcb *pcb = c->pcb;
	bool found;

	if (n < 2 || t[0].kind != CT_IDENT || t[1].kind != CT_IDENT)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line, "malformed #pragma %s <class> <name>",
			  c->name);
	const char *cls = t[0].s, *name = t[1].s;
	if (strcmp(cls, "provider") == 0) {
		found = dt_provider_lookup(pcb->cc->reg, name) != NULL;
	} else if (strcmp(cls, "module") == 0) {
		found = module_present(name);
	} else if (strcmp(cls, "library") == 0) {
		/* Libraries are ordered by their dependencies before any is compiled (ulib.c). */
		if (!pcb->is_library && !pcb->is_dlib)
			dt_cerror(pcb, "D_PRAGMA_DEPEND", c->line,
				  "main program may not explicitly depend on a library");
		found = true;
	} else {
		dt_cerror(pcb, "D_PRAGMA_INVAL", c->line, "invalid class %s specified by #pragma %s",
			  cls, c->name);
	}
	if (!found)
		dt_cerror(pcb, "D_PRAGMA_DEPEND", c->line, "program requires %s %s", cls, name);
}

/* #error: the identifiers and strings that follow, each followed by a blank. */
static void pragma_error(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	for (int i = 0; i < n; i++)
		if (t[i].kind != CT_INT)
			dt_sb_printf(&sb, "%s ", t[i].s);
	char *m = dt_pstrdup(c->pcb, sb.s ? sb.s : "");
	dt_sb_free(&sb);
	dt_cerror(c->pcb, "D_PRAGERR", c->line, "#%s: %s", c->name, m);
}

static void pragma_ident(struct pctx *c, const struct dt_ctok *t, int n)
{
	(void)c, (void)t, (void)n;
}

static void pragma_option(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_pcb *pcb = c->pcb;
	struct dt_compiler *cc = pcb->cc;

	if (n < 1 || t[0].kind != CT_IDENT)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line, "malformed #pragma %s <option>=<val>",
			  c->name);
	if (n > 1)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line,
			  "superfluous arguments specified for #pragma %s", c->name);
	char *name = dt_pstrdup(pcb, t[0].s), *val = strchr(name, '=');
	if (val != NULL)
		*val++ = '\0';
	/* amin from a program is that compile's, from this line on (dt_opt_amin()). */
	struct dt_attr amin = cc->core->opts.amin;
	bool amin_set = cc->core->opts.amin_set;
	int rc = dt_option_set_from(cc->core, name, val, true);
	if (rc == 0 && strcmp(name, "amin") == 0) {
		pcb->amin = cc->core->opts.amin;
		pcb->amin_set = true;
		pcb->amin_line = c->line;
		cc->core->opts.amin = amin;
		cc->core->opts.amin_set = amin_set;
	}
	if (rc < 0) {
		if (val == NULL)
			dt_cerror(pcb, "D_PRAGMA_OPTSET", c->line, "failed to set option '%s': %s",
				  name, cc->core->errmsg);
		dt_cerror(pcb, "D_PRAGMA_OPTSET", c->line, "failed to set option '%s' to '%s': %s",
			  name, val, cc->core->errmsg);
	}
}

/*
 * #line N ["file" [state ...]] and cpp's "# N "file" flags": the next line
 * is N (N + 1 after "#line", DTrace counting the directive's own newline
 * again), and errors name the file unless it is the program itself.
 */
static void pragma_line(struct pctx *c, const struct dt_ctok *t, int n)
{
	struct dt_pcb *pcb = c->pcb;
	bool ok = n >= 1 && t[0].kind == CT_INT && (n < 2 || t[1].kind == CT_STRING);

	for (int i = 2; ok && i < n; i++)
		ok = t[i].kind == CT_INT;
	if (!ok)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", c->line,
			  "malformed #%s <line> [ [\"file\"] state ]", c->name);
	if (n >= 2)
		pcb->linetag = strcmp(t[1].s, "/dev/stdin") != 0 ? t[1].s : NULL;
	c->next_line = (int)t[0].ival;
}

static const struct pragmadesc {
	const char *name;
	void (*fn)(struct pctx *, const struct dt_ctok *, int);
	int kind;
} pragmas[] = {
	{ "attributes", pragma_attributes, PK_DCP },
	{ "binding", pragma_binding, PK_DCP },
	{ "depends_on", pragma_depends, PK_DCP },
	{ "error", pragma_error, PK_DIR },
	{ "ident", pragma_ident, PK_DIR },
	{ "line", pragma_line, PK_DIR },
	{ "option", pragma_option, PK_DCP },
};

int dt_pragma(struct dt_pcb *pcb, const struct dt_ctok *t, int n, int line)
{
	struct pctx c = { pcb, "line", line, line + 1 };
	int kind = PK_DIR;

	for (int i = 0; i < n; i++) {
		if (t[i].kind == CT_INT) {
			c.line = line + 1;	/* DTrace's line count is past the newline here */
			pragma_line(&c, t + i, n - i);
			return c.next_line;
		}
		/* Reported on the next line, as DTrace does before it knows the directive. */
		if (t[i].kind != CT_IDENT)
			dt_cerror(pcb, "D_PRAGCTL_INVAL", line + 1, "invalid control directive");
		if (kind == PK_DIR && strcmp(t[i].s, "pragma") == 0) {
			kind = PK_SUB;
			continue;
		}
		if (kind == PK_SUB && strcmp(t[i].s, "D") == 0) {
			kind = PK_DCP;
			continue;
		}
		for (size_t k = 0; k < ARRAY_SIZE(pragmas); k++) {
			if (pragmas[k].kind <= kind && strcmp(pragmas[k].name, t[i].s) == 0) {
				c.name = pragmas[k].name;
				pragmas[k].fn(&c, t + i + 1, n - i - 1);
				return pragmas[k].fn == pragma_line ? c.next_line + 1 : c.next_line;
			}
		}
		if (kind == PK_DIR)
			dt_cerror(pcb, "D_PRAGCTL_INVAL", line, "invalid control directive: #%s", t[i].s);
		if (kind == PK_DCP)
			dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid D pragma: %s", t[i].s);
		/* Pragmas other than D's are ignored, as C does. */
		break;
	}
	return c.next_line;
}

/* Whether a top-level declaration or inline defines the global identifier `name`. */
static bool declares(const struct dt_node *n, const char *name)
{
	const struct dt_declspec *spec = n->decl.spec;

	if (spec != NULL && spec->ts == TS_ENUM) {
		for (const struct dt_enumerator *e = spec->enums; e != NULL; e = e->next)
			if (strcmp(e->name, name) == 0)
				return true;
	}
	if (spec != NULL && (spec->dclass == DC_TYPEDEF || spec->dclass == DC_SELF ||
			     spec->dclass == DC_THIS))
		return false;
	for (const struct dt_declarator *d = n->decl.decl; d != NULL; d = d->outer)
		if (d->kind == DK_NAME && d->name != NULL && strcmp(d->name, name) == 0)
			return true;
	return false;
}

/* Whether the program defines `name` among its top-level declarations. */
static bool declared(struct dt_pcb *pcb, const char *name)
{
	for (struct dt_node *n = pcb->root; n != NULL; n = n->next) {
		if ((n->kind == N_DECL || n->kind == N_INLINE) && declares(n, name))
			return true;
	}
	return false;
}

void dt_pragma_check_unused(struct dt_pcb *pcb)
{
	for (int i = 0; i < pcb->nprefs; i++) {
		const struct dt_pragma_ref *r = &pcb->prefs[i];
		if (!declared(pcb, r->name))
			dt_cerror(pcb, "D_PRAGMA_UNUSED", r->line, "unused #pragma %s", r->what);
	}
}
