/* Records as public dtrace_probedata_t values (rec_decode.h). */
#include "consumer/rec_decode.h"

#include <errno.h>
#include <string.h>

#include "base/abi.h"
#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/probe.h"
#include "base/rdesc.h"
#include "bpf/runtime.h"
#include "consumer/consumer.h"
#include "consumer/datum.h"
#include "consumer/print_trace.h"
#include "consumer/printf.h"
#include "consumer/rec_actions.h"
#include "consumer/stack_print.h"
#include "consumer/symbolize.h"

#define NO_TEXT ((size_t)0)
#define FAILED ((size_t)-1)

struct dt_recdec {
	struct dt_datums datums;
	DT_VEC(dtrace_action_t) acts;
	DT_VEC(size_t) arg0;		/* per action: its first datum */
	DT_VEC(size_t) out;		/* per action: output offset + 1, NO_TEXT, FAILED */
	DT_VEC(size_t) outlen;		/* per action: output bytes (it may hold NULs) */
	DT_VEC(size_t) agg0;		/* per action: its first aggregation name */
	DT_VEC(const char *) aggnames;
};

const char *dt_rec_action_name(int kind)
{
	static const char *const names[] = {
		[RK_TRACE] = "trace", [RK_PRINTF] = "printf", [RK_SYSTEM] = "system",
		[RK_PFARG] = "printf", [RK_EXIT] = "exit", [RK_PRINTA] = "printa",
		[RK_CLEAR] = "clear", [RK_TRUNC] = "trunc", [RK_NORMALIZE] = "normalize",
		[RK_DENORMALIZE] = "denormalize", [RK_SETOPT] = "setopt", [RK_STACK] = "stack",
		[RK_USTACK] = "ustack", [RK_SYM] = "sym", [RK_MOD] = "mod", [RK_USYM] = "usym",
		[RK_UMOD] = "umod", [RK_UADDR] = "uaddr", [RK_TRACEMEM] = "tracemem",
		[RK_PRINT] = "print", [RK_FREOPEN] = "freopen", [RK_FTRUNCATE] = "ftruncate",
		[RK_RAISE] = "raise", [RK_STOP] = "stop", [RK_ERROR] = "error",
		[RK_COMMIT] = "commit", [RK_DISCARD] = "discard",
	};

	if (kind < 0 || (size_t)kind >= ARRAY_SIZE(names) || names[kind] == NULL)
		return "unknown";
	return names[kind];
}

static dtrace_actkind_t act_kind(enum dt_rkind k)
{
	switch (k) {
	case RK_TRACE: return DTRACE_ACT_TRACE;
	case RK_PRINTF: return DTRACE_ACT_PRINTF;
	case RK_SYSTEM: return DTRACE_ACT_SYSTEM;
	case RK_PRINTA: return DTRACE_ACT_PRINTA;
	case RK_EXIT: return DTRACE_ACT_EXIT;
	case RK_CLEAR: return DTRACE_ACT_CLEAR;
	case RK_TRUNC: return DTRACE_ACT_TRUNC;
	case RK_NORMALIZE: return DTRACE_ACT_NORMALIZE;
	case RK_DENORMALIZE: return DTRACE_ACT_DENORMALIZE;
	case RK_SETOPT: return DTRACE_ACT_SETOPT;
	default: return DTRACE_ACT_OTHER;
	}
}

void dt_rec_probeinfo(struct dt_consumer *cs, uint32_t prid, dtrace_probeinfo_t *pi)
{
	struct dt_probe *prp = dt_probe_by_id(cs->reg, prid);

	pi->id = prid;
	pi->provider = prp ? prp->desc[0] : "";
	pi->module = prp ? prp->desc[1] : "";
	pi->function = prp ? prp->desc[2] : "";
	pi->name = prp ? prp->desc[3] : "";
}

