/*
 * flowindent (-F): the FUNCTION column DTrace prints instead of
 * CPU/ID/FUNCTION:NAME, indented by the nesting of entry and return probes.
 */
#ifndef DT_FLOW_H
#define DT_FLOW_H

#include <stdbool.h>

struct dt_consumer;
struct dt_rec_hdr;
struct dt_strbuf;

/* The heading ("CPU FUNCTION"), once, then the record's column; updates the indent. */
void dt_flow_column(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_rec_hdr *h);

/*
 * A return record waits for the next record, which says whether it
 * unindents (flow.c): dt_flow_hold() keeps a copy and says so;
 * dt_flow_release() prints the one kept, if any, before `next` (NULL at
 * the end of a pass: it unindents).
 */
struct dt_rdesc;
bool dt_flow_hold(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data);
int dt_flow_release(struct dt_consumer *cs, const void *next);
/* The record kept, freed unprinted (the consumer closes). */
void dt_flow_free(struct dt_consumer *cs);

#endif
