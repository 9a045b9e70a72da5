/*
 * /proc/kallsyms: "<address> <type> <name>[\t[<module>]]", sorted by
 * address.  Only text symbols matter here.  The file is read once and cut
 * in place, so names are keys without copies.
 */
#include "providers/kallsyms.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define KALLSYMS "/proc/kallsyms"
#define KPROBE_BLACKLIST "/sys/kernel/debug/kprobes/blacklist"

static struct dt_ksyms_mod *mod_get(struct dt_ksyms *ks, const char *name)
{
	/* Symbols of one module are contiguous: the last one is the usual hit. */
	for (size_t i = ks->mods.n; i-- > 0;)
		if (strcmp(ks->mods.v[i]->name, name) == 0)
			return ks->mods.v[i];
	struct dt_ksyms_mod *m = calloc(1, sizeof(*m));
	if (m == NULL)
		return NULL;
	m->name = name;
	if (dt_vec_push(&ks->mods, m) < 0) {
		free(m);
		return NULL;
	}
	return m;
}

static const struct dt_ksyms_mod *mod_find(const struct dt_ksyms *ks, const char *name)
{
	for (size_t i = 0; i < ks->mods.n; i++)
		if (strcmp(ks->mods.v[i]->name, name) == 0)
			return ks->mods.v[i];
	return NULL;
}

/* One line, NUL-terminated; 0 or -ENOMEM. */
static int add_line(struct dt_ksyms *ks, char *line)
{
	char *end, *name, *mod;
	uint64_t addr = strtoull(line, &end, 16);

	if (end == line || end[0] != ' ' || end[1] == '\0' || end[2] != ' ')
		return 0;
	if (strchr("tTwW", end[1]) == NULL)
		return 0;
	name = end + 3;
	mod = strchr(name, '\t');
	if (mod != NULL) {
		*mod++ = '\0';
		if (*mod == '[')
			mod++;
		char *close = strchr(mod, ']');
		if (close != NULL)
			*close = '\0';
	} else {
		mod = "vmlinux";
	}
	struct dt_ksyms_mod *m = mod_get(ks, mod);
	if (m == NULL)
		return -ENOMEM;
	if (dt_htab_get(&m->syms, name) != NULL)
		return 0;	/* a second static function of that name: the first wins */
	if (dt_vec_push(&ks->addrs, addr) < 0 ||
	    dt_htab_put(&m->syms, name, (void *)(uintptr_t)ks->addrs.n) < 0)
		return -ENOMEM;
	if (addr != 0)
		ks->have_addrs = true;
	return 0;
}

/* Blacklist lines: "0x<start>-0x<end>\t<name>". */
static int load_blacklist(struct dt_ksyms *ks)
{
	ks->blacklist_text = dt_read_file(KPROBE_BLACKLIST, NULL);
	if (ks->blacklist_text == NULL)
		return 0;	/* no debugfs, or no kprobes: nothing is known */
	for (char *l = ks->blacklist_text, *nl; l != NULL && *l != '\0'; l = nl) {
		nl = strchr(l, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		char *name = strchr(l, '\t');
		if (name == NULL)
			continue;
		name++;
		char *sp = strpbrk(name, " \t");
		if (sp != NULL)
			*sp = '\0';
		if (dt_htab_put(&ks->blacklist, name, name) < 0)
			return -ENOMEM;
	}
	return 0;
}

int dt_ksyms_load(struct dt_ksyms *ks)
{
	int rc = 0;

	memset(ks, 0, sizeof(*ks));
	ks->text = dt_read_file(KALLSYMS, NULL);
	if (ks->text == NULL)
		return -errno;
	for (char *l = ks->text, *nl; rc == 0 && l != NULL && *l != '\0'; l = nl) {
		nl = strchr(l, '\n');
		if (nl != NULL)
			*nl++ = '\0';
		rc = add_line(ks, l);
	}
	if (rc == 0)
		rc = load_blacklist(ks);
	if (rc < 0)
		dt_ksyms_fini(ks);
	return rc;
}

void dt_ksyms_fini(struct dt_ksyms *ks)
{
	for (size_t i = 0; i < ks->mods.n; i++) {
		dt_htab_free(&ks->mods.v[i]->syms);
		free(ks->mods.v[i]);
	}
	dt_vec_free(&ks->mods);
	dt_vec_free(&ks->addrs);
	dt_htab_free(&ks->blacklist);
	free(ks->text);
	free(ks->blacklist_text);
	memset(ks, 0, sizeof(*ks));
}

bool dt_ksyms_lookup(const struct dt_ksyms *ks, const char *mod, const char *name,
		     uint64_t *addrp)
{
	const struct dt_ksyms_mod *m = mod_find(ks, mod);
	uintptr_t i = m ? (uintptr_t)dt_htab_get(&m->syms, name) : 0;

	if (i == 0)
		return false;
	if (addrp != NULL)
		*addrp = ks->addrs.v[i - 1];
	return true;
}

bool dt_ksyms_blacklisted(const struct dt_ksyms *ks, const char *name)
{
	return dt_htab_get(&ks->blacklist, name) != NULL;
}
