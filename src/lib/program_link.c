/*
 * dtrace -G: the object to link into a program with USDT probes.  DTrace
 * puts the probes' descriptions (DOF) there; here the headers dtrace -h
 * writes already leave stapsdt notes at each probe site, and the probe
 * calls of DTrace's <sys/sdt.h> are rewritten into such sites in the
 * objects themselves (usdt_rewrite.c).  So the object only has to exist
 * and link cleanly: an empty relocatable ELF object for the build
 * machine, with a .note.GNU-stack section so that the linker keeps the
 * stack non-executable.  As DTrace, that object is made by the linker
 * (ldpath, "ld -r") from the one we write, unless lazyload is set; with
 * linktype=dof the file is a DOF header describing no probes instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* Our ELF object into fd (closed): 0, or a message about `file`. */
static int write_elf(dtrace_hdl_t *dtp, int fd, const char *file)
{
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
		rc = dt_set_error(dtp->core, -EIO, "failed to write %s: %s", file, elf_errmsg(-1));
	if (e != NULL)
		elf_end(e);
	if (close(fd) < 0 && rc == 0)
		rc = dt_set_error(dtp->core, -errno, "failed to write %s: %s", file, strerror(errno));
	return rc;
}

/*
 * linktype=dof: a DOF header (DTrace's dof_hdr_t, 64 bytes) with no
 * sections: the probes are described by the objects' own stapsdt notes.
 */
static int write_dof(dtrace_hdl_t *dtp, int fd, const char *file)
{
	uint8_t h[64] = { 0x7f, 'D', 'O', 'F', 2 /* LP64 */, 1 /* LSB */, 2 /* DOF v2 */,
			  2 /* DIF v2 */, 8 /* integer registers */, 8 /* tuple registers */ };
	uint32_t hdrsize = 64, secsize = 32, secnum = 0;
	uint64_t secoff = 64, loadsz = 64, filesz = 64;

	memcpy(h + 20, &hdrsize, 4);
	memcpy(h + 24, &secsize, 4);
	memcpy(h + 28, &secnum, 4);
	memcpy(h + 32, &secoff, 8);
	memcpy(h + 40, &loadsz, 8);
	memcpy(h + 48, &filesz, 8);
	ssize_t w = write(fd, h, sizeof(h));
	int err = w == (ssize_t)sizeof(h) ? 0 : w < 0 ? errno : EIO;
	if (close(fd) < 0 && err == 0)
		err = errno;
	return err ? dt_set_error(dtp->core, -err, "failed to write %s: %s", file, strerror(err)) : 0;
}

/* A word for sh -c: quoted unless it is plainly safe. */
static void sh_word(struct dt_strbuf *sb, const char *w)
{
	if (*w != '\0' && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				"0123456789_-./+=:,@%") == strlen(w)) {
		dt_sb_printf(sb, "%s", w);
		return;
	}
	dt_sb_putn(sb, "'", 1);
	for (; *w; w++) {
		if (*w == '\'')
			dt_sb_printf(sb, "'\\''");
		else
			dt_sb_putn(sb, w, 1);
	}
	dt_sb_putn(sb, "'", 1);
}

/* ld -o file -r tmp, through the shell as DTrace runs it: 0 or DTrace's message. */
static int run_ld(dtrace_hdl_t *dtp, const char *file, const char *tmp)
{
	const char *ld = dtp->core->opts.ldpath != NULL ? dtp->core->opts.ldpath : "ld";
	struct dt_strbuf cmd;

	dt_sb_init(&cmd);
	sh_word(&cmd, ld);
	dt_sb_printf(&cmd, " -o ");
	sh_word(&cmd, file);
	dt_sb_printf(&cmd, " -r ");
	sh_word(&cmd, tmp);
	if (cmd.s == NULL)
		return dt_set_error(dtp->core, -ENOMEM, "Memory allocation failure");
	fflush(NULL);
	int status = system(cmd.s);
	dt_sb_free(&cmd);
	if (status == -1)
		return dt_set_error(dtp->core, -errno, "failed to run %s: %s", ld, strerror(errno));
	if (WIFSIGNALED(status))
		return dt_set_error(dtp->core, -EINVAL, "failed to link %s: %s failed due to signal %d",
				    file, ld, WTERMSIG(status));
	if (WEXITSTATUS(status) != 0)
		return dt_set_error(dtp->core, -EINVAL, "failed to link %s: %s exited with status %d", file,
				    ld, WEXITSTATUS(status));
	return 0;
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
			return dt_set_error(dtp->core, -EINVAL, "output file %s is also an input object", file);
	}
	for (int i = 0; i < objc; i++) {
		int rc = dt_usdt_rewrite_object(dtp, objv[i]);
		if (rc < 0)
			return rc;
	}
	if (elf_version(EV_CURRENT) == EV_NONE)
		return dt_set_error(dtp->core, -ENOTSUP, "libelf is out of date");
	/* Opened first in any case: a symbolic link there must be one we may follow. */
	int fd = dt_open_output(dtp, file, false);
	if (fd < 0) {
		char why[sizeof(dtp->core->errmsg)];
		memcpy(why, dtp->core->errmsg, sizeof(why));
		return dt_set_error(dtp->core, fd, "failed to open %s: %s", file, why);
	}
	if (dtp->core->opts.linktype == DT_LTYP_DOF) {
		int rc = write_dof(dtp, fd, file);
		if (rc < 0)
			unlink(file);
		return rc;
	}
	if (dtp->core->opts.lazyload) {
		int rc = write_elf(dtp, fd, file);
		if (rc < 0)
			unlink(file);
		return rc;
	}
	close(fd);
	char *tmp = NULL;
	if (asprintf(&tmp, "%s.XXXXXX", file) < 0)
		return dt_set_error(dtp->core, -ENOMEM, "Memory allocation failure");
	int tfd = mkostemp(tmp, O_CLOEXEC);
	if (tfd < 0) {
		int err = errno;
		free(tmp);
		unlink(file);
		return dt_set_error(dtp->core, -err, "failed to create temporary file for %s: %s", file,
				    strerror(err));
	}
	int rc = write_elf(dtp, tfd, tmp);
	if (rc == 0)
		rc = run_ld(dtp, file, tmp);
	unlink(tmp);
	free(tmp);
	if (rc < 0)
		unlink(file);
	return rc;
}
