/*
 * -x oformat=pprof: count() and sum() aggregations keyed by stacks as one
 * pprof profile (profile.proto, gzipped), what go tool pprof, Pyroscope,
 * Parca and Grafana read.  Each aggregation is a sample type named after
 * it (the anonymous @ after its function), in units of "count", or
 * "nanoseconds" for a sum() of time differences (base/aggdesc.h:
 * value_ns).  Each entry is a sample: its stacks' frames as locations,
 * leaf first (kernel frames before user frames), with their addresses,
 * the mappings they lie in (the file and its range; the kernel as
 * [kernel.kallsyms], modules as [name]) and their functions; its other
 * keys as labels (numbers for integers), named as OpenMetrics names them.
 * Encoded with libprotobuf-c from the .proto compiled at build time,
 * compressed with zlib.
 */
#ifndef DT_PPROF_H
#define DT_PPROF_H

#include <stddef.h>
#include <stdint.h>

struct dt_consumer;
struct dt_strbuf;

/* One aggregation's samples, resolved when it was printed. */
struct dt_pprof_agg;

/* Collect aggregation aggid's samples.  The number of entries, or a negative errno (error set). */
int dt_pprof_collect(struct dt_consumer *cs, uint32_t aggid, struct dt_pprof_agg **out);
void dt_pprof_agg_free(struct dt_pprof_agg *pa);

/*
 * The gzipped profile of the aggregations (n of them; NULL ones are left
 * out), appended to out.  0, -ENOMEM, or -EIO if compression failed.
 */
int dt_pprof_write(struct dt_pprof_agg *const *aggs, size_t n, struct dt_strbuf *out);

#endif
