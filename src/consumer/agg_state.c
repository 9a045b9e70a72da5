/*
 * The handle's aggregation state and the consumer-side actions clear(),
 * trunc(), normalize() and denormalize().  The state is created on first
 * use and lives in cs->aggstate until dt_agg_fini().
 *
 * DTrace's printa(), clear() and trunc() act on the consumer's copy of
 * the data, taken once and then changed by clear() and trunc() as well as
 * the kernel's buffers: trunc(@, 5); printa(@) prints at most 5 entries,
 * however many keys arrive meanwhile.  Here the data live in the BPF maps,
 * so the records of one probe firing (same CPU, probe and timestamp) share
 * one snapshot of each aggregation they touch, taken when first needed;
 * clear() and trunc() change the maps and that snapshot alike.  A record
 * of another firing, and the exit print and walks, start afresh.
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/quant.h"
#include "consumer/agg_symkeys.h"
#include "consumer/consumer.h"

/* What the consumer keeps about one aggregation between snapshots. */
struct dt_aggvar {
	uint64_t normal;	/* normalize()'s divisor, 1 by default */
	bool printed;		/* printa() printed it: not printed again at exit */
	bool cached;		/* snap is the current firing's */
	struct dt_aggsnap snap;	/* raw keys (symbols not merged) */
};

/* The probe firing whose records are being handled. */
struct dt_aggfiring {
	bool set;
	uint32_t cpu, prid;
	uint64_t ts;
};

struct dt_aggstate {
	struct dt_aggvar *vars;	/* by aggregation id */
	size_t nvars;
	struct dt_pf_syms syms;
	bool have_syms;
	struct dt_agg_source src;
	struct dt_aggfiring firing;
	bool any_cached;
};

static struct dt_aggstate *state(struct dt_consumer *cs)
{
	if (cs->aggstate == NULL) {
		struct dt_aggstate *st = calloc(1, sizeof(*st));

		if (st == NULL)
			return NULL;
		st->src = dt_aggmap_source;
		st->src.ctx = cs;
		cs->aggstate = st;
	}
	return cs->aggstate;
}

/* Drop every kept snapshot: the next action reads the maps again. */
static void forget(struct dt_aggstate *st)
{
	st->firing.set = false;
	if (!st->any_cached)
		return;
	st->any_cached = false;
	for (size_t i = 0; i < st->nvars; i++) {
		if (st->vars[i].cached)
			dt_aggsnap_free(&st->vars[i].snap);
		st->vars[i].cached = false;
	}
}

void dt_agg_forget(struct dt_consumer *cs)
{
	if (cs->aggstate != NULL)
		forget(cs->aggstate);
}

void dt_agg_firing(struct dt_consumer *cs, uint32_t cpu, uint32_t prid, uint64_t ts)
{
	struct dt_aggstate *st = state(cs);
	struct dt_aggfiring f = { true, cpu, prid, ts };

	/* Out of memory: every action reads the maps afresh. */
	if (st == NULL)
		return;
	if (st->firing.set && st->firing.cpu == cpu && st->firing.prid == prid &&
	    st->firing.ts == ts)
		return;
	forget(st);
	st->firing = f;
}

void dt_agg_fini(struct dt_consumer *cs)
{
	if (cs->aggstate == NULL)
		return;
	forget(cs->aggstate);
	free(cs->aggstate->vars);
	free(cs->aggstate);
	cs->aggstate = NULL;
}

/* The state of aggregation `id`, grown on demand; NULL when out of memory. */
static struct dt_aggvar *var(struct dt_consumer *cs, uint32_t id)
{
	struct dt_aggstate *st = state(cs);

