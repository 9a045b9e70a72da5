/*
 * alloca() and what uses its memory: copyin(), copyinto(), bcopy(), and
 * loads and stores through pointers into it.
 *
 * The memory is the alloca area of the scratch (cg_alloca_words), taken
 * afresh by each clause, 8-byte aligned.  A pointer into it is an
 * ordinary address (so that it prints, compares and reads like any
 * other), held as a plain number: it is laundered through a scratch word
 * the verifier does not track.  An access through it is checked as
 * DTrace checks one (the position within what the clause allocated, or
 * "invalid address"; the end too, or "invalid size") and turned back
 * into the scratch pointer plus a bounded offset, which the verifier
 * accepts.
 */
#include "base/abi.h"
#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

/* The two words before the memory: its address (as a number) and the top. */
#define W_BASE	0
#define W_TOP	8
#define MEM	16

static struct dt_node *arg(struct dt_node *call, int i)
{
	struct dt_node *a = call->call.args;

	while (i-- > 0 && a)
		a = a->next;
	return a;
}

/* reg = the scratch address of the alloca words, plus off. */
static int words(struct dt_cg *cg, uint32_t off)
{
	int r = cg_reg_alloc(cg);

	cg->stmt->uses_scratch = true;
	cg_emit(cg, I_MOV64_REG(r, REG_SCRATCH));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)(cg_alloca_words(cg->cc) + off)));
	return r;
}

/* A clause starts with nothing allocated; the base word holds the memory's address. */
void cg_alloca_reset(struct dt_cg *cg)
{
	int w = words(cg, 0), m = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(m, w));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, m, MEM));
	cg_emit(cg, I_STX(BPF_DW, w, m, W_BASE));
	cg_emit(cg, I_ST(BPF_DW, w, W_TOP, 0));
	cg_reg_free(cg, m);
	cg_reg_free(cg, w);
}

/* The memory's address as a number (read back from the base word). */
static int base_number(struct dt_cg *cg)
{
	int r = words(cg, 0);

	cg_emit(cg, I_LDX(BPF_DW, r, r, W_BASE));
	return r;
}

/*
 * dt_cg_alloca_access_check: the position must be within what the clause
 * allocated ("invalid address"), and so must its end ("invalid size").
 * off is addr less the base; returned, bounded for the verifier.  Which
 * fault it is is settled off the fast path.
 */
static int access_check(struct dt_cg *cg, int addr, int off, int size_reg, uint32_t size)
{
	uint32_t ss = cg_alloca_size(cg->cc);
	int fail = cg_label_new(cg), badaddr = cg_label_new(cg), ok = cg_label_new(cg);
	int top = words(cg, 0);
	int end = cg_reg_alloc(cg);

	cg_emit(cg, I_LDX(BPF_DW, top, top, W_TOP));
	if (size_reg >= 0) {
		cg_jmp_imm(cg, BPF_JGT, size_reg, (int32_t)ss, fail);
		cg_jmp_imm(cg, BPF_JGT, off, (int32_t)ss, fail);
	} else if (size > ss) {
		cg_ja(cg, fail);
	} else {
		cg_jmp_imm(cg, BPF_JGT, off, (int32_t)(ss - size), fail);
	}
	cg_emit(cg, I_MOV64_REG(end, off));
	if (size_reg >= 0)
		cg_emit(cg, I_ALU64_REG(BPF_ADD, end, size_reg));
	else
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, end, (int32_t)size));
	cg_jmp_reg(cg, BPF_JLE, end, top, ok);
	cg_label_place(cg, fail);
	cg_jmp_reg(cg, BPF_JGE, off, top, badaddr);
	if (size_reg < 0)
		cg_emit(cg, I_MOV64_IMM(end, (int32_t)size));
	cg_fault(cg, DT_FLT_BADSIZE, size_reg >= 0 ? size_reg : end);
	cg_label_place(cg, badaddr);
	cg_fault(cg, DT_FLT_BADADDR, addr);
	cg_label_place(cg, ok);
	cg_reg_free(cg, end);
	cg_reg_free(cg, top);
	return off;
}

/* off = addr - the base (the memory's address). */
static int offset_of(struct dt_cg *cg, int addr)
{
	int off = base_number(cg);

	cg_emit(cg, I_ALU64_IMM(BPF_NEG, off, 0));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, off, addr));
	return off;
}

int cg_alloca_ptr(struct dt_cg *cg, int addr, uint32_t size)
{
	int off = access_check(cg, addr, offset_of(cg, addr), -1, size);
	int p = words(cg, MEM);

	cg_emit(cg, I_ALU64_REG(BPF_ADD, p, off));
	cg_reg_free(cg, off);
	return p;
}

/*
 * What alloca( ) may take in all: scratchsize rounded up to 8 bytes (DTrace
 * keeps 8 bytes more for NULL and takes them off again).
 */
static uint32_t usable(struct dt_cg *cg)
{
	return cg_alloca_size(cg->cc);
}

/*
 * Take `size` (a register) bytes: returns the address as a number.  Too
 * much for what is left faults as DTrace's "out of scratch space".
 */
