/*
 * The prologue does only what the clauses use: of the probe context
 * (dctx) a program fills in, a field that no clause function and no
 * code of the program itself can read is not stored.  What a clause
 * function reads is found from its instructions: where the dctx pointer
 * it gets in r2 goes, and the fields loaded through it; a function it
 * calls with the pointer in r2 (the fault path's dt_error and dt_fault)
 * reads what that function's code reads.  A pointer that goes anywhere
 * else (another argument, a store, arithmetic) counts as a read of every
 * field.  The program's own reads are its loads from the
 * frame; a frame address it takes for anything but calling a clause or
 * a map lookup's key means every field is kept.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/cg.h"
#include "compiler/cg_dctx.h"
#include "compiler/cg_opt.h"

#define R(r) ((uint16_t)(1u << (r)))
#define NWORDS (DCTX_SIZE / 8)
#define ALL_WORDS ((uint32_t)((1ull << NWORDS) - 1))

static int size_bytes(const struct bpf_insn *in)
{
	switch (BPF_SIZE(in->code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

/* The dctx words bytes [off, off + size) of the dctx touch; all if outside it. */
static uint32_t words(int off, int size)
{
	if (off < 0 || off + size > DCTX_SIZE)
		return ALL_WORDS;
	uint32_t m = 0;
	for (int w = off / 8; w <= (off + size - 1) / 8; w++)
		m |= 1u << w;
	return m;
}

/* One instruction with the dctx pointer in the registers `p`: the words it reads, ALL if it lets the pointer go. */
static uint32_t access(const struct bpf_insn *in, uint16_t p)
{
	int cls = BPF_CLASS(in->code);
	uint16_t u = cg_opt_uses(in);

	if (!(u & p))
		return 0;
	if (cls == BPF_LDX && (BPF_MODE(in->code) == BPF_MEM || BPF_MODE(in->code) == BPF_MEMSX))
		return words(in->off, size_bytes(in));
	if (cls == BPF_ST && BPF_MODE(in->code) == BPF_MEM)
		return 0;
	if (cls == BPF_STX && BPF_MODE(in->code) == BPF_MEM && !(R(in->src_reg) & p))
		return 0;
	return ALL_WORDS;
}

static uint16_t *func_live(const struct bpf_insn *v, size_t n);

/* Where the functions a function calls are found (obj NULL: nowhere, a call with the pointer reads all). */
struct callees {
	const struct bo_object *obj;
	const struct bo_func *fn;
	int depth;
};

static uint32_t reads(const struct bpf_insn *v, size_t n, const struct callees *cs);
static const struct bo_func *func_named(const struct bo_object *obj, const char *name);
static const struct bo_reloc *call_reloc(const struct bo_func *fn, size_t at);

/*
 * The fault path's functions get the fault's address and place in dctx
 * words every path to them sets first (cg_fault): what they read of
 * those is no field the prologue fills.
 */
static uint32_t fault_args(const char *name)
{
	if (strcmp(name, "dt_error") != 0 && strcmp(name, "dt_fault") != 0)
		return 0;
	return (1u << (DCTX_EPID / 8)) | (1u << (DCTX_FAULT_PC / 8));
}

/* What the BPF function called at instruction `at` reads of the dctx it gets in r2. */
static uint32_t callee_reads(const struct callees *cs, size_t at)
{
	if (cs->obj == NULL || cs->depth >= 4)
		return ALL_WORDS;
	const struct bo_reloc *r = call_reloc(cs->fn, at);
	const struct bo_func *f = r != NULL ? func_named(cs->obj, r->target) : NULL;
	if (f == NULL)
		return ALL_WORDS;
	struct callees in = { cs->obj, f, cs->depth + 1 };
	uint32_t need = reads(f->insns.v, f->insns.n, &in);
	return need == ALL_WORDS ? need : need & ~fault_args(f->name);
}

static bool is_bpf_call(const struct bpf_insn *in)
{
	return cg_opt_is_call(in) && in->src_reg == BPF_PSEUDO_CALL;
}

/*
 * rP holding the pointer moved into r2 for a BPF function call in the
 * same straight-line stretch (r2 not touched in between): the call's
 * index, else 0.
 */
static size_t passed_to_call(const struct bpf_insn *v, size_t n, const bool *target, size_t i)
{
	for (size_t j = i + 1; j < n && !target[j]; j++) {
		const struct bpf_insn *in = &v[j];
		if (is_bpf_call(in))
			return j;
		if (cg_opt_is_jump(in) || cg_opt_is_exit(in) || cg_opt_is_call(in) ||
		    ((cg_opt_uses(in) | cg_opt_defs(in)) & R(BPF_R2)))
			return 0;
		if (cg_opt_is_ldimm64(in))
			j++;
	}
	return 0;
}

