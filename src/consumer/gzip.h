/* gzip (RFC 1952) compression with zlib, into a string buffer. */
#ifndef DT_GZIP_H
#define DT_GZIP_H

#include <stddef.h>

struct dt_strbuf;

/* Append the gzip stream of n bytes at data to out.  0, -ENOMEM or -EIO. */
int dt_gzip(const void *data, size_t n, struct dt_strbuf *out);

#endif
