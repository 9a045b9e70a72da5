/*
 * The flags of the kernel's lock:contention_begin tracepoint (what kind
 * of lock a thread waits for), read from the names its format file's
 * print fmt gives them (__print_flags(REC->flags, "|", { (1U << 0),
 * "SPIN" }, ...)), so that the kernel's own values are used.
 */
#ifndef DT_LOCKSTAT_FLAGS_H
#define DT_LOCKSTAT_FLAGS_H

#include <stdbool.h>
#include <stdint.h>

struct lock_flags {
	uint32_t spin, read, write, rt, percpu, mutex;
};

/*
 * The values in a format file's text; false (with the first name it
 * lacks in *missing) if one of the six is not there.
 */
bool dt_lock_flags_parse(const char *format, struct lock_flags *f, const char **missing);

/* The same from tracefs (events/lock/contention_begin/format). */
bool dt_lock_flags_read(struct lock_flags *f, const char **missing);

#endif
