/*
 * tracemem(addr, size[, dsize]): `size` (a constant) bytes at addr go into
 * the record; with dsize, its value follows them (8 bytes, 8-aligned) and
 * the consumer prints only that many bytes when it is between 0 and size,
 * as DTrace does.  A user-space address (copyin()'s pointers are not) is
 * read with probe_read_user; a bad address is DTrace's invalid address
 * fault.
 */
#include "base/abi.h"
#include "base/core.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"

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
	cg_rec_copy_mem(cg, addr, off, size, user);

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
