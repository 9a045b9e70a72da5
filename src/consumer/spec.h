/*
 * Speculations in the consumer (spec.c): speculative records are kept per
 * speculation until the record of a commit() prints them or that of a
 * discard() drops them; drained speculations are given back to BPF; failed
 * speculations and speculative drops are reported.  The design is in
 * src/base/spec_abi.h.
 */
#ifndef DT_CONSUMER_SPEC_H
#define DT_CONSUMER_SPEC_H

#include <stdbool.h>
#include <stddef.h>

struct dt_consumer;
struct dt_rdesc;

/* After loading: find the speculations (nothing to do if none are used). */
int dt_spec_init(struct dt_consumer *cs);
/* The same with the speculations' area (`sz` bytes) given: the record fuzzer's. */
int dt_spec_init_area(struct dt_consumer *cs, void *area, size_t sz);
void dt_spec_close(struct dt_consumer *cs);

/*
 * A record that is speculative, carries commit()/discard() results, or
 * both: 1 if handled here (kept, dropped, or nothing else to print), 0 to
 * print it as usual, -ECANCELED if a callback stopped the consumer.
 */
int dt_spec_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
		   size_t size);

/*
 * After reading the ring: free the speculations that are fully drained,
 * report failed speculations and speculative drops since the last pass.
 */
void dt_spec_pass(struct dt_consumer *cs);

/* Whether the program uses speculations (the consumer then reads at cleanrate). */
bool dt_spec_used(const struct dt_consumer *cs);

#endif