void dt_rec_pfarg(const struct dt_ritem *it, const char *data, struct dt_pf_arg *a)
{
	memset(a, 0, sizeof(*a));
	a->src = DT_PF_REC;
	if (it->is_const && it->is_string) {
		a->data = it->cstr;
		a->size = strlen(it->cstr) + 1;
		return;
	}
	if (it->is_const) {
		a->data = &it->cval;
		a->size = sizeof(it->cval);
		return;
	}
	a->data = data + it->off;
	a->size = it->size;
}

/* printf()/system(): the formatted text into the string buffer. */
static size_t format(struct dt_consumer *cs, struct dt_datums *d, const struct dt_ritem *it,
		     const struct dt_ritem *args, const char *data, size_t *lenp)
{
	struct dt_pf_arg pa[64];
	struct dt_pf_ctx ctx = { .syms = dt_syms(cs) };
	int n = it->nargs < 64 ? it->nargs : 64;
	size_t off = d->strs.len;

	for (int k = 0; k < n; k++)
		dt_rec_pfarg(&args[k], data, &pa[k]);
	if (it->fmt == NULL || dt_pf_format(&d->strs, it->fmt, pa, (size_t)n, &ctx) < 0) {
		d->strs.len = off;
		if (d->strs.s != NULL)
			d->strs.s[off] = '\0';
		return FAILED;
	}
	*lenp = d->strs.len - off;
	dt_sb_putc(&d->strs, '\0');
	return off + 1;
}

static int decode_item(struct dt_recdec *rd, const struct dt_rdesc *desc, size_t *ip,
		       const char *data, struct dt_consumer *cs)
{
	const struct dt_ritem *it = &desc->items.v[*ip];
	struct dt_datums *d = &rd->datums;
	dtrace_action_t a = { .kind = act_kind(it->kind), .name = dt_rec_action_name(it->kind) };
	size_t out = NO_TEXT, outlen = 0;
	int rc = 0;

	if (dt_vec_push(&rd->arg0, d->v.n) < 0 || dt_vec_push(&rd->agg0, rd->aggnames.n) < 0)
		return -ENOMEM;
	switch (it->kind) {
	case RK_PRINTF:
	case RK_SYSTEM:
	case RK_FREOPEN: {
		size_t nargs = DT_MIN((size_t)it->nargs, desc->items.n - *ip - 1);
		a.format = it->fmtstr;
		out = format(cs, d, it, it + 1, data, &outlen);
		for (size_t k = 0; k < nargs && rc == 0; k++)
			rc = dt_datum_item(d, it + 1 + k, data);
		a.nargs = nargs;
		*ip += nargs;
		break;
	}
	case RK_PRINTA:
	case RK_CLEAR:
	case RK_TRUNC:
	case RK_NORMALIZE:
	case RK_DENORMALIZE:
		if (it->kind == RK_PRINTA)
			a.format = it->fmtstr;
		for (int k = 0; k < it->naggs && rc == 0; k++) {
			uint32_t id = it->aggids[k];
			const struct dt_aggdesc *ad = id < cs->descs->aggs.n ? cs->descs->aggs.v[id] : NULL;
			rc = dt_vec_push(&rd->aggnames, ad ? ad->name : "?");
		}
		a.naggs = (size_t)it->naggs;
		if (rc == 0 && (it->kind == RK_TRUNC || it->kind == RK_NORMALIZE)) {
			int64_t v = it->cval;
			if (!it->is_const)
				memcpy(&v, data + it->off, sizeof(v));
			rc = dt_datum_int(d, "int64_t", (uint64_t)v, 1);
			a.nargs = 1;
		}
		break;
	case RK_EXIT: {
		int32_t st;
		memcpy(&st, data + it->off, sizeof(st));
		rc = dt_datum_int(d, "int", (uint64_t)(int64_t)st, 1);
		a.nargs = 1;
		break;
	}
	case RK_TRACEMEM: {
		/* The bytes it prints. */
		struct dt_ritem bytes = *it;
		bytes.size = (uint32_t)dt_tracemem_len(it, data);
		bytes.type = NULL;
		rc = dt_datum_item(d, &bytes, data);
		a.nargs = 1;
		break;
	}
	case RK_FTRUNCATE:
		break;
	case RK_SETOPT:
		dt_rec_setopt_args(it, data, &a.option, &a.optval);
		break;
	case RK_STACK:
	case RK_USTACK:
	case RK_SYM:
	case RK_MOD:
	case RK_USYM:
	case RK_UMOD:
	case RK_UADDR:
		rc = dt_datum_stack_item(cs, d, it, data);
		a.nargs = 1;
		break;
	default:
		/* trace() and what prints nothing yet: the value as recorded */
		if (it->size > 0 || it->is_const) {
			rc = dt_datum_item(d, it, data);
			a.nargs = 1;
		}
		break;
	}
	if (rc == 0)
		rc = dt_vec_push(&rd->out, out);
	if (rc == 0)
		rc = dt_vec_push(&rd->outlen, outlen);
	if (rc == 0)
		rc = dt_vec_push(&rd->acts, a);
	return rc < 0 ? -ENOMEM : 0;
}

