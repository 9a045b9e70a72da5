/* A stack of AST nodes in the compile's arena (see walk.h). */
#include <string.h>

#include "compiler/walk.h"

void dt_walk_push(struct dt_pcb *pcb, struct dt_walk *w, struct dt_node *n)
{
	if (n == NULL)
		return;
	if (w->n == w->cap) {
		/* The old array stays in the arena: at most as much again. */
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct dt_node **v = dt_palloc(pcb, cap * sizeof(*v));
		if (w->n > 0)
			memcpy(v, w->v, w->n * sizeof(*v));
		w->v = v;
		w->cap = cap;
	}
	w->v[w->n++] = n;
}

void dt_walk_push_children(struct dt_pcb *pcb, struct dt_walk *w, struct dt_node *n)
{
	dt_walk_push(pcb, w, n->next);
	dt_walk_push(pcb, w, n->elsebody);
	dt_walk_push(pcb, w, n->body);
	dt_walk_push(pcb, w, n->cond);
	dt_walk_push(pcb, w, n->r);
	dt_walk_push(pcb, w, n->l);
	if (n->kind == N_AGG)
		dt_walk_push(pcb, w, n->agg.keys);
	if (n->kind == N_CALL || n->kind == N_INDEX)
		dt_walk_push(pcb, w, n->call.args);
}
