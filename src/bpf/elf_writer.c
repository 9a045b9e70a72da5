/*
 * The ELF writer: a struct bo_object becomes a relocatable BPF ELF object
 * (ET_REL, EM_BPF) as clang would emit it, written with libelf into a
 * memfd and read back.
 *
 * Sections: .strtab (section and symbol names), .text (subprograms), one
 * section per distinct program section name (libbpf splits a section into
 * programs by their FUNC symbols), .rodata, .bss, .maps, license, .BTF,
 * .BTF.ext, .symtab and .rel<code section>.
 *
 * Relocations, as libbpf and its static linker expect them:
 *   - map references: R_BPF_64_64 against the map's symbol in .maps;
 *   - .bss/.rodata references: R_BPF_64_64 against the section symbol,
 *     the offset kept in the ld_imm64's imm (the linker adds the
 *     section's new offset to it, libbpf adds imm to the symbol value);
 *   - calls: R_BPF_64_32 against the callee's symbol with imm -1 (libbpf
 *     computes the target as symbol value / 8 + imm + 1): a local FUNC
 *     in .text for subprograms, an undefined hidden global for run-time
 *     functions, which the linker resolves by name and BTF prototype.
 */
#include "bpf/elf_writer.h"

#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/elf_layout.h"
#include "bpf/errmsg.h"
#include "bpf/memfd.h"

#ifndef R_BPF_64_64
#define R_BPF_64_64 1
#endif
#ifndef R_BPF_64_32
#define R_BPF_64_32 10
#endif

struct ew_sec {
	const char *name;
	uint32_t type;
	uint64_t flags;
	uint64_t align;
	uint64_t entsize;
	uint32_t link, info;
	const void *data;	/* NULL for NOBITS */
	size_t size;
	Elf_Type dtype;
	size_t name_off;
};

struct ew_syms {
	Elf64_Sym *v;
	size_t n, cap;
};

struct ew_rels {
	Elf64_Rel *v;
	size_t n, cap;
};

struct ew_code {
	struct bpf_insn *v;
	size_t n, cap;
};

struct writer {
	const struct bo_object *obj;
	struct bo_layout lay;
	struct dt_strbuf strtab;
	struct ew_syms syms;
	size_t first_global;
	size_t rodata_sym, bss_sym;
	size_t *func_sym;	/* per function */
	size_t *map_sym;	/* per map */
	size_t *extern_sym;	/* per extern */
	struct ew_code *code;	/* per code section */
	struct ew_rels *rels;	/* per code section */
	void *btf, *ext;
	size_t btf_size, ext_size;
	uint8_t *maps_data;	/* zeros: map definitions are all in BTF */
	char *err;
	size_t errlen;
};

static size_t str_add(struct writer *w, const char *s)
{
	size_t off = w->strtab.len;

	dt_sb_putn(&w->strtab, s, strlen(s) + 1);
	return off;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool ident_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* The kernel refuses BTF whose FUNC and VAR names are not C identifiers. */
static bool is_identifier(const char *s)
{
	if (s == NULL || !ident_char(s[0], true))
		return false;
	while (*++s != '\0')
		if (!ident_char(*s, false))
			return false;
	return true;
}

/* Every name becomes an ELF symbol and a BTF name: one of each. */
static int check_names(struct writer *w)
{
	const struct bo_object *obj = w->obj;
	size_t n = obj->funcs.n + obj->maps.n + obj->bss_vars.n + obj->externs.n, k = 0;
	const char **names = calloc(n + 1, sizeof(*names));
	int rc = 0;

	if (names == NULL)
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < obj->funcs.n; i++)
		names[k++] = obj->funcs.v[i]->name;
	for (size_t i = 0; i < obj->maps.n; i++)
		names[k++] = obj->maps.v[i].name;
	for (size_t i = 0; i < obj->bss_vars.n; i++)
		names[k++] = obj->bss_vars.v[i].name;
	for (size_t i = 0; i < obj->externs.n; i++)
		names[k++] = obj->externs.v[i].name;
	for (size_t i = 0; i < n && rc == 0; i++)
		if (!is_identifier(names[i]))
			rc = bo_errf(w->err, w->errlen, -EINVAL, "BPF object: invalid name '%s'",
				     names[i] ? names[i] : "(null)");
	if (rc == 0) {
		qsort(names, n, sizeof(*names), cmp_str);
		for (size_t i = 1; i < n && rc == 0; i++)
			if (strcmp(names[i - 1], names[i]) == 0)
				rc = bo_errf(w->err, w->errlen, -EINVAL,
					     "BPF object: '%s' is defined twice", names[i]);
	}
	free(names);
	return rc;
}

