/*
 * Following the -c process under ptrace while it runs, when the program
 * prints user symbols: it stops at each exec and at its exit (before the
 * kernel tears its memory down), and its mappings are read there, so that
 * the stacks of a command that runs for a few milliseconds, or execs
 * another program, or loads a library just before it exits, resolve when
 * they are printed.  Signals it gets are passed on at once; a stopping
 * signal (job control, stop()) ends the following, so that SIGCONT works
 * as usual, and the periodic reads of its mappings remain.
 *
 * A helper thread only waits (waitid with WNOWAIT) and wakes the consumer
 * through the handle's eventfd; every ptrace request and every reap is
 * the consumer thread's, in dt_proc_follow_events().
 */
#ifndef DT_PROC_FOLLOW_H
#define DT_PROC_FOLLOW_H

#include <stdbool.h>
#include <sys/types.h>

struct dt_consumer;
struct dt_follow;

/*
 * Start following the -c child, ptrace-stopped (at its exec or its entry
 * point): set the ptrace options and start the helper.  It stays stopped;
 * the caller resumes it (PTRACE_CONT).  0, or a negative errno if it
 * cannot be followed (the caller then detaches as before).
 */
int dt_proc_follow_start(struct dt_consumer *cs);

/*
 * Handle what happened to the followed child since the last call, without
 * waiting: exec, exit, signals, its end (child_exited, child_status).
 * Returns true if the child was followed (the caller then does not
 * waitpid() for it itself).
 */
bool dt_proc_follow_events(struct dt_consumer *cs);

/* Whether the child is traced by us now. */
bool dt_proc_following(const struct dt_consumer *cs);

/* The child has been reaped: end the helper. */
void dt_proc_follow_end(struct dt_consumer *cs);

#endif
