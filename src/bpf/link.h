/* Linking a generated BPF object with the run-time library (bpf/). */
#ifndef DT_BPF_LINK_H
#define DT_BPF_LINK_H

#include <stddef.h>

/*
 * Link a generated object (the bytes bo_write_elf produced) with the
 * run-time library embedded in the binary, using libbpf's static linker.
 * The generated object goes first, so its sections keep their offsets
 * (its .bss variables included).  Every run-time function the object
 * calls must be defined by the library.  On success *outp (malloc'ed)
 * and *out_sizep hold the linked ELF object and 0 is returned; on failure
 * a negative errno and a message in err[errlen].
 */
int bo_link(const void *elf, size_t size, void **outp, size_t *out_sizep,
	    char *err, size_t errlen);

#endif
