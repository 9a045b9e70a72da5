/*
 * trace() and tracemem() items of a record, as DTrace prints them:
 *   - integers and pointers in columns as wide as their type (quiet: bare);
 *   - strings as "  %-33s" (quiet: bare);
 *   - structs, unions and arrays (of char too) as a hex dump;
 *   - with the rawbytes option, everything as a hex dump: a string as the
 *     strsize + 1 bytes DTrace records for it, NUL-padded;
 *   - tracemem()'s bytes always as a hex dump, only as many as its third
 *     argument says when that is between 0 and the size.
 */
#include "consumer/print_trace.h"

#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "consumer/consumer.h"
#include "consumer/printf.h"

/* A string's bytes as DTrace records them: strsize + 1, zeros after the NUL. */
static void raw_string(struct dt_consumer *cs, struct dt_strbuf *sb, const char *s, size_t max)
{
	size_t n = (size_t)cs->core->opts.strsize + 1;
	char *buf = calloc(1, n);

	if (buf == NULL) {
		sb->oom = true;
		return;
	}
	size_t len = strnlen(s, max);
	memcpy(buf, s, len < n - 1 ? len : n - 1);
	dt_format_rawbytes(sb, buf, n);
	free(buf);
}

void dt_print_trace_item(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
			 const char *data)
{
	bool quiet = cs->core->opts.quiet;

	if (it->is_string) {
		const char *s = it->is_const ? it->cstr : data + it->off;
		size_t n = it->is_const ? strlen(s) : strnlen(s, it->size);
		if (cs->core->opts.rawbytes)
			raw_string(cs, sb, s, n);
		else
			dt_format_trace_string(sb, s, n, quiet);
		return;
	}
	/* A struct, union or array (a char one too) is its bytes (dtrace-utils' dt_print_trace). */
	if (cs->core->opts.rawbytes || dt_trace_is_bytes(it->type) || it->size > 8) {
		dt_format_rawbytes(sb, data + it->off, it->size);
		return;
	}
	dt_format_trace_int(sb, data + it->off, it->size,
			    dt_type_is_signed(it->type) && !dt_type_is_pointer(it->type), quiet);
}

bool dt_trace_is_bytes(struct dt_type *t)
{
	return t != NULL && (dt_type_is_sou(t) || (dt_type_is_array(t) && !dt_type_is_string(t)));
}

size_t dt_tracemem_len(const struct dt_ritem *it, const char *data)
{
	size_t n = it->size;

	if (it->nargs == 3) {
		int64_t d;
		memcpy(&d, data + it->cval, sizeof(d));
		if (d >= 0 && (uint64_t)d < n)
			n = (size_t)d;
	}
	return n;
}

void dt_print_tracemem(struct dt_strbuf *sb, const struct dt_ritem *it, const char *data)
{
	dt_format_rawbytes(sb, data + it->off, dt_tracemem_len(it, data));
}
