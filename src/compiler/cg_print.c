/*
 * print(): the record holds the pointer and a copy of what it points at
 * (at most printsize bytes); the consumer prints it member by member from
 * the type (consumer/print_type.c).
 */
#include "base/core.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"

void cg_act_print(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_node *a = call->call.args;
	struct dt_type *pt = dt_type_base(a->type);
	struct dt_type *t = pt->base;
	uint32_t size = dt_type_size(t);
	uint64_t limit = (uint64_t)cg->cc->core->opts.printsize;

	/* printsize can grow at run time (setopt): keep the whole object. */
	(void)limit;
	dt_type_load_members(&cg->cc->core->types, dt_type_base(t));
	size_t idx = cg_rec_item(cg, RK_PRINT);
	uint32_t off = cg_rec_alloc(cg, 8 + size, 8);
	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
	it->type = t;

	int p = cg_expr(cg, a);
	int keep = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(keep, p));
	cg_emit(cg, I_STX(BPF_DW, REG_REC, p, (int16_t)off));
	int args[3];
	args[0] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(args[0], REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, args[0], (int32_t)(off + 8)));
	args[1] = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_IMM(args[1], (int32_t)size));
	args[2] = p;
	int rc = cg_call_helper(cg, BPF_FUNC_probe_read_kernel, args, 3);
	int ok = cg_label_new(cg);
	cg_jmp_imm(cg, BPF_JEQ, rc, 0, ok);
	cg_reg_free(cg, rc);
	cg_fault(cg, DT_FLT_BADADDR, keep);
	cg_label_place(cg, ok);
	cg_reg_free(cg, keep);
}
