/* Control lines: #pragma D ..., #ident, #error. */
#include "compiler/pragma.h"

#include <errno.h>
#include <string.h>

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
	} else if (strcmp(what, "attributes") == 0 || strcmp(what, "binding") == 0) {
		if (n < 5)
			dt_cerror(pcb, "D_PRAGMA_MALFORM", line,
				  "malformed #pragma %s <attributes> <ident>", what);
	} else {
		dt_cerror(pcb, "D_PRAGMA_INVAL", line, "invalid D pragma: %s", what);
	}
}
