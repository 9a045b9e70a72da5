/*
 * bufpolicy=ring and fill, as DTrace reads such buffers only once tracing
 * has stopped: records are kept by the consumer and printed when tracing
 * stops, before END's output.  ring keeps the newest bufsize bytes of
 * records; with fill the BPF side stops tracing (as exit() does) at the
 * first record that does not fit in bufsize bytes, and all are kept.
 */
#ifndef DT_BUFRING_H
#define DT_BUFRING_H

#include <stddef.h>

struct dt_consumer;

/*
 * Take a record read from the ring buffer: with bufpolicy=ring or fill keep it
 * (exit() takes effect now; faults and speculations are handled as they
 * come), else print it.  0, or a negative errno to stop reading.
 */
int dt_bufring_record(struct dt_consumer *cs, const void *data, size_t size);

/* Print the kept records, oldest first, and forget them. */
void dt_bufring_flush(struct dt_consumer *cs);

/* Forget the kept records and free what holds them. */
void dt_bufring_free(struct dt_consumer *cs);

#endif
