/*
 * String subroutines: each is a call of a function of the run-time
 * library (bpf/strcopy.bpf.c, bpf/strsearch.bpf.c) with a work area in
 * the statement's scratch (DT_STR_WORK); string results are left in the
 * work area's first buffer.
 */
#include <string.h>

#include "base/abi.h"
#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

static struct dt_node *arg(struct dt_node *call, int i)
{
	struct dt_node *a = call->call.args;

	while (i-- > 0 && a)
		a = a->next;
	return a;
}

static int imm(struct dt_cg *cg, int64_t v)
{
	int r = cg_reg_alloc(cg);

	cg_mov_imm64(cg, r, (uint64_t)v);
	return r;
}

/*
 * An integer argument converted to its prototype's type, as in a call of a
 * C function: substr("abc", 4294967297) starts at 1 (DTrace's substr()
 * also takes only the low 32 bits of its int arguments).
 */
static int int_arg(struct dt_cg *cg, struct dt_node *n, struct dt_type *t)
{
	int r = cg_expr(cg, n);

	cg_normalize(cg, r, t);
	return r;
}

static int work(struct dt_cg *cg)
{
	return cg_scratch_alloc(cg, DT_STR_WORK(dt_str_bytes(cg->cc)));
}

/* A string argument that may be NULL: a null constant stays 0. */
static int str_or_null(struct dt_cg *cg, struct dt_node *n)
{
	if ((n->flags & DN_CONST) && !dt_type_is_string(n->type) && n->cval == 0)
		return imm(cg, 0);
	return cg_expr_string(cg, n);
}

static int strtok_state(struct dt_cg *cg)
{
	struct dt_compiler *cc = cg->cc;

	if (!cc->uses_strtok) {
		cc->uses_strtok = true;
		cc->strtok_off = DT_ALIGN(cc->locals_size, 8);
		cc->locals_size = cc->strtok_off + 8 + dt_str_bytes(cc);
	}
	cg->stmt->uses_scratch = true;
	int r = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(r, REG_SCRATCH));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)(cg_locals_base(cc) + cc->strtok_off)));
	return r;
}

/*
 * The address formatters: the run-time returns 0 when it cannot read the
 * address and 1 for an address family or link type it does not know.
 */
static int inet(struct dt_cg *cg, struct dt_node *n, uint32_t nb)
{
	int code = n->id->code;
	int a[4], addr;

	if (code == SUB_INET_NTOP || code == SUB_LINK_NTOP) {
		a[1] = cg_expr(cg, arg(n, 0));
		addr = cg_expr(cg, arg(n, 1));
		a[2] = addr;
	} else {
		addr = cg_expr(cg, arg(n, 0));
		a[1] = addr;
	}
	/* Kept for the fault report (the call takes its argument registers). */
	int keep = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(keep, addr));
	a[0] = work(cg);
	const char *fn;
	int na;
	switch (code) {
	case SUB_INET_NTOA:
		a[2] = imm(cg, nb);
		fn = "dt_rt_inet_ntoa";
		na = 3;
		break;
	case SUB_INET_NTOA6: {
		struct dt_node *strict = arg(n, 1);
		a[2] = imm(cg, nb);
		a[3] = imm(cg, strict != NULL && strict->cval != 0);
		fn = "dt_rt_inet_ntoa6";
		na = 4;
		break;
	}
	case SUB_INET_NTOP:
		a[3] = imm(cg, nb);
		fn = "dt_rt_inet_ntop";
		na = 4;
		break;
	default:
		a[3] = imm(cg, nb);
		fn = "dt_rt_link_ntop";
		na = 4;
		break;
	}
	int r = cg_call_func(cg, fn, a, na);
	int ok = cg_label_new(cg), illop = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, r, 1, illop);
	cg_jmp_imm(cg, BPF_JNE, r, 0, ok);
	cg_fault(cg, DT_FLT_BADADDR, keep);
	cg_label_place(cg, illop);
	cg_fault(cg, DT_FLT_ILLOP, -1);
	cg_label_place(cg, ok);
	cg_reg_free(cg, keep);
	return r;
}

