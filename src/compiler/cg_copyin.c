/*
 * Strings read from kernel or user memory: copyinstr() and a char * or
 * char array used as a string (stringof(), a printf() or trace()
 * argument).  As a value they are read into a scratch buffer; when the
 * string goes straight into a record they are read into the record's
 * slot instead, with the same bounds and the same fault at the address.
 */
#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema_impl.h"

/* Where the string goes: REG_REC + off if off >= 0, else a new scratch buffer of size bytes. */
static int dest(struct dt_cg *cg, int32_t off, uint32_t size)
{
	if (off < 0)
		return cg_scratch_alloc(cg, size);
	int r = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(r, REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, off));
	return r;
}

/* For a scratch buffer, a register that keeps its address past the call; else -1. */
static int keep_dest(struct dt_cg *cg, int dst, int32_t off)
{
	if (off >= 0)
		return -1;
	int keep = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(keep, dst));
	return keep;
}

/*
 * addr and save hold the same address; the call consumes addr and the
 * fault path reads save: the one that survives calls (r6-r9) is kept, so
 * that the other goes to the call and nothing waits on the stack.
 */
static void keep_survivor(int *addr, int *save)
{
	if (*save <= BPF_R5 && *addr > BPF_R5) {
		int t = *addr;
		*addr = *save;
		*save = t;
	}
}

int cg_copyinstr_to(struct dt_cg *cg, struct dt_node *n, int32_t rec_off)
{
	/*
	 * DTrace reads min(maxsize, strsize) bytes, its NUL included (a
	 * larger maxsize, as unsigned, is strsize); nothing read (a size of
	 * 0, a bad address) is a fault at the address.
	 */
	cg_bvar_need_current(cg, "copyinstr( )");
	uint32_t strsize = (uint32_t)cg->cc->core->opts.strsize;
	struct dt_node *lim = n->call.args->next;
	int addr = cg_expr(cg, n->call.args);
	int buf = dest(cg, rec_off, dt_str_bytes(cg->cc));
	int keep = keep_dest(cg, buf, rec_off);
	int save = cg_reg_alloc(cg);
	int bad = cg_label_new(cg), ok = cg_label_new(cg);
	cg_emit(cg, I_MOV64_REG(save, addr));
	keep_survivor(&addr, &save);
	int a[3];
	a[0] = buf;
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)strsize));
	if (lim != NULL) {
		int l = cg_expr(cg, lim);
		int big = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JGT, l, (int32_t)strsize, big);
		cg_emit(cg, I_MOV64_REG(a[1], l));
		cg_label_place(cg, big);
		cg_reg_free(cg, l);
		cg_jmp_imm(cg, BPF_JEQ, a[1], 0, bad);
	}
	a[2] = addr;
	int rc = cg_call_helper(cg, BPF_FUNC_probe_read_user_str, a, 3);
	cg_jmp_imm(cg, BPF_JSGT, rc, 0, ok);
	cg_reg_free(cg, rc);
	cg_label_place(cg, bad);
	cg_fault(cg, DT_FLT_BADADDR, save);
	cg_label_place(cg, ok);
	cg_reg_free(cg, save);
	return keep;
}

/* Whether the string at the address n evaluates to is in user memory. */
static bool userland_string(struct dt_node *n)
{
	struct dt_type *b = dt_type_base(n->type);

	return (n->flags & DN_USERLAND) != 0 || (b != NULL && b->kind == TK_PTR && b->userland);
}

int cg_str_from_mem(struct dt_cg *cg, struct dt_node *n, int32_t rec_off, uint32_t size)
{
	bool user = userland_string(n);

	if (user)
		cg_bvar_need_current(cg, "user memory");
	if (rec_off < 0)
		size = dt_str_bytes(cg->cc);
	int addr = cg_expr(cg, n);
	int buf = dest(cg, rec_off, size);
	int keep = keep_dest(cg, buf, rec_off);
	int save = cg_reg_alloc(cg);
	int a[3];

	cg_emit(cg, I_MOV64_REG(save, addr));
	keep_survivor(&addr, &save);
	a[0] = buf;
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)size));
	a[2] = addr;
	int rc = cg_call_helper(cg, user ? BPF_FUNC_probe_read_user_str
					 : BPF_FUNC_probe_read_kernel_str, a, 3);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JSGE, rc, 0, ok);
	cg_reg_free(cg, rc);
	cg_fault(cg, DT_FLT_BADADDR, save);
	cg_label_place(cg, ok);
	cg_reg_free(cg, save);
	return keep;
}

static bool is_copyinstr(const struct dt_node *n)
{
	return n->kind == N_CALL && n->id != NULL && n->id->kind == IDK_SUBR &&
	       n->id->code == SUB_COPYINSTR;
}

/*
 * The consumer reads a record's string only up to its NUL (printf()'s
 * %s and %S, trace(), the API's data; with rawbytes it pads its own copy
 * with zeros), so a string goes into its slot as far as its NUL, the
 * slot's bytes after it left as the ring had them; one read from memory
 * goes there straight, not through scratch.  Strings the consumer reads
 * as bytes (aggregation and array keys, translated structs) are zeroed
 * past their NUL (cg_strcpy).
 */
void cg_rec_string(struct dt_cg *cg, struct dt_node *n, uint32_t off, uint32_t size)
{
	struct dt_node *mem = n->kind == N_STRINGOF ? n->l : n;

	if (is_copyinstr(n) && size >= dt_str_bytes(cg->cc)) {
		cg_copyinstr_to(cg, n, (int32_t)off);
		return;
	}
	if (!dt_type_is_string(mem->type)) {
		cg_str_from_mem(cg, mem, (int32_t)off, size);
		return;
	}
	int s = cg_expr(cg, n);
	int d = dest(cg, (int32_t)off, size);
	struct cg_arg a[3] = {
		{ CG_ARG_REG, d }, { CG_ARG_IMM, (int32_t)size }, { CG_ARG_REG, s },
	};
	cg_reg_free(cg, cg_call_helper_args(cg, BPF_FUNC_probe_read_kernel_str, a, 3));
}
