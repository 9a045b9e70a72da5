/* The ELF writer: an in-memory object (base/object.h) as a BPF ELF file. */
#ifndef DT_BPF_ELF_WRITER_H
#define DT_BPF_ELF_WRITER_H

#include <stddef.h>

#include "base/object.h"

/*
 * Write the object as a relocatable BPF ELF (ET_REL, EM_BPF) with .BTF and
 * .BTF.ext.  On success *bufp (malloc'ed) and *sizep are set and 0 is
 * returned; on failure a negative errno and a message in err[errlen].
 */
int bo_write_elf(const struct bo_object *obj, void **bufp, size_t *sizep,
		 char *err, size_t errlen);

#endif
