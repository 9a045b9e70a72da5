/*
 * Actions: each data-recording action appends its values to the clause's
 * record (reserved in the ring buffer) and an item to the record's
 * description, so that the consumer can print it.
 */
#include <string.h>

#include "base/aggdesc.h"
#include "base/core.h"
#include "base/descs.h"
#include "base/printf_format.h"
#include "base/rdesc.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/cg_stack.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/program.h"
#include "compiler/sema_impl.h"

uint32_t cg_rec_alloc(struct dt_cg *cg, uint32_t size, uint32_t align)
{
	uint32_t off = DT_ALIGN(cg->rec_off, align ? align : 1);

	/* A record's data is stored at 16-bit offsets from its start. */
	if ((uint64_t)off + size > (uint64_t)INT16_MAX + 1)
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "the clause traces more than %d bytes, the most one record holds: trace "
			  "less in one clause (several clauses for the same probe share the work) "
			  "or lower strsize", INT16_MAX + 1);
	cg->rec_off = off + size;
	return off;
}

static struct dt_ritem *add_item(struct dt_cg *cg, enum dt_rkind kind)
{
	struct dt_ritem it;

	memset(&it, 0, sizeof(it));
	it.kind = kind;
	if (dt_vec_push(&cg->rdesc->items, it) < 0)
		dt_cnomem(cg->pcb);
	return &cg->rdesc->items.v[cg->rdesc->items.n - 1];
}

size_t cg_rec_item(struct dt_cg *cg, int kind)
{
	add_item(cg, (enum dt_rkind)kind);
	return cg->rdesc->items.n - 1;
}

static int rec_ptr(struct dt_cg *cg, uint32_t off)
{
	int r = cg_reg_alloc(cg);

	cg_emit(cg, I_MOV64_REG(r, REG_REC));
	cg_emit(cg, I_ALU64_IMM(BPF_ADD, r, (int32_t)off));
	return r;
}

void cg_rec_copy_mem(struct dt_cg *cg, struct dt_node *addr, uint32_t off, uint32_t size,
		     bool user)
{
	if (user)
		cg_bvar_need_current(cg, "user memory");
	int src = cg_expr(cg, addr);
	int save = cg_reg_alloc(cg);
	cg_emit(cg, I_MOV64_REG(save, src));
	int a[3];
	a[0] = rec_ptr(cg, off);
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
}

static void record_scalar(struct dt_cg *cg, struct dt_node *n, size_t idx);

static void record_bytes(struct dt_cg *cg, struct dt_node *n, size_t idx);
static void record_value_in(struct dt_cg *cg, struct dt_node *n, struct dt_ritem *it_in);

/*
 * Record one value of expression n; fills the item's off/size/type.  Once
 * it is in the record, the stack its evaluation used is free again.
 */
static void record_value(struct dt_cg *cg, struct dt_node *n, struct dt_ritem *it_in)
{
	int mark = cg_stack_mark(cg);

	record_value_in(cg, n, it_in);
	cg_stack_release(cg, mark);
}

