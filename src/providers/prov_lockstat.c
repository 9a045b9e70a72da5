/*
 * The lockstat provider (the Dynamic Tracing Guide's, with DTrace for
 * Linux's probes and arguments): lockstat:vmlinux::<probe>.
 *
 *   adaptive-acquire        a mutex was taken          args[0] struct mutex *
 *   adaptive-release        a mutex was released       args[0] struct mutex *
 *   adaptive-spin           a mutex was taken after spinning on its owner;
 *                           args[1] uint64_t the time spun (ns)
 *   adaptive-block          a mutex was taken after blocking; args[1] the time blocked
 *   adaptive-acquire-error  a wait for a mutex ended without it (a signal,
 *                           a wound/wait deadlock); args[1] int the error
 *   spin-acquire            a spin lock was taken      args[0] spinlock_t *
 *   spin-release            a spin lock was released
 *   spin-spin               a spin lock was taken after spinning; args[1] the time
 *   rw-acquire              a reader/writer spin lock was taken     args[0] rwlock_t *,
 *   rw-release              ... released           args[1] int RW_READER or RW_WRITER
 *   rw-spin                 ... taken after spinning: args[1] the time, args[2] the kind
 *   rw-block                a reader/writer semaphore was taken after blocking:
 *                           args[0] struct rw_semaphore *, args[1] the time blocked,
 *                           args[2] RW_READER or RW_WRITER, args[3] whether a
 *                           writer held it then, args[4] how many readers did
 *
 * DTrace for Linux types rw-*'s lock "struct rwlock *", a type no Linux
 * kernel has: here it is the kernel's rwlock_t, so that args[0] can be
 * used.  Linux's reader/writer spin locks never block; rw-block (the
 * Solaris Guide's) is for the kernel's blocking reader/writer lock, the
 * semaphore.  The contention probes (spin, block, error) are made from
 * the kernel's lock tracepoints, the hold probes (acquire, release) from
 * fexit on its lock functions (lockstat.h); each is listed wherever it
 * is, and one the running kernel cannot make fails to enable with the
 * reason.
 */
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "providers/lockstat.h"
#include "providers/providers.h"

/* Hold events: the kernel functions whose return takes or releases a lock. */
static const struct ls_func mutex_lock_funcs[] = {
	{ "mutex_lock", true, "mutex_lock_nested", -1, -1 },
	{ "mutex_lock_nested", false, NULL, -1, -1 },
	{ "_mutex_lock_nest_lock", false, NULL, -1, -1 },
	{ "mutex_lock_interruptible", true, "mutex_lock_interruptible_nested", 0, -1 },
	{ "mutex_lock_interruptible_nested", false, NULL, 0, -1 },
	{ "mutex_lock_killable", true, "mutex_lock_killable_nested", 0, -1 },
	{ "mutex_lock_killable_nested", false, NULL, 0, -1 },
	/* (mutex_lock_io calls mutex_lock, except in lockdep's kernels.) */
	{ "mutex_lock_io_nested", false, NULL, -1, -1 },
	{ "mutex_trylock", true, "_mutex_trylock_nest_lock", 1, -1 },
	{ "_mutex_trylock_nest_lock", false, NULL, 1, -1 },
	{ "ww_mutex_lock", false, NULL, 0, -1 },
	{ "ww_mutex_lock_interruptible", false, NULL, 0, -1 },
	{ "ww_mutex_trylock", false, NULL, 1, -1 },
	{ NULL, false, NULL, -1, -1 },
};

/* (ww_mutex_unlock calls mutex_unlock.) */
static const struct ls_func mutex_unlock_funcs[] = {
	{ "mutex_unlock", true, NULL, -1, -1 },
	{ NULL, false, NULL, -1, -1 },
};

static const struct ls_func spin_lock_funcs[] = {
	{ "_raw_spin_lock", true, NULL, -1, -1 },
	{ "_raw_spin_lock_bh", true, NULL, -1, -1 },
	{ "_raw_spin_lock_irq", true, NULL, -1, -1 },
	{ "_raw_spin_lock_irqsave", true, NULL, -1, -1 },
	{ "_raw_spin_trylock", true, NULL, 1, -1 },
	{ "_raw_spin_trylock_bh", true, NULL, 1, -1 },
	{ "_raw_spin_lock_nested", false, NULL, -1, -1 },
	{ "_raw_spin_lock_bh_nested", false, NULL, -1, -1 },
	{ "_raw_spin_lock_irqsave_nested", false, NULL, -1, -1 },
	{ "_raw_spin_lock_nest_lock", false, NULL, -1, -1 },
	{ NULL, false, NULL, -1, -1 },
};

static const struct ls_func spin_unlock_funcs[] = {
	{ "_raw_spin_unlock", true, NULL, -1, -1 },
	{ "_raw_spin_unlock_bh", true, NULL, -1, -1 },
	{ "_raw_spin_unlock_irq", true, NULL, -1, -1 },
	{ "_raw_spin_unlock_irqrestore", true, NULL, -1, -1 },
	{ NULL, false, NULL, -1, -1 },
};

#define RD 1	/* RW_READER */
#define WR 0	/* RW_WRITER */

