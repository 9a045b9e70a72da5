/*
 * Strings: literals in .rodata, temporaries in per-CPU scratch, copies
 * with the probe_read_*_str helpers, comparison in the run-time library.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

#define TEMPS_PER_STMT 32

uint32_t dt_str_bytes(const struct dt_compiler *cc)
{
	return (uint32_t)cc->core->opts.strsize + 1;
}

uint32_t cg_scratch_temps(struct dt_compiler *cc)
{
	uint32_t n = (uint32_t)(TEMPS_PER_STMT * DT_ALIGN(dt_str_bytes(cc), 8));

	/* Room for aggregation keys of a few stacks, whatever strsize is. */
	return n > DT_STACK_SCRATCH ? n : DT_STACK_SCRATCH;
}

/*
 * The scratch area of a nesting level: the statement's temporaries, the
 * alloca area, then clause-locals (and strtok()'s state).  The alloca area
 * is two words (an address, the clause's allocation top) and scratchsize
 * bytes twice over: the verifier checks a copy of up to scratchsize bytes
 * starting anywhere in the first half.
 */
uint32_t cg_alloca_words(struct dt_compiler *cc)
{
	return cg_scratch_temps(cc);
}

uint32_t cg_alloca_size(struct dt_compiler *cc)
{
	return (uint32_t)DT_ALIGN((uint64_t)cc->core->opts.scratchsize, 8);
}

uint32_t cg_locals_base(struct dt_compiler *cc)
{
	return cg_alloca_words(cc) + 16 + 2 * cg_alloca_size(cc);
}

uint32_t cg_rodata_zeros(struct dt_cg *cg, uint32_t size)
{
	static const uint8_t zeros[1024];
	uint8_t *buf;

	if (size <= sizeof(zeros))
		return cg_rodata(cg, zeros, size);
	buf = dt_palloc(cg->pcb, size);
	memset(buf, 0, size);
	return cg_rodata(cg, buf, size);
}

int cg_string_literal(struct dt_cg *cg, struct dt_node *n)
{
	uint32_t strsize = (uint32_t)cg->cc->core->opts.strsize;
	size_t len = n->str.len < strsize ? n->str.len : strsize;
	char *buf = dt_palloc(cg->pcb, len + 1);
	int r = cg_reg_alloc(cg);

	memcpy(buf, n->str.s, len);
	buf[len] = '\0';
	cg_ld_rodata(cg, r, cg_rodata(cg, buf, len + 1));
	return r;
}

uint32_t cg_string_size(struct dt_cg *cg, struct dt_node *n)
{
	return dt_expr_strsize(cg->cc, n);
}

uint32_t cg_scratch_reserve(struct dt_cg *cg, uint32_t size)
{
	uint32_t off = DT_ALIGN(cg->scratch_off, 8);

	if (off + size > cg_scratch_temps(cg->cc))
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "statement needs more than %u bytes of string temporaries",
			  cg_scratch_temps(cg->cc));
	cg->scratch_off = off + size;
	if (cg->scratch_off > cg->scratch_max)
		cg->scratch_max = cg->scratch_off;
	cg->stmt->uses_scratch = true;
	return off;
}

int cg_scratch_alloc(struct dt_cg *cg, uint32_t size)
{
	uint32_t off = cg_scratch_reserve(cg, size);
	int r = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(r, REG_SCRATCH));
	if (off)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)off));
	return r;
}

/*
 * A string ends at its NUL and nothing after it is kept: the rest of the
 * destination is zero, whatever it held (another process's arguments, an
 * earlier record), because records, keys and translated structs are read
 * as bytes.  The helper stops at the NUL, so the destination is zeroed
 * first, unless the source lies in it (s = s + 2 moves a string within
 * its own storage, where zeroing would destroy it; what follows the NUL
 * there is that string's own bytes, never seen outside it).
 */
static void zero_dst(struct dt_cg *cg, int dst, int src, uint32_t size)
{
	int zero = cg_label_new(cg), done = cg_label_new(cg);
	int t = cg_reg_alloc(cg);

	cg_jmp_reg(cg, BPF_JLT, src, dst, zero);
	cg_emit(cg, I_MOV64_REG(t, dst));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, t, (int32_t)size));
	cg_jmp_reg(cg, BPF_JLT, src, t, done);
	cg_label_place(cg, zero);
	cg_emit(cg, I_MOV64_REG(t, dst));
	int z = cg_reg_alloc(cg);
	cg_ld_rodata(cg, z, cg_rodata_zeros(cg, size));
	struct cg_arg a[3] = {
		{ CG_ARG_REG, t }, { CG_ARG_IMM, (int32_t)size }, { CG_ARG_REG, z },
	};
	cg_reg_free(cg, cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel, a, 3));
	cg_label_place(cg, done);
}

void cg_strcpy(struct dt_cg *cg, int dst, int src, uint32_t size)
{
	zero_dst(cg, dst, src, size);
	struct cg_arg a[3] = {
		{ CG_ARG_REG, dst }, { CG_ARG_IMM, (int32_t)size }, { CG_ARG_REG, src },
	};
	cg_reg_free(cg, cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel_str, a, 3));
}

int cg_expr_string(struct dt_cg *cg, struct dt_node *n)
{
	if (dt_type_is_string(n->type))
		return cg_expr(cg, n);
	/* char * or char[]: an address in kernel or user space. */
	return cg_str_from_mem(cg, n, -1, 0);
}