static uint32_t reads_from_entry(const struct bpf_insn *v, size_t n, const bool *target,
				 const struct callees *cs)
{
	/* Straight-line code from the entry: follow the pointer through moves. */
	uint32_t need = 0;
	uint16_t p = R(BPF_R2);
	size_t i = 0, last = 0;
	while (i < n && (i == 0 || !target[i])) {
		const struct bpf_insn *in = &v[i];
		bool end = cg_opt_is_jump(in) || cg_opt_is_exit(in);
		last = i;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->off == 0 && (R(in->src_reg) & p)) {
			p |= R(in->dst_reg);
		} else if (is_bpf_call(in) && (p & R(BPF_R2)) &&
			   !(p & (R(1) | R(3) | R(4) | R(5)))) {
			need |= callee_reads(cs, i);
			p &= (uint16_t)~cg_opt_defs(in);
		} else {
			need |= access(in, p);
			p &= (uint16_t)~cg_opt_defs(in);
		}
		i += cg_opt_is_ldimm64(in) ? 2 : 1;
		if (end)
			break;
	}
	/* Past it, only the registers still read there hold it (r2 is often left so). */
	uint16_t *live = func_live(v, n);
	if (live != NULL)
		p &= live[last];
	free(live);
	/* And only registers no call clobbers and nothing writes again keep it. */
	if (p & (R(0) | R(1) | R(2) | R(3) | R(4) | R(5)))
		return ALL_WORDS;
	for (; i < n; i++) {
		const struct bpf_insn *in = &v[i];
		if (cg_opt_defs(in) & p)
			return ALL_WORDS;
		size_t call;
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->off == 0 &&
		    in->dst_reg == BPF_R2 && (R(in->src_reg) & p) &&
		    (call = passed_to_call(v, n, target, i)) != 0) {
			need |= callee_reads(cs, call);
			continue;
		}
		need |= access(in, p);
		if (cg_opt_is_ldimm64(in))
			i++;
	}
	return need;
}

uint32_t cg_dctx_reads(const struct bpf_insn *v, size_t n)
{
	const struct callees none = { NULL, NULL, 0 };

	return reads(v, n, &none);
}

uint32_t cg_dctx_reads_calls(const struct bo_object *obj, const struct bo_func *fn)
{
	const struct callees cs = { obj, fn, 0 };

	return reads(fn->insns.v, fn->insns.n, &cs);
}

static uint32_t reads(const struct bpf_insn *v, size_t n, const struct callees *cs)
{
	bool *target = calloc(n + 1, sizeof(*target));
	uint32_t need = ALL_WORDS;

	if (target == NULL)
		return ALL_WORDS;
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &v[i];
		if (!cg_opt_is_jump(in))
			continue;
		long t = (long)i + 1 + in->off;
		if ((BPF_CLASS(in->code) == BPF_JMP32 && BPF_OP(in->code) == BPF_JA) || t < 0 ||
		    (size_t)t > n)
			goto out;
		target[t] = true;
	}
	if (n > 0 && !target[0])
		need = reads_from_entry(v, n, target, cs);
out:
	free(target);
	return need;
}

/*
 * The registers live after each instruction of a finished function (its
 * jumps resolved), or NULL when it cannot tell (long jumps, may_goto,
 * a jump out of it, no memory).
 */
static uint16_t *func_live(const struct bpf_insn *v, size_t n)
{
	struct bpf_insn *copy = malloc((n + 1) * sizeof(*copy));
	int *target = malloc((n + 1) * sizeof(*target));
	uint16_t *live = NULL;
	struct cg_opt o;

	if (copy == NULL || target == NULL || n == 0)
		goto out;
	memcpy(copy, v, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &v[i];
		target[i] = -1;
		if (!cg_opt_is_jump(in) || (i > 0 && cg_opt_is_ldimm64(&v[i - 1])))
			continue;
		long t = (long)i + 1 + in->off;
		if ((BPF_CLASS(in->code) == BPF_JMP32 && BPF_OP(in->code) == BPF_JA) ||
		    BPF_OP(in->code) == BPF_JCOND || t < 0 || (size_t)t > n)
			goto out;
		target[i] = (int)t;
	}
	if (cg_opt_init(&o, copy, n, target) < 0)
		goto out;
	cg_opt_liveness(&o);
	live = o.live;
	o.live = NULL;
	cg_opt_free(&o);
out:
	free(copy), free(target);
	return live;
}

