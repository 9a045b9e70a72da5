/* Semantic checks of translators, xlate and probe argument types. */
#include <string.h>

#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/types.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"
#include "providers/provider.h"

struct dt_type *dt_sema_args_type(struct dt_pcb *pcb, int i)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;

	if (st != NULL && st->probes.n > 0) {
		struct dt_probe *prp = st->probes.v[0];
		if (prp->prov->arg_type != NULL) {
			struct dt_type *t = prp->prov->arg_type(pcb->hdl, prp, i);
			if (t != NULL)
				return t;
		}
	}
	return pcb->hdl->types.t_int64;
}

void dt_sema_args_check(struct dt_pcb *pcb, int i, int line)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;

	if (st == NULL || st->probes.n == 0)
		return;
	struct dt_probe *prp = st->probes.v[0];
	int n = prp->prov->arg_count ? prp->prov->arg_count(pcb->hdl, prp) : -1;
	if (n >= 0 && i >= n) {
		char name[512];
		dt_cerror(pcb, "D_ARGS_IDX", line, "index %d is out of range for %s args[ ]", i,
			  dt_probe_fullname(prp, name, sizeof(name)));
	}
}

void dt_sema_translator(struct dt_pcb *pcb, struct dt_node *n)
{
	dt_cerror(pcb, "D_UNSUPPORTED", n->line, "translator definitions are not supported yet");
}

void dt_sema_xlate(struct dt_pcb *pcb, struct dt_node *n)
{
	dt_cerror(pcb, "D_UNSUPPORTED", n->line, "xlate is not supported yet");
}

const char *dt_agg_func_name(int code)
{
	static const char *const names[] = { "count", "sum", "avg", "min", "max", "stddev",
					     "quantize", "lquantize", "llquantize" };

	return code >= 0 && code < (int)ARRAY_SIZE(names) ? names[code] : "?";
}
