/*
 * Kernel symbols from /proc/kallsyms: address -> module`symbol+offset.
 * The core kernel is the module "vmlinux"; loadable modules (and BPF
 * programs, "[bpf]") are named by kallsyms' [module] column.
 */
#ifndef DT_KSYMS_H
#define DT_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct dt_ksym {
	uint64_t addr;
	uint64_t end;		/* the next symbol's address in its module (exclusive) */
	const char *name;
	const char *mod;
};

struct dt_kmod {
	const char *name;
	uint64_t lo, hi;	/* first symbol, end of the last (exclusive) */
};

struct dt_ksyms {
	struct dt_ksym *syms;	/* by address, one per address (the best name) */
	size_t nsyms;
	struct dt_kmod *mods;
	size_t nmods;
	char *names;		/* storage of the names */
};

/*
 * Parse kallsyms text (`addr type name [module]` lines).  Zero addresses
 * (hidden by kptr_restrict), absolute and undefined symbols are left out.
 * 0 or -ENOMEM.
 */
int dt_ksyms_parse(const char *text, struct dt_ksyms **out);

/*
 * Read and parse a kallsyms file, then the modules' sizes from `modules`
 * (/proc/modules; NULL: none); a negative errno if kallsyms cannot be read.
 */
int dt_ksyms_load(const char *path, const char *modules, struct dt_ksyms **out);

/*
 * A module ends at `end` (its base + size in /proc/modules): its last
 * symbol reaches that far.  Without it the last symbol of a module holds
 * its own address only.
 */
void dt_ksyms_module_end(struct dt_ksyms *ks, const char *mod, uint64_t end);

void dt_ksyms_free(struct dt_ksyms *ks);

/* The symbol containing addr, or NULL. */
const struct dt_ksym *dt_ksyms_lookup(const struct dt_ksyms *ks, uint64_t addr);

/* The module whose address range holds addr, or NULL. */
const struct dt_kmod *dt_ksyms_module(const struct dt_ksyms *ks, uint64_t addr);

#endif
