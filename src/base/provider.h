/*
 * The provider interface.  A provider lists its probes (on demand, when a
 * description can match it), says which BPF mechanism fires them, emits
 * the prologue that fills the probe context (probe id, arguments) for its
 * mechanism, and attaches loaded programs.  The providers are in
 * src/providers/ (providers.h); the interface is in the base layer so that
 * the registry, the compiler and the loader call them through it.  Every
 * callback is handed the probe registry (base/probe.h).
 */
#ifndef DT_PROVIDER_H
#define DT_PROVIDER_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"
#include "dtrace.h"

struct dt_registry;
struct dt_probe;
struct dt_pdesc;
struct dt_cg;
struct dt_group;
struct dt_type;
struct dt_pattr;
struct bpf_object;
struct bpf_program;
struct bo_object;
struct bpf_link;

/* How a set of probes fires one BPF program. */
struct dt_mech {
	const char *name;
	const char *section;	/* ELF section of the program (program type for libbpf) */
	/* The section of one group's program, when it names its target (fentry/<function>). */
	const char *(*group_section)(struct dt_registry *reg, struct dt_group *g);
	/* One program per probe (fentry/fexit bind one function each): groups are split. */
	bool per_probe;
	bool by_consumer;	/* run by the consumer with BPF_PROG_TEST_RUN (BEGIN, END) */
	bool gated;		/* skip unless the state gate is ACTIVE */
	/*
	 * Its probes fire in code the object's own programs run (the
	 * kernel's lock functions): no program of the object may then run
	 * inside another on a CPU (cg_prog.c).
	 */
	bool exclusive;
	/*
	 * Every link's attach cookie is the probe's id, as a whole: a program
	 * of one probe then takes it as a constant (cg_prog.c).
	 */
	bool cookie_is_prid;
	/*
	 * Emit code that stores the probe id and the arguments in `args`
	 * (bit i: argi is used) into the dctx at fp + dctx_off.  R6 holds the
	 * program's context.  May jump to `skip` to ignore the event.
	 */
	void (*cg_prologue)(struct dt_cg *cg, struct dt_group *g, int dctx_off, uint32_t args,
			    int skip);
	/* Attach the loaded program to every probe of the group. */
	int (*attach)(struct dt_registry *reg, struct dt_group *g);
	/* Undo what attach did beyond links (e.g. perf event fds). */
	void (*detach)(struct dt_registry *reg, struct dt_group *g);
	/* Extra maps the mechanism's prologue uses, added to the object being built. */
	int (*add_maps)(struct dt_registry *reg, struct dt_group *g, struct bo_object *obj);
	/* Once the object is loaded: fill such maps, find the group's other programs (copies). */
	int (*fill_maps)(struct dt_registry *reg, struct dt_group *g, struct bpf_object *obj);
	/* Adjust the program after the object is opened, before it is loaded. */
	int (*prepare)(struct dt_registry *reg, struct dt_group *g, struct bpf_program *prog);
	/*
	 * How many more copies of the group's program it needs (NULL: none):
	 * one per kernel function when a program binds one function
	 * (fexit) and a probe fires in several.  Copy k (g->copy while its
	 * prologue and section are made) is named <g->name>_<k>; attach
	 * finds it in the loaded object.
	 */
	unsigned (*copies)(struct dt_registry *reg, struct dt_group *g);
};

struct dt_provider {
	const char *name;
	/*
	 * Expensive to list: populate runs only to list everything; a
	 * description gets its probes from provide alone.
	 */
	bool lazy;
	/* Register every probe of this provider (called once, when needed). */
	int (*populate)(struct dt_registry *reg);
	/* Create probes a description names that populate does not list (tick-7s). */
	int (*provide)(struct dt_registry *reg, const struct dt_pdesc *pd);
	/*
	 * Mechanism class of a probe: probes of one class with the same clauses
	 * share a program.  Returns a short string (e.g. "entry").
	 */
	const char *(*mech_class)(const struct dt_probe *prp);
	/*
	 * Pick the mechanism for a group of probes of one class; NULL (with the
	 * error set in the handle) if the kernel offers none that fits.
	 */
	const struct dt_mech *(*choose)(struct dt_registry *reg, struct dt_group *g);
	/* Type of args[i] for a probe, or NULL (untyped: int64_t). */
	struct dt_type *(*arg_type)(struct dt_registry *reg, const struct dt_probe *prp, int i);
	/*
	 * Or args[i] as D type names: the type of the value in argi and, if
	 * args[i] is translated, the type it is translated to ("psinfo_t *",
	 * or "string" for a user string); false if the probe has no args[i].
	 */
	bool (*arg_desc)(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
			 const char **xlate);
	/*
	 * Whether built-in variables (pid, curthread ...) describe a thread
	 * other than the one running the probe (sched:::on-cpu: the thread
	 * switched to), whose task_struct the prologue leaves in DCTX_TASK.
	 */
	bool (*other_thread)(struct dt_registry *reg, const struct dt_probe *prp);
	/* Stability attributes of its probe descriptions' parts and arguments (pattr.h). */
	const struct dt_pattr *pattr;
	/* How many args[] a probe has, or -1 if that is not known. */
	int (*arg_count)(struct dt_registry *reg, const struct dt_probe *prp);
	/* Reason the provider cannot enable probes on this kernel, or NULL. */
	const char *(*unavailable)(struct dt_registry *reg);
	/*
	 * Reason a listed probe cannot be enabled here (DTrace documents it,
	 * Linux or this kernel has nothing to make it from), or NULL.  A
	 * description that matches only such probes is an error giving the
	 * reason; a wider one leaves them out.
	 */
	const char *(*probe_unavailable)(struct dt_registry *reg, const struct dt_probe *prp);
	/*
	 * Providers whose probes carry a process id in the provider name
	 * (pid1234, myprov1234): whether a description's provider field may
	 * name one of them.  Without it the provider's name must match.
	 */
	bool (*prov_match)(const char *pattern);
	/*
	 * Whether a probe matches a description, where the provider knows
	 * better than the four fields (module aliases such as a.out, function
	 * aliases).  Without it the four fields are matched as globs.
	 */
	bool (*match)(struct dt_registry *reg, const struct dt_probe *prp, const struct dt_pdesc *pd);
	/* Free what the provider keeps in the handle. */
	void (*fini)(struct dt_registry *reg);
};

/* A BPF program: one mechanism, one ordered set of clauses, its probes. */
struct dt_group {
	const struct dt_provider *prov;
	const struct dt_mech *mech;
	const char *mclass;
	DT_VEC(struct dt_stmt *) stmts;
	DT_VEC(struct dt_probe *) probes;
	uint32_t args_used;
	bool uses_scratch;
	char name[32];			/* the program's function name */
	unsigned copy;			/* the copy being built (dt_mech.copies), 0 the first */
	/* Programs the clauses are spread over, chained by tail calls (cg_chain.c); 0, 1: one. */
	unsigned nsegs;
	size_t *seg_ends;		/* one past each program's last clause */
	struct bo_func *fn;
	struct bpf_program *prog;
	DT_VEC(struct bpf_link *) links;
	DT_VEC(int) fds;		/* perf event fds owned by the group */
	void *priv;			/* mechanism data */
};

/* Every group of the object, as the code generator formed them (cg_prog.c). */
struct dt_progset {
	DT_VEC(struct dt_group *) groups;
	struct dt_group *begin, *end;	/* groups the consumer runs (BEGIN, END) */
	bool error_clauses;		/* some clause enables ERROR */
	int ncpus;			/* CPUs the per-CPU areas are sized for */
};

#endif
