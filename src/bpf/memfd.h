/*
 * Byte buffers as anonymous files: libelf writes to a file descriptor and
 * libbpf 1.1's static linker reads and writes paths (/proc/self/fd/N).
 */
#ifndef DT_BPF_MEMFD_H
#define DT_BPF_MEMFD_H

#include <stddef.h>

/* A close-on-exec memfd holding a copy of data[size]; negative errno on failure. */
int bo_memfd_from(const void *data, size_t size, const char *name, char *err, size_t errlen);

/* Read the whole of fd (from offset 0) into a malloc'ed buffer. */
int bo_memfd_read(int fd, void **bufp, size_t *sizep, char *err, size_t errlen);

#endif
