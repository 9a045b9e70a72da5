/* Kernel symbols from /proc/kallsyms (ksyms.h). */
#include "consumer/ksyms.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* While parsing, names are offsets into the name storage (+1; 0: none). */
struct raw {
	uint64_t addr;
	size_t name, mod;
	size_t seq;		/* line number: the tie-break */
	uint32_t unders, len;	/* leading underscores, length of the name */
	bool global;
};

/*
 * The name DTrace would pick among symbols at one address: a global one
 * before a local one, fewer leading underscores, then the shorter, then
 * the first listed.
 */
static int cmp_raw(const void *x, const void *y)
{
	const struct raw *a = x, *b = y;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->global != b->global)
		return a->global ? -1 : 1;
	if (a->unders != b->unders)
		return a->unders < b->unders ? -1 : 1;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Offset (+1) of module `m` (n bytes) in the storage, added once. */
static size_t intern_mod(struct dt_strbuf *names, size_t *mods, size_t *nmods, size_t cap,
			 const char *m, size_t n)
{
	for (size_t i = 0; i < *nmods; i++) {
		const char *s = names->s + mods[i] - 1;
		if (strlen(s) == n && strncmp(s, m, n) == 0)
			return mods[i];
	}
	size_t off = names->len + 1;
	dt_sb_putn(names, m, n);
	dt_sb_putc(names, '\0');
	if (*nmods < cap)
		mods[(*nmods)++] = off;
	return off;
}

static bool parse_line(const char *line, size_t len, struct dt_strbuf *names, size_t *mods,
		       size_t *nmods, size_t vmlinux, struct raw *r)
{
	char *end;
	uint64_t addr = strtoull(line, &end, 16);

	if (end == line || *end != ' ' || end + 3 > line + len)
		return false;
	char type = end[1];
	const char *name = end + 3;
	const char *stop = line + len;
	size_t n = strcspn(name, "\t ");
	if (name + n > stop)
		n = (size_t)(stop - name);
	/* Hidden addresses, absolute symbols and undefined ones say nothing. */
	if (addr == 0 || n == 0 || type == 'a' || type == 'A' || type == 'U' || type == 'u')
		return false;
	r->addr = addr;
	r->global = type >= 'A' && type <= 'Z';
	r->mod = vmlinux;
	const char *m = name + n;
	while (m < stop && (*m == '\t' || *m == ' '))
		m++;
	if (m < stop && *m == '[') {
		const char *me = memchr(m, ']', (size_t)(stop - m));
		if (me != NULL && me > m + 1)
			r->mod = intern_mod(names, mods, nmods, 4096, m + 1, (size_t)(me - m - 1));
	}
	r->name = names->len + 1;
	r->len = (uint32_t)n;
	r->unders = 0;
	while (r->unders < n && name[r->unders] == '_')
		r->unders++;
	dt_sb_putn(names, name, n);
	dt_sb_putc(names, '\0');
	return true;
}

static int build(struct dt_ksyms *ks, struct raw *v, size_t n, const size_t *mods, size_t nmods)
{
	const char *names = ks->names;

	if (n > 0)	/* v may be NULL then: qsort's argument must not be */
		qsort(v, n, sizeof(*v), cmp_raw);
	ks->syms = calloc(n ? n : 1, sizeof(*ks->syms));
	ks->mods = calloc(nmods ? nmods : 1, sizeof(*ks->mods));
	if (ks->syms == NULL || ks->mods == NULL)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (ks->nsyms > 0 && ks->syms[ks->nsyms - 1].addr == v[i].addr)
			continue;	/* an alias: the best name came first */
		ks->syms[ks->nsyms++] = (struct dt_ksym){ .addr = v[i].addr,
							  .name = names + v[i].name - 1,
							  .mod = names + v[i].mod - 1 };
	}
	/* A symbol ends where the next one of its module starts. */
	for (size_t i = 0; i < ks->nsyms; i++) {
		struct dt_ksym *s = &ks->syms[i];
		s->end = s->addr + 1;
		if (i + 1 < ks->nsyms && ks->syms[i + 1].mod == s->mod)
			s->end = ks->syms[i + 1].addr;
	}
	for (size_t m = 0; m < nmods; m++)
		ks->mods[m] = (struct dt_kmod){ .name = names + mods[m] - 1, .lo = UINT64_MAX };
	ks->nmods = nmods;
	for (size_t i = 0; i < ks->nsyms; i++) {
		const struct dt_ksym *s = &ks->syms[i];
		for (size_t m = 0; m < nmods; m++) {
			struct dt_kmod *km = &ks->mods[m];
			if (km->name != s->mod)
				continue;
			if (s->addr < km->lo)
				km->lo = s->addr;
			if (s->end > km->hi)
				km->hi = s->end;
			break;
		}
	}
	return 0;
}

