/*
 * A stack of AST nodes in the compile's arena, for walks over a whole
 * tree that must not recurse (expressions can be thousands of levels
 * deep along chains of operators).
 */
#ifndef DT_WALK_H
#define DT_WALK_H

#include <stddef.h>

#include "compiler/ast.h"
#include "compiler/pcb.h"

struct dt_walk {
	struct dt_node **v;
	size_t n, cap;
};

/* Push n (nothing if NULL). */
void dt_walk_push(struct dt_pcb *pcb, struct dt_walk *w, struct dt_node *n);

/*
 * Push what follows n in a whole-tree walk: its children and the next
 * statement or list element, last to first, so that they are popped in
 * the order recursion would visit them.
 */
void dt_walk_push_children(struct dt_pcb *pcb, struct dt_walk *w, struct dt_node *n);

/* The node pushed last, or NULL when none is left. */
static inline struct dt_node *dt_walk_pop(struct dt_walk *w)
{
	return w->n > 0 ? w->v[--w->n] : NULL;
}

#endif
