/* Semantic checks of probe argument types; aggregating function names; string sizes. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/dlib.h"
#include "compiler/ident.h"
#include "compiler/parser.h"
#include "compiler/program.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"
#include "compiler/sema_impl.h"
#include "compiler/xlator.h"

struct dt_type *dt_sema_args_type(struct dt_pcb *pcb, int i)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;

	/* Typed only if every probe the clause enables agrees on the type. */
	struct dt_type *t = NULL;
	for (size_t k = 0; st != NULL && k < st->probes.n; k++) {
		struct dt_probe *prp = st->probes.v[k];
		struct dt_type *pt = prp->prov->arg_type != NULL ?
			prp->prov->arg_type(pcb->cc->reg, prp, i) : NULL;
		if (pt == NULL || (t != NULL && !dt_type_equal(t, pt)))
			return pcb->cc->core->types.t_int64;
		t = pt;
	}
	return t != NULL ? t : pcb->cc->core->types.t_int64;
}

/*
 * args[ ] and uregs[ ] take one integer constant (dt_idcook_args,
 * dt_idcook_regs); args[ ] only inside a clause.  Returns the index.
 */
long long dt_sema_builtin_index(struct dt_pcb *pcb, struct dt_node *n, struct dt_ident *id)
{
	struct dt_node *k = n->call.args;
	int argc = dt_node_list_len(k);

	if (argc != 1)
		dt_cerror(pcb, "D_PROTO_LEN", n->line, "%s[ ] prototype mismatch: %d arg%s passed, 1 expected",
			  id->name, argc, argc == 1 ? "" : "s");
	if (!(k->flags & DN_CONST) || !dt_type_is_integer(k->type))
		dt_cerror(pcb, "D_PROTO_ARG", n->line,
			  "%s[ ] argument #1 is incompatible with prototype:\n\tprototype: integer constant\n\t argument: %s",
			  id->name, dt_sema_node_typestr(pcb, k));
	if (id->code == BV_UREGS) {
		if (k->cval < 0 && dt_type_is_signed(k->type))
			dt_cerror(pcb, "D_REGS_IDX", n->line, "index %lld is out of range for array %s",
				  (long long)k->cval, id->name);
		/* Beyond the architecture's R_* indices (dlib/arch/<arch>/regs.d), as DTrace reports it. */
		if (k->cval > UREGS_LAST)
			dt_cerror(pcb, "D_UNKNOWN", n->line, "uregs[]: index out of bounds (%lld)",
				  (long long)k->cval);
		return 0;
	}
	if (pcb->sema == NULL)
		dt_cerror(pcb, "D_ARGS_NONE", n->line,
			  "%s[ ] may not be referenced outside of a probe clause", id->name);
	return (long long)k->cval;
}

/* The probe description as DTrace spells it (dtrace_desc2str). */
static void desc_str(const struct dt_pdesc *pd, char *buf, size_t len)
{
	if (pd->id != 0) {
		snprintf(buf, len, "%lu", pd->id);
		return;
	}
	snprintf(buf, len, "%s:%s:%s:%s", pd->prov ? pd->prov : "", pd->mod ? pd->mod : "",
		 pd->func ? pd->func : "", pd->name ? pd->name : "");
}

/*
 * args[i] is checked against the probes of the clause's first probe
 * description, as DTrace cooks a clause in that context: an index
 * beyond the probe's arguments is D_ARGS_IDX.
 */
void dt_sema_args_check(struct dt_pcb *pcb, long long i, int line)
{
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;
	char name[512];

	if (st == NULL)
		return;
	const struct dt_pdesc *pd = st->clause->clause.pdescs[0];
	desc_str(pd, name, sizeof(name));
	/*
	 * No probe info for the description (dt_probe_info()): no probe
	 * (-Z), or several that the fields it leaves open may make differ,
	 * as its provider's attributes say (pattr.c).  (The front end alone,
	 * without a program, matches no probe at all.)
	 */
	size_t nmatch = 0;
	for (size_t k = 0; k < st->probes.n; k++)
		nmatch += st->probe_pdesc.v[k] == 0;
	if ((nmatch > 0 || st->prog != NULL) && !dt_attr_pdesc_known(pcb, st))
		dt_cerror(pcb, "D_ARGS_MULTI", line,
			  "args[ ] may not be referenced because probe description %s matches an "
			  "unstable set of probes", name);
	/* A probe has at most ten arguments (the context's args[10]). */
	if (i < 0 || i > 9)
		dt_cerror(pcb, "D_ARGS_IDX", line, "index %lld is out of range for %s args[ ]", i, name);
	/* Out of range only if it is so for every probe the description enables. */
	int n = -1;
	for (size_t k = 0; k < st->probes.n; k++) {
		struct dt_probe *p = st->probes.v[k];
		if (st->probe_pdesc.v[k] != 0)
			continue;
		int c = p->prov->arg_count ? p->prov->arg_count(pcb->cc->reg, p) : -1;
		if (c < 0 || c > i)
			return;
		n = c;
	}
	if (n >= 0 && i >= n)
		dt_cerror(pcb, "D_ARGS_IDX", line, "index %lld is out of range for %s args[ ]", i, name);
}

