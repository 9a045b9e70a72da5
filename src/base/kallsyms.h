/*
 * Kernel symbols from /proc/kallsyms, and the functions kprobes
 * refuse (the kprobe blacklist in debugfs), read as streams: callers keep
 * only the symbols they look for.
 */
#ifndef DT_KALLSYMS_H
#define DT_KALLSYMS_H

#include <stdint.h>

/*
 * Call f for each text symbol (types t, T, w, W) in file order, with its
 * module ("vmlinux" for the kernel).  The strings last until f returns.
 * Stops at the first negative return of f; returns that, 0, or a negative
 * errno if the file cannot be read.
 */
typedef int dt_ksym_f(void *arg, const char *mod, const char *name, uint64_t addr);
int dt_kallsyms_walk(dt_ksym_f *f, void *arg);
/* The same for the symbols of the given types ("dDbB": data). */
int dt_kallsyms_walk_types(const char *types, dt_ksym_f *f, void *arg);

/* Call f for each function on the kprobe blacklist (addr is its start); 0 if unreadable. */
int dt_kprobe_blacklist_walk(dt_ksym_f *f, void *arg);

#endif
