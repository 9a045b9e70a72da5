/*
 * Speculations in the consumer (see spec.h, and src/base/spec_abi.h for
 * the design).  The records of each use of a speculation (ID and
 * generation) are kept, in the order the ring gives them, until its commit
 * (printed then, where the commit is in the stream, as DTrace prints them)
 * or discard; records of that use read after it are printed or dropped as
 * they come, until as many as commit() or discard() counted have come.
 * BPF frees most IDs itself when they are committed or discarded; those
 * with data on other CPUs it leaves COMMITTING or DISCARDING, and this
 * consumer frees them (DTrace's clean) after each pass over the ring,
 * which it makes at cleanrate while speculations are in use.
 */
#include "consumer/spec.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "bpf/load.h"
#include "bpf/runtime.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/report.h"

/* One use of a speculation ID (a generation), as far as the ring has told. */
struct spec_use {
	uint32_t gen;
	int state;		/* DT_SPEC_ACTIVE (keeping), COMMITTING or DISCARDING */
	uint64_t nread;		/* its records read so far */
	uint32_t expect;	/* its records, once commit() or discard() told */
	bool freed;		/* BPF has the ID free (or in a later use) */
	DT_VEC(void *) recs;	/* kept records (copies), in arrival order */
};

/* The uses of one ID the consumer still has business with (rarely more than one). */
struct spec_id {
	DT_VEC(struct spec_use) uses;
};

struct dt_specstate {
	struct dt_spec_area *area;	/* live, in the mapped .bss */
	uint32_t nspec;
	struct spec_id *ids;		/* [nspec + 1] */
	uint64_t seen_unavail, seen_busy, seen_drops;
	int64_t reported;		/* when they were last reported (CLOCK_MONOTONIC ns) */
};

static struct dt_specstate *state_of(const struct dt_consumer *cs)
{
	return cs->rt != NULL ? cs->rt->specs : NULL;
}

int dt_spec_init(struct dt_consumer *cs)
{
	struct dt_runtime *rt = cs->rt;
	size_t sz = 0;

	if (cs->descs->spec_off == 0 || rt->specs != NULL)
		return 0;
	void *area = bo_bss_var(rt->obj, "dt_specs", &sz);
	return dt_spec_init_area(cs, area, sz);
}

