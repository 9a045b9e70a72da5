/*
 * Code for translated values.  The operand of xlate is evaluated once into
 * a stack slot, the translator's input identifier is bound to that slot,
 * and the member's expression is generated in place (as an inline is).
 * A whole translated struct is built in the statement's scratch
 * temporaries: zeroed, then each member the translator defines stored at
 * its offset.
 */
#include <string.h>

#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/xlator.h"

/*
 * Bind an inline array's parameters to the keys of a reference to it
 * (each evaluated into a stack slot); returns how many to unbind.
 */
int cg_inline_bind(struct dt_cg *cg, struct dt_node *ref)
{
	struct dt_ident *id = ref->id;
	int slots[8], i = 0;

	if (cg->xl_n + id->nkeys > (int)ARRAY_SIZE(cg->xl_arg) || id->nkeys > 8)
		dt_cerror(cg->pcb, "D_UNKNOWN", ref->line, "inline arrays nested too deeply");
	/* Every key first: a key may use another binding of the same names. */
	for (struct dt_node *k = ref->call.args; k != NULL && i < id->nkeys; k = k->next, i++) {
		slots[i] = cg_stack_alloc(cg, 8);
		int r = dt_type_is_string(id->keys[i]) ? cg_expr_string(cg, k) : cg_expr(cg, k);
		if (!dt_type_is_string(id->keys[i]))
			cg_normalize(cg, r, id->keys[i]);
		cg_emit(cg, I_STX(BPF_DW, BPF_FP, r, slots[i]));
		cg_reg_free(cg, r);
	}
	for (int j = 0; j < i; j++) {
		cg->xl_arg[cg->xl_n] = id->iparams[j];
		cg->xl_slot[cg->xl_n] = slots[j];
		cg->xl_n++;
	}
	return i;
}

void cg_inline_unbind(struct dt_cg *cg, int n)
{
	cg->xl_n -= n;
}

int cg_inline_array(struct dt_cg *cg, struct dt_node *n)
{
	int nb = cg_inline_bind(cg, n);
	struct dt_node *e = n->id->inline_expr;
	int r;

	if (dt_type_is_string(n->type)) {
		r = cg_expr_string(cg, e);
	} else {
		r = cg_expr(cg, e);
		if (!cg_is_byref(n->type))
			cg_normalize(cg, r, n->type);
	}
	cg_inline_unbind(cg, nb);
	return r;
}

int cg_xlate_arg(struct dt_cg *cg, struct dt_node *n)
{
	for (int i = cg->xl_n - 1; i >= 0; i--) {
		if (cg->xl_arg[i] == n->id) {
			int r = cg_reg_alloc(cg);
			cg_emit(cg, I_LDX(BPF_DW, r, BPF_FP, cg->xl_slot[i]));
			return r;
		}
	}
	dt_cerror(cg->pcb, "D_UNKNOWN", n->line,
		  "internal error: translator input %s used outside its translator", n->id->name);
}

/* Evaluate the operand of xlate into a stack slot (its fp offset). */
static int input_slot(struct dt_cg *cg, struct dt_node *xlate)
{
	int slot = cg_stack_alloc(cg, 8);
	int r = cg_expr(cg, xlate->l);

	cg_emit(cg, I_STX(BPF_DW, BPF_FP, r, slot));
	cg_reg_free(cg, r);
	return slot;
}

/* Member m's value with the translator's input in `slot`. */
static int member_value(struct dt_cg *cg, struct dt_trmember *m, int slot)
{
	struct dt_node *e = m->expr;
	int r;

	if (cg->xl_n == (int)ARRAY_SIZE(cg->xl_arg))
		dt_cerror(cg->pcb, "D_UNKNOWN", e->line, "translations nested too deeply");
	cg->xl_arg[cg->xl_n] = m->xl->arg;
	cg->xl_slot[cg->xl_n] = slot;
	cg->xl_n++;
	if (dt_type_is_string(m->type) || (dt_type_is_array(m->type) && dt_type_is_string(e->type)))
		r = cg_expr_string(cg, e);
	else
		r = cg_expr(cg, e);
	cg->xl_n--;
	if (dt_type_is_array(m->type) && dt_type_is_string(e->type)) {
		/* A string given to a char array: as much of it as the array holds. */
		uint32_t size = dt_type_size(m->type);
		int buf = cg_scratch_alloc(cg, size);
		int keep = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(keep, buf));
		cg_strcpy(cg, buf, r, size);
		return keep;
	}
	if (!cg_is_byref(m->type) && !dt_type_is_string(m->type))
		cg_normalize(cg, r, m->type);
	return r;
}

