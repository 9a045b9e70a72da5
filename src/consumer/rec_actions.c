/* exit(), clear(), trunc(), normalize(), denormalize(), setopt() (rec_actions.h). */
#include "consumer/rec_actions.h"

#include <string.h>

#include "base/rdesc.h"
#include "consumer/agg.h"
#include "consumer/report.h"
#include "lib/dt_impl.h"

static void aggop(struct dtrace_hdl *dtp, const struct dt_ritem *it, const char *data)
{
	int64_t v = it->cval;
	int rc = 0;

	if (!it->is_const)
		memcpy(&v, data + it->off, sizeof(v));
	for (int k = 0; k < it->naggs && rc == 0; k++) {
		uint32_t id = it->aggids[k];
		rc = it->kind == RK_CLEAR ? dt_agg_clear(dtp, id)
		     : it->kind == RK_TRUNC ? dt_agg_trunc(dtp, id, v)
		     : it->kind == RK_NORMALIZE ? dt_agg_normalize(dtp, id, (uint64_t)v)
		     : dt_agg_denormalize(dtp, id);
	}
	if (rc < 0)
		dt_report_error(dtp, "%s", dtp->core->errmsg);
}

/* A recorded string: NUL-terminated within its size, else empty. */
static const char *rec_str(const char *data, uint32_t off, uint32_t size)
{
	return memchr(data + off, '\0', size) != NULL ? data + off : "";
}

void dt_rec_setopt_args(const struct dt_ritem *it, const char *data, const char **name,
			const char **val)
{
	*name = it->optname != NULL ? it->optname : rec_str(data, it->off, it->size);
	*val = it->optval_rec ? rec_str(data, it->optval_off, it->optval_size) : it->optval;
}

/*
 * As DTrace's dt_setopt(): an option given no value is set to "1" (a
 * toggle), and a failure is reported with the clause and probe whose
 * record asked (dt_handle_liberr), tracing going on.
 */
static void setopt(struct dtrace_hdl *dtp, const struct dt_ritem *it, const char *data)
{
	const char *name, *val;

	dt_rec_setopt_args(it, data, &name, &val);
	if (val == NULL)
		val = "1";
	if (dt_option_set(dtp->core, name, val) < 0)
		dt_report_liberr(dtp, data, "couldn't set option \"%s\" to \"%s\": %s", name, val,
				 dtp->core->errmsg);
}

void dt_rec_act(struct dtrace_hdl *dtp, const struct dt_ritem *it, const char *data)
{
	switch (it->kind) {
	case RK_CLEAR:
	case RK_TRUNC:
	case RK_NORMALIZE:
	case RK_DENORMALIZE:
		aggop(dtp, it, data);
		break;
	case RK_SETOPT:
		setopt(dtp, it, data);
		break;
	case RK_EXIT: {
		/*
		 * As DTrace's consumer: every exit() record sets the status,
		 * so the last one read (an exit() in END ...) decides it.
		 */
		int32_t st;
		memcpy(&st, data + it->off, sizeof(st));
		dtp->out->exited = true;
		dtp->out->exit_status = st;
		break;
	}
	default:
		break;
	}
}
