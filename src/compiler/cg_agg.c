/*
 * Aggregations: @name[keys] = func(args) becomes a lookup in the
 * aggregation's per-CPU hash (key tuple built on the stack or in scratch)
 * and an update of the value in place; a missing key is inserted with the
 * update already applied.  A full map counts an aggregation drop.  An
 * aggregation without keys is the one entry of a per-CPU array: a lookup
 * and the update, nothing to insert, nothing to drop.
 */
#include <errno.h>
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/object.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/walk.h"

/* Where a buffer lives: a stack slot or a scratch offset. */
struct buf {
	bool stack;
	int off;
};

static struct buf buf_alloc(struct dt_cg *cg, uint32_t size)
{
	struct buf b;

	if (size <= 64) {
		b.stack = true;
		b.off = cg_stack_alloc(cg, (int)size);
	} else {
		b.stack = false;
		b.off = (int)cg_scratch_reserve(cg, size);
	}
	return b;
}

/* A register pointing at the buffer (+ off). */
static int buf_ptr(struct dt_cg *cg, struct buf b, uint32_t off)
{
	int r = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(r, b.stack ? BPF_FP : REG_SCRATCH));
	if (b.off + (int)off != 0)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, b.off + (int)off));
	return r;
}

/*
 * Whether a key component fills all of its bytes [off, off + size): an
 * integer (an 8-byte store), a string copied (cg_strcpy zeroes what
 * follows the NUL), so that they need no zeroing first.  Not execname
 * read straight into the key: bpf_get_current_comm() leaves what follows
 * the NUL as it was before Linux 6.2 (strscpy, not strscpy_pad).
 */
static bool key_fills(const struct dt_aggkey *ak, bool comm)
{
	return ak->kind == DT_AGGKEY_INT || (ak->kind == DT_AGGKEY_STRING && !comm);
}

static bool key_is_comm(struct dt_cg *cg, const struct dt_aggkey *ak, const struct dt_node *k)
{
	return ak->kind == DT_AGGKEY_STRING && k->kind == N_IDENT && k->id &&
	       k->id->kind == IDK_BVAR && k->id->code == BV_EXECNAME && ak->size >= 16 &&
	       !cg_bvar_other_thread(cg);
}

/* Zero the key's 8-byte words that no component fills whole (padding, stacks). */
static void zero_key_gaps(struct dt_cg *cg, struct dt_aggdesc *ad, struct dt_node *keys,
			  struct buf kb)
{
	uint32_t words = DT_ALIGN(ad->key_size, 8) / 8;
	int p = -1, i = 0;

	for (uint32_t w = 0; w < words; w++) {
		bool filled = false;
		i = 0;
		for (struct dt_node *k = keys; k != NULL && !filled; k = k->next, i++) {
			const struct dt_aggkey *ak = &ad->keys[i];
			filled = ak->off <= 8 * w && 8 * w + 8 <= ak->off + ak->size &&
				 key_fills(ak, key_is_comm(cg, ak, k));
		}
		if (filled)
			continue;
		if (p < 0)
			p = buf_ptr(cg, kb, 0);
		cg_emit(cg, I_ST(BPF_DW, p, (int16_t)(8 * w), 0));
	}
	cg_reg_free(cg, p);
}

static void build_key(struct dt_cg *cg, struct dt_aggdesc *ad, struct dt_node *keys, struct buf kb)
{
	int i = 0;

	zero_key_gaps(cg, ad, keys, kb);
	for (struct dt_node *k = keys; k != NULL; k = k->next, i++) {
		struct dt_aggkey *ak = &ad->keys[i];
		if (ak->kind == DT_AGGKEY_STRING) {
			int dst = buf_ptr(cg, kb, ak->off);
			if (key_is_comm(cg, ak, k)) {
				/* execname straight into the key. */
				int a[2] = { dst, cg_reg_alloc(cg) };
				cg_emit(cg, I_MOV64_IMM(a[1], 16));
				cg_call_helper_void(cg, BPF_FUNC_get_current_comm, a, 2);
				continue;
			}
			int s = cg_expr_string(cg, k);
			cg_strcpy(cg, dst, s, ak->size);
			continue;
		}
		if (ak->kind != DT_AGGKEY_INT) {
			/* stack(), ustack(), sym() & co. */
			cg_stack_key(cg, k, ak, buf_ptr(cg, kb, ak->off));
			continue;
		}
		int v = cg_expr(cg, k);
		cg_normalize(cg, v, ak->type);
		int p = buf_ptr(cg, kb, ak->off);
		cg_emit(cg, I_STX(BPF_DW, p, v, 0));
		cg_reg_free(cg, p);
		cg_reg_free(cg, v);
	}
}

