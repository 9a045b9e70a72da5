/*
 * Consecutive clauses, as many as one program's limits allow, per program
 * of a chain.  Greedy filling gives the fewest programs: the costs add up
 * and the order is fixed.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/chain_plan.h"

void dt_chain_limits_default(struct dt_chain_limits *lim, size_t error_funcs, size_t error_maps)
{
	size_t reserved = DT_CHAIN_FUNCS_RESERVED + error_funcs;
	size_t mreserved = DT_CHAIN_MAPS_RESERVED + error_maps;

	lim->max_funcs = reserved < DT_BPF_MAX_SUBPROGS ? DT_BPF_MAX_SUBPROGS - reserved : 1;
	lim->max_insns = DT_CHAIN_MAX_INSNS;
	lim->max_progs = DT_BPF_MAX_TAIL_CALLS + 1;
	lim->max_maps = mreserved < DT_BPF_MAX_USED_MAPS ? DT_BPF_MAX_USED_MAPS - mreserved : 1;
}

/* The distinct maps of the segment being filled. */
struct map_set {
	const char **v;
	size_t n, cap;
};

static bool set_has(const struct map_set *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], name) == 0)
			return true;
	return false;
}

/* Maps of clause c that the segment does not use yet. */
static size_t new_maps(const struct map_set *s, const struct dt_clause_cost *c)
{
	size_t k = 0;

	for (size_t i = 0; i < c->nmaps; i++)
		k += !set_has(s, c->maps[i]);
	return k;
}

static int set_add(struct map_set *s, const struct dt_clause_cost *c)
{
	for (size_t i = 0; i < c->nmaps; i++) {
		if (set_has(s, c->maps[i]))
			continue;
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 64;
			const char **v = realloc(s->v, cap * sizeof(*v));
			if (v == NULL)
				return -ENOMEM;
			s->v = v, s->cap = cap;
		}
		s->v[s->n++] = c->maps[i];
	}
	return 0;
}

int dt_chain_plan(const struct dt_clause_cost *cost, size_t n, const struct dt_chain_limits *lim,
		  size_t *ends)
{
	size_t nseg = 0, funcs = 0, insns = 0;
	struct map_set maps = { 0 };

	for (size_t i = 0; i < n; i++) {
		bool maps_full = lim->max_maps > 0 &&
				 maps.n + new_maps(&maps, &cost[i]) > lim->max_maps;
		/* A segment takes at least one clause, whatever it costs. */
		if (i > 0 && (funcs + cost[i].funcs > lim->max_funcs ||
			      insns + cost[i].insns > lim->max_insns || maps_full)) {
			ends[nseg++] = i;
			funcs = insns = 0;
			maps.n = 0;
		}
		funcs += cost[i].funcs;
		insns += cost[i].insns;
		if (lim->max_maps > 0 && set_add(&maps, &cost[i]) < 0) {
			free(maps.v);
			return -ENOMEM;
		}
	}
	free(maps.v);
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
