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
#include <stdlib.h>
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
		/* Made as cg_prog.c makes the maps the array holds. */
		LIBBPF_OPTS(bpf_map_create_opts, opts,
			    .map_flags = o->keyless ? 0 : BPF_F_NO_PREALLOC);
		int fd = bpf_map_create(o->keyless ? BPF_MAP_TYPE_PERCPU_ARRAY : BPF_MAP_TYPE_PERCPU_HASH,
					NULL, o->key_size, o->value_size, 1, &opts);
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

/*
 * Each slot of each array (the kernel waits for an RCU grace period after
 * every update of an array of maps from user space: one batch per array
 * waits once where the kernel allows batches).
 */
int dt_agg_outer_fill(dtrace_hdl_t *dtp, struct dt_runtime *rt)
{
	const struct dt_descs *d = dtp->cc->descs;
	int rc = 0;

	for (size_t i = 0; i < d->agg_outer.n && rc == 0; i++) {
		const struct dt_aggouter *o = d->agg_outer.v[i];
		struct bpf_map *om = bpf_object__find_map_by_name(rt->obj, o->name);
		uint32_t *keys = calloc(o->n, sizeof(*keys));
		int *fds = calloc(o->n, sizeof(*fds));
		uint32_t n = 0;
		if (keys == NULL || fds == NULL) {
			rc = dt_set_error(dtp->core, -ENOMEM, "out of memory");
		} else if (om == NULL) {
			rc = dt_set_error(dtp->core, -ENOENT, "map %s missing", o->name);
		}
		for (size_t j = 0; j < d->aggs.n && rc == 0; j++) {
			const struct dt_aggdesc *ad = d->aggs.v[j];
			if (ad->outer != (int32_t)i)
				continue;
			struct bpf_map *am = bpf_object__find_map_by_name(rt->obj, ad->map_name);
			if (am == NULL || n >= o->n) {
				rc = dt_set_error(dtp->core, -ENOENT, "map %s missing", ad->map_name);
				break;
			}
			keys[n] = ad->outer_slot;
			fds[n++] = bpf_map__fd(am);
		}
		if (rc == 0 && n > 0) {
			uint32_t count = n;
			LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
			if (bpf_map_update_batch(bpf_map__fd(om), keys, fds, &count, &opts) < 0 ||
			    count != n) {
				for (uint32_t k = 0; k < n && rc == 0; k++)
					if (bpf_map_update_elem(bpf_map__fd(om), &keys[k], &fds[k],
								BPF_ANY) < 0)
						rc = dt_set_error(dtp->core, -errno, "cannot put the maps "
								  "of aggregations in %s: %s", o->name,
								  strerror(errno));
			}
		}
		free(keys);
		free(fds);
	}
	return rc;
}

void dt_agg_outer_release(struct dt_runtime *rt)
{
	for (size_t i = 0; i < rt->outer_models.n; i++)
		close(rt->outer_models.v[i]);
	dt_vec_free(&rt->outer_models);
}
