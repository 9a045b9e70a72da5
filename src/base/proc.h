/*
 * Process control: the process dtrace -c starts and the processes -p
 * grabs, which the pid and usdt providers read and the consumer waits for.
 */
#ifndef DT_PROC_H
#define DT_PROC_H

#include <stdbool.h>
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

#endif
