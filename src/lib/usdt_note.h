/*
 * The argument types of a provider definition's probes, as dtrace -h and
 * dtrace -G record them in the objects they build (the .note.dtrace
 * notes of providers/usdt_types.h).
 */
#ifndef DT_USDT_NOTE_H
#define DT_USDT_NOTE_H

#include <stdio.h>

#include "dtrace.h"
#include "providers/usdt_types.h"

struct dt_node;

/* Probe `probe` of provider `prov` in the handle's programs, or NULL. */
const struct dt_node *dt_usdt_decl_probe(dtrace_hdl_t *dtp, const char *prov, const char *probe);

/*
 * A probe declaration's argument mapping: the probe's arguments are its
 * translated ones (all its native ones if it has no translated list), and
 * map[i] (room for DT_USDT_TYPES_MAX) is the native argument the i-th
 * takes.  How many there are, or -1 if one takes none.
 */
int dt_usdt_decl_argmap(const struct dt_node *probe, int *map);

/*
 * The D names of a probe declaration's argument types into native and
 * xlate (room for DT_USDT_TYPES_MAX each; xlate[i] NULL where args[i] is
 * not translated), in the order of its arguments (dt_usdt_decl_argmap):
 * native[i] the type of the native argument args[i] takes.  How many
 * there are, or -1 for a probe whose note says it is untyped: an argument
 * takes no native one, or has a type without a name a note can hold.
 */
int dt_usdt_decl_types(dtrace_hdl_t *dtp, const struct dt_node *probe, const char **native,
		       const char **xlate);

/* The note, as assembler source for a file-scope asm() of a header (-h). */
void dt_usdt_note_asm(FILE *fp, dtrace_hdl_t *dtp, const char *prov, const struct dt_node *probe);

#endif
