/*
 * The consumer side of aggregations: what the record loop calls for
 * printa(), clear(), trunc(), normalize() and denormalize(), and
 * dtrace_aggregate_print() (include/dtrace.h) at exit.
 *
 * They read the aggregation's per-CPU BPF map (batched lookups), merge
 * the CPUs, sort as DTrace does under the aggsort* options and print
 * DTrace's layouts.  The records of one probe firing share one snapshot
 * of each aggregation (see dt_agg_firing); clear() and trunc() change it
 * as they change the maps, so that printa() shows what they left.  State that outlives a call
 * (normalization factors, which aggregations printa() has printed, the
 * symbolizer) lives in the handle: `struct dt_aggstate *aggstate`, NULL
 * when the handle is opened, created on first use, freed by dt_agg_fini().
 *
 * Errors: a negative errno, with the handle's message set (dt_set_error).
 */
#ifndef DT_CONSUMER_AGG_H
#define DT_CONSUMER_AGG_H

#include <stdint.h>
#include <stdio.h>

struct dt_consumer;
struct dt_strbuf;
struct dt_pf_format;
struct dt_pf_syms;

struct dt_aggstate;

/* Free the handle's aggregation state (dtrace_close); safe to call twice. */
void dt_agg_fini(struct dt_consumer *cs);

/*
 * The record loop, before a record's actions: the firing it comes from
 * (CPU, probe id, timestamp).  A firing other than the last one drops the
 * snapshots the last one's records took.
 */
void dt_agg_firing(struct dt_consumer *cs, uint32_t cpu, uint32_t prid, uint64_t ts);
/* Outside the record stream (the exit print, walks): read the maps afresh. */
void dt_agg_forget(struct dt_consumer *cs);

/*
 * printa(): append the aggregations to `out`.  fmt NULL is the default
 * layout ("\n", then each entry's keys and value); otherwise each entry
 * (for several aggregations, each key of their union) is printed with the
 * checked format, %@ taking the aggregations' values in argument order.
 */
/* dtrace_aggregate_print(): every aggregation not printed yet, as at exit. */
int dt_aggregate_print(struct dt_consumer *cs, FILE *fp);

int dt_agg_printa(struct dt_consumer *cs, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		  const uint32_t *aggids, int naggs);

/* clear(): zero every value, keeping the keys. */
int dt_agg_clear(struct dt_consumer *cs, uint32_t aggid);

/*
 * trunc(): keep the n entries with the highest values (n > 0) or the
 * -n entries with the lowest (n < 0); n = 0 removes every key.
 */
int dt_agg_trunc(struct dt_consumer *cs, uint32_t aggid, int64_t n);

/* normalize(): divide the values by n when they are printed; denormalize() undoes it. */
int dt_agg_normalize(struct dt_consumer *cs, uint32_t aggid, uint64_t n);
int dt_agg_denormalize(struct dt_consumer *cs, uint32_t aggid);

/*
 * The symbolizer for stack(), sym(), mod(), usym() ... keys (copied; NULL:
 * addresses print in hex, as DTrace prints what it cannot resolve).
 */
int dt_agg_set_syms(struct dt_consumer *cs, const struct dt_pf_syms *syms);

#endif
