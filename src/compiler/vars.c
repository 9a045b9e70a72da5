/* Dynamic variables whose maps the program builder creates. */
#include "compiler/vars.h"

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"

int dt_vars_register(struct dt_compiler *cc, struct dt_ident *id)
{
	for (size_t i = 0; i < cc->dynvars.n; i++)
		if (cc->dynvars.v[i] == id)
			return 0;
	return dt_vec_push(&cc->dynvars, id);
}
