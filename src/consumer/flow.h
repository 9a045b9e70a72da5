/*
 * flowindent (-F): the FUNCTION column DTrace prints instead of
 * CPU/ID/FUNCTION:NAME, indented by the nesting of entry and return probes.
 */
#ifndef DT_FLOW_H
#define DT_FLOW_H

struct dt_consumer;
struct dt_rec_hdr;
struct dt_strbuf;

/* The heading ("CPU FUNCTION"), once, then the record's column; updates the indent. */
void dt_flow_column(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_rec_hdr *h);

#endif
