/*
 * User symbols: a process's mappings from /proc/PID/maps and the ELF
 * symbol tables (.symtab and .dynsym) of the files it maps, so that an
 * address becomes object`function+offset.  Mappings are kept per process
 * (a process that has exited is known by what was read while it lived);
 * ELF files are read once, on first use, and shared by every process that
 * maps them (keyed by device, inode and path).  The files of a tracked
 * process (-c, -p) are held open from when its mappings are read, so that
 * its symbols resolve whatever becomes of it and of them.
 */
#ifndef DT_USYMS_H
#define DT_USYMS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct dt_usyms;

struct dt_usym {
	const char *obj;	/* the object's file name ("libc.so.6"), NULL if none */
	const char *func;	/* the function, NULL if none holds the address */
	uint64_t start;		/* the function's run-time address */
	uint64_t obj_base;	/* where the object's first mapping starts */
	const char *path;	/* the file as the process maps it */
	uint64_t map_start, map_end, map_off;	/* the mapping holding the address */
	bool exe;		/* the file is the program the process runs */
};

struct dt_usyms *dt_usyms_new(void);
void dt_usyms_free(struct dt_usyms *us);

/*
 * Look addr up in process pid: 0 with sym filled (obj NULL when no file
 * is mapped there), -ESRCH if nothing is known of the process (it exited
 * before it was first read), -ENOMEM.  A miss in a live process re-reads
 * its mappings (a library loaded since).
 */
int dt_usyms_lookup(struct dt_usyms *us, pid_t pid, uint64_t addr, struct dt_usym *sym);

/*
 * Read pid's mappings now, if they were last read more than `min_ms`
 * milliseconds ago (so that they are known after it exits); with `hold`
 * (a tracked process, from then on) hold the files its code is mapped
 * from open.  0 or a negative errno.
 */
int dt_usyms_refresh(struct dt_usyms *us, pid_t pid, unsigned min_ms, bool hold);

#endif
