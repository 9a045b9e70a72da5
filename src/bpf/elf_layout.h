/*
 * How the ELF writer lays out a struct bo_object, shared with the BTF
 * builder (private to src/bpf/).
 */
#ifndef DT_BPF_ELF_LAYOUT_H
#define DT_BPF_ELF_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/object.h"

struct bo_layout {
	/* Code sections: ".text" first if there are subprograms, then the
	 * distinct program section names in order of first use. */
	size_t ncode;
	const char **code_name;
	size_t *func_code;	/* per function: index into code_name */
	uint32_t *func_off;	/* per function: byte offset in its section */
	uint32_t *map_off;	/* per map: byte offset of its definition in .maps */
	uint32_t maps_size;
};

/*
 * Bytes of a map definition in .maps: one pointer per attribute encoded
 * (type and max_entries always; key_size, value_size, map_flags if not 0).
 */
uint32_t bo_map_def_size(const struct bo_map *m);

/*
 * Build .BTF and .BTF.ext for the object laid out as `lay`: map
 * definitions, .bss variables, a FUNC for every function and extern,
 * func_info and line_info.  Buffers are malloc'ed; there is no .BTF.ext
 * (NULL, size 0) if there are no functions.
 */
int bo_build_btf(const struct bo_object *obj, const struct bo_layout *lay,
		 void **btfp, size_t *btf_sizep, void **extp, size_t *ext_sizep,
		 char *err, size_t errlen);

#endif
