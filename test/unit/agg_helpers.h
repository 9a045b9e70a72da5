/*
 * Helpers for the aggregation consumer's tests: aggregation descriptions
 * as the compiler makes them, and a fake data source that keeps per-CPU
 * values the way the BPF side does (one slot per CPU per key, the other
 * CPUs' slots zeroed when a CPU creates a key), so that the consumer's
 * snapshot, merge, sort and print run as they do on real maps.
 */
#ifndef TEST_AGG_HELPERS_H
#define TEST_AGG_HELPERS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/aggdesc.h"
#include "base/quant.h"
#include "compiler/ident.h"
#include "consumer/agg.h"
#include "consumer/agg_impl.h"
#include "consumer/printf.h"
#include "dtrace.h"
#include "lib/dt_impl.h"

#define FK_MAXAGGS 300
#define FK_MAXKEYS 8
#define FK_MAXCPUS 4

struct fk_ent {
	uint8_t *key;
	int64_t *vals;		/* ncpus * nwords */
	bool *touched;		/* per CPU: the BPF side has written the slot */
};

struct fk_agg {
	struct dt_aggdesc ad;
	struct dt_aggkey keys[FK_MAXKEYS];
	struct fk_ent *ents;
	size_t n, cap;
	uint32_t nwords;
};

struct fake {
	dtrace_hdl_t *dtp;
	struct fk_agg *aggs[FK_MAXAGGS];
	int naggs;
	int ncpus;
	bool seen_word;		/* min()/max() values carry a count of values seen */
};

static inline uint32_t fk_value_words(const struct fk_agg *a)
{
	return a->ad.value_size / 8;
}

static inline void fk_set_value_size(struct fake *f, struct fk_agg *a)
{
	switch (a->ad.func) {
	case AGG_AVG: a->ad.value_size = 16; break;
	case AGG_STDDEV: a->ad.value_size = 32; break;
	case AGG_MIN:
	case AGG_MAX: a->ad.value_size = f->seen_word ? 16 : 8; break;
	case AGG_QUANTIZE: a->ad.nbuckets = DT_QUANT_NBUCKETS; a->ad.value_size = 8 * a->ad.nbuckets; break;
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE: a->ad.value_size = 8 * a->ad.nbuckets; break;
	default: a->ad.value_size = 8; break;
	}
	a->nwords = a->ad.value_size / 8;
}

/* A new aggregation @name = func(); its id is its index. */
static inline struct fk_agg *fk_new(struct fake *f, const char *name, int func)
{
	struct fk_agg *a = calloc(1, sizeof(*a));

	assert_non_null(a);
	assert_true(f->naggs < FK_MAXAGGS);
	a->ad.id = (uint32_t)f->naggs;
	a->ad.name = name;
	a->ad.func = func;
	a->ad.keys = a->keys;
	a->ad.key_size = 8;
	a->ad.map_name = "fake";
	fk_set_value_size(f, a);
	f->aggs[f->naggs++] = a;
	assert_int_equal(dt_vec_push(&f->dtp->descs->aggs, &a->ad), 0);
	return a;
}

static inline void fk_add_key(struct fk_agg *a, enum dt_aggkey_kind kind, uint32_t size,
			      uint32_t type_size, bool is_signed)
{
	struct dt_aggkey *k = &a->keys[a->ad.nkeys];
	uint32_t off = 0;

	assert_true(a->ad.nkeys < FK_MAXKEYS && a->n == 0);
	for (int i = 0; i < a->ad.nkeys; i++)
		off += a->keys[i].size;
	*k = (struct dt_aggkey){ .kind = kind, .off = off, .size = size, .type_size = type_size,
				 .is_signed = is_signed };
	a->ad.nkeys++;
	a->ad.key_size = off + size;
}

/* Keys as the compiler lays them out: integers in 8 bytes, strings strsize. */
static inline void fk_key_int(struct fk_agg *a, uint32_t type_size, bool is_signed)
{
	fk_add_key(a, DT_AGGKEY_INT, 8, type_size, is_signed);
}

static inline void fk_key_str(struct fk_agg *a, uint32_t strsize)
{
	fk_add_key(a, DT_AGGKEY_STRING, strsize, strsize, false);
}

