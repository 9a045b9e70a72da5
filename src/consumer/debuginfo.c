/* Separate debug files of stripped objects (debuginfo.h). */
#include "consumer/debuginfo.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The NT_GNU_BUILD_ID note of an open ELF file; its length, 0 if none. */
static size_t build_id(Elf *elf, unsigned char *id, size_t max)
{
	size_t nph;

	if (elf_getphdrnum(elf, &nph) != 0)
		return 0;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(elf, (int)i, &ph) == NULL || ph.p_type != PT_NOTE)
			continue;
		Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz,
						   ELF_T_NHDR);
		if (d == NULL)
			continue;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + name_off, "GNU", 4) != 0 ||
			    nh.n_descsz == 0 || nh.n_descsz > max)
				continue;
			memcpy(id, (char *)d->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
	}
	return 0;
}

bool dt_debuginfo_path(const char *path, const char *root, char *out, size_t outlen)
{
	unsigned char id[64];
	size_t n = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF)
		n = build_id(elf, id, sizeof(id));
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	if (n < 2)
		return false;
	/* <root>/.build-id/xx/yyyy....debug */
	int w = snprintf(out, outlen, "%s/.build-id/%02x/", root, id[0]);
	for (size_t i = 1; i < n && w > 0 && (size_t)w < outlen; i++)
		w += snprintf(out + w, outlen - (size_t)w, "%02x", id[i]);
	if (w <= 0 || (size_t)w >= outlen ||
	    snprintf(out + w, outlen - (size_t)w, ".debug") >= (int)(outlen - (size_t)w))
		return false;
	return access(out, R_OK) == 0;
}
