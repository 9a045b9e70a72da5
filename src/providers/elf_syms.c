/* Reading an ELF object's symbols, segments and stapsdt notes with libelf. */
#include "providers/elf_syms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/*
 * Whether a is a better name than b for the same address, as DTrace's
 * libproc prefers (byaddr_cmp_common): a function (STT_FUNC) before other
 * types, global or weak (alike) before local, no leading '$', fewer
 * leading underscores, the smaller symbol, then alphabetical order.
 * DTrace predates GNU symbol versions; here an alias with a non-default
 * version (glibc's cfree@GLIBC_2.2.5 at free's address) comes after the
 * others of its binding: it names the function only for old binaries.
 */
static bool sym_better(const struct dt_elf_sym *a, const struct dt_elf_sym *b)
{
	bool la = a->bind == STB_LOCAL, lb = b->bind == STB_LOCAL;

	if ((a->type == STT_FUNC) != (b->type == STT_FUNC))
		return a->type == STT_FUNC;
	if (la != lb)
		return lb;
	if (a->hidden != b->hidden)
		return b->hidden;
	if ((a->name[0] == '$') != (b->name[0] == '$'))
		return b->name[0] == '$';
	size_t ua = strspn(a->name, "_"), ub = strspn(b->name, "_");
	if (ua != ub)
		return ua < ub;
	if (a->size != b->size)
		return a->size < b->size;
	return strcmp(a->name, b->name) < 0;
}

static int cmp_addr(const void *x, const void *y)
{
	const struct dt_elf_sym *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (sym_better(a, b))
		return -1;
	return sym_better(b, a) ? 1 : 0;
}

static int cmp_name(const void *x, const void *y)
{
	const struct dt_elf_sym *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	if (c != 0)
		return c;
	if (a->func != b->func)
		return a->func ? -1 : 1;
	if ((a->bind == STB_LOCAL) != (b->bind == STB_LOCAL))
		return a->bind == STB_LOCAL ? 1 : -1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	/* Of two entries of one name and address the better is kept (finish()). */
	if (sym_better(a, b))
		return -1;
	if (sym_better(b, a))
		return 1;
	return (a->bind > b->bind) - (a->bind < b->bind);
}

struct loader {
	struct dt_elf *e;
	DT_VEC(struct dt_elf_sym) syms;
	DT_VEC(struct dt_sdt_note) notes;
	DT_VEC(struct dt_usdt_types) types;
	struct dt_strbuf names;
};

static int add_note(const struct dt_sdt_note *n, void *arg)
{
	struct loader *ld = arg;
	struct dt_sdt_note c = {
		.provider = strdup(n->provider), .name = strdup(n->name), .args = strdup(n->args),
		.pc = n->pc, .base = n->base, .sema = n->sema,
	};

	if (c.provider == NULL || c.name == NULL || c.args == NULL || dt_vec_push(&ld->notes, c) < 0) {
		dt_sdt_note_free(&c);
		return -ENOMEM;
	}
	return 0;
}

/* A types note: kept, unless one for the probe is there already (every object of a program has it). */
static int add_types(struct dt_usdt_types *t, void *arg)
{
	struct loader *ld = arg;

	for (size_t i = 0; i < ld->types.n; i++)
		if (strcmp(ld->types.v[i].provider, t->provider) == 0 &&
		    strcmp(ld->types.v[i].probe, t->probe) == 0)
			return 0;
	return dt_vec_push(&ld->types, *t) < 0 ? -ENOMEM : 1;
}

/* The .gnu.version section (one entry per .dynsym symbol), or NULL. */
static Elf_Data *versym_data(Elf *elf)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn != NULL; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) != NULL && sh.sh_type == SHT_GNU_versym)
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

/*
 * Whether symbol i has a non-default version: .dynsym says so in
 * .gnu.version, a .symtab in the name ("name@VER"; "name@@VER" is the
 * default).  *len is the length of the name without the version.
 */
static bool sym_hidden(const char *name, Elf_Data *versym, size_t i, size_t *len)
{
	const char *at = strchr(name, '@');
	GElf_Versym v;

	*len = at != NULL ? (size_t)(at - name) : strlen(name);
	if (at != NULL)
		return at[1] != '@';
	if (versym != NULL && gelf_getversym(versym, (int)i, &v) != NULL)
		return (v & 0x8000) != 0 && (v & 0x7fff) > 1;	/* VERSYM_HIDDEN, not local/base */
	return false;
}

