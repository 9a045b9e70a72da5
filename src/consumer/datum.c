/* Record items and aggregation keys as public datums (datum.h). */
#include "consumer/datum.h"

#include <errno.h>
#include <string.h>

#include "base/rdesc.h"
#include "base/types.h"
#include "consumer/agg_impl.h"
#include "consumer/printf.h"

void dt_datums_reset(struct dt_datums *d)
{
	d->v.n = 0;
	d->type_off.n = 0;
	d->text_off.n = 0;
	dt_sb_reset(&d->strs);
	d->strs.oom = false;
}

void dt_datums_free(struct dt_datums *d)
{
	dt_vec_free(&d->v);
	dt_vec_free(&d->type_off);
	dt_vec_free(&d->text_off);
	dt_sb_free(&d->strs);
}

size_t dt_datums_str(struct dt_datums *d, const char *s, size_t n)
{
	size_t off = d->strs.len;

	dt_sb_putn(&d->strs, s, n);
	dt_sb_putc(&d->strs, '\0');
	return off;
}

static size_t type_name(struct dt_datums *d, struct dt_type *t, const char *dflt)
{
	size_t off = d->strs.len;

	if (t != NULL)
		dt_type_name(t, &d->strs);
	if (d->strs.len == off)
		dt_sb_puts(&d->strs, dflt);
	dt_sb_putc(&d->strs, '\0');
	return off;
}

static int push(struct dt_datums *d, const dtrace_datum_t *val, size_t type_off, size_t text_off)
{
	if (dt_vec_push(&d->v, *val) < 0 || dt_vec_push(&d->type_off, type_off) < 0 ||
	    dt_vec_push(&d->text_off, text_off) < 0)
		return -ENOMEM;
	return 0;
}

static uint64_t load_int(const void *p, size_t size, bool is_signed)
{
	union { int8_t s8; int16_t s16; int32_t s32; uint8_t u8; uint16_t u16; uint32_t u32;
		uint64_t u64; } v = { .u64 = 0 };

	memcpy(&v, p, size);
	switch (size) {
	case 1: return is_signed ? (uint64_t)(int64_t)v.s8 : v.u8;
	case 2: return is_signed ? (uint64_t)(int64_t)v.s16 : v.u16;
	case 4: return is_signed ? (uint64_t)(int64_t)v.s32 : v.u32;
	default: return v.u64;
	}
}

static bool is_char_array(struct dt_type *t)
{
	t = t != NULL ? dt_type_base(t) : NULL;
	if (t == NULL || t->kind != TK_ARRAY || t->base == NULL)
		return false;
	struct dt_type *e = dt_type_base(t->base);
	return e != NULL && e->kind == TK_INT && e->size == 1 && e->is_char;
}

int dt_datum_item(struct dt_datums *d, const struct dt_ritem *it, const char *rec)
{
	dtrace_datum_t v = { .kind = DTRACE_DATA_BYTES };
	size_t toff;

	if (it->is_string || is_char_array(it->type)) {
		const char *s = it->is_const ? it->cstr : rec + it->off;
		v.kind = DTRACE_DATA_STRING;
		v.data = s;
		v.size = it->is_const ? strlen(s) : strnlen(s, it->size);
		toff = type_name(d, it->is_string ? NULL : it->type, "string");
		return push(d, &v, toff, 0);
	}
	toff = type_name(d, it->type, "int64_t");
	if (it->is_const) {
		v.kind = DTRACE_DATA_INT;
		v.is_signed = it->type == NULL || dt_type_is_signed(it->type);
		v.value = (uint64_t)it->cval;
		return push(d, &v, toff, 0);
	}
	v.data = rec + it->off;
	v.size = it->size;
	if (it->type != NULL && (dt_type_is_integer(it->type) || dt_type_is_pointer(it->type)) &&
	    (it->size == 1 || it->size == 2 || it->size == 4 || it->size == 8)) {
		v.kind = DTRACE_DATA_INT;
		v.is_signed = dt_type_is_signed(it->type) && !dt_type_is_pointer(it->type);
		v.value = load_int(v.data, it->size, v.is_signed);
	}
	return push(d, &v, toff, 0);
}

int dt_datum_int(struct dt_datums *d, const char *type, uint64_t val, int is_signed)
{
	dtrace_datum_t v = { .kind = DTRACE_DATA_INT, .is_signed = is_signed, .value = val };

	return push(d, &v, dt_datums_str(d, type, strlen(type)), 0);
}

