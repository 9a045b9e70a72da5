/* Semantic checks of probe argument types; aggregating function names. */
#include <string.h>

#include "compiler/dlib.h"
#include "compiler/ident.h"
#include "compiler/parser.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_impl.h"
#include "compiler/types.h"
#include "compiler/xlator.h"
#include "lib/dt_impl.h"
#include "providers/probe.h"
#include "providers/provider.h"

struct dt_type *dt_sema_args_type(struct dt_pcb *pcb, int i)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;

	/* Typed only if every probe the clause enables agrees on the type. */
	struct dt_type *t = NULL;
	for (size_t k = 0; st != NULL && k < st->probes.n; k++) {
		struct dt_probe *prp = st->probes.v[k];
		struct dt_type *pt = prp->prov->arg_type != NULL ?
			prp->prov->arg_type(pcb->hdl, prp, i) : NULL;
		if (pt == NULL || (t != NULL && !dt_type_equal(t, pt)))
			return pcb->hdl->types.t_int64;
		t = pt;
	}
	return t != NULL ? t : pcb->hdl->types.t_int64;
}

void dt_sema_args_check(struct dt_pcb *pcb, int i, int line)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;

	if (st == NULL || st->probes.n == 0)
		return;
	/* Out of range only if it is so for every probe the clause enables. */
	struct dt_probe *prp = st->probes.v[0];
	int n = -1;
	for (size_t k = 0; k < st->probes.n; k++) {
		struct dt_probe *p = st->probes.v[k];
		int c = p->prov->arg_count ? p->prov->arg_count(pcb->hdl, p) : -1;
		if (c < 0 || c > i)
			return;
		n = c;
	}
	if (n >= 0 && i >= n) {
		char name[512];
		dt_cerror(pcb, "D_ARGS_IDX", line, "index %d is out of range for %s args[ ]", i,
			  dt_probe_fullname(prp, name, sizeof(name)));
	}
}

/* A type named in a provider's argument description. */
static struct dt_type *named_type(struct dt_pcb *pcb, const char *text)
{
	struct dt_node *t = dt_parse_type_string(pcb, text);

	return dt_sema_typename(pcb, t->tn_spec, t->tn_decl, NULL);
}

/* Marks the native args[i] inside a translation (so it is not translated again). */
static const char native_arg;

void dt_sema_args(struct dt_pcb *pcb, struct dt_node *n, int i)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;
	struct dt_probe *prp = st != NULL && st->probes.n > 0 ? st->probes.v[0] : NULL;
	const char *native = NULL, *xlate = NULL;

	if (prp == NULL || prp->prov->arg_desc == NULL ||
	    !prp->prov->arg_desc(pcb->hdl, prp, i, &native, &xlate)) {
		n->type = dt_sema_args_type(pcb, i);
		return;
	}
	struct dt_type *nt = named_type(pcb, native);
	if (xlate == NULL || n->aux == &native_arg) {
		n->type = nt;
		if (dt_type_is_pointer(nt) && dt_type_base(nt)->userland)
			n->flags |= DN_USERLAND;
		return;
	}
	struct dt_node *in = dt_palloc(pcb, sizeof(*in));
	*in = *n;
	in->next = NULL;
	in->type = nt;
	in->aux = (void *)&native_arg;
	if (dt_type_is_pointer(nt) && dt_type_base(nt)->userland)
		in->flags |= DN_USERLAND;
	n->l = in;
	n->id = NULL;
	n->call.args = NULL;
	if (strcmp(xlate, "string") == 0) {
		/* A string the probe gives as its address (proc:::exec's path). */
		n->kind = N_STRINGOF;
		n->type = pcb->hdl->types.t_string;
		st->uses_scratch = true;
		return;
	}
	dt_dlib_load_kernel(pcb->hdl);
	struct dt_type *xt = named_type(pcb, xlate);
	struct dt_type *dst = dt_type_is_pointer(xt) ? dt_type_base(xt)->base : xt;
	struct dt_translator *xl = dt_xlator_find(pcb->hdl, nt, dst);
	if (xl == NULL)
		dt_cerror(pcb, "D_XLATE_NONE", n->line, "cannot translate from \"%s\" to \"%s\"",
			  dt_sema_typestr(pcb, nt), dt_sema_typestr(pcb, xt));
	n->kind = N_XLATE;
	n->type = xt;
	n->aux = xl;
}

const char *dt_agg_func_name(int code)
{
	static const char *const names[] = { "count", "sum", "avg", "min", "max", "stddev",
					     "quantize", "lquantize", "llquantize" };

	return code >= 0 && code < (int)ARRAY_SIZE(names) ? names[code] : "?";
}