static int validate(struct writer *w)
{
	const struct bo_object *obj = w->obj;
	int rc = check_names(w);

	for (size_t i = 0; i < obj->funcs.n && rc == 0; i++) {
		const struct bo_func *f = obj->funcs.v[i];

		if (f->insns.n == 0 || f->nargs > 5)
			rc = bo_errf(w->err, w->errlen, -EINVAL, "function '%s': %s", f->name,
				     f->nargs > 5 ? "more than 5 arguments" : "no instructions");
		else if (f->section != NULL && (f->section[0] == '\0' || strcmp(f->section, ".text") == 0))
			rc = bo_errf(w->err, w->errlen, -EINVAL,
				     "program '%s': invalid section name '%s'", f->name, f->section);
	}
	for (size_t i = 0; i < obj->externs.n && rc == 0; i++)
		if (obj->externs.v[i].nargs > 5)
			rc = bo_errf(w->err, w->errlen, -EINVAL, "run-time function '%s': more than 5 arguments",
				     obj->externs.v[i].name);
	for (size_t i = 0; i < obj->bss_vars.n && rc == 0; i++) {
		const struct bo_var *v = &obj->bss_vars.v[i];

		if (v->size == 0 || v->offset > obj->bss_size || v->size > obj->bss_size - v->offset)
			rc = bo_errf(w->err, w->errlen, -EINVAL,
				     ".bss variable '%s' (offset %u, size %u) is outside .bss (%u bytes)",
				     v->name, v->offset, v->size, obj->bss_size);
		for (size_t j = 0; j < i && rc == 0; j++) {
			const struct bo_var *u = &obj->bss_vars.v[j];

			if (u->offset < v->offset + v->size && v->offset < u->offset + u->size)
				rc = bo_errf(w->err, w->errlen, -EINVAL,
					     ".bss variables '%s' and '%s' overlap", u->name, v->name);
		}
	}
	return rc;
}

static const char *func_section(const struct bo_func *f)
{
	return f->section ? f->section : ".text";
}

/* Code sections and where each function and map definition goes. */
static int lay_out(struct writer *w)
{
	const struct bo_object *obj = w->obj;
	struct bo_layout *lay = &w->lay;
	size_t nf = obj->funcs.n;
	uint32_t *sec_size;

	lay->code_name = calloc(nf + 1, sizeof(*lay->code_name));
	lay->func_code = calloc(nf + 1, sizeof(*lay->func_code));
	lay->func_off = calloc(nf + 1, sizeof(*lay->func_off));
	lay->map_off = calloc(obj->maps.n + 1, sizeof(*lay->map_off));
	sec_size = calloc(nf + 1, sizeof(*sec_size));
	if (!lay->code_name || !lay->func_code || !lay->func_off || !lay->map_off || !sec_size) {
		free(sec_size);
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nf; i++)
		if (obj->funcs.v[i]->section == NULL) {
			lay->code_name[lay->ncode++] = ".text";
			break;
		}
	for (size_t i = 0; i < nf; i++) {
		const char *name = func_section(obj->funcs.v[i]);
		size_t s = 0;

		while (s < lay->ncode && strcmp(lay->code_name[s], name) != 0)
			s++;
		if (s == lay->ncode)
			lay->code_name[lay->ncode++] = name;
		lay->func_code[i] = s;
		lay->func_off[i] = sec_size[s];
		if (obj->funcs.v[i]->insns.n > (UINT32_MAX - sec_size[s]) / 8) {
			free(sec_size);
			return bo_errf(w->err, w->errlen, -E2BIG, "section '%s' is too large", name);
		}
		sec_size[s] += (uint32_t)obj->funcs.v[i]->insns.n * 8;
	}
	free(sec_size);
	for (size_t i = 0; i < obj->maps.n; i++) {
		lay->map_off[i] = lay->maps_size;
		lay->maps_size += bo_map_def_size(&obj->maps.v[i]);
	}
	return 0;
}

