/*
 * printa() with a format (dt_printf.c: dtrace_fprinta, dt_printf_format):
 * each entry's keys become the format's arguments, each aggregation's
 * value a %@ argument, printed by the printf engine.  avg() and stddev()
 * are computed as pfprint_average/pfprint_stddev do; the histograms are
 * rendered as text, which %@ prints whatever its width.
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/aggdesc.h"

int dt_aggfmt_init(struct dt_aggfmt *a, size_t nkeys, size_t nvals)
{
	memset(a, 0, sizeof(*a));
	a->nkeys = nkeys;
	a->nvals = nvals;
	a->keys = calloc(nkeys + 1, sizeof(*a->keys));
	a->keyval = calloc(nkeys + 1, sizeof(*a->keyval));
	a->vals = calloc(nvals, sizeof(*a->vals));
	a->scratch = calloc(nvals, sizeof(*a->scratch));
	a->text = calloc(nvals, sizeof(*a->text));
	if (a->keys == NULL || a->keyval == NULL || a->vals == NULL || a->scratch == NULL ||
	    a->text == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < nvals; i++)
		dt_sb_init(&a->text[i]);
	return 0;
}

void dt_aggfmt_fini(struct dt_aggfmt *a)
{
	if (a->text != NULL)
		for (size_t i = 0; i < a->nvals; i++)
			dt_sb_free(&a->text[i]);
	free(a->keys);
	free(a->keyval);
	free(a->vals);
	free(a->scratch);
	free(a->text);
}

/* Narrow a stored integer to `size` bytes in native order. */
static void *narrow(uint64_t *slot, uint64_t v, uint32_t size)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1: memcpy(slot, &u8, 1); break;
	case 2: memcpy(slot, &u16, 2); break;
	case 4: memcpy(slot, &u32, 4); break;
	default: *slot = v; break;
	}
	return slot;
}

void dt_aggfmt_keys(struct dt_aggfmt *a, const struct dt_aggdesc *ad, const uint8_t *key)
{
	for (int i = 0; i < ad->nkeys; i++) {
		const struct dt_aggkey *k = &ad->keys[i];
		const uint8_t *p = key + k->off;
		struct dt_pf_arg *g = &a->keys[i];

		*g = (struct dt_pf_arg){ .src = DT_PF_REC, .data = p, .size = k->size };
		switch (k->kind) {
		case DT_AGGKEY_INT:
			if (dt_agg_int_size(k->type_size)) {
				uint64_t v = dt_agg_load_uint(p, dt_agg_int_size(k->size) ? k->size : 8);

				g->data = narrow(&a->keyval[i], v, k->type_size);
				g->size = k->type_size;
			}
			break;
		case DT_AGGKEY_STACK:
			g->src = DT_PF_KSTACK;
			break;
		case DT_AGGKEY_USTACK:
			g->src = DT_PF_USTACK;
			break;
		case DT_AGGKEY_MOD:
			g->src = DT_PF_KMOD;
			break;
		case DT_AGGKEY_UMOD:
			g->src = DT_PF_UMOD;
			break;
		default:
			break;
		}
	}
}

/* %@ of one aggregation (pfprint_average/stddev/quantize & co). */
void dt_aggfmt_value(struct dt_aggfmt *a, size_t i, const struct dt_aggsnap *s,
		     const uint8_t *e, uint64_t normal)
{
	const int64_t *w = dt_aggent_val(s, e);
	struct dt_pf_arg *g = &a->vals[i];

	switch (s->ad->func) {
	case AGG_AVG:
		a->scratch[i] = dt_aggval_avg_unsigned(w, normal);
		*g = (struct dt_pf_arg){ .src = DT_PF_REC, .data = &a->scratch[i], .size = 8 };
		break;
	case AGG_STDDEV:
		a->scratch[i] = dt_aggval_stddev(w, normal);
		*g = (struct dt_pf_arg){ .src = DT_PF_REC, .data = &a->scratch[i], .size = 8 };
		break;
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE:
		dt_sb_reset(&a->text[i]);
		dt_agg_print_value(&a->text[i], s->ad, w, normal);
		*g = (struct dt_pf_arg){ .src = DT_PF_TEXT, .text = a->text[i].s };
		break;
	default:
		*g = (struct dt_pf_arg){ .src = DT_PF_REC, .data = w, .size = 8, .normal = normal };
		break;
	}
}

int dt_aggfmt_print(struct dt_strbuf *out, const struct dt_pf_format *fmt,
		    const struct dt_aggprint *pc, struct dt_aggfmt *a)
{
	for (size_t i = 0; i < a->nvals; i++)
		if (a->text[i].oom)
			return -ENOMEM;
	struct dt_pf_ctx ctx = { .syms = pc->syms, .aggvals = a->vals, .naggvals = a->nvals };
	int rc = dt_pf_format(out, fmt, a->keys, a->nkeys, &ctx);

	return rc < 0 ? rc : 0;
}
