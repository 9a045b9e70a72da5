/*
 * dtrace -G for objects built with DTrace's own <sys/sdt.h>: there a probe
 * site is a call of the undefined function __dtrace_<provider>___<probe>
 * (DTRACE_PROBE), or of __dtraceenabled_<provider>___<probe> for an
 * is-enabled test.  Each such call is rewritten in the object, as DTrace
 * does: a probe's call becomes a five-byte nop, with a stapsdt note (the
 * usdt provider's format) saying where it is and that its arguments are
 * those of the call (%rdi, %rsi, ..., then the stack); an is-enabled call
 * becomes "xor %eax,%eax" (is-enabled needs the semaphores of the headers
 * dtrace -h writes).  The probes' argument types go in notes of their own
 * (usdt_note.h).  Objects without such calls are left alone, so
 * running -G twice changes nothing.  x86_64 only.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/ast.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"
#include "lib/usdt_note.h"
#include "lib/usdt_rewrite.h"

#ifndef R_X86_64_PLT32
#define R_X86_64_PLT32 4
#endif

struct site {
	size_t scn;		/* section of the call */
	uint64_t off;		/* offset of the call instruction */
	bool tail;		/* jmp, not call */
	char prov[64], probe[64];
	int nargs;
};

struct rewrite {
	dtrace_hdl_t *dtp;
	const char *file;
	Elf *elf;
	DT_VEC(struct site) sites;
	DT_VEC(void *) bufs;	/* data given to libelf, freed after elf_end */
	bool changed;
};

/* Parameters of probe `probe` of provider `prov` in the programs, or -1. */
static int probe_nargs(dtrace_hdl_t *dtp, const char *prov, const char *probe)
{
	for (size_t i = 0; i < dtp->cc->progs.n; i++) {
		const dtrace_prog_t *pgp = dtp->cc->progs.v[i];
		for (size_t j = 0; j < pgp->nproviders; j++) {
			const struct dt_node *pv = pgp->providers[j];
			if (strcmp(pv->provider.name, prov) != 0)
				continue;
			for (const struct dt_node *pr = pv->provider.probes; pr; pr = pr->next) {
				if (strcmp(pr->decl.decl->name, probe) != 0)
					continue;
				const struct dt_declarator *d = pr->decl.decl;
				while (d != NULL && d->kind != DK_FUNC)
					d = d->outer;
				const struct dt_node *p = d ? d->params : NULL;
				if (p != NULL && p->next == NULL && p->decl.spec->ts == TS_VOID &&
				    p->decl.decl->kind == DK_NAME && p->decl.decl->outer == NULL)
					return 0;
				return dt_node_list_len(p);
			}
		}
	}
	return -1;
}

/* "__dtrace_<prov>___<probe>" or "__dtraceenabled_..."; false if neither. */
static bool split_name(const char *name, bool *enabled, char *prov, char *probe)
{
	const char *p;

	if (strncmp(name, "__dtraceenabled_", 16) == 0) {
		*enabled = true;
		p = name + 16;
	} else if (strncmp(name, "__dtrace_", 9) == 0) {
		*enabled = false;
		p = name + 9;
	} else {
		return false;
	}
	const char *sep = strstr(p, "___");
	if (sep == NULL || sep == p || (size_t)(sep - p) >= 64 || strlen(sep + 3) >= 64 ||
	    sep[3] == '\0')
		return false;
	memcpy(prov, p, (size_t)(sep - p));
	prov[sep - p] = '\0';
	strcpy(probe, sep + 3);
	return true;
}

static int bad(struct rewrite *rw, const char *what)
{
	return dt_set_error(rw->dtp->core, -EINVAL, "failed to process %s: %s", rw->file, what);
}

