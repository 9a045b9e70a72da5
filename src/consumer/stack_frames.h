/*
 * The frames of a stack key one by one, for the output formats that take
 * stacks apart (folded stacks, pprof): the addresses, leaf first, and
 * each frame's name as printa() prints it without the offset into its
 * function (module`function, module`0xaddr, or 0xaddr).
 */
#ifndef DT_STACK_FRAMES_H
#define DT_STACK_FRAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dt_aggkey;
struct dt_pf_syms;
struct dt_strbuf;

struct dt_stack {
	bool user;		/* ustack(), jstack() */
	uint64_t pid;		/* user stacks: the process */
	const uint8_t *pcs;	/* n 64-bit addresses, leaf first */
	size_t n;
};

/* Whether key component k is a stack; if so, its frames up to the first 0 in *st. */
bool dt_stack_of_key(const struct dt_aggkey *k, const uint8_t *p, struct dt_stack *st);

/* Frame i's address. */
uint64_t dt_stack_pc(const struct dt_stack *st, size_t i);

/* The frame's name without its offset, appended to sb (syms NULL: 0xaddr). */
void dt_frame_name(struct dt_strbuf *sb, const struct dt_pf_syms *syms, bool user, uint64_t pid,
		   uint64_t pc);

/*
 * A frame name taken apart: the module (NULL: none known) and the
 * function (NULL: none known), pointing into `name`, which is changed
 * (the backquote becomes a NUL).
 */
void dt_frame_split(char *name, const char **mod, const char **func);

#endif