int dt_ksyms_parse(const char *text, struct dt_ksyms **out)
{
	struct dt_ksyms *ks = calloc(1, sizeof(*ks));
	struct dt_strbuf names;
	DT_VEC(struct raw) v = { 0 };
	size_t mods[4096], nmods = 0;
	int rc = 0;

	*out = NULL;
	if (ks == NULL)
		return -ENOMEM;
	dt_sb_init(&names);
	size_t vmlinux = intern_mod(&names, mods, &nmods, 4096, "vmlinux", 7);
	for (const char *p = text; p != NULL && *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t len = nl != NULL ? (size_t)(nl - p) : strlen(p);
		struct raw r = { .seq = v.n };
		if (parse_line(p, len, &names, mods, &nmods, vmlinux, &r) && dt_vec_push(&v, r) < 0) {
			rc = -ENOMEM;
			break;
		}
		p = nl != NULL ? nl + 1 : NULL;
	}
	if (rc == 0 && names.oom)
		rc = -ENOMEM;
	if (rc == 0) {
		ks->names = dt_sb_take(&names);
		rc = ks->names == NULL ? -ENOMEM : build(ks, v.v, v.n, mods, nmods);
	}
	dt_sb_free(&names);
	dt_vec_free(&v);
	if (rc < 0) {
		dt_ksyms_free(ks);
		return rc;
	}
	*out = ks;
	return 0;
}

void dt_ksyms_module_end(struct dt_ksyms *ks, const char *mod, uint64_t end)
{
	for (size_t m = 0; m < ks->nmods; m++) {
		struct dt_kmod *km = &ks->mods[m];
		if (strcmp(km->name, mod) != 0 || km->lo == UINT64_MAX)
			continue;
		/* Its last symbol: the one ending at the module's old end. */
		for (size_t i = ks->nsyms; i-- > 0;) {
			struct dt_ksym *s = &ks->syms[i];
			if (s->mod == km->name && s->end == km->hi && end > s->addr) {
				s->end = end;
				break;
			}
		}
		if (end > km->hi)
			km->hi = end;
		return;
	}
}

/* "name size refcount deps state address" lines. */
static void read_modules(struct dt_ksyms *ks, const char *path)
{
	char *text = path != NULL ? dt_read_file(path, NULL) : NULL;
	char *save = NULL;

	if (text == NULL)
		return;
	for (char *l = strtok_r(text, "\n", &save); l != NULL; l = strtok_r(NULL, "\n", &save)) {
		char name[64], state[32], deps[1024];
		unsigned long long size, addr;
		int refs;
		if (sscanf(l, "%63s %llu %d %1023s %31s %llx", name, &size, &refs, deps, state,
			   &addr) == 6 && addr != 0)
			dt_ksyms_module_end(ks, name, addr + size);
	}
	free(text);
}

int dt_ksyms_load(const char *path, const char *modules, struct dt_ksyms **out)
{
	char *text = dt_read_file(path, NULL);

	*out = NULL;
	if (text == NULL)
		return errno ? -errno : -EIO;
	int rc = dt_ksyms_parse(text, out);
	free(text);
	if (rc == 0)
		read_modules(*out, modules);
	return rc;
}

void dt_ksyms_free(struct dt_ksyms *ks)
{
	if (ks == NULL)
		return;
	free(ks->syms);
	free(ks->mods);
	free(ks->names);
	free(ks);
}

const struct dt_ksym *dt_ksyms_lookup(const struct dt_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi = ks->nsyms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct dt_ksym *s = &ks->syms[lo - 1];
	return addr < s->end ? s : NULL;
}

const struct dt_kmod *dt_ksyms_module(const struct dt_ksyms *ks, uint64_t addr)
{
	for (size_t i = 0; i < ks->nmods; i++) {
		const struct dt_kmod *m = &ks->mods[i];
		if (addr >= m->lo && addr < m->hi)
			return m;
	}
	return NULL;
}