static void record_value_in(struct dt_cg *cg, struct dt_node *n, struct dt_ritem *it_in)
{
	size_t idx = (size_t)(it_in - cg->rdesc->items.v);
	struct dt_type *t = n->type;

	cg->rdesc->items.v[idx].type = t;
	if (n->kind == N_STRING) {
		/* A constant travels in the description, cut to strsize like any string. */
		uint32_t max = (uint32_t)cg->cc->core->opts.strsize;
		struct dt_ritem *it = &cg->rdesc->items.v[idx];
		it->is_const = true;
		it->is_string = true;
		it->cstr = n->str.len > max ? dt_arena_strndup(&cg->cc->core->arena, n->str.s, max)
					    : n->str.s;
		return;
	}
	if (dt_type_is_string(t) || dt_type_is_charptr(t) ||
	    (dt_type_is_array(t) && dt_type_is_charptr(t))) {
		bool is_str = dt_type_is_string(t);
		uint32_t size = is_str ? cg_string_size(cg, n) : dt_str_bytes(cg->cc);
		if (!is_str && dt_type_is_array(t) && !dt_type_is_pointer(t)) {
			/* A char array traces as its bytes (DTrace prints it as a string). */
			uint32_t asz = dt_type_size(t);
			if (asz > 0 && asz < size)
				size = asz;
		}
		uint32_t off = cg_rec_alloc(cg, size, 1);
		if (size == 16 && n->kind == N_IDENT && n->id != NULL && n->id->kind == IDK_BVAR &&
		    n->id->code == BV_EXECNAME && !cg_bvar_other_thread(cg)) {
			/* execname straight into the record: the comm, zero-padded to its 16 bytes. */
			int a[2] = { rec_ptr(cg, off), cg_reg_alloc(cg) };
			cg_emit(cg, I_MOV64_IMM(a[1], 16));
			cg_call_helper_void(cg, BPF_FUNC_get_current_comm, a, 2);
		} else {
			cg_rec_string(cg, n, off, size);
		}
		struct dt_ritem *it = &cg->rdesc->items.v[idx];
		it->off = off;
		it->size = size;
		it->is_string = true;
		return;
	}
	if (cg_is_byref(t)) {
		record_bytes(cg, n, idx);
		return;
	}
	record_scalar(cg, n, idx);
}

/* An integer or pointer, in a record slot as wide as its type (pointers: 8). */
static void record_scalar(struct dt_cg *cg, struct dt_node *n, size_t idx)
{
	struct dt_type *t = n->type;
	uint32_t size = dt_type_size(t);
	if (size == 0 || size > 8 || dt_type_is_pointer(t))
		size = 8;
	uint32_t off = cg_rec_alloc(cg, size, size);
	int v = cg_expr(cg, n);
	cg_emit(cg, I_STX(cg_size_code(size), REG_REC, v, (int16_t)off));
	cg_reg_free(cg, v);
	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
}

/* Structs, unions and arrays: their bytes (item idx). */
static void record_bytes(struct dt_cg *cg, struct dt_node *n, size_t idx)
{
	struct dt_type *t = n->type;
	uint32_t size = dt_type_size(t);
	uint32_t off = cg_rec_alloc(cg, size, 8);
	bool user = (n->flags & DN_USERLAND) != 0;

	cg->rdesc->items.v[idx].type = t;
	cg_rec_copy_mem(cg, n, off, size, user);
	struct dt_ritem *it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = size;
}

static void act_printf(struct dt_cg *cg, struct dt_node *call, enum dt_rkind kind)
{
	struct dt_node *fmt = call->call.args;
	struct dt_ritem *it = add_item(cg, kind);

	it->fmt = call->aux;
	it->fmtstr = fmt->str.s;
	it->nargs = dt_node_list_len(fmt->next);
	/* %A prints user symbols: the processes' mappings are needed. */
	if (dt_pf_has_uaddr(call->aux))
		cg->cc->descs->uses_usyms = true;
	for (struct dt_node *a = fmt->next; a != NULL; a = a->next) {
		struct dt_ritem *ai = add_item(cg, RK_PFARG);
		record_value(cg, a, ai);
	}
}

/* One setopt() argument: a constant travels in the description, else its string is recorded. */
static const char *setopt_arg(struct dt_cg *cg, struct dt_node *a, uint32_t *offp,
			      uint32_t *sizep)
{
	if (a->kind == N_STRING)
		return a->str.s;
	uint32_t size = cg_string_size(cg, a);
	uint32_t off = cg_rec_alloc(cg, size, 1);
	int mark = cg_stack_mark(cg);
	int src = cg_expr_string(cg, a);
	int dst = rec_ptr(cg, off);
	cg_strcpy(cg, dst, src, size);
	cg_stack_release(cg, mark);
	*offp = off;
	*sizep = size;
	return NULL;
}

