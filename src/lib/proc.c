/* Process control through the API: -c and -p (base/proc.c does the work). */
#include "base/proc.h"
#include "consumer/consume.h"
#include "consumer/proc_follow.h"
#include "consumer/symbolize.h"
#include "lib/dt_impl.h"

int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp)
{
	return dt_proc_create(dtp->procs, argv, pidp);
}

int dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	if (!dtp->procs->child_stopped)
		return 0;
	/*
	 * Its mappings while it is stopped, at its entry point (its libraries
	 * mapped) if user symbols are printed: its stacks resolve even if it
	 * exits at once.  Failing to get there leaves the periodic reads.
	 */
	if (dtp->descs->uses_usyms && dt_proc_run_to_entry(dtp->procs, dtp->procs->child_pid) < 0 && dtp->procs->child_exited)
		return 0;
	dtp->procs->child_stopped = false;
	dt_syms_track_targets(dtp->cons, 0);
	/* Followed to its exit and through its execs if its symbols are printed. */
	if (dtp->descs->uses_usyms && dt_proc_follow_start(dtp->cons) == 0)
		return dt_proc_detach(dtp->procs, true);
	return dt_proc_detach(dtp->procs, false);
}

int dtrace_proc_grab(dtrace_hdl_t *dtp, pid_t pid)
{
	return dt_proc_grab(dtp->procs, pid);
}

int dtrace_proc_done(dtrace_hdl_t *dtp)
{
	dt_proc_check(dtp->cons);
	if (dtp->procs->child_pid != 0)
		return dtp->procs->child_exited;
	return dtp->procs->grabbed.n > 0 && dtp->procs->grabbed_exited == (int)dtp->procs->grabbed.n;
}

int dtrace_proc_status(const dtrace_hdl_t *dtp, int *statusp)
{
	return dt_proc_status(dtp->procs, statusp);
}
