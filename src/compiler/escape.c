/* D's escape sequences, decoded as DTrace's lexer decodes them. */
#include "compiler/escape.h"

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int octdigit(char c)
{
	return c >= '0' && c <= '7' ? c - '0' : -1;
}

size_t dt_escape_decode(char *s)
{
	const char *i = s;
	char *o = s;

	while (*i != '\0') {
		if (*i != '\\') {
			*o++ = *i++;
			continue;
		}
		i++;
		char c = *i;
		if (c == '\0')
			break;	/* a lone trailing backslash is dropped */
		i++;
		switch (c) {
		case 'a': *o++ = '\a'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'v': *o++ = '\v'; break;
		case '"':
		case '\\':
			*o++ = c;
			break;
		case 'x': {
			/* Every hex digit counts; the byte is the value's low 8 bits. */
			unsigned v = 0;
			int d;
			while ((d = hexdigit(*i)) >= 0) {
				v = (v << 4 | (unsigned)d) & 0xff;
				i++;
			}
			*o++ = (char)v;	/* "\x" alone is a NUL */
			break;
		}
		default: {
			int d = octdigit(c);
			if (d >= 0) {
				/* At most three digits; \400 and above wrap to a byte. */
				unsigned v = (unsigned)d;
				for (int k = 0; k < 2 && (d = octdigit(*i)) >= 0; k++, i++)
					v = v * 8 + (unsigned)d;
				*o++ = (char)(v & 0xff);
				break;
			}
			/* Unknown escapes (\' and \? too) keep their backslash. */
			*o++ = '\\';
			*o++ = c;
			break;
		}
		}
	}
	*o = '\0';
	return (size_t)(o - s);
}
