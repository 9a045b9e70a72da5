/*
 * Linking with the run-time library through libbpf's bpf_linker.  libbpf
 * 1.1 links files only, so inputs and output are memfds named by their
 * /proc/self/fd paths.
 */
#include "bpf/link.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpf/errmsg.h"
#include "bpf/memfd.h"

/* The run-time library, embedded by the build (dt_runtime_blob.S). */
extern const unsigned char dt_runtime_obj[];
extern const unsigned char dt_runtime_obj_end[];

static void fd_path(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/* An extern the linker could not resolve: a run-time function that does not exist. */
static int check_undefined(const void *elf, size_t size, char *err, size_t errlen)
{
	Elf *e = elf_memory((char *)elf, size);
	Elf_Scn *scn = NULL;
	int rc = 0;

	if (e == NULL)
		return bo_errf(err, errlen, -EINVAL, "reading linked BPF object: %s", elf_errmsg(-1));
	while (rc == 0 && (scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 1; d != NULL && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;

			if (gelf_getsym(d, (int)i, &sym) == NULL || sym.st_shndx != SHN_UNDEF)
				continue;
			rc = bo_errf(err, errlen, -ENOENT,
				     "'%s' is not a function of the BPF run-time library",
				     elf_strptr(e, sh.sh_link, sym.st_name));
			break;
		}
	}
	elf_end(e);
	return rc;
}

int bo_link(const void *elf, size_t size, void **outp, size_t *out_sizep,
	    char *err, size_t errlen)
{
	size_t rt_size = (size_t)(dt_runtime_obj_end - dt_runtime_obj);
	int in = -1, rt = -1, out = -1, rc;
	struct bpf_linker *linker = NULL;
	char path[64];

	*outp = NULL;
	*out_sizep = 0;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return bo_errf(err, errlen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	rc = in = bo_memfd_from(elf, size, "dtrace-bpf-object", err, errlen);
	if (rc >= 0)
		rc = rt = bo_memfd_from(dt_runtime_obj, rt_size, "dtrace-bpf-runtime", err, errlen);
	if (rc >= 0) {
		rc = out = memfd_create("dtrace-bpf-linked", MFD_CLOEXEC);
		if (rc < 0)
			rc = bo_errf(err, errlen, -errno, "memfd_create: %s", strerror(errno));
	}
	if (rc < 0)
		goto out;

	fd_path(path, sizeof(path), out);
	linker = bpf_linker__new(path, NULL);
	if (linker == NULL) {
		rc = bo_errf(err, errlen, -errno, "BPF linker: %s", strerror(errno));
		goto out;
	}
	fd_path(path, sizeof(path), in);
	rc = bpf_linker__add_file(linker, path, NULL);
	if (rc < 0) {
		bo_errf(err, errlen, rc, "BPF linker: generated object: %s", strerror(-rc));
		goto out;
	}
	fd_path(path, sizeof(path), rt);
	rc = bpf_linker__add_file(linker, path, NULL);
	if (rc < 0) {
		bo_errf(err, errlen, rc, "BPF linker: linking with the run-time library: %s",
			strerror(-rc));
		goto out;
	}
	rc = bpf_linker__finalize(linker);
	if (rc < 0) {
		bo_errf(err, errlen, rc, "BPF linker: %s", strerror(-rc));
		goto out;
	}
	rc = bo_memfd_read(out, outp, out_sizep, err, errlen);
	if (rc == 0)
		rc = check_undefined(*outp, *out_sizep, err, errlen);
	if (rc < 0) {
		free(*outp);
		*outp = NULL;
		*out_sizep = 0;
	}
out:
	bpf_linker__free(linker);
	if (in >= 0)
		close(in);
	if (rt >= 0)
		close(rt);
	if (out >= 0)
		close(out);
	return rc < 0 ? rc : 0;
}