/* A type named in a provider's argument description. */
static struct dt_type *named_type(struct dt_pcb *pcb, const char *text)
{
	struct dt_node *t = dt_parse_type_string(pcb, text);

	return dt_sema_typename(pcb, t->tn_spec, t->tn_decl, NULL);
}

/* The same, or NULL if it names no type here (a D library type under -x nolibs). */
static struct dt_type *try_named_type(struct dt_pcb *pcb, const char *text)
{
	struct dt_compiler *cc = pcb->cc;
	char errmsg[sizeof(cc->core->errmsg)], errtag[sizeof(cc->core->errtag)];
	int err = cc->core->err;
	jmp_buf saved;
	struct dt_type *volatile t = NULL;

	memcpy(errmsg, cc->core->errmsg, sizeof(errmsg));
	memcpy(errtag, cc->core->errtag, sizeof(errtag));
	memcpy(saved, pcb->jb, sizeof(jmp_buf));
	if (setjmp(pcb->jb) == 0)
		t = named_type(pcb, text);
	memcpy(pcb->jb, saved, sizeof(jmp_buf));
	cc->core->err = err;
	memcpy(cc->core->errmsg, errmsg, sizeof(errmsg));
	memcpy(cc->core->errtag, errtag, sizeof(errtag));
	return t;
}

/* Marks the native args[i] inside a translation (so it is not translated again). */
static const char native_arg;

void dt_sema_args(struct dt_pcb *pcb, struct dt_node *n, int i)
{
	struct dt_compiler *cc = pcb->cc;
	struct dt_stmt *st = pcb->sema ? pcb->sema->stmt : NULL;
	struct dt_probe *prp = st != NULL && st->probes.n > 0 ? st->probes.v[0] : NULL;
	const char *native = NULL, *xlate = NULL;

	if (prp == NULL || prp->prov->arg_desc == NULL ||
	    !prp->prov->arg_desc(pcb->cc->reg, prp, i, &native, &xlate)) {
		n->type = dt_sema_args_type(pcb, i);
		return;
	}
	/*
	 * As dt_idcook_args(): the type args[i] has (translated or not), then
	 * the probe's own, must be known; the D library's (psinfo_t ...) are
	 * not under -x nolibs.
	 */
	bool translated = xlate != NULL && n->aux != &native_arg;
	if (translated && strcmp(xlate, "string") != 0 && !cc->core->opts.nolibs)
		dt_dlib_load_kernel(cc);
	struct dt_type *xt = translated ? try_named_type(pcb, xlate) : NULL;
	struct dt_type *nt = try_named_type(pcb, native);
	if (translated ? xt == NULL : nt == NULL)
		dt_cerror(pcb, "D_ARGS_TYPE", n->line,
			  "failed to resolve translated type for args[%d]", i);
	if (nt == NULL)
		dt_cerror(pcb, "D_ARGS_TYPE", n->line, "failed to resolve native type for args[%d]",
			  i);
	if (!translated) {
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
		n->type = pcb->cc->core->types.t_string;
		st->uses_scratch = true;
		return;
	}
	struct dt_type *dst = dt_type_is_pointer(xt) ? dt_type_base(xt)->base : xt;
	struct dt_translator *xl = dt_xlator_find(pcb->cc, nt, dst);
	if (xl == NULL)
		dt_cerror(pcb, "D_ARGS_XLATOR", n->line,
			  "translator for args[%d] from %s to %s is not defined", i,
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

uint32_t dt_expr_strsize(struct dt_compiler *cc, struct dt_node *n)
{
	uint32_t strsize = (uint32_t)cc->core->opts.strsize;

	/* An inline's value (inlines may name inlines, any number deep). */
	while (n->kind == N_IDENT && n->id != NULL && n->id->kind == IDK_INLINE)
		n = n->id->inline_expr;

	if (n->kind == N_STRING)
		return (uint32_t)(n->str.len < strsize ? n->str.len : strsize) + 1;
	if (n->kind == N_IDENT && n->id != NULL && n->id->kind == IDK_BVAR &&
	    n->id->code == BV_EXECNAME)
		return 16;
	return strsize + 1;
}
