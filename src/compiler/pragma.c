/* Control lines: #pragma D ..., #ident, #error. */
#include "compiler/pragma.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

static void pragma_option(struct dt_pcb *pcb, char **w, const bool *quoted, int n, int line)
{
	/* DTrace's: an option word (not a string or number), alone. */
	uint64_t v;
	if (n < 3 || quoted[2] || dt_pragma_is_int(w[2], &v))
		dt_cerror(pcb, "D_PRAGMA_MALFORM", line, "malformed #pragma option <option>=<val>");
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

bool dt_pragma_is_int(const char *w, uint64_t *vp)
{
	char *end;

	if (!isdigit((unsigned char)w[0]))
		return false;
	errno = 0;
	*vp = strtoull(w, &end, 0);
	if (end == w + 1 && (*end == 'x' || *end == 'X'))
		return false;	/* "0x" without hex digits */
	if (*end == 'u' || *end == 'U')
		end++;
	for (int i = 0; i < 2 && *end != '\0' && strchr("lL", *end); i++)
		end++;
	return *end == '\0';
}

/* "#error words": DTrace's message, the words that are not numbers each followed by a blank. */
static _Noreturn void pragma_error(struct dt_pcb *pcb, char **w, const bool *quoted, int n,
				   int line)
{
	struct dt_strbuf sb;
	uint64_t v;

	dt_sb_init(&sb);
	for (int i = 0; i < n; i++)
		if (quoted[i] || !dt_pragma_is_int(w[i], &v))
			dt_sb_printf(&sb, "%s ", w[i]);
	char *m = dt_pstrdup(pcb, sb.s ? sb.s : "");
	dt_sb_free(&sb);
	dt_cerror(pcb, "D_PRAGERR", line, "#error: %s", m);
}

/*
 * As DTrace's dt_pragma(): "pragma" and then "D" widen what may follow;
 * error and ident are directives anywhere, option, depends_on, attributes
 * and binding only after "#pragma D".  An unknown directive is an error,
 * except after "#pragma" alone (C's rule for unknown pragmas).
 */
enum { PR_DIR, PR_SUB, PR_DCP };

void dt_pragma(struct dt_pcb *pcb, char **w, const bool *quoted, int n, int line)
{
	int kind = PR_DIR, i = 0;

	for (; i < n; i++) {
		if (quoted[i])
			dt_cerror(pcb, "D_PRAGCTL_INVAL", line, "invalid control directive");
		if (kind == PR_DIR && strcmp(w[i], "pragma") == 0)
			kind = PR_SUB;
		else if (kind == PR_SUB && strcmp(w[i], "D") == 0)
			kind = PR_DCP;
		else
			break;
	}
	if (i == n)
		return;
	if (strcmp(w[i], "ident") == 0)
		return;
	if (strcmp(w[i], "error") == 0)
		pragma_error(pcb, w + i + 1, quoted + i + 1, n - i - 1, line);
	static const char *const dcp[] = { "option", "depends_on", "attributes", "binding" };
	bool known = false;
	for (size_t k = 0; k < ARRAY_SIZE(dcp) && !known; k++)
		known = strcmp(w[i], dcp[k]) == 0;
	if (!known || kind != PR_DCP) {
		if (kind == PR_DIR)
			dt_cerror(pcb, "D_PRAGCTL_INVAL", line, "invalid control directive: #%s", w[i]);
		if (kind == PR_SUB)
			return;
		dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid D pragma: %s", w[i]);
	}
	/* Here w[0] is "pragma", w[1] "D" and w[2] the pragma's name. */
	const char *what = w[2];
	if (strcmp(what, "option") == 0) {
		pragma_option(pcb, w + 1, quoted + 1, n - 1, line);
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
