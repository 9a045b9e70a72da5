/*
 * Process control for -c and -p.  A -c child is created at once (so that
 * $target is known to the compiler) and stopped by ptrace right after its
 * exec, before it runs an instruction of its own; it is released once the
 * probes are live, and killed if tracing never starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "consumer/consume.h"
#include "lib/dt_impl.h"

int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[], pid_t *pidp)
{
	int err[2];

	if (pipe2(err, O_CLOEXEC) < 0)
		return dt_set_error(dtp, -errno, "failed to execute %s: %s", argv[0], strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(err[0]), close(err[1]);
		return dt_set_error(dtp, -e, "failed to execute %s: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		close(err[0]);
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

int dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	if (!dtp->child_stopped)
		return 0;
	dtp->child_stopped = false;
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
	if (dtp->child_pid != 0 && !dtp->child_exited) {
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
	/* A -c child that never started must not outlive us. */
	if (dtp->child_pid != 0 && dtp->child_stopped) {
		kill(dtp->child_pid, SIGKILL);
		while (waitpid(dtp->child_pid, NULL, 0) < 0 && errno == EINTR)
			;
		dtp->child_stopped = false;
		dtp->child_exited = true;
	}
}
