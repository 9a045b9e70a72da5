/*
 * The fbt provider: fbt:<module>:<function>:entry and :return for every
 * traceable kernel function (see fbt_funcs.c for which those are).
 *
 * Probes are made only for descriptions that can match them (the
 * provider is "lazy": a description such as BEGIN never reads BTF or
 * kallsyms), and all of them only when everything is listed.
 *
 * Arguments: on entry argN and args[N] are the function's arguments,
 * args[] typed from BTF; on return arg1 (args[1], of the function's
 * result type) is the return value and arg0 the offset of the returning
 * instruction, which neither fexit nor kretprobes can tell: it is -1, as
 * in DTrace for Linux.
 *
 * Mechanisms, chosen per program (probes with the same clauses): fentry/
 * fexit when the kernel allows them and the description is narrow, else
 * one kprobe_multi link for all the program's functions, else one kprobe
 * per function (cookies carry the probe ids).  -x fbtmech=fentry|
 * kprobe_multi|kprobe forces one.
 */
#include <bpf/btf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/ast.h"
#include "providers/fbt.h"
#include "providers/providers.h"

/*
 * Up to this many functions in one program use fentry/fexit: each needs a
 * program (a verifier run) and a trampoline of its own, where one
 * kprobe_multi link serves any number at the cost of one.  Eight keeps
 * the typical "a few named functions" script on the cheaper-to-fire
 * trampolines while wide globs (fbt::vfs_*:entry) attach in one go.
 */
#define FENTRY_MAX_PROBES 8
/*
 * Without kprobe_multi (kernels built without fprobe, such as Debian
 * bookworm's 6.1), every function costs an attachment of its own, and
 * detaching a kprobe waits for RCU grace periods one kprobe after the
 * other: about 75 ms each, so a thousand take over a minute to tear down.
 * Larger sets are refused unless a mechanism is forced (-x fbtmech).
 */
#define SINGLE_MAX_PROBES 1000

struct dt_fbt *dt_fbt_state(struct dt_registry *reg)
{
	if (reg->fbt == NULL)
		reg->fbt = calloc(1, sizeof(struct dt_fbt));
	return reg->fbt;
}

void dt_fbt_free(struct dt_registry *reg)
{
	struct dt_fbt *fbt = reg->fbt;

	if (fbt == NULL)
		return;
	dt_fbt_funcs_free(fbt);
	dt_rawfbt_free(fbt->raw);
	dt_arena_free(&fbt->arena);
	free(fbt);
	reg->fbt = NULL;
}

static bool field_match(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

static int add(struct dt_registry *reg, const struct fbt_func *f, bool entry, bool ret)
{
	if (entry && dt_probe_add(reg, &dt_prov_fbt, f->mod->name, f->name, "entry", FBT_ENTRY,
				  f) == NULL)
		return -ENOMEM;
	if (ret && dt_probe_add(reg, &dt_prov_fbt, f->mod->name, f->name, "return", FBT_RETURN,
				f) == NULL)
		return -ENOMEM;
	return 0;
}

/* The function list, or NULL when this system does not show it (no BTF, not root). */
static struct dt_fbt *funcs(struct dt_registry *reg, int *rcp)
{
	struct dt_fbt *fbt = dt_fbt_state(reg);

	*rcp = 0;
	if (fbt == NULL) {
		*rcp = -ENOMEM;
		return NULL;
	}
	int rc = dt_fbt_funcs_load(reg, fbt);
	if (rc == -ENOMEM)
		*rcp = rc;
	return rc < 0 ? NULL : fbt;
}

static int populate(struct dt_registry *reg)
{
	int rc;
	struct dt_fbt *fbt = funcs(reg, &rc);

	for (size_t i = 0; fbt != NULL && rc == 0 && i < fbt->funcs.n; i++)
		rc = add(reg, fbt->funcs.v[i], true, true);
	return rc;
}

static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	bool entry = field_match("entry", pd->name), ret = field_match("return", pd->name);
	int rc = 0;

	if (!entry && !ret)
		return 0;
	struct dt_fbt *fbt = funcs(reg, &rc);
	if (fbt == NULL)
		return rc;
	if (pd->func != NULL && pd->func[0] != '\0' && !dt_has_glob(pd->func)) {
		/* One function name: look it up in each module. */
		for (size_t i = 0; rc == 0 && i < fbt->mods.n; i++) {
			const struct fbt_mod *m = fbt->mods.v[i];
			if (!field_match(m->name, pd->mod))
				continue;
			const struct fbt_func *f = dt_fbt_func(fbt, m->name, pd->func);
			if (f != NULL)
				rc = add(reg, f, entry, ret);
		}
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < fbt->funcs.n; i++) {
		const struct fbt_func *f = fbt->funcs.v[i];
		if (field_match(f->mod->name, pd->mod) && field_match(f->name, pd->func))
			rc = add(reg, f, entry, ret);
	}
	return rc;
}

