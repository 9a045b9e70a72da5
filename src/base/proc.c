/*
 * Process control for -c and -p.  A -c child is created at once (so that
 * $target is known to the compiler) and stopped by ptrace right after its
 * exec, before it runs an instruction of its own; all of them are
 * released together once the probes are live.  As in DTrace (a created
 * process is released with PRELEASE_KILL), none outlives dtrace: they are
 * killed when the handle is closed, and by the kernel (PR_SET_PDEATHSIG)
 * if dtrace is killed.
 */
#include "base/proc.h"

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

#include "base/core.h"

int dt_proc_create(struct dt_procs *pc, char *const argv[], pid_t *pidp)
{
	int err[2];
	/*
	 * evaltime=exec: stopped inside execve(), after the new image is in
	 * place and before the call returns, so that tracing sees the
	 * return (proc:::exec-success) as DTrace does; the other evaltimes
	 * stop once it has returned, before the program's first instruction.
	 */
	bool in_exec = pc->core->opts.evaltime == DT_EVAL_EXEC;

	if (pipe2(err, O_CLOEXEC) < 0)
		return dt_set_error(pc->core, -errno, "failed to execute %s: %s", argv[0], strerror(errno));
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(err[0]), close(err[1]);
		return dt_set_error(pc->core, -e, "failed to execute %s: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		close(err[0]);
		/* Die with dtrace, even by SIGKILL (unless dtrace died already). */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		/*
		 * Stop at the exec, before the program runs (SIGTRAP); with
		 * evaltime=exec first before it, for the parent to ask for
		 * the stop inside execve() (PTRACE_EVENT_EXEC).
		 */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 &&
		    (!in_exec || raise(SIGSTOP) == 0))
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
	if (in_exec && r == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP) {
		/* EXITKILL: it does not outlive us, even before its exec. */
		long opts = PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL;
		if (ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)opts) < 0 ||
		    ptrace(PTRACE_CONT, pid, NULL, NULL) < 0)
			status = 0;	/* not stopped: fails below */
		else
			while ((r = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
				;
		if (r == pid && WIFSTOPPED(status) && (status >> 8) != (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			r = -1;
		}
	}
	if (r != pid || !WIFSTOPPED(status)) {
		if (read(err[0], &e, sizeof(e)) != (ssize_t)sizeof(e))
			e = ECHILD;
		close(err[0]);
		if (r == pid && WIFSTOPPED(status)) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return dt_set_error(pc->core, -e, "failed to execute %s: %s", argv[0], strerror(e));
	}
	close(err[0]);
	struct dt_child c = { .pid = pid, .stopped = true };
	if (dt_vec_push(&pc->children, c) < 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return dt_set_error(pc->core, -ENOMEM, "out of memory");
	}
	/* The first -c is $target, even over a -p grabbed before it. */
	if (pc->children.n == 1)
		pc->target_pid = pid;
	if (pidp)
		*pidp = pid;
	return 0;
}

struct dt_child *dt_proc_child(struct dt_procs *pc, pid_t pid)
{
	for (size_t i = 0; i < pc->children.n; i++)
		if (pc->children.v[i].pid == pid)
			return &pc->children.v[i];
	return NULL;
}

static void note_end(struct dt_procs *pc, pid_t pid, bool has_status, int status)
{
	struct dt_proc_end e = { pid, has_status, status };

	/* Out of memory: its end goes unreported, but is still counted. */
	if (dt_vec_push(&pc->ends, e) < 0)
		return;
}

void dt_proc_child_ended(struct dt_procs *pc, pid_t pid, int status)
{
	struct dt_child *c = dt_proc_child(pc, pid);

	if (c == NULL || c->exited)
		return;
	c->stopped = false;
	c->traced = false;
	c->exited = true;
	c->status = status;
	note_end(pc, pid, true, status);
}

/* AT_ENTRY of a process, from /proc/PID/auxv (0 if unknown). */
uint64_t dt_proc_entry_point(pid_t pid)
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
 * Run the stopped -c child to `addr`: a breakpoint there, put back as it
 * was once hit.  1 when it got there, 0 when it could not be sent there
 * (it stays where it was), a negative errno when it exited on the way.
 */
int dt_proc_run_to(struct dt_procs *pc, pid_t pid, uint64_t addr)
{
	struct dt_child *c = dt_proc_child(pc, pid);

	if (c == NULL || !c->stopped)
		return 0;

#if defined(__x86_64__)
	errno = 0;
	long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno != 0)
		return 0;
	long bp = (long)(((unsigned long)word & ~0xffUL) | 0xccUL);
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)bp) < 0)
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
			dt_proc_child_ended(pc, pid, status);
			return -ESRCH;
		}
		if (!WIFSTOPPED(status))
			continue;
		sig = WSTOPSIG(status);
		/* A ptrace event stop (evaltime=exec's) is no signal to pass on. */
		if (sig == SIGTRAP && (status >> 16) != 0)
			sig = 0;
		if (sig == SIGTRAP) {
			sig = 0;
			if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0 && regs.rip == addr + 1)
				break;
		}
	}
	ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word);
	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0 && regs.rip == addr + 1) {
		regs.rip = addr;
		ptrace(PTRACE_SETREGS, pid, NULL, &regs);
	}
	return 1;