/* Frames one per line, without the indent and the blank first line. */
static size_t stack_text(struct dt_datums *d, const struct dt_strbuf *raw)
{
	size_t off = d->strs.len;
	const char *s = raw->s != NULL ? raw->s : "";

	while (*s != '\0') {
		size_t n = strcspn(s, "\n");
		const char *p = s;
		while (p < s + n && *p == ' ')
			p++;
		if (p < s + n) {
			if (d->strs.len > off)
				dt_sb_putc(&d->strs, '\n');
			dt_sb_putn(&d->strs, p, (size_t)(s + n - p));
		}
		s += n;
		if (*s == '\n')
			s++;
	}
	dt_sb_putc(&d->strs, '\0');
	return off;
}

void dt_aggkey_type_name(const struct dt_aggkey *k, struct dt_strbuf *sb)
{
	size_t len = sb->len;

	switch (k->kind) {
	case DT_AGGKEY_STRING:
		dt_sb_puts(sb, "string");
		return;
	case DT_AGGKEY_STACK:
		dt_sb_puts(sb, "stack");
		return;
	case DT_AGGKEY_USTACK:
		dt_sb_puts(sb, "ustack");
		return;
	default:
		break;
	}
	if (k->type != NULL)
		dt_type_name(k->type, sb);
	if (sb->len > len)
		return;
	if (k->kind == DT_AGGKEY_INT)
		dt_sb_puts(sb, k->is_signed ? "int64_t" : "uint64_t");
	else
		dt_sb_puts(sb, k->kind == DT_AGGKEY_SYM || k->kind == DT_AGGKEY_MOD ? "_symaddr"
										  : "_usymaddr");
}

static size_t aggkey_type(struct dt_datums *d, const struct dt_aggkey *k)
{
	size_t off = d->strs.len;

	dt_aggkey_type_name(k, &d->strs);
	dt_sb_putc(&d->strs, '\0');
	return off;
}

int dt_datum_aggkey(struct dt_datums *d, const struct dt_aggkey *k, const uint8_t *p,
		    const struct dt_pf_syms *syms)
{
	dtrace_datum_t v = { .kind = DTRACE_DATA_INT, .data = p, .size = k->size };
	struct dt_strbuf raw;
	size_t toff, xoff;
	int rc;

	switch (k->kind) {
	case DT_AGGKEY_INT: {
		uint32_t ts = dt_agg_int_size(k->type_size) ? k->type_size : 8;
		uint64_t u = dt_agg_load_uint(p, dt_agg_int_size(k->size) ? k->size : 8);
		if (ts < 8)
			u &= (1ULL << (8 * ts)) - 1;
		if (k->is_signed && ts < 8 && (u >> (8 * ts - 1)) != 0)
			u |= ~((1ULL << (8 * ts)) - 1);	/* sign-extend */
		v.is_signed = k->is_signed;
		v.value = u;
		return push(d, &v, aggkey_type(d, k), 0);
	}
	case DT_AGGKEY_STRING:
		v.kind = DTRACE_DATA_STRING;
		v.size = strnlen((const char *)p, k->size);
		return push(d, &v, aggkey_type(d, k), 0);
	case DT_AGGKEY_STACK:
	case DT_AGGKEY_USTACK: {
		bool user = k->kind == DT_AGGKEY_USTACK;
		v.kind = DTRACE_DATA_STACK;
		dt_sb_init(&raw);
		if (!user)
			dt_format_stack(&raw, syms, false, 0, (const uint64_t *)(const void *)p,
					k->size / 8, 0);
		else if (k->size >= 16)
			dt_format_stack(&raw, syms, true, dt_agg_load_uint(p, 8),
					(const uint64_t *)(const void *)(p + 8), k->size / 8 - 1, 0);
		toff = aggkey_type(d, k);
		xoff = stack_text(d, &raw);
		if (raw.oom)
			d->strs.oom = true;
		dt_sb_free(&raw);
		return push(d, &v, toff, xoff + 1);
	}
	default: {
		bool user = k->kind == DT_AGGKEY_USYM || k->kind == DT_AGGKEY_UMOD ||
			    k->kind == DT_AGGKEY_UADDR;
		v.kind = DTRACE_DATA_SYMBOL;
		v.value = dt_agg_load_uint(user ? p + 8 : p, 8);
		dt_sb_init(&raw);
		dt_agg_sym_text(&raw, syms, k, p);
		toff = aggkey_type(d, k);
		xoff = dt_datums_str(d, raw.s != NULL ? raw.s : "", raw.len);
		rc = raw.oom ? -ENOMEM : 0;
		dt_sb_free(&raw);
		return rc < 0 ? rc : push(d, &v, toff, xoff + 1);
	}
	}
}

int dt_datums_finish(struct dt_datums *d)
{
	if (d->strs.oom)
		return -ENOMEM;
	for (size_t i = 0; i < d->v.n; i++) {
		d->v.v[i].type = d->strs.s + d->type_off.v[i];
		d->v.v[i].text = d->text_off.v[i] ? d->strs.s + d->text_off.v[i] - 1 : NULL;
	}
	return 0;
}
