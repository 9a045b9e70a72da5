/*
 * Consecutive clauses, as many as one program's limits allow, per program
 * of a chain.  Greedy filling gives the fewest programs: the costs add up
 * and the order is fixed.
 */
#include <errno.h>
#include <stdio.h>

#include "compiler/chain_plan.h"

void dt_chain_limits_default(struct dt_chain_limits *lim, size_t error_funcs)
{
	size_t reserved = DT_CHAIN_FUNCS_RESERVED + error_funcs;

	lim->max_funcs = reserved < DT_BPF_MAX_SUBPROGS ? DT_BPF_MAX_SUBPROGS - reserved : 1;
	lim->max_insns = DT_CHAIN_MAX_INSNS;
	lim->max_progs = DT_BPF_MAX_TAIL_CALLS + 1;
}

int dt_chain_plan(const struct dt_clause_cost *cost, size_t n, const struct dt_chain_limits *lim,
		  size_t *ends)
{
	size_t nseg = 0, funcs = 0, insns = 0;

	for (size_t i = 0; i < n; i++) {
		/* A segment takes at least one clause, whatever it costs. */
		if (i > 0 && (funcs + cost[i].funcs > lim->max_funcs ||
			      insns + cost[i].insns > lim->max_insns)) {
			ends[nseg++] = i;
			funcs = insns = 0;
		}
		funcs += cost[i].funcs;
		insns += cost[i].insns;
	}
	if (n > 0)
		ends[nseg++] = n;
	return nseg > lim->max_progs ? -E2BIG : (int)nseg;
}

void dt_chain_prog_name(const char *head, unsigned k, char *buf, size_t size)
{
	snprintf(buf, size, "%s_t%u", head, k);
}

void dt_chain_map_name(const char *head, char *buf, size_t size)
{
	snprintf(buf, size, "%s_chain", head);
}
