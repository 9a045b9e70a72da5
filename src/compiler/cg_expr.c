/*
 * Expression code generation.  Values are 64-bit; narrower types are
 * extended when loaded and when cast, and truncated when stored, as
 * DTrace's 64-bit DIF machine does.  Strings are pointers to BPF memory
 * (.rodata, scratch, .bss); structs and arrays read through pointers are
 * kernel or user addresses.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/nest.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

bool cg_is_byref(struct dt_type *t)
{
	t = dt_type_base(t);
	return t != NULL && (t->kind == TK_STRING || t->kind == TK_STRUCT || t->kind == TK_UNION ||
			     t->kind == TK_ARRAY);
}

void cg_normalize(struct dt_cg *cg, int reg, struct dt_type *t)
{
	t = dt_type_base(t);
	if (t == NULL || (t->kind != TK_INT && t->kind != TK_ENUM) || t->size >= 8)
		return;
	int shift = 64 - (int)t->size * 8;
	int64_t v;
	/* A constant just loaded is normalized here rather than at run time. */
	if (cg_known_imm(cg, reg, &v)) {
		uint64_t u = (uint64_t)v << shift;
		int64_t n = t->is_signed ? (int64_t)u >> shift : (int64_t)(u >> shift);
		cg->fn->insns.n--;
		cg_mov_imm64(cg, reg, (uint64_t)n);
		return;
	}
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, reg, shift));
	cg_emit(cg, I_ALU64_IMM(t->is_signed ? BPF_ARSH : BPF_RSH, reg, shift));
}

static int size_code(uint32_t size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

int cg_size_code(uint32_t size)
{
	return size_code(size);
}

void cg_fault(struct dt_cg *cg, int fault, int addr_reg)
{
	/* The fault path finds the code and address in the dctx scratch word. */
	if (addr_reg >= 0)
		cg_emit(cg, I_STX(BPF_DW, REG_DCTX, addr_reg, DCTX_EPID));
	else
		cg_emit(cg, I_ST(BPF_DW, REG_DCTX, DCTX_EPID, 0));
	/*
	 * Fault code, action number (1-based; 0 in the predicate: 16 bits,
	 * the last for any beyond in a clause cut into parts), place.
	 */
	uint32_t action = cg->in_pred ? 0 : (uint32_t)(cg->action_index + 1);
	if (action > 0xffff)
		action = 0xffff;
	cg_emit(cg, I_ST(BPF_W, REG_DCTX, DCTX_FLAGS, (int32_t)((uint32_t)fault | action << 16)));
	cg_emit(cg, I_ST(BPF_W, REG_DCTX, DCTX_FAULT_PC, (int32_t)cg_pos(cg) * 8));
	if (cg->fault_label < 0)
		cg->fault_label = cg_label_new(cg);
	cg_ja(cg, cg->fault_label);
}

/*
 * Load a value of type t from the (kernel or user) address in `reg` into
 * `reg`, faulting on a bad address.
 */
void cg_load_scalar(struct dt_cg *cg, int reg, struct dt_type *t, bool userland)
{
	uint32_t size = dt_type_size(t);

	if (size == 0 || size > 8)
		size = 8;
	cg_load_bytes(cg, reg, size, userland);
	cg_normalize(cg, reg, t);
}

/*
 * Load n (1..8) bytes at the address in reg into reg, zero-extended
 * (little-endian).  The address waits on the stack for the fault report,
 * so the read needs no register beyond its result's.
 */
void cg_load_bytes(struct dt_cg *cg, int reg, uint32_t n, bool userland)
{
	/* The slots are free again once the value is in reg. */
	int mark = cg_stack_mark(cg);
	int slot = cg_stack_alloc(cg, 8), aslot = cg_stack_alloc(cg, 8);

	if (userland)
		cg_bvar_need_current(cg, "user memory");
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, reg, aslot));
	cg_emit(cg, I_ST(BPF_DW, BPF_FP, slot, 0));
	int rc = cg_probe_read(cg, slot, n, reg, userland);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_emit(cg, I_LDX(BPF_DW, rc, BPF_FP, aslot));
	cg_fault(cg, DT_FLT_BADADDR, rc);
	cg_label_place(cg, ok);
	cg_reg_free(cg, rc);
	/* The call consumed reg as its argument: it holds the value again. */
	cg_reg_claim(cg, reg);
	cg_emit(cg, I_LDX(size_code(n), reg, BPF_FP, slot));
	cg_stack_release(cg, mark);
}

/* Load a scalar of type t from alloca()'d memory at address reg, checked. */
void cg_load_alloca(struct dt_cg *cg, int reg, struct dt_type *t)
{
	uint32_t size = dt_type_size(t);

	if (size == 0 || size > 8)
		size = 8;
	int p = cg_alloca_ptr(cg, reg, size);
	cg_emit(cg, I_LDX(size_code(size), reg, p, 0));
	cg_reg_free(cg, p);
	cg_normalize(cg, reg, t);
}

