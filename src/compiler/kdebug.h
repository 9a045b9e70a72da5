/*
 * The kernel's debuginfo (a vmlinux with DWARF, e.g. Debian's
 * linux-image-<release>-dbg): types and link-time addresses of kernel
 * variables, for the data symbols BTF does not describe (kdebug.c).
 */
#ifndef DT_KDEBUG_H
#define DT_KDEBUG_H

#include <stdbool.h>
#include <stdint.h>

struct dt_kdebug;
struct dt_type;
struct dt_typetab;

/*
 * Open the running kernel's debuginfo from the usual places
 * (/usr/lib/debug/boot/vmlinux-<release> ...); NULL if there is none or
 * its build ID is not the running kernel's.
 */
struct dt_kdebug *dt_kdebug_open(void);
void dt_kdebug_close(struct dt_kdebug *kd);

/*
 * A variable's link-time address from the ELF symbol table, and whether it
 * is a per-CPU variable (its address is then an offset into each CPU's
 * area).  False if the file has no such object symbol.
 */
bool dt_kdebug_symbol(struct dt_kdebug *kd, const char *name, uint64_t *addr, bool *percpu);

/* The file's link-time address of a symbol of any kind (_text, for the KASLR offset). */
bool dt_kdebug_symaddr(struct dt_kdebug *kd, const char *name, uint64_t *addr);

/* A global variable's type, from its DWARF entry; NULL if none can be built. */
struct dt_type *dt_kdebug_vartype(struct dt_kdebug *kd, struct dt_typetab *tt, const char *name);

#endif
