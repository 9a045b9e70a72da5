/*
 * -x oformat=openmetrics: aggregations as Prometheus text (the exposition
 * format 0.0.4 that node_exporter's textfile collector reads and `promtool
 * check metrics` checks, ending in "# EOF"; man/dtrace.8 has the mapping).
 * Not strict OpenMetrics, whose counters are typed without _total and
 * whose histograms with _count need a _sum: the textfile collector's
 * parser types a counter by its sample's name, and DTrace keeps no sum.
 *
 *   name         the aggregation's (count(): with _total appended)
 *   labels       the keys, named after the variable each key is (execname,
 *                pid, self->x: x) or key0, key1 ... by position; stacks
 *                as folded stacks; values escaped, and bytes that are not
 *                UTF-8 as U+FFFD
 *   count()      a counter, or a gauge if the program clear()s, trunc()s
 *                or normalize()s it (its value then does not only grow)
 *   sum()        a counter for unsigned values that are never cleared,
 *                else a gauge
 *   avg() min() max() stddev()  gauges, the value printa() prints
 *   quantize() lquantize() llquantize()  histograms: every bucket's upper
 *                bound as le (cumulative), +Inf, _count; no _sum (DTrace
 *                does not keep it)
 *
 * Entries that come out as the same label set (stacks without offsets,
 * strings made valid UTF-8) are one series, their values folded with the
 * aggregating function's rule.
 */
#ifndef DT_OPENMETRICS_H
#define DT_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_consumer;
struct dt_strbuf;

/* Append aggregation aggid's family (HELP, TYPE, samples).  Series, or a negative errno. */
int dt_openmetrics_aggregation(struct dt_consumer *cs, struct dt_strbuf *out, uint32_t aggid);

/* A label value in quotes: \\, \", \n escaped, bytes that are not UTF-8 as U+FFFD. */
void dt_openmetrics_label_value(struct dt_strbuf *sb, const char *s, size_t n);

#endif