/* Signed or unsigned division/modulo with a zero check. */
static void divmod(struct dt_cg *cg, int op, int l, int r, bool is_signed)
{
	int ok = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JNE, r, 0, ok);
	cg_fault(cg, DT_FLT_DIVZERO, -1);
	cg_label_place(cg, ok);
	if (!is_signed) {
		cg_emit(cg, I_ALU64_REG(op, l, r));
		return;
	}
	/* |l| op |r|, then fix the sign: quotient negative if signs differ,
	 * remainder takes the dividend's sign (C semantics). */
	int sign = cg_reg_alloc(cg);
	int t = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(sign, 0));
	int lpos = cg_label_new(cg), rpos = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JSGE, l, 0, lpos);
	cg_emit(cg, I_NEG64(l));
	cg_emit(cg, I_ALU64_IMM(BPF_XOR, sign, op == BPF_DIV ? 1 : 1));
	cg_label_place(cg, lpos);
	cg_emit(cg, I_MOV64_REG(t, r));
	cg_jmp_imm(cg, BPF_JSGE, t, 0, rpos);
	cg_emit(cg, I_NEG64(t));
	if (op == BPF_DIV)
		cg_emit(cg, I_ALU64_IMM(BPF_XOR, sign, 1));
	cg_label_place(cg, rpos);
	cg_emit(cg, I_ALU64_REG(op, l, t));
	int done = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, sign, 0, done);
	cg_emit(cg, I_NEG64(l));
	cg_label_place(cg, done);
	cg_reg_free(cg, t);
	cg_reg_free(cg, sign);
}

static int alu_op(enum dt_tok op)
{
	switch (op) {
	case T_ADD: case T_ADD_EQ: return BPF_ADD;
	case T_SUB: case T_SUB_EQ: return BPF_SUB;
	case T_MUL: case T_MUL_EQ: return BPF_MUL;
	case T_DIV: case T_DIV_EQ: return BPF_DIV;
	case T_MOD: case T_MOD_EQ: return BPF_MOD;
	case T_BAND: case T_AND_EQ: return BPF_AND;
	case T_BOR: case T_OR_EQ: return BPF_OR;
	case T_XOR: case T_XOR_EQ: return BPF_XOR;
	case T_LSH: case T_LSH_EQ: return BPF_LSH;
	case T_RSH: case T_RSH_EQ: return BPF_RSH;
	default: return -1;
	}
}

/* Scale an integer register by the size of a pointer's target. */
static void scale_index(struct dt_cg *cg, int reg, struct dt_type *ptrtype)
{
	struct dt_type *pt = dt_type_base(ptrtype);
	uint32_t sz = dt_type_size(pt->base);

	if (sz > 1)
		cg_emit(cg, I_ALU64_IMM(BPF_MUL, reg, (int32_t)sz));
}

/* l = l op r with D's typing (pointer arithmetic, signedness). */
void cg_binop(struct dt_cg *cg, enum dt_tok op, int l, int r, struct dt_type *lt,
	      struct dt_type *rt, struct dt_type *res)
{
	int aop = alu_op(op);
	bool lp = dt_type_is_pointer(lt) || dt_type_is_array(lt);
	bool rp = dt_type_is_pointer(rt) || dt_type_is_array(rt);

	if (aop == BPF_ADD || aop == BPF_SUB) {
		if (lp && rp && aop == BPF_SUB) {
			cg_emit(cg, I_ALU64_REG(BPF_SUB, l, r));
			uint32_t sz = dt_type_size(dt_type_base(lt)->base);
			if (sz > 1) {
				int szr = cg_reg_alloc(cg);
				cg_emit(cg, I_MOV64_IMM(szr, (int32_t)sz));
				divmod(cg, BPF_DIV, l, szr, true);
				cg_reg_free(cg, szr);
			}
			return;
		}
		if (lp && !rp)
			scale_index(cg, r, lt);
		else if (rp && !lp)
			scale_index(cg, l, rt);
	}
	bool is_signed = dt_type_is_signed(res);
	switch (aop) {
	case BPF_DIV:
	case BPF_MOD:
		divmod(cg, aop, l, r, is_signed);
		return;
	case BPF_RSH:
		cg_emit(cg, I_ALU64_REG(dt_type_is_signed(lt) ? BPF_ARSH : BPF_RSH, l, r));
		return;
	default:
		cg_emit(cg, I_ALU64_REG(aop, l, r));
		return;
	}
}

