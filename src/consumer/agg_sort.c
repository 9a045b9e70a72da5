/*
 * DTrace's aggregation orders (dt_aggregate.c): by value then key by
 * default, by key with aggsortkey, starting at key aggsortkeypos, all
 * reversed by aggsortrev; printa() of several aggregations sorts the rows
 * of the joined keys by each aggregation's value in turn, starting at
 * argument aggsortpos.
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "consumer/consumer.h"

void dt_aggsort_opts_get(const struct dt_consumer *cs, struct dt_aggsort_opts *o)
{
	const struct dt_options *op = &cs->core->opts;

	o->keysort = op->aggsortkey;
	o->rev = op->aggsortrev;
	o->keypos = op->aggsortkeypos > 0 && op->aggsortkeypos <= INT32_MAX ? (int)op->aggsortkeypos : 0;
	o->sortpos = op->aggsortpos > 0 && op->aggsortpos <= INT32_MAX ? (int)op->aggsortpos : 0;
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

/* dt_aggregate_keycmp on one component: integers unsigned, the rest bytewise. */
static int comp_cmp(const struct dt_aggkey *k, const uint8_t *a, const uint8_t *b)
{
	switch (k->kind) {
	case DT_AGGKEY_INT:
	case DT_AGGKEY_SYM:
	case DT_AGGKEY_MOD:
		if (k->size == 1 || k->size == 2 || k->size == 4 || k->size == 8)
			return CMP(dt_agg_load_uint(a, k->size), dt_agg_load_uint(b, k->size));
		break;
	case DT_AGGKEY_USYM:
	case DT_AGGKEY_UMOD:
	case DT_AGGKEY_UADDR:
		if (k->size == 16) {
			int r = CMP(dt_agg_load_uint(a, 8), dt_agg_load_uint(b, 8));
			return r ? r : CMP(dt_agg_load_uint(a + 8, 8), dt_agg_load_uint(b + 8, 8));
		}
		break;
	default:
		break;
	}
	int r = memcmp(a, b, k->size);
	return CMP(r, 0);
}

int dt_agg_keycmp(const struct dt_aggdesc *ad, const uint8_t *ka, const uint8_t *kb, int keypos)
{
	int n = ad->nkeys;

	if (keypos < 0 || keypos >= n)
		keypos = 0;
	for (int j = 0; j < n; j++) {
		const struct dt_aggkey *k = &ad->keys[(keypos + j) % n];
		int r = comp_cmp(k, ka + k->off, kb + k->off);

		if (r != 0)
			return r;
	}
	return 0;
}

/* Keys of two aggregations whose layouts may differ: fewer keys, then smaller ones, first. */
static int xkeycmp(const struct dt_aggdesc *a, const uint8_t *ka, const struct dt_aggdesc *b,
		   const uint8_t *kb)
{
	if (a == b)
		return dt_agg_keycmp(a, ka, kb, 0);
	if (a->nkeys != b->nkeys)
		return CMP(a->nkeys, b->nkeys);
	for (int i = 0; i < a->nkeys; i++) {
		const struct dt_aggkey *x = &a->keys[i], *y = &b->keys[i];

		if (x->size != y->size)
			return CMP(x->size, y->size);
		int r = comp_cmp(x, ka + x->off, kb + y->off);
		if (r != 0)
			return r;
	}
	return 0;
}

int dt_agg_valcmp(const struct dt_aggsnap *s, const uint8_t *ea, const uint8_t *eb)
{
	const int64_t *a = dt_aggent_val(s, ea), *b = dt_aggent_val(s, eb);

	switch (s->ad->func) {
	case AGG_AVG: {
		int64_t x = dt_aggval_avg(a, 1), y = dt_aggval_avg(b, 1);
		return CMP(x, y);
	}
	case AGG_STDDEV: {
		uint64_t x, y;
		memcpy(&x, ea + s->sortoff, sizeof(x));
		memcpy(&y, eb + s->sortoff, sizeof(y));
		return CMP(x, y);
	}
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE: {
		struct dt_quantkey x, y;
		memcpy(&x, ea + s->sortoff, sizeof(x));
		memcpy(&y, eb + s->sortoff, sizeof(y));
		int r = CMP(x.total, y.total);
		return r ? r : CMP(x.zero, y.zero);
	}
	default:
		/* count, sum, min, max */
		return CMP(a[0], b[0]);
	}
}