/* setopt(name[, value]): applied by the consumer where it is in the output. */
static void act_setopt(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_node *a = call->call.args;
	size_t idx = cg_rec_item(cg, RK_SETOPT);
	uint32_t noff = 0, nsize = 0, voff = 0, vsize = 0;
	const char *name = setopt_arg(cg, a, &noff, &nsize);
	const char *val = a->next ? setopt_arg(cg, a->next, &voff, &vsize) : NULL;
	struct dt_ritem *it = &cg->rdesc->items.v[idx];

	it->optname = name;
	it->optval = val;
	it->off = noff;
	it->size = nsize;
	it->optval_off = voff;
	it->optval_size = vsize;
	it->optval_rec = a->next != NULL && val == NULL;
}

static void act_exit(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_ritem *it = add_item(cg, RK_EXIT);
	size_t idx = (size_t)(it - cg->rdesc->items.v);
	uint32_t off = cg_rec_alloc(cg, 4, 4);
	int v = cg_expr(cg, call->call.args);

	cg_emit(cg, I_STX(BPF_W, REG_REC, v, (int16_t)off));
	cg_reg_free(cg, v);
	/* Close the state gate: no clause runs after this but END. */
	int p = cg_reg_alloc(cg);
	cg_ld_bss(cg, p, BSS_STATE);
	cg_emit(cg, I_ST(BPF_W, p, 0, DT_STATE_DRAINING));
	cg_reg_free(cg, p);
	it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = 4;
	it->type = cg->cc->core->types.t_int;
	cg->rdesc->has_exit = true;
	cg->stmt->has_exit = true;
	cg->rec_force_wakeup = true;
}

static uint32_t *agg_ids(struct dt_cg *cg, struct dt_node *args, int *np)
{
	int n = 0;

	for (struct dt_node *a = args; a != NULL; a = a->next)
		if (a->kind == N_AGG)
			n++;
	uint32_t *ids = dt_arena_alloc(&cg->cc->core->arena, sizeof(*ids) * (size_t)(n + 1));
	if (ids == NULL)
		dt_cnomem(cg->pcb);
	n = 0;
	for (struct dt_node *a = args; a != NULL; a = a->next) {
		if (a->kind != N_AGG)
			continue;
		if (a->id == NULL || a->id->agg == NULL)
			dt_cerror(cg->pcb, "D_IDENT_UNDEF", a->line,
				  "failed to resolve @%s: Unknown variable name", a->agg.name);
		ids[n++] = a->id->agg->id;
	}
	*np = n;
	return ids;
}

static void act_printa(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_node *a = call->call.args;
	struct dt_ritem *it = add_item(cg, RK_PRINTA);
	size_t idx = (size_t)(it - cg->rdesc->items.v);
	int n;
	uint32_t *ids = agg_ids(cg, a, &n);

	it = &cg->rdesc->items.v[idx];
	it->aggids = ids;
	it->naggs = n;
	if (a->kind == N_STRING) {
		it->fmt = call->aux;
		it->fmtstr = a->str.s;
		if (dt_pf_has_uaddr(call->aux))
			cg->cc->descs->uses_usyms = true;
	}
}

/* clear(), trunc(), normalize(), denormalize(): the aggregation and an optional value. */
static void act_aggop(struct dt_cg *cg, struct dt_node *call)
{
	static const enum dt_rkind kinds[] = { [ACT_CLEAR] = RK_CLEAR, [ACT_TRUNC] = RK_TRUNC,
					       [ACT_NORMALIZE] = RK_NORMALIZE,
					       [ACT_DENORMALIZE] = RK_DENORMALIZE };
	struct dt_node *a = call->call.args;
	struct dt_ritem *it = add_item(cg, kinds[call->id->code]);
	size_t idx = (size_t)(it - cg->rdesc->items.v);
	int n;
	uint32_t *ids = agg_ids(cg, a, &n);

	it = &cg->rdesc->items.v[idx];
	it->aggids = ids;
	it->naggs = n;
	if (a->next == NULL) {
		it->is_const = true;
		it->cval = 0;
		return;
	}
	if (a->next->flags & DN_CONST) {
		it->is_const = true;
		it->cval = a->next->cval;
		return;
	}
	uint32_t off = cg_rec_alloc(cg, 8, 8);
	int v = cg_expr(cg, a->next);
	cg_emit(cg, I_STX(BPF_DW, REG_REC, v, (int16_t)off));
	cg_reg_free(cg, v);
	it = &cg->rdesc->items.v[idx];
	it->off = off;
	it->size = 8;
}

