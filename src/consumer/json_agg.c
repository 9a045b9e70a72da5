/* Aggregation snapshots as JSON objects (agg_walk.h; schema in man/dtrace.8): rows of the shared walk. */
#include "base/aggdesc.h"
#include "base/core.h"
#include "consumer/agg_impl.h"
#include "consumer/agg_walk.h"
#include "consumer/consumer.h"
#include "consumer/datum.h"
#include "consumer/json.h"
#include "consumer/json_rec.h"

static int entry(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg)
{
	const dtrace_aggdata_t *a = &r->a;
	struct dt_json *j = arg;

	(void)cs;
	dt_json_object(j);
	dt_json_key(j, "keys");
	dt_json_array(j);
	for (size_t i = 0; i < a->nkeys; i++)
		dt_json_datum_value(j, &a->keys[i]);
	dt_json_array_end(j);
	switch (a->func) {
	case DTRACE_AGG_QUANTIZE:
	case DTRACE_AGG_LQUANTIZE:
	case DTRACE_AGG_LLQUANTIZE:
		dt_json_key(j, "buckets");
		dt_json_array(j);
		for (size_t i = 0; i < a->nbuckets; i++) {
			dt_json_object(j);
			dt_json_kint(j, "min", a->buckets[i].min);
			dt_json_kint(j, "max", a->buckets[i].max);
			dt_json_kint(j, "count", a->buckets[i].count);
			dt_json_object_end(j);
		}
		dt_json_array_end(j);
		break;
	case DTRACE_AGG_AVG:
	case DTRACE_AGG_STDDEV:
		dt_json_kint(j, "value", a->value);
		dt_json_kuint(j, "count", a->count);
		dt_json_kint(j, "sum", a->sum);
		break;
	default:
		dt_json_kint(j, "value", a->value);
		break;
	}
	dt_json_object_end(j);
	return 0;
}

int dt_json_aggregation(struct dt_consumer *cs, struct dt_strbuf *sb, uint32_t aggid,
			const char *trigger, const uint64_t *ts)
{
	const struct dt_aggdesc *ad = dt_agg_desc(cs, aggid);
	uint64_t normal = dt_agg_normal(cs, aggid);
	struct dt_strbuf tn;
	struct dt_json j;

	if (ad == NULL)
		return cs->core->err;
	dt_json_init(&j, sb);
	dt_json_object(&j);
	dt_json_kstr(&j, "event", "aggregation");
	dt_json_kstr(&j, "trigger", trigger);
	if (ts != NULL)
		dt_json_kuint(&j, "timestamp", *ts);
	dt_json_kstr(&j, "name", ad->name);
	dt_json_kuint(&j, "id", aggid);
	dt_json_kstr(&j, "function", dt_agg_funcname(ad->func));
	if (normal > 1)
		dt_json_kuint(&j, "normal", normal);
	dt_json_key(&j, "key_types");
	dt_json_array(&j);
	dt_sb_init(&tn);
	for (int k = 0; k < ad->nkeys; k++) {
		dt_sb_reset(&tn);
		dt_aggkey_type_name(&ad->keys[k], &tn);
		dt_json_string(&j, tn.s != NULL ? tn.s : "", tn.len);
	}
	dt_sb_free(&tn);
	dt_json_array_end(&j);
	dt_json_key(&j, "entries");
	dt_json_array(&j);
	int n = dt_agg_walk_rows(cs, aggid, entry, &j);
	dt_json_array_end(&j);
	dt_json_object_end(&j);
	return n;
}