struct sort_ctx {
	const struct dt_aggsnap *s;
	bool keysort, rev;
	int keypos;
};

static int ent_cmp(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	const uint8_t *a = *(const uint8_t *const *)pa, *b = *(const uint8_t *const *)pb;
	int r;

	if (c->keysort) {
		r = dt_agg_keycmp(c->s->ad, a, b, c->keypos);
	} else {
		r = dt_agg_valcmp(c->s, a, b);
		if (r == 0)
			r = dt_agg_keycmp(c->s->ad, a, b, c->keypos);
	}
	/* aggsortrev turns every comparison around (DT_LESSTHAN/DT_GREATERTHAN). */
	return c->rev ? -r : r;
}

static int sort_with(const struct dt_aggsnap *s, const struct sort_ctx *c, const uint8_t ***out)
{
	const uint8_t **v = malloc((s->n ? s->n : 1) * sizeof(*v));

	if (v == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < s->n; i++)
		v[i] = dt_aggsnap_ent(s, i);
	qsort_r(v, s->n, sizeof(*v), ent_cmp, (void *)c);
	*out = v;
	return 0;
}

int dt_aggsnap_sort(const struct dt_aggsnap *s, const struct dt_aggsort_opts *o,
		    const uint8_t ***sorted)
{
	struct sort_ctx c = { .s = s, .keysort = o->keysort, .rev = o->rev, .keypos = o->keypos };

	return sort_with(s, &c, sorted);
}

int dt_aggsnap_sort_by_value(const struct dt_aggsnap *s, bool rev, const uint8_t ***sorted)
{
	struct sort_ctx c = { .s = s, .rev = rev };

	return sort_with(s, &c, sorted);
}

/* ---- printa() of several aggregations ---------------------------------- */

struct join_ent {
	const uint8_t *e;
	uint32_t pos;		/* position (argument order rotated by aggsortpos) */
};

struct join_ctx {
	struct dt_aggsnap *const *pos_snap;	/* per position */
	size_t width;
	bool keysort, rev;
	int keypos;
};

static int join_ent_cmp(const void *pa, const void *pb, void *arg)
{
	const struct join_ctx *c = arg;
	const struct join_ent *a = pa, *b = pb;
	int r = xkeycmp(c->pos_snap[a->pos]->ad, a->e, c->pos_snap[b->pos]->ad, b->e);

	return r ? r : CMP(a->pos, b->pos);
}

/* A row: width cells by position, then the representative key's entry. */
static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct join_ctx *c = arg;
	const uint8_t *const *a = *(const uint8_t *const *const *)pa;
	const uint8_t *const *b = *(const uint8_t *const *const *)pb;
	const struct dt_aggdesc *kad = c->pos_snap[0]->ad;
	int r;

	if (c->keysort) {
		r = dt_agg_keycmp(kad, a[c->width], b[c->width], c->keypos);
		if (r != 0)
			return c->rev ? -r : r;
	}
	for (size_t p = 0; p < c->width; p++) {
		r = dt_agg_valcmp(c->pos_snap[p], a[p], b[p]);
		if (r != 0)
			return c->rev ? -r : r;
	}
	if (c->keysort)
		return 0;
	r = dt_agg_keycmp(kad, a[c->width], b[c->width], c->keypos);
	return c->rev ? -r : r;
}

void dt_agg_join_free(struct dt_aggjoin *j)
{
	if (j->zero != NULL)
		for (size_t i = 0; i < j->width; i++)
			free(j->zero[i]);
	free(j->zero);
	free(j->cells);
	memset(j, 0, sizeof(*j));
}

/* Gather every entry of each distinct aggregation, grouped by key. */
static int gather(const struct join_ctx *c, const int *remap, struct join_ent **out, size_t *np)
{
	size_t total = 0, k = 0;
	struct join_ent *v;

	for (size_t p = 0; p < c->width; p++)
		if (remap[p] < 0)
			total += c->pos_snap[p]->n;
	v = malloc((total ? total : 1) * sizeof(*v));
	if (v == NULL)
		return -ENOMEM;
	for (size_t p = 0; p < c->width; p++) {
		if (remap[p] >= 0)
			continue;
		for (size_t i = 0; i < c->pos_snap[p]->n; i++)
			v[k++] = (struct join_ent){ dt_aggsnap_ent(c->pos_snap[p], i), (uint32_t)p };
	}
	qsort_r(v, total, sizeof(*v), join_ent_cmp, (void *)c);
	*out = v;
	*np = total;
	return 0;
}

