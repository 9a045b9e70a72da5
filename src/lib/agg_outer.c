/*
 * Arrays of aggregation maps.  A clause with more aggregations than a BPF
 * program may use maps reaches some through an array of maps per key and
 * value size (compiler/cg_agg.c); each aggregation keeps its own map, which
 * the consumer reads as any other.  The kernel creates an array of maps
 * from a map like the ones it will hold, and takes only maps like it.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "bpf/runtime.h"
#include "lib/agg_outer.h"
#include "lib/dt_impl.h"

int dt_agg_outer_prepare(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	const struct dt_descs *d = dtp->cc->descs;

	for (size_t i = 0; i < d->agg_outer.n; i++) {
		const struct dt_aggouter *o = d->agg_outer.v[i];
		struct bpf_map *m = bpf_object__find_map_by_name(rt->obj, o->name);
		if (m == NULL)
			return dt_set_error(dtp->core, -ENOENT, "map %s missing", o->name);
		LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
		int fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, NULL, o->key_size, o->value_size, 1,
					&opts);
		if (fd < 0)
			return dt_set_error(dtp->core, -errno, "cannot create the model of map %s: %s",
					    o->name, strerror(errno));
		if (dt_vec_push(&rt->outer_models, fd) < 0) {
			close(fd);
			return dt_set_error(dtp->core, -ENOMEM, "out of memory");
		}
		int rc = bpf_map__set_inner_map_fd(m, fd);
		if (rc < 0)
			return dt_set_error(dtp->core, rc, "map %s: %s", o->name, strerror(-rc));
	}
	return 0;
}

int dt_agg_outer_fill(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	const struct dt_descs *d = dtp->cc->descs;

	for (size_t i = 0; i < d->aggs.n; i++) {
		const struct dt_aggdesc *ad = d->aggs.v[i];
		if (ad->outer < 0)
			continue;
		const struct dt_aggouter *o = d->agg_outer.v[ad->outer];
		struct bpf_map *om = bpf_object__find_map_by_name(rt->obj, o->name);
		struct bpf_map *am = bpf_object__find_map_by_name(rt->obj, ad->map_name);
		if (om == NULL || am == NULL)
			return dt_set_error(dtp->core, -ENOENT, "map %s missing",
					    om == NULL ? o->name : ad->map_name);
		uint32_t slot = ad->outer_slot;
		int fd = bpf_map__fd(am);
		if (bpf_map_update_elem(bpf_map__fd(om), &slot, &fd, BPF_ANY) < 0)
			return dt_set_error(dtp->core, -errno, "cannot put map %s in %s: %s",
					    ad->map_name, o->name, strerror(errno));
	}
	return 0;
}

void dt_agg_outer_release(struct dt_runtime *rt)
{
	for (size_t i = 0; i < rt->outer_models.n; i++)
		close(rt->outer_models.v[i]);
	dt_vec_free(&rt->outer_models);
}
