/* Semantic checks of probe argument types; aggregating function names. */
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

const char *dt_agg_func_name(int code)
{
	static const char *const names[] = { "count", "sum", "avg", "min", "max", "stddev",
					     "quantize", "lquantize", "llquantize" };

	return code >= 0 && code < (int)ARRAY_SIZE(names) ? names[code] : "?";
}