/* Build the rows: one per distinct key, missing aggregations given their zero entry. */
static int make_rows(const struct join_ctx *c, const int *remap, uint8_t **zero,
		     const struct join_ent *v, size_t total, const uint8_t ***rowsp,
		     const uint8_t ****rowptrs, size_t *nrowsp)
{
	size_t w = c->width, nrows = 0;
	const uint8_t **rows;
	const uint8_t ***rp;

	for (size_t i = 0; i < total; i++)
		if (i == 0 || xkeycmp(c->pos_snap[v[i].pos]->ad, v[i].e,
				      c->pos_snap[v[i - 1].pos]->ad, v[i - 1].e) != 0)
			nrows++;
	rows = calloc(nrows ? nrows * (w + 1) : 1, sizeof(*rows));
	rp = malloc((nrows ? nrows : 1) * sizeof(*rp));
	if (rows == NULL || rp == NULL) {
		free(rows);
		free(rp);
		return -ENOMEM;
	}
	size_t r = 0;
	for (size_t i = 0; i < total; r++) {
		const uint8_t **row = rows + r * (w + 1);
		size_t start = i;

		row[w] = v[i].e;	/* the representative: the first with this key */
		for (; i < total && (i == start ||
				     xkeycmp(c->pos_snap[v[i].pos]->ad, v[i].e,
					     c->pos_snap[v[start].pos]->ad, v[start].e) == 0); i++)
			row[v[i].pos] = v[i].e;
		for (size_t p = 0; p < w; p++)
			if (row[p] == NULL)
				row[p] = remap[p] >= 0 ? row[remap[p]] : zero[p];
		rp[r] = row;
	}
	*rowsp = rows;
	*rowptrs = rp;
	*nrowsp = nrows;
	return 0;
}

int dt_agg_join(struct dt_aggsnap *const *snaps, const uint32_t *aggids, size_t n,
		const struct dt_aggsort_opts *o, struct dt_aggjoin *j)
{
	size_t sp = o->sortpos >= 0 && (size_t)o->sortpos < n ? (size_t)o->sortpos : 0;
	struct dt_aggsnap **pos_snap = calloc(n, sizeof(*pos_snap));
	int *remap = malloc(n * sizeof(*remap));
	struct join_ctx c = { .width = n, .keysort = o->keysort, .rev = o->rev,
			      .keypos = o->keypos };
	struct join_ent *v = NULL;
	const uint8_t **rows = NULL, ***rp = NULL;
	size_t total = 0, nrows = 0;
	int rc = -ENOMEM;

	memset(j, 0, sizeof(*j));
	j->width = n;
	j->zero = calloc(n, sizeof(*j->zero));
	if (pos_snap == NULL || remap == NULL || j->zero == NULL)
		goto out;

	/* Position p sorts as argument (p + aggsortpos) % n; a repeat takes its first copy. */
	for (size_t p = 0; p < n; p++) {
		size_t a = (p + sp) % n;

		pos_snap[p] = snaps[a];
		remap[p] = -1;
		for (size_t q = 0; q < p; q++)
			if (aggids[(q + sp) % n] == aggids[a] && remap[q] < 0) {
				remap[p] = (int)q;
				break;
			}
		j->zero[p] = dt_aggsnap_zero_entry(snaps[a]);
		if (j->zero[p] == NULL)
			goto out;
	}
	c.pos_snap = pos_snap;
	if ((rc = gather(&c, remap, &v, &total)) < 0)
		goto out;
	if ((rc = make_rows(&c, remap, j->zero, v, total, &rows, &rp, &nrows)) < 0)
		goto out;
	qsort_r(rp, nrows, sizeof(*rp), row_cmp, &c);

	/* Hand the rows back in argument order, the representative last. */
	j->cells = malloc((nrows ? nrows * (n + 1) : 1) * sizeof(*j->cells));
	if (j->cells == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t r = 0; r < nrows; r++) {
		const uint8_t **dst = j->cells + r * (n + 1);

		for (size_t a = 0; a < n; a++)
			dst[a] = rp[r][(a + n - sp) % n];
		dst[n] = rp[r][n];
	}
	j->nrows = nrows;
	rc = 0;
out:
	free(v);
	free(rows);
	free(rp);
	free(pos_snap);
	free(remap);
	if (rc < 0)
		dt_agg_join_free(j);
	return rc;
}