int dt_spec_init_area(struct dt_consumer *cs, void *area, size_t sz)
{
	struct dt_runtime *rt = cs->rt;

	if (area == NULL || sz < DT_SPEC_AREA_SIZE(cs->descs->spec_nspec))
		return dt_set_error(cs->core, -ENOENT, "speculation buffers of the BPF object not found");
	struct dt_specstate *sp = calloc(1, sizeof(*sp));
	if (sp == NULL || (sp->ids = calloc(cs->descs->spec_nspec + 1, sizeof(*sp->ids))) == NULL) {
		free(sp);
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	sp->area = area;
	sp->nspec = cs->descs->spec_nspec;
	rt->specs = sp;
	return 0;
}

static void drop_kept(struct spec_use *u)
{
	for (size_t i = 0; i < u->recs.n; i++)
		free(u->recs.v[i]);
	u->recs.n = 0;
}

void dt_spec_close(struct dt_consumer *cs)
{
	struct dt_specstate *sp = state_of(cs);

	if (sp == NULL)
		return;
	for (uint32_t id = 0; id <= sp->nspec; id++) {
		struct spec_id *si = &sp->ids[id];
		for (size_t k = 0; k < si->uses.n; k++) {
			drop_kept(&si->uses.v[k]);
			dt_vec_free(&si->uses.v[k].recs);
		}
		dt_vec_free(&si->uses);
	}
	free(sp->ids);
	free(sp);
	cs->rt->specs = NULL;
}

/* The use of `id` with generation `gen`, added (keeping) if new; NULL when out of memory. */
static struct spec_use *use_of(struct dt_specstate *sp, uint32_t id, uint32_t gen)
{
	struct spec_id *si = &sp->ids[id];
	struct spec_use u = { .gen = gen, .state = DT_SPEC_ACTIVE };

	for (size_t k = 0; k < si->uses.n; k++)
		if (si->uses.v[k].gen == gen)
			return &si->uses.v[k];
	if (dt_vec_push(&si->uses, u) < 0)
		return NULL;
	return &si->uses.v[si->uses.n - 1];
}

/* Forget a use that has ended, whose records are all read and whose ID BPF has free. */
static void settle(struct dt_specstate *sp, uint32_t id, struct spec_use *u)
{
	struct spec_id *si = &sp->ids[id];

	if (u->state == DT_SPEC_ACTIVE || (uint32_t)u->nread != u->expect || !u->freed)
		return;
	drop_kept(u);
	dt_vec_free(&u->recs);
	size_t k = (size_t)(u - si->uses.v);
	si->uses.v[k] = si->uses.v[--si->uses.n];
}

/* Print what a committed use kept; then it keeps nothing. */
static int commit(struct dt_consumer *cs, struct spec_use *u)
{
	int rc = 0;

	for (size_t i = 0; i < u->recs.n && rc == 0 && !cs->cb_aborted; i++) {
		const struct dt_rec_hdr *h = u->recs.v[i];
		rc = dt_emit_record(cs, cs->descs->rdescs.v[h->desc], h);
	}
	drop_kept(u);
	return rc;
}

/*
 * Whether BPF still holds use `gen` of `id` as COMMITTING or DISCARDING;
 * if so, and its count is what the consumer expects, free it (the next
 * generation, INACTIVE): a compare-and-swap that fails while a
 * speculate() is in between, to be tried again on the next pass.
 */
static bool bpf_holds(struct dt_specstate *sp, uint32_t id, const struct spec_use *u)
{
	__u64 *ctl = &sp->area->spec[id].ctl;
	__u64 v = __atomic_load_n(ctl, __ATOMIC_ACQUIRE);

	if (DT_SPEC_GEN(v) != u->gen || DT_SPEC_STATE(v) != (uint64_t)u->state)
		return false;
	__u64 want = DT_SPEC_CTL(u->state, u->gen, u->expect);
	__u64 next = DT_SPEC_CTL(DT_SPEC_INACTIVE, u->gen + 1, 0);
	return !__atomic_compare_exchange_n(ctl, &want, next, false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
}

/* The record's commit() and discard() results, in order. */
static int apply_ctl(struct dt_consumer *cs, struct dt_specstate *sp, const struct dt_rdesc *rd,
		     const char *data)
{
	for (size_t i = 0; i < rd->items.n; i++) {
		const struct dt_ritem *it = &rd->items.v[i];
		uint64_t ended;

		if (it->kind != RK_COMMIT && it->kind != RK_DISCARD)
			continue;
		memcpy(&ended, data + it->off, sizeof(ended));
		uint32_t tag = (uint32_t)ended, id = DT_SPEC_TAG_ID(tag);
		if (id == 0 || id > sp->nspec)
			continue;
		struct spec_use *u = use_of(sp, id, DT_SPEC_TAG_GEN(tag));
		if (u == NULL) {
			dt_report_error(cs, "out of memory ending a speculation");
			continue;
		}
		if (u->state != DT_SPEC_ACTIVE)
			continue;
		u->state = it->kind == RK_COMMIT ? DT_SPEC_COMMITTING : DT_SPEC_DISCARDING;
		u->expect = (uint32_t)(ended >> 32);
		u->freed = !bpf_holds(sp, id, u);
		if (u->state == DT_SPEC_DISCARDING)
			drop_kept(u);
		else if (commit(cs, u) < 0)
			return -ECANCELED;
		settle(sp, id, u);
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

int dt_spec_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
		   size_t size)
{
	struct dt_specstate *sp = state_of(cs);
	const struct dt_rec_hdr *h = data;
	uint32_t tag = h->spec & ~DT_SPEC_CTLONLY, id = DT_SPEC_TAG_ID(tag);
	bool ctlonly = (h->spec & DT_SPEC_CTLONLY) != 0;
	int rc = 1;

	if (sp == NULL)
		return 0;
	if (rd->spec_ctl && apply_ctl(cs, sp, rd, data) < 0)
		return -ECANCELED;
	if (id == 0)
		return ctlonly || only_ctl(rd) ? 1 : 0;
	if (id > sp->nspec)
		return 1;
	struct spec_use *u = use_of(sp, id, DT_SPEC_TAG_GEN(tag));
	if (u == NULL) {
		dt_report_error(cs, "out of memory keeping a speculative record");
		return 1;
	}
	u->nread++;
	if (ctlonly || u->state == DT_SPEC_DISCARDING) {
		/* nothing to keep */
	} else if (u->state == DT_SPEC_COMMITTING) {
		/* Speculated before the commit, read after it: it is committed too. */
		rc = dt_emit_record(cs, rd, data) < 0 ? -ECANCELED : 1;
	} else {
		void *copy = malloc(size);
		if (copy == NULL || dt_vec_push(&u->recs, copy) < 0) {
			free(copy);
			dt_report_error(cs, "out of memory keeping a speculative record");
		} else {
			memcpy(copy, data, size);
		}
	}
	if (rc > 0)
		settle(sp, id, u);
	return rc;
}

/* Free the IDs whose ended uses BPF still holds (DTrace's clean, at cleanrate). */
static void clean(struct dt_specstate *sp)
{
	for (uint32_t id = 1; id <= sp->nspec; id++) {
		struct spec_id *si = &sp->ids[id];
		for (size_t k = si->uses.n; k-- > 0;) {
			struct spec_use *u = &si->uses.v[k];
			if (u->state == DT_SPEC_ACTIVE || u->freed)
				continue;
			u->freed = !bpf_holds(sp, id, u);
			settle(sp, id, u);
		}
	}
}

static void report(struct dt_consumer *cs, __u64 *counter, uint64_t *seen,
		   dtrace_dropkind_t kind)
{
	uint64_t v = __atomic_load_n(counter, __ATOMIC_RELAXED);

	if (v > *seen)
		dt_report_drop(cs, kind, -1, v - *seen);
	*seen = v;
}

void dt_spec_pass(struct dt_consumer *cs)
{
	struct dt_specstate *sp = state_of(cs);

	if (sp == NULL)
		return;
	clean(sp);
	/* Counted drops go out at statusrate, as DTrace's status reports, and when stopping. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	if (now - sp->reported < cs->core->opts.statusrate && *cs->rt->state != DT_STATE_DRAINING)
		return;
	sp->reported = now;
	/* In DTrace's order: speculative drops, then failed speculations. */
	report(cs, &sp->area->drops, &sp->seen_drops, DTRACE_DROP_SPEC);
	report(cs, &sp->area->busy, &sp->seen_busy, DTRACE_DROP_SPECBUSY);
	report(cs, &sp->area->unavail, &sp->seen_unavail, DTRACE_DROP_SPECUNAVAIL);
}

bool dt_spec_used(const struct dt_consumer *cs)
{
	return state_of(cs) != NULL;
}
