/* Stack and symbol actions of records (stack_print.h). */
#include "consumer/stack_print.h"

#include <string.h>

#include "base/core.h"
#include "base/rdesc.h"
#include "base/stack.h"
#include "consumer/agg_impl.h"
#include "consumer/consumer.h"
#include "consumer/datum.h"
#include "consumer/printf.h"
#include "consumer/symbolize.h"

/* The item as the aggregation key of the same kind it is laid out as. */
static struct dt_aggkey as_key(const struct dt_ritem *it)
{
	struct dt_aggkey k = { .size = it->size, .type = it->type };

	switch (it->kind) {
	case RK_STACK: k.kind = DT_AGGKEY_STACK; break;
	case RK_USTACK: k.kind = DT_AGGKEY_USTACK; break;
	case RK_SYM: k.kind = DT_AGGKEY_SYM; break;
	case RK_MOD: k.kind = DT_AGGKEY_MOD; break;
	case RK_USYM: k.kind = DT_AGGKEY_USYM; break;
	case RK_UMOD: k.kind = DT_AGGKEY_UMOD; break;
	default: k.kind = DT_AGGKEY_UADDR; break;
	}
	return k;
}

static int stackindent(const struct dt_consumer *cs)
{
	int64_t i = cs->core->opts.stackindent;

	return i >= 0 && i <= 1024 ? (int)i : 14;
}

void dt_print_stack_item(struct dt_consumer *cs, struct dt_strbuf *sb, const struct dt_ritem *it,
			 const char *rec)
{
	const struct dt_pf_syms *syms = dt_syms(cs);
	const uint8_t *p = (const uint8_t *)rec + it->off;
	struct dt_aggkey k = as_key(it);

	switch (it->kind) {
	case RK_STACK: {
		uint64_t pcs[DT_STACK_MAXFRAMES + 1];
		size_t n = it->size / 8 < DT_STACK_MAXFRAMES + 1 ? it->size / 8 : DT_STACK_MAXFRAMES + 1;
		memcpy(pcs, p, n * 8);
		dt_syms_kstack_trim(cs, pcs, n);
		dt_format_stack(sb, syms, false, 0, pcs, n, stackindent(cs));
		return;
	}
	case RK_USTACK:
		if (it->size >= 16)
			dt_format_stack(sb, syms, true, dt_agg_load_uint(p, 8),
					(const uint64_t *)(const void *)(p + 8), it->size / 8 - 1,
					stackindent(cs));
		return;
	default: {
		struct dt_strbuf t;

		dt_sb_init(&t);
		dt_agg_sym_text(&t, syms, &k, p);
		dt_sb_printf(sb, "  %-50s", t.s != NULL ? t.s : "");
		if (t.oom)
			sb->oom = true;
		dt_sb_free(&t);
		return;
	}
	}
}

int dt_datum_stack_item(struct dt_consumer *cs, struct dt_datums *d, const struct dt_ritem *it,
			const char *rec)
{
	struct dt_aggkey k = as_key(it);

	if (it->kind == RK_STACK) {
		uint64_t pcs[DT_STACK_MAXFRAMES + 1];
		size_t n = it->size / 8 < DT_STACK_MAXFRAMES + 1 ? it->size / 8 : DT_STACK_MAXFRAMES + 1;
		memcpy(pcs, rec + it->off, n * 8);
		dt_syms_kstack_trim(cs, pcs, n);
		k.size = (uint32_t)(n * 8);
		return dt_datum_aggkey(d, &k, (const uint8_t *)pcs, dt_syms(cs));
	}
	return dt_datum_aggkey(d, &k, (const uint8_t *)rec + it->off, dt_syms(cs));
}