#else
	(void)addr;
	return 0;
#endif
}

/*
 * Run the -c child, stopped at its exec, to its entry point: the dynamic
 * linker has then mapped its shared libraries (what the pid and usdt
 * providers look at), and the program itself has not run yet.
 */
int dt_proc_run_to_entry(struct dt_procs *pc, pid_t pid)
{
	struct dt_child *c = dt_proc_child(pc, pid);

	if (c == NULL || !c->stopped || c->at_entry)
		return 0;
	c->at_entry = true;
	uint64_t entry = dt_proc_entry_point(pid);
	if (entry == 0)
		return 0;
	if (dt_proc_run_to(pc, pid, entry) == -ESRCH)
		return dt_set_error(pc->core, -ESRCH, "process %d exited before its entry point",
				    (int)pid);
	return 0;
}

uint64_t dt_proc_first_arg(pid_t pid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) == 0)
		return regs.rdi;
#else
	(void)pid;
#endif
	return 0;
}

int dt_proc_detach(struct dt_procs *pc, pid_t pid, bool follow)
{
	struct dt_child *c = dt_proc_child(pc, pid);

	if (c == NULL || !c->stopped)
		return 0;
	c->stopped = false;
	c->traced = follow;
	if (ptrace(follow ? PTRACE_CONT : PTRACE_DETACH, pid, NULL, NULL) < 0)
		return dt_set_error(pc->core, -errno, "failed to start pid %d: %s", (int)pid,
				    strerror(errno));
	return 0;
}

int dt_proc_grab(struct dt_procs *pc, pid_t pid)
{
	/* Oracle's grab fails with the errno alone: "dtrace: No such process". */
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return dt_set_error(pc->core, -ESRCH, "%s", strerror(ESRCH));
	if (dt_vec_push(&pc->grabbed, pid) < 0)
		return dt_set_error(pc->core, -ENOMEM, "out of memory");
	if (pc->target_pid == 0)
		pc->target_pid = pid;
	return 0;
}

void dt_proc_poll(struct dt_procs *pc)
{
	for (size_t i = 0; i < pc->children.n; i++) {
		struct dt_child *c = &pc->children.v[i];
		int status;
		if (c->exited || c->traced)
			continue;
		pid_t r;
		while ((r = waitpid(c->pid, &status, WNOHANG)) < 0 && errno == EINTR)
			;
		if (r == c->pid && (WIFEXITED(status) || WIFSIGNALED(status)))
			dt_proc_child_ended(pc, c->pid, status);
	}
	/* Not our children: gone once their parent reaped them. */
	for (size_t i = 0; i < pc->grabbed.n; i++) {
		if (pc->grabbed.v[i] > 0 && kill(pc->grabbed.v[i], 0) < 0 && errno == ESRCH) {
			pc->grabbed_exited++;
			note_end(pc, pc->grabbed.v[i], false, 0);
			pc->grabbed.v[i] = -pc->grabbed.v[i];
		}
	}
}

bool dt_proc_all_ended(const struct dt_procs *pc)
{
	if (pc->children.n == 0 && pc->grabbed.n == 0)
		return false;
	for (size_t i = 0; i < pc->children.n; i++)
		if (!pc->children.v[i].exited)
			return false;
	return pc->grabbed_exited == (int)pc->grabbed.n;
}

bool dt_proc_next_end(struct dt_procs *pc, struct dt_proc_end *end)
{
	if (pc->ends_taken >= pc->ends.n)
		return false;
	*end = pc->ends.v[pc->ends_taken++];
	return true;
}

void dt_proc_release_all(struct dt_procs *pc)
{
	/* A -c child, started or not, does not outlive us (DTrace's PRELEASE_KILL). */
	for (size_t i = 0; i < pc->children.n; i++) {
		struct dt_child *c = &pc->children.v[i];
		if (c->exited)
			continue;
		kill(c->pid, SIGKILL);
		for (;;) {
			int status;
			pid_t r = waitpid(c->pid, &status, __WALL);
			if (r < 0 && errno == EINTR)
				continue;
			/* A followed child may stop at its exit first. */
			if (r == c->pid && WIFSTOPPED(status)) {
				ptrace(PTRACE_CONT, c->pid, NULL, NULL);
				continue;
			}
			break;
		}
		c->stopped = false;
		c->traced = false;
		c->exited = true;
	}
}

int dt_proc_status(const struct dt_procs *pc, int *statusp)
{
	if (pc->children.n == 0 || !pc->children.v[0].exited)
		return 0;
	if (statusp != NULL)
		*statusp = pc->children.v[0].status;
	return 1;
}

void dt_proc_fini(struct dt_procs *pc)
{
	dt_vec_free(&pc->children);
	dt_vec_free(&pc->grabbed);
	dt_vec_free(&pc->ends);
	pc->ends_taken = 0;
}