static int cmp_jmp(enum dt_tok op, bool is_signed)
{
	switch (op) {
	case T_EQU: return BPF_JEQ;
	case T_NEQ: return BPF_JNE;
	case T_LT: return is_signed ? BPF_JSLT : BPF_JLT;
	case T_LE: return is_signed ? BPF_JSLE : BPF_JLE;
	case T_GT: return is_signed ? BPF_JSGT : BPF_JGT;
	case T_GE: return is_signed ? BPF_JSGE : BPF_JGE;
	default: return -1;
	}
}

static bool is_string_operand(struct dt_node *n)
{
	return dt_type_is_string(n->type);
}

/*
 * Whether two integers compare signed: when their common type (the usual
 * arithmetic conversions) is, as DTrace's dt_cg_compare_signed decides;
 * -1 < (unsigned char)1 is true.  Pointers compare unsigned.
 */
static bool compare_signed(struct dt_cg *cg, struct dt_node *l, struct dt_node *r)
{
	if (!dt_type_is_integer(l->type) || !dt_type_is_integer(r->type))
		return false;
	return dt_type_is_signed(dt_sema_arith(cg->pcb, l->type, r->type));
}

static int cg_compare(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_node *l = n->l, *r = n->r;
	int res;

	/* string == NULL: the string's address. */
	if (is_string_operand(l) != is_string_operand(r) &&
	    (dt_type_is_pointer(l->type) || dt_type_is_pointer(r->type) ||
	     ((l->flags | r->flags) & DN_CONST))) {
		int rl = cg_expr_nullable(cg, l), rr = cg_expr_nullable(cg, r);
		res = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(res, 1));
		int t = cg_label_new(cg);
		cg_jmp_reg(cg, n->op == T_EQU ? BPF_JEQ : BPF_JNE, rl, rr, t);
		cg_emit(cg, I_MOV64_IMM(res, 0));
		cg_label_place(cg, t);
		cg_reg_free(cg, rl);
		cg_reg_free(cg, rr);
		return res;
	}
	if ((is_string_operand(l) || is_string_operand(r)) && (res = cg_streq_value(cg, n)) >= 0)
		return res;
	if (is_string_operand(l) || is_string_operand(r)) {
		/* The operands' string temporaries are dead once compared. */
		uint32_t mark = cg->scratch_off;
		bool nulls = cg_may_be_null(l) || cg_may_be_null(r);
		int rl = cg_expr_string_nullable(cg, l);
		int rr = cg_expr_string_nullable(cg, r);
		int t = cg_label_new(cg);
		res = cg_reg_alloc(cg);
		/* Initialized: it is live (spilled) across the strcmp call. */
		cg_emit(cg, I_MOV64_IMM(res, 0));
		if (nulls) {
			/* A NULL string compares by address: equal only to NULL, below any other. */
			int nul = cg_label_new(cg), str = cg_label_new(cg);
			cg_jmp_imm(cg, BPF_JEQ, rl, 0, nul);
			cg_jmp_imm(cg, BPF_JNE, rr, 0, str);
			cg_label_place(cg, nul);
			cg_emit(cg, I_MOV64_IMM(res, 1));
			cg_jmp_reg(cg, cmp_jmp(n->op, false), rl, rr, t);
			cg_emit(cg, I_MOV64_IMM(res, 0));
			cg_ja(cg, t);
			cg_label_place(cg, str);
		}
		int c = cg_strcmp(cg, l, rl, r, rr);
		cg->scratch_off = mark;
		/* Compare the strcmp result with zero. */
		cg_emit(cg, I_MOV64_IMM(res, 1));
		cg_jmp_imm(cg, cmp_jmp(n->op, true), c, 0, t);
		cg_emit(cg, I_MOV64_IMM(res, 0));
		cg_label_place(cg, t);
		cg_reg_free(cg, c);
		return res;
	}
	bool is_signed = compare_signed(cg, l, r);
	int rl = cg_expr(cg, l);
	int rr = cg_expr(cg, r);
	res = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(res, 1));
	int t = cg_label_new(cg);
	cg_jmp_reg(cg, cmp_jmp(n->op, is_signed), rl, rr, t);
	cg_emit(cg, I_MOV64_IMM(res, 0));
	cg_label_place(cg, t);
	cg_reg_free(cg, rl);
	cg_reg_free(cg, rr);
	return res;
}

/* Truth value of an expression (strings: non-empty... DTrace: non-NULL). */
static int cg_truth(struct dt_cg *cg, struct dt_node *n)
{
	if (dt_type_is_string(n->type)) {
		/* A string is true unless it is NULL. */
		int r = cg_expr_nullable(cg, n);
		int res = cg_reg_alloc(cg), t = cg_label_new(cg);
		cg_emit(cg, I_MOV64_IMM(res, 1));
		cg_jmp_imm(cg, BPF_JNE, r, 0, t);
		cg_emit(cg, I_MOV64_IMM(res, 0));
		cg_label_place(cg, t);
		cg_reg_free(cg, r);
		return res;
	}
	return cg_expr(cg, n);
}

