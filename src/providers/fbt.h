/*
 * The fbt provider's shared state: the traceable kernel functions (from
 * BTF and kallsyms), what the running kernel offers to attach to them,
 * and the mechanisms (fentry/fexit, kprobe/kretprobe, kprobe_multi).
 */
#ifndef DT_FBT_H
#define DT_FBT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/htab.h"
#include "base/util.h"
#include "dtrace.h"

struct dt_registry;
struct btf;
struct dt_group;
struct dt_mech;
struct dt_rawfbt;

/* A module with BTF: vmlinux or one of /sys/kernel/btf/<module>. */
struct fbt_mod {
	const char *name;
	struct btf *btf;		/* vmlinux's belongs to the type tables */
	bool own_btf;
	struct dt_htab funcs;		/* name -> struct fbt_func (listed or not) */
};

/* A function of a module's BTF; traceable when `listed`. */
struct fbt_func {
	const char *name;
	const struct fbt_mod *mod;
	uint32_t btf_id;		/* BTF_KIND_FUNC in mod->btf */
	uint64_t addr;			/* from kallsyms; 0 if hidden */
	uint8_t nargs;
	bool returns_void;
	bool fentry_ok;			/* arguments and result a trampoline can take */
	bool name_clash;		/* vmlinux has a function of the same name */
	bool in_kallsyms, blacklisted;
	bool listed;			/* traceable: in dt_fbt.funcs */
};

/* Kernel attach mechanisms, probed once. */
enum fbt_kind { FBT_FENTRY, FBT_KPROBE_MULTI, FBT_KPROBE, FBT_NKINDS };

struct fbt_feature {
	bool probed;
	bool ok;
	const char *why;		/* what is missing, when !ok */
};

struct dt_fbt {
	struct dt_arena arena;
	bool loaded;			/* funcs listed */
	bool sites_checked;		/* ftrace call sites were read (fbt_ftrace.c) */
	int load_err;
	DT_VEC(struct fbt_mod *) mods;	/* vmlinux first, then modules by name */
	DT_VEC(struct fbt_func *) funcs;	/* the traceable ones */
	struct fbt_feature feat[FBT_NKINDS];
	struct dt_rawfbt *raw;		/* the rawfbt provider's functions (prov_rawfbt.c) */
};

/* The state, created on first use; NULL if out of memory. */
struct dt_fbt *dt_fbt_state(struct dt_registry *reg);
void dt_fbt_free(struct dt_registry *reg);
void dt_rawfbt_free(struct dt_rawfbt *r);

/* List the traceable functions (once); 0 or a negative errno. */
int dt_fbt_funcs_load(struct dt_registry *reg, struct dt_fbt *fbt);
void dt_fbt_funcs_free(struct dt_fbt *fbt);
/* A traceable function by module and name, or NULL. */
struct fbt_func *dt_fbt_func(const struct dt_fbt *fbt, const char *mod, const char *name);

/* Whether an attach error means the kernel refuses to trace that function. */
bool dt_fbt_refused(int err);

/* Probe the mechanism `kind` (once); whether the kernel allows it. */
bool dt_fbt_feature(struct dt_registry *reg, struct dt_fbt *fbt, enum fbt_kind kind,
		    const struct fbt_func *sample);

/* The mechanisms. */
extern const struct dt_mech dt_fbt_mech_fentry;
extern const struct dt_mech dt_fbt_mech_kprobe, dt_fbt_mech_kretprobe;
extern const struct dt_mech dt_fbt_mech_kprobe_multi, dt_fbt_mech_kretprobe_multi;

/* A probe's function (dt_probe.priv) and kind (dt_probe.data). */
#define FBT_FUNC(prp) ((const struct fbt_func *)(prp)->priv)
#define FBT_ENTRY 0
#define FBT_RETURN 1

/*
 * A trampoline (fentry/fexit) passes at most this many arguments on every
 * architecture we build for (x86-64 trampolines take six).
 */
#define FBT_FENTRY_MAX_ARGS 6

#endif
