/*
 * A string compared for equality with a string literal (execname ==
 * "sshd", self->name != "x"), inlined: the string's first bytes are
 * loaded 8, 4, 2 and 1 at a time and compared with the literal's as
 * immediates, instead of a call of the run-time's strcmp loop.
 *
 * DTrace compares strings as strcmp() does, over at most the smaller of
 * the two strings' sizes (dt_rt_strcmp's bound n).  The literal c has no
 * NUL before its length L and one at L, so the two are equal exactly when
 * their first m = min(n, L + 1) bytes are: a shorter string differs at
 * its NUL, a longer one at c's, and what follows a difference is never
 * read by strcmp nor decides anything here.  The loads stay within the
 * string's storage (m is at most its size) at offsets aligned to their
 * size, so only strings whose storage is known qualify: execname's
 * 16-byte stack slot, and string variables (map values and scratch).
 */
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema_impl.h"
#include "compiler/vars.h"

/* Past this many bytes the run-time's loop is fewer instructions. */
#define STREQ_MAX 32

/* Bytes of storage the string value of n lies at the start of, or 0 if unknown. */
static uint32_t storage_size(struct dt_cg *cg, const struct dt_node *n)
{
	const struct dt_ident *id = n->id;

	if (id == NULL || !dt_type_is_string(n->type))
		return 0;
	if (n->kind == N_IDENT && id->kind == IDK_BVAR && id->code == BV_EXECNAME)
		return 16;
	/* A variable's own storage (its value type, for an associative array's element). */
	if (!dt_type_is_string(id->type))
		return 0;
	if ((n->kind == N_IDENT || n->kind == N_VAR) &&
	    (id->kind == IDK_GLOBAL || id->kind == IDK_LOCAL || id->kind == IDK_TLS))
		return dt_var_size(cg->cc, id->type);
	if ((n->kind == N_VAR || n->kind == N_INDEX) && (id->kind == IDK_TLS || id->kind == IDK_ARRAY))
		return dt_var_size(cg->cc, id->type);
	return 0;
}

/* The literal's bytes as the program holds it: cut at strsize, up to its first NUL. */
static size_t literal_len(struct dt_cg *cg, const struct dt_node *lit)
{
	size_t strsize = (size_t)cg->cc->core->opts.strsize;
	size_t len = lit->str.len < strsize ? lit->str.len : strsize;

	return strnlen(lit->str.s, len);
}

/* The literal operand of n (== or !=) and the other one, if the compare can be inlined. */
static bool operands(struct dt_cg *cg, struct dt_node *n, struct dt_node **lit,
		     struct dt_node **str, uint32_t *m)
{
	if (n->kind != N_OP2 || (n->op != T_EQU && n->op != T_NEQ))
		return false;
	if (n->r->kind == N_STRING) {
		*lit = n->r;
		*str = n->l;
	} else if (n->l->kind == N_STRING) {
		*lit = n->l;
		*str = n->r;
	} else {
		return false;
	}
	if ((*str)->kind == N_STRING)
		return false;
	uint32_t size = storage_size(cg, *str);
	uint32_t bound = cg_string_size(cg, *str);
	size_t want = literal_len(cg, *lit) + 1;

	if (size == 0)
		return false;
	if (bound > size)
		bound = size;
	*m = want < bound ? (uint32_t)want : bound;
	return *m <= STREQ_MAX;
}

/* Jump to `ne` unless the string at s equals the literal's first m bytes. */
static void compare_bytes(struct dt_cg *cg, int s, const struct dt_node *lit, uint32_t m,
			  size_t len, int ne)
{
	int t = cg_reg_alloc(cg), c = -1;

	for (uint32_t o = 0; o < m;) {
		uint32_t k = m - o >= 8 ? 8 : m - o >= 4 ? 4 : m - o >= 2 ? 2 : 1;
		uint8_t bytes[8] = { 0 };
		uint64_t v = 0;
		int code = k == 8 ? BPF_DW : k == 4 ? BPF_W : k == 2 ? BPF_H : BPF_B;

		/* The literal's bytes past its length are its NUL (then unused). */
		for (uint32_t i = 0; i < k; i++)
			bytes[i] = o + i < len ? (uint8_t)lit->str.s[o + i] : 0;
		/* The load's value, as the target's memory holds the bytes (native order). */
		memcpy(&v, bytes, 8);
		if (k < 8 && v <= INT32_MAX) {
			cg_emit(cg, I_LDX(code, t, s, (int16_t)o));
			cg_jmp_imm(cg, BPF_JNE, t, (int32_t)v, ne);
		} else {
			if (c < 0)
				c = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(code, t, s, (int16_t)o));
			cg_mov_imm64(cg, c, v);
			cg_jmp_reg(cg, BPF_JNE, t, c, ne);
		}
		o += k;
	}
	cg_reg_free(cg, c);
	cg_reg_free(cg, t);
}

/*
 * The string operand's value, then a jump to `ne` when it differs (NULL
 * differs from any literal: NULL compares by address).
 */
static void emit(struct dt_cg *cg, struct dt_node *lit, struct dt_node *str, uint32_t m, int ne)
{
	int s = cg_expr_string_nullable(cg, str);

	if (cg_may_be_null(str))
		cg_jmp_imm(cg, BPF_JEQ, s, 0, ne);
	compare_bytes(cg, s, lit, m, literal_len(cg, lit), ne);
	cg_reg_free(cg, s);
}

int cg_streq_value(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_node *lit, *str;
	uint32_t m;

	if (cg->cc->core->opts.nooptimize || !operands(cg, n, &lit, &str, &m))
		return -1;
	uint32_t mark = cg->scratch_off;
	int res = cg_reg_alloc(cg), done = cg_label_new(cg);

	cg_emit(cg, I_MOV64_IMM(res, n->op == T_NEQ));
	emit(cg, lit, str, m, done);
	cg_emit(cg, I_MOV64_IMM(res, n->op == T_EQU));
	cg_label_place(cg, done);
	cg->scratch_off = mark;
	return res;
}

bool cg_streq_branch_false(struct dt_cg *cg, struct dt_node *n, int label)
{
	struct dt_node *lit, *str;
	uint32_t m;

	if (cg->cc->core->opts.nooptimize || n->kind != N_OP2 || n->op != T_EQU ||
	    !operands(cg, n, &lit, &str, &m))
		return false;
	uint32_t mark = cg->scratch_off;

	emit(cg, lit, str, m, label);
	cg->scratch_off = mark;
	return true;
}