/*
 * The operands of a chain of one operator (a && b && c ..., left-deep as
 * parsed), leftmost first, found without recursion; *k is how many.
 * `small` holds up to CHAIN_SMALL of them.
 */
#define CHAIN_SMALL 8
static struct dt_node **chain_operands(struct dt_cg *cg, struct dt_node *n, enum dt_tok op,
				       struct dt_node **small, size_t *k)
{
	struct dt_node *s;
	size_t cnt = 1;

	for (s = n; s->kind == N_OP2 && s->op == op; s = s->l)
		cnt++;
	struct dt_node **v = cnt <= CHAIN_SMALL ? small : dt_palloc(cg->pcb, cnt * sizeof(*v));
	*k = cnt;
	for (s = n; s->kind == N_OP2 && s->op == op; s = s->l)
		v[--cnt] = s->r;
	v[0] = s;
	return v;
}

/*
 * The jumps of a long chain to one far label go through relays placed
 * every RELAY_SPAN instructions (a jump reaches 32767 instructions):
 * generated predicates can be thousands of || long.
 */
#define RELAY_SPAN 8192
#define RELAY_MIN 64	/* operands below which a chain cannot be that long */

struct relay {
	int to, cur;		/* the final label; where the jumps go meanwhile */
	uint32_t start;
	bool on;
};

static void relay_begin(struct dt_cg *cg, struct relay *r, int to, size_t operands)
{
	r->to = to;
	r->on = operands > RELAY_MIN;
	r->cur = r->on ? cg_label_new(cg) : to;
	r->start = cg_pos(cg);
}

/* Between operands: a long enough stretch gets its relay here, jumped over. */
static void relay_step(struct dt_cg *cg, struct relay *r)
{
	if (!r->on || cg_pos(cg) - r->start < RELAY_SPAN)
		return;
	int over = cg_label_new(cg), next = cg_label_new(cg);
	cg_ja(cg, over);
	cg_label_place(cg, r->cur);
	cg_ja(cg, next);
	cg_label_place(cg, over);
	r->cur = next;
	r->start = cg_pos(cg);
	cg_island_if_due(cg);
}

static void relay_end(struct dt_cg *cg, struct relay *r)
{
	if (!r->on)
		return;
	int over = cg_label_new(cg);
	cg_ja(cg, over);
	cg_label_place(cg, r->cur);
	cg_ja(cg, r->to);
	cg_label_place(cg, over);
}

static void cg_branch_true(struct dt_cg *cg, struct dt_node *n, int label);

/* Each of operands v[0..k-1] jumps to `label` when it is `when`, through relays. */
static void chain_jumps(struct dt_cg *cg, struct dt_node **v, size_t k, bool when, int label)
{
	struct relay r;

	relay_begin(cg, &r, label, k);
	for (size_t i = 0; i < k; i++) {
		if (when)
			cg_branch_true(cg, v[i], r.cur);
		else
			cg_branch_false(cg, v[i], r.cur);
		relay_step(cg, &r);
	}
	relay_end(cg, &r);
}

/* Jump to label when n is false; && || ! by jumps, holding no values. */
void cg_branch_false(struct dt_cg *cg, struct dt_node *n, int label)
{
	struct dt_node *small[CHAIN_SMALL], **v;
	size_t k;

	if (n->flags & DN_CONST) {
		if (n->cval == 0)
			cg_ja(cg, label);
		return;
	}
	if (n->kind == N_OP2 && n->op == T_LAND) {
		v = chain_operands(cg, n, T_LAND, small, &k);
		chain_jumps(cg, v, k, false, label);
		return;
	}
	if (n->kind == N_OP2 && n->op == T_LOR) {
		int skip = cg_label_new(cg);
		v = chain_operands(cg, n, T_LOR, small, &k);
		chain_jumps(cg, v, k - 1, true, skip);
		cg_branch_false(cg, v[k - 1], label);
		cg_label_place(cg, skip);
		return;
	}
	if (n->kind == N_OP1 && n->op == T_LNEG) {
		cg_branch_true(cg, n->l, label);
		return;
	}
	if (cg_streq_branch_false(cg, n, label))
		return;
	if (n->kind == N_OP2 && cmp_jmp(n->op, false) >= 0 && !is_string_operand(n->l) &&
	    !is_string_operand(n->r) && dt_type_is_scalar(n->l->type) &&
	    dt_type_is_scalar(n->r->type)) {
		bool is_signed = compare_signed(cg, n->l, n->r);
		/* Jump on the negated condition. */
		enum dt_tok neg;
		switch (n->op) {
		case T_EQU: neg = T_NEQ; break;
		case T_NEQ: neg = T_EQU; break;
		case T_LT: neg = T_GE; break;
		case T_LE: neg = T_GT; break;
		case T_GT: neg = T_LE; break;
		default: neg = T_LT; break;
		}
		int rl = cg_expr(cg, n->l);
		if (n->r->flags & DN_CONST && n->r->cval >= INT32_MIN && n->r->cval <= INT32_MAX) {
			cg_jmp_imm(cg, cmp_jmp(neg, is_signed), rl, (int32_t)n->r->cval, label);
		} else {
			int rr = cg_expr(cg, n->r);
			cg_jmp_reg(cg, cmp_jmp(neg, is_signed), rl, rr, label);
			cg_reg_free(cg, rr);
		}
		cg_reg_free(cg, rl);
		return;
	}
	int r = cg_truth(cg, n);
	cg_jmp_imm(cg, BPF_JEQ, r, 0, label);
	cg_reg_free(cg, r);
}

