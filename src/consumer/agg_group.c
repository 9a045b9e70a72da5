/* Entries shown alike, folded into one (agg_group.h). */
#include "consumer/agg_group.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "consumer/agg_impl.h"

void dt_agggroup_init(struct dt_agggroup *g, const struct dt_aggdesc *ad, uint32_t nwords)
{
	memset(g, 0, sizeof(*g));
	g->ad = ad;
	g->nwords = nwords;
}

void dt_agggroup_free(struct dt_agggroup *g)
{
	for (size_t i = 0; i < g->v.n; i++) {
		free(g->v.v[i].text);
		free(g->v.v[i].words);
	}
	dt_vec_free(&g->v);
	dt_htab_free(&g->index);
}

int dt_agggroup_add(struct dt_agggroup *g, const char *text, const int64_t *w)
{
	uintptr_t at = (uintptr_t)dt_htab_get(&g->index, text);

	if (at != 0) {
		dt_aggval_fold(g->ad, g->v.v[at - 1].words, w, g->nwords);
		return 0;
	}
	struct dt_agggroup_ent e = { strdup(text), malloc((size_t)g->nwords * 8 + 8) };
	if (e.text == NULL || e.words == NULL)
		goto nomem;
	dt_aggval_empty(g->ad, e.words, g->nwords);
	dt_aggval_fold(g->ad, e.words, w, g->nwords);
	if (dt_vec_push(&g->v, e) < 0)
		goto nomem;
	if (dt_htab_put(&g->index, e.text, (void *)(uintptr_t)g->v.n) < 0) {
		g->v.n--;
		goto nomem;
	}
	return 0;
nomem:
	free(e.text);
	free(e.words);
	return -ENOMEM;
}
