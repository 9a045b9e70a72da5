/*
 * Building the public dtrace_datum_t values (include/dtrace.h) that the
 * record and aggregation callbacks and the JSON output see, from record
 * items and aggregation key components.  Names and texts live in one
 * string buffer; their pointers are set by dt_datums_finish() once every
 * datum is in, since the buffer moves as it grows.
 */
#ifndef DT_DATUM_H
#define DT_DATUM_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "dtrace.h"

struct dt_ritem;
struct dt_aggkey;
struct dt_pf_syms;
struct dt_type;

struct dt_datums {
	DT_VEC(dtrace_datum_t) v;
	DT_VEC(size_t) type_off;	/* per datum: offset of its type name in strs */
	DT_VEC(size_t) text_off;	/* per datum: offset of its text + 1 (0: none) */
	struct dt_strbuf strs;		/* NUL-separated names and texts */
};

void dt_datums_reset(struct dt_datums *d);
void dt_datums_free(struct dt_datums *d);

/* A string into strs; returns its offset (NUL-terminated there). */
size_t dt_datums_str(struct dt_datums *d, const char *s, size_t n);

/* A datum for record item `it` of the record at `rec`.  0 or -ENOMEM. */
int dt_datum_item(struct dt_datums *d, const struct dt_ritem *it, const char *rec);
/* A 64-bit integer datum of the named type. */
int dt_datum_int(struct dt_datums *d, const char *type, uint64_t v, int is_signed);
/* A key component of an aggregation entry (syms NULL: addresses in hex). */
int dt_datum_aggkey(struct dt_datums *d, const struct dt_aggkey *k, const uint8_t *p,
		    const struct dt_pf_syms *syms);

/* The D type name of an aggregation key component, appended to sb. */
void dt_aggkey_type_name(const struct dt_aggkey *k, struct dt_strbuf *sb);

/* Set the name and text pointers.  0 or -ENOMEM (an allocation failed on the way). */
int dt_datums_finish(struct dt_datums *d);

#endif
