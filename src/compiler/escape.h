/* D's escape sequences in string literals and character constants. */
#ifndef DT_ESCAPE_H
#define DT_ESCAPE_H

#include <stddef.h>

/*
 * Decode the escapes of s in place, as DTrace's lexer does (stresc2chr):
 * \a \b \f \n \r \t \v \\ \", up to three octal digits, \x with any number
 * of hex digits (the low byte is kept); any other escape, \' and \? among
 * them, stays as written, backslash included.  Returns the decoded length
 * (the result may contain NULs); s is NUL-terminated after it.
 */
size_t dt_escape_decode(char *s);

#endif