static bool has_action(struct dt_node *list)
{
	for (struct dt_node *s = list; s != NULL; s = s->next) {
		if (s->kind == N_IF || s->kind == N_BLOCK) {
			if (has_action(s->body) || has_action(s->elsebody))
				return true;
			continue;
		}
		if (s->kind != N_EXPRSTMT || s->l->kind != N_CALL || s->l->id == NULL)
			continue;
		if (s->l->id->kind == IDK_ACTION)
			return true;
	}
	return false;
}

bool cg_clause_records(struct dt_node *body)
{
	/* An empty clause takes the default action: a record naming the probe. */
	return body == NULL || has_action(body);
}

void cg_stmt_action(struct dt_cg *cg, struct dt_node *call)
{
	struct dt_ident *id = call->id;

	switch (id->code) {
	case ACT_PRINT:
		cg_act_print(cg, call);
		break;
	case ACT_TRACE: {
		struct dt_ritem *it = add_item(cg, RK_TRACE);
		struct dt_node *a = call->call.args;
		/* A char array is traced as bytes like any array, not as a string. */
		if (dt_type_is_array(a->type) && !dt_type_is_string(a->type) && cg_is_byref(a->type))
			record_bytes(cg, a, (size_t)(it - cg->rdesc->items.v));
		/* A char * is a scalar to trace() (dt_cg_store_val): its value, not a string. */
		else if (dt_type_is_pointer(a->type))
			record_scalar(cg, a, (size_t)(it - cg->rdesc->items.v));
		else
			record_value(cg, a, it);
		break;
	}
	case ACT_TRACEMEM:
		cg_act_tracemem(cg, call);
		break;
	case ACT_RAISE:
	case ACT_STOP:
	case ACT_CHILL:
		cg_act_destructive(cg, call);
		break;
	case ACT_FREOPEN:
		act_printf(cg, call, RK_FREOPEN);
		break;
	case ACT_FTRUNCATE:
		add_item(cg, RK_FTRUNCATE);
		break;
	case ACT_PANIC:
	case ACT_BREAKPOINT:
		/* dt_sema_act_clause refused it already. */
		dt_cerror(cg->pcb, "D_UNKNOWN", call->line, "%s() is not implemented (yet)", id->name);
	case ACT_PRINTF:
		act_printf(cg, call, RK_PRINTF);
		break;
	case ACT_SYSTEM:
		act_printf(cg, call, RK_SYSTEM);
		break;
	case ACT_EXIT:
		act_exit(cg, call);
		break;
	case ACT_PRINTA:
		act_printa(cg, call);
		break;
	case ACT_CLEAR:
	case ACT_DENORMALIZE:
	case ACT_TRUNC:
	case ACT_NORMALIZE:
		act_aggop(cg, call);
		break;
	case ACT_SPECULATE:
	case ACT_COMMIT:
	case ACT_DISCARD:
		cg_spec_action(cg, call);
		break;
	case ACT_STACK:
	case ACT_USTACK:
	case ACT_JSTACK:
		cg_act_stack(cg, call);
		break;
	case ACT_SYM:
	case ACT_FUNC:
	case ACT_MOD:
	case ACT_USYM:
	case ACT_UFUNC:
	case ACT_UMOD:
	case ACT_UADDR:
		cg_act_symaddr(cg, call);
		break;
	case ACT_SETOPT:
		act_setopt(cg, call);
		break;
	default:
		dt_cerror(cg->pcb, NULL, call->line, "%s( ) is not supported yet",
			  id->name);
	}
}
