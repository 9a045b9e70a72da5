/*
 * The lockstat provider's probes (prov_lockstat.c) and the two ways the
 * kernel lets them be made:
 *
 *   contention  the lock:contention_begin/contention_end tracepoints,
 *               which the kernel fires around the wait for a mutex, a
 *               spin lock, a reader/writer spin lock or a reader/writer
 *               semaphore (lockstat_contention.c);
 *   hold        fexit programs on the kernel's out-of-line lock and
 *               unlock functions (lockstat_hold.c), which need BPF
 *               trampolines.
 */
#ifndef DT_LOCKSTAT_H
#define DT_LOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>

struct dt_cg;
struct dt_group;
struct dt_mech;
struct dt_registry;
struct lock_flags;
struct ls_end;

/* What the contention_begin side records: the kind of lock the probe is about. */
enum ls_class {
	LS_MUTEX,	/* struct mutex (spinning on its owner, then blocking) */
	LS_SPIN,	/* a queued spin lock */
	LS_RWSPIN,	/* a queued reader/writer spin lock (rwlock_t) */
	LS_RWSEM,	/* a reader/writer semaphore, blocking */
};

/* A kernel function whose return is a hold event. */
struct ls_func {
	const char *name;
	/* Not there (nor alt): the kernel inlines it, and the probe would miss some. */
	bool required;
	const char *alt;	/* its name in kernels built with lockdep (..._nested) */
	int8_t ok_ret;		/* fire only if it returns this (trylocks: 1), or -1: always */
	int8_t rw;		/* arg1: RW_WRITER (0) or RW_READER (1), or -1: no arg1 */
};

/*
 * What contention_end's prologue has for a probe's end function: stack
 * slots holding the time now, the contention's start (contention_begin),
 * the start of its blocking (a mutex's second contention_begin), the
 * contention_begin flags (and LS_BLOCKED), what the lock's count was then
 * (a semaphore's) and contention_end's result; the flag values.
 */
struct ls_end {
	int dctx;
	int now, begin, block, flags, count, ret;
	const struct lock_flags *lf;
};
#define LS_BLOCKED (1u << 31)	/* a mutex's waiter blocked (in flags) */

struct ls_probe {
	const char *name;
	const char *args[5];		/* args[] native types */
	/* Contention probes: */
	bool contention;
	enum ls_class cls;
	/* Fill argN at contention_end from the recorded start (lockstat_contention.c). */
	void (*end)(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
	/* Hold probes: the functions, NULL-name terminated. */
	const struct ls_func *funcs;
	const char *what;		/* "mutexes are taken" ... for messages */
};

#define LS_PROBE(prp) ((const struct ls_probe *)(prp)->priv)

/* The contention mechanism, and the end-side pieces of the probe table. */
extern const struct dt_mech dt_lockstat_mech_contention;
void dt_ls_end_adaptive_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
void dt_ls_end_adaptive_block(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
void dt_ls_end_adaptive_error(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
void dt_ls_end_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
void dt_ls_end_rw_spin(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
void dt_ls_end_rw_block(struct dt_cg *cg, const struct ls_end *e, uint32_t used, int skip);
/* Why the contention probes cannot be made here, or NULL. */
const char *dt_lockstat_contention_problem(struct dt_registry *reg);

/* The hold mechanism for a group (its functions checked), or NULL with the error set. */
const struct dt_mech *dt_lockstat_hold_choose(struct dt_registry *reg, struct dt_group *g);

#endif
