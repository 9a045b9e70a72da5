/* Dynamic variables whose maps the program builder creates. */
#include "compiler/vars.h"

#include "compiler/ident.h"
#include "lib/dt_impl.h"

int dt_vars_register(struct dtrace_hdl *dtp, struct dt_ident *id)
{
	for (size_t i = 0; i < dtp->cc->dynvars.n; i++)
		if (dtp->cc->dynvars.v[i] == id)
			return 0;
	return dt_vec_push(&dtp->cc->dynvars, id);
}
