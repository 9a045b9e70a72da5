/*
 * The types of USDT probes' arguments (args[]).
 *
 * A provider definition's types travel in the objects built with the
 * headers of `dtrace -h` and with `dtrace -G`: one ELF note per probe, in
 * section .note.dtrace, owner "dtrace", type DT_USDT_TYPES_NOTE, whose
 * descriptor is the provider name, the probe name as declared, then for
 * each of the probe's arguments (its translated ones, if it has them, in
 * their order: the stapsdt note's operands are in that order too) the
 * type of the native argument it takes as D writes it ("int", "char *",
 * "string") and the type it is translated to, or "" (a prototype "probe
 * p(a) : (b)"), all NUL-terminated.  A probe whose types a note cannot
 * hold has the single type "?": untyped.  Probes without
 * a note (SystemTap's <sys/sdt.h>) have their arguments typed by the
 * size and sign their stapsdt note gives, as DTrace for Linux's stapsdt
 * provider does ("-4@%edi": int32_t).
 * Pure data: no files, no processes.
 */
#ifndef DT_USDT_TYPES_H
#define DT_USDT_TYPES_H

#include <stddef.h>

#define DT_USDT_TYPES_SECTION ".note.dtrace"
#define DT_USDT_TYPES_OWNER "dtrace"
#define DT_USDT_TYPES_NOTE 1
/* DTrace's limit on a probe's arguments. */
#define DT_USDT_TYPES_MAX 255

struct dt_usdt_types {
	char *provider;
	char *probe;
	int nargs;		/* -1: untyped */
	char **native;
	char **xlate;		/* NULL where not translated */
};

/* The type string of an untyped probe. */
#define DT_USDT_UNTYPED "?"

/*
 * Walk the notes of a .note.dtrace section: calls f for every types note
 * (malformed ones are skipped); f may keep the note (it then frees it
 * with dt_usdt_types_free) and returns 1, else 0, or negative to stop.
 * Returns 0, what f returned to stop, or -ENOMEM.
 */
int dt_usdt_types_walk(const void *data, size_t len,
		       int (*f)(struct dt_usdt_types *t, void *arg), void *arg);
void dt_usdt_types_free(struct dt_usdt_types *t);

/*
 * The descriptor of the note for a probe, into buf (len bytes; NULL to
 * measure): the bytes it takes.  xlate[i] NULL: not translated; nargs
 * -1: untyped.
 */
size_t dt_usdt_types_desc(char *buf, size_t len, const char *provider, const char *probe,
			  const char *const *native, const char *const *xlate, int nargs);

/* The type of a stapsdt argument of `size` bytes, negative if signed; NULL if none. */
const char *dt_usdt_size_type(int size);

#endif
