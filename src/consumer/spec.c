/*
 * Speculations in the consumer (see spec.h, and src/bpf/spec_abi.h for
 * the design).  Each speculation's records are kept, in the order the
 * ring gives them, until its commit (printed then, where the commit is in
 * the stream, as DTrace prints them) or discard.  Once committed or
 * discarded and every record counted against it has been read, the
 * speculation is handed back to BPF (INACTIVE) for speculation() to reuse:
 * DTrace's COMMITTING/DISCARDING -> INACTIVE step, done by this consumer
 * after each pass over the ring, which it makes at cleanrate while
 * speculations are in use.
 */
#include "consumer/spec.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpf/abi.h"
#include "bpf/load.h"
#include "bpf/spec_abi.h"
#include "consumer/consume.h"
#include "consumer/rdesc.h"
#include "consumer/report.h"
#include "lib/dt_impl.h"
#include "lib/runtime.h"

struct spec_buf {
	int state;		/* DT_SPEC_INACTIVE (keeping), COMMITTING or DISCARDING */
	uint64_t nread;		/* records read in this use of the speculation */
	DT_VEC(void *) recs;	/* kept records (copies), in arrival order */
};

struct dt_specstate {
	struct dt_spec_area *area;	/* live, in the mapped .bss */
	uint32_t nspec;
	uint32_t ndraining;		/* committed or discarded, not yet handed back */
	struct spec_buf *bufs;		/* [nspec + 1] */
	uint64_t seen_unavail, seen_busy, seen_drops;
	int64_t reported;		/* when they were last reported (CLOCK_MONOTONIC ns) */
};

static struct dt_specstate *state_of(const struct dtrace_hdl *dtp)
{
	return dtp->rt != NULL ? dtp->rt->specs : NULL;
}

int dt_spec_init(struct dtrace_hdl *dtp)
{
	struct dt_runtime *rt = dtp->rt;
	size_t sz = 0;

	if (dtp->spec_off == 0 || rt->specs != NULL)
		return 0;
	void *area = bo_bss_var(rt->obj, "dt_specs", &sz);
	return dt_spec_init_area(dtp, area, sz);
}

int dt_spec_init_area(struct dtrace_hdl *dtp, void *area, size_t sz)
{
	struct dt_runtime *rt = dtp->rt;

	if (area == NULL || sz < DT_SPEC_AREA_SIZE(dtp->spec_nspec))
		return dt_set_error(dtp, -ENOENT, "speculation buffers of the BPF object not found");
	struct dt_specstate *sp = calloc(1, sizeof(*sp));
	if (sp == NULL || (sp->bufs = calloc(dtp->spec_nspec + 1, sizeof(*sp->bufs))) == NULL) {
		free(sp);
		return dt_set_error(dtp, -ENOMEM, "out of memory");
	}
	sp->area = area;
	sp->nspec = dtp->spec_nspec;
	rt->specs = sp;
	return 0;
}

static void drop_kept(struct spec_buf *b)
{
	for (size_t i = 0; i < b->recs.n; i++)
		free(b->recs.v[i]);
	b->recs.n = 0;
}

void dt_spec_close(struct dtrace_hdl *dtp)
{
	struct dt_specstate *sp = state_of(dtp);

	if (sp == NULL)
		return;
	for (uint32_t id = 0; id <= sp->nspec; id++) {
		drop_kept(&sp->bufs[id]);
		dt_vec_free(&sp->bufs[id].recs);
	}
	free(sp->bufs);
	free(sp);
	dtp->rt->specs = NULL;
}

/* Print what a committed speculation kept; then it keeps nothing. */
static int commit(struct dtrace_hdl *dtp, struct spec_buf *b)
{
	int rc = 0;

	for (size_t i = 0; i < b->recs.n && rc == 0 && !dtp->cb_aborted; i++) {
		const struct dt_rec_hdr *h = b->recs.v[i];
		rc = dt_emit_record(dtp, dtp->rdescs.v[h->desc], h);
	}
	drop_kept(b);
	return rc;
}

