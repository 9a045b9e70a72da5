/* Where tracefs is mounted, and reading its event list. */
#ifndef DT_TRACEFS_H
#define DT_TRACEFS_H

#include <stddef.h>

/* The tracefs mount point ("/sys/kernel/tracing"), or NULL if none. */
const char *dt_tracefs(void);

/*
 * Call f(group, event, arg) for each line of available_events, in file
 * order.  Returns 0, -ENOENT if tracefs is not available, or f's negative
 * return value.
 */
int dt_tracefs_events(int (*f)(const char *group, const char *event, void *arg), void *arg);

#endif
