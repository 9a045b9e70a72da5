/*
 * The records of a clause cut into parts (its earlier parts' records are
 * flagged part_held, its last part's part_last: src/compiler/cg_clause.c)
 * are held until the clause's last part has written its own, and then
 * printed in order; a fault in the clause drops them, as DTrace drops a
 * faulting clause's whole record.  A firing is its CPU, clause and
 * timestamp (read once per firing); a firing whose last record never
 * comes (a drop ended the clause) is forgotten at the clause's next firing
 * on that CPU, or at the end.
 */
#ifndef DT_CONSUMER_PARTS_H
#define DT_CONSUMER_PARTS_H

#include <stddef.h>

struct dt_consumer;
struct dt_rdesc;

/*
 * Take a checked record of description rd: held (1), or 0 to print it,
 * with first (when it is a last part's) the held records of its firing,
 * each through `print`.  A negative errno to stop reading.
 */
int dt_parts_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
		    size_t size,
		    int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t));

/*
 * A fault record: drop the held records of the faulting firing (a
 * speculative one goes to `print` flagged DT_SPEC_CTLONLY, counted and not
 * printed, as a record that faults is).
 */
int dt_parts_fault(struct dt_consumer *cs, const void *data, size_t size,
		   int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t));

/* Forget every held record. */
void dt_parts_free(struct dt_consumer *cs);

#endif
