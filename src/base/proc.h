/*
 * Process control: the processes dtrace -c starts and the processes -p
 * grabs, which the pid and usdt providers read and the consumer waits for.
 */
#ifndef DT_PROC_H
#define DT_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/util.h"

struct dt_core;

/* A -c child. */
struct dt_child {
	pid_t pid;
	bool stopped;		/* waits (ptrace-stopped) for go */
	bool at_entry;		/* ... at its entry point rather than its exec */
	bool traced;		/* followed under ptrace: its end is the follower's to see */
	bool exited;
	int status;		/* its wait status, once exited */
};

/* A -c child or -p process that ended, in the order they were seen to end. */
struct dt_proc_end {
	pid_t pid;
	bool has_status;	/* a -c child's; a -p process's is its parent's to know */
	int status;
};

struct dt_procs {
	struct dt_core *core;
	pid_t target_pid;		/* $target: the first -c child, else the first -p process */
	DT_VEC(struct dt_child) children;	/* -c, in the order created */
	DT_VEC(pid_t) grabbed;		/* -p processes, negated once exited */
	int grabbed_exited;
	DT_VEC(struct dt_proc_end) ends;
	size_t ends_taken;		/* how many of ends dt_proc_next_end() gave */
};

/*
 * Start argv as a -c child, stopped at its exec (ptrace) until
 * dt_proc_detach(); the first one becomes $target.  0 or a negative errno.
 */
int dt_proc_create(struct dt_procs *pc, char *const argv[], pid_t *pidp);

/* The -c child of that pid, or NULL (a pointer valid until the next dt_proc_create()). */
struct dt_child *dt_proc_child(struct dt_procs *pc, pid_t pid);

/* Run a -c child still stopped at its exec to its entry point (pid provider). */
int dt_proc_run_to_entry(struct dt_procs *pc, pid_t pid);

/* AT_ENTRY of a process (0 if unknown). */
uint64_t dt_proc_entry_point(pid_t pid);

/*
 * Run a stopped -c child on to `addr` (a breakpoint, put back once hit):
 * 1 when it got there, 0 when it could not be sent (it stays where it
 * was), -ESRCH (no message) if it exited on the way; its end is then
 * noted (dt_proc_next_end()).
 */
int dt_proc_run_to(struct dt_procs *pc, pid_t pid, uint64_t addr);

/* A stopped process's first integer argument register (0 if unknown). */
uint64_t dt_proc_first_arg(pid_t pid);

/* Let a stopped -c child run: detached, or still traced to be followed (proc_follow.h). */
int dt_proc_detach(struct dt_procs *pc, pid_t pid, bool follow);

/* A -c child ended with wait status `status` (reaped): noted once. */
void dt_proc_child_ended(struct dt_procs *pc, pid_t pid, int status);

/* Grab a running process (-p): $target unless a -c child is. */
int dt_proc_grab(struct dt_procs *pc, pid_t pid);

/* Note which of the processes have ended (a traced child's end is the follower's to see). */
void dt_proc_poll(struct dt_procs *pc);

/* Whether there are -c/-p processes and all of them have ended. */
bool dt_proc_all_ended(const struct dt_procs *pc);

/*
 * The next process whose end has not been given yet, in the order they
 * ended: true with it in *end, false when there is none.
 */
bool dt_proc_next_end(struct dt_procs *pc, struct dt_proc_end *end);

/* Kill the -c children that have not exited: they do not outlive dtrace. */
void dt_proc_release_all(struct dt_procs *pc);

/* The first -c child's ($target's) wait status once it exited: 1, else 0. */
int dt_proc_status(const struct dt_procs *pc, int *statusp);

/* Free what the process lists hold. */
void dt_proc_fini(struct dt_procs *pc);

#endif