/* Jump to label when n is true. */
static void cg_branch_true(struct dt_cg *cg, struct dt_node *n, int label)
{
	struct dt_node *small[CHAIN_SMALL], **v;
	size_t k;

	if (n->flags & DN_CONST) {
		if (n->cval != 0)
			cg_ja(cg, label);
		return;
	}
	if (n->kind == N_OP2 && n->op == T_LOR) {
		v = chain_operands(cg, n, T_LOR, small, &k);
		chain_jumps(cg, v, k, true, label);
		return;
	}
	if (n->kind == N_OP2 && n->op == T_LAND) {
		int skip = cg_label_new(cg);
		v = chain_operands(cg, n, T_LAND, small, &k);
		chain_jumps(cg, v, k - 1, false, skip);
		cg_branch_true(cg, v[k - 1], label);
		cg_label_place(cg, skip);
		return;
	}
	if (n->kind == N_OP1 && n->op == T_LNEG) {
		cg_branch_false(cg, n->l, label);
		return;
	}
	int skip = cg_label_new(cg);
	cg_branch_false(cg, n, skip);
	cg_ja(cg, label);
	cg_label_place(cg, skip);
}

static int cg_logical(struct dt_cg *cg, struct dt_node *n)
{
	if (n->op == T_LXOR) {
		/* Both operands, as 0 or 1; a holds the result (nothing else is live). */
		int a = cg_truth(cg, n->l);
		int b = cg_truth(cg, n->r);
		int z1 = cg_label_new(cg), z2 = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JEQ, a, 0, z1);
		cg_emit(cg, I_MOV64_IMM(a, 1));
		cg_label_place(cg, z1);
		cg_jmp_imm(cg, BPF_JEQ, b, 0, z2);
		cg_emit(cg, I_MOV64_IMM(b, 1));
		cg_label_place(cg, z2);
		cg_emit(cg, I_ALU64_REG(BPF_XOR, a, b));
		cg_reg_free(cg, b);
		return a;
	}
	int res = cg_reg_alloc(cg);
	int done = cg_label_new(cg);

	/* && and || short-circuit, as jumps. */
	cg_emit(cg, I_MOV64_IMM(res, 0));
	cg_branch_false(cg, n, done);
	cg_emit(cg, I_MOV64_IMM(res, 1));
	cg_label_place(cg, done);
	return res;
}

/* An operator of the arithmetic path of cg_op2(). */
static bool arith_chain(const struct dt_node *n)
{
	if (n->kind != N_OP2)
		return false;
	switch (n->op) {
	case T_ADD:
		return !dt_type_is_string(n->type);
	case T_SUB: case T_MUL: case T_DIV: case T_MOD: case T_BAND: case T_BOR: case T_XOR:
	case T_LSH: case T_RSH:
		return true;
	default:
		return false;
	}
}

/* l = l op (n's right operand), n's left operand being in l. */
static void apply_right(struct dt_cg *cg, struct dt_node *n, int l)
{
	int op = alu_op(n->op);
	bool shift = op == BPF_LSH || op == BPF_RSH;
	if ((n->r->flags & DN_CONST) && op >= 0 && op != BPF_DIV && op != BPF_MOD &&
	    (shift || (n->r->cval >= INT32_MIN && n->r->cval <= INT32_MAX)) &&
	    !dt_type_is_pointer(n->l->type) && !dt_type_is_array(n->l->type) &&
	    !dt_type_is_pointer(n->r->type)) {
		int64_t imm = n->r->cval;
		if (shift) {
			/*
			 * A 64-bit shift by the count modulo 64, as DTrace's (its
			 * folding shifts a uintmax_t, its code a register, which
			 * BPF defines modulo 64): x << 64 is x, x << -1 is x << 63.
			 */
			imm &= 63;
			if (imm == 0)
				return;
			if (op == BPF_RSH && dt_type_is_signed(n->l->type))
				op = BPF_ARSH;
		}
		cg_emit(cg, I_ALU64_IMM(op, l, (int32_t)imm));
		return;
	}
	int r = cg_expr(cg, n->r);
	cg_binop(cg, n->op, l, r, n->l->type, n->r->type, n->type);
	cg_reg_free(cg, r);
}

