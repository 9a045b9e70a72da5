/*
 * ELF symbols as DTrace names them: the name libproc's preference order
 * picks among aliases of one address, and no GNU symbol version in the
 * name.  The objects are written with libelf into a temporary directory.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "providers/elf_syms.h"

struct tsym {
	const char *name;
	uint64_t addr, size;
	int bind, type;
	uint16_t versym;	/* .gnu.version entry (dynsym only) */
};

struct strtab {
	char buf[1024];
	size_t len;
};

static size_t str_add(struct strtab *t, const char *s)
{
	size_t off = t->len;

	memcpy(t->buf + off, s, strlen(s) + 1);
	t->len += strlen(s) + 1;
	return off;
}

static Elf_Scn *add_scn(Elf *e, uint32_t name, uint32_t type, const void *buf, size_t size,
			size_t entsize, uint32_t link)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = elf_newdata(scn);
	GElf_Shdr sh;

	d->d_buf = (void *)buf;
	d->d_size = size;
	d->d_align = 8;
	d->d_type = type == SHT_GNU_versym ? ELF_T_HALF : type == SHT_STRTAB ? ELF_T_BYTE
		  : type == SHT_PROGBITS ? ELF_T_BYTE : ELF_T_SYM;
	gelf_getshdr(scn, &sh);
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_entsize = entsize;
	sh.sh_link = link;
	sh.sh_addr = type == SHT_PROGBITS ? 0x1000 : 0;
	sh.sh_flags = type == SHT_PROGBITS ? SHF_ALLOC | SHF_EXECINSTR : 0;
	gelf_update_shdr(scn, &sh);
	return scn;
}

/* A shared object whose symbols (in .symtab, or .dynsym with versions) are `syms`. */
static void write_elf(const char *path, const struct tsym *syms, size_t n, bool dynamic)
{
	static char text[0x100];
	struct strtab shstr = { .len = 1 }, str = { .len = 1 };
	Elf64_Sym st[16];
	uint16_t vs[16];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0 && n < 16);
	assert_true(elf_version(EV_CURRENT) != EV_NONE);
	Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	Elf64_Ehdr *eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	memset(st, 0, sizeof(st));
	memset(vs, 0, sizeof(vs));
	for (size_t i = 0; i < n; i++) {
		st[i + 1].st_name = (uint32_t)str_add(&str, syms[i].name);
		st[i + 1].st_value = syms[i].addr;
		st[i + 1].st_size = syms[i].size;
		st[i + 1].st_info = (unsigned char)ELF64_ST_INFO(syms[i].bind, syms[i].type);
		st[i + 1].st_shndx = 1;
		vs[i + 1] = syms[i].versym;
	}
	uint32_t n_text = (uint32_t)str_add(&shstr, ".text");
	uint32_t n_sym = (uint32_t)str_add(&shstr, dynamic ? ".dynsym" : ".symtab");
	uint32_t n_str = (uint32_t)str_add(&shstr, dynamic ? ".dynstr" : ".strtab");
	uint32_t n_ver = (uint32_t)str_add(&shstr, ".gnu.version");
	uint32_t n_shstr = (uint32_t)str_add(&shstr, ".shstrtab");
	add_scn(e, n_text, SHT_PROGBITS, text, sizeof(text), 0, 0);		/* 1 */
	add_scn(e, n_sym, dynamic ? SHT_DYNSYM : SHT_SYMTAB, st, sizeof(st[0]) * (n + 1),
		sizeof(st[0]), 3);						/* 2 */
	add_scn(e, n_str, SHT_STRTAB, str.buf, str.len, 0, 0);			/* 3 */
	if (dynamic)
		add_scn(e, n_ver, SHT_GNU_versym, vs, sizeof(vs[0]) * (n + 1), 2, 2);
	Elf_Scn *shs = add_scn(e, n_shstr, SHT_STRTAB, shstr.buf, shstr.len, 0, 0);
	eh->e_shstrndx = (Elf64_Half)elf_ndxscn(shs);
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
}

static char dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_elf_syms.XXXXXX");
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int teardown(void **state)
{
	char p[128];

	(void)state;
	snprintf(p, sizeof(p), "%s/a.so", dir);
	unlink(p);
	rmdir(dir);
	return 0;
}

static struct dt_elf *load(const struct tsym *syms, size_t n, bool dynamic)
{
	char path[128], err[256];
	struct dt_elf *e;

	snprintf(path, sizeof(path), "%s/a.so", dir);
	write_elf(path, syms, n, dynamic);
	assert_int_equal(dt_elf_load(path, &e, err, sizeof(err)), 0);
	return e;
}

static const char *name_at(const struct dt_elf *e, uint64_t addr)
{
	const struct dt_elf_sym *s = dt_elf_func_at(e, addr);

	return s != NULL ? s->name : "(none)";
}

