/*
 * Kernel text symbols from /proc/kallsyms, by module and name, and the
 * functions kprobes refuse (the kprobe blacklist in debugfs).
 */
#ifndef DT_KALLSYMS_H
#define DT_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/htab.h"
#include "lib/util.h"

struct dt_ksyms_mod {
	const char *name;		/* "vmlinux" or the module's name */
	struct dt_htab syms;		/* name -> index + 1 in dt_ksyms.addrs */
};

struct dt_ksyms {
	char *text;			/* the file, cut into the strings used as keys */
	char *blacklist_text;
	DT_VEC(struct dt_ksyms_mod *) mods;	/* in order of first appearance */
	DT_VEC(uint64_t) addrs;
	struct dt_htab blacklist;	/* function names kprobes refuse */
	bool have_addrs;		/* addresses are visible (not all zero) */
};

/* Read the text symbols (t, T, w, W) and, if readable, the kprobe blacklist. */
int dt_ksyms_load(struct dt_ksyms *ks);
void dt_ksyms_fini(struct dt_ksyms *ks);

/* Whether module `mod` ("vmlinux" for the kernel) has function `name`; its address. */
bool dt_ksyms_lookup(const struct dt_ksyms *ks, const char *mod, const char *name,
		     uint64_t *addrp);
/* Whether kprobes refuse `name`. */
bool dt_ksyms_blacklisted(const struct dt_ksyms *ks, const char *name);

#endif