static int cg_op2(struct dt_cg *cg, struct dt_node *n)
{
	switch (n->op) {
	case T_LAND:
	case T_LOR:
	case T_LXOR:
		return cg_logical(cg, n);
	case T_EQU: case T_NEQ: case T_LT: case T_LE: case T_GT: case T_GE:
		return cg_compare(cg, n);
	case T_COMMA: {
		/* Each left operand is evaluated for its effects (cg_expr_discard). */
		struct dt_node *small[CHAIN_SMALL];
		size_t k;
		struct dt_node **v = chain_operands(cg, n, T_COMMA, small, &k);
		for (size_t i = 0; i + 1 < k; i++) {
			cg_expr_discard(cg, v[i]);
			cg_island_if_due(cg);
		}
		return cg_expr(cg, v[k - 1]);
	}
	case T_ASGN: case T_ADD_EQ: case T_SUB_EQ: case T_MUL_EQ: case T_DIV_EQ:
	case T_MOD_EQ: case T_AND_EQ: case T_XOR_EQ: case T_OR_EQ: case T_LSH_EQ:
	case T_RSH_EQ:
		return cg_assign(cg, n);
	default:
		break;
	}
	if (n->op == T_ADD && dt_type_is_string(n->type))
		return cg_string_offset(cg, n);
	/* a + b - c ...: down the left operands, then each right one applied, without recursion. */
	struct dt_node *small[CHAIN_SMALL], *s;
	size_t k = 0;
	if (!arith_chain(n))
		dt_cerror(cg->pcb, "D_UNKNOWN", n->line, "internal error: binary operator");
	for (s = n; arith_chain(s); s = s->l)
		k++;
	struct dt_node **up = k <= CHAIN_SMALL ? small : dt_palloc(cg->pcb, k * sizeof(*up));
	for (s = n; arith_chain(s); s = s->l)
		up[--k] = s;
	int l = cg_expr(cg, s);
	for (; up[k] != n; k++) {
		apply_right(cg, up[k], l);
		cg_island_if_due(cg);
	}
	apply_right(cg, n, l);
	return l;
}

static int cg_op1(struct dt_cg *cg, struct dt_node *n)
{
	int r;

	switch (n->op) {
	case T_LNEG: {
		r = cg_truth(cg, n->l);
		int z = cg_label_new(cg), done = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JEQ, r, 0, z);
		cg_emit(cg, I_MOV64_IMM(r, 0));
		cg_ja(cg, done);
		cg_label_place(cg, z);
		cg_emit(cg, I_MOV64_IMM(r, 1));
		cg_label_place(cg, done);
		return r;
	}
	case T_BNEG:
		r = cg_expr(cg, n->l);
		cg_emit(cg, I_ALU64_IMM(BPF_XOR, r, -1));
		return r;
	case T_INEG:
		r = cg_expr(cg, n->l);
		cg_emit(cg, I_NEG64(r));
		return r;
	case T_IPOS:
		return cg_expr(cg, n->l);
	case T_DEREF: {
		r = cg_expr(cg, n->l);
		if (cg_is_byref(n->type))
			return r;	/* the address of the object */
		if (n->flags & DN_AMEM) {
			cg_load_alloca(cg, r, n->type);
			return r;
		}
		bool user = (n->flags & DN_USERLAND) != 0;
		cg_load_scalar(cg, r, n->type, user);
		return r;
	}
	case T_ADDROF:
		return cg_addr_of(cg, n->l);
	case T_PREINC:
	case T_PREDEC:
	case T_POSTINC:
	case T_POSTDEC:
		return cg_incdec(cg, n);
	default:
		dt_cerror(cg->pcb, "D_UNKNOWN", n->line, "internal error: unary operator");
	}
}

static void op3_into(struct dt_cg *cg, struct dt_node *n, bool str, int slot, int mark,
		     struct relay *r);

/*
 * A branch of ?: into its slot; the stack the branch used for its own
 * temporaries is free after.  A ?: as the branch puts its own branches'
 * values there.
 */