static const char *mech_class(const struct dt_probe *prp)
{
	return prp->data == FBT_ENTRY ? "entry" : "return";
}

static const struct btf_type *func_proto(const struct fbt_func *f)
{
	const struct btf_type *t = btf__type_by_id(f->mod->btf, f->btf_id);

	t = t ? btf__type_by_id(f->mod->btf, t->type) : NULL;
	return t && btf_is_func_proto(t) ? t : NULL;
}

static struct dt_type *arg_type(struct dt_registry *reg, const struct dt_probe *prp, int i)
{
	const struct fbt_func *f = FBT_FUNC(prp);
	const struct btf_type *proto = func_proto(f);
	uint32_t id = 0;

	if (proto == NULL || i < 0)
		return NULL;
	if (prp->data == FBT_RETURN) {
		if (i == 0)
			return reg->core->types.t_int;
		if (i == 1)
			id = proto->type;
	} else if (i < btf_vlen(proto)) {
		id = btf_params(proto)[i].type;
	}
	return id != 0 ? dt_type_from_btf(&reg->core->types, f->mod->btf, id) : NULL;
}

/* Entry: the function's arguments; return: the offset, and the value unless void. */
static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	const struct fbt_func *f = FBT_FUNC(prp);
	const struct btf_type *proto = func_proto(f);

	(void)reg;
	if (proto == NULL)
		return -1;
	if (prp->data == FBT_RETURN)
		return proto->type == 0 ? 1 : 2;
	return f->nargs;
}

/* ---- choosing a mechanism ---- */

static const char *const kind_names[FBT_NKINDS] = { "fentry/fexit", "kprobe_multi", "kprobe" };

/* The mechanism of a kind for a group (kprobes have a return variant). */
static const struct dt_mech *mech(enum fbt_kind k, const struct dt_group *g)
{
	bool ret = strcmp(g->mclass, "return") == 0;

	if (k == FBT_KPROBE_MULTI)
		return ret ? &dt_fbt_mech_kretprobe_multi : &dt_fbt_mech_kprobe_multi;
	if (k == FBT_KPROBE)
		return ret ? &dt_fbt_mech_kretprobe : &dt_fbt_mech_kprobe;
	return &dt_fbt_mech_fentry;
}

/* The first function of the group that fentry cannot take, or NULL. */
static const struct fbt_func *no_fentry(const struct dt_group *g)
{
	for (size_t i = 0; i < g->probes.n; i++) {
		const struct fbt_func *f = FBT_FUNC(g->probes.v[i]);
		if (!f->fentry_ok || f->name_clash)
			return f;
	}
	return NULL;
}

static const char *no_fentry_why(struct dt_fbt *fbt, const struct fbt_func *f)
{
	if (f->name_clash)
		return dt_arena_printf(&fbt->arena, "%s`%s has a namesake in vmlinux", f->mod->name,
				       f->name);
	return dt_arena_printf(&fbt->arena, "%s`%s has more than %d arguments or arguments a "
			       "trampoline does not pass", f->mod->name, f->name,
			       FBT_FENTRY_MAX_ARGS);
}

