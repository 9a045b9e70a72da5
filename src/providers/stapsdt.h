/*
 * SystemTap SDT notes (.note.stapsdt, the probes of <sys/sdt.h>): the
 * note descriptors and their argument specifications.  Pure parsing: no
 * files, no processes.
 *
 * A note's descriptor holds the probe address, the address of the
 * .stapsdt.base section when the note was made (to correct for
 * prelinking), the semaphore address (0: none), then the provider name,
 * the probe name and the argument string, each NUL-terminated.  The
 * argument string lists one operand per argument, "size@operand" in the
 * assembler's syntax: "-4@%edi", "8@-16(%rbp)", "4@$5", "8@x(%rip)".
 */
#ifndef DT_STAPSDT_H
#define DT_STAPSDT_H

#include <stddef.h>
#include <stdint.h>

#define DT_SDT_MAXARGS 12

struct dt_sdt_note {
	char *provider;
	char *name;
	char *args;		/* the argument string as written */
	uint64_t pc;		/* link-time addresses */
	uint64_t base;
	uint64_t sema;
};

enum dt_sdt_argkind {
	DT_SDT_ARG_NONE = 0,	/* not understood: reads as 0 */
	DT_SDT_ARG_CONST,	/* value */
	DT_SDT_ARG_REG,		/* register */
	DT_SDT_ARG_MEM,		/* memory at disp + reg + index * scale (+ symbol) */
};

struct dt_sdt_arg {
	uint8_t kind;		/* enum dt_sdt_argkind */
	int8_t size;		/* bytes read; negative: signed */
	int16_t reg;		/* struct pt_regs offset of the register, -1: none */
	int16_t index;		/* offset of the index register, -1: none */
	uint8_t scale;
	uint8_t shift;		/* %ah-style registers: bits to shift right */
	int64_t val;		/* constant or displacement */
	char sym[64];		/* symbolic displacement ("" if none) */
	uint8_t rip;		/* the base register is %rip (symbol-relative) */
};

/*
 * Parse the descriptor of one stapsdt note (type 3) of a 64-bit object.
 * Strings are allocated; free with dt_sdt_note_free.  Returns 0 or
 * -EINVAL.
 */
int dt_sdt_note_parse(const void *desc, size_t len, struct dt_sdt_note *n);
void dt_sdt_note_free(struct dt_sdt_note *n);

/*
 * Walk the notes of a .note.stapsdt section: calls f for every stapsdt
 * note (malformed ones are skipped).  Returns 0 or what f returned.
 */
int dt_sdt_notes_walk(const void *data, size_t len,
		      int (*f)(const struct dt_sdt_note *n, void *arg), void *arg);

/*
 * Parse an argument string into at most `max` arguments; returns the
 * number of arguments (unparsable ones get DT_SDT_ARG_NONE).
 */
int dt_sdt_args_parse(const char *s, struct dt_sdt_arg *args, int max);


#endif
