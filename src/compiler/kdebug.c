/*
 * Kernel variables from the kernel's debuginfo.  Stock kernels' BTF types
 * only per-CPU variables, so a D program reading `jiffies or `max_pfn
 * needs the DWARF of the distribution's debug vmlinux.  Types are rebuilt
 * from DWARF only down to the first named type, which is then taken from
 * the kernel's BTF (the same kernel build, so the same names), keeping one
 * struct task_struct however a variable was found.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "base/htab.h"
#include "base/types.h"
#include "compiler/ast.h"
#include "compiler/kdebug.h"

struct dt_kdebug {
	int fd;
	Dwarf *dw;
	Elf *elf;
	struct dt_htab vars;	/* top-level variable name -> DIE offset + 1 */
	bool indexed;
};

/* Where distributions install the debug vmlinux (perf and systemtap look there too). */
static const char *const places[] = {
	"/usr/lib/debug/boot/vmlinux-%s",
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",
};

/* The running kernel's GNU build ID, from the notes it exports. */
static size_t running_build_id(unsigned char *id, size_t max)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	for (size_t off = 0; n > 0 && off + 12 <= (size_t)n;) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name = off + 12, desc = name + ((namesz + 3) & ~3u);
		if (desc + descsz > (size_t)n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(buf + name, "GNU", 4) == 0 &&
		    descsz <= max) {
			memcpy(id, buf + desc, descsz);
			return descsz;
		}
		off = desc + ((descsz + 3) & ~3u);
	}
	return 0;
}

/* Whether the file is this kernel's (same build ID; files without one are trusted). */
static bool matches_running(Elf *elf)
{
	unsigned char want[64];
	const void *have;
	size_t wn = running_build_id(want, sizeof(want));
	ssize_t hn = dwelf_elf_gnu_build_id(elf, &have);

	if (wn == 0 || hn <= 0)
		return true;
	return (size_t)hn == wn && memcmp(have, want, wn) == 0;
}

static struct dt_kdebug *open_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
	if (dw == NULL) {
		close(fd);
		return NULL;
	}
	Elf *elf = dwarf_getelf(dw);
	if (elf == NULL || !matches_running(elf)) {
		dwarf_end(dw);
		close(fd);
		return NULL;
	}
	struct dt_kdebug *kd = calloc(1, sizeof(*kd));
	if (kd == NULL) {
		dwarf_end(dw);
		close(fd);
		return NULL;
	}
	kd->fd = fd;
	kd->dw = dw;
	kd->elf = elf;
	return kd;
}

struct dt_kdebug *dt_kdebug_open(void)
{
	struct utsname u;
	char path[512];

	if (uname(&u) != 0)
		return NULL;
	elf_version(EV_CURRENT);
	for (size_t i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, sizeof(path), places[i], u.release);
		struct dt_kdebug *kd = open_file(path);
		if (kd != NULL)
			return kd;
	}
	return NULL;
}

void dt_kdebug_close(struct dt_kdebug *kd)
{
	if (kd == NULL)
		return;
	dt_htab_free(&kd->vars);
	dwarf_end(kd->dw);
	close(kd->fd);
	free(kd);
}

/* Find `name` in the ELF symbol table; its section's name in *secname. */
static bool find_symbol(struct dt_kdebug *kd, const char *name, GElf_Sym *out,
			const char **secname)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(kd->elf, &shstrndx) != 0)
		return false;
	while ((scn = elf_nextscn(kd->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 1; data != NULL && i < n; i++) {
			GElf_Sym sym;
			if (gelf_getsym(data, (int)i, &sym) == NULL || sym.st_name == 0)
				continue;
			const char *s = elf_strptr(kd->elf, sh.sh_link, sym.st_name);
			if (s == NULL || strcmp(s, name) != 0)
				continue;
			*out = sym;
			*secname = "";
			Elf_Scn *ss = sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE ?
					      elf_getscn(kd->elf, sym.st_shndx) : NULL;
			GElf_Shdr ssh;
			if (ss != NULL && gelf_getshdr(ss, &ssh) != NULL) {
				const char *sn = elf_strptr(kd->elf, shstrndx, ssh.sh_name);
				*secname = sn != NULL ? sn : "";
			}
			return true;
		}
	}
	return false;
}

bool dt_kdebug_symaddr(struct dt_kdebug *kd, const char *name, uint64_t *addr)
{
	GElf_Sym sym;
	const char *sec;

	if (!find_symbol(kd, name, &sym, &sec))
		return false;
	*addr = sym.st_value;
	return true;
}

bool dt_kdebug_symbol(struct dt_kdebug *kd, const char *name, uint64_t *addr, bool *percpu)
{
	GElf_Sym sym;
	const char *sec;

	if (!find_symbol(kd, name, &sym, &sec) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT)
		return false;
	*addr = sym.st_value;
	*percpu = strcmp(sec, ".data..percpu") == 0;
	return true;
}

/* Index every compilation unit's top-level variables by name (one pass, well under a second). */
static void index_vars(struct dt_kdebug *kd)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	kd->indexed = true;
	while (dwarf_nextcu(kd->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, d;
		if (dwarf_offdie(kd->dw, off + hsize, &cu) != NULL && dwarf_child(&cu, &d) == 0) {
			do {
				if (dwarf_tag(&d) != DW_TAG_variable || !dwarf_hasattr(&d, DW_AT_type))
					continue;
				const char *name = dwarf_diename(&d);
				/* Names point into the mapped .debug_str: they live as long as kd. */
				if (name != NULL && dt_htab_get(&kd->vars, name) == NULL &&
				    dt_htab_put(&kd->vars, name,
						(void *)(uintptr_t)(dwarf_dieoffset(&d) + 1)) < 0)
					return;
			} while (dwarf_siblingof(&d, &d) == 0);
		}
		off = next;
	}
}

