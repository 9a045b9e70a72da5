/*
 * The one walk over an aggregation's snapshot behind every way of showing
 * it other than DTrace's text: dtrace_aggregate_walk() and the output
 * formats (JSON, folded stacks, pprof, OpenMetrics).  Each entry comes as
 * a row: the public view (keys as datums, the value as printed) and what
 * a format needs beyond it (the key's bytes, the value as aggregated).
 */
#ifndef DT_AGG_WALK_H
#define DT_AGG_WALK_H

#include <stdint.h>

#include "base/util.h"
#include "dtrace.h"

struct dt_consumer;
struct dt_strbuf;
struct dt_aggdesc;

struct dt_aggrow {
	dtrace_aggdata_t a;		/* keys, value as printed (normalized) */
	const struct dt_aggdesc *ad;
	const uint8_t *key;		/* the key's bytes (ad->keys[i].off ...) */
	const int64_t *words;		/* the value merged over the CPUs, not normalized */
	uint32_t nwords;
	uint64_t normal;		/* normalize() factor (1: none) */
};

/* 0 to go on, a negative errno to stop the walk with. */
typedef int dt_aggrow_f(struct dt_consumer *cs, const struct dt_aggrow *r, void *arg);

/*
 * Walk one aggregation's entries: a snapshot (within a record's firing,
 * the one its clear() and trunc() acted on), in printa() order.  The
 * number of entries, or a negative errno with the handle's error set
 * (-ECANCELED: `f` stopped it, its own error kept).
 */
int dt_agg_walk_rows(struct dt_consumer *cs, uint32_t aggid, dt_aggrow_f *f, void *arg);

/* The same with the public callback (dtrace_aggregate_walk()). */
int dt_agg_walk_id(struct dt_consumer *cs, uint32_t aggid, dtrace_aggwalk_f *func, void *arg);

/* dtrace_aggregate_walk(): every aggregation named `name` (NULL: all). */
int dt_aggregate_walk(struct dt_consumer *cs, const char *name, dtrace_aggwalk_f *func, void *arg);

/* "count", "quantize" ... for an aggregating function (enum dt_aggfunc). */
const char *dt_agg_funcname(int func);

/*
 * The value fields of the public view (value, count, sum, buckets) from a
 * value as aggregated (nwords words), divided by `normal`.  The buckets go
 * into `buckets` (reused), which a->buckets then points into.  0 or -ENOMEM.
 */
typedef DT_VEC(dtrace_aggbucket_t) dt_aggbuckets_t;
int dt_aggrow_value(const struct dt_aggdesc *ad, const int64_t *w, uint32_t nwords,
		    uint64_t normal, dt_aggbuckets_t *buckets, dtrace_aggdata_t *a);

/* Whether the key holds a stack (stack(), ustack(), jstack()). */
bool dt_agg_has_stack(const struct dt_aggdesc *ad);

/*
 * One aggregation as one JSON object appended to sb ({"event":
 * "aggregation", ...}); `trigger` says why ("printa", "exit"), `ts` the
 * record's timestamp (NULL: none).  The number of entries or a negative
 * errno (error set).
 */
int dt_json_aggregation(struct dt_consumer *cs, struct dt_strbuf *sb, uint32_t aggid,
			const char *trigger, const uint64_t *ts);

#endif