int dt_rec_decode(struct dt_consumer *cs, const struct dt_rdesc *desc, const void *data,
		  dtrace_probedata_t *pd)
{
	const struct dt_rec_hdr *h = data;
	struct dt_recdec *rd = cs->recdec;
	int rc = 0;

	if (rd == NULL) {
		rd = cs->recdec = calloc(1, sizeof(*rd));
		if (rd == NULL)
			return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	dt_datums_reset(&rd->datums);
	rd->acts.n = rd->arg0.n = rd->out.n = rd->outlen.n = rd->agg0.n = rd->aggnames.n = 0;

	memset(pd, 0, sizeof(*pd));
	dt_rec_probeinfo(cs, h->prid, &pd->probe);
	pd->cpu = h->cpu;
	pd->timestamp = h->timestamp;
	pd->walltimestamp = h->timestamp;
	if (cs->rt != NULL && cs->rt->walloff != NULL)
		pd->walltimestamp += (uint64_t)*cs->rt->walloff;

	for (size_t i = 0; i < desc->items.n && rc == 0; i++)
		rc = decode_item(rd, desc, &i, data, cs);
	if (rc == 0)
		rc = dt_datums_finish(&rd->datums);
	if (rc < 0)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");

	for (size_t i = 0; i < rd->acts.n; i++) {
		dtrace_action_t *a = &rd->acts.v[i];
		size_t o = rd->out.v[i];
		a->args = a->nargs ? rd->datums.v.v + rd->arg0.v[i] : NULL;
		a->aggs = a->naggs ? rd->aggnames.v + rd->agg0.v[i] : NULL;
		if (o != NO_TEXT && o != FAILED) {
			a->output = rd->datums.strs.s + o - 1;
			a->outputlen = rd->outlen.v[i];
		}
	}
	pd->actions = rd->acts.v;
	pd->nactions = rd->acts.n;
	return 0;
}

bool dt_rec_decode_failed(const struct dt_consumer *cs, size_t i)
{
	const struct dt_recdec *rd = cs->recdec;

	return rd != NULL && i < rd->out.n && rd->out.v[i] == FAILED;
}

void dt_rec_decode_free(struct dt_consumer *cs)
{
	struct dt_recdec *rd = cs->recdec;

	if (rd == NULL)
		return;
	dt_datums_free(&rd->datums);
	dt_vec_free(&rd->acts);
	dt_vec_free(&rd->arg0);
	dt_vec_free(&rd->out);
	dt_vec_free(&rd->outlen);
	dt_vec_free(&rd->agg0);
	dt_vec_free(&rd->aggnames);
	free(rd);
	cs->recdec = NULL;
}
