/*
 * The rawfbt provider (DTrace 2.0's): rawfbt:<module>:<function>:entry and
 * :return for every kernel function kprobes can trace, by its name in
 * kallsyms, BTF or not: also the copies the compiler made of a function
 * (foo.isra.0, foo.constprop.0, foo.part.0) and functions of modules
 * without BTF.  Which functions those are: text symbols of vmlinux (in
 * _stext.._etext) and of the modules, that start with an ftrace call site
 * (fbt_ftrace.c; DTrace lists available_filter_functions, the same set)
 * and are not on the kprobe blacklist.  Two symbols of one name in one
 * module make one probe, at the first, as kprobes by name do.
 *
 * Arguments are untyped (no args[]): argN on entry are the registers and
 * stack slots of the calling convention, whatever the function takes; on
 * return arg0 is -1 (the returning instruction is unknown, as in DTrace)
 * and arg1 the value in the return register.  Mechanisms: fbt's
 * kprobe_multi, else one kprobe per function (fbt_mech.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/kallsyms.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "providers/fbt.h"
#include "providers/fbt_ftrace.h"
#include "providers/providers.h"

/* As fbt's: more single kprobes than this take minutes to detach. */
#define SINGLE_MAX_PROBES 1000

struct dt_rawfbt {
	struct dt_arena arena;
	bool loaded;
	int load_err;
	DT_VEC(struct fbt_mod *) mods;	/* in kallsyms order: vmlinux first */
	DT_VEC(struct fbt_func *) funcs;	/* the traceable ones */
};

void dt_rawfbt_free(struct dt_rawfbt *r)
{
	if (r == NULL)
		return;
	for (size_t i = 0; i < r->mods.n; i++)
		dt_htab_free(&r->mods.v[i]->funcs);
	dt_vec_free(&r->mods);
	dt_vec_free(&r->funcs);
	dt_arena_free(&r->arena);
	free(r);
}

/* What the kallsyms walk collects. */
struct walk {
	struct dt_rawfbt *r;
	struct fbt_mod *last;
	DT_VEC(struct fbt_func *) cand;
	struct dt_fbt_text text;
	bool have_addrs;
};

static struct fbt_mod *get_mod(struct walk *w, const char *name)
{
	struct dt_rawfbt *r = w->r;

	if (w->last != NULL && strcmp(w->last->name, name) == 0)
		return w->last;
	for (size_t i = 0; i < r->mods.n; i++)
		if (strcmp(r->mods.v[i]->name, name) == 0)
			return w->last = r->mods.v[i];
	struct fbt_mod *m = dt_arena_zalloc(&r->arena, sizeof(*m));
	if (m == NULL || (m->name = dt_arena_strdup(&r->arena, name)) == NULL ||
	    dt_vec_push(&r->mods, m) < 0)
		return NULL;
	return w->last = m;
}

static int on_symbol(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct walk *w = arg;
	struct fbt_mod *m = get_mod(w, mod);

	if (m == NULL)
		return -ENOMEM;
	if (addr != 0)
		w->have_addrs = true;
	if (strcmp(mod, "vmlinux") == 0 && (name[0] == '_' || name[0] == 'f')) {
		if (strcmp(name, "_stext") == 0)
			w->text.start = addr;
		else if (strcmp(name, "_etext") == 0)
			w->text.end = addr;
		else if (strcmp(name, "ftrace_caller") == 0)
			w->text.callers[0] = addr;
		else if (strcmp(name, "ftrace_regs_caller") == 0)
			w->text.callers[1] = addr;
	}
	if (dt_htab_get(&m->funcs, name) != NULL)
		return 0;
	struct fbt_func *f = dt_arena_zalloc(&w->r->arena, sizeof(*f));
	if (f == NULL || (f->name = dt_arena_strdup(&w->r->arena, name)) == NULL ||
	    dt_htab_put(&m->funcs, f->name, f) < 0 || dt_vec_push(&w->cand, f) < 0)
		return -ENOMEM;
	f->mod = m;
	f->addr = addr;
	f->in_kallsyms = true;
	return 0;
}

static int on_blacklisted(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct walk *w = arg;

	(void)mod;
	for (size_t i = 0; i < w->r->mods.n; i++) {
		struct fbt_func *f = dt_htab_get(&w->r->mods.v[i]->funcs, name);
		if (f != NULL && (addr == 0 || f->addr == addr))
			f->blacklisted = true;
	}
	return 0;
}

/* Keep the candidates in the kernel's text that start with an ftrace call site. */
static int keep_traceable(struct walk *w)
{
	struct dt_rawfbt *r = w->r;
	size_t n = 0;
	const struct fbt_mod *vmlinux = r->mods.n > 0 ? r->mods.v[0] : NULL;

	for (size_t i = 0; i < w->cand.n; i++) {
		struct fbt_func *f = w->cand.v[i];
		if (f->blacklisted)
			continue;
		if (f->mod == vmlinux && w->text.start < w->text.end &&
		    (f->addr < w->text.start || f->addr >= w->text.end))
			continue;
		w->cand.v[n++] = f;
	}
	uint64_t *addrs = calloc(n + 1, sizeof(*addrs));
	bool *ok = calloc(n + 1, sizeof(*ok));
	int rc = 0;
	if (addrs == NULL || ok == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		addrs[i] = w->cand.v[i]->addr;
	/* Without addresses (not root) or the kernel's text, nothing is known: all stay. */
	bool checked = w->have_addrs && dt_fbt_ftrace_sites(&w->text, addrs, n, ok) == 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (checked && !ok[i])
			continue;
		w->cand.v[i]->listed = true;
		rc = dt_vec_push(&r->funcs, w->cand.v[i]);
	}
out:
	free(addrs);
	free(ok);
	return rc;
}

