/*
 * The functions fbt can trace: every BTF_KIND_FUNC of vmlinux and of each
 * module with BTF (/sys/kernel/btf/<module>) that
 *   - is a text symbol of that module in kallsyms (not inlined away or
 *     renamed by the compiler, foo.isra.0), within the kernel's text
 *     (_stext.._etext: not init code, freed after boot, nor exit code);
 *   - is not on the kprobe blacklist (when debugfs shows it);
 *   - starts with an ftrace call site (fbt_ftrace.c): every mechanism
 *     needs one, and BTF (pahole) also describes functions without.
 * available_filter_functions is not read: it is slow and not always
 * readable.  kallsyms is streamed past the BTF functions, never stored.
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/kallsyms.h"
#include "base/probe.h"
#include "providers/fbt.h"
#include "providers/fbt_ftrace.h"

#define SYS_BTF "/sys/kernel/btf"

typedef DT_VEC(struct fbt_func *) funcvec_t;

/* Through typedefs and qualifiers. */
static const struct btf_type *resolve(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t != NULL && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	return t;
}

/* An argument or result a trampoline passes in one register. */
static bool scalar(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = resolve(btf, id);

	if (t == NULL)
		return false;
	if (btf_is_ptr(t))
		return true;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))
		return t->size <= 8;
	return false;
}

/* Argument count, and whether a trampoline takes the prototype. */
static void describe(struct fbt_func *f, const struct btf *btf, const struct btf_type *proto)
{
	bool ok = proto != NULL && btf_is_func_proto(proto);

	if (!ok)
		return;
	f->returns_void = proto->type == 0;
	const struct btf_param *p = btf_params(proto);
	uint16_t n = btf_vlen(proto);
	/* A trailing type 0 is "...": not an argument of its own. */
	if (n > 0 && p[n - 1].type == 0) {
		n--;
		ok = false;
	}
	f->nargs = (uint8_t)(n > 255 ? 255 : n);
	ok = ok && n <= FBT_FENTRY_MAX_ARGS;
	for (uint16_t i = 0; ok && i < n; i++)
		ok = scalar(btf, p[i].type);
	f->fentry_ok = ok && (proto->type == 0 || scalar(btf, proto->type));
}

/* Every function of a module's BTF becomes a candidate (the first of a name). */
static int add_module(struct dt_fbt *fbt, funcvec_t *cand, const char *name,
		      struct btf *btf, bool own)
{
	struct fbt_mod *m = dt_arena_zalloc(&fbt->arena, sizeof(*m));

	if (m == NULL || (m->name = dt_arena_strdup(&fbt->arena, name)) == NULL ||
	    dt_vec_push(&fbt->mods, m) < 0) {
		if (own)
			btf__free(btf);
		return -ENOMEM;
	}
	m->btf = btf;
	m->own_btf = own;
	/* A module's split BTF numbers its own types after vmlinux's. */
	const struct btf *base = btf__base_btf(btf);
	uint32_t first = base ? btf__type_cnt(base) : 1, n = btf__type_cnt(btf);
	for (uint32_t id = first; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (t == NULL || !btf_is_func(t))
			continue;
		const char *fname = btf__name_by_offset(btf, t->name_off);
		if (fname == NULL || fname[0] == '\0' || strchr(fname, '.') != NULL ||
		    dt_htab_get(&m->funcs, fname) != NULL)
			continue;
		struct fbt_func *f = dt_arena_zalloc(&fbt->arena, sizeof(*f));
		if (f == NULL || dt_htab_put(&m->funcs, fname, f) < 0 || dt_vec_push(cand, f) < 0)
			return -ENOMEM;
		f->name = fname;
		f->mod = m;
		f->btf_id = id;
		describe(f, btf, btf__type_by_id(btf, t->type));
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Modules with BTF, in name order; BTF that does not parse is skipped. */
static int add_modules(struct dt_fbt *fbt, funcvec_t *cand, struct btf *vmlinux)
{
	DIR *d = opendir(SYS_BTF);
	DT_VEC(char *) names = { 0 };
	struct dirent *de;
	int rc = 0;

	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "vmlinux") == 0)
			continue;
		char *s = dt_arena_strdup(&fbt->arena, de->d_name);
		if (s == NULL || dt_vec_push(&names, s) < 0) {
			rc = -ENOMEM;
			break;
		}
	}
	closedir(d);
	if (names.n > 0)
		qsort(names.v, names.n, sizeof(*names.v), cmp_str);
	for (size_t i = 0; rc == 0 && i < names.n; i++) {
		char path[512];
		snprintf(path, sizeof(path), SYS_BTF "/%s", names.v[i]);
		struct btf *b = btf__parse_raw_split(path, vmlinux);
		if (b != NULL)
			rc = add_module(fbt, cand, names.v[i], b, true);
	}
	dt_vec_free(&names);
	return rc;
}

/* What the kallsyms walk finds. */
struct symwalk {
	struct dt_fbt *fbt;
	struct fbt_mod *last;		/* module of the previous symbol */
	struct dt_fbt_text text;	/* vmlinux's text and ftrace's callers */
	bool have_addrs;		/* addresses are shown (not all 0) */
};

static struct fbt_mod *find_mod(struct symwalk *w, const char *name)
{
	if (w->last != NULL && strcmp(w->last->name, name) == 0)
		return w->last;
	for (size_t i = 0; i < w->fbt->mods.n; i++)
		if (strcmp(w->fbt->mods.v[i]->name, name) == 0)
			return w->last = w->fbt->mods.v[i];
	return NULL;
}

