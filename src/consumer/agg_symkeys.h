/* Aggregating sym() & co. keys by function or module (agg_symkeys.c). */
#ifndef DT_AGG_SYMKEYS_H
#define DT_AGG_SYMKEYS_H

struct dt_consumer;
struct dt_aggsnap;

/*
 * Rewrite the snapshot's sym(), func(), mod(), usym(), ufunc() and umod()
 * keys to the first address of their function or module and merge the
 * entries that become equal.  0 or -ENOMEM.
 */
int dt_aggsnap_symkeys(struct dt_consumer *cs, struct dt_aggsnap *s);

#endif