int cg_expr_string_nullable(struct dt_cg *cg, struct dt_node *n)
{
	if (dt_type_is_string(n->type))
		return cg_expr_nullable(cg, n);
	return cg_expr_string(cg, n);
}

/*
 * The mark of a NULL string in a string variable's storage: a first byte
 * 0, which no other bytes follow in an empty string, then 1 (DTrace's
 * DT_NULL_STRING idea: storage holds strings by value, so NULL needs a
 * value of its own).
 */
#define NULL_MARK 0x0100	/* bytes 0x00 0x01, little-endian */

bool cg_may_be_null(const struct dt_node *n)
{
	/* Inlines naming inlines and chains of ?: are followed without recursion. */
	for (;;) {
		const struct dt_ident *id = n->id;
		if (!dt_type_is_string(n->type))
			return false;
		switch (n->kind) {
		case N_IDENT:
		case N_VAR:
		case N_INDEX:
			if (id == NULL)
				return false;
			if (id->kind == IDK_INLINE && id->inline_expr != NULL && n->kind == N_IDENT) {
				n = id->inline_expr;
				continue;
			}
			return id->kind == IDK_GLOBAL || id->kind == IDK_LOCAL || id->kind == IDK_TLS ||
			       id->kind == IDK_ARRAY;
		case N_CALL:
			return id != NULL && id->kind == IDK_SUBR &&
			       (id->code == SUB_STRCHR || id->code == SUB_STRRCHR ||
				id->code == SUB_STRSTR || id->code == SUB_STRTOK);
		case N_OP3:
			if (cg_may_be_null(n->l))
				return true;
			n = n->r;
			continue;
		default:
			return false;
		}
	}
}

void cg_null_check(struct dt_cg *cg, int reg)
{
	int ok = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JNE, reg, 0, ok);
	cg_fault(cg, DT_FLT_BADADDR, reg);
	cg_label_place(cg, ok);
}

void cg_str_null_mark_load(struct dt_cg *cg, int reg)
{
	int mark = cg_reg_alloc(cg), done = cg_label_new(cg);

	cg_emit(cg, I_LDX(BPF_H, mark, reg, 0));
	cg_jmp_imm(cg, BPF_JNE, mark, NULL_MARK, done);
	cg_emit(cg, I_MOV64_IMM(reg, 0));
	cg_label_place(cg, done);
	cg_reg_free(cg, mark);
}

void cg_str_null_mark_store(struct dt_cg *cg, int dst)
{
	cg_emit(cg, I_ST(BPF_H, dst, 0, NULL_MARK));
}

int cg_strcmp(struct dt_cg *cg, struct dt_node *a, int ra, struct dt_node *b, int rb)
{
	uint32_t sa = cg_string_size(cg, a), sb = cg_string_size(cg, b);
	int args[3];

	args[0] = ra;
	args[1] = rb;
	args[2] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(args[2], (int32_t)(sa < sb ? sa : sb)));
	int r = cg_call_func(cg, "dt_rt_strcmp", args, 3);
	/* The run-time returns a u64; make it a signed 32-bit result. */
	cg_emit(cg, I_ALU64_IMM(BPF_LSH, r, 32));
	cg_emit(cg, I_ALU64_IMM(BPF_ARSH, r, 32));
	return r;
}

/*
 * The address a pointer register holds, as a plain number: written to
 * scratch and read back (the verifier does not track map memory), so that
 * any offset can be added to it.
 */
static void cg_forget_pointer(struct dt_cg *cg, int reg)
{
	int w = cg_scratch_alloc(cg, 8);

	cg_emit(cg, I_STX(BPF_DW, w, reg, 0));
	cg_emit(cg, I_LDX(BPF_DW, reg, w, 0));
	cg_reg_free(cg, w);
}

/* s[i]: the character at i, read as any memory (a NULL string faults). */
int cg_string_char(struct dt_cg *cg, struct dt_node *n)
{
	int s = cg_expr_string_nullable(cg, n->l);
	int i = cg_expr(cg, n->call.args);

	cg_forget_pointer(cg, s);
	cg_emit(cg, I_ALU64_REG(BPF_ADD, s, i));
	cg_reg_free(cg, i);
	cg_load_scalar(cg, s, n->type, false);
	return s;
}

/*
 * s + i (or i + s): the string from its i-th character.  The offset is
 * kept within the string's bytes (the verifier needs a bound; what lies
 * past the NUL is the empty string anyway).
 */
int cg_string_offset(struct dt_cg *cg, struct dt_node *n)
{
	bool left = dt_type_is_string(n->l->type);
	int s = cg_expr_string(cg, left ? n->l : n->r);
	int i = cg_expr(cg, left ? n->r : n->l);
	uint32_t max = cg_string_size(cg, left ? n->l : n->r) - 1;
	int ok = cg_label_new(cg), big = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JLE, i, (int32_t)max, ok);
	cg_label_place(cg, big);
	cg_emit(cg, I_MOV64_IMM(i, (int32_t)max));
	cg_label_place(cg, ok);
	cg_emit(cg, I_ALU64_REG(BPF_ADD, s, i));
	cg_reg_free(cg, i);
	return s;
}