static size_t sym_add(struct writer *w, const char *name, unsigned char bind, unsigned char type,
		      unsigned char vis, size_t shndx, uint64_t value, uint64_t size)
{
	Elf64_Sym s = {
		.st_name = name ? (Elf64_Word)str_add(w, name) : 0,
		.st_info = ELF64_ST_INFO(bind, type),
		.st_other = vis,
		.st_shndx = (Elf64_Section)shndx,
		.st_value = value,
		.st_size = size,
	};

	if (dt_vec_push(&w->syms, s) < 0)
		w->strtab.oom = true;	/* reported with the string table's */
	return w->syms.n - 1;
}

/* ELF section indices, fixed by the order list_sections() uses. */
struct sec_index {
	size_t code0, rodata, bss, maps, license, btf, ext, symtab, count;
};

static struct sec_index sec_indices(const struct writer *w)
{
	const struct bo_object *obj = w->obj;
	struct sec_index x = { 0 };
	size_t i = 1;		/* 0 is the null section */

	i++;			/* .strtab */
	x.code0 = i;
	i += w->lay.ncode;
	x.rodata = obj->rodata.n ? i++ : 0;
	x.bss = obj->bss_size ? i++ : 0;
	x.maps = obj->maps.n ? i++ : 0;
	x.license = i++;
	x.btf = i++;
	x.ext = obj->funcs.n ? i++ : 0;	/* see bo_build_btf() */
	x.symtab = i++;
	x.count = i;		/* without the relocation sections */
	return x;
}

static int make_symbols(struct writer *w, const struct sec_index *x)
{
	const struct bo_object *obj = w->obj;

	w->func_sym = calloc(obj->funcs.n + 1, sizeof(*w->func_sym));
	w->map_sym = calloc(obj->maps.n + 1, sizeof(*w->map_sym));
	w->extern_sym = calloc(obj->externs.n + 1, sizeof(*w->extern_sym));
	if (!w->func_sym || !w->map_sym || !w->extern_sym)
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");

	sym_add(w, NULL, STB_LOCAL, STT_NOTYPE, STV_DEFAULT, SHN_UNDEF, 0, 0);
	if (x->rodata)
		w->rodata_sym = sym_add(w, NULL, STB_LOCAL, STT_SECTION, STV_DEFAULT, x->rodata, 0, 0);
	if (x->bss)
		w->bss_sym = sym_add(w, NULL, STB_LOCAL, STT_SECTION, STV_DEFAULT, x->bss, 0, 0);
	/* Locals first (ELF rule): subprograms are static functions. */
	for (size_t i = 0; i < obj->funcs.n; i++) {
		const struct bo_func *f = obj->funcs.v[i];

		if (f->section == NULL)
			w->func_sym[i] = sym_add(w, f->name, STB_LOCAL, STT_FUNC, STV_DEFAULT,
						 x->code0 + w->lay.func_code[i], w->lay.func_off[i],
						 f->insns.n * 8);
	}
	w->first_global = w->syms.n;
	for (size_t i = 0; i < obj->funcs.n; i++) {
		const struct bo_func *f = obj->funcs.v[i];

		if (f->section != NULL)
			w->func_sym[i] = sym_add(w, f->name, STB_GLOBAL, STT_FUNC, STV_DEFAULT,
						 x->code0 + w->lay.func_code[i], w->lay.func_off[i],
						 f->insns.n * 8);
	}
	for (size_t i = 0; i < obj->maps.n; i++)
		w->map_sym[i] = sym_add(w, obj->maps.v[i].name, STB_GLOBAL, STT_OBJECT, STV_DEFAULT,
					x->maps, w->lay.map_off[i], bo_map_def_size(&obj->maps.v[i]));
	for (size_t i = 0; i < obj->bss_vars.n; i++)
		sym_add(w, obj->bss_vars.v[i].name, STB_GLOBAL, STT_OBJECT, STV_DEFAULT, x->bss,
			obj->bss_vars.v[i].offset, obj->bss_vars.v[i].size);
	for (size_t i = 0; i < obj->externs.n; i++)
		w->extern_sym[i] = sym_add(w, obj->externs.v[i].name, STB_GLOBAL, STT_NOTYPE,
					   STV_HIDDEN, SHN_UNDEF, 0, 0);
	if (w->strtab.oom)
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
	return 0;
}