static int allocate(struct dt_cg *cg, int size)
{
	uint32_t ss = usable(cg);
	int w = words(cg, 0);
	int top = cg_reg_alloc(cg), ok = cg_label_new(cg), bad = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JGT, size, (int32_t)ss, bad);
	cg_emit(cg, I_LDX(BPF_DW, top, w, W_TOP));
	int end = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(end, size));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, end, 7));
	cg_emit(cg, I_ALU64_IMM(BPF_AND, end, -8));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, end, top));
	cg_jmp_imm(cg, BPF_JLE, end, (int32_t)ss, ok);
	cg_label_place(cg, bad);
	cg_fault(cg, DT_FLT_NOSCRATCH, -1);
	cg_label_place(cg, ok);
	cg_emit(cg, I_STX(BPF_DW, w, end, W_TOP));
	cg_reg_free(cg, end);
	/* The address: the base word's number plus the old top. */
	cg_emit(cg, I_LDX(BPF_DW, w, w, W_BASE));
	cg_emit(cg, I_ALU64_REG(BPF_ADD, top, w));
	cg_reg_free(cg, w);
	return top;
}

/* size too large for scratch: DTrace checks a constant at compile time. */
static void check_const_size(struct dt_cg *cg, struct dt_node *n, const char *fn, const char *tag)
{
	uint64_t ss = usable(cg);

	if ((n->flags & DN_CONST) && (uint64_t)n->cval > ss)
		dt_cerror(cg->pcb, tag, n->line, "%s(%llu) size larger than scratchsize %llu", fn,
			  (unsigned long long)(uint64_t)n->cval, (unsigned long long)ss);
}

/* Copy n bytes from src (user memory if user) to the alloca'd dst. */
static void copy_into(struct dt_cg *cg, int dst, int src, int n, bool user, bool src_alloca)
{
	int ok = cg_label_new(cg), sized = cg_label_new(cg);

	/* dt_cg_subr_bcopy_impl: a size below 0 or beyond scratch is "invalid size". */
	cg_jmp_imm(cg, BPF_JLE, n, (int32_t)usable(cg), sized);
	cg_fault(cg, DT_FLT_BADSIZE, n);
	cg_label_place(cg, sized);

	/* dt_cg_check_ptr_arg: both ends of an alloca'd operand, source first. */
	int a[3];
	if (src_alloca) {
		int soff = access_check(cg, src, offset_of(cg, src), n, 0);
		a[2] = words(cg, MEM);
		cg_emit(cg, I_ALU64_REG(BPF_ADD, a[2], soff));
		cg_reg_free(cg, soff);
	} else {
		a[2] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[2], src));
	}
	int off = access_check(cg, dst, offset_of(cg, dst), n, 0);
	a[0] = words(cg, MEM);
	cg_emit(cg, I_ALU64_REG(BPF_ADD, a[0], off));
	cg_reg_free(cg, off);
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[1], n));
	if (user)
		cg_bvar_need_current(cg, "user memory");
	int rc = cg_call_helper(cg, user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel,
				a, 3);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_reg_free(cg, rc);
	cg_fault(cg, DT_FLT_BADADDR, src);
	cg_label_place(cg, ok);
}

int cg_alloca_subr(struct dt_cg *cg, struct dt_node *n)
{
	switch (n->id->code) {
	case SUB_ALLOCA: {
		check_const_size(cg, arg(n, 0), "alloca", "D_ALLOCA_SIZE");
		int size = cg_expr(cg, arg(n, 0));
		int p = allocate(cg, size);
		cg_reg_free(cg, size);
		return p;
	}
	case SUB_COPYIN: {
		/* DTrace's copyin( ) takes its memory as alloca( ) does, so says "alloca". */
		check_const_size(cg, arg(n, 1), "alloca", "D_ALLOCA_SIZE");
		int src = cg_expr(cg, arg(n, 0));
		int size = cg_expr(cg, arg(n, 1));
		/* The size first: below 0 or beyond scratch is "invalid size". */
		int sized = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JLE, size, (int32_t)usable(cg), sized);
		cg_fault(cg, DT_FLT_BADSIZE, size);
		cg_label_place(cg, sized);
		int p = allocate(cg, size);
		copy_into(cg, p, src, size, true, false);
		cg_reg_free(cg, size);
		cg_reg_free(cg, src);
		return p;
	}
	case SUB_COPYINTO: {
		int src = cg_expr(cg, arg(n, 0));
		int size = cg_expr(cg, arg(n, 1));
		int dst = cg_expr(cg, arg(n, 2));
		copy_into(cg, dst, src, size, true, false);
		cg_reg_free(cg, dst);
		cg_reg_free(cg, size);
		cg_reg_free(cg, src);
		return cg_reg_alloc(cg);
	}
	case SUB_BCOPY: {
		struct dt_node *s = arg(n, 0);
		int src = cg_expr(cg, s);
		int dst = cg_expr(cg, arg(n, 1));
		int size = cg_expr(cg, arg(n, 2));
		copy_into(cg, dst, src, size, false, (s->flags & DN_ALLOCA) != 0);
		cg_reg_free(cg, size);
		cg_reg_free(cg, dst);
		cg_reg_free(cg, src);
		return cg_reg_alloc(cg);
	}
	default:
		return -1;
	}
}
