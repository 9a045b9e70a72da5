/*
 * Following the -c processes under ptrace while they run, when the program
 * prints user symbols: it stops at each exec and at its exit (before the
 * kernel tears its memory down), and its mappings are read there, so that
 * the stacks of a command that runs for a few milliseconds, or execs
 * another program, or loads a library just before it exits, resolve when
 * they are printed.  Signals it gets are passed on at once; a stopping
 * signal (job control, stop()) ends the following, so that SIGCONT works
 * as usual, and the periodic reads of its mappings remain.
 *
 * A helper thread per process only waits (waitid with WNOWAIT) and wakes
 * the consumer through the handle's eventfd; every ptrace request and
 * every reap is the consumer thread's, in dt_proc_follow_events().
 */
#ifndef DT_PROC_FOLLOW_H
#define DT_PROC_FOLLOW_H

#include <stdbool.h>
#include <sys/types.h>

struct dt_consumer;
struct dt_follow;

/*
 * Start following -c child `pid`, ptrace-stopped (at its exec or its entry
 * point): set the ptrace options and start its helper.  It stays stopped;
 * the caller resumes it (dt_proc_detach() with follow).  0, or a negative
 * errno if it cannot be followed (the caller then detaches as before).
 */
int dt_proc_follow_start(struct dt_consumer *cs, pid_t pid);

/*
 * Handle what happened to the followed children since the last call,
 * without waiting: exec, exit, signals, their ends (dt_proc_child_ended(),
 * which also ends the helper of each).
 */
void dt_proc_follow_events(struct dt_consumer *cs);

/* End every helper (their children have been reaped). */
void dt_proc_follow_end(struct dt_consumer *cs);

#endif