static void op3_branch(struct dt_cg *cg, struct dt_node *n, bool str, int slot, int mark,
		       struct relay *r)
{
	if (n->kind == N_OP3 && dt_type_is_string(n->type) == str) {
		op3_into(cg, n, str, slot, mark, r);
		return;
	}
	int v = str ? cg_expr_string_nullable(cg, n) : cg_expr(cg, n);
	cg_emit(cg, I_STX(BPF_DW, BPF_FP, v, slot));
	cg_reg_free(cg, v);
	cg_stack_release(cg, mark);
}

/* ?: whose value goes to `slot`, then to r's label (a chain a ? b : c ? d : e ... without recursion). */
static void op3_into(struct dt_cg *cg, struct dt_node *n, bool str, int slot, int mark,
		     struct relay *r)
{
	for (;;) {
		int other = cg_label_new(cg);
		cg_branch_false(cg, n->cond, other);
		op3_branch(cg, n->l, str, slot, mark, r);
		cg_ja(cg, r->cur);
		cg_label_place(cg, other);
		if (n->r->kind != N_OP3 || dt_type_is_string(n->r->type) != str)
			break;
		n = n->r;
		relay_step(cg, r);
	}
	op3_branch(cg, n->r, str, slot, mark, r);
}

/*
 * ?: -- each branch leaves its value in a stack slot, read into a register
 * after they meet: no register is held while the branches are evaluated.
 * A ?: nested as a branch, or chained (a ? b : c ? d : e ...), is part of
 * the same: one slot.
 */
static int cg_op3(struct dt_cg *cg, struct dt_node *n)
{
	/* A constant condition leaves one side only (DTrace folds it while parsing). */
	if (n->cond->flags & DN_CONST) {
		struct dt_node *pick = n->cond->cval ? n->l : n->r;
		return dt_type_is_string(n->type) ? cg_expr_string_nullable(cg, pick)
						   : cg_expr(cg, pick);
	}
	bool str = dt_type_is_string(n->type);
	int slot = cg_stack_alloc(cg, 8), done = cg_label_new(cg);
	/* The stack a branch used for its own temporaries is free after it. */
	int mark = cg_stack_mark(cg);
	size_t len = 1;
	struct relay r;

	for (struct dt_node *s = n; s->r->kind == N_OP3; s = s->r)
		len++;
	relay_begin(cg, &r, done, len);
	op3_into(cg, n, str, slot, mark, &r);
	relay_end(cg, &r);
	cg_label_place(cg, done);
	int res = cg_reg_alloc(cg);
	cg_emit(cg, I_LDX(BPF_DW, res, BPF_FP, slot));
	return res;
}

static int cg_cast(struct dt_cg *cg, struct dt_node *n)
{
	if (dt_type_is_string(n->type))
		return cg_expr_string(cg, n->l);
	int r = cg_expr(cg, n->l);
	if (!dt_type_is_void(n->type))
		cg_normalize(cg, r, n->type);
	return r;
}

static int expr_value(struct dt_cg *cg, struct dt_node *n)
{
	int r;

	if (n->flags & DN_CONST) {
		r = cg_reg_alloc(cg);
		cg_mov_imm64(cg, r, (uint64_t)n->cval);
		return r;
	}
	switch (n->kind) {
	case N_STRING:
		return cg_string_literal(cg, n);
	case N_IDENT:
		if (n->id->kind == IDK_BVAR)
			return cg_bvar(cg, n);
		if (n->id->kind == IDK_XLARG)
			return cg_xlate_arg(cg, n);
		if (n->id->kind == IDK_INLINE) {
			if (dt_type_is_string(n->type))
				return cg_expr_string(cg, n->id->inline_expr);
			r = cg_expr(cg, n->id->inline_expr);
			cg_normalize(cg, r, n->type);
			return r;
		}
		return cg_var_load(cg, n);
	case N_VAR:
		return cg_var_load(cg, n);
	case N_INDEX:
		if (n->id != NULL && n->id->kind == IDK_BVAR)
			return cg_bvar(cg, n);
		if (n->id != NULL && n->id->kind == IDK_INLINE)
			return cg_inline_array(cg, n);
		if (n->id != NULL && (n->id->kind == IDK_ARRAY || n->id->kind == IDK_TLS))
			return cg_var_load(cg, n);
		if (dt_type_is_string(n->l->type))
			return cg_string_char(cg, n);
		return cg_subscript(cg, n);
	case N_OP1:
		return cg_op1(cg, n);
	case N_OP2:
		return cg_op2(cg, n);
	case N_OP3:
		return cg_op3(cg, n);
	case N_CALL:
		if (n->id != NULL && n->id->kind == IDK_ACTION)
			return cg_symaddr_value(cg, n);	/* sym() & co. */
		return cg_subr(cg, n);
	case N_MEMBER:
		if (n->aux != NULL)
			return cg_xlate_member(cg, n);
		return cg_member(cg, n);
	case N_CAST:
		return cg_cast(cg, n);
	case N_STRINGOF:
		return cg_expr_string(cg, n->l);
	case N_XLATE:
		return cg_xlate_value(cg, n);
	default:
		dt_cerror(cg->pcb, NULL, n->line,
			  "this kind of expression is not supported yet by the code generator");
	}
}

