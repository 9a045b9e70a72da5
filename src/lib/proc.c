/* Process control through the API: -c and -p (base/proc.c does the work). */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/proc.h"
#include "consumer/consume.h"
#include "consumer/proc_follow.h"
#include "consumer/symbolize.h"
#include "lib/dt_impl.h"
#include "providers/elf_syms.h"
#include "providers/uproc.h"

/* A function's run-time address in the process: in the executable or not (0: none). */
static uint64_t func_addr(struct dt_uproc *up, const char *name, bool in_exec)
{
	for (size_t i = 0; i < up->objs.n; i++) {
		struct dt_uobj *o = &up->objs.v[i];
		struct dt_elf *e;
		const struct dt_elf_sym *sym;

		if (o->is_exec != in_exec || (e = dt_uobj_elf(o)) == NULL)
			continue;
		if ((sym = dt_elf_lookup(e, name)) != NULL && sym->func && sym->addr != 0)
			return sym->addr + (uint64_t)dt_uobj_bias(o);
	}
	return 0;
}

/* Whether the process runs a 64-bit program. */
static bool is_elf64(pid_t pid)
{
	char path[64], ident[EI_NIDENT];
	bool ok = false;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (read(fd, ident, sizeof(ident)) == (ssize_t)sizeof(ident))
		ok = memcmp(ident, ELFMAG, SELFMAG) == 0 && ident[EI_CLASS] == ELFCLASS64;
	close(fd);
	return ok;
}

/*
 * Where the -c command waits while tracing starts, as DTrace's evaltime
 * (dt_proc_attach()): exec, in its exec call (dt_proc_create() stopped it
 * there); preinit, at its entry point; postinit (the default) and main, at
 * main(), found by the executable's symbol or else as __libc_start_main()'s
 * first argument; a program where neither is found waits at its entry
 * point, as DTrace's does.  What it did before is not traced: its dynamic
 * linker's work, its constructors.
 */
static int run_to_evaltime(dtrace_hdl_t *dtp, pid_t pid)
{
	int64_t when = dtp->core->opts.evaltime;
	struct dt_uproc *up;

	if (when == DT_EVAL_EXEC)
		return 0;
	/*
	 * Runs it to its entry point and reads its mappings.  Where that
	 * fails it waits where it is: a pid probe would say why; one that
	 * died is seen to exit once tracing runs.
	 */
	if (dt_uproc_get(dtp->reg, pid, &up) < 0 || when == DT_EVAL_PREINIT)
		return 0;
	uint64_t main_addr = func_addr(up, "main", true);
	/* The first argument in a register: the x86-64 calling convention only. */
	if (main_addr == 0 && is_elf64(pid)) {
		uint64_t start = func_addr(up, "__libc_start_main", false);
		if (start == 0 || dt_proc_run_to(dtp->procs, pid, start) != 1)
			return 0;
		main_addr = dt_proc_first_arg(pid);
	}
	/* One that dies on the way is seen to exit once tracing runs. */
	if (main_addr != 0)
		dt_proc_run_to(dtp->procs, pid, main_addr);
	return 0;
}

int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp)
{
	pid_t pid;
	int rc = dt_proc_create(dtp->procs, argv, &pid);

	if (rc < 0)
		return rc;
	if (pidp != NULL)
		*pidp = pid;
	/*
	 * Only $target waits where evaltime says (pid$target's probes are
	 * placed in it there); the other commands wait at their exec and are
	 * traced from their start.
	 */
	if (pid != dtp->procs->target_pid)
		return 0;
	return run_to_evaltime(dtp, pid);
}

int dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	struct dt_procs *pc = dtp->procs;
	bool usyms = dtp->descs->uses_usyms;
	int rc = 0;

	/*
	 * $target's mappings while it is stopped, at its entry point (its
	 * libraries mapped) if user symbols are printed: its stacks resolve
	 * even if it exits at once.  Failing to get there leaves the
	 * periodic reads; one that exited on the way has its end noted.
	 */
	if (usyms && pc->children.n > 0)
		dt_proc_run_to_entry(pc, pc->children.v[0].pid);
	dt_syms_track_targets(dtp->cons, 0);
	/*
	 * All let go together.  Followed to their exits and through their
	 * execs if user symbols are printed; one that cannot be is detached.
	 */
	for (size_t i = 0; i < pc->children.n; i++) {
		pid_t pid = pc->children.v[i].pid;
		if (!pc->children.v[i].stopped)
			continue;
		bool follow = usyms && dt_proc_follow_start(dtp->cons, pid) == 0;
		int r = dt_proc_detach(pc, pid, follow);
		if (r < 0 && rc == 0)
			rc = r;
	}
	return rc;
}

int dtrace_proc_grab(dtrace_hdl_t *dtp, pid_t pid)
{
	return dt_proc_grab(dtp->procs, pid);
}

int dtrace_proc_done(dtrace_hdl_t *dtp)
{
	dt_proc_check(dtp->cons);
	return dt_proc_all_ended(dtp->procs);
}

int dtrace_proc_ended(dtrace_hdl_t *dtp, pid_t *pidp, int *statusp)
{
	struct dt_proc_end e;

	dt_proc_check(dtp->cons);
	if (!dt_proc_next_end(dtp->procs, &e))
		return 0;
	if (pidp != NULL)
		*pidp = e.pid;
	if (statusp != NULL)
		*statusp = e.status;
	return e.has_status ? 1 : 2;
}

int dtrace_proc_status(const dtrace_hdl_t *dtp, int *statusp)
{
	return dt_proc_status(dtp->procs, statusp);
}
