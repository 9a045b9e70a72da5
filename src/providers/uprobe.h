/*
 * What the pid and usdt providers share: a probe is one or more places in
 * a file (an instruction, or a function's returns) traced for one process
 * with uprobes, and the mechanisms that fire programs from them.
 */
#ifndef DT_UPROBE_H
#define DT_UPROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dtrace.h"

struct dt_registry;
struct dt_mech;
struct dt_group;
struct dt_elf;
struct dt_elf_sym;
struct dt_uobj;
struct bpf_program;

enum dt_uprobe_kind {
	DT_UPROBE_ENTRY,	/* pid: function entry */
	DT_UPROBE_OFFSET,	/* pid: an instruction in a function */
	DT_UPROBE_RETURN,	/* pid: function return (uretprobe) */
	DT_UPROBE_USDT,		/* usdt: a stapsdt note's site */
};

/* One traced place. */
struct dt_usite {
	struct dt_usite *next;
	uint64_t off;		/* file offset of the instruction (or function) */
	uint64_t ref_ctr;	/* file offset of the usdt semaphore, 0: none */
	const char *args;	/* usdt: the note's argument string */
	uint32_t cls;		/* usdt: argument class in the program (codegen) */
	bool entry;		/* pid: a function's first instruction (entry, offset 0) */
};

/*
 * A place's BPF cookie: the probe id, the usdt argument class above it,
 * and this bit for a place at a function's first instruction.
 */
#define DT_UPROBE_COOKIE_ENTRY (1ULL << 63)

/* A pid or usdt probe's data (dt_probe.priv). */
struct dt_uprobe {
	pid_t pid;
	enum dt_uprobe_kind kind;
	struct dt_uobj *obj;
	const struct dt_elf_sym *sym;	/* pid: the function (aliases follow it) */
	size_t nalias;			/* symbols at sym's address, sym included */
	struct dt_usite *sites;
	const struct dt_usdt_types *types;	/* usdt: its provider's types, or NULL */
};

/*
 * Entry and offset probes, return probes, usdt probes (note arguments);
 * each with a perf event per place, or _multi: uprobe_multi links.
 */
extern const struct dt_mech dt_mech_uprobe, dt_mech_uprobe_multi;
extern const struct dt_mech dt_mech_uretprobe, dt_mech_uretprobe_multi;
extern const struct dt_mech dt_mech_usdt, dt_mech_usdt_multi;

/* Whether the group's program runs at function returns. */
bool dt_uprobe_is_return(const struct dt_group *g);

/* ---- uprobe_attach.c ---- */

/* Whether the kernel has uprobe_multi links (probed once per handle). */
bool dt_uprobe_have_multi(struct dt_registry *reg);
/* Attach a loaded program to every place of its group's probes. */
int dt_uprobe_attach(struct dt_registry *reg, struct dt_group *g);
/* Close the uprobe_multi links. */
void dt_uprobe_detach(struct dt_registry *reg, struct dt_group *g);
/* Before loading: a uprobe_multi program says so. */
int dt_uprobe_prepare(struct dt_registry *reg, struct dt_group *g, struct bpf_program *prog);

/* Mechanism class of a pid or usdt probe. */
const char *dt_uprobe_class(const struct dt_uprobe *up);

/* Pick the mechanism for a group of one class. */
const struct dt_mech *dt_uprobe_choose(struct dt_registry *reg, struct dt_group *g);

/* Why uprobes cannot be used here, or NULL. */
const char *dt_uprobe_unavailable(struct dt_registry *reg);

/*
 * The process id a provider field names: the decimal digits that end it,
 * with *prefix_len the length before them.  0 if it does not end in
 * digits; -1 if the digits do not make a valid pid.
 */
long dt_uprobe_pid(const char *prov, size_t *prefix_len);

#endif
