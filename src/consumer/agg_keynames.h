/*
 * Names for an aggregation's keys where an output format names them
 * (OpenMetrics labels, pprof labels): the variable each key is in every
 * use (execname, pid, self->x: x; base/aggdesc.h) when it is a valid
 * label name, else key0, key1 ... by position; never twice, never a
 * name the format reserves.
 */
#ifndef DT_AGG_KEYNAMES_H
#define DT_AGG_KEYNAMES_H

#include <stdbool.h>

struct dt_aggdesc;

/* ad->nkeys names (caller frees with dt_agg_keynames_free), or NULL if out of memory. */
char **dt_agg_keynames(const struct dt_aggdesc *ad, const char *reserved);
void dt_agg_keynames_free(char **names, int n);

#endif