/* Find and patch the calls in one relocation section. */
static int scan_relocs(struct rewrite *rw, Elf_Scn *rscn, const GElf_Shdr *rsh, Elf_Data *syms,
		       size_t strndx)
{
	Elf_Scn *tscn = elf_getscn(rw->elf, rsh->sh_info);
	GElf_Shdr tsh;
	Elf_Data *rel = elf_getdata(rscn, NULL), *text = tscn ? elf_getdata(tscn, NULL) : NULL;

	if (rel == NULL || text == NULL || gelf_getshdr(tscn, &tsh) == NULL ||
	    !(tsh.sh_flags & SHF_EXECINSTR) || rsh->sh_entsize == 0)
		return 0;
	size_t n = rsh->sh_size / rsh->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Sym s;
		struct site st = { .scn = rsh->sh_info };
		bool enabled;
		if (gelf_getrela(rel, (int)i, &r) == NULL ||
		    gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &s) == NULL || s.st_shndx != SHN_UNDEF)
			continue;
		unsigned type = (unsigned)GELF_R_TYPE(r.r_info);
		const char *name = elf_strptr(rw->elf, strndx, s.st_name);
		if (name == NULL || (type != R_X86_64_PLT32 && type != R_X86_64_PC32) ||
		    !split_name(name, &enabled, st.prov, st.probe))
			continue;
		unsigned char *b = text->d_buf;
		if (r.r_offset < 1 || r.r_offset + 4 > text->d_size ||
		    (b[r.r_offset - 1] != 0xe8 && b[r.r_offset - 1] != 0xe9))
			return bad(rw, "a probe is not called directly");
		st.off = r.r_offset - 1;
		st.tail = b[st.off] == 0xe9;
		if (enabled) {
			static const unsigned char zero[5] = { 0x31, 0xc0, 0x0f, 0x1f, 0x00 };
			memcpy(b + st.off, zero, 5);
		} else {
			static const unsigned char nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
			static const unsigned char ret[5] = { 0xc3, 0x0f, 0x1f, 0x40, 0x00 };
			st.nargs = probe_nargs(rw->dtp, st.prov, st.probe);
			if (st.nargs < 0)
				return dt_set_error(rw->dtp->core, -ENOENT,
						    "%s uses probe %s:::%s, which no provider defines",
						    rw->file, st.prov, st.probe);
			memcpy(b + st.off, st.tail ? ret : nop5, 5);
			if (dt_vec_push(&rw->sites, st) < 0)
				return -ENOMEM;
		}
		/* No symbol either: the linker reports undefined ones even then. */
		r.r_info = GELF_R_INFO(0, R_X86_64_NONE);
		if (!gelf_update_rela(rel, (int)i, &r))
			return bad(rw, elf_errmsg(-1));
		elf_flagdata(rel, ELF_C_SET, ELF_F_DIRTY);
		elf_flagdata(text, ELF_C_SET, ELF_F_DIRTY);
		rw->changed = true;
	}
	return 0;
}

/* A symbol to relocate against for section `scn`, and its value. */
static bool section_sym(Elf_Data *syms, size_t nsyms, size_t scn, size_t *idx, uint64_t *value)
{
	bool found = false;

	for (size_t i = 1; i < nsyms; i++) {
		GElf_Sym s;
		if (gelf_getsym(syms, (int)i, &s) == NULL || s.st_shndx != scn)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_SECTION) {
			*idx = i;
			*value = s.st_value;
			return true;
		}
		if (!found) {
			*idx = i;
			*value = s.st_value;
			found = true;
		}
	}
	return found;
}

