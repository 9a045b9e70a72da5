/* Kernel/user memory access (members, subscripts, &) and subroutines. */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

int cg_lvalue_addr(struct dt_cg *cg, struct dt_node *n, bool *userland)
{
	if (n == cg->lv_root) {
		int r = cg_reg_alloc(cg);
		cg_emit(cg, I_LDX(BPF_DW, r, BPF_FP, (int16_t)cg->lv_root_slot));
		return r;
	}
	switch (n->kind) {
	case N_MEMBER: {
		if (n->aux != NULL)	/* a translated member: its value or address */
			return cg_xlate_member(cg, n);
		uint32_t off = 0;
		struct dt_type *st = dt_type_base(n->l->type);
		int base;
		if (n->op == T_PTR) {
			base = cg_expr(cg, n->l);
			if (!(n->flags & DN_AMEM)) {
				/* p->m with p NULL faults on address 0, as in DTrace. */
				int ok = cg_label_new(cg);
				cg_jmp_imm(cg, BPF_JNE, base, 0, ok);
				cg_fault(cg, DT_FLT_BADADDR, base);
				cg_label_place(cg, ok);
			}
			*userland = st->userland || (n->l->flags & DN_USERLAND);
			st = dt_type_base(st->base);
		} else {
			base = cg_lvalue_addr(cg, n->l, userland);
		}
		dt_type_member(&cg->cc->core->types, st, n->member, &off);
		if (off / 8)
			cg_emit(cg, I_ALU64_IMM(BPF_ADD, base, (int32_t)(off / 8)));
		if (n->flags & DN_USERLAND)
			*userland = true;
		return base;
	}
	case N_OP1:
		if (n->op == T_DEREF) {
			struct dt_type *pt = dt_type_base(n->l->type);
			*userland = (n->flags & DN_USERLAND) || (pt && pt->userland);
			return cg_expr(cg, n->l);
		}
		break;
	case N_INDEX: {
		/* args[i] of an array type (a tracepoint's char comm[16]) holds its address. */
		if (n->id != NULL && n->id->kind == IDK_BVAR) {
			if (!cg_is_byref(n->type))
				break;
			return cg_expr(cg, n);
		}
		/* An element of an associative array: its value's address. */
		if (n->id != NULL && (n->id->kind == IDK_ARRAY || n->id->kind == IDK_TLS)) {
			if (!cg_is_byref(n->type))
				break;
			return cg_expr(cg, n);
		}
		struct dt_type *bt = dt_type_base(n->l->type);
		int base = bt->kind == TK_ARRAY ? cg_lvalue_addr(cg, n->l, userland)
						: cg_expr(cg, n->l);
		if (bt->kind == TK_PTR)
			*userland = bt->userland || (n->l->flags & DN_USERLAND);
		int idx = cg_expr(cg, n->call.args);
		uint32_t esz = dt_type_size(bt->base);
		/*
		 * Run-time bounds check, as DTrace does for arrays (not for
		 * those of 0 or 1 elements, the anchors of variable ones): a
		 * negative or too large index faults with the index.
		 */
		if (bt->kind == TK_ARRAY && bt->nelems > 1 && !(n->call.args->flags & DN_CONST)) {
			int ok = cg_label_new(cg);
			cg_jmp_imm(cg, BPF_JLT, idx, (int32_t)bt->nelems, ok);
			cg_fault(cg, DT_FLT_BADINDEX, idx);
			cg_label_place(cg, ok);
		}
		if (esz > 1)
			cg_emit(cg, I_ALU64_IMM(BPF_MUL, idx, (int32_t)esz));
		cg_emit(cg, I_ALU64_REG(BPF_ADD, base, idx));
		cg_reg_free(cg, idx);
		return base;
	}
	case N_CAST:
	case N_IDENT:
	case N_VAR:
	case N_CALL:
		if (cg_is_byref(n->type) || dt_type_is_pointer(n->type))
			return cg_expr(cg, n);
		break;
	default:
		break;
	}
	dt_cerror(cg->pcb, NULL, n->line, "cannot take the address of this expression");
}

/*
 * Bytes a bit-field spans from the byte that holds its first bit, and that
 * first bit's position in it (bit-fields of kernel structs share units;
 * those of D structs have bytes of their own).
 */
static uint32_t bitfield_bytes(const struct dt_member *m, uint32_t off_bits)
{
	return (off_bits % 8 + m->bitsize + 7) / 8;
}

/* reg holds the bytes of the field (little-endian): shift, mask, extend. */
static void bitfield(struct dt_cg *cg, int reg, const struct dt_member *m, uint32_t off_bits)
{
	uint32_t shift = off_bits % 8;

	if (shift)
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, reg, (int32_t)shift));
	if (m->bitsize < 64) {
		int mask = cg_reg_alloc(cg);
		cg_mov_imm64(cg, mask, (1ULL << m->bitsize) - 1);
		cg_emit(cg, I_ALU64_REG(BPF_AND, reg, mask));
		cg_reg_free(cg, mask);
		if (dt_type_is_signed(m->type)) {
			cg_emit(cg, I_ALU64_IMM(BPF_LSH, reg, (int32_t)(64 - m->bitsize)));
			cg_emit(cg, I_ALU64_IMM(BPF_ARSH, reg, (int32_t)(64 - m->bitsize)));
		}
	}
}

