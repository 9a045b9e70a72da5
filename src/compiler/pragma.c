/* Control lines: #pragma D ..., #ident, #error. */
#include "compiler/pragma.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "compiler/ident.h"
#include "compiler/pcb.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"

/* Options that only the command line may set (they affect the consumer's start). */
static bool cmdline_only(const char *name)
{
	static const char *const names[] = {
		"lockmem", "grabanon", "ldpath", "modpath", "libdir", "syslibdir", "ctfpath",
		"procfspath", "cpppath", "cpp",
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(name, names[i]) == 0)
			return true;
	return false;
}

/* "Stable/Stable/Common": up to three of name stability, data stability, class. */
static bool valid_attributes(const char *s)
{
	static const char *const stab[] = { "Internal", "Private", "Obsolete", "External",
					    "Unstable", "Evolving", "Stable", "Standard" };
	static const char *const cls[] = { "Unknown", "CPU", "Platform", "Group", "ISA",
					   "Common" };
	char buf[128];
	int part = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *save = NULL, *tok = strtok_r(buf, "/", &save); tok != NULL;
	     tok = strtok_r(NULL, "/", &save), part++) {
		const char *const *names = part < 2 ? stab : cls;
		size_t nn = part < 2 ? ARRAY_SIZE(stab) : ARRAY_SIZE(cls);
		bool ok = false;
		for (size_t i = 0; i < nn && !ok; i++)
			ok = strcasecmp(tok, names[i]) == 0;
		if (!ok || part >= 3)
			return false;
	}
	return part > 0;
}

/* A "major.minor[.micro]" version, quoted or not. */
static bool valid_version(const char *s)
{
	unsigned a, b, c;
	char q[2], tail;

	if (s[0] == '"' && sscanf(s, "\"%u.%u.%u%1[\"]%c", &a, &b, &c, q, &tail) == 4)
		return true;
	if (s[0] == '"' && sscanf(s, "\"%u.%u%1[\"]%c", &a, &b, q, &tail) == 3)
		return true;
	return sscanf(s, "%u.%u%c", &a, &b, &tail) == 2 ||
	       sscanf(s, "%u.%u.%u%c", &a, &b, &c, &tail) == 3;
}

static void note_ref(struct dt_pcb *pcb, const char *what, const char *name, int line)
{
	struct dt_pragma_ref *r = dt_palloc(pcb, sizeof(*r) * (size_t)(pcb->nprefs + 1));

	if (pcb->nprefs > 0)
		memcpy(r, pcb->prefs, sizeof(*r) * (size_t)pcb->nprefs);
	r[pcb->nprefs].what = dt_pstrdup(pcb, what);
	r[pcb->nprefs].name = dt_pstrdup(pcb, name);
	r[pcb->nprefs].line = line;
	pcb->prefs = r;
	pcb->nprefs++;
}

void dt_pragma_check_unused(struct dt_pcb *pcb)
{
	static const enum dt_idkind kinds[] = { IDK_GLOBAL, IDK_ARRAY, IDK_INLINE, IDK_TLS,
						IDK_ENUM };

	for (int i = 0; i < pcb->nprefs; i++) {
		const struct dt_pragma_ref *r = &pcb->prefs[i];
		bool used = dt_ident_builtin(pcb->hdl, r->name) != NULL;
		for (size_t k = 0; k < ARRAY_SIZE(kinds) && !used; k++)
			used = dt_ident_user(pcb->hdl, kinds[k], r->name) != NULL;
		if (!used)
			dt_cerror(pcb, "D_PRAGMA_UNUSED", r->line, "unused #pragma %s", r->what);
	}
}

static void pragma_option(struct dt_pcb *pcb, char **w, int n, int line)
{
	if (n < 3)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", line, "missing option name for #pragma option");
	if (n > 3)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", line,
			  "superfluous arguments specified for #pragma option");
	for (int i = 2; i < n; i++) {
		char *name = w[i], *val = strchr(name, '=');
		if (val)
			*val++ = '\0';
		if (cmdline_only(name)) {
			if (val != NULL)
				dt_cerror(pcb, "D_PRAGMA_OPTSET", line,
					  "failed to set option '%s' to '%s': Option cannot be used from within a D program",
					  name, val);
			dt_cerror(pcb, "D_PRAGMA_OPTSET", line,
				  "failed to set option '%s': Option cannot be used from within a D program",
				  name);
		}
		int rc = dt_option_set(pcb->hdl, name, val);
		if (rc == -ENOENT)
			dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid option name: %s", name);
		if (rc < 0) {
			if (val)
				dt_cerror(pcb, "D_PRAGMA_OPTSET", line,
					  "failed to set option '%s' to '%s': %s", name, val,
					  pcb->hdl->errmsg);
			dt_cerror(pcb, "D_PRAGMA_OPTSET", line, "failed to set option '%s': %s", name,
				  pcb->hdl->errmsg);
		}
	}
}

void dt_pragma(struct dt_pcb *pcb, char **w, int n, int line)
{
	if (strcmp(w[0], "ident") == 0)
		return;
	if (strcmp(w[0], "error") == 0) {
		struct dt_strbuf sb;
		dt_sb_init(&sb);
		for (int i = 1; i < n; i++)
			dt_sb_printf(&sb, "%s ", w[i]);
		char *m = dt_pstrdup(pcb, sb.s ? sb.s : "");
		dt_sb_free(&sb);
		dt_cerror(pcb, "D_PRAGERR", line, "#error %s", m);
	}
	if (strcmp(w[0], "pragma") != 0)
		dt_cerror(pcb, "D_PRAGCTL_INVAL", line, "invalid control directive: #%s", w[0]);
	/* Non-D pragmas are ignored, as in C. */
	if (n < 2 || strcmp(w[1], "D") != 0)
		return;
	if (n < 3)
		dt_cerror(pcb, "D_PRAGMA_MALFORM", line, "malformed #pragma D directive");
	const char *what = w[2];
	if (strcmp(what, "option") == 0) {
		pragma_option(pcb, w + 1, n - 1, line);
	} else if (strcmp(what, "depends_on") == 0) {
		if (n < 5)
			dt_cerror(pcb, "D_PRAGMA_MALFORM", line,
				  "malformed #pragma depends_on <class> <name>");
		if (strcmp(w[3], "provider") == 0) {
			if (dt_provider_lookup(pcb->hdl, w[4]) == NULL)
				dt_cerror(pcb, "D_PRAGMA_DEPEND", line,
					  "program requires provider %s", w[4]);
		} else if (strcmp(w[3], "module") != 0 && strcmp(w[3], "library") != 0) {
			dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid class %s specified by #pragma %s",
				  w[3], what);
		}
	} else if (strcmp(what, "attributes") == 0) {
		if (n < 5)
			dt_cerror(pcb, "D_PRAGMA_MALFORM", line,
				  "malformed #pragma %s <attributes> <ident>", what);
		if (!valid_attributes(w[3]))
			dt_cerror(pcb, "D_PRAGMA_INVAL", line,
				  "invalid attributes specified by #pragma %s", what);
		if (strcmp(w[4], "provider") != 0)
			note_ref(pcb, what, w[4], line);
	} else if (strcmp(what, "binding") == 0) {
		if (n < 5)
			dt_cerror(pcb, "D_PRAGMA_MALFORM", line,
				  "malformed #pragma %s \"version\" <ident>", what);
		if (!valid_version(w[3]))
			dt_cerror(pcb, "D_PRAGMA_INVAL", line,
				  "invalid version string specified by #pragma %s", what);
		note_ref(pcb, what, w[4], line);
	} else {
		dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid D pragma: %s", what);
	}
}
