/*
 * A record decoded into the public dtrace_probedata_t (include/dtrace.h):
 * what the record callback and the JSON output see.  The decoding lives in
 * the handle (cs->recdec) and is reused from record to record; what it
 * hands out is valid until the next record is decoded.
 */
#ifndef DT_REC_DECODE_H
#define DT_REC_DECODE_H

#include <stdbool.h>
#include <stddef.h>

#include "dtrace.h"

struct dt_consumer;
struct dt_rdesc;
struct dt_ritem;
struct dt_rec_hdr;
struct dt_pf_arg;

/* Decode `data` (a record of description rd) into pd.  0 or -ENOMEM (error set). */
int dt_rec_decode(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
		  dtrace_probedata_t *pd);
/* Whether printf()/system() action i of the last decode failed to format. */
bool dt_rec_decode_failed(const struct dt_consumer *cs, size_t i);
void dt_rec_decode_free(struct dt_consumer *cs);

/* The probe as the public API describes it ("" for unknown fields). */
void dt_rec_probeinfo(struct dt_consumer *cs, uint32_t prid, dtrace_probeinfo_t *pi);

/* A printf argument from a record item (as the printf engine reads it). */
void dt_rec_pfarg(const struct dt_ritem *it, const char *data, struct dt_pf_arg *a);

/* The D action's name for a record item kind ("trace", "printf" ...). */
const char *dt_rec_action_name(int kind);

#endif
