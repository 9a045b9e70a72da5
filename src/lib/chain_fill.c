/*
 * A group whose clauses do not fit in one program runs a chain of them
 * (compiler/cg_chain.c): its program, then program k found by tail call
 * at index k of the chain's program array.  The array holds the programs
 * while the object is open; closing the object's last map fd empties it.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/provider.h"
#include "bpf/runtime.h"
#include "compiler/chain_plan.h"
#include "lib/chain_fill.h"
#include "lib/dt_impl.h"

typedef int (*chain_fn)(dtrace_hdl_t *dtp, struct dt_group *g, const char *head, unsigned k,
			struct bpf_program *p, struct bpf_map *m);

/* Call fn for each chained program (k >= 1) of each chain of each group. */
static int each_link(dtrace_hdl_t *dtp, struct dt_runtime *rt, chain_fn fn)
{
	char head[48], name[64];
	int rc;

	for (size_t i = 0; i < rt->ps.groups.n; i++) {
		struct dt_group *g = rt->ps.groups.v[i];
		if (g->nsegs <= 1 || g->fn == NULL)
			continue;
		unsigned copies = g->mech->copies ? g->mech->copies(dtp->reg, g) : 0;
		for (unsigned c = 0; c <= copies; c++) {
			snprintf(head, sizeof(head), c ? "%s_%u" : "%s", g->name, c);
			dt_chain_map_name(head, name, sizeof(name));
			struct bpf_map *m = bpf_object__find_map_by_name(rt->obj, name);
			if (m == NULL)
				return dt_set_error(dtp->core, -ENOENT, "map %s missing", name);
			for (unsigned k = 1; k < g->nsegs; k++) {
				dt_chain_prog_name(head, k, name, sizeof(name));
				struct bpf_program *p = bpf_object__find_program_by_name(rt->obj, name);
				if (p == NULL)
					return dt_set_error(dtp->core, -ENOENT, "program %s missing",
							    name);
				if ((rc = fn(dtp, g, head, k, p, m)) < 0)
					return rc;
			}
		}
	}
	return 0;
}

static int prepare_one(dtrace_hdl_t *dtp, struct dt_group *g, const char *head, unsigned k,
		       struct bpf_program *p, struct bpf_map *m)
{
	(void)head, (void)k, (void)m;
	return g->mech->prepare != NULL ? g->mech->prepare(dtp->reg, g, p) : 0;
}

static int fill_one(dtrace_hdl_t *dtp, struct dt_group *g, const char *head, unsigned k,
		    struct bpf_program *p, struct bpf_map *m)
{
	uint32_t key = k;
	int fd = bpf_program__fd(p);

	(void)g;
	if (fd < 0 || bpf_map_update_elem(bpf_map__fd(m), &key, &fd, BPF_ANY) < 0)
		return dt_set_error(dtp->core, fd < 0 ? fd : -errno,
				    "cannot chain program %u of %s: %s", k, head,
				    strerror(fd < 0 ? -fd : errno));
	return 0;
}

int dt_chain_prepare(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	return each_link(dtp, rt, prepare_one);
}

int dt_chain_fill(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	return each_link(dtp, rt, fill_one);
}