	if (st == NULL)
		return NULL;
	if (id >= st->nvars) {
		size_t n = (size_t)id + 1 > st->nvars * 2 ? (size_t)id + 1 : st->nvars * 2;
		struct dt_aggvar *v = realloc(st->vars, n * sizeof(*v));

		if (v == NULL)
			return NULL;
		for (size_t i = st->nvars; i < n; i++)
			v[i] = (struct dt_aggvar){ .normal = 1 };
		st->vars = v;
		st->nvars = n;
	}
	return &st->vars[id];
}

uint64_t dt_agg_normal(struct dt_consumer *cs, uint32_t aggid)
{
	struct dt_aggstate *st = cs->aggstate;

	return st != NULL && aggid < st->nvars ? st->vars[aggid].normal : 1;
}

bool dt_agg_printed(struct dt_consumer *cs, uint32_t aggid)
{
	struct dt_aggstate *st = cs->aggstate;

	return st != NULL && aggid < st->nvars && st->vars[aggid].printed;
}

void dt_agg_set_printed(struct dt_consumer *cs, uint32_t aggid)
{
	struct dt_aggvar *v = var(cs, aggid);

	/* Out of memory, the aggregation merely prints again at exit. */
	if (v != NULL)
		v->printed = true;
}

void dt_aggprint_get(struct dt_consumer *cs, struct dt_aggprint *pc)
{
	struct dt_aggstate *st = cs->aggstate;

	pc->syms = st != NULL && st->have_syms ? &st->syms : NULL;
	pc->stackindent = cs->core->opts.stackindent >= 0 && cs->core->opts.stackindent <= 1024
				  ? (int)cs->core->opts.stackindent
				  : 14;
	pc->rawbytes = cs->core->opts.rawbytes;
}

int dt_agg_set_syms(struct dt_consumer *cs, const struct dt_pf_syms *syms)
{
	struct dt_aggstate *st = state(cs);

	if (st == NULL)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	st->have_syms = syms != NULL;
	if (syms != NULL)
		st->syms = *syms;
	return 0;
}

int dt_agg_set_source(struct dt_consumer *cs, const struct dt_agg_source *src)
{
	struct dt_aggstate *st = state(cs);

	if (st == NULL)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	if (src != NULL) {
		st->src = *src;
	} else {
		st->src = dt_aggmap_source;
		st->src.ctx = cs;
	}
	return 0;
}

const struct dt_aggdesc *dt_agg_desc(struct dt_consumer *cs, uint32_t aggid)
{
	if (aggid >= cs->descs->aggs.n || cs->descs->aggs.v[aggid] == NULL) {
		dt_set_error(cs->core, -EINVAL, "Invalid aggregation variable identifier");
		return NULL;
	}
	return cs->descs->aggs.v[aggid];
}

/* The words a value of this function must have, or 0 if unknown. */
static uint32_t value_words(const struct dt_aggdesc *ad)
{
	switch (ad->func) {
	case AGG_COUNT:
	case AGG_SUM:
	case AGG_MIN:
	case AGG_MAX:
		return 1;
	case AGG_AVG:
		return 2;
	case AGG_STDDEV:
		return 4;
	case AGG_QUANTIZE:
		return DT_QUANTIZE_NBUCKETS;
	case AGG_LQUANTIZE:
		return (uint32_t)(uint16_t)ad->lq_levels + 2;
	case AGG_LLQUANTIZE:
		if (ad->llq_factor < 2 || ad->llq_hmag < ad->llq_lmag || ad->llq_steps == 0)
			return 0;
		return dt_llquantize_nbuckets_of(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						 ad->llq_steps);
	default:
		return 0;
	}
}

