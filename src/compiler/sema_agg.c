/*
 * Aggregations: checking @name[keys] = func(args) and building the
 * aggregation's description (key and value layout, quantize parameters)
 * on first use; later uses must agree with it.
 */
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/stack.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"

#define TT(pcb) (&(pcb)->cc->core->types)

/* DTrace's dt_node_is_scalar: an integer or pointer, not a kind of void. */
static bool agg_scalar(struct dt_node *n)
{
	return dt_type_is_scalar(n->type) && !dt_type_is_string(n->type) &&
	       dt_type_base(n->type)->special == DT_SPECIAL_NONE;
}

static int64_t const_arg(struct dt_pcb *pcb, struct dt_node *a, const char *tag,
			 const char *fmt)
{
	if (!(a->flags & DN_CONST) || !dt_type_is_integer(a->type))
		dt_cerror(pcb, tag, a->line, "%s", fmt);
	return a->cval;
}

static void check_lquantize(struct dt_pcb *pcb, struct dt_node *fn, struct dt_aggdesc *ad,
			    bool first)
{
	struct dt_node *v = fn->call.args, *b = v->next, *l = b->next, *s = l->next;
	int64_t base = const_arg(pcb, b, "D_LQUANT_BASETYPE",
				 "lquantize( ) argument #1 must be an integer constant");
	if (base < INT32_MIN || base > INT32_MAX)
		dt_cerror(pcb, "D_LQUANT_BASEVAL", b->line, "lquantize( ) argument #1 must be a 32-bit quantity");
	int64_t lim = const_arg(pcb, l, "D_LQUANT_LIMTYPE",
				"lquantize( ) argument #2 must be an integer constant");
	if (lim < INT32_MIN || lim > INT32_MAX)
		dt_cerror(pcb, "D_LQUANT_LIMVAL", l->line, "lquantize( ) argument #2 must be a 32-bit quantity");
	if (base >= lim)
		dt_cerror(pcb, "D_LQUANT_MISMATCH", fn->line,
			  "lquantize( ) base (argument #1) must be less than limit (argument #2)");
	int64_t step = 1;
	if (s != NULL) {
		if (!(s->flags & DN_CONST) || !dt_type_is_integer(s->type) || s->cval <= 0)
			dt_cerror(pcb, "D_LQUANT_STEPTYPE", s->line,
				  "lquantize( ) argument #3 must be a non-zero positive integer constant");
		step = s->cval;
		if (step > UINT16_MAX)
			dt_cerror(pcb, "D_LQUANT_STEPVAL", s->line, "lquantize( ) argument #3 must be a 16-bit quantity");
	}
	int64_t levels = (lim - base) / step;
	if (levels == 0)
		dt_cerror(pcb, "D_LQUANT_STEPLARGE", s ? s->line : fn->line,
			  "lquantize( ) step (argument #3) too large: must have at least one quantization level");
	if (levels > UINT16_MAX)
		dt_cerror(pcb, "D_LQUANT_STEPSMALL", s ? s->line : fn->line,
			  "lquantize( ) step (argument #3) too small: number of quantization levels must be a 16-bit quantity");
	if (first) {
		ad->lq_base = base;
		ad->lq_step = step;
		ad->lq_levels = (uint32_t)levels;
		ad->nbuckets = (uint32_t)levels + 2;
		return;
	}
	if (ad->lq_base != base)
		dt_cerror(pcb, "D_LQUANT_MATCHBASE", fn->line,
			  "lquantize( ) base (argument #1) doesn't match previous declaration: expected %d, found %d",
			  (int)ad->lq_base, (int)base);
	if (ad->lq_base + (int64_t)ad->lq_levels * ad->lq_step != base + levels * step)
		dt_cerror(pcb, "D_LQUANT_MATCHLIM", fn->line,
			  "lquantize( ) limit (argument #2) doesn't match previous declaration: expected %d, found %d",
			  (int)(ad->lq_base + (int64_t)ad->lq_levels * ad->lq_step), (int)lim);
	if (ad->lq_step != step)
		dt_cerror(pcb, "D_LQUANT_MATCHSTEP", fn->line,
			  "lquantize( ) step (argument #3) doesn't match previous declaration: expected %d, found %d",
			  (int)ad->lq_step, (int)step);
}

