/*
 * Process control: the process dtrace -c starts and the processes -p
 * grabs, which the pid and usdt providers read and the consumer waits for.
 */
#ifndef DT_PROC_H
#define DT_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct dt_core;

struct dt_procs {
	struct dt_core *core;
	pid_t target_pid;		/* $target */
	pid_t child_pid;		/* -c child, 0 if none */
	bool child_stopped;		/* the -c child waits (ptrace-stopped) for go */
	bool child_at_entry;		/* ... at its entry point rather than its exec */
	const char *child_name;
	int grabbed_exited;
	bool child_exited;
	int child_status;
	DT_VEC(pid_t) grabbed;		/* -p processes */
};

/*
 * Start argv as the -c child, stopped at its exec (ptrace) until
 * dt_proc_detach(); it becomes $target.  0 or a negative errno.
 */
int dt_proc_create(struct dt_procs *pc, char *const argv[], pid_t *pidp);

/* Run a -c child still stopped at its exec to its entry point (pid provider). */
int dt_proc_run_to_entry(struct dt_procs *pc, pid_t pid);

/* AT_ENTRY of a process (0 if unknown). */
uint64_t dt_proc_entry_point(pid_t pid);

/*
 * Run the stopped -c child on to `addr` (a breakpoint, put back once hit):
 * 1 when it got there, 0 when it could not be sent (it stays where it
 * was), -ESRCH (no message) if it exited on the way; dt_proc_status()
 * then has its status.
 */
int dt_proc_run_to(struct dt_procs *pc, pid_t pid, uint64_t addr);

/* A stopped process's first integer argument register (0 if unknown). */
uint64_t dt_proc_first_arg(pid_t pid);

/* Let the stopped -c child run: detached, or still traced to be followed (proc_follow.h). */
int dt_proc_detach(struct dt_procs *pc, bool follow);

/* Grab a running process (-p): $target unless a -c child is. */
int dt_proc_grab(struct dt_procs *pc, pid_t pid);

/* Note which of the processes have exited (a followed child's end is the follower's to see). */
void dt_proc_poll(struct dt_procs *pc, bool child_followed);

/* Kill a -c child that has not exited (`traced`: followed): it does not outlive dtrace. */
void dt_proc_release_all(struct dt_procs *pc, bool traced);

/* The -c child's wait status once it exited: 1, else 0. */
int dt_proc_status(const struct dt_procs *pc, int *statusp);

#endif