static inline void fk_lquant(struct fake *f, struct fk_agg *a, int64_t base, int64_t limit,
			     int64_t step)
{
	a->ad.lq_base = base;
	a->ad.lq_step = step;
	a->ad.lq_levels = (uint32_t)((limit - base) / step);
	a->ad.nbuckets = a->ad.lq_levels + 2;
	fk_set_value_size(f, a);
}

static inline void fk_llquant(struct fake *f, struct fk_agg *a, int factor, int lmag, int hmag,
			      int steps)
{
	a->ad.llq_factor = (uint16_t)factor;
	a->ad.llq_lmag = (uint16_t)lmag;
	a->ad.llq_hmag = (uint16_t)hmag;
	a->ad.llq_steps = (uint16_t)steps;
	a->ad.nbuckets = dt_llquantize_nbuckets((uint16_t)factor, (uint16_t)lmag, (uint16_t)hmag,
						(uint16_t)steps);
	fk_set_value_size(f, a);
}

/* A key under construction. */
struct fk_key {
	uint8_t b[4096];
};

static inline struct fk_key *kb_int(struct fk_key *kb, const struct fk_agg *a, int i, int64_t v)
{
	/* stored sign- or zero-extended to 8 bytes from the key's type */
	const struct dt_aggkey *k = &a->keys[i];
	uint64_t u = (uint64_t)v;

	if (k->type_size < 8) {
		uint64_t m = (1ULL << (8 * k->type_size)) - 1;
		u &= m;
		if (k->is_signed && (u >> (8 * k->type_size - 1)))
			u |= ~m;
	}
	memcpy(kb->b + k->off, &u, 8);
	return kb;
}

static inline struct fk_key *kb_str(struct fk_key *kb, const struct fk_agg *a, int i, const char *s)
{
	const struct dt_aggkey *k = &a->keys[i];

	memset(kb->b + k->off, 0, k->size);
	strncpy((char *)kb->b + k->off, s, k->size - 1);
	return kb;
}

static inline struct fk_ent *fk_find(struct fake *f, struct fk_agg *a, const void *key, int cpu)
{
	for (size_t i = 0; i < a->n; i++)
		if (memcmp(a->ents[i].key, key, a->ad.key_size) == 0)
			return &a->ents[i];
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->ents = realloc(a->ents, a->cap * sizeof(*a->ents));
		assert_non_null(a->ents);
	}
	struct fk_ent *e = &a->ents[a->n++];
	e->key = malloc(a->ad.key_size);
	e->vals = calloc((size_t)f->ncpus * a->nwords, sizeof(int64_t));
	e->touched = calloc((size_t)f->ncpus, sizeof(bool));
	assert_true(e->key && e->vals && e->touched);
	memcpy(e->key, key, a->ad.key_size);
	(void)cpu;
	return e;
}

/*
 * What the BPF side does for @a[key] = func(v, incr) on `cpu`: a slot the
 * CPU has never written starts as "nothing aggregated" (the kernel zeroes
 * it; min()/max() then start from their sentinel).
 */