static void check_llquantize(struct dt_pcb *pcb, struct dt_node *fn, struct dt_aggdesc *ad,
			     bool first)
{
	struct dt_node *f = fn->call.args->next, *lo = f->next, *hi = lo->next, *st = hi->next;
	int64_t factor = const_arg(pcb, f, "D_LLQUANT_FACTORTYPE",
				   "llquantize( ) argument #1 must be an integer constant");
	if (factor < 2 || factor > UINT16_MAX)
		dt_cerror(pcb, "D_LLQUANT_FACTORVAL", f->line,
			  "llquantize( ) argument #1 must be an unsigned 16-bit quantity greater than or equal to 2");
	int64_t lmag = const_arg(pcb, lo, "D_LLQUANT_LMAGTYPE",
				 "llquantize( ) argument #2 must be an integer constant");
	if (lmag < 0 || lmag > UINT16_MAX)
		dt_cerror(pcb, "D_LLQUANT_LMAGVAL", lo->line,
			  "llquantize( ) argument #2 must be an unsigned 16-bit quantity");
	int64_t hmag = const_arg(pcb, hi, "D_LLQUANT_HMAGTYPE",
				 "llquantize( ) argument #3 must be an integer constant");
	if (hmag < 0 || hmag > UINT16_MAX)
		dt_cerror(pcb, "D_LLQUANT_HMAGVAL", hi->line,
			  "llquantize( ) argument #3 must be an unsigned 16-bit quantity");
	if (hmag < lmag)
		dt_cerror(pcb, "D_LLQUANT_HMAGVAL", hi->line,
			  "llquantize( ) argument #3 (high magnitude) must be at least argument #2 (low magnitude)");
	/* factor^(hmag + 1) must fit in 64 bits. */
	uint64_t p = 1;
	for (int64_t i = 0; i <= hmag; i++) {
		if (p > UINT64_MAX / (uint64_t)factor)
			dt_cerror(pcb, "D_LLQUANT_HMAGVAL", hi->line,
				  "llquantize( ) argument #3 (high magnitude) will cause overflow of 64 bits");
		p *= (uint64_t)factor;
	}
	if (!(st->flags & DN_CONST) || !dt_type_is_integer(st->type) || st->cval <= 0)
		dt_cerror(pcb, "D_LLQUANT_STEPTYPE", st->line,
			  "llquantize( ) argument #4 must be a non-zero positive integer constant");
	int64_t steps = st->cval;
	if (steps > UINT16_MAX)
		dt_cerror(pcb, "D_LLQUANT_STEPVAL", st->line,
			  "llquantize( ) argument #4 must be an unsigned 16-bit quantity");
	if (steps < factor) {
		if (factor % steps != 0)
			dt_cerror(pcb, "D_LLQUANT_STEPVAL", st->line,
				  "llquantize() argument #4 (steps) must evenly divide argument #1 (factor) when steps<factor");
	} else if (steps > factor) {
		if (steps % factor != 0)
			dt_cerror(pcb, "D_LLQUANT_STEPVAL", st->line,
				  "llquantize() argument #4 (steps) must be a multiple of argument #1 (factor) when steps>factor");
		uint64_t pw = (uint64_t)factor;
		for (int64_t i = 0; i < (lmag == 0 ? 1 : lmag); i++)
			pw *= (uint64_t)factor;
		if (pw % (uint64_t)steps != 0) {
			if (lmag == 0)
				dt_cerror(pcb, "D_LLQUANT_STEPVAL", st->line,
					  "llquantize() argument #4 (steps) must evenly divide the square of argument #1 (factor) when steps>factor and lmag==0");
			dt_cerror(pcb, "D_LLQUANT_STEPVAL", st->line,
				  "llquantize() argument #4 (steps) must evenly divide pow(argument #1 (factor), lmag (argument #2) + 1) when steps>factor and lmag>0");
		}
	}
	if (first) {
		ad->llq_factor = (uint16_t)factor;
		ad->llq_lmag = (uint16_t)lmag;
		ad->llq_hmag = (uint16_t)hmag;
		ad->llq_steps = (uint16_t)steps;
		ad->nbuckets = dt_llquantize_nbuckets(ad->llq_factor, ad->llq_lmag, ad->llq_hmag,
						      ad->llq_steps);
		return;
	}
	if (ad->llq_factor != factor)
		dt_cerror(pcb, "D_LLQUANT_MATCHFACTOR", fn->line,
			  "llquantize() factor (argument #1) doesn't match previous declaration: expected %d, found %d",
			  ad->llq_factor, (int)factor);
	if (ad->llq_lmag != lmag)
		dt_cerror(pcb, "D_LLQUANT_MATCHLMAG", fn->line,
			  "llquantize() lmag (argument #2) doesn't match previous declaration: expected %d, found %d",
			  ad->llq_lmag, (int)lmag);
	if (ad->llq_hmag != hmag)
		dt_cerror(pcb, "D_LLQUANT_MATCHHMAG", fn->line,
			  "llquantize() hmag (argument #3) doesn't match previous declaration: expected %d, found %d",
			  ad->llq_hmag, (int)hmag);
	if (ad->llq_steps != steps)
		dt_cerror(pcb, "D_LLQUANT_MATCHSTEPS", fn->line,
			  "llquantize() steps (argument #4) doesn't match previous declaration: expected %d, found %d",
			  ad->llq_steps, (int)steps);
}