static void *keep(struct rewrite *rw, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p != NULL && dt_vec_push(&rw->bufs, p) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

static Elf_Scn *new_section(struct rewrite *rw, size_t name, uint32_t type, uint64_t flags,
			    void *buf, size_t size, Elf_Type dtype, uint64_t align,
			    uint64_t entsize, uint32_t link, uint32_t info)
{
	Elf_Scn *scn = elf_newscn(rw->elf);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (d == NULL || gelf_getshdr(scn, &sh) == NULL)
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	sh.sh_name = (uint32_t)name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	sh.sh_link = link;
	sh.sh_info = info;
	sh.sh_size = size;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

/*
 * The types notes of the probes of the rewritten sites (usdt_note.h),
 * once each, into a buffer kept: its size in *lenp.
 */
static unsigned char *types_notes(struct rewrite *rw, size_t *lenp)
{
	const char *native[DT_USDT_TYPES_MAX], *xlate[DT_USDT_TYPES_MAX];
	size_t olen = sizeof(DT_USDT_TYPES_OWNER), cap = 0, len = 0;

	for (int pass = 0; pass < 2; pass++) {
		unsigned char *buf = pass == 1 ? keep(rw, cap) : NULL;
		if (pass == 1 && buf == NULL)
			return NULL;
		for (size_t i = 0; i < rw->sites.n; i++) {
			const struct site *st = &rw->sites.v[i];
			size_t k;
			for (k = 0; k < i; k++)
				if (strcmp(rw->sites.v[k].prov, st->prov) == 0 &&
				    strcmp(rw->sites.v[k].probe, st->probe) == 0)
					break;
			const struct dt_node *pr = dt_usdt_decl_probe(rw->dtp, st->prov, st->probe);
			if (k < i || pr == NULL)
				continue;
			int n = dt_usdt_decl_types(rw->dtp, pr, native, xlate);
			size_t d = dt_usdt_types_desc(NULL, 0, st->prov, st->probe, native, xlate, n);
			size_t total = 12 + ((olen + 3) & ~(size_t)3) + ((d + 3) & ~(size_t)3);
			if (pass == 0) {
				cap += total;
				continue;
			}
			uint32_t namesz = (uint32_t)olen, descsz = (uint32_t)d, type = DT_USDT_TYPES_NOTE;
			memcpy(buf + len, &namesz, 4);
			memcpy(buf + len + 4, &descsz, 4);
			memcpy(buf + len + 8, &type, 4);
			memcpy(buf + len + 12, DT_USDT_TYPES_OWNER, olen);
			dt_usdt_types_desc((char *)buf + len + 12 + ((olen + 3) & ~(size_t)3), d,
					   st->prov, st->probe, native, xlate, n);
			len += total;
		}
		if (pass == 1) {
			*lenp = len;
			return buf;
		}
	}
	return NULL;
}

/* Room for a site's argument operands (a translated list may repeat native ones). */
#define NOTE_ARGS_LEN 512

/* The notes of the rewritten sites, and their relocations. */
static int add_notes(struct rewrite *rw, size_t symndx, Elf_Data *syms, size_t nsyms)
{
	static const char *const regs[6] = { "%rdi", "%rsi", "%rdx", "%rcx", "%r8", "%r9" };
	static const char names[] = ".note.stapsdt\0.rela.note.stapsdt\0" DT_USDT_TYPES_SECTION;
	size_t shstrndx;
	size_t cap = 0;

	for (size_t i = 0; i < rw->sites.n; i++)
		cap += 12 + 8 + 24 + 2 * 64 + 2 + NOTE_ARGS_LEN + 8;
	unsigned char *notes = keep(rw, cap);
	GElf_Rela *relas = keep(rw, rw->sites.n * sizeof(*relas));
	if (notes == NULL || relas == NULL)
		return -ENOMEM;
	size_t len = 0;
	for (size_t i = 0; i < rw->sites.n; i++) {
		const struct site *st = &rw->sites.v[i];
		char args[NOTE_ARGS_LEN];
		size_t al = 0, sym;
		uint64_t value;
		args[0] = '\0';
		/* The probe's arguments: its translated ones, each a native one's place. */
		int map[DT_USDT_TYPES_MAX], nout = -1;
		const struct dt_node *pr = dt_usdt_decl_probe(rw->dtp, st->prov, st->probe);
		if (pr != NULL)
			nout = dt_usdt_decl_argmap(pr, map);
		for (int k = 0; nout >= 0 && k < nout; k++)
			if (map[k] >= st->nargs)
				nout = -1;
		if (nout < 0)
			for (nout = 0; nout < st->nargs; nout++)
				map[nout] = nout;
		for (int k = 0; k < nout && al < sizeof(args) - 32; k++) {
			int a = map[k];
			if (a < 6)
				al += (size_t)snprintf(args + al, sizeof(args) - al, "%s8@%s", k ? " " : "",
						       regs[a]);
			else
				al += (size_t)snprintf(args + al, sizeof(args) - al, "%s8@%d(%%rsp)",
						       k ? " " : "", 8 * (a - 6) + (st->tail ? 8 : 0));
		}
		if (!section_sym(syms, nsyms, st->scn, &sym, &value))
			return bad(rw, "no symbol in the section of a probe");
		size_t pl = strlen(st->prov) + 1, nl = strlen(st->probe) + 1;
		uint32_t namesz = 8, descsz = (uint32_t)(24 + pl + nl + al + 1), type = 3;
		memcpy(notes + len, &namesz, 4);
		memcpy(notes + len + 4, &descsz, 4);
		memcpy(notes + len + 8, &type, 4);
		memcpy(notes + len + 12, "stapsdt", 8);
		size_t desc = len + 20;
		/* pc (relocated), base 0 (not prelinked), semaphore 0. */
		memcpy(notes + desc + 24, st->prov, pl);
		memcpy(notes + desc + 24 + pl, st->probe, nl);
		memcpy(notes + desc + 24 + pl + nl, args, al + 1);
		relas[i].r_offset = desc;
		relas[i].r_info = GELF_R_INFO(sym, R_X86_64_64);
		relas[i].r_addend = (int64_t)(st->off - value);
		len = desc + ((descsz + 3) & ~3u);
	}
	/* The section names go at the end of the section name table. */
	Elf_Scn *ss = elf_getshdrstrndx(rw->elf, &shstrndx) == 0 ? elf_getscn(rw->elf, shstrndx) : NULL;
	Elf_Data *sd = ss ? elf_getdata(ss, NULL) : NULL;
	if (sd == NULL)
		return bad(rw, "no section name table");
	char *strs = keep(rw, sd->d_size + sizeof(names));
	if (strs == NULL)
		return -ENOMEM;
	memcpy(strs, sd->d_buf, sd->d_size);
	memcpy(strs + sd->d_size, names, sizeof(names));
	size_t name = sd->d_size;
	sd->d_buf = strs;
	sd->d_size += sizeof(names);
	elf_flagdata(sd, ELF_C_SET, ELF_F_DIRTY);
	Elf_Scn *ns = new_section(rw, name, SHT_NOTE, 0, notes, len, ELF_T_BYTE, 4, 0, 0, 0);
	if (ns == NULL ||
	    new_section(rw, name + 14, SHT_RELA, SHF_INFO_LINK, relas, rw->sites.n * sizeof(*relas),
			ELF_T_RELA, 8, sizeof(Elf64_Rela), (uint32_t)symndx,
			(uint32_t)elf_ndxscn(ns)) == NULL)
		return bad(rw, elf_errmsg(-1));
	size_t tlen = 0;
	unsigned char *types = types_notes(rw, &tlen);
	if (types == NULL)
		return -ENOMEM;
	if (tlen > 0 && new_section(rw, name + 33, SHT_NOTE, 0, types, tlen, ELF_T_BYTE, 4, 0, 0,
				    0) == NULL)
		return bad(rw, elf_errmsg(-1));
	return 0;
}

static int rewrite(struct rewrite *rw)
{
	GElf_Ehdr eh;
	Elf_Scn *symscn = NULL;
	GElf_Shdr symsh;

	if (elf_kind(rw->elf) != ELF_K_ELF || gelf_getehdr(rw->elf, &eh) == NULL)
		return bad(rw, "not an ELF object");
	if (eh.e_type != ET_REL || eh.e_machine != EM_X86_64 || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return bad(rw, "not an x86_64 relocatable object");
	for (Elf_Scn *s = elf_nextscn(rw->elf, NULL); s != NULL; s = elf_nextscn(rw->elf, s)) {
		if (gelf_getshdr(s, &symsh) != NULL && symsh.sh_type == SHT_SYMTAB) {
			symscn = s;
			break;
		}
	}
	if (symscn == NULL)
		return 0;
	Elf_Data *syms = elf_getdata(symscn, NULL);
	if (syms == NULL || symsh.sh_entsize == 0)
		return bad(rw, "unreadable symbol table");
	for (Elf_Scn *s = elf_nextscn(rw->elf, NULL); s != NULL; s = elf_nextscn(rw->elf, s)) {
		GElf_Shdr sh;
		if (gelf_getshdr(s, &sh) == NULL || sh.sh_type != SHT_RELA)
			continue;
		int rc = scan_relocs(rw, s, &sh, syms, symsh.sh_link);
		if (rc < 0)
			return rc;
	}
	if (rw->sites.n > 0) {
		int rc = add_notes(rw, elf_ndxscn(symscn), syms, symsh.sh_size / symsh.sh_entsize);
		if (rc < 0)
			return rc;
	}
	if (rw->changed && elf_update(rw->elf, ELF_C_WRITE) < 0)
		return bad(rw, elf_errmsg(-1));
	return 0;
}

int dt_usdt_rewrite_object(dtrace_hdl_t *dtp, const char *file)
{
	struct rewrite rw = { .dtp = dtp, .file = file };
	int rc;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_error(dtp->core, -ENOTSUP, "libelf is out of date");
	int fd = open(file, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return dt_set_error(dtp->core, -errno, "failed to open %s: %s", file, strerror(errno));
	rw.elf = elf_begin(fd, ELF_C_RDWR, NULL);
	if (rw.elf == NULL)
		rc = bad(&rw, elf_errmsg(-1));
	else
		rc = rewrite(&rw);
	if (rc == -ENOMEM)
		rc = dt_set_error(dtp->core, rc, "out of memory");
	if (rw.elf != NULL)
		elf_end(rw.elf);
	close(fd);
	for (size_t i = 0; i < rw.bufs.n; i++)
		free(rw.bufs.v[i]);
	dt_vec_free(&rw.bufs);
	dt_vec_free(&rw.sites);
	return rc;
}