static struct dt_type *type_of(struct dt_kdebug *kd, struct dt_typetab *tt, Dwarf_Die *die,
			       int depth);

/* The DIE's DW_AT_type as a D type; void when it has none. */
static struct dt_type *referenced(struct dt_kdebug *kd, struct dt_typetab *tt, Dwarf_Die *die,
				  int depth)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	if (dwarf_attr(die, DW_AT_type, &a) == NULL)
		return tt->t_void;
	if (dwarf_formref_die(&a, &t) == NULL)
		return NULL;
	return type_of(kd, tt, &t, depth + 1);
}

/* A named type of the kernel, as its BTF has it. */
static struct dt_type *kernel_named(struct dt_typetab *tt, const char *prefix, const char *name)
{
	char key[300];

	if (name == NULL)
		return NULL;
	snprintf(key, sizeof(key), "%svmlinux`%s", prefix, name);
	return dt_type_lookup(tt, key);
}

static struct dt_type *base_type(struct dt_typetab *tt, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	int size = dwarf_bytesize(die);
	struct dt_type *t = kernel_named(tt, "", dwarf_diename(die));

	if (t != NULL)
		return t;
	if (dwarf_attr(die, DW_AT_encoding, &a) != NULL)
		dwarf_formudata(&a, &enc);
	if (enc == DW_ATE_boolean)
		return tt->t_bool;
	if (size <= 0 || size > 8 || (enc != DW_ATE_signed && enc != DW_ATE_unsigned &&
				      enc != DW_ATE_signed_char && enc != DW_ATE_unsigned_char))
		return NULL;
	if (size == 1 && enc == DW_ATE_signed_char)
		return tt->t_char;
	return dt_type_int(tt, (uint32_t)size,
			   enc == DW_ATE_signed || enc == DW_ATE_signed_char);
}

/* Arrays: one subrange child per dimension, the last one innermost. */
static struct dt_type *array_type(struct dt_kdebug *kd, struct dt_typetab *tt, Dwarf_Die *die,
				  int depth)
{
	struct dt_type *t = referenced(kd, tt, die, depth);
	uint32_t dims[16];
	int nd = 0;
	Dwarf_Die c;

	if (t == NULL || dwarf_child(die, &c) != 0)
		return t;
	do {
		if (dwarf_tag(&c) != DW_TAG_subrange_type || nd == 16)
			continue;
		Dwarf_Attribute a;
		Dwarf_Word v = 0;
		if (dwarf_attr(&c, DW_AT_count, &a) != NULL && dwarf_formudata(&a, &v) == 0)
			dims[nd++] = (uint32_t)v;
		else if (dwarf_attr(&c, DW_AT_upper_bound, &a) != NULL &&
			 dwarf_formudata(&a, &v) == 0)
			dims[nd++] = (uint32_t)(v + 1);
		else
			dims[nd++] = 0;	/* extern char x[]: unknown length */
	} while (dwarf_siblingof(&c, &c) == 0);
	while (t != NULL && nd > 0)
		t = dt_type_array(tt, t, dims[--nd]);
	return t;
}

static struct dt_type *type_of(struct dt_kdebug *kd, struct dt_typetab *tt, Dwarf_Die *die,
			       int depth)
{
	struct dt_type *t;

	if (depth > 32)
		return NULL;
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		return base_type(tt, die);
	case DW_TAG_typedef:
		t = kernel_named(tt, "", dwarf_diename(die));
		return t != NULL ? t : referenced(kd, tt, die, depth);
	case DW_TAG_structure_type:
		return kernel_named(tt, "struct ", dwarf_diename(die));
	case DW_TAG_union_type:
		return kernel_named(tt, "union ", dwarf_diename(die));
	case DW_TAG_enumeration_type:
		return kernel_named(tt, "enum ", dwarf_diename(die));
	case DW_TAG_pointer_type:
		t = referenced(kd, tt, die, depth);
		return t != NULL ? dt_type_ptr(tt, t) : NULL;
	case DW_TAG_const_type:
	case DW_TAG_volatile_type: {
		t = referenced(kd, tt, die, depth);
		unsigned q = dwarf_tag(die) == DW_TAG_const_type ? DS_CONST : DS_VOLATILE;
		return t != NULL ? dt_type_qualified(tt, t, q) : NULL;
	}
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		return referenced(kd, tt, die, depth);
	case DW_TAG_array_type:
		return array_type(kd, tt, die, depth);
	case DW_TAG_subroutine_type:
		t = dt_type_new(tt, TK_FUNC, NULL);
		if (t != NULL) {
			t->base = referenced(kd, tt, die, depth);
			t->varargs = true;
			if (t->base == NULL)
				t = NULL;
		}
		return t;
	default:
		return NULL;
	}
}

struct dt_type *dt_kdebug_vartype(struct dt_kdebug *kd, struct dt_typetab *tt, const char *name)
{
	if (!kd->indexed)
		index_vars(kd);
	uintptr_t off = (uintptr_t)dt_htab_get(&kd->vars, name);
	Dwarf_Die die;

	if (off == 0 || dwarf_offdie(kd->dw, off - 1, &die) == NULL)
		return NULL;
	return referenced(kd, tt, &die, 0);
}
