/* Freeing the descriptions (descs.h). */
#include "base/descs.h"

#include <stdlib.h>

#include "base/printf_format.h"
#include "base/rdesc.h"

void dt_descs_free(struct dt_descs *d)
{
	for (size_t i = 0; i < d->formats.n; i++)
		dt_pf_free(d->formats.v[i]);
	dt_vec_free(&d->formats);
	for (size_t i = 0; i < d->rdescs.n; i++)
		dt_vec_free(&d->rdescs.v[i]->items);
	dt_vec_free(&d->rdescs);
	dt_vec_free(&d->cdescs);
	dt_vec_free(&d->aggs);
	dt_vec_free(&d->agg_outer);
}
