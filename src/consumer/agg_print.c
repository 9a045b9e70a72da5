/*
 * Printing aggregations as DTrace does: the default layout of
 * dtrace_aggregate_print() and of printa() without a format
 * (dt_consume.c: dt_print_datum, dt_print_aggs, dt_printa), and printa()
 * with a format through the printf engine (dt_printf.c: dtrace_fprinta).
 */
#include "consumer/agg_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/ident.h"
#include "lib/dt_impl.h"

static uint64_t load_uint(const uint8_t *p, uint32_t size)
{
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } v;

	memcpy(&v, p, size);
	switch (size) {
	case 1: return v.u8;
	case 2: return v.u16;
	case 4: return v.u32;
	default: return v.u64;
	}
}

static bool int_size(uint32_t n)
{
	return n == 1 || n == 2 || n == 4 || n == 8;
}

/* An integer key as DTrace prints a record of its type's size. */
static void print_int_key(struct dt_strbuf *out, const struct dt_aggkey *k, const uint8_t *p)
{
	uint64_t v = load_uint(p, int_size(k->size) ? k->size : 8);

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
static void sym_text(struct dt_strbuf *sb, const struct dt_pf_syms *syms,
		     const struct dt_aggkey *k, const uint8_t *p)
{
	bool user = k->kind == DT_AGGKEY_USYM || k->kind == DT_AGGKEY_UMOD;
	uint64_t pid = user ? load_uint(p, 8) : 0;
	uint64_t addr = load_uint(user ? p + 8 : p, 8);
	int rc = -1;

	if (syms != NULL) {
		switch (k->kind) {
		case DT_AGGKEY_SYM:
			rc = syms->kaddr ? syms->kaddr(syms->ctx, addr, sb) : -1;
			break;
		case DT_AGGKEY_MOD:
			rc = syms->kmod ? syms->kmod(syms->ctx, addr, sb) : -1;
			break;
		case DT_AGGKEY_USYM:
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
			dt_format_stack(out, pc->syms, true, load_uint(p, 8),
					(const uint64_t *)(const void *)(p + 8), k->size / 8 - 1,
					pc->stackindent);
		return;
	default: {
		struct dt_strbuf t;

		dt_sb_init(&t);
		sym_text(&t, pc->syms, k, p);
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
static void print_value_cpus(struct dt_strbuf *out, const struct dt_aggsnap *s, const uint8_t *e,
			     uint64_t normal, bool is_zero)
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
	print_value_cpus(out, s, e, normal, false);
	dt_sb_putc(out, '\n');
}

/* ---- printa() with a format ---------------------------------------------- */

/* What the format's conversions read: the keys, then each %@ value. */
struct fmt_args {
	struct dt_pf_arg *keys;
	uint64_t *keyval;	/* integer keys narrowed to their type's size */
	struct dt_pf_arg *vals;
	uint64_t *scratch;	/* avg()/stddev() results */
	struct dt_strbuf *text;	/* rendered histograms */
	size_t nkeys, nvals;
};

static int fmt_args_init(struct fmt_args *a, size_t nkeys, size_t nvals)
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

static void fmt_args_fini(struct fmt_args *a)
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

static void set_key_args(struct fmt_args *a, const struct dt_aggdesc *ad, const uint8_t *key)
{
	for (int i = 0; i < ad->nkeys; i++) {
		const struct dt_aggkey *k = &ad->keys[i];
		const uint8_t *p = key + k->off;
		struct dt_pf_arg *g = &a->keys[i];

		*g = (struct dt_pf_arg){ .src = DT_PF_REC, .data = p, .size = k->size };
		switch (k->kind) {
		case DT_AGGKEY_INT:
			if (int_size(k->type_size)) {
				uint64_t v = load_uint(p, int_size(k->size) ? k->size : 8);

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
static void set_val_arg(struct fmt_args *a, size_t i, const struct dt_aggsnap *s,
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

static int print_fmt_row(struct dt_strbuf *out, const struct dt_pf_format *fmt,
			 const struct dt_aggprint *pc, struct fmt_args *a)
{
	for (size_t i = 0; i < a->nvals; i++)
		if (a->text[i].oom)
			return -ENOMEM;
	struct dt_pf_ctx ctx = { .syms = pc->syms, .aggvals = a->vals, .naggvals = a->nvals };
	int rc = dt_pf_format(out, fmt, a->keys, a->nkeys, &ctx);

	return rc < 0 ? rc : 0;
}

/* ---- printa() and the exit print ---------------------------------------- */

static int print_error(dtrace_hdl_t *dtp, int rc)
{
	if (rc == -ENOMEM)
		return dt_set_error(dtp, -ENOMEM, "Memory allocation failure");
	return dt_set_error(dtp, rc, "Data record list does not match statement");
}

static int printa_one(dtrace_hdl_t *dtp, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		      uint32_t aggid, const struct dt_aggprint *pc)
{
	const struct dt_aggdesc *ad = dt_agg_desc(dtp, aggid);
	struct dt_aggsort_opts o;
	struct dt_aggsnap s;
	const uint8_t **sorted = NULL;
	struct fmt_args a;
	uint64_t normal = dt_agg_normal(dtp, aggid);
	int rc;

	if (ad == NULL)
		return dtp->err;
	if ((rc = dt_agg_snapshot(dtp, ad, &s)) < 0)
		return rc;
	dt_aggsort_opts_get(dtp, &o);
	rc = fmt_args_init(&a, (size_t)ad->nkeys, 1);
	if (rc == 0)
		rc = dt_aggsnap_sort(&s, &o, &sorted);
	for (size_t i = 0; rc == 0 && i < s.n; i++) {
		if (fmt == NULL) {
			dt_agg_print_entry(out, pc, &s, sorted[i], normal);
			continue;
		}
		set_key_args(&a, ad, sorted[i]);
		set_val_arg(&a, 0, &s, sorted[i], normal);
		rc = print_fmt_row(out, fmt, pc, &a);
	}
	if (rc == 0 && s.n > 0)
		dt_agg_set_printed(dtp, aggid);
	free(sorted);
	fmt_args_fini(&a);
	dt_aggsnap_free(&s);
	return rc < 0 ? print_error(dtp, rc) : 0;
}

/* One row of a joined printa() in the default layout: keys, then each value. */
static void print_joined_row(struct dt_strbuf *out, const struct dt_aggprint *pc,
			     struct dt_aggsnap *const *snaps, const uint64_t *normals,
			     const struct dt_aggjoin *j, const uint8_t *const *row)
{
	dt_agg_print_key(out, pc, snaps[0]->ad, row[j->width]);
	for (size_t i = 0; i < j->width; i++) {
		bool is_zero = false;

		for (size_t p = 0; p < j->width; p++)
			is_zero |= row[i] == j->zero[p];
		print_value_cpus(out, snaps[i], row[i], normals[i], is_zero);
	}
	dt_sb_putc(out, '\n');
}

static int printa_joined(dtrace_hdl_t *dtp, struct dt_strbuf *out,
			 const struct dt_pf_format *fmt, const uint32_t *aggids, size_t n,
			 const struct dt_aggprint *pc)
{
	struct dt_aggsnap *store = calloc(n, sizeof(*store));
	struct dt_aggsnap **snaps = calloc(n, sizeof(*snaps));
	uint64_t *normals = calloc(n, sizeof(*normals));
	struct dt_aggsort_opts o;
	struct dt_aggjoin j = { 0 };
	struct fmt_args a = { 0 };
	size_t nsnaps = 0;
	int rc = 0;

	if (store == NULL || snaps == NULL || normals == NULL) {
		rc = print_error(dtp, -ENOMEM);
		goto out;
	}
	/* One snapshot per distinct aggregation; a repeat shares it. */
	for (size_t i = 0; i < n; i++) {
		const struct dt_aggdesc *ad = dt_agg_desc(dtp, aggids[i]);

		if (ad == NULL) {
			rc = dtp->err;
			goto out;
		}
		normals[i] = dt_agg_normal(dtp, aggids[i]);
		for (size_t k = 0; k < i && snaps[i] == NULL; k++)
			if (aggids[k] == aggids[i])
				snaps[i] = snaps[k];
		if (snaps[i] != NULL)
			continue;
		if ((rc = dt_agg_snapshot(dtp, ad, &store[nsnaps])) < 0)
			goto out;
		snaps[i] = &store[nsnaps++];
	}
	dt_aggsort_opts_get(dtp, &o);
	if ((rc = dt_agg_join(snaps, aggids, n, &o, &j)) < 0 ||
	    (rc = fmt_args_init(&a, (size_t)snaps[0]->ad->nkeys, n)) < 0) {
		rc = print_error(dtp, rc);
		goto out;
	}
	for (size_t r = 0; r < j.nrows; r++) {
		const uint8_t *const *row = j.cells + r * (n + 1);

		if (fmt == NULL) {
			print_joined_row(out, pc, snaps, normals, &j, row);
			continue;
		}
		set_key_args(&a, snaps[0]->ad, row[n]);
		for (size_t i = 0; i < n; i++)
			set_val_arg(&a, i, snaps[i], row[i], normals[i]);
		if ((rc = print_fmt_row(out, fmt, pc, &a)) < 0) {
			rc = print_error(dtp, rc);
			goto out;
		}
	}
	if (j.nrows > 0)
		for (size_t i = 0; i < n; i++)
			dt_agg_set_printed(dtp, aggids[i]);
out:
	fmt_args_fini(&a);
	dt_agg_join_free(&j);
	for (size_t i = 0; i < nsnaps; i++)
		dt_aggsnap_free(&store[i]);
	free(store);
	free(snaps);
	free(normals);
	return rc;
}

int dt_agg_printa(dtrace_hdl_t *dtp, struct dt_strbuf *out, const struct dt_pf_format *fmt,
		  const uint32_t *aggids, int naggs)
{
	struct dt_aggprint pc;

	if (naggs < 1 || aggids == NULL)
		return dt_set_error(dtp, -EINVAL, "Invalid aggregation variable identifier");
	dt_aggprint_get(dtp, &pc);
	/* printa() without a format starts with a newline (dt_printa) */
	if (fmt == NULL)
		dt_sb_putc(out, '\n');
	if (naggs == 1)
		return printa_one(dtp, out, fmt, aggids[0], &pc);
	return printa_joined(dtp, out, fmt, aggids, (size_t)naggs, &pc);
}

#define FLUSH_AT 65536

static int flush(struct dt_strbuf *sb, FILE *fp)
{
	if (sb->oom)
		return -ENOMEM;
	if (sb->len > 0 && fwrite(sb->s, 1, sb->len, fp) != sb->len)
		return -EIO;
	dt_sb_reset(sb);
	return 0;
}

static int write_error(dtrace_hdl_t *dtp, int rc)
{
	if (rc == -EIO)
		return dt_set_error(dtp, rc, "write error: %s", strerror(errno));
	return print_error(dtp, rc);
}

/* Every aggregation printa() has not printed, by id (reversed by aggsortrev). */
int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	struct dt_aggsort_opts o;
	struct dt_aggprint pc;
	struct dt_strbuf sb;
	size_t n = dtp->aggs.n;
	int rc = 0;

	dt_aggsort_opts_get(dtp, &o);
	dt_aggprint_get(dtp, &pc);
	dt_sb_init(&sb);
	for (size_t k = 0; k < n; k++) {
		uint32_t id = (uint32_t)(o.rev ? n - 1 - k : k);
		const struct dt_aggdesc *ad = dtp->aggs.v[id];
		const uint8_t **sorted = NULL;
		struct dt_aggsnap s;

		if (ad == NULL || dt_agg_printed(dtp, id))
			continue;
		if ((rc = dt_agg_snapshot(dtp, ad, &s)) < 0)
			break;		/* the error is set */
		rc = dt_aggsnap_sort(&s, &o, &sorted);
		uint64_t normal = dt_agg_normal(dtp, id);
		for (size_t i = 0; rc == 0 && i < s.n; i++) {
			dt_agg_print_entry(&sb, &pc, &s, sorted[i], normal);
			if (sb.len >= FLUSH_AT)
				rc = flush(&sb, fp);
		}
		free(sorted);
		dt_aggsnap_free(&s);
		if (rc < 0) {
			rc = write_error(dtp, rc);
			break;
		}
	}
	if (rc == 0 && (rc = flush(&sb, fp)) < 0)
		rc = write_error(dtp, rc);
	dt_sb_free(&sb);
	return rc;
}
