/* Probe descriptions: a specifier split into its four fields, macro variables expanded. */

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "base/probe.h"
#include "compiler/compiler.h"
#include "compiler/macros.h"
#include "compiler/parser.h"

/* a followed by n bytes of b, in the compile arena. */
static char *append(struct dt_pcb *pcb, const char *a, const char *b, size_t n)
{
	size_t alen = strlen(a);
	char *r = dt_palloc(pcb, alen + n + 1);

	memcpy(r, a, alen);
	memcpy(r + alen, b, n);
	r[alen + n] = '\0';
	return r;
}

/*
 * A probe description field with a macro reference, as DTrace reads it:
 * the first '$' (or "$$") and what follows it to the end of the field is
 * either $N (an argument, followed by any text) or $name (a macro
 * variable, alone).  NULL if it names nothing (DTrace's "Undefined macro
 * variable in probe description"); defaultargs does not apply here.
 */
static char *expand_macros(struct dt_pcb *pcb, const char *s)
{
	const char *v = strchr(s, '$');

	if (v == NULL)
		return dt_pstrdup(pcb, s);
	char *r = dt_pstrndup(pcb, s, (size_t)(v - s));
	if (v[1] == '$' && v[2] != '\0')
		v++;
	if (isdigit((unsigned char)v[1])) {
		char *w;
		errno = 0;
		long n = strtol(v + 1, &w, 10);
		if (errno != 0 || n < 0 || n >= pcb->argc)
			return NULL;
		if (pcb->argref != NULL)
			pcb->argref[n] = true;
		r = append(pcb, r, pcb->argv[n], strlen(pcb->argv[n]));
		return append(pcb, r, w, strlen(w));
	}
	if (v[1] == '\0' || !dt_macro_var_defined(v + 1))
		return NULL;
	char num[32];
	snprintf(num, sizeof(num), "%lld", (long long)dt_macro_var(pcb, v + 1, v, 0));
	return append(pcb, r, num, strlen(num));
}

struct dt_pdesc *dt_pdesc_parse(struct dt_pcb *pcb, const char *text, int kind, int line)
{
	struct dt_pdesc *d = dt_palloc(pcb, sizeof(*d));
	char *fields[4] = { NULL, NULL, NULL, NULL };
	size_t len = strlen(text);

	memset(d, 0, sizeof(*d));
	d->text = dt_pstrdup(pcb, text);
	d->line = line;
	if (kind == DTRACE_PSPEC_ID) {
		char *end;
		errno = 0;
		unsigned long long id = strtoull(text, &end, 0);
		if (isdigit((unsigned char)*text) && *end == '\0') {
			static const char *const what[] = { "names", "providers", "modules",
							    "functions" };
			if (errno != 0 || id > UINT32_MAX)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "identifier %llu exceeds maximum probe id", id);
			/* An integer names a probe only where a whole name could be given. */
			if (pcb->pspec_kind != DTRACE_PSPEC_NAME && pcb->pspec_kind != DTRACE_PSPEC_ID)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "probe identifier %llu not permitted when specifying %s", id,
					  what[pcb->pspec_kind]);
			/* Ids are numbered over every provider's probes. */
			dt_probes_populate_all(pcb->cc->reg);
			if (id == 0 || dt_probe_by_id(pcb->cc->reg, (uint32_t)id) == NULL)
				dt_cerror(pcb, "D_PDESC_INVAL", line,
					  "invalid probe identifier %llu: Unknown probe identifier", id);
			d->id = (unsigned long)id;
			d->prov = d->mod = d->func = d->name = "";
			return d;
		}
		kind = DTRACE_PSPEC_NAME;
	}
	/*
	 * As DTrace: fields are taken from the right, the last one naming what
	 * the option (-P/-m/-f/-n) names; a field too many overspecifies.
	 */
	int field = kind == DTRACE_PSPEC_PROVIDER ? 0 : kind == DTRACE_PSPEC_MODULE ? 1
		    : kind == DTRACE_PSPEC_FUNC ? 2 : 3;
	long p = (long)len - 1;
	do {
		long end = p;
		while (p >= 0 && text[p] != ':')
			p--;
		char *f = expand_macros(pcb, dt_pstrndup(pcb, text + p + 1, (size_t)(end - p)));
		if (f == NULL)
			dt_cerror(pcb, "D_PDESC_INVAL", line,
				  "invalid probe description \"%s\": Undefined macro variable in probe "
				  "description", text);
		if (field < 0)
			dt_cerror(pcb, "D_PDESC_INVAL", line,
				  "invalid probe description \"%s\": Overspecified probe description",
				  text);
		fields[field] = f;
		field--;
	} while (--p >= 0);
	d->prov = fields[0] ? fields[0] : "";
	d->mod = fields[1] ? fields[1] : "";
	d->func = fields[2] ? fields[2] : "";
	d->name = fields[3] ? fields[3] : "";
	return d;
}
