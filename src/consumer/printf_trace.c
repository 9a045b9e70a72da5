/*
 * trace()'s default output and the byte dumps, as DTrace's dt_consume.c
 * prints them (dt_print_trace, dt_print_bytes, dt_print_rawbytes).
 */
#include "consumer/printf.h"

#include <string.h>

void dt_format_trace_int(struct dt_strbuf *out, const void *data, size_t size,
			 bool is_signed, bool quiet)
{
	union { int8_t i8; int16_t i16; int32_t i32; int64_t i64; } v;

	if (size != 1 && size != 2 && size != 4 && size != 8) {
		dt_format_rawbytes(out, data, size);
		return;
	}
	memcpy(&v, data, size);
	/* Unquiet, values line up in columns as wide as the type's largest. */
	if (is_signed) {
		switch (size) {
		case 8: dt_sb_printf(out, quiet ? "%lld" : " %19lld", (long long)v.i64); break;
		case 4: dt_sb_printf(out, quiet ? "%d" : " %10d", v.i32); break;
		case 2: dt_sb_printf(out, quiet ? "%d" : " %5d", v.i16); break;
		case 1: dt_sb_printf(out, quiet ? "%d" : " %3d", v.i8); break;
		}
	} else {
		switch (size) {
		case 8: dt_sb_printf(out, quiet ? "%llu" : " %20llu", (unsigned long long)(uint64_t)v.i64); break;
		case 4: dt_sb_printf(out, quiet ? "%u" : " %10u", (uint32_t)v.i32); break;
		case 2: dt_sb_printf(out, quiet ? "%u" : " %5u", (unsigned)(uint16_t)v.i16); break;
		case 1: dt_sb_printf(out, quiet ? "%u" : " %3u", (unsigned)(uint8_t)v.i8); break;
		}
	}
}

void dt_format_trace_string(struct dt_strbuf *out, const char *s, size_t n, bool quiet)
{
	int len = (int)strnlen(s, n);

	if (quiet)
		dt_sb_putn(out, s, (size_t)len);
	else
		dt_sb_printf(out, "  %-33.*s", len, s);
}

/* isprint() or isspace() in the C locale, or the two printable controls. */
static bool printable(unsigned char c)
{
	return (c >= ' ' && c <= '~') || (c >= '\t' && c <= '\r') || c == '\b' || c == '\a';
}

/*
 * The length of the string the bytes hold, or -1 if they are not one:
 * printable all through (length n), or printable then NULs only.
 */
static long string_len(const unsigned char *c, size_t n)
{
	size_t i;

	for (i = 0; i < n && printable(c[i]); i++)
		;
	if (i == n)
		return (long)n;
	if (c[i] != '\0' || i == 0)
		return -1;
	for (size_t j = i + 1; j < n; j++)
		if (c[j] != '\0')
			return -1;
	return (long)i;
}

long dt_bytes_string_len(const void *data, size_t n)
{
	return n > 0 ? string_len(data, n) : -1;
}

bool dt_bytes_are_string(const void *data, size_t n)
{
	return dt_bytes_string_len(data, n) >= 0;
}

void dt_format_bytes(struct dt_strbuf *out, const void *data, size_t n, int width, bool quiet)
{
	const unsigned char *c = data;
	long len;

	if (n == 0)
		return;
	len = string_len(c, n);
	if (len < 0) {
		dt_format_rawbytes(out, data, n);
		return;
	}
	/* Only a NUL-terminated string prints bare when quiet. */
	if (quiet && (size_t)len < n)
		dt_sb_putn(out, data, (size_t)len);
	else
		dt_sb_printf(out, "  %-*.*s", width, (int)len, (const char *)data);
}

void dt_format_rawbytes(struct dt_strbuf *out, const void *data, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *c = data;
	const int margin = 5;

	if (n == 0)
		return;
	dt_sb_printf(out, "\n%*s      ", margin, "");
	for (int i = 0; i < 16; i++)
		dt_sb_printf(out, "  %c", hex[i]);
	dt_sb_puts(out, "  0123456789abcdef\n");

	for (size_t i = 0; i < n; i += 16) {
		size_t j;

		dt_sb_printf(out, "%*s%5zx:", margin, "", i);
		for (j = i; j < i + 16 && j < n; j++)
			dt_sb_printf(out, " %02x", c[j]);
		for (; j < i + 16; j++)
			dt_sb_puts(out, "   ");
		dt_sb_puts(out, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			dt_sb_putc(out, c[j] < ' ' || c[j] > '~' ? '.' : (char)c[j]);
		dt_sb_putc(out, '\n');
	}
}
