/*
 * A traced process as the pid and usdt providers see it: the ELF objects
 * it has mapped (from /proc/PID/maps), each with its symbols and notes
 * read on first use.  Cached in the handle per process.
 */
#ifndef DT_UPROC_H
#define DT_UPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"
#include "dtrace.h"

struct dt_registry;
struct dt_elf;

struct dt_uobj {
	char *path;		/* as /proc/PID/maps names it */
	char *file;		/* what to read and attach uprobes to */
	const char *name;	/* DTrace's module name: the basename */
	bool is_exec;		/* the main executable (a.out) */
	uint64_t start;		/* first mapping: address and file offset */
	uint64_t start_off;
	struct dt_elf *elf;	/* NULL until dt_uobj_elf() */
	bool elf_failed;
	int fd;			/* `file`, open once read (-1) */
};

struct dt_uproc {
	pid_t pid;
	DT_VEC(struct dt_uobj) objs;
};

/* What the handle keeps for the pid and usdt providers. */
struct dt_uprocs {
	DT_VEC(struct dt_uproc *) v;
	int multi;		/* uprobe_multi links: -1 not probed yet, 0, 1 */
};

/* The handle's (created on first use; NULL if out of memory). */
struct dt_uprocs *dt_uprocs(struct dt_registry *reg);

/*
 * The process `pid` (read once per handle).  A -c child still stopped at
 * its exec is first run to its entry point, so that its shared libraries
 * are mapped.  Errors: -ESRCH (no such process), others with a message.
 */
int dt_uproc_get(struct dt_registry *reg, pid_t pid, struct dt_uproc **upp);

/* The object's ELF data, or NULL if it cannot be read. */
struct dt_elf *dt_uobj_elf(struct dt_uobj *o);

/* Read bytes of the object's file. */
bool dt_uobj_read(struct dt_uobj *o, uint64_t off, void *buf, size_t len);

/* Run-time address minus link-time address of the object. */
int64_t dt_uobj_bias(struct dt_uobj *o);

/* Whether a DTrace module pattern names the object ("a.out", "libc.so"). */
bool dt_uobj_match(const struct dt_uobj *o, const char *pat);

/* Free every cached process (handle close). */
void dt_uprocs_free(struct dt_registry *reg);

#endif
