/* Checking printf()-style formats against their arguments' D types. */
#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/printf_format.h"
#include "base/proc.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"

static enum dt_pf_argkind kind_of(struct dt_type *b)
{
	if (b == NULL)
		return DT_PFA_OTHER;
	switch (b->special) {
	case DT_SPECIAL_STACK:
	case DT_SPECIAL_USTACK:
		return DT_PFA_STACK;
	case DT_SPECIAL_SYMADDR:
		return DT_PFA_SYMADDR;
	case DT_SPECIAL_USYMADDR:
		return DT_PFA_USYMADDR;
	default:
		break;
	}
	switch (b->kind) {
	case TK_INT: return DT_PFA_INT;
	case TK_ENUM: return DT_PFA_ENUM;
	case TK_FLOAT: return DT_PFA_FLOAT;
	case TK_PTR: return DT_PFA_POINTER;
	case TK_ARRAY: return DT_PFA_ARRAY;
	case TK_STRING: return DT_PFA_STRING;
	case TK_VOID: return DT_PFA_VOID;
	case TK_STRUCT: case TK_UNION: case TK_FWD: return DT_PFA_STRUCT;
	case TK_FUNC: return DT_PFA_FUNC;
	default: return DT_PFA_OTHER;
	}
}

/* Describe a D type for the printf checker. */
void dt_pf_describe(struct dt_pcb *pcb, struct dt_type *t, struct dt_pf_argtype *a)
{
	struct dt_type *b = dt_type_base(t);
	const char **tds = dt_palloc(pcb, sizeof(char *) * 16);
	size_t ntd = 0;

	memset(a, 0, sizeof(*a));
	for (struct dt_type *x = t; x != NULL && x->kind == TK_TYPEDEF && ntd < 16; x = x->base)
		tds[ntd++] = x->name;
	a->kind = kind_of(b);
	a->size = dt_type_size(b);
	a->is_signed = b && b->is_signed;
	a->is_char = b && b->kind == TK_INT && b->is_char;
	if (b && (b->kind == TK_ARRAY || b->kind == TK_PTR)) {
		struct dt_type *e = dt_type_base(b->base);
		a->elem_kind = kind_of(e);
		a->elem_size = dt_type_size(e);
		a->elem_is_char = e && e->kind == TK_INT && e->is_char && e->size == 1;
		/* Plain char is signed in D, whatever BTF says. */
		a->elem_signed = e && e->is_signed;
		if (a->elem_is_char && e->name && strcmp(e->name, "char") == 0)
			a->elem_signed = true;
		if (a->elem_is_char && e->name && strstr(e->name, "unsigned") != NULL)
			a->elem_signed = false;
	}
	a->name = dt_sema_typestr(pcb, t);
	a->base_name = b ? dt_sema_typestr(pcb, b) : a->name;
	a->typedefs = tds;
	a->ntypedefs = ntd;
}

struct dt_ident *dt_sema_printa_keys(struct dt_pcb *pcb, struct dt_node *call, struct dt_node *aggs)
{
	struct dt_ident *first = NULL;
	struct dt_pf_argtype *ktypes = NULL;
	struct dt_pf_error err;

	for (struct dt_node *a = aggs; a != NULL; a = a->next) {
		struct dt_ident *id = a->id;
		if (id == NULL)
			continue;
		struct dt_pf_argtype *kt = dt_palloc(pcb, sizeof(*kt) * (size_t)(id->nkeys + 1));
		for (int k = 0; k < id->nkeys; k++)
			dt_pf_describe(pcb, id->keys[k], &kt[k]);
		if (first == NULL) {
			first = id;
			ktypes = kt;
			continue;
		}
		if (dt_pf_check_printa_keys(first->name, ktypes, (size_t)first->nkeys, id->name, kt,
					    (size_t)id->nkeys, &err) < 0)
			dt_cerror(pcb, err.tag, call->line, "%s", err.msg);
	}
	return first;
}

void dt_sema_check_format(struct dt_pcb *pcb, struct dt_node *call, const char *name, bool printa)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_node *fmt = call->call.args;
	struct dt_pf_format *f = NULL;
	struct dt_pf_error err;

	if (dt_pf_parse(fmt->str.s, &f, &err) < 0) {
		if (f == NULL && err.tag == NULL)
			dt_cnomem(pcb);
		dt_cerror(pcb, err.tag, call->line, "%s", err.msg);
	}
	if (dt_vec_push(&cc->descs->formats, f) < 0) {
		dt_pf_free(f);
		dt_cnomem(pcb);
	}
	int nargs = dt_node_list_len(fmt->next);
	struct dt_pf_argtype *types = NULL;
	bool agg_is_count = false;
	if (printa) {
		/* printa()'s conversions take the keys of the aggregations, %@ their values. */
		struct dt_ident *first = dt_sema_printa_keys(pcb, call, fmt->next);
		if (first != NULL) {
			types = dt_palloc(pcb, sizeof(*types) * (size_t)(first->nkeys + 1));
			for (int k = 0; k < first->nkeys; k++)
				dt_pf_describe(pcb, first->keys[k], &types[k]);
			agg_is_count = first->aggfunc == AGG_COUNT;
		}
		nargs = first ? first->nkeys : 0;
	} else {
		types = dt_palloc(pcb, sizeof(*types) * (size_t)(nargs + 1));
		int i = 0;
		for (struct dt_node *a = fmt->next; a != NULL; a = a->next, i++) {
			dt_pf_describe(pcb, a->type, &types[i]);
			if (a->kind == N_AGG) {
				/* An aggregation fits no printf() conversion. */
				types[i].kind = DT_PFA_AGG;
				types[i].name = types[i].base_name = "aggregation";
			}
		}
	}
	struct dt_pf_check_opts opts = {
		.func = name,
		.first_argno = 1,
		.exact_len = !printa,
		.aggregation = printa,
		.agg_is_count = agg_is_count,
		.have_target = cc->procs->target_pid != 0,
	};
	if (dt_pf_check(f, &opts, types, (size_t)nargs, &err) < 0)
		dt_cerror(pcb, err.tag ? err.tag : "D_PRINTF_ARG_TYPE", call->line, "%s", err.msg);
	call->aux = f;
}
