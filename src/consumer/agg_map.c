/*
 * The aggregation maps of the loaded object as a snapshot source: batched
 * lookups of the per-CPU hash (get_next_key + lookup where the kernel has
 * no batch operations), and the writes clear() and trunc() make.  A
 * keyless aggregation's one-entry array (base/aggdesc.h) is one lookup.
 */
#include "consumer/agg_impl.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "bpf/runtime.h"
#include "consumer/consumer.h"

/* Per batch, at most this many bytes of values (keeps RSS flat for big maps). */
#define BATCH_BYTES (512 * 1024)

struct aggmap {
	int fd;
	bool keyless;		/* a one-entry per-CPU array, its "updated" word after the value */
	uint32_t key_size;
	size_t cpu_stride;	/* one CPU's value, rounded up to 8 as the kernel copies it */
	int ncpus;		/* values per key: the possible CPUs, 1 for a shared map */
};

/* What the kernel says the map is; it must fit the description. */
static int map_info(int fd, const struct dt_aggdesc *ad, struct aggmap *m)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) < 0)
		return -errno;
	m->fd = fd;
	m->keyless = info.type == BPF_MAP_TYPE_PERCPU_ARRAY;
	m->key_size = info.key_size;
	m->cpu_stride = DT_ALIGN((size_t)info.value_size, 8);
	m->ncpus = 1;
	if (info.type == BPF_MAP_TYPE_PERCPU_HASH || info.type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	    m->keyless) {
		m->ncpus = libbpf_num_possible_cpus();
		if (m->ncpus < 1)
			return m->ncpus < 0 ? m->ncpus : -EINVAL;
	}
	/* (A one-entry array for an aggregation without keys, base/aggdesc.h.) */
	if (m->keyless ? !dt_agg_keyless(ad) || info.max_entries != 1 ||
			 m->key_size != dt_agg_map_key_size(ad) ||
			 m->cpu_stride < dt_agg_map_value_size(ad)
		       : m->key_size != ad->key_size || m->cpu_stride < ad->value_size)
		return -EINVAL;
	return 0;
}

/* The fd of the map of `ad`, or -1 if there is none (nothing loaded yet). */
static int find_map(struct dt_consumer *cs, const struct dt_aggdesc *ad)
{
	struct bpf_object *obj = cs->rt != NULL ? cs->rt->obj : NULL;
	struct bpf_map *map;

	if (obj == NULL || ad->map_name == NULL ||
	    (map = bpf_object__find_map_by_name(obj, ad->map_name)) == NULL)
		return -1;
	return bpf_map__fd(map);
}

