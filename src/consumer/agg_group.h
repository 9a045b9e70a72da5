/*
 * Entries of one aggregation that an output format shows alike (a folded
 * stack without offsets, an OpenMetrics label set) become one: their
 * values are folded with the aggregating function's own rule, as the CPUs'
 * values are, so that no line or series is shown twice and no value is
 * added where it should not be (two max() values give their max).
 */
#ifndef DT_AGG_GROUP_H
#define DT_AGG_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/util.h"

struct dt_aggdesc;

struct dt_agggroup_ent {
	char *text;		/* what the entries are shown as */
	int64_t *words;		/* their values folded (as aggregated) */
};

struct dt_agggroup {
	const struct dt_aggdesc *ad;
	uint32_t nwords;
	struct dt_htab index;	/* text -> entry number + 1 */
	DT_VEC(struct dt_agggroup_ent) v;	/* in the order first seen */
};

void dt_agggroup_init(struct dt_agggroup *g, const struct dt_aggdesc *ad, uint32_t nwords);
void dt_agggroup_free(struct dt_agggroup *g);

/* Add an entry shown as `text` with value `w` (nwords words).  0 or -ENOMEM. */
int dt_agggroup_add(struct dt_agggroup *g, const char *text, const int64_t *w);

#endif