/* Bound a bucket index register to [0, n-1] for the verifier. */
static void clamp(struct dt_cg *cg, int idx, uint32_t n)
{
	int ok = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JLE, idx, (int32_t)(n - 1), ok);
	cg_emit(cg, I_MOV64_IMM(idx, (int32_t)(n - 1)));
	cg_label_place(cg, ok);
}

static bool bucketed(const struct dt_aggdesc *ad)
{
	return ad->func == AGG_QUANTIZE || ad->func == AGG_LQUANTIZE || ad->func == AGG_LLQUANTIZE;
}

/*
 * *(p + off) += incr, off the bucket's byte offset; incr < 0: by one.
 * off is left pointing at the bucket, p as it was: p is often a copy of
 * the lookup's r0, which the copy then need not be (cg_opt_copyprop.c).
 */
static void add_bucket(struct dt_cg *cg, int p, int off, int incr)
{
	int t = cg_reg_alloc(cg);

	cg_emit(cg, I_ALU64_REG(BPF_ADD, off, p));
	cg_emit(cg, I_LDX(BPF_DW, t, off, 0));
	if (incr < 0)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, 1));
	else
		cg_emit(cg, I_ALU64_REG(BPF_ADD, t, incr));
	cg_emit(cg, I_STX(BPF_DW, off, t, 0));
	cg_reg_free(cg, t);
}

/*
 * The byte offset in the value of the bucket of `val` (a new register),
 * bounded: computed before the lookup, so that it waits in a register the
 * calls keep, not in a stack slot, and the hit and the insert paths
 * share one update.
 */
static int bucket_off(struct dt_cg *cg, struct dt_aggdesc *ad, int val)
{
	int idx;

	switch (ad->func) {
	case AGG_QUANTIZE: {
		int a[1] = { val };
		idx = cg_call_func(cg, "dt_rt_quantize_bucket", a, 1);
		break;
	}
	case AGG_LQUANTIZE: {
		/* 0 below base, levels+1 at or above the limit, else 1 + (v - base)/step */
		idx = cg_reg_alloc(cg);
		int done = cg_label_new(cg), in = cg_label_new(cg);
		int lim = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(idx, 0));
		cg_mov_imm64(cg, lim, (uint64_t)ad->lq_base);
		cg_jmp_reg(cg, BPF_JSLT, val, lim, done);
		cg_mov_imm64(cg, lim, (uint64_t)(ad->lq_base + (int64_t)ad->lq_levels * ad->lq_step));
		cg_emit(cg, I_MOV64_IMM(idx, (int32_t)ad->lq_levels + 1));
		cg_jmp_reg(cg, BPF_JSGE, val, lim, done);
		cg_label_place(cg, in);
		cg_emit(cg, I_MOV64_REG(idx, val));
		cg_mov_imm64(cg, lim, (uint64_t)ad->lq_base);
		cg_emit(cg, I_ALU64_REG(BPF_SUB, idx, lim));
		if (ad->lq_step > 1)
			cg_emit(cg, I_ALU64_IMM(BPF_DIV, idx, (int32_t)ad->lq_step));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, idx, 1));
		cg_label_place(cg, done);
		cg_reg_free(cg, lim);
		cg_reg_free(cg, val);
		break;
	}
	default: {
		int a[2] = { val, cg_reg_alloc(cg) };
		uint64_t params = (uint64_t)ad->llq_factor | (uint64_t)ad->llq_lmag << 16 |
				  (uint64_t)ad->llq_hmag << 32 | (uint64_t)ad->llq_steps << 48;
		cg_mov_imm64(cg, a[1], params);
		idx = cg_call_func(cg, "dt_rt_llquantize_bucket", a, 2);
		break;
	}
	}
	clamp(cg, idx, ad->nbuckets);
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, idx, 3));
	return idx;
}