/* glibc's debug .symtab: versions in the names, compat aliases at one address. */
static void test_symtab_versions(void **state)
{
	static const struct tsym syms[] = {
		{ "__free", 0x1000, 0x20, STB_LOCAL, STT_FUNC, 0 },
		{ "cfree@GLIBC_2.2.5", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "__libc_free", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "free", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "__clock_nanosleep", 0x1040, 0x20, STB_LOCAL, STT_FUNC, 0 },
		{ "clock_nanosleep@GLIBC_2.2.5", 0x1040, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "clock_nanosleep@@GLIBC_2.17", 0x1040, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "old@VERS_1", 0x1080, 0x10, STB_GLOBAL, STT_FUNC, 0 },
	};
	struct dt_elf *e = load(syms, sizeof(syms) / sizeof(syms[0]), false);

	(void)state;
	/* a compat alias (one '@') loses to the function's own name */
	assert_string_equal(name_at(e, 0x1000), "free");
	assert_string_equal(name_at(e, 0x1010), "free");
	/* no version in the name; both versions are one symbol */
	assert_string_equal(name_at(e, 0x1043), "clock_nanosleep");
	const struct dt_elf_sym *s = dt_elf_lookup(e, "clock_nanosleep");
	assert_non_null(s);
	assert_int_equal(s->addr, 0x1040);
	assert_false(s->hidden);	/* the default version's entry is kept */
	assert_null(dt_elf_lookup(e, "clock_nanosleep@@GLIBC_2.17"));
	/* a hidden version alone still names its function */
	assert_string_equal(name_at(e, 0x1080), "old");
	assert_true(dt_elf_lookup(e, "old")->hidden);
	dt_elf_free(e);
}

/* .dynsym: the version is in .gnu.version, hidden with its top bit. */
static void test_dynsym_versym(void **state)
{
	static const struct tsym syms[] = {
		{ "cfree", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 0x8002 },
		{ "free", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 2 },
		{ "__libc_free", 0x1000, 0x20, STB_GLOBAL, STT_FUNC, 2 },
		{ "afunc", 0x1040, 0x20, STB_GLOBAL, STT_FUNC, 1 },
		{ "bfunc", 0x1040, 0x20, STB_GLOBAL, STT_FUNC, 1 },
	};
	struct dt_elf *e = load(syms, sizeof(syms) / sizeof(syms[0]), true);

	(void)state;
	assert_string_equal(name_at(e, 0x1004), "free");
	assert_true(dt_elf_lookup(e, "cfree")->hidden);
	assert_false(dt_elf_lookup(e, "free")->hidden);
	/* unversioned (global base version): alphabetical */
	assert_string_equal(name_at(e, 0x1040), "afunc");
	dt_elf_free(e);
}

/*
 * libproc's order among aliases: a function before other types, global
 * and weak alike before local, no '$', fewer leading underscores, the
 * smaller symbol, then alphabetical order.
 */
static void test_alias_order(void **state)
{
	static const struct tsym syms[] = {
		/* weak is not below global: alphabetical decides */
		{ "zeta", 0x1000, 0x10, STB_GLOBAL, STT_FUNC, 0 },
		{ "alpha", 0x1000, 0x10, STB_WEAK, STT_FUNC, 0 },
		/* local loses to weak, even with a better name */
		{ "aaa", 0x1010, 0x10, STB_LOCAL, STT_FUNC, 0 },
		{ "zzz", 0x1010, 0x10, STB_WEAK, STT_FUNC, 0 },
		/* STT_FUNC before an ifunc, whatever the binding */
		{ "resolver", 0x1020, 0x10, STB_GLOBAL, STT_GNU_IFUNC, 0 },
		{ "impl", 0x1020, 0x10, STB_LOCAL, STT_FUNC, 0 },
		/* '$' last, then leading underscores, then the smaller size */
		{ "$x", 0x1030, 0x10, STB_GLOBAL, STT_FUNC, 0 },
		{ "__y", 0x1030, 0x10, STB_GLOBAL, STT_FUNC, 0 },
		{ "_y", 0x1030, 0x10, STB_GLOBAL, STT_FUNC, 0 },
		{ "big", 0x1040, 0x20, STB_GLOBAL, STT_FUNC, 0 },
		{ "small", 0x1040, 0x10, STB_GLOBAL, STT_FUNC, 0 },
	};
	struct dt_elf *e = load(syms, sizeof(syms) / sizeof(syms[0]), false);

	(void)state;
	assert_string_equal(name_at(e, 0x1000), "alpha");
	assert_string_equal(name_at(e, 0x1010), "zzz");
	assert_string_equal(name_at(e, 0x1020), "impl");
	assert_string_equal(name_at(e, 0x1030), "_y");
	assert_string_equal(name_at(e, 0x1040), "small");
	/* past the smaller symbol, inside the bigger one */
	assert_string_equal(name_at(e, 0x1050), "big");
	dt_elf_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symtab_versions),
		cmocka_unit_test(test_dynsym_versym),
		cmocka_unit_test(test_alias_order),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