int cg_strfn(struct dt_cg *cg, struct dt_node *n)
{
	uint32_t nb = dt_str_bytes(cg->cc);
	int code = n->id->code;
	int a[5];

	/* Integer results: the temporaries of their arguments die with the call. */
	uint32_t mark = cg->scratch_off;
	int r;

	switch (code) {
	case SUB_STRLEN:
		a[0] = cg_expr_string(cg, arg(n, 0));
		a[1] = imm(cg, nb);
		a[2] = cg_scratch_alloc(cg, nb);
		r = cg_call_func(cg, "dt_rt_strlen", a, 3);
		cg->scratch_off = mark;
		return r;
	case SUB_STRJOIN:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[2] = cg_expr_string(cg, arg(n, 1));
		a[0] = work(cg);
		a[3] = imm(cg, nb);
		return cg_call_func(cg, "dt_rt_strjoin", a, 4);
	case SUB_SUBSTR: {
		struct dt_node *len = arg(n, 2);
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[2] = int_arg(cg, arg(n, 1), cg->cc->core->types.t_int);
		a[3] = len ? int_arg(cg, len, cg->cc->core->types.t_int) : imm(cg, 0);
		a[0] = work(cg);
		a[4] = imm(cg, (int64_t)nb << 1 | (len != NULL));
		return cg_call_func(cg, "dt_rt_substr", a, 5);
	}
	case SUB_TOUPPER:
	case SUB_TOLOWER:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[0] = work(cg);
		a[2] = imm(cg, nb);
		a[3] = imm(cg, code == SUB_TOUPPER);
		return cg_call_func(cg, "dt_rt_strcase", a, 4);
	case SUB_LLTOSTR: {
		struct dt_node *base = arg(n, 1);
		a[1] = cg_expr(cg, arg(n, 0));
		a[2] = base ? int_arg(cg, base, cg->cc->core->types.t_int) : imm(cg, 10);
		if (base != NULL) {
			/* DTrace: a base outside 2..36 is an illegal operation. */
			int ok = cg_label_new(cg), bad = cg_label_new(cg);
			cg_jmp_imm(cg, BPF_JSLT, a[2], 2, bad);
			cg_jmp_imm(cg, BPF_JSLE, a[2], 36, ok);
			cg_label_place(cg, bad);
			cg_fault(cg, DT_FLT_ILLOP, -1);
			cg_label_place(cg, ok);
		}
		a[0] = work(cg);
		a[3] = imm(cg, nb);
		return cg_call_func(cg, "dt_rt_lltostr", a, 4);
	}
	case SUB_INDEX:
	case SUB_RINDEX: {
		struct dt_node *start = arg(n, 2);
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[2] = cg_expr_string(cg, arg(n, 1));
		a[3] = start ? int_arg(cg, start, cg->cc->core->types.t_int) : imm(cg, 0);
		a[0] = work(cg);
		a[4] = imm(cg, (int64_t)nb << 2 | (code == SUB_RINDEX) << 1 | (start != NULL));
		r = cg_call_func(cg, "dt_rt_index", a, 5);
		cg->scratch_off = mark;
		/* index() is an int. */
		cg_emit(cg, I_ALU64_IMM(BPF_LSH, r, 32));
		cg_emit(cg, I_ALU64_IMM(BPF_ARSH, r, 32));
		return r;
	}
	case SUB_STRSTR:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[2] = cg_expr_string(cg, arg(n, 1));
		a[0] = work(cg);
		a[3] = imm(cg, nb);
		return cg_call_func(cg, "dt_rt_strstr", a, 4);
	case SUB_STRCHR:
	case SUB_STRRCHR:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[2] = int_arg(cg, arg(n, 1), cg->cc->core->types.t_char);
		a[0] = work(cg);
		a[3] = imm(cg, nb);
		a[4] = imm(cg, code == SUB_STRRCHR);
		return cg_call_func(cg, "dt_rt_strchr", a, 5);
	case SUB_BASENAME:
	case SUB_DIRNAME:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[0] = work(cg);
		a[2] = imm(cg, nb);
		a[3] = imm(cg, code == SUB_DIRNAME);
		return cg_call_func(cg, "dt_rt_pathpart", a, 4);
	case SUB_CLEANPATH:
		a[1] = cg_expr_string(cg, arg(n, 0));
		a[0] = work(cg);
		a[2] = imm(cg, nb);
		return cg_call_func(cg, "dt_rt_cleanpath", a, 3);
	case SUB_INET_NTOA:
	case SUB_INET_NTOA6:
	case SUB_INET_NTOP:
	case SUB_LINK_NTOP:
		return inet(cg, n, nb);
	case SUB_STRTOK: {
		a[1] = str_or_null(cg, arg(n, 0));
		a[2] = cg_expr_string(cg, arg(n, 1));
		a[0] = work(cg);
		a[3] = strtok_state(cg);
		a[4] = imm(cg, nb);
		r = cg_call_func(cg, "dt_rt_strtok", a, 5);
		/* 1: nothing to continue from, as reading address 0. */
		int ok = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, r, 1, ok);
		int zero = imm(cg, 0);
		cg_fault(cg, DT_FLT_BADADDR, zero);
		cg_reg_free(cg, zero);
		cg_label_place(cg, ok);
		return r;
	}
	default:
		return -1;
	}
}