/* A fresh snapshot of the maps, keys as they are there. */
static int read_maps(struct dt_consumer *cs, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	struct dt_aggstate *st = state(cs);
	uint32_t need = value_words(ad);
	int rc;

	memset(s, 0, sizeof(*s));
	if (st == NULL)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	/* The printers read this many words: a shorter value is a layout mismatch. */
	if (need == 0 || ad->value_size / 8 < need || (ad->nkeys > 0 && ad->keys == NULL))
		return dt_set_error(cs->core, -EINVAL, "aggregation @%s: %s", ad->name,
				    "Data record has incorrect size");
	dt_aggsnap_init(s, ad, cs->core->opts.aggpercpu);
	rc = st->src.read(st->src.ctx, ad, s);
	if (rc < 0) {
		dt_aggsnap_free(s);
		if (rc == -ENOMEM)
			return dt_set_error(cs->core, rc, "Memory allocation failure");
		return dt_set_error(cs->core, rc, "failed to read aggregation @%s: %s", ad->name,
				    strerror(-rc));
	}
	dt_aggsnap_finish(s);
	return 0;
}

/*
 * The snapshot of `ad` that the actions of the current firing share (in
 * the state), or outside a firing a fresh one in *tmp, which the caller
 * frees.  Keys are raw: clear() and trunc() name them in the maps.
 */
static int view(struct dt_consumer *cs, const struct dt_aggdesc *ad, struct dt_aggsnap *tmp,
		struct dt_aggsnap **sp)
{
	struct dt_aggstate *st = state(cs);
	struct dt_aggvar *v = NULL;
	int rc;

	memset(tmp, 0, sizeof(*tmp));
	*sp = tmp;
	if (st == NULL)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	/* Sized for every aggregation at once: kept snapshots never move. */
	if (st->firing.set && cs->descs->aggs.n > 0 && var(cs, (uint32_t)cs->descs->aggs.n - 1) != NULL &&
	    ad->id < st->nvars)
		v = &st->vars[ad->id];
	if (v == NULL)
		return read_maps(cs, ad, tmp);
	if (!v->cached) {
		if ((rc = read_maps(cs, ad, &v->snap)) < 0)
			return rc;
		v->cached = true;
		st->any_cached = true;
	}
	*sp = &v->snap;
	return 0;
}

static int copy_snap(struct dt_aggsnap *dst, const struct dt_aggsnap *src)
{
	*dst = *src;
	dst->data = NULL;
	dst->cap = src->n;
	if (src->n == 0)
		return 0;
	dst->data = malloc(src->n * src->stride);
	if (dst->data == NULL)
		return -ENOMEM;
	memcpy(dst->data, src->data, src->n * src->stride);
	return 0;
}

/* For printing: the firing's snapshot (a copy), sym() & co. keys merged by function or module. */
int dt_agg_snapshot(struct dt_consumer *cs, const struct dt_aggdesc *ad, struct dt_aggsnap *s)
{
	struct dt_aggstate *st;
	struct dt_aggsnap tmp, *v;
	int rc;

	if ((rc = view(cs, ad, &tmp, &v)) < 0)
		return rc;
	if (v == &tmp) {
		*s = tmp;
	} else if (copy_snap(s, v) < 0) {
		memset(s, 0, sizeof(*s));
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	}
	st = cs->aggstate;
	/* Only with the real symbolizer installed (dtrace_go), not a test's. */
	if (st->have_syms && cs->symbolizer != NULL &&
	    st->syms.ctx == (void *)cs->symbolizer && dt_aggsnap_symkeys(cs, s) < 0) {
		dt_aggsnap_free(s);
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	}
	dt_aggsnap_finish(s);
	return 0;
}

/* Every key of the snapshot, for the source's reset/remove. */
static const uint8_t **keys_of(const struct dt_aggsnap *s)
{
	const uint8_t **k = malloc((s->n ? s->n : 1) * sizeof(*k));

	if (k != NULL)
		for (size_t i = 0; i < s->n; i++)
			k[i] = dt_aggsnap_ent(s, i);
	return k;
}

static int source_error(struct dt_consumer *cs, const struct dt_aggdesc *ad, const char *what, int rc)
{
	if (rc == -ENOMEM)
		return dt_set_error(cs->core, rc, "Memory allocation failure");
	return dt_set_error(cs->core, rc, "failed to %s aggregation @%s: %s", what, ad->name,
			    strerror(-rc));
}

