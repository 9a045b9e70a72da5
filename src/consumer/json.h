/*
 * A small JSON writer into a dt_strbuf: objects, arrays, keys, strings,
 * 64-bit integers.  The writer tracks where commas go, so callers just
 * say what comes next.  Output is always valid JSON (RFC 8259):
 *
 *   - strings are escaped (", \, control characters as \n, \t, \u001b ...);
 *   - bytes that are not valid UTF-8 (stray continuation bytes, overlong
 *     forms, UTF-16 surrogates, code points past U+10FFFF, truncated
 *     sequences) become U+FFFD, one per byte, and the call reports that
 *     the text was not kept as is, so that the caller can add the raw
 *     bytes in hex;
 *   - integers are exact decimal numbers, signed or unsigned 64-bit.
 *
 * Nothing here allocates except through the strbuf (whose `oom` flag
 * tells of a failure).
 */
#ifndef DT_JSON_H
#define DT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"

#define DT_JSON_MAXDEPTH 32

struct dt_json {
	struct dt_strbuf *sb;
	int depth;
	bool after_key;				/* a key was written: no comma */
	bool nonempty[DT_JSON_MAXDEPTH];	/* the container has an element */
};

void dt_json_init(struct dt_json *j, struct dt_strbuf *sb);

void dt_json_object(struct dt_json *j);
void dt_json_object_end(struct dt_json *j);
void dt_json_array(struct dt_json *j);
void dt_json_array_end(struct dt_json *j);

/* A member name; the next value is its value. */
void dt_json_key(struct dt_json *j, const char *key);

/* Values.  dt_json_string returns false when bytes had to be replaced. */
bool dt_json_string(struct dt_json *j, const char *s, size_t n);
void dt_json_cstring(struct dt_json *j, const char *s);
void dt_json_int(struct dt_json *j, int64_t v);
void dt_json_uint(struct dt_json *j, uint64_t v);
void dt_json_bool(struct dt_json *j, bool v);
void dt_json_null(struct dt_json *j);
/* Bytes as a string of lowercase hex digits, two per byte. */
void dt_json_hex(struct dt_json *j, const void *data, size_t n);

/* Key and value in one call. */
void dt_json_kstr(struct dt_json *j, const char *key, const char *s);
void dt_json_kint(struct dt_json *j, const char *key, int64_t v);
void dt_json_kuint(struct dt_json *j, const char *key, uint64_t v);

/*
 * The escaping alone: append `n` bytes of `s` as a quoted JSON string.
 * Returns true when every byte was valid UTF-8 (the text is kept as is).
 */
bool dt_json_escape(struct dt_strbuf *sb, const char *s, size_t n);

/*
 * The length of the valid UTF-8 sequence at s (1 to 4), or 0 when the
 * bytes there do not start one (n is what is left of the input).
 */
size_t dt_utf8_seqlen(const unsigned char *s, size_t n);

#endif