static inline void fk_apply(struct fake *f, struct fk_agg *a, const struct fk_key *kb, int cpu,
			    int64_t v, int64_t incr)
{
	static const struct fk_key zero;
	struct fk_ent *e = fk_find(f, a, kb ? kb->b : zero.b, cpu);
	int64_t *w = e->vals + (size_t)cpu * a->nwords;
	bool first = !e->touched[cpu];

	e->touched[cpu] = true;
	switch (a->ad.func) {
	case AGG_COUNT:
		w[0]++;
		break;
	case AGG_SUM:
		w[0] = (int64_t)((uint64_t)w[0] + (uint64_t)v);
		break;
	case AGG_MIN:
	case AGG_MAX:
		if (a->nwords >= 2) {
			if (w[1] == 0 || (a->ad.func == AGG_MIN ? v < w[0] : v > w[0]))
				w[0] = v;
			w[1]++;
		} else {
			if (first)
				w[0] = a->ad.func == AGG_MIN ? INT64_MAX : INT64_MIN;
			if (a->ad.func == AGG_MIN ? v < w[0] : v > w[0])
				w[0] = v;
		}
		break;
	case AGG_AVG:
		w[0]++;
		w[1] = (int64_t)((uint64_t)w[1] + (uint64_t)v);
		break;
	case AGG_STDDEV: {
		uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
		unsigned __int128 sq = (unsigned __int128)m * m;
		unsigned __int128 acc = ((unsigned __int128)(uint64_t)w[3] << 64) | (uint64_t)w[2];
		acc += sq;
		w[0]++;
		w[1] = (int64_t)((uint64_t)w[1] + (uint64_t)v);
		w[2] = (int64_t)(uint64_t)acc;
		w[3] = (int64_t)(uint64_t)(acc >> 64);
		break;
	}
	case AGG_QUANTIZE:
		w[dt_quantize_bucket(v)] = (int64_t)((uint64_t)w[dt_quantize_bucket(v)] + (uint64_t)incr);
		break;
	case AGG_LQUANTIZE: {
		unsigned b = dt_lquantize_bucket(v, a->ad.lq_base, a->ad.lq_levels,
						 (unsigned)a->ad.lq_step);
		w[b] = (int64_t)((uint64_t)w[b] + (uint64_t)incr);
		break;
	}
	case AGG_LLQUANTIZE: {
		unsigned b = dt_llquantize_bucket(&a->ad, v);
		assert_true(b < a->ad.nbuckets);
		w[b] = (int64_t)((uint64_t)w[b] + (uint64_t)incr);
		break;
	}
	}
}

/* @a[key] = func(v) on CPU 0. */
static inline void fk_put(struct fake *f, struct fk_agg *a, const struct fk_key *kb, int64_t v)
{
	fk_apply(f, a, kb, 0, v, 1);
}

static inline struct fk_agg *fk_of(struct fake *f, const struct dt_aggdesc *ad)
{
	return f->aggs[ad->id];
}

