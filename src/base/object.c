/* Freeing an in-memory BPF object (object.h): its vectors and its functions'. */
#include "base/object.h"

int bo_func_own(struct bo_object *obj, struct bo_func *fn)
{
	return dt_vec_push(&obj->owned, fn);
}

void bo_object_free(struct bo_object *obj)
{
	if (obj == NULL)
		return;
	for (size_t i = 0; i < obj->owned.n; i++) {
		struct bo_func *fn = obj->owned.v[i];
		dt_vec_free(&fn->insns);
		dt_vec_free(&fn->relocs);
		dt_vec_free(&fn->lines);
	}
	dt_vec_free(&obj->owned);
	dt_vec_free(&obj->funcs);
	dt_vec_free(&obj->maps);
	dt_vec_free(&obj->externs);
	dt_vec_free(&obj->bss_vars);
	dt_vec_free(&obj->rodata);
}
