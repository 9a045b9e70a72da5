/*
 * The default layout of aggregation entries, as dtrace_aggregate_print()
 * and printa() without a format print them (dt_consume.c: dt_print_datum,
 * dt_print_aggs): each key, then the value, then with aggpercpu each CPU's.
 */
#include "consumer/agg_impl.h"

#include <string.h>

#include "base/aggdesc.h"

/* An integer key as DTrace prints a record of its type's size. */
static void print_int_key(struct dt_strbuf *out, const struct dt_aggkey *k, const uint8_t *p)
{
	uint64_t v = dt_agg_load_uint(p, dt_agg_int_size(k->size) ? k->size : 8);

	switch (k->type_size) {
	case 8:
		dt_sb_printf(out, " %16lld", (long long)v);
		break;
	case 4:
		dt_sb_printf(out, " %8d", (int)(uint32_t)v);
		break;
	case 2:
		/* read unsigned, as DTrace reads the record: (short)-1 is 65535 */
		dt_sb_printf(out, " %5d", (int)(uint16_t)v);
		break;
	case 1:
		dt_sb_printf(out, " %3d", (int)(uint8_t)v);
		break;
	default:
		dt_format_bytes(out, p, k->size, 50, false);
		break;
	}
}

/* DTrace's sym()/usym() show the function, not the offset into it. */
static void strip_offset(struct dt_strbuf *sb)
{
	char *plus = sb->s != NULL ? strrchr(sb->s, '+') : NULL;

	if (plus != NULL && strncmp(plus, "+0x", 3) == 0 && strchr(plus, '`') == NULL) {
		*plus = '\0';
		sb->len = (size_t)(plus - sb->s);
	}
}

/* The text of a symbol-like key: "mod`func", "mod", or "0x..." when unknown. */
void dt_agg_sym_text(struct dt_strbuf *sb, const struct dt_pf_syms *syms,
		     const struct dt_aggkey *k, const uint8_t *p)
{
	bool user = k->kind == DT_AGGKEY_USYM || k->kind == DT_AGGKEY_UMOD ||
		    k->kind == DT_AGGKEY_UADDR;
	uint64_t pid = user ? dt_agg_load_uint(p, 8) : 0;
	uint64_t addr = dt_agg_load_uint(user ? p + 8 : p, 8);
	int rc = -1;

	if (syms != NULL) {
		switch (k->kind) {
		case DT_AGGKEY_SYM:
			rc = syms->kaddr ? syms->kaddr(syms->ctx, addr, sb) : -1;
			break;
		case DT_AGGKEY_MOD:
			rc = syms->kmod ? syms->kmod(syms->ctx, addr, sb) : -1;
			break;
		case DT_AGGKEY_USYM: {
			/* As DTrace: usym() is the function's own address (its offset under noresolve). */
			uint64_t start;
			if (syms->ustart != NULL && syms->ustart(syms->ctx, pid, addr, &start))
				addr = start;
		}
			/* FALLTHROUGH */
		case DT_AGGKEY_UADDR:
			rc = syms->uaddr ? syms->uaddr(syms->ctx, pid, addr, sb) : -1;
			break;
		default:
			rc = syms->umod ? syms->umod(syms->ctx, pid, addr, sb) : -1;
			break;
		}
	}
	if (rc != 0) {
		dt_sb_reset(sb);
		dt_sb_printf(sb, "0x%llx", (unsigned long long)addr);
	} else if (k->kind == DT_AGGKEY_SYM || k->kind == DT_AGGKEY_USYM) {
		strip_offset(sb);
	}
}

void dt_agg_key_text(struct dt_strbuf *sb, const struct dt_pf_syms *syms,
		     const struct dt_aggkey *k, const uint8_t *p)
{
	uint64_t v;

	switch (k->kind) {
	case DT_AGGKEY_INT:
		v = dt_agg_load_uint(p, dt_agg_int_size(k->size) ? k->size : 8);
		switch (k->type_size) {
		case 4: dt_sb_printf(sb, "%d", (int)(uint32_t)v); return;
		case 2: dt_sb_printf(sb, "%d", (int)(uint16_t)v); return;
		case 1: dt_sb_printf(sb, "%d", (int)(uint8_t)v); return;
		default: dt_sb_printf(sb, "%lld", (long long)v); return;
		}
	case DT_AGGKEY_STRING:
		dt_sb_putn(sb, (const char *)p, strnlen((const char *)p, k->size));
		return;
	case DT_AGGKEY_STACK:
	case DT_AGGKEY_USTACK:
		return;
	default:
		dt_agg_sym_text(sb, syms, k, p);
		return;
	}
}

