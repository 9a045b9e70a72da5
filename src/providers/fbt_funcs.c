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
 * readable.
 */
#include <bpf/btf.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/dt_impl.h"
#include "providers/fbt.h"
#include "providers/fbt_ftrace.h"

#define SYS_BTF "/sys/kernel/btf"

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

struct lister {
	struct dt_fbt *fbt;
	struct dt_fbt_text text;	/* where vmlinux's text is (0, 0 if unknown) */
	struct dt_htab seen;		/* "module`function" of the candidates */
};

static int add_func(struct lister *ls, const struct fbt_mod *m, uint32_t id)
{
	struct dt_fbt *fbt = ls->fbt;
	const struct btf_type *t = btf__type_by_id(m->btf, id);
	const char *name = btf__name_by_offset(m->btf, t->name_off);
	uint64_t addr;

	if (name == NULL || name[0] == '\0' || strchr(name, '.') != NULL)
		return 0;
	if (!dt_ksyms_lookup(&fbt->ksyms, m->name, name, &addr) ||
	    dt_ksyms_blacklisted(&fbt->ksyms, name))
		return 0;
	if (strcmp(m->name, "vmlinux") == 0 && ls->text.end != 0 &&
	    (addr < ls->text.start || addr >= ls->text.end))
		return 0;
	char *key = dt_arena_printf(&fbt->arena, "%s`%s", m->name, name);
	if (key == NULL)
		return -ENOMEM;
	if (dt_htab_get(&ls->seen, key) != NULL)
		return 0;
	struct fbt_func *f = dt_arena_zalloc(&fbt->arena, sizeof(*f));
	if (f == NULL || dt_htab_put(&ls->seen, key, f) < 0)
		return -ENOMEM;
	f->name = name;
	f->mod = m;
	f->btf_id = id;
	f->addr = addr;

	const struct btf_type *proto = btf__type_by_id(m->btf, t->type);
	bool ok = proto != NULL && btf_is_func_proto(proto);
	if (ok) {
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
			ok = scalar(m->btf, p[i].type);
		ok = ok && (proto->type == 0 || scalar(m->btf, proto->type));
	}
	f->fentry_ok = ok;
	f->key = key;
	return dt_vec_push(&fbt->funcs, f) < 0 ? -ENOMEM : 0;
}

static int add_module(struct lister *ls, const char *name, struct btf *btf, bool own)
{
	struct dt_fbt *fbt = ls->fbt;
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
		if (t != NULL && btf_is_func(t)) {
			int rc = add_func(ls, m, id);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Modules with BTF, in name order; BTF that does not parse is skipped. */
static int add_modules(struct lister *ls, struct btf *vmlinux)
{
	struct dt_fbt *fbt = ls->fbt;
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
		if (b == NULL)
			continue;
		rc = add_module(ls, names.v[i], b, true);
	}
	dt_vec_free(&names);
	return rc;
}

/* Keep the candidates that start with an ftrace call site. */
static int keep_traceable(struct lister *ls)
{
	struct dt_fbt *fbt = ls->fbt;
	size_t n = fbt->funcs.n, k = 0;
	uint64_t *addrs = calloc(n + 1, sizeof(*addrs));
	bool *ok = calloc(n + 1, sizeof(*ok));
	int rc = 0;

	if (addrs == NULL || ok == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		addrs[i] = fbt->funcs.v[i]->addr;
	/* Unreadable text (or addresses): every candidate stays. */
	if (!fbt->ksyms.have_addrs || dt_fbt_ftrace_sites(&ls->text, addrs, n, ok) < 0)
		goto out;
	fbt->sites_checked = true;
	for (size_t i = 0; i < n; i++)
		if (ok[i])
			fbt->funcs.v[k++] = fbt->funcs.v[i];
	fbt->funcs.n = k;
out:
	free(addrs);
	free(ok);
	return rc;
}

static int index_funcs(struct dt_fbt *fbt)
{
	for (size_t i = 0; i < fbt->funcs.n; i++) {
		struct fbt_func *f = fbt->funcs.v[i];
		if (dt_htab_put(&fbt->by_key, f->key, f) < 0)
			return -ENOMEM;
	}
	/* fentry/<name> resolves to vmlinux first: a module's namesake must use kprobes. */
	for (size_t i = 0; i < fbt->funcs.n; i++) {
		struct fbt_func *f = fbt->funcs.v[i];
		char vk[512];
		if (strcmp(f->mod->name, "vmlinux") == 0)
			continue;
		snprintf(vk, sizeof(vk), "vmlinux`%s", f->name);
		f->name_clash = dt_htab_get(&fbt->by_key, vk) != NULL;
	}
	return 0;
}

int dt_fbt_funcs_load(dtrace_hdl_t *dtp, struct dt_fbt *fbt)
{
	struct lister ls = { .fbt = fbt };
	int rc;

	if (fbt->loaded)
		return fbt->load_err;
	fbt->loaded = true;
	struct btf *vmlinux = dt_kernel_btf(&dtp->types);
	if (vmlinux == NULL)
		return fbt->load_err = -ENOENT;
	if ((rc = dt_ksyms_load(&fbt->ksyms)) < 0)
		return fbt->load_err = rc;
	dt_ksyms_lookup(&fbt->ksyms, "vmlinux", "_stext", &ls.text.start);
	dt_ksyms_lookup(&fbt->ksyms, "vmlinux", "_etext", &ls.text.end);
	if (ls.text.start >= ls.text.end)
		ls.text.start = ls.text.end = 0;
	dt_ksyms_lookup(&fbt->ksyms, "vmlinux", "ftrace_caller", &ls.text.callers[0]);
	dt_ksyms_lookup(&fbt->ksyms, "vmlinux", "ftrace_regs_caller", &ls.text.callers[1]);
	rc = add_module(&ls, "vmlinux", vmlinux, false);
	if (rc == 0)
		rc = add_modules(&ls, vmlinux);
	if (rc == 0)
		rc = keep_traceable(&ls);
	if (rc == 0)
		rc = index_funcs(fbt);
	dt_htab_free(&ls.seen);
	/* The symbol table is not needed once the functions are known. */
	dt_ksyms_fini(&fbt->ksyms);
	return fbt->load_err = rc;
}

void dt_fbt_funcs_free(struct dt_fbt *fbt)
{
	/* Split BTF first: vmlinux's (freed with the type tables) is their base. */
	for (size_t i = 0; i < fbt->mods.n; i++)
		if (fbt->mods.v[i]->own_btf)
			btf__free(fbt->mods.v[i]->btf);
	dt_vec_free(&fbt->mods);
	dt_vec_free(&fbt->funcs);
	dt_htab_free(&fbt->by_key);
	dt_ksyms_fini(&fbt->ksyms);
}