static uint32_t value_size(const struct dt_aggdesc *ad)
{
	switch (ad->func) {
	case AGG_AVG:
	case AGG_MIN:
	case AGG_MAX:
		return 16;
	case AGG_STDDEV:
		return 32;
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE:
		return 8 * ad->nbuckets;
	default:
		return 8;
	}
}

static enum dt_aggkey_kind key_kind(struct dt_node *k)
{
	struct dt_type *b = dt_type_base(k->type);

	if (k->kind == N_CALL && k->id != NULL && k->id->kind == IDK_ACTION) {
		switch (k->id->code) {
		case ACT_MOD: return DT_AGGKEY_MOD;
		case ACT_UMOD: return DT_AGGKEY_UMOD;
		case ACT_SYM: case ACT_FUNC: return DT_AGGKEY_SYM;
		case ACT_USYM: case ACT_UFUNC: return DT_AGGKEY_USYM;
		case ACT_UADDR: return DT_AGGKEY_UADDR;
		default: break;
		}
	}
	switch (b ? b->special : 0) {
	case DT_SPECIAL_STACK: return DT_AGGKEY_STACK;
	case DT_SPECIAL_USTACK: return DT_AGGKEY_USTACK;
	case DT_SPECIAL_SYMADDR: return DT_AGGKEY_SYM;
	case DT_SPECIAL_USYMADDR: return DT_AGGKEY_USYM;
	default: break;
	}
	if (dt_type_is_string(k->type) || dt_type_is_charptr(k->type))
		return DT_AGGKEY_STRING;
	return DT_AGGKEY_INT;
}

/* A key's name for output formats: a variable's (self->x and this->x: x), else NULL. */
static const char *key_name(const struct dt_node *k)
{
	if (k->kind == N_VAR)
		return k->member;
	if (k->kind == N_IDENT && k->id != NULL &&
	    (k->id->kind == IDK_BVAR || k->id->kind == IDK_GLOBAL || k->id->kind == IDK_INLINE))
		return k->id->name;
	return NULL;
}

/* `timestamp - x` (and vtimestamp, walltimestamp), under casts: nanoseconds. */
static bool is_time_diff(const struct dt_node *v)
{
	while (v != NULL && v->kind == N_CAST)
		v = v->l;
	if (v == NULL || v->kind != N_OP2 || v->op != T_SUB || v->l == NULL)
		return false;
	const struct dt_node *l = v->l;
	return l->kind == N_IDENT && l->id != NULL && l->id->kind == IDK_BVAR &&
	       (l->id->code == BV_TIMESTAMP || l->id->code == BV_VTIMESTAMP ||
		l->id->code == BV_WALLTIMESTAMP);
}

/* Later uses keep only what they agree on: the keys' names, the unit. */
static void agree(struct dt_aggdesc *ad, struct dt_node *agg, struct dt_node *fn)
{
	struct dt_node *k = agg->agg.keys;

	for (int i = 0; i < ad->nkeys && k != NULL; i++, k = k->next) {
		const char *n = key_name(k);
		if (ad->keys[i].name != NULL && (n == NULL || strcmp(n, ad->keys[i].name) != 0))
			ad->keys[i].name = NULL;
	}
	ad->value_ns = ad->value_ns && is_time_diff(fn->call.args);
}

