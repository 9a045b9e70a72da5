/*
 * What compiled programs tell the loader and the consumer, as plain
 * descriptions: records, clauses, aggregations and the run-time pieces
 * the programs use.  The compiler fills it; nothing here points into the
 * compiler's statements or syntax trees.
 */
#ifndef DT_DESCS_H
#define DT_DESCS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

struct dt_rdesc;
struct dt_cdesc;
struct dt_aggdesc;
struct dt_aggouter;

struct dt_descs {
	DT_VEC(struct dt_rdesc *) rdescs;	/* record descriptions by id */
	DT_VEC(struct dt_cdesc *) cdescs;	/* what errors say of each exec'ed clause */
	DT_VEC(struct dt_aggdesc *) aggs;	/* aggregations by id */
	DT_VEC(struct dt_aggouter *) agg_outer;	/* arrays of aggregation maps */
	DT_VEC(void *) formats;		/* parsed printf formats (struct dt_pf_format) */
	bool need_probe_map;		/* some clause reads probe names at run time */
	bool need_curcpu_map;		/* some clause reads curcpu (lib/curcpu.c) */
	uint32_t spec_off;		/* .bss offset of the speculations (0: none used) */
	uint32_t spec_nspec;		/* ... and how many there are (nspec then) */
	bool uses_usyms;		/* some clause records user addresses (ustack() & co.) */
	bool uses_vtime;		/* some clause reads vtimestamp (compiler/cg_vtime.c) */
};

/* Free what the vectors hold (the descriptions themselves are in the arena). */
void dt_descs_free(struct dt_descs *d);

#endif
