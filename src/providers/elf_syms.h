/*
 * What the pid and usdt providers need from an ELF object on disk, read
 * once with libelf: its defined symbols (.symtab and .dynsym), its
 * loadable segments (link-time address to file offset), its stapsdt
 * notes and the types of its USDT probes.
 */
#ifndef DT_ELF_SYMS_H
#define DT_ELF_SYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "providers/stapsdt.h"
#include "providers/usdt_types.h"

struct dt_elf_sym {
	const char *name;
	uint64_t addr;		/* link-time address */
	uint64_t size;
	uint8_t bind;		/* STB_* */
	uint8_t type;		/* STT_* */
	bool func;		/* STT_FUNC or STT_GNU_IFUNC */
	/*
	 * A non-default GNU symbol version (name@VER, not name@@VER): an
	 * alias kept for programs linked against an old ABI.  The name is
	 * stored without its version.
	 */
	bool hidden;
};

struct dt_elf_seg {
	uint64_t vaddr, memsz, offset, filesz;
	uint32_t flags;		/* PF_* */
};

struct dt_elf {
	char *path;
	uint16_t type;			/* ET_EXEC, ET_DYN */
	uint64_t entry;			/* e_entry: where the process starts (0: none) */
	/*
	 * Functions of non-zero size, by address; symbols at one address are
	 * adjacent, the canonical name (see dt_elf_sym_better) first.
	 */
	struct dt_elf_sym *funcs;
	size_t nfuncs;
	/* Every defined symbol (functions and data), by name. */
	struct dt_elf_sym *byname;
	size_t nbyname;
	struct dt_elf_seg *segs;
	size_t nsegs;
	struct dt_sdt_note *notes;
	size_t nnotes;
	bool has_sdt_base;
	uint64_t sdt_base;		/* address of .stapsdt.base */
	struct dt_usdt_types *types;	/* the USDT probes' types (.note.dtrace) */
	size_t ntypes;
	char *names;			/* storage of the symbol names */
};

/* Read an ELF file; on failure returns a negative errno and a message. */
int dt_elf_load(const char *path, struct dt_elf **ep, char *err, size_t errlen);
void dt_elf_free(struct dt_elf *e);

/* The function containing addr (its canonical name), or NULL. */
const struct dt_elf_sym *dt_elf_func_at(const struct dt_elf *e, uint64_t addr);

/* The first defined symbol named `name` (functions before data), or NULL. */
const struct dt_elf_sym *dt_elf_lookup(const struct dt_elf *e, const char *name);

/* The argument types of USDT probe `probe` of provider `provider`, or NULL. */
const struct dt_usdt_types *dt_elf_usdt_types(const struct dt_elf *e, const char *provider,
					      const char *probe);

/* The file offset of a link-time address; false if no segment has it. */
bool dt_elf_file_offset(const struct dt_elf *e, uint64_t addr, uint64_t *off);

/* The segment loaded from file offset `off`, or NULL. */
const struct dt_elf_seg *dt_elf_seg_at_offset(const struct dt_elf *e, uint64_t off);

#endif
