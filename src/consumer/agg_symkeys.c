/*
 * sym(), func(), mod(), usym(), ufunc() and umod() keys aggregate by
 * function or module, as DTrace's consumer makes them (dt_aggregate_sym,
 * dt_aggregate_usym & co.): each such key's address becomes the first
 * address of its function (or module), and entries whose keys become
 * equal are merged.  uaddr() keys keep their addresses.  Kernel stack
 * keys lose their spare frame (or a leading __traceiter_<tp>() frame) and
 * merge likewise.
 */
#include "consumer/agg_symkeys.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "consumer/agg_impl.h"
#include "consumer/symbolize.h"

static bool is_symkey(enum dt_aggkey_kind k)
{
	return k == DT_AGGKEY_SYM || k == DT_AGGKEY_MOD || k == DT_AGGKEY_USYM ||
	       k == DT_AGGKEY_UMOD || k == DT_AGGKEY_STACK;
}

static void normalize_key(struct dt_consumer *cs, const struct dt_aggkey *k, uint8_t *p)
{
	bool user = k->kind == DT_AGGKEY_USYM || k->kind == DT_AGGKEY_UMOD;
	bool mod = k->kind == DT_AGGKEY_MOD || k->kind == DT_AGGKEY_UMOD;
	uint8_t *ap = user ? p + 8 : p;
	uint64_t addr, start, pid = 0;
	bool ok;

	if (k->kind == DT_AGGKEY_STACK) {
		/* The tracepoint iterator's frame or the spare one goes (cg_stack.h). */
		uint64_t pcs[DT_STACK_MAXFRAMES + 1];
		size_t n = k->size / 8 < DT_STACK_MAXFRAMES + 1 ? k->size / 8 : DT_STACK_MAXFRAMES + 1;
		memcpy(pcs, p, n * 8);
		dt_syms_kstack_trim(cs, pcs, n);
		memcpy(p, pcs, n * 8);
		return;
	}

	if (k->size < (user ? 16u : 8u))
		return;
	memcpy(&addr, ap, 8);
	if (user) {
		memcpy(&pid, p, 8);
		ok = pid != 0 && pid <= INT32_MAX &&
		     dt_syms_ustart(cs, (pid_t)pid, addr, mod, &start);
	} else {
		ok = dt_syms_kstart(cs, addr, mod, &start);
	}
	if (ok)
		memcpy(ap, &start, 8);
}

static int cmp_keys(const void *x, const void *y, void *arg)
{
	const size_t *len = arg;
	const uint8_t *a = *(const uint8_t *const *)x, *b = *(const uint8_t *const *)y;
	int c = memcmp(a, b, *len);

	/* Equal keys keep their order: the first is the one kept. */
	return c != 0 ? c : (a < b ? -1 : a > b);
}

/* Fold entry src into dst: the merged value and each CPU's. */
static void fold(const struct dt_aggsnap *s, uint8_t *dst, const uint8_t *src)
{
	dt_aggval_fold(s->ad, (int64_t *)(void *)(dst + s->valoff),
		       (const int64_t *)(const void *)(src + s->valoff), s->nwords);
	for (int c = 0; c < s->ncpus; c++)
		dt_aggval_fold(s->ad, (int64_t *)(void *)(dst + s->cpuoff) + (size_t)c * s->nwords,
			       (const int64_t *)(const void *)(src + s->cpuoff) +
				       (size_t)c * s->nwords,
			       s->nwords);
}

int dt_aggsnap_symkeys(struct dt_consumer *cs, struct dt_aggsnap *s)
{
	const struct dt_aggdesc *ad = s->ad;
	bool any = false;

	for (int i = 0; i < ad->nkeys; i++)
		any |= is_symkey(ad->keys[i].kind);
	if (!any || s->n == 0)
		return 0;
	for (size_t e = 0; e < s->n; e++) {
		uint8_t *ent = dt_aggsnap_ent(s, e);
		for (int i = 0; i < ad->nkeys; i++)
			if (is_symkey(ad->keys[i].kind))
				normalize_key(cs, &ad->keys[i], ent + ad->keys[i].off);
	}
	uint8_t **order = malloc(s->n * sizeof(*order));
	uint8_t *data = malloc(s->n * s->stride);
	if (order == NULL || data == NULL) {
		free(order);
		free(data);
		return -ENOMEM;
	}
	for (size_t e = 0; e < s->n; e++)
		order[e] = dt_aggsnap_ent(s, e);
	size_t klen = ad->key_size;
	qsort_r(order, s->n, sizeof(*order), cmp_keys, &klen);
	size_t n = 0;
	for (size_t e = 0; e < s->n; e++) {
		uint8_t *prev = n > 0 ? data + (n - 1) * s->stride : NULL;
		if (prev != NULL && memcmp(prev, order[e], klen) == 0) {
			fold(s, prev, order[e]);
			continue;
		}
		memcpy(data + n * s->stride, order[e], s->stride);
		n++;
	}
	free(order);
	free(s->data);
	s->data = data;
	s->n = n;
	s->cap = s->n;
	return 0;
}
