/* Printing aggregations at exit. */
#include <errno.h>

#include "lib/dt_impl.h"

int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	(void)fp;
	return dtp->aggs.n == 0 ? 0 : dt_set_error(dtp, -ENOTSUP, "aggregations are not supported yet");
}
