/*
 * dtrace_aggregate_walk(): aggregation entries as public dtrace_aggdata_t
 * values, from a fresh snapshot (JSON printa(): its firing's) sorted as printa() sorts (aggsort*
 * options), values divided by the normalization factor as printed.
 */
#include <errno.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/datum.h"

static const char *const funcnames[] = {
	[AGG_COUNT] = "count", [AGG_SUM] = "sum", [AGG_AVG] = "avg", [AGG_MIN] = "min",
	[AGG_MAX] = "max", [AGG_STDDEV] = "stddev", [AGG_QUANTIZE] = "quantize",
	[AGG_LQUANTIZE] = "lquantize", [AGG_LLQUANTIZE] = "llquantize",
};

const char *dt_agg_funcname(int func)
{
	if (func < 0 || (size_t)func >= ARRAY_SIZE(funcnames) || funcnames[func] == NULL)
		return "unknown";
	return funcnames[func];
}

struct walk {
	struct dt_datums keys;
	DT_VEC(dtrace_aggbucket_t) buckets;
};

static int entry(struct walk *w, const struct dt_aggsnap *s, const uint8_t *e, uint64_t normal,
		 const struct dt_aggprint *pc, dtrace_aggdata_t *a)
{
	const struct dt_aggdesc *ad = s->ad;
	const int64_t *v = dt_aggent_val(s, e);
	int rc = 0;

	dt_datums_reset(&w->keys);
	w->buckets.n = 0;
	for (int k = 0; k < ad->nkeys && rc == 0; k++)
		rc = dt_datum_aggkey(&w->keys, &ad->keys[k], e + ad->keys[k].off, pc->syms);
	if (rc == 0)
		rc = dt_datums_finish(&w->keys);
	if (rc < 0)
		return -ENOMEM;
	a->keys = w->keys.v.v;
	a->nkeys = w->keys.v.n;
	a->value = 0;
	a->count = 0;
	a->sum = 0;
	a->buckets = NULL;
	a->nbuckets = 0;
	switch (ad->func) {
	case AGG_AVG:
		a->value = dt_aggval_avg(v, normal);
		a->count = (uint64_t)v[0];
		a->sum = v[1];
		break;
	case AGG_STDDEV:
		a->value = (int64_t)dt_aggval_stddev(v, normal);
		a->count = (uint64_t)v[0];
		a->sum = v[1];
		break;
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE: {
		uint32_t n = DT_MIN(dt_agg_nbuckets(ad), s->nwords);
		for (uint32_t b = 0; b < n; b++) {
			dtrace_aggbucket_t bk;
			if (v[b] == 0 || !dt_agg_bucket_bounds(ad, b, &bk.min, &bk.max))
				continue;
			bk.count = dt_aggval_normal(v[b], normal);
			if (dt_vec_push(&w->buckets, bk) < 0)
				return -ENOMEM;
		}
		a->buckets = w->buckets.v;
		a->nbuckets = w->buckets.n;
		break;
	}
	default:
		a->value = dt_aggval_normal(v[0], normal);
		break;
	}
	return 0;
}

int dt_agg_walk_id(struct dt_consumer *cs, uint32_t aggid, dtrace_aggwalk_f *func, void *arg)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	const uint8_t **sorted = NULL;
	struct dt_aggsort_opts o;
	struct dt_aggprint pc;
	struct dt_aggsnap s;
	struct walk w;
	int rc;

	if (ad == NULL)
		return cs->core->err;
	if ((rc = dt_agg_snapshot(cs, ad, &s)) < 0)
		return rc;
	memset(&w, 0, sizeof(w));
	dt_aggsort_opts_get(cs, &o);
	dt_aggprint_get(cs, &pc);
	uint64_t normal = dt_agg_normal(cs, aggid);
	dtrace_aggdata_t a = {
		.name = ad->name, .id = aggid, .func = (dtrace_aggfunc_t)ad->func,
		.funcname = dt_agg_funcname(ad->func), .normal = normal ? normal : 1,
	};
	rc = dt_aggsnap_sort(&s, &o, &sorted);
	size_t i;
	for (i = 0; rc == 0 && i < s.n; i++) {
		if ((rc = entry(&w, &s, sorted[i], normal, &pc, &a)) < 0)
			break;
		if (func(cs->hdl, &a, arg) == DTRACE_CONSUME_ABORT)
			rc = -ECANCELED;
	}
	int n = (int)s.n;
	free(sorted);
	dt_datums_free(&w.keys);
	dt_vec_free(&w.buckets);
	dt_aggsnap_free(&s);
	if (rc == -ECANCELED)
		return dt_set_error(cs->core, rc, "aggregation walk stopped by its callback");
	if (rc < 0)
		return dt_set_error(cs->core, rc, "out of memory");
	return n;
}

int dt_aggregate_walk(struct dt_consumer *cs, const char *name, dtrace_aggwalk_f *func, void *arg)
{
	int total = 0;
	bool found = false;

	if (func == NULL)
		return dt_set_error(cs->core, -EINVAL, "no aggregation walk function");
	dt_agg_forget(cs);
	if (name != NULL && name[0] == '@')
		name++;
	for (size_t id = 0; id < cs->descs->aggs.n; id++) {
		const struct dt_aggdesc *ad = cs->descs->aggs.v[id];
		if (ad == NULL || (name != NULL && strcmp(ad->name, name) != 0))
			continue;
		found = true;
		int rc = dt_agg_walk_id(cs, (uint32_t)id, func, arg);
		if (rc < 0)
			return rc;
		total += rc;
	}
	if (!found && name != NULL)
		return dt_set_error(cs->core, -ENOENT, "no aggregation named @%s", name);
	return total;
}
