/*
 * tracemem(addr, size[, dsize]): `size` (a constant) bytes at addr go into
 * the record; with dsize, its value follows them (8 bytes, 8-aligned) and
 * the consumer prints only that many bytes when it is between 0 and size,
 * as DTrace does.  A user-space address (copyin()'s pointers are not) is
 * read with probe_read_user; a bad address is DTrace's invalid address
 * fault.
 */
#include "bpf/abi.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/ident.h"
#include "compiler/types.h"
#include "consumer/rdesc.h"
#include "lib/dt_impl.h"

void cg_act_tracemem(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_node *addr = call->call.args, *sz = addr->next, *dsz = sz->next;
	size_t idx = cg_rec_item(cg, RK_TRACEMEM);
	uint32_t size = (uint32_t)sz->cval;
	uint32_t off = cg_rec_alloc(cg, size, 8);
	bool user = (addr->flags & DN_USERLAND) != 0;
	struct dt_type *pt = dt_type_base(addr->type);

	if (pt != NULL && pt->kind == TK_PTR && pt->userland)
		user = true;
	if (user)
		cg_bvar_need_current(cg, "user memory");
	int src = cg_expr(cg, addr);
	int save = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(save, src));
	int a[3];
	a[0] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(a[0], REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[0], (int32_t)off));
	a[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)size));
	a[2] = src;
	int rc = cg_call_helper(cg, user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel,
				a, 3);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_fault(cg, DT_FLT_BADADDR, save);
	cg_label_place(cg, ok);
	cg_reg_free(cg, rc);
	cg_reg_free(cg, save);

	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
	it->type = addr->type;
	it->nargs = 2;
	if (dsz == NULL)
		return;
	uint32_t doff = cg_rec_alloc(cg, 8, 8);
	int v = cg_expr(cg, dsz);
	cg_emit(cg, I_STX(BPF_DW, REG_REC, v, (int16_t)doff));
	cg_reg_free(cg, v);
	it = &cg->rdesc->items.v[idx];
	it->nargs = 3;
	it->cval = doff;
}