static int read_symtab(struct loader *ld, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Data *versym = sh->sh_type == SHT_DYNSYM ? versym_data(elf) : NULL;

	if (data == NULL || sh->sh_entsize == 0)
		return 0;
	size_t n = sh->sh_size / sh->sh_entsize;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		if (gelf_getsym(data, (int)i, &s) == NULL)
			break;
		int type = GELF_ST_TYPE(s.st_info);
		if (s.st_shndx == SHN_UNDEF || s.st_name == 0 ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT))
			continue;
		const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
		size_t len;
		if (name == NULL || name[0] == '\0')
			continue;
		bool hidden = sym_hidden(name, versym, i, &len);
		if (len == 0)
			continue;
		struct dt_elf_sym sym = {
			/* An offset into the name storage until it is complete. */
			.name = (const char *)(uintptr_t)(ld->names.len + 1),
			.addr = s.st_value,
			.size = s.st_size,
			.bind = (uint8_t)GELF_ST_BIND(s.st_info),
			.type = (uint8_t)type,
			.func = type != STT_OBJECT,
			.hidden = hidden,
		};
		/* Symbols print as DTrace shows them: without their version. */
		dt_sb_printf(&ld->names, "%.*s", (int)len, name);
		dt_sb_putc(&ld->names, '\0');
		if (ld->names.oom || dt_vec_push(&ld->syms, sym) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int read_elf(struct loader *ld, Elf *elf, char *err, size_t errlen)
{
	struct dt_elf *e = ld->e;
	GElf_Ehdr eh;
	size_t shstrndx, nph;

	if (gelf_getehdr(elf, &eh) == NULL || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    elf_getphdrnum(elf, &nph) != 0) {
		snprintf(err, errlen, "%s is not a valid ELF file", e->path);
		return -EINVAL;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64) {
		snprintf(err, errlen, "%s is not a 64-bit ELF object", e->path);
		return -ENOTSUP;
	}
	e->type = eh.e_type;
	e->entry = eh.e_entry;
	e->segs = calloc(nph ? nph : 1, sizeof(*e->segs));
	if (e->segs == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_LOAD)
			continue;
		e->segs[e->nsegs++] = (struct dt_elf_seg){ ph.p_vaddr, ph.p_memsz, ph.p_offset,
							   ph.p_filesz, ph.p_flags };
	}
	dt_sb_putc(&ld->names, '\0');	/* offset 0 is never a name */
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn != NULL; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		int rc = 0;
		if (sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_DYNSYM) {
			rc = read_symtab(ld, elf, scn, &sh);
		} else if (sh.sh_type == SHT_NOTE && name != NULL &&
			   strcmp(name, ".note.stapsdt") == 0) {
			Elf_Data *data = elf_getdata(scn, NULL);
			if (data != NULL && data->d_buf != NULL)
				rc = dt_sdt_notes_walk(data->d_buf, data->d_size, add_note, ld);
		} else if (sh.sh_type == SHT_NOTE && name != NULL &&
			   strcmp(name, DT_USDT_TYPES_SECTION) == 0) {
			Elf_Data *data = elf_getdata(scn, NULL);
			if (data != NULL && data->d_buf != NULL)
				rc = dt_usdt_types_walk(data->d_buf, data->d_size, add_types, ld);
		} else if (name != NULL && strcmp(name, ".stapsdt.base") == 0) {
			e->has_sdt_base = true;
			e->sdt_base = sh.sh_addr;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Sort, resolve names, drop duplicates (a symbol in both tables). */
static int finish(struct loader *ld)
{
	struct dt_elf *e = ld->e;
	size_t n = ld->syms.n;

	e->names = dt_sb_take(&ld->names);
	if (e->names == NULL && n > 0)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		ld->syms.v[i].name = e->names + (uintptr_t)ld->syms.v[i].name - 1;
	qsort(ld->syms.v, n, sizeof(*ld->syms.v), cmp_name);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		struct dt_elf_sym *s = &ld->syms.v[i];
		if (m > 0 && strcmp(ld->syms.v[m - 1].name, s->name) == 0 &&
		    ld->syms.v[m - 1].addr == s->addr)
			continue;
		ld->syms.v[m++] = *s;
	}
	e->byname = ld->syms.v;
	e->nbyname = m;
	ld->syms.v = NULL;
	ld->syms.n = 0;
	e->funcs = calloc(m ? m : 1, sizeof(*e->funcs));
	if (e->funcs == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < m; i++)
		if (e->byname[i].func && e->byname[i].size > 0)
			e->funcs[e->nfuncs++] = e->byname[i];
	qsort(e->funcs, e->nfuncs, sizeof(*e->funcs), cmp_addr);
	e->notes = ld->notes.v;
	e->nnotes = ld->notes.n;
	ld->notes.v = NULL;
	ld->notes.n = 0;
	e->types = ld->types.v;
	e->ntypes = ld->types.n;
	ld->types.v = NULL;
	ld->types.n = 0;
	return 0;
}

int dt_elf_load(const char *path, struct dt_elf **ep, char *err, size_t errlen)
{
	struct loader ld;
	int rc;

	*ep = NULL;
	memset(&ld, 0, sizeof(ld));
	dt_sb_init(&ld.names);
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf is out of date");
		return -ENOTSUP;
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen, "failed to open %s: %s", path, strerror(errno));
		return rc;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ld.e = calloc(1, sizeof(*ld.e));
	if (ld.e == NULL || (ld.e->path = strdup(path)) == NULL) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF) {
		rc = -EINVAL;
		snprintf(err, errlen, "%s is not an ELF file", path);
		goto out;
	}
	rc = read_elf(&ld, elf, err, errlen);
	if (rc == 0)
		rc = finish(&ld);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
