/*
 * dtrace -G: the object to link into a program with USDT probes.  DTrace
 * puts the probes' descriptions (DOF) there; here the headers dtrace -h
 * writes already leave stapsdt notes at each probe site, and the probe
 * calls of DTrace's <sys/sdt.h> are rewritten into such sites in the
 * objects themselves (usdt_rewrite.c).  So the object only has to exist
 * and link cleanly: an empty relocatable ELF object for the build
 * machine, with a .note.GNU-stack section so that the linker keeps the
 * stack non-executable.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/dt_impl.h"
#include "lib/ofile.h"
#include "lib/usdt_rewrite.h"

static const char shstrtab[] = "\0.shstrtab\0.note.GNU-stack\0.comment\0";
static const char comment[] = "\0dtrace " DTRACE_VERSION " (stapsdt notes)";

static int add_section(Elf *e, uint32_t name, uint32_t type, const void *buf, size_t size,
		       uint64_t flags)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = scn ? elf_newdata(scn) : NULL;
	GElf_Shdr sh;

	if (d == NULL || gelf_getshdr(scn, &sh) == NULL)
		return -1;
	d->d_buf = (void *)buf;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = 1;
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = 1;
	sh.sh_entsize = type == SHT_PROGBITS && flags == SHF_MERGE + SHF_STRINGS ? 1 : 0;
	return gelf_update_shdr(scn, &sh) ? (int)elf_ndxscn(scn) : -1;
}

int dtrace_program_link(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, unsigned flags, const char *file,
			int objc, char *const objv[])
{
	(void)pgp;
	(void)flags;
	struct stat out, in;
	bool exists = stat(file, &out) == 0;
	for (int i = 0; i < objc; i++) {
		if (exists && stat(objv[i], &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return dt_set_error(dtp, -EINVAL, "output file %s is also an input object", file);
	}
	for (int i = 0; i < objc; i++) {
		int rc = dt_usdt_rewrite_object(dtp, objv[i]);
		if (rc < 0)
			return rc;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_error(dtp, -ENOTSUP, "libelf is out of date");
	int fd = dt_open_output(dtp, file, false);
	if (fd < 0) {
		char why[sizeof(dtp->errmsg)];
		memcpy(why, dtp->errmsg, sizeof(why));
		return dt_set_error(dtp, fd, "failed to open %s: %s", file, why);
	}
	Elf *e = elf_begin(fd, ELF_C_WRITE, NULL);
	GElf_Ehdr eh;
	int ok = e != NULL && gelf_newehdr(e, ELFCLASS64) != NULL && gelf_getehdr(e, &eh) != NULL;
	if (ok) {
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_REL;
#if defined(__x86_64__)
		eh.e_machine = EM_X86_64;
#elif defined(__aarch64__)
		eh.e_machine = EM_AARCH64;
#endif
		eh.e_version = EV_CURRENT;
		int str = add_section(e, 1, SHT_STRTAB, shstrtab, sizeof(shstrtab), 0);
		ok = str > 0 && add_section(e, 11, SHT_PROGBITS, "", 0, 0) > 0 &&
		     add_section(e, 27, SHT_PROGBITS, comment, sizeof(comment),
				 SHF_MERGE | SHF_STRINGS) > 0;
		eh.e_shstrndx = (uint16_t)str;
		ok = ok && gelf_update_ehdr(e, &eh) && elf_update(e, ELF_C_WRITE) >= 0;
	}
	int rc = 0;
	if (!ok)
		rc = dt_set_error(dtp, -EIO, "failed to write %s: %s", file, elf_errmsg(-1));
	if (e != NULL)
		elf_end(e);
	if (close(fd) < 0 && rc == 0)
		rc = dt_set_error(dtp, -errno, "failed to write %s: %s", file, strerror(errno));
	if (rc < 0)
		unlink(file);
	return rc;
}
