/*
 * The rows of an aggregation (agg_walk.h): a snapshot (a fresh one, or
 * within a record's firing the one its clear() and trunc() acted on),
 * sorted as printa() sorts (aggsort* options), each entry's keys as datums
 * and its value divided by the normalization factor as printed.
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

bool dt_agg_has_stack(const struct dt_aggdesc *ad)
{
	for (int i = 0; i < ad->nkeys; i++)
		if (ad->keys[i].kind == DT_AGGKEY_STACK || ad->keys[i].kind == DT_AGGKEY_USTACK)
			return true;
	return false;
}

int dt_aggrow_value(const struct dt_aggdesc *ad, const int64_t *v, uint32_t nwords,
		    uint64_t normal, dt_aggbuckets_t *buckets, dtrace_aggdata_t *a)
{
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
		uint32_t n = DT_MIN(dt_agg_nbuckets(ad), nwords);
		buckets->n = 0;
		for (uint32_t b = 0; b < n; b++) {
			dtrace_aggbucket_t bk;
			if (v[b] == 0 || !dt_agg_bucket_bounds(ad, b, &bk.min, &bk.max))
				continue;
			bk.count = dt_aggval_normal(v[b], normal);
			if (dt_vec_push(buckets, bk) < 0)
				return -ENOMEM;
		}
		a->buckets = buckets->v;
		a->nbuckets = buckets->n;
		break;
	}
	default:
		a->value = dt_aggval_normal(v[0], normal);
		break;
	}
	return 0;
}

struct walk {
	struct dt_datums keys;
	dt_aggbuckets_t buckets;
};

static int entry(struct walk *w, const struct dt_aggsnap *s, const uint8_t *e,
		 const struct dt_aggprint *pc, struct dt_aggrow *r)
{
	const struct dt_aggdesc *ad = s->ad;
	int rc = 0;

	dt_datums_reset(&w->keys);
	for (int k = 0; k < ad->nkeys && rc == 0; k++)
		rc = dt_datum_aggkey(&w->keys, &ad->keys[k], e + ad->keys[k].off, pc->syms);
	if (rc == 0)
		rc = dt_datums_finish(&w->keys);
	if (rc < 0)
		return -ENOMEM;
	r->a.keys = w->keys.v.v;
	r->a.nkeys = w->keys.v.n;
	r->key = e;
	r->words = dt_aggent_val(s, e);
	r->nwords = s->nwords;
	return dt_aggrow_value(ad, r->words, r->nwords, r->normal, &w->buckets, &r->a);
}

int dt_agg_walk_rows(struct dt_consumer *cs, uint32_t aggid, dt_aggrow_f *f, void *arg)
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
	struct dt_aggrow r = {
		.a = { .name = ad->name, .id = aggid, .func = (dtrace_aggfunc_t)ad->func,
		       .funcname = dt_agg_funcname(ad->func), .normal = normal ? normal : 1 },
		.ad = ad, .normal = normal ? normal : 1,
	};
	rc = dt_aggsnap_sort(&s, &o, &sorted);
	if (rc < 0)
		rc = dt_set_error(cs->core, rc, "out of memory");
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		if ((rc = entry(&w, &s, sorted[i], &pc, &r)) < 0) {
			rc = dt_set_error(cs->core, rc, "out of memory");
			break;
		}
		rc = f(cs, &r, arg);
	}
	int n = (int)s.n;
	free(sorted);
	dt_datums_free(&w.keys);
	dt_vec_free(&w.buckets);
	dt_aggsnap_free(&s);
	return rc < 0 ? rc : n;
}

struct public_walk {
	dtrace_aggwalk_f *func;
	void *arg;
};

static int public_row(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg)
{
	struct public_walk *pw = arg;

	if (pw->func(cs->hdl, &r->a, pw->arg) == DTRACE_CONSUME_ABORT)
		return dt_set_error(cs->core, -ECANCELED, "aggregation walk stopped by its callback");
	return 0;
}

int dt_agg_walk_id(struct dt_consumer *cs, uint32_t aggid, dtrace_aggwalk_f *func, void *arg)
{
	struct public_walk pw = { func, arg };

	return dt_agg_walk_rows(cs, aggid, public_row, &pw);
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