/*
 * Apply the aggregating function to the value at p (a map value): val is
 * the value aggregated, or (quantize and its kin) the bucket's offset.
 */
static void apply(struct dt_cg *cg, struct dt_aggdesc *ad, int p, int val, int incr)
{
	bool needs_t = ad->func == AGG_COUNT || ad->func == AGG_SUM || ad->func == AGG_AVG ||
		       ad->func == AGG_MIN || ad->func == AGG_MAX;
	int t = needs_t ? cg_reg_alloc(cg) : -1;

	switch (ad->func) {
	case AGG_COUNT:
		cg_emit(cg, I_LDX(BPF_DW, t, p, 0));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, 1));
		cg_emit(cg, I_STX(BPF_DW, p, t, 0));
		break;
	case AGG_SUM:
		cg_emit(cg, I_LDX(BPF_DW, t, p, 0));
		cg_emit(cg, I_ALU64_REG(BPF_ADD, t, val));
		cg_emit(cg, I_STX(BPF_DW, p, t, 0));
		break;
	case AGG_MIN:
	case AGG_MAX:
		/* value, then how many values this CPU has seen (0: none yet). */
		{
			int set = cg_label_new(cg), keep = cg_label_new(cg);
			cg_emit(cg, I_LDX(BPF_DW, t, p, 8));
			cg_jmp_imm(cg, BPF_JEQ, t, 0, set);
			cg_emit(cg, I_LDX(BPF_DW, t, p, 0));
			cg_jmp_reg(cg, ad->func == AGG_MIN ? BPF_JSGE : BPF_JSLE, val, t, keep);
			cg_label_place(cg, set);
			cg_emit(cg, I_STX(BPF_DW, p, val, 0));
			cg_label_place(cg, keep);
			cg_emit(cg, I_LDX(BPF_DW, t, p, 8));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, 1));
			cg_emit(cg, I_STX(BPF_DW, p, t, 8));
		}
		break;
	case AGG_AVG:
		cg_emit(cg, I_LDX(BPF_DW, t, p, 0));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, 1));
		cg_emit(cg, I_STX(BPF_DW, p, t, 0));
		cg_emit(cg, I_LDX(BPF_DW, t, p, 8));
		cg_emit(cg, I_ALU64_REG(BPF_ADD, t, val));
		cg_emit(cg, I_STX(BPF_DW, p, t, 8));
		break;
	case AGG_STDDEV: {
		int a[2] = { cg_reg_alloc(cg), cg_reg_alloc(cg) };
		cg_emit(cg, I_MOV64_REG(a[0], p));
		cg_emit(cg, I_MOV64_REG(a[1], val));
		cg_call_func_void(cg, "dt_rt_stddev_add", a, 2);
		break;
	}
	default:
		add_bucket(cg, p, val, incr);
		break;
	}
	cg_reg_free(cg, t);
}

/*
 * A program may use 64 maps, 14 of them its own (chain_plan.h), and the
 * ERROR clauses' with them.  A clause naming more than DIRECT_AGGS
 * aggregations reaches every one of them through arrays of maps, one array
 * per key and value size, each one map however many aggregations it holds
 * (at the cost of a helper call more per update); other clauses use their
 * aggregations' maps directly.
 */
#define DIRECT_AGGS 32

/* The distinct aggregations the clause being generated names (up to DIRECT_AGGS + 1). */
static size_t clause_aggs(struct dt_cg *cg)
{
	const struct dt_aggdesc *seen[DIRECT_AGGS + 1];
	struct dt_walk w = { 0 };
	struct dt_node *n;
	size_t k = 0;

	/* (A part of a clause cut into parts is a function of its own.) */
	struct dt_node *c = cg->clause != NULL ? cg->clause : cg->stmt->clause;

	dt_walk_push(cg->pcb, &w, c->clause.body);
	dt_walk_push(cg->pcb, &w, c->clause.pred);
	while ((n = dt_walk_pop(&w)) != NULL && k <= DIRECT_AGGS) {
		if (n->kind == N_AGG && n->id != NULL && n->id->agg != NULL) {
			size_t j = 0;
			while (j < k && seen[j] != n->id->agg)
				j++;
			if (j == k)
				seen[k++] = n->id->agg;
		}
		dt_walk_push_children(cg->pcb, &w, n);
	}
	return k;
}