int cg_xlate_member(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_xluse *u = n->aux;
	int mark = cg_stack_mark(cg);
	/* fds[fd].fi_name: the translation is an inline array's value. */
	struct dt_node *base = n->l;
	if (base->kind == N_OP1 && base->op == T_DEREF)
		base = base->l;
	int nb = base->kind == N_INDEX && base->id != NULL && base->id->kind == IDK_INLINE &&
			 base->id->iparams != NULL ? cg_inline_bind(cg, base) : 0;
	int slot = input_slot(cg, u->xlate);
	cg_inline_unbind(cg, nb);
	int r = member_value(cg, u->m, slot);

	/* A scalar member needs none of the stack its translation used. */
	if (!cg_is_byref(n->type) && !dt_type_is_string(n->type))
		cg_stack_release(cg, mark);
	return r;
}

/* The first definition of `name` in the translator, if it can be used. */
static struct dt_trmember *definition(struct dt_translator *xl, const char *name)
{
	for (struct dt_trmember *m = xl->members; m != NULL; m = m->next)
		if (strcmp(m->name, name) == 0)
			return m->expr != NULL ? m : NULL;
	return NULL;
}

/* Store member m's value at scratch offset `off`. */
static void store_member(struct dt_cg *cg, struct dt_trmember *m, const struct dt_member *om,
			 int slot, uint32_t off)
{
	uint32_t size = dt_type_size(om->type);
	int v = member_value(cg, m, slot);

	if (cg_is_byref(om->type) || dt_type_is_string(om->type)) {
		int a[3];
		a[0] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_REG(a[0], REG_SCRATCH));
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, a[0], (int32_t)off));
		if (dt_type_is_string(om->type) || dt_type_is_string(m->expr->type) ||
		    dt_type_is_array(m->expr->type) == false) {
			cg_strcpy(cg, a[0], v, size);
			return;
		}
		a[1] = cg_reg_alloc(cg);
		cg_emit(cg, I_MOV64_IMM(a[1], (int32_t)size));
		a[2] = v;
		cg_call_helper_void(cg, BPF_FUNC_probe_read_kernel, a, 3);
		return;
	}
	if (size == 1 || size == 2 || size == 4 || size == 8)
		cg_emit(cg, I_STX(cg_size_code(size), REG_SCRATCH, v, (int16_t)off));
	cg_reg_free(cg, v);
}

int cg_xlate_value(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_translator *xl = n->aux;
	struct dt_type *st = dt_type_base(xl->dst);
	uint32_t size = DT_ALIGN(dt_type_size(st), 8);
	uint32_t base = cg_scratch_reserve(cg, size);

	if (base + size > INT16_MAX)
		dt_cerror(cg->pcb, "D_UNKNOWN", n->line, "translated %s does not fit in scratch memory",
			  dt_type_str(&cg->cc->core->types, xl->dst));
	for (uint32_t i = 0; i < size; i += 8)
		cg_emit(cg, I_ST(BPF_DW, REG_SCRATCH, (int16_t)(base + i), 0));
	int slot = input_slot(cg, n);
	if (dt_type_load_members(&cg->cc->core->types, st) < 0)
		dt_cnomem(cg->pcb);
	for (uint32_t i = 0; i < st->nmembers; i++) {
		const struct dt_member *om = &st->members[i];
		struct dt_trmember *m = om->name != NULL ? definition(xl, om->name) : NULL;
		if (m == NULL || om->bitsize != 0)
			continue;
		store_member(cg, m, om, slot, base + om->offset_bits / 8);
	}
	int r = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(r, REG_SCRATCH));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)base));
	return r;
}