static const struct dt_mech *forced(struct dt_registry *reg, struct dt_fbt *fbt, struct dt_group *g,
				    const char *want)
{
	for (int k = 0; k < FBT_NKINDS; k++) {
		if (strcmp(want, k == FBT_FENTRY ? "fentry" : kind_names[k]) != 0)
			continue;
		if (!dt_fbt_feature(reg, fbt, (enum fbt_kind)k, FBT_FUNC(g->probes.v[0]))) {
			dt_set_error(reg->core, -ENOTSUP, "cannot enable fbt probes: fbtmech=%s: %s", want,
				     fbt->feat[k].why);
			return NULL;
		}
		const struct fbt_func *bad = k == FBT_FENTRY ? no_fentry(g) : NULL;
		if (bad != NULL) {
			dt_set_error(reg->core, -ENOTSUP, "cannot enable fbt probes: fbtmech=fentry: %s",
				     no_fentry_why(fbt, bad));
			return NULL;
		}
		return mech((enum fbt_kind)k, g);
	}
	dt_set_error(reg->core, -EINVAL,
		     "invalid fbtmech '%s': expected auto, fentry, kprobe_multi or kprobe", want);
	return NULL;
}

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	struct dt_fbt *fbt = dt_fbt_state(reg);
	const char *want = reg->core->opts.fbtmech;
	const struct fbt_func *sample = FBT_FUNC(g->probes.v[0]);

	if (fbt == NULL) {
		dt_set_error(reg->core, -ENOMEM, "out of memory");
		return NULL;
	}
	bool fentry_ok = no_fentry(g) == NULL;
	if (want != NULL && strcmp(want, "auto") != 0)
		return forced(reg, fbt, g, want);
	if (fentry_ok && g->probes.n <= FENTRY_MAX_PROBES &&
	    dt_fbt_feature(reg, fbt, FBT_FENTRY, sample))
		return &dt_fbt_mech_fentry;
	if (dt_fbt_feature(reg, fbt, FBT_KPROBE_MULTI, sample))
		return mech(FBT_KPROBE_MULTI, g);
	bool kprobe = dt_fbt_feature(reg, fbt, FBT_KPROBE, sample);
	/* Wide, but trampolines are all there is: one program per function. */
	bool fentry = !kprobe && fentry_ok && dt_fbt_feature(reg, fbt, FBT_FENTRY, sample);
	if ((kprobe || fentry) && g->probes.n > SINGLE_MAX_PROBES) {
		dt_set_error(reg->core, -E2BIG, "cannot enable fbt probes: %zu functions would need a %s "
			     "each, which take seconds to attach and minutes to detach (%s: %s); "
			     "at most %d are enabled this way unless -x fbtmech=%s insists",
			     g->probes.n, kprobe ? "kprobe" : "trampoline",
			     kind_names[FBT_KPROBE_MULTI], fbt->feat[FBT_KPROBE_MULTI].why,
			     SINGLE_MAX_PROBES, kprobe ? "kprobe" : "fentry");
		return NULL;
	}
	if (kprobe)
		return mech(FBT_KPROBE, g);
	if (fentry)
		return &dt_fbt_mech_fentry;

	/* Say what the kernel lacks first; a function's own limits only if it lacks nothing. */
	dt_fbt_feature(reg, fbt, FBT_FENTRY, sample);
	struct dt_strbuf sb;
	dt_sb_init(&sb);
	for (int k = 0; k < FBT_NKINDS; k++) {
		const char *why = fbt->feat[k].why;
		if (k == FBT_FENTRY && why == NULL) {
			const struct fbt_func *bad = no_fentry(g);
			why = bad != NULL ? no_fentry_why(fbt, bad) : NULL;
		}
		dt_sb_printf(&sb, "%s%s: %s", k ? "; " : "", kind_names[k], why ? why : "?");
	}
	dt_set_error(reg->core, -ENOTSUP, "cannot enable fbt probes: %s", sb.oom ? "out of memory" : sb.s);
	dt_sb_free(&sb);
	return NULL;
}

const struct dt_provider dt_prov_fbt = {
	.name = "fbt",
	.pattr = &dt_pattr_kernel,
	.lazy = true,
	.populate = populate,
	.provide = provide,
	.mech_class = mech_class,
	.choose = choose,
	.arg_type = arg_type,
	.arg_count = arg_count,
	.fini = dt_fbt_free,
};
