/* exit(), clear(), trunc(), normalize(), denormalize(), setopt() (rec_actions.h). */
#include "consumer/rec_actions.h"

#include <string.h>

#include "base/core.h"
#include "base/rdesc.h"
#include "consumer/agg.h"
#include "consumer/consumer.h"
#include "consumer/report.h"

static void aggop(struct dt_consumer *cs, const struct dt_ritem *it, const char *data)
{
	int64_t v = it->cval;
	int rc = 0;

	if (!it->is_const)
		memcpy(&v, data + it->off, sizeof(v));
	for (int k = 0; k < it->naggs && rc == 0; k++) {
		uint32_t id = it->aggids[k];
		rc = it->kind == RK_CLEAR ? dt_agg_clear(cs, id)
		     : it->kind == RK_TRUNC ? dt_agg_trunc(cs, id, v)
		     : it->kind == RK_NORMALIZE ? dt_agg_normalize(cs, id, (uint64_t)v)
		     : dt_agg_denormalize(cs, id);
	}
	if (rc < 0)
		dt_report_error(cs, "%s", cs->core->errmsg);
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
static void setopt(struct dt_consumer *cs, const struct dt_ritem *it, const char *data)
{
	const char *name, *val;

	dt_rec_setopt_args(it, data, &name, &val);
	if (val == NULL)
		val = "1";
	if (dt_option_set(cs->core, name, val) < 0)
		dt_report_liberr(cs, data, "couldn't set option \"%s\" to \"%s\": %s", name, val,
				 cs->core->errmsg);
}

void dt_rec_act(struct dt_consumer *cs, const struct dt_ritem *it, const char *data)
{
	switch (it->kind) {
	case RK_CLEAR:
	case RK_TRUNC:
	case RK_NORMALIZE:
	case RK_DENORMALIZE:
		aggop(cs, it, data);
		break;
	case RK_SETOPT:
		setopt(cs, it, data);
		break;
	case RK_EXIT: {
		/*
		 * As DTrace's consumer: every exit() record sets the status,
		 * so the last one read (an exit() in END ...) decides it.
		 */
		int32_t st;
		memcpy(&st, data + it->off, sizeof(st));
		cs->exited = true;
		cs->exit_status = st;
		break;
	}
	default:
		break;
	}
}