/* ad's slot in the array of maps of its kind, key and value size (made on first need). */
static const struct dt_aggouter *outer_of(struct dt_cg *cg, struct dt_aggdesc *ad)
{
	struct dt_descs *d = cg->cc->descs;

	if (ad->outer < 0) {
		size_t i = 0;
		uint32_t ks = dt_agg_map_key_size(ad), vs = dt_agg_map_value_size(ad);
		while (i < d->agg_outer.n && (d->agg_outer.v[i]->keyless != dt_agg_keyless(ad) ||
					      d->agg_outer.v[i]->key_size != ks ||
					      d->agg_outer.v[i]->value_size != vs))
			i++;
		if (i == d->agg_outer.n) {
			struct dt_aggouter *o = dt_arena_zalloc(&cg->cc->core->arena, sizeof(*o));
			if (o == NULL || dt_vec_push(&d->agg_outer, o) < 0 ||
			    (o->name = dt_arena_printf(&cg->cc->core->arena, "dt_aggs_%zu", i)) == NULL)
				dt_cnomem(cg->pcb);
			o->keyless = dt_agg_keyless(ad);
			o->key_size = ks;
			o->value_size = vs;
		}
		ad->outer = (int32_t)i;
		ad->outer_slot = d->agg_outer.v[i]->n++;
	}
	return d->agg_outer.v[ad->outer];
}

/* A register holding ad's map: its fd, or (indirect) its pointer from its array; `fail` if none. */
static int agg_map(struct dt_cg *cg, struct dt_aggdesc *ad, int fail)
{
	if (!cg->agg_planned) {
		cg->agg_planned = true;
		cg->agg_indirect = cg->stmt != NULL && cg->stmt->clause != NULL &&
				   clause_aggs(cg) > DIRECT_AGGS;
	}
	if (!cg->agg_indirect) {
		int r = cg_reg_alloc(cg);
		cg_ld_map_fd(cg, r, ad->map_name);
		return r;
	}
	const struct dt_aggouter *o = outer_of(cg, ad);
	int key = cg_stack_alloc(cg, 8);
	int a[2] = { cg_reg_alloc(cg), cg_reg_alloc(cg) };
	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)key, (int32_t)ad->outer_slot));
	cg_ld_map_fd(cg, a[0], o->name);
	cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], key));
	int m = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	cg_jmp_imm(cg, BPF_JEQ, m, 0, fail);
	return m;
}

static int lookup(struct dt_cg *cg, struct dt_aggdesc *ad, struct buf kb, int fail)
{
	int a[2];

	a[0] = agg_map(cg, ad, fail);
	a[1] = buf_ptr(cg, kb, 0);
	return cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
}

/*
 * Whether an update leaves a word of a keyless aggregation's entry nonzero
 * however the entry was before: count, avg and stddev bump a count, min
 * and max a count of the values seen, quantize and its kin without an
 * increment a bucket by one.  Any other update (a sum, an increment given)
 * may leave every word zero, and sets the entry's "updated" word instead
 * (base/aggdesc.h): an aggregation never updated prints nothing.
 */
static bool update_shows(const struct dt_aggdesc *ad, bool incr_given)
{
	return ad->func != AGG_SUM && !(bucketed(ad) && incr_given);
}

/*
 * The update of a keyless aggregation: its array's entry 0, which always
 * exists, so that the lookup cannot fail (the test is for the verifier)
 * and nothing is inserted or dropped.  The key on the stack, as a
 * constant the verifier may know.
 */
static void update_keyless(struct dt_cg *cg, struct dt_aggdesc *ad, int val, int incr)
{
	int done = cg_label_new(cg);
	int key = cg_stack_alloc(cg, 8);
	int a[2];

	cg_emit(cg, I_ST(BPF_W, BPF_FP, (int16_t)key, 0));
	a[0] = agg_map(cg, ad, done);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], BPF_FP));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[1], key));
	int p = cg_call_helper(cg, BPF_FUNC_map_lookup_elem, a, 2);
	cg_jmp_imm(cg, BPF_JEQ, p, 0, done);
	if (!update_shows(ad, incr >= 0)) {
		if (ad->value_size <= INT16_MAX) {
			cg_emit(cg, I_ST(BPF_DW, p, (int16_t)ad->value_size, 1));
		} else {
			/* (Past a per-CPU value's 32k the kernel refuses the map anyway.) */
			int t = cg_reg_alloc(cg);
			cg_emit(cg, I_MOV64_REG(t, p));
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, (int32_t)ad->value_size));
			cg_emit(cg, I_ST(BPF_DW, t, 0, 1));
			cg_reg_free(cg, t);
		}
	}
	apply(cg, ad, p, val, incr);
	cg_reg_free(cg, p);
	cg_reg_free(cg, val);
	cg_reg_free(cg, incr);
	cg_label_place(cg, done);
}

