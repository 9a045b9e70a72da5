/* Where tracefs is mounted, and reading its event list. */
#ifndef DT_TRACEFS_H
#define DT_TRACEFS_H

#include <stddef.h>

/* The tracefs mount point ("/sys/kernel/tracing"), or NULL if none. */
const char *dt_tracefs(void);

/*
 * Why tracefs cannot be used, as a message that says what to do (not
 * mounted, not readable by this process), or NULL when it can.
 */
const char *dt_tracefs_problem(void);

/*
 * Call f(group, event, arg) for each line of available_events, in file
 * order.  Returns 0, -ENOENT if tracefs is not available, or f's negative
 * return value.
 */
int dt_tracefs_events(int (*f)(const char *group, const char *event, void *arg), void *arg);

#endif
