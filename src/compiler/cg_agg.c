/* Aggregations: code generation. */
#include "compiler/cg.h"

void cg_agg_assign(struct dt_cg *cg, struct dt_node *n)
{
	dt_cerror(cg->pcb, "D_UNSUPPORTED", n->line, "aggregations are not supported yet");
}