/* Symbol a call to `name` relocates against, or 0 with a message. */
static size_t call_target(struct writer *w, const struct bo_func *from, const char *name)
{
	const struct bo_object *obj = w->obj;

	for (size_t i = 0; name != NULL && i < obj->funcs.n; i++) {
		if (strcmp(obj->funcs.v[i]->name, name) != 0)
			continue;
		if (obj->funcs.v[i]->section != NULL) {
			bo_errf(w->err, w->errlen, -EINVAL,
				"function '%s' calls program '%s': only subprograms can be called",
				from->name, name);
			return 0;
		}
		return w->func_sym[i];
	}
	for (size_t i = 0; name != NULL && i < obj->externs.n; i++)
		if (strcmp(obj->externs.v[i].name, name) == 0)
			return w->extern_sym[i];
	bo_errf(w->err, w->errlen, -EINVAL,
		"function '%s' calls '%s', which is neither a function of the object nor a declared run-time function",
		from->name, name ? name : "(null)");
	return 0;
}

static size_t map_target(struct writer *w, const struct bo_func *from, const char *name)
{
	for (size_t i = 0; name != NULL && i < w->obj->maps.n; i++)
		if (strcmp(w->obj->maps.v[i].name, name) == 0)
			return w->map_sym[i];
	bo_errf(w->err, w->errlen, -EINVAL, "function '%s' refers to unknown map '%s'",
		from->name, name ? name : "(null)");
	return 0;
}

/*
 * Check one relocation against its instruction, patch the instruction
 * into the form libbpf expects, and return the symbol and ELF type.
 */
static int reloc_one(struct writer *w, const struct bo_func *f, const struct bo_reloc *r,
		     struct bpf_insn *insn, size_t *symp, unsigned *typep)
{
	const struct bo_object *obj = w->obj;
	bool ld64 = insn->code == (BPF_LD | BPF_IMM | BPF_DW) && r->insn + 1 < f->insns.n;
	uint32_t limit;

	switch (r->kind) {
	case BO_RELOC_CALL:
		if (insn->code != (BPF_JMP | BPF_CALL))
			break;
		insn->src_reg = BPF_PSEUDO_CALL;
		insn->imm = -1;
		*typep = R_BPF_64_32;
		*symp = call_target(w, f, r->target);
		return *symp ? 0 : -EINVAL;
	case BO_RELOC_MAP_FD:
		if (!ld64)
			break;
		/* The kernel wants imm of both halves 0 besides the fd. */
		insn[0].src_reg = BPF_PSEUDO_MAP_FD;
		insn[0].imm = 0;
		insn[1].imm = 0;
		*typep = R_BPF_64_64;
		*symp = map_target(w, f, r->target);
		return *symp ? 0 : -EINVAL;
	case BO_RELOC_BSS:
	case BO_RELOC_RODATA:
		if (!ld64)
			break;
		limit = r->kind == BO_RELOC_BSS ? obj->bss_size : (uint32_t)obj->rodata.n;
		if (insn->imm < 0 || (uint32_t)insn->imm >= limit)
			return bo_errf(w->err, w->errlen, -EINVAL,
				       "function '%s', instruction %u: offset %d is outside %s (%u bytes)",
				       f->name, r->insn, insn->imm,
				       r->kind == BO_RELOC_BSS ? ".bss" : ".rodata", limit);
		*typep = R_BPF_64_64;
		*symp = r->kind == BO_RELOC_BSS ? w->bss_sym : w->rodata_sym;
		return 0;
	}
	return bo_errf(w->err, w->errlen, -EINVAL,
		       "function '%s', instruction %u: relocation does not fit opcode 0x%02x",
		       f->name, r->insn, insn->code);
}

/* Copy every function into its code section and collect relocations. */
static int make_code(struct writer *w)
{
	const struct bo_object *obj = w->obj;
	size_t ncode = w->lay.ncode;

	w->code = calloc(ncode + 1, sizeof(*w->code));
	w->rels = calloc(ncode + 1, sizeof(*w->rels));
	if (!w->code || !w->rels)
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < obj->funcs.n; i++) {
		const struct bo_func *f = obj->funcs.v[i];
		size_t s = w->lay.func_code[i];
		struct ew_code *c = &w->code[s];
		size_t base = c->n;

		if (dt_vec_reserve(c, base + f->insns.n) < 0)
			return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
		memcpy(c->v + base, f->insns.v, f->insns.n * sizeof(*c->v));
		c->n += f->insns.n;
		for (size_t j = 0; j < f->relocs.n; j++) {
			const struct bo_reloc *r = &f->relocs.v[j];
			size_t sym = 0;
			unsigned type = 0;
			int rc;

			if (r->insn >= f->insns.n)
				return bo_errf(w->err, w->errlen, -EINVAL,
					       "function '%s': relocation of instruction %u of %zu",
					       f->name, r->insn, f->insns.n);
			rc = reloc_one(w, f, r, &c->v[base + r->insn], &sym, &type);
			if (rc < 0)
				return rc;
			Elf64_Rel rel = {
				.r_offset = w->lay.func_off[i] + (uint64_t)r->insn * 8,
				.r_info = ELF64_R_INFO(sym, type),
			};
			if (dt_vec_push(&w->rels[s], rel) < 0)
				return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
		}
	}
	return 0;
}