/*
 * DTrace's clear() zeroes the values and keeps the keys (printed with 0):
 * those of the snapshot, in the maps and in the snapshot.  Keys that came
 * after it keep what they have, for the next snapshot.
 */
int dt_agg_clear(struct dt_consumer *cs, uint32_t aggid)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	struct dt_aggsnap tmp, *s;
	int rc;

	if (ad == NULL)
		return cs->core->err;
	if ((rc = view(cs, ad, &tmp, &s)) < 0)
		return rc;
	const uint8_t **keys = keys_of(s);
	struct dt_aggstate *st = cs->aggstate;

	if (keys == NULL)
		rc = -ENOMEM;
	else if (s->n > 0)
		rc = st->src.reset(st->src.ctx, ad, keys, s->n);
	free(keys);
	if (rc == 0) {
		for (size_t i = 0; i < s->n; i++) {
			uint8_t *e = dt_aggsnap_ent(s, i);
			dt_aggval_empty(ad, (int64_t *)(void *)(e + s->valoff), s->nwords);
			for (int c = 0; c < s->ncpus; c++)
				dt_aggval_empty(ad, (int64_t *)(void *)(e + s->cpuoff) +
							    (size_t)c * s->nwords,
						s->nwords);
		}
		dt_aggsnap_finish(s);
	}
	dt_aggsnap_free(&tmp);
	return rc < 0 ? source_error(cs, ad, "clear", rc) : 0;
}

/* Remove entries marked in `drop` from the snapshot, keeping the others' order. */
static void compact(struct dt_aggsnap *s, const bool *drop)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			continue;
		if (n != i)
			memcpy(dt_aggsnap_ent(s, n), dt_aggsnap_ent(s, i), s->stride);
		n++;
	}
	s->n = n;
}

/*
 * DTrace's trunc() keeps the n highest entries (walked in reverse value
 * order, ties by key) or the -n lowest, and removes the rest for good,
 * from the maps and the snapshot.
 */
int dt_agg_trunc(struct dt_consumer *cs, uint32_t aggid, int64_t n)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	const uint8_t **sorted = NULL;
	struct dt_aggsnap tmp, *s;
	uint64_t keep = n < 0 ? 0 - (uint64_t)n : (uint64_t)n;
	int rc;

	if (ad == NULL)
		return cs->core->err;
	if ((rc = view(cs, ad, &tmp, &s)) < 0)
		return rc;
	rc = dt_aggsnap_sort_by_value(s, n > 0, &sorted);
	if (rc == 0 && keep < s->n) {
		struct dt_aggstate *st = cs->aggstate;
		size_t nrm = s->n - (size_t)keep;
		bool *drop = calloc(s->n, sizeof(*drop));

		rc = drop == NULL ? -ENOMEM : st->src.remove(st->src.ctx, ad, sorted + keep, nrm);
		if (rc == 0) {
			for (size_t i = 0; i < nrm; i++)
				drop[(size_t)(sorted[keep + i] - s->data) / s->stride] = true;
			compact(s, drop);
		}
		free(drop);
	}
	free(sorted);
	dt_aggsnap_free(&tmp);
	return rc < 0 ? source_error(cs, ad, "truncate", rc) : 0;
}

int dt_agg_normalize(struct dt_consumer *cs, uint32_t aggid, uint64_t n)
{
	struct dt_aggvar *v;

	if (dt_agg_desc(cs, aggid) == NULL)
		return cs->core->err;
	if ((v = var(cs, aggid)) == NULL)
		return dt_set_error(cs->core, -ENOMEM, "Memory allocation failure");
	v->normal = n;
	return 0;
}

int dt_agg_denormalize(struct dt_consumer *cs, uint32_t aggid)
{
	return dt_agg_normalize(cs, aggid, 1);
}