static int read_one_by_one(const struct aggmap *m, struct dt_aggsnap *s, void *vals)
{
	uint8_t *cur = malloc(m->key_size), *next = malloc(m->key_size);
	void *prev = NULL;
	int rc = 0;

	if (cur == NULL || next == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	while (bpf_map_get_next_key(m->fd, prev, next) == 0) {
		memcpy(cur, next, m->key_size);
		prev = cur;
		if (bpf_map_lookup_elem(m->fd, cur, vals) < 0) {
			if (errno == ENOENT)
				continue;	/* deleted meanwhile */
			rc = -errno;
			break;
		}
		if ((rc = dt_aggsnap_add(s, cur, vals, m->ncpus, m->cpu_stride)) < 0)
			break;
	}
out:
	free(cur);
	free(next);
	return rc;
}

/* Keys and values, `count` at a time; the batch grows if a hash bucket does not fit. */
static int read_batched(const struct aggmap *m, struct dt_aggsnap *s, uint32_t count,
			bool *unsupported)
{
	size_t vsz = m->cpu_stride * (size_t)m->ncpus;
	size_t tok = m->key_size > 8 ? m->key_size : 8;
	uint8_t *in = malloc(tok), *out = malloc(tok);
	uint8_t *keys = NULL, *vals = NULL;
	bool first = true;
	int rc = 0;

	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	for (;;) {
		if (keys == NULL) {
			keys = malloc((size_t)count * m->key_size);
			vals = malloc((size_t)count * vsz);
		}
		if (in == NULL || out == NULL || keys == NULL || vals == NULL) {
			rc = -ENOMEM;
			break;
		}
		uint32_t n = count;
		int err = bpf_map_lookup_batch(m->fd, first ? NULL : in, out, keys, vals, &n, &opts);
		err = err < 0 ? -errno : 0;
		if (err == -ENOSPC && count < (1u << 20)) {
			/* a bucket holds more keys than a batch: retry bigger */
			count *= 2;
			free(keys);
			free(vals);
			keys = vals = NULL;
			continue;
		}
		if (err < 0 && err != -ENOENT) {
			*unsupported = first && (err == -EINVAL || err == -ENOTSUP ||
						 err == -EOPNOTSUPP || err == -ENOSYS);
			rc = err;
			break;
		}
		for (uint32_t i = 0; i < n && rc == 0; i++)
			rc = dt_aggsnap_add(s, keys + (size_t)i * m->key_size, vals + (size_t)i * vsz,
					    m->ncpus, m->cpu_stride);
		if (rc < 0 || err == -ENOENT)
			break;
		memcpy(in, out, tok);
		first = false;
	}
	free(in);
	free(out);
	free(keys);
	free(vals);
	return rc;
}

/* The entry, if it was updated: a word of it is set on some CPU (base/aggdesc.h). */
static int read_keyless(const struct aggmap *m, struct dt_aggsnap *s)
{
	static const uint8_t key[sizeof(uint64_t) * 2];
	size_t nwords = m->cpu_stride * (size_t)m->ncpus / 8;
	uint32_t zero = 0;
	int rc = 0;

	if (s->ad->key_size > sizeof(key))
		return -EINVAL;
	int64_t *vals = malloc(nwords * 8);
	if (vals == NULL)
		return -ENOMEM;
	if (bpf_map_lookup_elem(m->fd, &zero, vals) < 0)
		rc = -errno;
	for (size_t i = 0; rc == 0 && i < nwords; i++)
		if (vals[i] != 0) {
			rc = dt_aggsnap_add(s, key, vals, m->ncpus, m->cpu_stride);
			break;
		}
	free(vals);
	return rc;
}

/* A keyless entry's words on every CPU: values empty and "updated" set, or all zero. */
static int write_keyless(const struct aggmap *m, const struct dt_aggdesc *ad, bool present)
{
	uint32_t nwords = dt_aggval_nwords(ad), zero = 0;
	uint8_t *vals = calloc((size_t)m->ncpus, m->cpu_stride);
	int rc = 0;

	if (vals == NULL)
		return -ENOMEM;
	for (int c = 0; present && c < m->ncpus; c++) {
		int64_t *w = (int64_t *)(void *)(vals + (size_t)c * m->cpu_stride);
		dt_aggval_empty(ad, w, nwords);
		w[ad->value_size / 8] = 1;
	}
	if (bpf_map_update_elem(m->fd, &zero, vals, BPF_ANY) < 0)
		rc = -errno;
	free(vals);
	return rc;
}

int dt_aggmap_read_fd(int fd, const struct dt_aggdesc *ad, struct dt_aggsnap *s, bool batch)
{
	struct aggmap m;
	bool unsupported = !batch;
	int rc = map_info(fd, ad, &m);

	if (rc < 0)
		return rc;
	if (m.keyless)
		return read_keyless(&m, s);
	size_t vsz = m.cpu_stride * (size_t)m.ncpus;
	uint32_t count = (uint32_t)(BATCH_BYTES / vsz);

	if (count < 16)
		count = 16;
	rc = batch ? read_batched(&m, s, count, &unsupported) : -ENOTSUP;
	if (rc < 0 && unsupported && s->n == 0) {
		void *vals = malloc(vsz);

		if (vals == NULL)
			return -ENOMEM;
		rc = read_one_by_one(&m, s, vals);
		free(vals);
	}
	return rc;
}

/* Each key's values become "nothing aggregated yet" on every CPU. */
int dt_aggmap_reset_fd(int fd, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n)
{
	struct aggmap m;
	int rc = map_info(fd, ad, &m);

	if (rc < 0)
		return rc;
	/* (Its one key, in the snapshot the keys come from.) */
	if (m.keyless)
		return n > 0 ? write_keyless(&m, ad, true) : 0;
	uint32_t nwords = dt_aggval_nwords(ad);
	uint8_t *vals = calloc((size_t)m.ncpus, m.cpu_stride);

	if (vals == NULL)
		return -ENOMEM;
	for (int c = 0; c < m.ncpus; c++)
		dt_aggval_empty(ad, (int64_t *)(void *)(vals + (size_t)c * m.cpu_stride), nwords);
	for (size_t i = 0; i < n; i++) {
		/* BPF_EXIST: a key trunc() removed meanwhile stays removed */
		if (bpf_map_update_elem(m.fd, keys[i], vals, BPF_EXIST) < 0 && errno != ENOENT) {
			rc = -errno;
			break;
		}
	}
	free(vals);
	return rc < 0 ? rc : 0;
}

int dt_aggmap_remove_fd(int fd, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n)
{
	struct aggmap m;
	int rc = map_info(fd, ad, &m);

	if (rc < 0)
		return rc;
	if (m.keyless)
		return n > 0 ? write_keyless(&m, ad, false) : 0;
	for (size_t i = 0; i < n; i++)
		if (bpf_map_delete_elem(m.fd, keys[i]) < 0 && errno != ENOENT)
			return -errno;
	return 0;
}

/* No map (nothing loaded yet, or the aggregation has none): no data. */
static int map_read(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	int fd = find_map(ctx, ad);

	return fd < 0 ? 0 : dt_aggmap_read_fd(fd, ad, s, true);
}

static int map_reset(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys, size_t n)
{
	int fd = find_map(ctx, ad);

	return fd < 0 ? 0 : dt_aggmap_reset_fd(fd, ad, keys, n);
}

static int map_remove(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys,
		      size_t n)
{
	int fd = find_map(ctx, ad);

	return fd < 0 ? 0 : dt_aggmap_remove_fd(fd, ad, keys, n);
}

const struct dt_agg_source dt_aggmap_source = {
	.read = map_read,
	.reset = map_reset,
	.remove = map_remove,
};
