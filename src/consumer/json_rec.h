/*
 * Records, faults, errors and drops as JSON objects (one per output line;
 * the schema is in man/dtrace.8, "JSON OUTPUT").  Everything here works on
 * the public structures of include/dtrace.h, as a callback would.
 */
#ifndef DT_JSON_REC_H
#define DT_JSON_REC_H

#include <stddef.h>

#include "dtrace.h"

struct dt_json;
struct dt_strbuf;

/* {"type": ..., "value": ...} (or "hex", "symbol", "frames"). */
void dt_json_datum(struct dt_json *j, const dtrace_datum_t *d);
/* The bare value: a number, a string, a symbol's name, an array of frames. */
void dt_json_datum_value(struct dt_json *j, const dtrace_datum_t *d);
/* {"id": ..., "provider": ..., "module": ..., "function": ..., "name": ...} */
void dt_json_probe(struct dt_json *j, const dtrace_probeinfo_t *pi);

/*
 * {"event":"probe", ...}.  sysout, when not NULL, holds for each action
 * what a system() command wrote (NULL for the others).
 */
void dt_json_record(struct dt_strbuf *sb, const dtrace_probedata_t *pd,
		    const struct dt_strbuf *const *sysout);
/* {"event":"fault", ...} for faults, {"event":"error", ...} for the others. */
void dt_json_error(struct dt_strbuf *sb, const dtrace_errdata_t *ed);
/* {"event":"drop", ...} */
void dt_json_drop(struct dt_strbuf *sb, const dtrace_dropdata_t *dd);

#endif
