/* Probe listing for dtrace -l. */
#include <errno.h>
#include <string.h>

#include "base/probe.h"
#include "compiler/ast.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"

struct list_ctx {
	dtrace_hdl_t *dtp;
	dtrace_probe_f *func;
	void *arg;
};

static int list_one(struct dt_registry *reg, struct dt_probe *prp, void *arg)
{
	struct list_ctx *lc = arg;
	dtrace_probeinfo_t pi = { prp->id, prp->desc[0], prp->desc[1], prp->desc[2], prp->desc[3] };

	(void)reg;
	return lc->func ? lc->func(lc->dtp, &pi, lc->arg) : 0;
}

int dtrace_probe_iter(dtrace_hdl_t *dtp, const char *desc, enum dtrace_pspec kind,
		      dtrace_probe_f *func, void *arg)
{
	struct list_ctx lc = { dtp, func, arg };
	struct dt_pdesc pd;

	(void)kind;
	memset(&pd, 0, sizeof(pd));
	pd.prov = pd.mod = pd.func = pd.name = "";
	if (desc != NULL)
		return dt_set_error(dtp->core, -EINVAL, "descriptions must be compiled first");
	if (dt_probes_populate_all(dtp->reg) < 0)
		return dt_set_error(dtp->core, -EIO, "failed to list probes");
	return dt_probe_match(dtp->reg, &pd, list_one, &lc);
}

int dtrace_prog_list(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_probe_f *func,
		     dtrace_nomatch_f *nomatch, void *arg)
{
	struct list_ctx lc = { dtp, func, arg };
	int total = 0;

	for (size_t i = 0; i < pgp->stmts.n; i++) {
		struct dt_node *c = pgp->stmts.v[i]->clause;
		for (int j = 0; j < c->clause.npdescs; j++) {
			struct dt_pdesc *pd = c->clause.pdescs[j];
			int n = dt_probe_match(dtp->reg, pd, list_one, &lc);
			if (n == 0 && nomatch != NULL) {
				char buf[512];
				snprintf(buf, sizeof(buf), "%s:%s:%s:%s", pd->prov, pd->mod, pd->func,
					 pd->name);
				nomatch(dtp, buf, arg);
			}
			if (n > 0)
				total += n;
		}
	}
	return total;
}

pid_t dtrace_target_pid(const dtrace_hdl_t *dtp)
{
	return dtp->procs->target_pid;
}