static struct dt_rawfbt *load(struct dt_registry *reg, int *rcp)
{
	struct dt_fbt *fbt = dt_fbt_state(reg);

	*rcp = 0;
	if (fbt == NULL || (fbt->raw == NULL && (fbt->raw = calloc(1, sizeof(*fbt->raw))) == NULL)) {
		*rcp = -ENOMEM;
		return NULL;
	}
	struct dt_rawfbt *r = fbt->raw;
	if (!r->loaded) {
		struct walk w = { .r = r };
		r->loaded = true;
		/* vmlinux first, whatever kallsyms shows first. */
		int rc = get_mod(&w, "vmlinux") != NULL ? 0 : -ENOMEM;
		if (rc == 0)
			rc = dt_kallsyms_walk(on_symbol, &w);
		if (rc == 0)
			rc = dt_kprobe_blacklist_walk(on_blacklisted, &w);
		if (rc == 0)
			rc = keep_traceable(&w);
		dt_vec_free(&w.cand);
		r->load_err = rc;
	}
	/* A system that does not show its symbols has no rawfbt probes. */
	if (r->load_err == -ENOMEM)
		*rcp = r->load_err;
	return r->load_err < 0 ? NULL : r;
}

static bool field_match(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

static int add(struct dt_registry *reg, const struct fbt_func *f, bool entry, bool ret)
{
	if (entry && dt_probe_add(reg, &dt_prov_rawfbt, f->mod->name, f->name, "entry", FBT_ENTRY,
				  f) == NULL)
		return -ENOMEM;
	if (ret && dt_probe_add(reg, &dt_prov_rawfbt, f->mod->name, f->name, "return",
				FBT_RETURN, f) == NULL)
		return -ENOMEM;
	return 0;
}

static int populate(struct dt_registry *reg)
{
	int rc;
	struct dt_rawfbt *r = load(reg, &rc);

	for (size_t i = 0; r != NULL && rc == 0 && i < r->funcs.n; i++)
		rc = add(reg, r->funcs.v[i], true, true);
	return rc;
}

static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	bool entry = field_match("entry", pd->name), ret = field_match("return", pd->name);
	int rc = 0;

	if (!entry && !ret)
		return 0;
	struct dt_rawfbt *r = load(reg, &rc);
	if (r == NULL)
		return rc;
	if (pd->func != NULL && pd->func[0] != '\0' && !dt_has_glob(pd->func)) {
		for (size_t i = 0; rc == 0 && i < r->mods.n; i++) {
			if (!field_match(r->mods.v[i]->name, pd->mod))
				continue;
			const struct fbt_func *f = dt_htab_get(&r->mods.v[i]->funcs, pd->func);
			if (f != NULL && f->listed)
				rc = add(reg, f, entry, ret);
		}
		return rc;
	}
	for (size_t i = 0; rc == 0 && i < r->funcs.n; i++) {
		const struct fbt_func *f = r->funcs.v[i];
		if (field_match(f->mod->name, pd->mod) && field_match(f->name, pd->func))
			rc = add(reg, f, entry, ret);
	}
	return rc;
}

static const char *mech_class(const struct dt_probe *prp)
{
	return prp->data == FBT_ENTRY ? "entry" : "return";
}

static const struct dt_mech *choose(struct dt_registry *reg, struct dt_group *g)
{
	struct dt_fbt *fbt = dt_fbt_state(reg);
	bool ret = strcmp(g->mclass, "return") == 0;

	if (fbt == NULL) {
		dt_set_error(reg->core, -ENOMEM, "out of memory");
		return NULL;
	}
	if (dt_fbt_feature(reg, fbt, FBT_KPROBE_MULTI, NULL))
		return ret ? &dt_fbt_mech_kretprobe_multi : &dt_fbt_mech_kprobe_multi;
	if (dt_fbt_feature(reg, fbt, FBT_KPROBE, NULL)) {
		if (g->probes.n > SINGLE_MAX_PROBES) {
			dt_set_error(reg->core, -E2BIG, "cannot enable rawfbt probes: %zu functions would "
				     "need a kprobe each, which take seconds to attach and minutes "
				     "to detach (kprobe_multi: %s); at most %d are enabled this way",
				     g->probes.n, fbt->feat[FBT_KPROBE_MULTI].why,
				     SINGLE_MAX_PROBES);
			return NULL;
		}
		return ret ? &dt_fbt_mech_kretprobe : &dt_fbt_mech_kprobe;
	}
	dt_set_error(reg->core, -ENOTSUP, "cannot enable rawfbt probes: they need kprobes, which this "
		     "kernel does not allow (kprobe_multi: %s; kprobe: %s)",
		     fbt->feat[FBT_KPROBE_MULTI].why, fbt->feat[FBT_KPROBE].why);
	return NULL;
}

/* No args[]: nothing says what a function without BTF takes. */
static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	(void)reg;
	(void)prp;
	return 0;
}

const struct dt_provider dt_prov_rawfbt = {
	.name = "rawfbt",
	.pattr = &dt_pattr_kernel,
	.lazy = true,
	.populate = populate,
	.provide = provide,
	.mech_class = mech_class,
	.choose = choose,
	.arg_count = arg_count,
};
