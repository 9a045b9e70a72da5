/*
 * Process control for -c and -p.  A -c child is created at once (so that
 * $target is known to the compiler) and stopped by ptrace right after its
 * exec, before it runs an instruction of its own; it is released once the
 * probes are live.  As in DTrace (a created process is released with
 * PRELEASE_KILL), it does not outlive dtrace: it is killed when the handle
 * is closed, and by the kernel (PR_SET_PDEATHSIG) if dtrace is killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "consumer/consume.h"
#include "consumer/proc_follow.h"
#include "consumer/symbolize.h"
#include "lib/dt_impl.h"

int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp)
{
	int err[2];

	if (pipe2(err, O_CLOEXEC) < 0)
		return dt_set_error(dtp, -errno, "failed to execute %s: %s", argv[0], strerror(errno));
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(err[0]), close(err[1]);
		return dt_set_error(dtp, -e, "failed to execute %s: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		close(err[0]);
		/* Die with dtrace, even by SIGKILL (unless dtrace died already). */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		/* Stop at the exec, before the program runs (SIGTRAP). */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0)
			execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(err[1]);
	int status, e = 0;
	pid_t r;
	while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	if (r != pid || !WIFSTOPPED(status)) {
		if (read(err[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
			e = ECHILD;
		close(err[0]);
		if (r == pid && WIFSTOPPED(status)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return dt_set_error(dtp, -e, "failed to execute %s: %s", argv[0], strerror(e));
	}
	close(err[0]);
	dtp->child_pid = pid;
	dtp->child_stopped = true;
	dtp->child_name = argv[0];
	dtp->target_pid = pid;
	if (pidp)
		*pidp = pid;
	return 0;
}

/* AT_ENTRY of a process, from /proc/PID/auxv (0 if unknown). */
static uint64_t entry_point(pid_t pid)
{
	char path[64];
	uint64_t av[2], entry = 0;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	FILE *fp = fopen(path, "re");
	if (fp == NULL)
		return 0;
	while (fread(av, sizeof(av), 1, fp) == 1 && av[0] != 0) {
		if (av[0] == 9 /* AT_ENTRY */)
			entry = av[1];
	}
	fclose(fp);
	return entry;
}

/*
 * Run the -c child, stopped at its exec, to its entry point: the dynamic
 * linker has then mapped its shared libraries (what the pid and usdt
 * providers look at), and the program itself has not run yet.  A
 * breakpoint at AT_ENTRY, put back as it was once hit.
 */
int dt_proc_run_to_entry(struct dtrace_hdl *dtp, pid_t pid)
{
#if defined(__x86_64__)
	if (pid != dtp->child_pid || !dtp->child_stopped || dtp->child_at_entry)
		return 0;
	dtp->child_at_entry = true;
	uint64_t entry = entry_point(pid);
	if (entry == 0)
		return 0;
	errno = 0;
	long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)entry, NULL);
	if (errno != 0)
		return 0;
	long bp = (long)(((unsigned long)word & ~0xffUL) | 0xccUL);
	if (ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)bp) < 0)
		return 0;
	struct user_regs_struct regs;
	int sig = 0, status;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig) < 0)
			break;
		pid_t r;
		while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (r != pid || WIFEXITED(status) || WIFSIGNALED(status)) {
			dtp->child_stopped = false;
			dtp->child_exited = true;
			dtp->child_status = status;
			return dt_set_error(dtp, -ESRCH, "process %d exited before its entry point",
					    (int)pid);
		}
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		if (sig == SIGTRAP) {
			sig = 0;
			if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0 && regs.rip == entry + 1)
				break;
		}
	}
	ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)word);
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0 && regs.rip == entry + 1) {
		regs.rip = entry;
		ptrace(PTRACE_SETREGS, pid, NULL, &regs);
	}
#else
	(void)dtp;
	(void)pid;
#endif
	return 0;
}

int dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	if (!dtp->child_stopped)
		return 0;
	/*
	 * Its mappings while it is stopped, at its entry point (its libraries
	 * mapped) if user symbols are printed: its stacks resolve even if it
	 * exits at once.  Failing to get there leaves the periodic reads.
	 */
	if (dtp->uses_usyms && dt_proc_run_to_entry(dtp, dtp->child_pid) < 0 && dtp->child_exited)
		return 0;
	dtp->child_stopped = false;
	dt_syms_track_targets(dtp, 0);
	/* Followed to its exit and through its execs if its symbols are printed. */
	if (dtp->uses_usyms && dt_proc_follow_start(dtp) == 0) {
		if (ptrace(PTRACE_CONT, dtp->child_pid, NULL, NULL) < 0)
			return dt_set_error(dtp, -errno, "failed to start pid %d: %s",
					    (int)dtp->child_pid, strerror(errno));
		return 0;
	}
	if (ptrace(PTRACE_DETACH, dtp->child_pid, NULL, NULL) < 0)
		return dt_set_error(dtp, -errno, "failed to start pid %d: %s", (int)dtp->child_pid,
				    strerror(errno));
	return 0;
}

int dtrace_proc_grab(dtrace_hdl_t *dtp, pid_t pid)
{
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return dt_set_error(dtp, -ESRCH, "failed to grab pid %d: No such process", (int)pid);
	if (dt_vec_push(&dtp->grabbed, pid) < 0)
		return dt_set_error(dtp, -ENOMEM, "out of memory");
	if (dtp->target_pid == 0)
		dtp->target_pid = pid;
	return 0;
}

void dt_proc_check(struct dtrace_hdl *dtp)
{
	dt_syms_track_targets(dtp, DT_SYMS_TRACK_MS);
	if (dtp->child_pid != 0 && !dtp->child_exited && !dt_proc_follow_events(dtp)) {
		int status;
		pid_t r = waitpid(dtp->child_pid, &status, WNOHANG);
		if (r == dtp->child_pid) {
			dtp->child_exited = true;
			dtp->child_status = status;
		}
	}
	for (size_t i = 0; i < dtp->grabbed.n; i++) {
		if (dtp->grabbed.v[i] > 0 && kill(dtp->grabbed.v[i], 0) < 0 && errno == ESRCH) {
			dtp->grabbed_exited++;
			dtp->grabbed.v[i] = -dtp->grabbed.v[i];
		}
	}
}

int dtrace_proc_done(dtrace_hdl_t *dtp)
{
	dt_proc_check(dtp);
	if (dtp->child_pid != 0)
		return dtp->child_exited;
	return dtp->grabbed.n > 0 && dtp->grabbed_exited == (int)dtp->grabbed.n;
}

void dt_proc_release_all(struct dtrace_hdl *dtp)
{
	/* A -c child, started or not, does not outlive us (DTrace's PRELEASE_KILL). */
	if (dtp->child_pid != 0 && !dtp->child_exited) {
		bool traced = dt_proc_following(dtp);
		kill(dtp->child_pid, SIGKILL);
		for (;;) {
			int status;
			pid_t r = waitpid(dtp->child_pid, &status, __WALL);
			if (r < 0 && errno == EINTR)
				continue;
			/* A followed child may stop at its exit first. */
			if (r == dtp->child_pid && WIFSTOPPED(status) && traced) {
				ptrace(PTRACE_CONT, dtp->child_pid, NULL, NULL);
				continue;
			}
			break;
		}
		dtp->child_stopped = false;
		dtp->child_exited = true;
	}
	dt_proc_follow_end(dtp);
}

int dtrace_proc_status(const dtrace_hdl_t *dtp, int *statusp)
{
	if (dtp->child_pid == 0 || !dtp->child_exited)
		return 0;
	if (statusp != NULL)
		*statusp = dtp->child_status;
	return 1;
}