static int on_symbol(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct symwalk *w = arg;
	struct fbt_mod *m = find_mod(w, mod);

	if (addr != 0)
		w->have_addrs = true;
	if (m == NULL)
		return 0;
	if (m == w->fbt->mods.v[0] && (name[0] == '_' || name[0] == 'f')) {
		if (strcmp(name, "_stext") == 0)
			w->text.start = addr;
		else if (strcmp(name, "_etext") == 0)
			w->text.end = addr;
		else if (strcmp(name, "ftrace_caller") == 0)
			w->text.callers[0] = addr;
		else if (strcmp(name, "ftrace_regs_caller") == 0)
			w->text.callers[1] = addr;
	}
	struct fbt_func *f = dt_htab_get(&m->funcs, name);
	if (f != NULL && !f->in_kallsyms) {
		/* A second static function of that name: the first wins, as in the kernel. */
		f->in_kallsyms = true;
		f->addr = addr;
	}
	return 0;
}

static int on_blacklisted(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct dt_fbt *fbt = arg;

	(void)mod;
	(void)addr;
	for (size_t i = 0; i < fbt->mods.n; i++) {
		struct fbt_func *f = dt_htab_get(&fbt->mods.v[i]->funcs, name);
		if (f != NULL)
			f->blacklisted = true;
	}
	return 0;
}

/* The candidates kallsyms knows, in the kernel's text, not blacklisted. */
static bool plausible(const struct symwalk *w, const struct fbt_func *f)
{
	if (!f->in_kallsyms || f->blacklisted)
		return false;
	if (f->mod == w->fbt->mods.v[0] && w->text.start < w->text.end &&
	    (f->addr < w->text.start || f->addr >= w->text.end))
		return false;
	return true;
}

/* Keep the candidates that start with an ftrace call site (all, if that cannot be read). */
static int keep_traceable(const struct symwalk *w, struct fbt_func **v, size_t n)
{
	struct dt_fbt *fbt = w->fbt;
	uint64_t *addrs = calloc(n + 1, sizeof(*addrs));
	bool *ok = calloc(n + 1, sizeof(*ok));
	int rc = 0;

	if (addrs == NULL || ok == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		addrs[i] = v[i]->addr;
	fbt->sites_checked = w->have_addrs && dt_fbt_ftrace_sites(&w->text, addrs, n, ok) == 0;
	for (size_t i = 0; i < n; i++) {
		if (fbt->sites_checked && !ok[i])
			continue;
		v[i]->listed = true;
		if (dt_vec_push(&fbt->funcs, v[i]) < 0) {
			rc = -ENOMEM;
			break;
		}
	}
out:
	free(addrs);
	free(ok);
	return rc;
}

int dt_fbt_funcs_load(struct dt_registry *reg, struct dt_fbt *fbt)
{
	funcvec_t cand = { 0 };
	struct symwalk w = { .fbt = fbt };
	int rc;

	if (fbt->loaded)
		return fbt->load_err;
	fbt->loaded = true;
	struct btf *vmlinux = dt_kernel_btf(&reg->core->types);
	if (vmlinux == NULL)
		return fbt->load_err = -ENOENT;
	rc = add_module(fbt, &cand, "vmlinux", vmlinux, false);
	if (rc == 0)
		rc = add_modules(fbt, &cand, vmlinux);
	if (rc == 0)
		rc = dt_kallsyms_walk(on_symbol, &w);
	if (rc == 0)
		rc = dt_kprobe_blacklist_walk(on_blacklisted, fbt);
	if (rc == 0) {
		size_t k = 0;
		for (size_t i = 0; i < cand.n; i++)
			if (plausible(&w, cand.v[i]))
				cand.v[k++] = cand.v[i];
		rc = keep_traceable(&w, cand.v, k);
	}
	/* fentry/<name> resolves to vmlinux first: a module's namesake must use kprobes. */
	for (size_t i = 0; rc == 0 && i < fbt->funcs.n; i++) {
		struct fbt_func *f = fbt->funcs.v[i];
		if (f->mod != fbt->mods.v[0])
			f->name_clash = dt_fbt_func(fbt, "vmlinux", f->name) != NULL;
	}
	dt_vec_free(&cand);
	return fbt->load_err = rc;
}

struct fbt_func *dt_fbt_func(const struct dt_fbt *fbt, const char *mod, const char *name)
{
	for (size_t i = 0; i < fbt->mods.n; i++) {
		if (strcmp(fbt->mods.v[i]->name, mod) != 0)
			continue;
		struct fbt_func *f = dt_htab_get(&fbt->mods.v[i]->funcs, name);
		return f != NULL && f->listed ? f : NULL;
	}
	return NULL;
}

void dt_fbt_funcs_free(struct dt_fbt *fbt)
{
	/* Split BTF first: vmlinux's (freed with the type tables) is their base. */
	for (size_t i = 0; i < fbt->mods.n; i++) {
		dt_htab_free(&fbt->mods.v[i]->funcs);
		if (fbt->mods.v[i]->own_btf)
			btf__free(fbt->mods.v[i]->btf);
	}
	dt_vec_free(&fbt->mods);
	dt_vec_free(&fbt->funcs);
}
