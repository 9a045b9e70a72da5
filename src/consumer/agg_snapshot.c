/*
 * In-memory snapshots of an aggregation: one fixed-size record per key in
 * a single array, so that 100,000 keys cost a few allocations, not
 * 100,000.  The per-CPU values are merged as they are added.
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"

/* What each entry caches for sorting (agg_sort.c reads it back). */
static uint32_t sort_cache_size(const struct dt_aggdesc *ad)
{
	switch (ad->func) {
	case AGG_STDDEV:
		return sizeof(uint64_t);
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE:
		return (uint32_t)DT_ALIGN(sizeof(struct dt_quantkey), 8);
	default:
		return 0;
	}
}

static void layout(struct dt_aggsnap *s)
{
	uint32_t off = (uint32_t)DT_ALIGN(s->ad->key_size, 8);
	uint32_t cache = sort_cache_size(s->ad);

	s->valoff = off;
	off += s->nwords * 8;
	s->sortoff = cache ? off : 0;
	off += cache;
	s->cpuoff = off;
	off += (uint32_t)s->ncpus * s->nwords * 8;
	s->stride = off ? off : 8;
}

void dt_aggsnap_init(struct dt_aggsnap *s, const struct dt_aggdesc *ad, bool keep_percpu)
{
	memset(s, 0, sizeof(*s));
	s->ad = ad;
	s->nwords = dt_aggval_nwords(ad);
	s->keep_percpu = keep_percpu;
	layout(s);
}

void dt_aggsnap_free(struct dt_aggsnap *s)
{
	free(s->data);
	s->data = NULL;
	s->n = s->cap = 0;
}

static int grow(struct dt_aggsnap *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	uint8_t *d;

	if (cap > SIZE_MAX / s->stride)
		return -ENOMEM;
	d = realloc(s->data, cap * s->stride);
	if (d == NULL)
		return -ENOMEM;
	s->data = d;
	s->cap = cap;
	return 0;
}

int dt_aggsnap_add(struct dt_aggsnap *s, const void *key, const void *vals, int ncpus,
		   size_t cpu_stride)
{
	const struct dt_aggdesc *ad = s->ad;
	uint8_t *e;

	if (ncpus < 1 || cpu_stride < (size_t)s->nwords * 8)
		return -EINVAL;
	if (s->n == 0 && s->keep_percpu && s->ncpus != ncpus) {
		/* The first key tells how many CPUs the values come from. */
		free(s->data);
		s->data = NULL;
		s->cap = 0;
		s->ncpus = ncpus;
		layout(s);
	}
	if (s->n == s->cap && grow(s) < 0)
		return -ENOMEM;
	e = dt_aggsnap_ent(s, s->n);
	memset(e, 0, s->stride);
	memcpy(e, key, ad->key_size);

	int64_t *val = (int64_t *)(void *)(e + s->valoff);
	dt_aggval_empty(ad, val, s->nwords);
	for (int c = 0; c < ncpus; c++) {
		const int64_t *cv = (const int64_t *)(const void *)((const char *)vals + c * cpu_stride);

		dt_aggval_fold(ad, val, cv, s->nwords);
		if (c < s->ncpus)
			memcpy(e + s->cpuoff + (size_t)c * s->nwords * 8, cv, (size_t)s->nwords * 8);
	}
	/* CPUs the values did not come with stay idle. */
	for (int c = ncpus; c < s->ncpus; c++)
		dt_aggval_empty(ad, (int64_t *)(void *)(e + s->cpuoff) + (size_t)c * s->nwords,
				s->nwords);
	s->n++;
	return 0;
}

static void fill_sort_cache(const struct dt_aggsnap *s, uint8_t *e)
{
	const int64_t *v = dt_aggent_val(s, e);

	if (s->ad->func == AGG_STDDEV) {
		uint64_t sd = s->nwords >= 4 ? dt_aggval_stddev(v, 1) : 0;

		memcpy(e + s->sortoff, &sd, sizeof(sd));
	} else {
		struct dt_quantkey k;

		dt_aggval_quantkey(s->ad, v, &k);
		memcpy(e + s->sortoff, &k, sizeof(k));
	}
}

void dt_aggsnap_finish(struct dt_aggsnap *s)
{
	if (s->sortoff == 0)
		return;
	for (size_t i = 0; i < s->n; i++)
		fill_sort_cache(s, dt_aggsnap_ent(s, i));
}

uint8_t *dt_aggsnap_zero_entry(const struct dt_aggsnap *s)
{
	uint8_t *e = calloc(1, s->stride);

	if (e != NULL && s->sortoff != 0)
		fill_sort_cache(s, e);
	return e;
}