uint16_t cg_func_entry_reads(const struct bpf_insn *v, size_t n)
{
	const uint16_t all = R(1) | R(2) | R(3) | R(4) | R(5);
	uint16_t *live = func_live(v, n);

	if (live == NULL)
		return all;
	uint16_t in = (cg_opt_uses(&v[0]) | (live[0] & (uint16_t)~cg_opt_defs(&v[0]))) & all;
	free(live);
	return in;
}

static const struct bo_func *func_named(const struct bo_object *obj, const char *name)
{
	for (size_t i = 0; name != NULL && i < obj->funcs.n; i++)
		if (obj->funcs.v[i]->name != NULL && strcmp(obj->funcs.v[i]->name, name) == 0)
			return obj->funcs.v[i];
	return NULL;
}

static const struct bo_reloc *call_reloc(const struct bo_func *fn, size_t at)
{
	for (size_t i = 0; i < fn->relocs.n; i++)
		if (fn->relocs.v[i].insn == at && fn->relocs.v[i].kind == BO_RELOC_CALL)
			return &fn->relocs.v[i];
	return NULL;
}

/* What of the dctx at fp + dctx the program's code and the functions it calls with it read. */
static uint32_t program_reads(struct dt_cg *cg, int dctx)
{
	const struct bo_func *fn = cg->fn;
	const struct bpf_insn *v = fn->insns.v;
	size_t n = fn->insns.n;
	uint32_t need = 0;

	for (size_t i = 0; i < n; i++) {
		const struct bpf_insn *in = &v[i];
		int cls = BPF_CLASS(in->code);
		if (cg_opt_is_ldimm64(in)) {
			i++;
			continue;
		}
		if (!(cg_opt_uses(in) & R(BPF_FP)))
			continue;
		if (cls == BPF_LDX && in->src_reg == BPF_FP) {
			int lo = in->off - dctx, size = size_bytes(in);
			if (lo + size > 0 && lo < DCTX_SIZE)
				need |= words(lo, size);
			continue;
		}
		if ((cls == BPF_ST || cls == BPF_STX) && BPF_MODE(in->code) == BPF_MEM &&
		    in->dst_reg == BPF_FP && (cls == BPF_ST || in->src_reg != BPF_FP))
			continue;
		/* r2 = r10; r2 += off; call: a clause with the dctx, or a map lookup's key. */
		if (in->code == (BPF_ALU64 | BPF_MOV | BPF_X) && in->dst_reg == BPF_R2 && in->off == 0 &&
		    i + 2 < n && v[i + 1].code == (BPF_ALU64 | BPF_ADD | BPF_K) &&
		    v[i + 1].dst_reg == BPF_R2 && cg_opt_is_call(&v[i + 2])) {
			int off = v[i + 1].imm;
			const struct bpf_insn *call = &v[i + 2];
			if (call->src_reg == BPF_PSEUDO_CALL && off == dctx) {
				const struct bo_reloc *r = call_reloc(fn, i + 2);
				const struct bo_func *f = r != NULL ? func_named(cg->obj, r->target) : NULL;
				need |= f != NULL ? cg_dctx_reads_calls(cg->obj, f) : ALL_WORDS;
			} else if (call->src_reg == 0 && call->imm == BPF_FUNC_map_lookup_elem &&
				   (off + 8 <= dctx || off >= dctx + DCTX_SIZE)) {
				/* The key slots are 8 bytes of their own. */
			} else {
				return ALL_WORDS;
			}
			i++;
			continue;
		}
		return ALL_WORDS;
	}
	return need;
}

void cg_dctx_trim(struct dt_cg *cg, int dctx)
{
	struct bo_func *fn = cg->fn;
	uint32_t need = program_reads(cg, dctx);

	if (need == ALL_WORDS)
		return;
	for (size_t i = 0; i < fn->insns.n; i++) {
		struct bpf_insn *in = &fn->insns.v[i];
		int cls = BPF_CLASS(in->code);
		if (cg_opt_is_ldimm64(in)) {
			i++;
			continue;
		}
		if ((cls != BPF_ST && cls != BPF_STX) || BPF_MODE(in->code) != BPF_MEM ||
		    in->dst_reg != BPF_FP)
			continue;
		int off = in->off - dctx, size = size_bytes(in);
		if (off < 0 || off + size > DCTX_SIZE || (words(off, size) & need))
			continue;
		/* Nothing reads it: a no-op (dropped by the optimiser). */
		*in = I_JA(0);
	}
}
