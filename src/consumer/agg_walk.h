/* The aggregation walk behind dtrace_aggregate_walk() and the JSON output. */
#ifndef DT_AGG_WALK_H
#define DT_AGG_WALK_H

#include <stdint.h>

#include "dtrace.h"

struct dt_consumer;
struct dt_strbuf;

/*
 * Walk one aggregation's entries (a fresh snapshot, in printa() order).
 * The number of entries, or a negative errno with the handle's error set.
 */
int dt_agg_walk_id(struct dt_consumer *cs, uint32_t aggid, dtrace_aggwalk_f *func, void *arg);

/* dtrace_aggregate_walk(): every aggregation named `name` (NULL: all). */
int dt_aggregate_walk(struct dt_consumer *cs, const char *name, dtrace_aggwalk_f *func, void *arg);

/* "count", "quantize" ... for an aggregating function (enum dt_aggfunc). */
const char *dt_agg_funcname(int func);

/*
 * One aggregation as one JSON object appended to sb ({"event":
 * "aggregation", ...}); `trigger` says why ("printa", "exit"), `ts` the
 * record's timestamp (NULL: none).  The number of entries or a negative
 * errno (error set).
 */
int dt_json_aggregation(struct dt_consumer *cs, struct dt_strbuf *sb, uint32_t aggid,
			const char *trigger, const uint64_t *ts);

#endif
