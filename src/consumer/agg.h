/*
 * The consumer side of aggregations: what the record loop calls for
 * printa(), clear(), trunc(), normalize() and denormalize(), and
 * dtrace_aggregate_print() (include/dtrace.h) at exit.
 *
 * Each call reads the aggregation's per-CPU BPF map afresh (batched
 * lookups), merges the CPUs, sorts as DTrace does under the aggsort*
 * options and prints DTrace's layouts.  State that outlives a call
 * (normalization factors, which aggregations printa() has printed, the
 * symbolizer) lives in the handle: `struct dt_aggstate *aggstate`, NULL
 * when the handle is opened, created on first use, freed by dt_agg_fini().
 *
 * Errors: a negative errno, with the handle's message set (dt_set_error).
 */
#ifndef DT_CONSUMER_AGG_H
#define DT_CONSUMER_AGG_H

#include <stdint.h>

struct dtrace_hdl;
struct dt_strbuf;
struct dt_pf_format;
struct dt_pf_syms;

struct dt_aggstate;

/* Free the handle's aggregation state (dtrace_close); safe to call twice. */
void dt_agg_fini(struct dtrace_hdl *dtp);

/*
 * printa(): append the aggregations to `out`.  fmt NULL is the default
 * layout ("\n", then each entry's keys and value); otherwise each entry
 * (for several aggregations, each key of their union) is printed with the
 * checked format, %@ taking the aggregations' values in argument order.
 */
int dt_agg_printa(struct dtrace_hdl *dtp, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		  const uint32_t *aggids, int naggs);

/* clear(): zero every value, keeping the keys. */
int dt_agg_clear(struct dtrace_hdl *dtp, uint32_t aggid);

/*
 * trunc(): keep the n entries with the highest values (n > 0) or the
 * -n entries with the lowest (n < 0); n = 0 removes every key.
 */
int dt_agg_trunc(struct dtrace_hdl *dtp, uint32_t aggid, int64_t n);

/* normalize(): divide the values by n when they are printed; denormalize() undoes it. */
int dt_agg_normalize(struct dtrace_hdl *dtp, uint32_t aggid, uint64_t n);
int dt_agg_denormalize(struct dtrace_hdl *dtp, uint32_t aggid);

/*
 * The symbolizer for stack(), sym(), mod(), usym() ... keys (copied; NULL:
 * addresses print in hex, as DTrace prints what it cannot resolve).
 */
int dt_agg_set_syms(struct dtrace_hdl *dtp, const struct dt_pf_syms *syms);

#endif