int cg_member(struct dt_cg *cg, struct dt_node *n)
{
	bool user = false;
	int addr = cg_lvalue_addr(cg, n, &user);

	if (cg_is_byref(n->type))
		return addr;
	struct dt_type *st = dt_type_base(n->l->type);
	if (n->op == T_PTR)
		st = dt_type_base(st->base);
	uint32_t off_bits;
	const struct dt_member *m = dt_type_member(&cg->cc->core->types, st, n->member, &off_bits);
	if (m != NULL && m->bitsize != 0) {
		/* The address is the byte holding the first bit: read the bytes it spans. */
		uint32_t nbytes = bitfield_bytes(m, off_bits);
		if (nbytes > 8)
			dt_cerror(cg->pcb, NULL, n->line,
				  "bit-field %s spans more than 8 bytes", n->member);
		struct dt_type *ut = dt_type_int(&cg->cc->core->types, 8, false);
		if (n->flags & DN_AMEM)
			cg_load_alloca(cg, addr, ut);
		else
			cg_load_bytes(cg, addr, nbytes, user);
		bitfield(cg, addr, m, off_bits);
		return addr;
	}
	if (n->flags & DN_AMEM)
		cg_load_alloca(cg, addr, n->type);
	else
		cg_load_scalar(cg, addr, n->type, user);
	return addr;
}

int cg_subscript(struct dt_cg *cg, struct dt_node *n)
{
	bool user = false;
	int addr = cg_lvalue_addr(cg, n, &user);

	if (cg_is_byref(n->type))
		return addr;
	if (n->flags & DN_AMEM)
		cg_load_alloca(cg, addr, n->type);
	else
		cg_load_scalar(cg, addr, n->type, user || (n->flags & DN_USERLAND));
	return addr;
}

int cg_addr_of(struct dt_cg *cg, struct dt_node *n)
{
	bool user = false;

	return cg_lvalue_addr(cg, n, &user);
}

static int arg_value(struct dt_cg *cg, struct dt_node *call, int i)
{
	struct dt_node *a = call->call.args;

	while (i-- > 0)
		a = a->next;
	return cg_expr(cg, a);
}

static int byteswap(struct dt_cg *cg, struct dt_node *n, int bits)
{
	int r = arg_value(cg, n, 0);

	cg_emit(cg, I_ENDIAN_BE(r, bits));
	return r;
}

int cg_subr(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_ident *id = n->id;

	if (id->kind != IDK_SUBR)
		dt_cerror(cg->pcb, NULL, n->line,
			  "%s( ) cannot be used as a value here yet", id->name);
	switch (id->code) {
	case SUB_RAND:
		return cg_call_helper(cg, BPF_FUNC_get_prandom_u32, NULL, 0);
	case SUB_HTONS:
	case SUB_NTOHS:
		return byteswap(cg, n, 16);
	case SUB_HTONL:
	case SUB_NTOHL:
		return byteswap(cg, n, 32);
	case SUB_HTONLL:
	case SUB_NTOHLL:
		return byteswap(cg, n, 64);
	case SUB_GETMAJOR:
	case SUB_GETMINOR: {
		/* The kernel's dev_t: a 12-bit major above a 20-bit minor. */
		int r = arg_value(cg, n, 0);
		if (id->code == SUB_GETMAJOR) {
			cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 20));
			cg_emit(cg, I_ALU64_IMM(BPF_AND, r, 0xfff));
		} else {
			cg_emit(cg, I_ALU64_IMM(BPF_AND, r, 0xfffff));
		}
		return r;
	}
	case SUB_COPYINSTR:
		return cg_copyinstr_to(cg, n, -1);
	case SUB_SPECULATION:
		return cg_spec_speculation(cg, n);
	case SUB_PROGENYOF: {
		/* Walk real_parent up from the current task, bounded. */
		struct dt_typetab *tt = &cg->cc->core->types;
		struct dt_type *task = dt_type_lookup(tt, "struct task_struct");
		uint32_t parent_off, tgid_off;
		if (task == NULL || !dt_type_member(tt, task, "real_parent", &parent_off) ||
		    !dt_type_member(tt, task, "tgid", &tgid_off))
			dt_cerror(cg->pcb, NULL, n->line,
				  "progenyof( ) needs kernel BTF for struct task_struct");
		int a[4];
		a[0] = arg_value(cg, n, 0);
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)(parent_off / 8)));
		a[2] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[2], (int32_t)(tgid_off / 8)));
		/* The process the clause's built-in variables describe. */
		if (cg_bvar_other_thread(cg)) {
			a[3] = cg_bvar_task(cg);
		} else {
			a[3] = cg_reg_alloc(cg);
			cg_emit(cg, I_MOV64_IMM(a[3], 0));
		}
		return cg_call_func(cg, "dt_rt_progenyof", a, 4);
	}
	default: {
		int r = cg_strfn(cg, n);
		if (r < 0)
			r = cg_alloca_subr(cg, n);
		if (r < 0)
			r = cg_copyout_subr(cg, n);
		if (r < 0)
			r = cg_klock_subr(cg, n);
		if (r < 0)
			r = cg_dpath_subr(cg, n);
		if (r >= 0)
			return r;
		dt_cerror(cg->pcb, NULL, n->line, "subroutine %s( ) is not supported yet",
			  id->name);
	}
	}
}