out:
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	for (size_t i = 0; i < ld.notes.n; i++)
		dt_sdt_note_free(&ld.notes.v[i]);
	dt_vec_free(&ld.notes);
	for (size_t i = 0; i < ld.types.n; i++)
		dt_usdt_types_free(&ld.types.v[i]);
	dt_vec_free(&ld.types);
	dt_vec_free(&ld.syms);
	dt_sb_free(&ld.names);
	if (rc < 0) {
		dt_elf_free(ld.e);
		return rc;
	}
	*ep = ld.e;
	return 0;
}

void dt_elf_free(struct dt_elf *e)
{
	if (e == NULL)
		return;
	for (size_t i = 0; i < e->nnotes; i++)
		dt_sdt_note_free(&e->notes[i]);
	free(e->notes);
	for (size_t i = 0; i < e->ntypes; i++)
		dt_usdt_types_free(&e->types[i]);
	free(e->types);
	free(e->funcs);
	free(e->byname);
	free(e->segs);
	free(e->names);
	free(e->path);
	free(e);
}

const struct dt_elf_sym *dt_elf_func_at(const struct dt_elf *e, uint64_t addr)
{
	size_t lo = 0, hi = e->nfuncs;

	/* The last function starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Nested or overlapping symbols: look back for one that contains addr. */
	for (size_t i = lo; i-- > 0;) {
		const struct dt_elf_sym *s = &e->funcs[i];
		if (addr < s->addr + s->size) {
			/* The best name at that address whose symbol holds addr too. */
			while (i > 0 && e->funcs[i - 1].addr == s->addr &&
			       addr < e->funcs[i - 1].addr + e->funcs[i - 1].size)
				s = &e->funcs[--i];
			return s;
		}
		if (lo - i > 64)
			break;
	}
	return NULL;
}

const struct dt_elf_sym *dt_elf_lookup(const struct dt_elf *e, const char *name)
{
	size_t lo = 0, hi = e->nbyname;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(e->byname[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < e->nbyname && strcmp(e->byname[lo].name, name) == 0)
		return &e->byname[lo];
	return NULL;
}

bool dt_elf_file_offset(const struct dt_elf *e, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct dt_elf_seg *s = &e->segs[i];
		if (addr >= s->vaddr && addr < s->vaddr + s->filesz) {
			*off = addr - s->vaddr + s->offset;
			return true;
		}
	}
	return false;
}

const struct dt_elf_seg *dt_elf_seg_at_offset(const struct dt_elf *e, uint64_t off)
{
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct dt_elf_seg *s = &e->segs[i];
		if (off >= s->offset && off < s->offset + (s->filesz ? s->filesz : 1))
			return s;
	}
	return NULL;
}

const struct dt_usdt_types *dt_elf_usdt_types(const struct dt_elf *e, const char *provider,
					      const char *probe)
{
	for (size_t i = 0; i < e->ntypes; i++)
		if (strcmp(e->types[i].provider, provider) == 0 &&
		    strcmp(e->types[i].probe, probe) == 0)
			return &e->types[i];
	return NULL;
}