/* Describe a new aggregation from its first use. */
static struct dt_aggdesc *new_aggdesc(struct dt_pcb *pcb, struct dt_ident *id,
				      struct dt_node *agg, struct dt_node *fn)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_aggdesc *ad = dt_arena_zalloc(&cc->core->arena, sizeof(*ad));
	int nk = dt_node_list_len(agg->agg.keys);

	if (ad == NULL || dt_vec_push(&cc->descs->aggs, ad) < 0)
		dt_cnomem(pcb);
	ad->id = (uint32_t)cc->descs->aggs.n - 1;
	ad->name = id->name;
	ad->func = id->aggfunc;
	ad->nkeys = nk;
	ad->keys = dt_arena_zalloc(&cc->core->arena, sizeof(*ad->keys) * (size_t)(nk + 1));
	ad->map_name = dt_arena_printf(&cc->core->arena, "dt_agg_%u", ad->id);
	ad->outer = -1;
	if (ad->keys == NULL || ad->map_name == NULL)
		dt_cnomem(pcb);
	int i = 0;
	for (struct dt_node *k = agg->agg.keys; k != NULL; k = k->next, i++) {
		struct dt_aggkey *ak = &ad->keys[i];
		ak->type = id->keys[i];
		ak->kind = key_kind(k);
		ak->type_size = dt_type_size(id->keys[i]);
		ak->is_signed = dt_type_is_signed(id->keys[i]);
		ak->name = key_name(k);
		/* Sizes are settled by dt_agg_layout() once every use is known. */
	}
	struct dt_node *v = fn->call.args;
	if (v != NULL) {
		ad->arg_size = dt_type_size(v->type);
		ad->arg_signed = dt_type_is_signed(v->type);
		ad->value_ns = is_time_diff(v);
	}
	if (ad->func == AGG_QUANTIZE)
		ad->nbuckets = DT_QUANT_NBUCKETS;
	id->agg = ad;
	return ad;
}

void dt_sema_agg_check(struct dt_pcb *pcb, struct dt_ident *id, struct dt_node *agg,
		       struct dt_node *fn, bool first)
{
	struct dt_ident *fid = fn->id;
	struct dt_node *v = fn->call.args;

	/* The value argument must be scalar: no string, stack or dynamic value. */
	if (fid->code != AGG_COUNT && v != NULL && !agg_scalar(v))
		dt_cerror(pcb, "D_AGG_SCALAR", fn->line, "%s( ) argument #1 must be of scalar type",
			  fid->name);
	struct dt_aggdesc *ad = first ? new_aggdesc(pcb, id, agg, fn) : id->agg;
	if (!first && ad != NULL)
		agree(ad, agg, fn);
	int incr_arg = -1;
	switch (fid->code) {
	case AGG_QUANTIZE:
		incr_arg = 1;
		break;
	case AGG_LQUANTIZE:
		check_lquantize(pcb, fn, ad, first);
		incr_arg = 4;
		break;
	case AGG_LLQUANTIZE:
		check_llquantize(pcb, fn, ad, first);
		incr_arg = 5;
		break;
	default:
		break;
	}
	if (incr_arg > 0) {
		int n = dt_node_list_len(fn->call.args);
		if (n > incr_arg + 1)
			dt_cerror(pcb, "D_PROTO_LEN", fn->line,
				  "%s( ) prototype mismatch: %d args passed, at most %d expected", fid->name,
				  n, incr_arg + 1);
		if (n == incr_arg + 1) {
			struct dt_node *inc = fn->call.args;
			for (int i = 0; i < incr_arg; i++)
				inc = inc->next;
			if (!agg_scalar(inc))
				dt_cerror(pcb, "D_PROTO_ARG", inc->line,
					  "%s( ) argument #%d is incompatible with prototype:\n\tprototype: scalar\n\t argument: %s",
					  fid->name, incr_arg + 1, dt_sema_node_typestr(pcb, inc));
		}
	}
	if (first)
		ad->value_size = value_size(ad);
}

void dt_agg_layout(struct dt_pcb *pcb, struct dt_node *agg, uint32_t *string_sizes)
{
	struct dt_aggdesc *ad = agg->id->agg;

	if (ad == NULL || ad->key_size != 0)
		return;
	uint32_t off = 0;
	struct dt_node *kn = agg->agg.keys;
	for (int i = 0; i < ad->nkeys; i++, kn = kn != NULL ? kn->next : NULL) {
		struct dt_aggkey *k = &ad->keys[i];
		switch (k->kind) {
		case DT_AGGKEY_STRING:
			k->size = DT_ALIGN(string_sizes[i], 8);
			break;
		case DT_AGGKEY_STACK:
		case DT_AGGKEY_USTACK:
			/* The frames the first use asks for (cg_stack.h). */
			k->size = dt_stack_is_call(kn) ? dt_stack_size(pcb, kn)
				  : 8 * DT_STACK_MAXFRAMES + 8;
			break;
		case DT_AGGKEY_USYM:
		case DT_AGGKEY_UMOD:
		case DT_AGGKEY_UADDR:
			k->size = 16;
			break;
		default:
			k->size = 8;
			break;
		}
		k->off = off;
		off += k->size;
	}
	ad->key_size = off ? off : 8;
}
