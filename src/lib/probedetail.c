/*
 * What -lv says of a probe (stability attributes, argument types), and
 * what -v says of a program: its least attributes and, with -e, what is
 * known of each of its probe descriptions.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/attr.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/program.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

static void set_attr(const char **names, struct dt_attr a)
{
	names[0] = dt_stability_name(a.name);
	names[1] = dt_stability_name(a.data);
	names[2] = dt_class_name(a.cls);
}

/*
 * Whether a translated type a provider names is known: the D library's
 * (psinfo_t, bufinfo_t ...) are not under -x nolibs, unless a program
 * declared one.
 */
static bool type_known(dtrace_hdl_t *dtp, const char *name)
{
	char base[128];
	size_t n = strlen(name);

	while (n > 0 && (name[n - 1] == '*' || name[n - 1] == ' '))
		n--;
	if (!dtp->core->opts.nolibs || strcmp(name, "string") == 0 || n >= sizeof(base))
		return true;
	memcpy(base, name, n);
	base[n] = '\0';
	return dt_type_lookup(&dtp->core->types, base) != NULL;
}

/* The argument types of prp, as DTrace's print_probe_info() lists them. */
static void arg_types(dtrace_hdl_t *dtp, const struct dt_probe *prp, dtrace_probedetail_t *pd)
{
	const struct dt_provider *pv = prp->prov;

	for (int i = 0; i < 10; i++) {
		const char *native = NULL, *xlate = NULL;
		if (pv->arg_desc != NULL) {
			if (!pv->arg_desc(dtp->reg, prp, i, &native, &xlate))
				break;
			const char *t = xlate != NULL ? xlate : native;
			snprintf(pd->argtype[i], sizeof(pd->argtype[i]), "%s",
				 type_known(dtp, t) ? t : "(unknown)");
		} else if (pv->arg_type != NULL) {
			struct dt_type *t = pv->arg_type(dtp->reg, prp, i);
			if (t == NULL)
				break;
			snprintf(pd->argtype[i], sizeof(pd->argtype[i]), "%s",
				 dt_type_str(&dtp->core->types, t));
		} else {
			break;
		}
		pd->nargs = i + 1;
	}
}

int dtrace_probe_detail(dtrace_hdl_t *dtp, uint32_t id, dtrace_probedetail_t *pd)
{
	struct dt_probe *prp = dt_probe_by_id(dtp->reg, id);

	memset(pd, 0, sizeof(*pd));
	if (prp == NULL)
		return dt_set_error(dtp->core, -ENOENT, "no probe %u", id);
	/* As DTrace: what dt_probe_info() says of the probe's own description. */
	struct dt_attr da;
	const struct dt_pattr *ctx;
	dt_pdesc_info(dtp->reg, prp->desc, prp, 1, &da, &ctx);
	set_attr(pd->attr, da);
	set_attr(pd->attr + 3, ctx->args);
	arg_types(dtp, prp, pd);
	return 0;
}

static int pdesc_detail(dtrace_hdl_t *dtp, const char *const fields[4], const struct dt_probe *first,
		    size_t nmatch, dtrace_probedetail_t *pd)
{
	struct dt_attr da;
	const struct dt_pattr *ctx;

	memset(pd, 0, sizeof(*pd));
	if (!dt_pdesc_info(dtp->reg, fields, first, nmatch, &da, &ctx))
		return -1;
	set_attr(pd->attr, da);
	/* dt_probe_info() gives the arguments' attributes of the fields it was given. */
	bool open_prov = fields[0] == NULL || fields[0][0] == '\0' ||
			 strpbrk(fields[0], "*?[\\") != NULL;
	set_attr(pd->attr + 3, open_prov ? dt_pattr_unstable.args : ctx->args);
	arg_types(dtp, first, pd);
	return 0;
}

int dtrace_prog_stability(dtrace_hdl_t *dtp, const dtrace_prog_t *pgp, const char *desc[3],
			  const char *stmt[3])
{
	/* As dtrace_program_info(): a program of no statements is Stable/Stable/Common. */
	struct dt_attr d = pgp->stmts.n > 0 ? dt_attr_max : dt_attr_default;
	struct dt_attr s = d;

	(void)dtp;
	for (size_t i = 0; i < pgp->stmts.n; i++) {
		const struct dt_stmt *st = pgp->stmts.v[i];
		for (int k = 0; k < st->npdescs && st->descattr != NULL; k++) {
			d = dt_attr_min(d, st->descattr[k]);
			s = dt_attr_min(s, st->stmtattr[k]);
		}
	}
	set_attr(desc, d);
	set_attr(stmt, s);
	return 0;
}

int dtrace_prog_pdesc_iter(dtrace_hdl_t *dtp, const dtrace_prog_t *pgp, dtrace_pdesc_f *func,
			   void *arg)
{
	for (size_t i = 0; i < pgp->stmts.n; i++) {
		const struct dt_stmt *st = pgp->stmts.v[i];
		for (int k = 0; k < st->npdescs; k++) {
			const struct dt_pdesc *pdp = st->clause->clause.pdescs[k];
			const char *fields[4] = { pdp->prov, pdp->mod, pdp->func, pdp->name };
			const struct dt_probe *first = NULL;
			size_t n = 0;
			for (size_t j = 0; j < st->probes.n; j++) {
				if (st->probe_pdesc.v[j] != k)
					continue;
				if (first == NULL)
					first = st->probes.v[j];
				n++;
			}
			/* A probe named by its id is described by its own name. */
			if (pdp->id != 0 && first != NULL)
				memcpy(fields, first->desc, sizeof(fields));
			char name[1024];
			snprintf(name, sizeof(name), "%s:%s:%s:%s", fields[0] ? fields[0] : "",
				 fields[1] ? fields[1] : "", fields[2] ? fields[2] : "",
				 fields[3] ? fields[3] : "");
			dtrace_probedetail_t pd;
			bool known = pdesc_detail(dtp, fields, first, n, &pd) == 0;
			int rc = func(dtp, name, known ? &pd : NULL, arg);
			if (rc != 0)
				return rc;
		}
	}
	return 0;
}