/* The record's commit() and discard() results, in order. */
static int apply_ctl(struct dtrace_hdl *dtp, struct dt_specstate *sp, const struct dt_rdesc *rd,
		     const char *data)
{
	for (size_t i = 0; i < rd->items.n; i++) {
		const struct dt_ritem *it = &rd->items.v[i];
		uint32_t id;

		if (it->kind != RK_COMMIT && it->kind != RK_DISCARD)
			continue;
		memcpy(&id, data + it->off, sizeof(id));
		if (id == 0 || id > sp->nspec)
			continue;
		struct spec_buf *b = &sp->bufs[id];
		if (b->state != DT_SPEC_INACTIVE)
			continue;
		b->state = it->kind == RK_COMMIT ? DT_SPEC_COMMITTING : DT_SPEC_DISCARDING;
		sp->ndraining++;
		if (b->state == DT_SPEC_DISCARDING)
			drop_kept(b);
		else if (commit(dtp, b) < 0)
			return -ECANCELED;
	}
	return 0;
}

static bool only_ctl(const struct dt_rdesc *rd)
{
	for (size_t i = 0; i < rd->items.n; i++)
		if (rd->items.v[i].kind != RK_COMMIT && rd->items.v[i].kind != RK_DISCARD)
			return false;
	return rd->items.n > 0;
}

int dt_spec_record(struct dtrace_hdl *dtp, const struct dt_rdesc *rd, const void *data,
		   size_t size)
{
	struct dt_specstate *sp = state_of(dtp);
	const struct dt_rec_hdr *h = data;
	uint32_t id = h->spec & ~DT_SPEC_CTLONLY;
	bool ctlonly = (h->spec & DT_SPEC_CTLONLY) != 0;

	if (sp == NULL)
		return 0;
	if (rd->spec_ctl && apply_ctl(dtp, sp, rd, data) < 0)
		return -ECANCELED;
	if (id == 0)
		return ctlonly || only_ctl(rd) ? 1 : 0;
	if (id > sp->nspec)
		return 1;
	struct spec_buf *b = &sp->bufs[id];
	b->nread++;
	if (ctlonly || b->state == DT_SPEC_DISCARDING)
		return 1;
	if (b->state == DT_SPEC_COMMITTING) {
		/* Speculated before the commit, read after it: it is committed too. */
		return dt_emit_record(dtp, rd, data) < 0 ? -ECANCELED : 1;
	}
	void *copy = malloc(size);
	if (copy == NULL || dt_vec_push(&b->recs, copy) < 0) {
		free(copy);
		dt_report_error(dtp, "out of memory keeping a speculative record");
		return 1;
	}
	memcpy(copy, data, size);
	return 1;
}

/* Hand the drained speculations back for reuse. */
static void clean(struct dt_specstate *sp)
{
	for (uint32_t id = 1; id <= sp->nspec && sp->ndraining > 0; id++) {
		struct spec_buf *b = &sp->bufs[id];
		if (b->state == DT_SPEC_INACTIVE)
			continue;
		__u64 *ctl = &sp->area->spec[id].ctl;
		__u64 v = __atomic_load_n(ctl, __ATOMIC_ACQUIRE);
		if ((v >> DT_SPEC_STATE_SHIFT) != (uint64_t)b->state ||
		    (v & DT_SPEC_COUNT_MASK) != b->nread)
			continue;	/* records still on their way (or a speculate() in between) */
		if (!__atomic_compare_exchange_n(ctl, &v, 0, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			continue;
		b->state = DT_SPEC_INACTIVE;
		b->nread = 0;
		sp->ndraining--;
	}
}

static void report(struct dtrace_hdl *dtp, __u64 *counter, uint64_t *seen,
		   dtrace_dropkind_t kind)
{
	uint64_t v = __atomic_load_n(counter, __ATOMIC_RELAXED);

	if (v > *seen)
		dt_report_drop(dtp, kind, -1, v - *seen);
	*seen = v;
}

void dt_spec_pass(struct dtrace_hdl *dtp)
{
	struct dt_specstate *sp = state_of(dtp);

	if (sp == NULL)
		return;
	clean(sp);
	/* Counted drops go out at statusrate, as DTrace's status reports, and when stopping. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (now - sp->reported < dtp->opts.statusrate && *dtp->rt->state != DT_STATE_DRAINING)
		return;
	sp->reported = now;
	/* In DTrace's order: speculative drops, then failed speculations. */
	report(dtp, &sp->area->drops, &sp->seen_drops, DTRACE_DROP_SPEC);
	report(dtp, &sp->area->busy, &sp->seen_busy, DTRACE_DROP_SPECBUSY);
	report(dtp, &sp->area->unavail, &sp->seen_unavail, DTRACE_DROP_SPECUNAVAIL);
}

bool dt_spec_used(const struct dtrace_hdl *dtp)
{
	return state_of(dtp) != NULL;
}
