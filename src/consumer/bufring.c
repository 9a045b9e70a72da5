/* bufpolicy=ring (bufring.h). */
#include "consumer/bufring.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/rdesc.h"
#include "consumer/consume.h"
#include "consumer/consumer.h"
#include "consumer/rec_actions.h"
#include "consumer/report.h"

struct kept {
	size_t size;
	char data[];
};

struct dt_bufring {
	struct kept **v;	/* v[head..n) are kept, oldest first */
	size_t head, n, cap;
	size_t bytes;		/* data bytes kept */
};

/* Records that cannot wait: faults, speculations and their commit/discard. */
static bool passes_through(struct dt_consumer *cs, const struct dt_rec_hdr *h, size_t size)
{
	if (size < sizeof(*h) || h->desc == 0 || h->desc >= cs->descs->rdescs.n)
		return true;
	const struct dt_rdesc *rd = cs->descs->rdescs.v[h->desc];
	return h->spec != 0 || rd->spec_ctl || size < rd->size;
}

/* exit() stops tracing when it is read, not when its record is printed. */
static void act_exit_now(struct dt_consumer *cs, const struct dt_rec_hdr *h, const void *data)
{
	const struct dt_rdesc *rd = cs->descs->rdescs.v[h->desc];

	if (!rd->has_exit)
		return;
	for (size_t i = 0; i < rd->items.n; i++)
		if (rd->items.v[i].kind == RK_EXIT)
			dt_rec_act(cs, &rd->items.v[i], data);
}

static void drop_oldest(struct dt_bufring *r)
{
	r->bytes -= r->v[r->head]->size;
	free(r->v[r->head]);
	r->v[r->head++] = NULL;
}

static int keep(struct dt_consumer *cs, const void *data, size_t size)
{
	struct dt_bufring *r = cs->bufring;
	size_t limit = cs->core->opts.bufsize > 0 ? (size_t)cs->core->opts.bufsize : 0;

	if (r == NULL) {
		r = cs->bufring = calloc(1, sizeof(*r));
		if (r == NULL)
			return dt_set_error(cs->core, -ENOMEM, "out of memory");
	}
	/* fill: the BPF side counts what fits in bufsize (cg_clause.c); keep all. */
	if (cs->core->opts.bufpolicy == DT_BUFPOLICY_RING) {
		if (size > limit)
			return 0;	/* larger than the whole buffer: never kept */
		while (r->head < r->n && r->bytes + size > limit)
			drop_oldest(r);
	}
	if (r->head > 0 && r->head * 2 >= r->n) {
		memmove(r->v, r->v + r->head, (r->n - r->head) * sizeof(*r->v));
		r->n -= r->head;
		r->head = 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 64;
		struct kept **v = realloc(r->v, cap * sizeof(*v));
		if (v == NULL)
			return dt_set_error(cs->core, -ENOMEM, "out of memory");
		r->v = v;
		r->cap = cap;
	}
	struct kept *k = malloc(sizeof(*k) + size);
	if (k == NULL)
		return dt_set_error(cs->core, -ENOMEM, "out of memory");
	k->size = size;
	memcpy(k->data, data, size);
	r->v[r->n++] = k;
	r->bytes += size;
	return 0;
}

int dt_bufring_record(struct dt_consumer *cs, const void *data, size_t size)
{
	const struct dt_rec_hdr *h = data;

	if ((cs->core->opts.bufpolicy != DT_BUFPOLICY_RING && cs->core->opts.bufpolicy != DT_BUFPOLICY_FILL) ||
	    passes_through(cs, h, size))
		return dt_print_record(cs, data, size);
	act_exit_now(cs, h, data);
	int rc = keep(cs, data, size);
	if (rc < 0)
		dt_report_error(cs, "%s", cs->core->errmsg);
	return 0;
}

void dt_bufring_flush(struct dt_consumer *cs)
{
	struct dt_bufring *r = cs->bufring;

	if (r == NULL)
		return;
	while (r->head < r->n) {
		struct kept *k = r->v[r->head];
		if (dt_print_record(cs, k->data, k->size) < 0)
			break;
		drop_oldest(r);
	}
	dt_bufring_free(cs);
}

void dt_bufring_free(struct dt_consumer *cs)
{
	struct dt_bufring *r = cs->bufring;

	if (r == NULL)
		return;
	while (r->head < r->n)
		drop_oldest(r);
	free(r->v);
	free(r);
	cs->bufring = NULL;
}
