/* gzip with zlib (gzip.h). */
#include "consumer/gzip.h"

#include <errno.h>
#include <zlib.h>

#include "base/util.h"

int dt_gzip(const void *data, size_t n, struct dt_strbuf *out)
{
	z_stream z = { 0 };
	unsigned char buf[16384];
	int rc;

	/* 15 bits of window, +16: a gzip header and trailer rather than zlib's. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = 0;
	size_t left = n;
	do {
		/* avail_in is 32-bit: feed large inputs in parts */
		if (z.avail_in == 0 && left > 0) {
			z.avail_in = left > (1u << 30) ? (1u << 30) : (uInt)left;
			left -= z.avail_in;
		}
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		rc = deflate(&z, left == 0 ? Z_FINISH : Z_NO_FLUSH);
		if (rc == Z_STREAM_ERROR)
			break;
		dt_sb_putn(out, (const char *)buf, sizeof(buf) - z.avail_out);
	} while (rc != Z_STREAM_END);
	deflateEnd(&z);
	if (out->oom)
		return -ENOMEM;
	return rc == Z_STREAM_END ? 0 : -EIO;
}