/* Every evaluation is a region of its own for the register allocator (cg_reg.c). */
#define CG_NEST_MAX (2 * DT_NEST_MAX)
static void region_enter(struct dt_cg *cg, struct dt_node *n)
{
	/* The parser bounds nesting; inline definitions expand into more. */
	if (cg->regions.n >= CG_NEST_MAX)
		dt_cerror(cg->pcb, "D_SYNTAX", n->line,
			  "expression nested too deeply: code generation goes more than %d levels deep",
			  CG_NEST_MAX);
	dt_nest_check(cg->pcb, n->line, "expression");
	cg_reg_enter(cg);
}

static int region_value(struct dt_cg *cg, struct dt_node *n)
{
	region_enter(cg, n);
	return cg_reg_leave(cg, expr_value(cg, n));
}

/* A discarded ?: (a chain a ? b : c ? d : e ... without recursion). */
static void discard_op3(struct dt_cg *cg, struct dt_node *n)
{
	int done = cg_label_new(cg), mark = cg_stack_mark(cg);
	size_t len = 1;
	struct relay r;

	for (struct dt_node *s = n; s->r->kind == N_OP3 && !(s->r->flags & DN_CONST); s = s->r)
		len++;
	relay_begin(cg, &r, done, len);
	for (;;) {
		int other = cg_label_new(cg);
		cg_branch_false(cg, n->cond, other);
		cg_expr_discard(cg, n->l);
		cg_stack_release(cg, mark);
		cg_ja(cg, r.cur);
		cg_label_place(cg, other);
		if (n->r->kind != N_OP3 || (n->r->flags & DN_CONST))
			break;
		n = n->r;
		relay_step(cg, &r);
	}
	cg_expr_discard(cg, n->r);
	cg_stack_release(cg, mark);
	relay_end(cg, &r);
	cg_label_place(cg, done);
}

/*
 * DTrace evaluates an expression whose value is unused (an expression
 * statement, a DIFEXPR action; the left of a comma) for its side effects
 * and faults, and a D string is a pointer whose characters are read only
 * when they are used (dt_cg_node: stringof and casts load nothing).  So
 * the string that stringof() or a cast to string would make is not read
 * here, nor is a string value checked for NULL; loads, assignments and
 * calls in it still happen.  The operand that stands for the value is
 * followed by a loop, not recursion (inline definitions chain).
 */
static void discard_value(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_node *small[CHAIN_SMALL], **v;
	size_t k;

	for (;;) {
		if (n->flags & DN_CONST)
			return;
		switch (n->kind) {
		case N_STRINGOF:
			n = n->l;
			continue;
		case N_CAST:
			if (!dt_type_is_string(n->type))
				break;
			n = n->l;
			continue;
		case N_IDENT:
			if (n->id->kind != IDK_INLINE || !dt_type_is_string(n->type))
				break;
			n = n->id->inline_expr;
			continue;
		case N_OP2:
			if (n->op != T_COMMA)
				break;
			v = chain_operands(cg, n, T_COMMA, small, &k);
			for (size_t i = 0; i + 1 < k; i++) {
				cg_expr_discard(cg, v[i]);
				cg_island_if_due(cg);
			}
			n = v[k - 1];
			continue;
		case N_OP3:
			discard_op3(cg, n);
			return;
		default:
			break;
		}
		if (n->kind == N_OP2 && dt_tok_is_assign(n->op)) {
			cg_assign_discard(cg, n);
			return;
		}
		if (n->kind == N_OP1 && (n->op == T_PREINC || n->op == T_PREDEC ||
					 n->op == T_POSTINC || n->op == T_POSTDEC)) {
			cg_incdec_discard(cg, n);
			return;
		}
		cg_reg_free(cg, expr_value(cg, n));
		return;
	}
}

void cg_expr_discard(struct dt_cg *cg, struct dt_node *n)
{
	region_enter(cg, n);
	discard_value(cg, n);
	cg_reg_leave(cg, -1);
}

int cg_expr_nullable(struct dt_cg *cg, struct dt_node *n)
{
	return region_value(cg, n);
}

/* A NULL string used for its characters is a read of address 0, as in DTrace. */
int cg_expr(struct dt_cg *cg, struct dt_node *n)
{
	int r = region_value(cg, n);

	if (dt_type_is_string(n->type) && cg_may_be_null(n))
		cg_null_check(cg, r);
	return r;
}
