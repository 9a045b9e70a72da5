/* Records of clauses cut into parts, held until the clause ends (parts.h). */
#include "consumer/parts.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "base/spec_abi.h"
#include "consumer/consumer.h"
#include "consumer/report.h"

/* One firing's held records, in the order they were read. */
struct held {
	uint32_t cpu, clause;
	uint64_t ts;
	DT_VEC(void *) recs;
	DT_VEC(size_t) sizes;
};

struct dt_parts {
	DT_VEC(struct held *) v;
};

static void held_free(struct held *f)
{
	for (size_t i = 0; i < f->recs.n; i++)
		free(f->recs.v[i]);
	dt_vec_free(&f->recs);
	dt_vec_free(&f->sizes);
	free(f);
}

static void forget(struct dt_parts *p, size_t i)
{
	held_free(p->v.v[i]);
	p->v.v[i] = p->v.v[--p->v.n];
}

/* The held firing of (cpu, clause), if any. */
static size_t find(const struct dt_parts *p, uint32_t cpu, uint32_t clause)
{
	size_t i = 0;

	while (i < p->v.n && (p->v.v[i]->cpu != cpu || p->v.v[i]->clause != clause))
		i++;
	return i;
}

/* Drop f's records: a speculative one is still counted by its speculation. */
static int drop(struct dt_consumer *cs, struct held *f,
		int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t))
{
	int rc = 0;

	for (size_t i = 0; i < f->recs.n && rc >= 0; i++) {
		struct dt_rec_hdr *h = f->recs.v[i];
		/* (What it committed or discarded still holds, as for a record that faults.) */
		if (h->spec == 0 && !cs->descs->rdescs.v[h->desc]->spec_ctl)
			continue;
		h->spec |= DT_SPEC_CTLONLY;
		rc = print(cs, cs->descs->rdescs.v[h->desc], h, f->sizes.v[i]);
	}
	return rc;
}

static int hold(struct dt_consumer *cs, const struct dt_rec_hdr *h, size_t size, uint32_t clause,
		int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t))
{
	struct dt_parts *p = cs->parts;
	int rc = 0;

	if (p == NULL && (p = cs->parts = calloc(1, sizeof(*p))) == NULL)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	size_t i = find(p, h->cpu, clause);
	/* An earlier firing that never ended (a drop stopped it): its records went with it. */
	if (i < p->v.n && p->v.v[i]->ts != h->timestamp) {
		rc = drop(cs, p->v.v[i], print);
		forget(p, i);
		i = p->v.n;
	}
	if (i == p->v.n) {
		struct held *f = calloc(1, sizeof(*f));
		if (f == NULL || dt_vec_push(&p->v, f) < 0) {
			free(f);
			return dt_set_error(cs->core, -ENOMEM, "out of memory");
		}
		f->cpu = h->cpu, f->clause = clause, f->ts = h->timestamp;
	}
	struct held *f = p->v.v[i];
	void *copy = malloc(size);
	if (copy == NULL || dt_vec_push(&f->recs, copy) < 0 || dt_vec_push(&f->sizes, size) < 0) {
		free(copy);
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	memcpy(copy, h, size);
	return rc;
}

int dt_parts_record(struct dt_consumer *cs, const struct dt_rdesc *rd, const void *data,
		    size_t size,
		    int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t))
{
	const struct dt_rec_hdr *h = data;
	struct dt_parts *p = cs->parts;

	if (rd->part_held) {
		int rc = hold(cs, h, size, rd->clause, print);
		if (rc < 0 && rc != -ECANCELED) {
			dt_report_error(cs, "%s", cs->core->errmsg);
			return 0;
		}
		return rc < 0 ? rc : 1;
	}
	if (!rd->part_last || p == NULL)
		return 0;
	size_t i = find(p, h->cpu, rd->clause);
	if (i == p->v.n || p->v.v[i]->ts != h->timestamp)
		return 0;
	struct held *f = p->v.v[i];
	p->v.v[i] = p->v.v[--p->v.n];
	int rc = 0;
	/*
	 * Flagged: the last part faulted (or its speculation had no room),
	 * and its record only says what it committed or discarded.
	 */
	if (h->spec & DT_SPEC_CTLONLY) {
		rc = drop(cs, f, print);
		held_free(f);
		return rc < 0 ? rc : 0;
	}
	for (size_t k = 0; k < f->recs.n && rc >= 0; k++) {
		const struct dt_rec_hdr *r = f->recs.v[k];
		rc = print(cs, cs->descs->rdescs.v[r->desc], r, f->sizes.v[k]);
	}
	held_free(f);
	return rc < 0 ? rc : 0;
}

int dt_parts_fault(struct dt_consumer *cs, const void *data, size_t size,
		   int (*print)(struct dt_consumer *, const struct dt_rdesc *, const void *, size_t))
{
	const struct dt_rec_hdr *h = data;
	const struct dt_rec_error *e = (const void *)((const char *)data + DT_REC_DATA_OFF);
	struct dt_parts *p = cs->parts;

	if (p == NULL || size < DT_REC_DATA_OFF + sizeof(*e))
		return 0;
	size_t i = find(p, h->cpu, e->stmt);
	if (i == p->v.n || p->v.v[i]->ts != h->timestamp)
		return 0;
	int rc = drop(cs, p->v.v[i], print);
	forget(p, i);
	return rc;
}

void dt_parts_free(struct dt_consumer *cs)
{
	struct dt_parts *p = cs->parts;

	if (p == NULL)
		return;
	for (size_t i = 0; i < p->v.n; i++)
		held_free(p->v.v[i]);
	dt_vec_free(&p->v);
	free(p);
	cs->parts = NULL;
}