static void print_key_comp(struct dt_strbuf *out, const struct dt_aggprint *pc,
			   const struct dt_aggkey *k, const uint8_t *p)
{
	switch (k->kind) {
	case DT_AGGKEY_INT:
		print_int_key(out, k, p);
		return;
	case DT_AGGKEY_STRING:
		if (pc->rawbytes)
			dt_format_rawbytes(out, p, k->size);
		else
			dt_format_bytes(out, p, k->size, 50, false);
		return;
	case DT_AGGKEY_STACK:
		dt_format_stack(out, pc->syms, false, 0, (const uint64_t *)(const void *)p,
				k->size / 8, pc->stackindent);
		return;
	case DT_AGGKEY_USTACK:
		if (k->size >= 16)
			dt_format_stack(out, pc->syms, true, dt_agg_load_uint(p, 8),
					(const uint64_t *)(const void *)(p + 8), k->size / 8 - 1,
					pc->stackindent);
		return;
	default: {
		struct dt_strbuf t;

		dt_sb_init(&t);
		dt_agg_sym_text(&t, pc->syms, k, p);
		dt_sb_printf(out, "  %-50s", t.s != NULL ? t.s : "");
		if (t.oom)
			out->oom = true;
		dt_sb_free(&t);
		return;
	}
	}
}

void dt_agg_print_key(struct dt_strbuf *out, const struct dt_aggprint *pc,
		      const struct dt_aggdesc *ad, const uint8_t *key)
{
	for (int i = 0; i < ad->nkeys; i++)
		print_key_comp(out, pc, &ad->keys[i], key + ad->keys[i].off);
}

void dt_agg_print_value(struct dt_strbuf *out, const struct dt_aggdesc *ad, const int64_t *w,
			uint64_t normal)
{
	switch (ad->func) {
	case AGG_AVG:
		dt_sb_printf(out, " %16lld", (long long)dt_aggval_avg(w, normal));
		break;
	case AGG_STDDEV:
		dt_sb_printf(out, " %16llu", (unsigned long long)dt_aggval_stddev(w, normal));
		break;
	case AGG_QUANTIZE:
		dt_agg_print_quantize(out, w, normal);
		break;
	case AGG_LQUANTIZE:
		dt_agg_print_lquantize(out, ad, w, normal);
		break;
	case AGG_LLQUANTIZE:
		dt_agg_print_llquantize(out, ad, w, normal);
		break;
	default:
		/* count, sum, min, max: one 64-bit record */
		dt_sb_printf(out, " %16lld", dt_aggval_normal(w[0], normal));
		break;
	}
}

/* The value, then with aggpercpu each CPU's ("\n    [CPU n]" and the datum). */
void dt_agg_print_value_cpus(struct dt_strbuf *out, const struct dt_aggsnap *s,
			     const uint8_t *e, uint64_t normal, bool is_zero)
{
	int64_t tmp[2];

	dt_agg_print_value(out, s->ad, dt_aggent_val(s, e), normal);
	if (is_zero)
		return;		/* DTrace's zero-filled data has no per-CPU part */
	for (int c = 0; c < s->ncpus; c++) {
		dt_sb_printf(out, "\n    [CPU %d]", c);
		dt_agg_print_value(out, s->ad,
				   dt_aggval_cpu_view(s->ad, dt_aggent_cpu(s, e, c), s->nwords, tmp),
				   normal);
	}
}

void dt_agg_print_entry(struct dt_strbuf *out, const struct dt_aggprint *pc,
			const struct dt_aggsnap *s, const uint8_t *e, uint64_t normal)
{
	dt_agg_print_key(out, pc, s->ad, e);
	dt_agg_print_value_cpus(out, s, e, normal, false);
	dt_sb_putc(out, '\n');
}