void cg_agg_assign(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_node *agg = n->l, *fn = n->r;
	struct dt_aggdesc *ad = agg->id->agg;
	struct dt_node *args = fn->call.args;

	if (ad->key_size == 0)
		dt_cerror(cg->pcb, "D_UNKNOWN", n->line, "internal error: aggregation layout missing");
	/* The value and the increment first: they may use scratch and helpers. */
	int val = -1, incr = -1;
	if (ad->func != AGG_COUNT) {
		val = cg_expr(cg, args);
		cg_normalize(cg, val, args->type);
	}
	if (bucketed(ad)) {
		int pos = ad->func == AGG_QUANTIZE ? 1 : ad->func == AGG_LQUANTIZE ? 4 : 5;
		struct dt_node *inc = args;
		for (int i = 0; i < pos && inc; i++)
			inc = inc->next;
		/* (No increment: by one, an immediate.) */
		if (inc != NULL)
			incr = cg_expr(cg, inc);
	}
	if (dt_agg_keyless(ad)) {
		if (bucketed(ad))
			val = bucket_off(cg, ad, val);
		update_keyless(cg, ad, val, incr);
		return;
	}
	struct buf kb = buf_alloc(cg, ad->key_size);
	cg_check_tuple(cg, agg->agg.keys);
	build_key(cg, ad, agg->agg.keys, kb);
	/*
	 * The bucket after the key: the verifier tracks the offset exactly
	 * (it indexes the value), so each of the bucket function's outcomes
	 * is a state of its own, which the key's code (translators, string
	 * copies) would multiply.
	 */
	if (bucketed(ad))
		val = bucket_off(cg, ad, val);

	int done = cg_label_new(cg), full = cg_label_new(cg), found = cg_label_new(cg);
	int p = lookup(cg, ad, kb, full);
	cg_jmp_imm(cg, BPF_JNE, p, 0, found);
	int hit_p = p;
	cg_reg_free(cg, p);

	/*
	 * A new key: insert it with a zero value (from .rodata: no buffer to
	 * fill, no scratch) if absent, then update it as found.  A zero value
	 * updated is what DTrace's first update gives.  Whatever the insert
	 * returned, the key is looked up again: there (inserted, or by another
	 * program meanwhile), it is updated; not there (the map full, or the
	 * consumer's trunc() removed it meanwhile), the update is counted as a
	 * drop: never lost without a word.
	 */
	int a[4];
	a[0] = agg_map(cg, ad, full);
	a[1] = buf_ptr(cg, kb, 0);
	a[2] = cg_reg_alloc(cg);
	cg_ld_rodata(cg, a[2], cg_rodata_zeros(cg, ad->value_size));
	a[3] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[3], BPF_NOEXIST));
	cg_call_helper_void(cg, BPF_FUNC_map_update_elem, a, 4);
	p = lookup(cg, ad, kb, full);
	cg_jmp_imm(cg, BPF_JEQ, p, 0, full);
	/* Found either way: one update, with the value where the hit left it. */
	if (p != hit_p) {
		/* (Everything the insert took is given back by now: cg_reg_claim checks.) */
		cg_reg_claim(cg, hit_p);
		cg_emit(cg, I_MOV64_REG(hit_p, p));
		cg_reg_free(cg, p);
		p = hit_p;
	}
	cg_label_place(cg, found);
	apply(cg, ad, p, val, incr);
	cg_ja(cg, done);
	/* Nothing of the update is needed past it: the drop count's call keeps no register. */
	cg_reg_free(cg, p);
	cg_reg_free(cg, val);
	cg_reg_free(cg, incr);
	cg_label_place(cg, full);
	cg_count_drop(cg, CPU_AGG_DROPS);
	cg_label_place(cg, done);
}
