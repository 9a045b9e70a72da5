/* freopen() and ftruncate() (freopen.c). */
#ifndef DT_FREOPEN_H
#define DT_FREOPEN_H

struct dt_consumer;

/*
 * freopen(): send the output to `name` (formatted from the format fmt), or
 * back to the original output for freopen("").  rec: the record, for the
 * error message.
 */
void dt_freopen(struct dt_consumer *cs, const void *rec, const char *fmt, const char *name);
/* ftruncate(): empty the output file (a no-op for a terminal or pipe). */
void dt_ftruncate(struct dt_consumer *cs);
/* Forget the original output's saved descriptor. */
void dt_freopen_fini(struct dt_consumer *cs);

#endif
