/* What -lv says of a probe: stability attributes and argument types. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler/types.h"
#include "dtrace.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"
#include "providers/provider.h"

static const char *const unknown_attrs[6] = { "Private", "Private", "Unknown",
					      "Private", "Private", "Unknown" };

int dtrace_probe_detail(dtrace_hdl_t *dtp, uint32_t id, dtrace_probedetail_t *pd)
{
	struct dt_probe *prp = dt_probe_by_id(dtp, id);

	memset(pd, 0, sizeof(*pd));
	if (prp == NULL)
		return dt_set_error(dtp, -ENOENT, "no probe %u", id);
	const struct dt_provider *pv = prp->prov;
	const char *const *a = pv->attrs != NULL ? pv->attrs : unknown_attrs;
	for (int i = 0; i < 6; i++)
		pd->attr[i] = a[i];
	for (int i = 0; i < 10; i++) {
		const char *native = NULL, *xlate = NULL;
		if (pv->arg_desc != NULL) {
			if (!pv->arg_desc(dtp, prp, i, &native, &xlate))
				break;
			snprintf(pd->argtype[i], sizeof(pd->argtype[i]), "%s",
				 xlate != NULL ? xlate : native);
		} else if (pv->arg_type != NULL) {
			struct dt_type *t = pv->arg_type(dtp, prp, i);
			if (t == NULL)
				break;
			snprintf(pd->argtype[i], sizeof(pd->argtype[i]), "%s",
				 dt_type_str(&dtp->types, t));
		} else {
			break;
		}
		pd->nargs = i + 1;
	}
	return 0;
}