static struct ew_sec *sec_add(struct ew_sec *secs, size_t *n, const char *name, uint32_t type,
			      uint64_t flags, uint64_t align, const void *data, size_t size)
{
	struct ew_sec *s = &secs[(*n)++];

	*s = (struct ew_sec){
		.name = name, .type = type, .flags = flags, .align = align,
		.data = data, .size = size, .dtype = ELF_T_BYTE,
	};
	return s;
}

/* The section table, in the order sec_indices() assumes. */
static size_t list_sections(struct writer *w, const struct sec_index *x, struct ew_sec *secs)
{
	const struct bo_object *obj = w->obj;
	const char *license = obj->license ? obj->license : "GPL";
	const uint64_t code = SHF_ALLOC | SHF_EXECINSTR, data = SHF_ALLOC | SHF_WRITE;
	struct ew_sec *s;
	size_t n = 0;

	sec_add(secs, &n, ".strtab", SHT_STRTAB, 0, 1, NULL, 0);	/* filled in last */
	for (size_t i = 0; i < w->lay.ncode; i++)
		sec_add(secs, &n, w->lay.code_name[i], SHT_PROGBITS, code, 8, w->code[i].v,
			w->code[i].n * sizeof(struct bpf_insn));
	if (x->rodata)
		sec_add(secs, &n, ".rodata", SHT_PROGBITS, SHF_ALLOC, 8, obj->rodata.v, obj->rodata.n);
	if (x->bss)
		sec_add(secs, &n, ".bss", SHT_NOBITS, data, 8, NULL, obj->bss_size);
	if (x->maps)
		sec_add(secs, &n, ".maps", SHT_PROGBITS, data, 8, w->maps_data, w->lay.maps_size);
	/* The linker merges license sections only if identical ("GPL" in bpf/). */
	sec_add(secs, &n, "license", SHT_PROGBITS, data, 1, license, strlen(license) + 1);
	sec_add(secs, &n, ".BTF", SHT_PROGBITS, 0, 4, w->btf, w->btf_size);
	if (x->ext)
		sec_add(secs, &n, ".BTF.ext", SHT_PROGBITS, 0, 4, w->ext, w->ext_size);
	s = sec_add(secs, &n, ".symtab", SHT_SYMTAB, 0, 8, w->syms.v, w->syms.n * sizeof(Elf64_Sym));
	s->entsize = sizeof(Elf64_Sym);
	s->link = 1;
	s->info = (uint32_t)w->first_global;
	s->dtype = ELF_T_SYM;
	for (size_t i = 0; i < w->lay.ncode; i++) {
		if (w->rels[i].n == 0)
			continue;
		/* Named ".rel" + the code section's name by write_sections(). */
		s = sec_add(secs, &n, NULL, SHT_REL, SHF_INFO_LINK, 8, w->rels[i].v,
			    w->rels[i].n * sizeof(Elf64_Rel));
		s->entsize = sizeof(Elf64_Rel);
		s->link = (uint32_t)x->symtab;
		s->info = (uint32_t)(x->code0 + i);
		s->dtype = ELF_T_REL;
	}
	return n;
}