static inline int fk_read(void *ctx, const struct dt_aggdesc *ad, struct dt_aggsnap *snap)
{
	struct fake *f = ctx;
	struct fk_agg *a = fk_of(f, ad);

	for (size_t i = 0; i < a->n; i++) {
		int rc = dt_aggsnap_add(snap, a->ents[i].key, a->ents[i].vals, f->ncpus,
					a->nwords * 8);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static inline struct fk_ent *fk_lookup(struct fk_agg *a, const uint8_t *key)
{
	for (size_t i = 0; i < a->n; i++)
		if (memcmp(a->ents[i].key, key, a->ad.key_size) == 0)
			return &a->ents[i];
	return NULL;
}

static inline int fk_reset(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys,
			   size_t n)
{
	struct fake *f = ctx;
	struct fk_agg *a = fk_of(f, ad);

	for (size_t i = 0; i < n; i++) {
		struct fk_ent *e = fk_lookup(a, keys[i]);
		if (e == NULL)
			continue;
		for (int c = 0; c < f->ncpus; c++)
			dt_aggval_empty(ad, e->vals + (size_t)c * a->nwords, a->nwords);
	}
	return 0;
}

static inline void fk_free_ent(struct fk_ent *e)
{
	free(e->key);
	free(e->vals);
	free(e->touched);
}

static inline int fk_remove(void *ctx, const struct dt_aggdesc *ad, const uint8_t *const *keys,
			    size_t n)
{
	struct fake *f = ctx;
	struct fk_agg *a = fk_of(f, ad);

	for (size_t i = 0; i < n; i++) {
		struct fk_ent *e = fk_lookup(a, keys[i]);
		if (e == NULL)
			continue;
		fk_free_ent(e);
		*e = a->ents[--a->n];
	}
	return 0;
}

static inline struct fake *fk_open(int ncpus)
{
	struct fake *f = calloc(1, sizeof(*f));
	int err;

	assert_non_null(f);
	f->ncpus = ncpus;
	f->seen_word = true;
	f->dtp = dtrace_open(0, &err);
	assert_non_null(f->dtp);
	struct dt_agg_source src = { .ctx = f, .read = fk_read, .reset = fk_reset,
				     .remove = fk_remove };
	assert_int_equal(dt_agg_set_source(f->dtp->cons, &src), 0);
	return f;
}

static inline void fk_close(struct fake *f)
{
	dt_agg_fini(f->dtp->cons);
	dtrace_close(f->dtp);
	for (int i = 0; i < f->naggs; i++) {
		for (size_t j = 0; j < f->aggs[i]->n; j++)
			fk_free_ent(&f->aggs[i]->ents[j]);
		free(f->aggs[i]->ents);
		free(f->aggs[i]);
	}
	free(f);
}

/* ---- running the consumer ------------------------------------------------ */

/* dtrace_aggregate_print()'s output (caller frees). */
static inline char *fk_exit_print(struct fake *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(dtrace_aggregate_print(f->dtp, fp), 0);
	fclose(fp);
	return buf;
}

/* The printf engine's idea of a key's type, for checking a printa() format. */
static inline struct dt_pf_argtype fk_argtype(const struct dt_aggkey *k)
{
	struct dt_pf_argtype t = { .kind = DT_PFA_INT, .size = k->type_size,
				   .is_signed = k->is_signed, .name = "int" };

	switch (k->kind) {
	case DT_AGGKEY_STRING:
		t.kind = DT_PFA_STRING;
		t.size = k->size;
		t.name = "string";
		break;
	case DT_AGGKEY_STACK:
	case DT_AGGKEY_USTACK:
		t.kind = DT_PFA_STACK;
		t.name = "stack";
		break;
	case DT_AGGKEY_SYM:
	case DT_AGGKEY_MOD:
		t.kind = DT_PFA_SYMADDR;
		t.size = 8;
		t.name = "_symaddr";
		break;
	case DT_AGGKEY_USYM:
	case DT_AGGKEY_UMOD:
		t.kind = DT_PFA_USYMADDR;
		t.size = 8;
		t.name = "_usymaddr";
		break;
	default:
		if (k->type_size == 8)
			t.name = k->is_signed ? "int64_t" : "uint64_t";
		break;
	}
	return t;
}

/* printa(fmt, @a, ...) or printa(@a) when fmt is NULL; appends to *out. */
static inline int fk_printa_rc(struct fake *f, struct dt_strbuf *out, const char *fmt,
			       const uint32_t *ids, int n)
{
	struct dt_pf_format *pf = NULL;
	struct dt_pf_error err;

	if (fmt != NULL) {
		const struct dt_aggdesc *ad = &f->aggs[ids[0]]->ad;
		struct dt_pf_argtype t[FK_MAXKEYS];
		struct dt_pf_check_opts o = { .func = "printa", .first_argno = 1,
					      .aggregation = true,
					      .agg_is_count = ad->func == AGG_COUNT };

		for (int i = 0; i < ad->nkeys; i++)
			t[i] = fk_argtype(&ad->keys[i]);
		if (dt_pf_parse(fmt, &pf, &err) != 0)
			fail_msg("parse \"%s\": %s", fmt, err.msg);
		if (dt_pf_check(pf, &o, t, (size_t)ad->nkeys, &err) != 0)
			fail_msg("check \"%s\": %s", fmt, err.msg);
	}
	int rc = dt_agg_printa(f->dtp->cons, out, pf, ids, n);
	dt_pf_free(pf);
	return rc;
}

static inline void fk_printa(struct fake *f, struct dt_strbuf *out, const char *fmt,
			     const uint32_t *ids, int n)
{
	int rc = fk_printa_rc(f, out, fmt, ids, n);

	if (rc != 0)
		fail_msg("printa: %d %s", rc, dtrace_errmsg(f->dtp));
}

static inline void fk_printa1(struct fake *f, struct dt_strbuf *out, const char *fmt,
			      const struct fk_agg *a)
{
	fk_printa(f, out, fmt, &a->ad.id, 1);
}

/* A readable report of where two outputs part. */
#define assert_output(expect, got) do {						\
	const char *e_ = (expect), *g_ = (got) ? (got) : "";			\
	if (strcmp(e_, g_) != 0) {						\
		size_t i_ = 0;							\
		while (e_[i_] && e_[i_] == g_[i_]) i_++;			\
		fprintf(stderr, "outputs differ at byte %zu\n--- expected\n%s\n--- got\n%s\n", \
			i_, e_, g_);						\
		fail();								\
	}									\
} while (0)

#endif
