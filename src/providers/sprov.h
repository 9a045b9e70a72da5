/*
 * The stable providers (proc, sched, io) as DTrace documents them, made
 * from kernel tracepoints: each probe is a table entry naming the
 * tracepoints it fires on (raw tracepoints when it needs the kernel's
 * objects, perf tracepoints when the record has what it needs), the
 * code that turns the tracepoint's arguments into the probe's (and may
 * skip the event), and its arguments' types: native, and translated
 * (args[0] of proc:::create is a struct task_struct * translated to
 * psinfo_t *), or the kernel function a BPF trampoline is put on where
 * no tracepoint will do (io:::wait-start).  A probe is listed only if its
 * tracepoints exist here, unless DTrace documents it and the entry says
 * why it may not be enabled (then enabling it gives that reason); one
 * whose tracepoint does not take what it expects (checked against the
 * kernel's BTF when the program is built) fails with a message that says
 * so.
 */
#ifndef DT_SPROV_H
#define DT_SPROV_H

#include <stdbool.h>
#include <stdint.h>

#include "dtrace.h"

struct dt_registry;
struct btf;
struct btf_type;
struct dt_cg;
struct dt_group;
struct dt_probe;
struct dt_provider;
struct dt_mech;

enum sp_kind {
	SP_RAW,		/* raw tracepoints: ctx is the u64 arguments of TP_PROTO */
	SP_TP,		/* perf tracepoints: ctx is the event record */
	SP_TICK,	/* a perf cpu-clock event on every CPU at 100 Hz (no tracepoint) */
	SP_FENTRY,	/* BPF trampolines on the kernel function events[0] (sprov_fn.c): */
	SP_FEXIT,	/* ctx is its arguments as u64s (then, on return, its value) */
};

struct sp_arg {
	const char *native;	/* type of the value in argN ("struct task_struct *") */
	const char *xlate;	/* what args[N] is translated to ("psinfo_t *"), or NULL */
};

struct sp_probe {
	const char *name;
	enum sp_kind kind;
	const char *group;		/* tracefs group of the tracepoints */
	const char *events[4];		/* the tracepoints (NULL-terminated), or the function */
	/*
	 * SP_RAW: TP_PROTO's parameter types as BTF has them, checked when
	 * built; SP_FENTRY/SP_FEXIT: the function's.
	 */
	const char *params[6];
	struct sp_arg args[4];
	/*
	 * Fill the probe's arguments from the tracepoint's (bit i of `used`:
	 * argi is read); R6 is the context, R7-R9 are free; jump to `skip` to
	 * ignore the event.
	 */
	void (*prologue)(struct dt_cg *cg, int dctx, uint32_t used, int skip);
	/* Built-in variables describe the thread switched to (sched:::on-cpu). */
	bool other_thread;
	/*
	 * The tracepoints are bare ones (DECLARE_TRACE: no tracefs event),
	 * there when the kernel's BTF has their btf_trace_ type; where it has
	 * not, the probe is made as `alt` says.  (Decided when the probe is
	 * enabled: listing probes reads no BTF.)
	 */
	bool bare;
	const struct sp_probe *alt;
	/*
	 * A probe DTrace documents that is listed even where it cannot be
	 * enabled: why not, when it has no tracepoint (events[0] NULL), when
	 * its tracepoint is missing here, or when `usable` says the kernel
	 * lacks what its prologue reads.
	 */
	const char *why;
	bool (*usable)(struct dt_registry *reg);
};

/* Register the probes of `probes` whose tracepoints this kernel has. */
int sp_populate(struct dt_registry *reg, const struct dt_provider *prov, const struct sp_probe *probes,
		size_t n);

/* The dt_provider functions, for every stable provider. */
const char *sp_mech_class(const struct dt_probe *prp);
const struct dt_mech *sp_choose(struct dt_registry *reg, struct dt_group *g);
bool sp_arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		 const char **xlate);
bool sp_other_thread(struct dt_registry *reg, const struct dt_probe *prp);
int sp_arg_count(struct dt_registry *reg, const struct dt_probe *prp);
const char *sp_unavailable(struct dt_registry *reg);
const char *sp_probe_unavailable(struct dt_registry *reg, const struct dt_probe *prp);
/* Whether the kernel's BTF has member `member` of `sou` (for `usable`). */
bool sp_has_member(struct dt_registry *reg, const char *sou, const char *member);
/* Their stability (-lv): Private descriptions, Evolving arguments of the ISA class. */

/* ---- The machinery's pieces (sprov.c, sprov_fn.c) ---- */

void sp_prologue(struct dt_cg *cg, struct dt_group *g, int dctx, uint32_t args, int skip);
/* Whether the parameters of a BTF FUNC_PROTO after the first `skip` are sp->params. */
bool sp_params_match(struct dt_cg *cg, const struct sp_probe *sp, struct btf *btf,
		     const struct btf_type *t, int skip);
/* Kernel-function probes: their mechanism, why one cannot be made here, check, attach. */
const struct dt_mech *sp_fn_mech(enum sp_kind kind);
const char *sp_fn_problem(struct dt_registry *reg, const struct sp_probe *sp);
void sp_fn_check(struct dt_cg *cg, const struct dt_probe *prp, const struct sp_probe *sp);
int sp_fn_attach(struct dt_registry *reg, struct dt_group *g, const struct sp_probe *sp);

/* ---- For prologues ---- */

/* Byte offset of a kernel struct member, from BTF (a build error if there is none). */
uint32_t sp_member(struct dt_cg *cg, const char *sou, const char *member);
/* The same, of `member`, or where the kernel has none, of its older name `older`. */
uint32_t sp_member2(struct dt_cg *cg, const char *sou, const char *member, const char *older);
/* Offset of the CPU a task last ran on (thread_info.cpu, or cpu). */
uint32_t sp_task_cpu(struct dt_cg *cg);
/* reg = raw tracepoint argument k. */
void sp_raw_arg(struct dt_cg *cg, int reg, int k);
/* reg = argument k of the kernel function of an SP_FENTRY/SP_FEXIT probe. */
void sp_fn_arg(struct dt_cg *cg, int dctx, int reg, int k);
/* reg = the `size`-byte (signed) field at `off` of the tracepoint record. */
void sp_tp_field(struct dt_cg *cg, int reg, int16_t off, int size, bool is_signed);
/* Offset of a tracepoint record's field (from its format file; a build error if none). */
int16_t sp_tp_offset(struct dt_cg *cg, const char *group, const char *event, const char *field);
/* reg = *(u64 or smaller)(src + off) read with probe_read_kernel (0 if unreadable). */
void sp_read(struct dt_cg *cg, int dctx, int reg, int src, uint32_t off, int size);
/* argi = reg, if `used` asks for it. */
void sp_set_arg(struct dt_cg *cg, int dctx, uint32_t used, int i, int reg);
/* The thread built-in variables describe (other_thread probes). */
void sp_set_task(struct dt_cg *cg, int dctx, int reg);
/* reg = this CPU's or CPU `cpu_reg`'s cpuinfo_t (curcpu's map). */
void sp_cpuinfo(struct dt_cg *cg, int dctx, int reg, int cpu_reg);

#endif
