/* The JSON writer: structure, commas, string escaping, numbers (see json.h). */
#include "consumer/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void dt_json_init(struct dt_json *j, struct dt_strbuf *sb)
{
	memset(j, 0, sizeof(*j));
	j->sb = sb;
}

/* Before any value: a comma if the container already holds one. */
static void value_start(struct dt_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->nonempty[j->depth])
		dt_sb_putc(j->sb, ',');
	j->nonempty[j->depth] = true;
}

static void open_container(struct dt_json *j, char c)
{
	value_start(j);
	dt_sb_putc(j->sb, c);
	if (j->depth < DT_JSON_MAXDEPTH - 1)
		j->depth++;
	j->nonempty[j->depth] = false;
}

static void close_container(struct dt_json *j, char c)
{
	dt_sb_putc(j->sb, c);
	if (j->depth > 0)
		j->depth--;
	j->after_key = false;
}

void dt_json_object(struct dt_json *j)
{
	open_container(j, '{');
}

void dt_json_object_end(struct dt_json *j)
{
	close_container(j, '}');
}

void dt_json_array(struct dt_json *j)
{
	open_container(j, '[');
}

void dt_json_array_end(struct dt_json *j)
{
	close_container(j, ']');
}

void dt_json_key(struct dt_json *j, const char *key)
{
	value_start(j);
	dt_json_escape(j->sb, key, strlen(key));
	dt_sb_putc(j->sb, ':');
	j->after_key = true;
}

size_t dt_utf8_seqlen(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	unsigned char lo = 0x80, hi = 0xbf;	/* range of the second byte */

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;		/* no overlong forms */
		else if (c == 0xed)
			hi = 0x9f;		/* no UTF-16 surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;		/* no overlong forms */
		else if (c == 0xf4)
			hi = 0x8f;		/* nothing past U+10FFFF */
	} else {
		return 0;			/* 0x80-0xc1 (continuation, overlong), 0xf5-0xff */
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool dt_json_escape(struct dt_strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	bool kept = true;
	size_t i = 0, run = 0;	/* bytes [i - run, i) copy as they are */

	dt_sb_putc(sb, '"');
	while (i < n) {
		unsigned char c = p[i];
		char esc[8];
		const char *rep = NULL;

		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f) {
			size_t len = dt_utf8_seqlen(p + i, n - i);
			if (len > 0) {
				i += len;
				run += len;
				continue;
			}
			rep = "\xef\xbf\xbd";	/* U+FFFD */
			kept = false;
		} else {
			switch (c) {
			case '"': rep = "\\\""; break;
			case '\\': rep = "\\\\"; break;
			case '\n': rep = "\\n"; break;
			case '\t': rep = "\\t"; break;
			case '\r': rep = "\\r"; break;
			case '\b': rep = "\\b"; break;
			case '\f': rep = "\\f"; break;
			default:
				memcpy(esc, "\\u00", 4);
				esc[4] = hex[c >> 4];
				esc[5] = hex[c & 15];
				esc[6] = '\0';
				rep = esc;
				break;
			}
		}
		dt_sb_putn(sb, s + i - run, run);
		run = 0;
		dt_sb_puts(sb, rep);
		i++;
	}
	dt_sb_putn(sb, s + i - run, run);
	dt_sb_putc(sb, '"');
	return kept;
}

bool dt_json_string(struct dt_json *j, const char *s, size_t n)
{
	value_start(j);
	return dt_json_escape(j->sb, s, n);
}

void dt_json_cstring(struct dt_json *j, const char *s)
{
	if (s == NULL) {
		dt_json_null(j);
		return;
	}
	dt_json_string(j, s, strlen(s));
}

void dt_json_int(struct dt_json *j, int64_t v)
{
	value_start(j);
	dt_sb_printf(j->sb, "%" PRId64, v);
}

void dt_json_uint(struct dt_json *j, uint64_t v)
{
	value_start(j);
	dt_sb_printf(j->sb, "%" PRIu64, v);
}

void dt_json_bool(struct dt_json *j, bool v)
{
	value_start(j);
	dt_sb_puts(j->sb, v ? "true" : "false");
}

void dt_json_null(struct dt_json *j)
{
	value_start(j);
	dt_sb_puts(j->sb, "null");
}

void dt_json_hex(struct dt_json *j, const void *data, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = data;

	value_start(j);
	dt_sb_putc(j->sb, '"');
	for (size_t i = 0; i < n; i++) {
		dt_sb_putc(j->sb, hex[p[i] >> 4]);
		dt_sb_putc(j->sb, hex[p[i] & 15]);
	}
	dt_sb_putc(j->sb, '"');
}

void dt_json_kstr(struct dt_json *j, const char *key, const char *s)
{
	dt_json_key(j, key);
	dt_json_cstring(j, s);
}

void dt_json_kint(struct dt_json *j, const char *key, int64_t v)
{
	dt_json_key(j, key);
	dt_json_int(j, v);
}

void dt_json_kuint(struct dt_json *j, const char *key, uint64_t v)
{
	dt_json_key(j, key);
	dt_json_uint(j, v);
}
