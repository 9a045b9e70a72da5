/* Consuming through the API: the consumer (src/consumer/) does the work on its part. */
#include "consumer/agg.h"
#include "consumer/agg_walk.h"
#include "consumer/consume.h"
#include "lib/dt_impl.h"

void dtrace_sleep(dtrace_hdl_t *dtp)
{
	dt_consume_sleep(dtp->cons);
}

enum dtrace_workstatus dtrace_work(dtrace_hdl_t *dtp)
{
	return dt_consume_work(dtp->cons);
}

int dtrace_stop(dtrace_hdl_t *dtp)
{
	return dt_consume_stop(dtp->cons);
}

int dtrace_exited(const dtrace_hdl_t *dtp, int *statusp)
{
	return dt_consume_exited(dtp->cons, statusp);
}

int dtrace_aggregate_walk(dtrace_hdl_t *dtp, const char *name, dtrace_aggwalk_f *func, void *arg)
{
	return dt_aggregate_walk(dtp->cons, name, func, arg);
}

int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	return dt_aggregate_print(dtp->cons, fp);
}