static const struct ls_func rw_lock_funcs[] = {
	{ "_raw_read_lock", true, NULL, -1, RD },
	{ "_raw_read_lock_bh", true, NULL, -1, RD },
	{ "_raw_read_lock_irq", true, NULL, -1, RD },
	{ "_raw_read_lock_irqsave", true, NULL, -1, RD },
	{ "_raw_read_trylock", true, NULL, 1, RD },
	{ "_raw_write_lock", true, NULL, -1, WR },
	{ "_raw_write_lock_bh", true, NULL, -1, WR },
	{ "_raw_write_lock_irq", true, NULL, -1, WR },
	{ "_raw_write_lock_irqsave", true, NULL, -1, WR },
	{ "_raw_write_trylock", true, NULL, 1, WR },
	{ "_raw_write_lock_nested", false, NULL, -1, WR },
	{ NULL, false, NULL, -1, -1 },
};

static const struct ls_func rw_unlock_funcs[] = {
	{ "_raw_read_unlock", true, NULL, -1, RD },
	{ "_raw_read_unlock_bh", true, NULL, -1, RD },
	{ "_raw_read_unlock_irq", true, NULL, -1, RD },
	{ "_raw_read_unlock_irqrestore", true, NULL, -1, RD },
	{ "_raw_write_unlock", true, NULL, -1, WR },
	{ "_raw_write_unlock_bh", true, NULL, -1, WR },
	{ "_raw_write_unlock_irq", true, NULL, -1, WR },
	{ "_raw_write_unlock_irqrestore", true, NULL, -1, WR },
	{ NULL, false, NULL, -1, -1 },
};

#define MUTEX "struct mutex *"
#define SPIN "spinlock_t *"
#define RWLOCK "rwlock_t *"
#define HOLD(fn, w) false, LS_MUTEX, NULL, fn, w
#define CONT(cls, end) true, cls, end, NULL, NULL

static const struct ls_probe probes[] = {
	{ "adaptive-acquire", { MUTEX }, HOLD(mutex_lock_funcs, "mutexes are taken") },
	{ "adaptive-acquire-error", { MUTEX, "int" }, CONT(LS_MUTEX, dt_ls_end_adaptive_error) },
	{ "adaptive-block", { MUTEX, "uint64_t" }, CONT(LS_MUTEX, dt_ls_end_adaptive_block) },
	{ "adaptive-release", { MUTEX }, HOLD(mutex_unlock_funcs, "mutexes are released") },
	{ "adaptive-spin", { MUTEX, "uint64_t" }, CONT(LS_MUTEX, dt_ls_end_adaptive_spin) },
	{ "rw-acquire", { RWLOCK, "int" },
	  HOLD(rw_lock_funcs, "reader/writer spin locks are taken") },
	{ "rw-block", { "struct rw_semaphore *", "uint64_t", "int", "int", "int" },
	  CONT(LS_RWSEM, dt_ls_end_rw_block) },
	{ "rw-release", { RWLOCK, "int" },
	  HOLD(rw_unlock_funcs, "reader/writer spin locks are released") },
	{ "rw-spin", { RWLOCK, "uint64_t", "int" }, CONT(LS_RWSPIN, dt_ls_end_rw_spin) },
	{ "spin-acquire", { SPIN }, HOLD(spin_lock_funcs, "spin locks are taken") },
	{ "spin-release", { SPIN }, HOLD(spin_unlock_funcs, "spin locks are released") },
	{ "spin-spin", { SPIN, "uint64_t" }, CONT(LS_SPIN, dt_ls_end_spin) },
};

static int populate(struct dt_registry *reg)
{
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++)
		if (dt_probe_add(reg, &dt_prov_lockstat, "vmlinux", "", probes[i].name, 0,
				 &probes[i]) == NULL)
			return -ENOMEM;
	return 0;
}

/* Each probe has programs (and, for contention, a map) of its own. */
static const char *mech_class(const struct dt_probe *prp)
{
	return prp->desc[3];
}

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	const struct ls_probe *lp = LS_PROBE(g->probes.v[0]);

	if (!lp->contention)
		return dt_lockstat_hold_choose(reg, g);
	const char *why = dt_lockstat_contention_problem(reg);
	if (why != NULL) {
		dt_set_error(reg->core, -ENOTSUP, "cannot enable lockstat:::%s: %s", lp->name, why);
		return NULL;
	}
	return &dt_lockstat_mech_contention;
}

static bool arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		     const char **xlate)
{
	const struct ls_probe *lp = LS_PROBE(prp);

	(void)reg;
	if (i < 0 || i >= (int)ARRAY_SIZE(lp->args) || lp->args[i] == NULL)
		return false;
	*native = lp->args[i];
	*xlate = NULL;
	return true;
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct ls_probe *lp = LS_PROBE(prp);
	int n = 0;

	(void)reg;
	while (n < (int)ARRAY_SIZE(lp->args) && lp->args[n] != NULL)
		n++;
	return n;
}

const struct dt_provider dt_prov_lockstat = {
	.name = "lockstat",
	.pattr = &dt_pattr_sdt_stable,
	.populate = populate,
	.mech_class = mech_class,
	.choose = choose,
	.arg_desc = arg_desc,
	.arg_count = arg_count,
};
