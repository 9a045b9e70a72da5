/* Byte buffers as anonymous files (memfd). */
#include "bpf/memfd.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/errmsg.h"

int bo_memfd_from(const void *data, size_t size, const char *name, char *err, size_t errlen)
{
	int fd = memfd_create(name, MFD_CLOEXEC);
	size_t done = 0;

	if (fd < 0)
		return bo_errf(err, errlen, -errno, "memfd_create: %s", strerror(errno));
	while (done < size) {
		ssize_t n = write(fd, (const uint8_t *)data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;

			close(fd);
			return bo_errf(err, errlen, rc, "writing memfd: %s", strerror(-rc));
		}
		done += (size_t)n;
	}
	return fd;
}

int bo_memfd_read(int fd, void **bufp, size_t *sizep, char *err, size_t errlen)
{
	off_t size = lseek(fd, 0, SEEK_END);
	uint8_t *buf;
	size_t got = 0;

	if (size <= 0)
		return bo_errf(err, errlen, size < 0 ? -errno : -EIO, "reading memfd: %s",
			       size < 0 ? strerror(errno) : "empty");
	buf = malloc((size_t)size);
	if (buf == NULL)
		return bo_errf(err, errlen, -ENOMEM, "out of memory");
	while (got < (size_t)size) {
		ssize_t n = pread(fd, buf + got, (size_t)size - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int rc = n < 0 ? -errno : -EIO;

			free(buf);
			return bo_errf(err, errlen, rc, "reading memfd: %s",
				       n < 0 ? strerror(-rc) : "short read");
		}
		got += (size_t)n;
	}
	*bufp = buf;
	*sizep = got;
	return 0;
}