static int emit(struct writer *w, struct ew_sec *secs, size_t nsecs, void **bufp, size_t *sizep)
{
	int fd = memfd_create("dtrace-bpf-object", MFD_CLOEXEC);
	Elf *e = NULL;
	GElf_Ehdr eh;
	int rc = 0;

	if (fd < 0)
		return bo_errf(w->err, w->errlen, -errno, "memfd_create: %s", strerror(errno));
	if (elf_version(EV_CURRENT) == EV_NONE || (e = elf_begin(fd, ELF_C_WRITE, NULL)) == NULL ||
	    gelf_newehdr(e, ELFCLASS64) == 0 || gelf_getehdr(e, &eh) == NULL)
		goto elf_fail;
	/* Host byte order throughout: instructions and BTF are not translated. */
	eh.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_REL;
	eh.e_machine = EM_BPF;
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = 1;
	if (gelf_update_ehdr(e, &eh) == 0)
		goto elf_fail;
	for (size_t i = 0; i < nsecs; i++) {
		const struct ew_sec *s = &secs[i];
		Elf_Scn *scn = elf_newscn(e);
		Elf_Data *d = scn ? elf_newdata(scn) : NULL;
		GElf_Shdr sh;

		if (d == NULL || gelf_getshdr(scn, &sh) == NULL)
			goto elf_fail;
		d->d_buf = (void *)s->data;
		d->d_size = s->size;
		d->d_align = s->align;
		d->d_type = s->dtype;
		d->d_version = EV_CURRENT;
		sh.sh_name = (Elf64_Word)s->name_off;
		sh.sh_type = s->type;
		sh.sh_flags = s->flags;
		sh.sh_addralign = s->align;
		sh.sh_entsize = s->entsize;
		sh.sh_link = s->link;
		sh.sh_info = s->info;
		sh.sh_size = s->size;
		if (gelf_update_shdr(scn, &sh) == 0)
			goto elf_fail;
	}
	if (elf_update(e, ELF_C_WRITE) < 0)
		goto elf_fail;
	elf_end(e);
	rc = bo_memfd_read(fd, bufp, sizep, w->err, w->errlen);
	close(fd);
	return rc;
elf_fail:
	rc = bo_errf(w->err, w->errlen, -EIO, "writing BPF object: %s", elf_errmsg(-1));
	if (e != NULL)
		elf_end(e);
	close(fd);
	return rc;
}

static int write_sections(struct writer *w, void **bufp, size_t *sizep)
{
	struct sec_index x = sec_indices(w);
	size_t max = x.count + w->lay.ncode;
	struct ew_sec *secs = calloc(max, sizeof(*secs));
	size_t n;
	int rc;

	w->maps_data = calloc(w->lay.maps_size + 1, 1);
	if (secs == NULL || w->maps_data == NULL) {
		free(secs);
		return bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
	}
	n = list_sections(w, &x, secs);
	/* Names go after the symbol names already in .strtab. */
	for (size_t i = 0; i < n; i++) {
		if (secs[i].type == SHT_REL) {
			/* secs[k] is ELF section k + 1 (0 is the null section) */
			const char *target = secs[secs[i].info - 1].name;

			secs[i].name_off = w->strtab.len;
			dt_sb_puts(&w->strtab, ".rel");
			dt_sb_putn(&w->strtab, target, strlen(target) + 1);
		} else {
			secs[i].name_off = str_add(w, secs[i].name);
		}
	}
	if (w->strtab.oom) {
		rc = bo_errf(w->err, w->errlen, -ENOMEM, "out of memory");
		goto out;
	}
	secs[0].data = w->strtab.s;
	secs[0].size = w->strtab.len;
	rc = emit(w, secs, n, bufp, sizep);
out:
	free(secs);
	return rc;
}

int bo_write_elf(const struct bo_object *obj, void **bufp, size_t *sizep,
		 char *err, size_t errlen)
{
	struct writer w = { .obj = obj, .err = err, .errlen = errlen };
	struct sec_index x;
	int rc;

	*bufp = NULL;
	*sizep = 0;
	dt_sb_init(&w.strtab);
	dt_sb_putc(&w.strtab, '\0');
	rc = validate(&w);
	rc = rc ?: lay_out(&w);
	if (rc == 0) {
		x = sec_indices(&w);
		rc = make_symbols(&w, &x);
	}
	rc = rc ?: make_code(&w);
	rc = rc ?: bo_build_btf(obj, &w.lay, &w.btf, &w.btf_size, &w.ext, &w.ext_size, err, errlen);
	rc = rc ?: write_sections(&w, bufp, sizep);

	free(w.lay.code_name);
	free(w.lay.func_code);
	free(w.lay.func_off);
	free(w.lay.map_off);
	dt_sb_free(&w.strtab);
	free(w.syms.v);
	free(w.func_sym);
	free(w.map_sym);
	free(w.extern_sym);
	for (size_t s = 0; s < w.lay.ncode; s++) {
		if (w.code)
			free(w.code[s].v);
		if (w.rels)
			free(w.rels[s].v);
	}
	free(w.maps_data);
	free(w.code);
	free(w.rels);
	free(w.btf);
	free(w.ext);
	return rc;
}
