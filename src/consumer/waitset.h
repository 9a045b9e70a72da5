/*
 * What the consumer sleeps on between reads: the ring buffer, the handle's
 * wake-up eventfd and the traced processes (as pidfds), so that a
 * dtrace_wake() or the -c/-p process exiting ends the sleep at once
 * rather than at the next switchrate tick.
 */
#ifndef DT_WAITSET_H
#define DT_WAITSET_H

struct dt_consumer;
struct dt_waitset;

/* Build the set (after the ring buffer exists); 0 or a negative errno. */
int dt_waitset_open(struct dt_consumer *cs);
/* Wait up to ms milliseconds for any of them. */
void dt_waitset_wait(struct dt_consumer *cs, int ms);
void dt_waitset_close(struct dt_consumer *cs);

#endif
