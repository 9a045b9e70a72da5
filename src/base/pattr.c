/* Providers' stability attributes and what they say of probe descriptions. */
#include "base/pattr.h"

#include <errno.h>
#include <string.h>

#include "base/core.h"
#include "base/probe.h"
#include "base/provider.h"

/* DTrace's, provider by provider: provider, module, function, name, args. */
const struct dt_pattr dt_pattr_dtrace = {
	DT_ATTR(STABLE, STABLE, COMMON), DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN), DT_ATTR(STABLE, STABLE, COMMON),
	DT_ATTR(STABLE, STABLE, COMMON),
};

const struct dt_pattr dt_pattr_kernel = {
	DT_ATTR(EVOLVING, EVOLVING, COMMON), DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, ISA), DT_ATTR(EVOLVING, EVOLVING, COMMON),
	DT_ATTR(PRIVATE, PRIVATE, ISA),
};

const struct dt_pattr dt_pattr_profile = {
	DT_ATTR(EVOLVING, EVOLVING, COMMON), DT_ATTR(UNSTABLE, UNSTABLE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN), DT_ATTR(EVOLVING, EVOLVING, COMMON),
	DT_ATTR(EVOLVING, EVOLVING, COMMON),
};

const struct dt_pattr dt_pattr_sdt = {
	DT_ATTR(EVOLVING, EVOLVING, ISA), DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN), DT_ATTR(PRIVATE, PRIVATE, ISA),
	DT_ATTR(PRIVATE, PRIVATE, ISA),
};

const struct dt_pattr dt_pattr_sdt_stable = {
	DT_ATTR(EVOLVING, EVOLVING, ISA), DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN), DT_ATTR(EVOLVING, EVOLVING, ISA),
	DT_ATTR(EVOLVING, EVOLVING, ISA),
};

const struct dt_pattr dt_pattr_uprobe = {
	DT_ATTR(EVOLVING, EVOLVING, ISA), DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN), DT_ATTR(EVOLVING, EVOLVING, ISA),
	DT_ATTR(PRIVATE, PRIVATE, UNKNOWN),
};

const struct dt_pattr *dt_pattr_of(struct dt_registry *reg, const char *name,
				   const struct dt_provider *pv)
{
	const struct dt_pattr *pa = name != NULL ? dt_htab_get(&reg->prov_pattr, name) : NULL;

	if (pa == NULL && pv != NULL)
		pa = dt_htab_get(&reg->prov_pattr, pv->name);
	if (pa != NULL)
		return pa;
	/* A provider DTrace creates without attributes of its own gets Unstable ones. */
	return pv != NULL && pv->pattr != NULL ? pv->pattr : &dt_pattr_unstable;
}

int dt_pattr_set(struct dt_registry *reg, const char *name, const struct dt_provider *pv,
		 const char *part, struct dt_attr attr)
{
	static const char *const parts[] = { "provider", "module", "function", "name", "args" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(parts) && strcmp(part, parts[i]) != 0; i++)
		;
	if (i == ARRAY_SIZE(parts))
		return -EINVAL;
	struct dt_pattr *pa = dt_htab_get(&reg->prov_pattr, name);
	if (pa == NULL) {
		const struct dt_pattr *old = dt_pattr_of(reg, name, pv);
		char *key = dt_arena_strdup(&reg->core->arena, name);
		pa = dt_arena_alloc(&reg->core->arena, sizeof(*pa));
		if (key == NULL || pa == NULL)
			return -ENOMEM;
		*pa = *old;
		if (dt_htab_put(&reg->prov_pattr, key, pa) < 0)
			return -ENOMEM;
	}
	struct dt_attr *a[] = { &pa->provider, &pa->mod, &pa->func, &pa->name, &pa->args };
	*a[i] = attr;
	return 0;
}

void dt_pattr_fini(struct dt_registry *reg)
{
	dt_htab_free(&reg->prov_pattr);
}

/* Empty or a pattern (DTrace's strisglob(): *, ?, [ or a backslash). */
static bool is_glob(const char *f)
{
	return f == NULL || f[0] == '\0' || strpbrk(f, "*?[\\") != NULL;
}

bool dt_pdesc_info(struct dt_registry *reg, const char *const fields[4], const struct dt_probe *first,
		   size_t nmatch, struct dt_attr *descattr, const struct dt_pattr **ctx)
{
	bool glob[4];

	for (int i = 0; i < 4; i++)
		glob[i] = is_glob(fields[i]);
	*ctx = &dt_pattr_unstable;
	*descattr = dt_pattr_unstable.provider;
	if (first == NULL || nmatch == 0)
		return false;
	const struct dt_pattr *pa = dt_pattr_of(reg, first->desc[0], first->prov);
	/*
	 * Several probes: they may differ in what a provider keeps less than
	 * Evolving (its arguments), or in a field it keeps Evolving or better
	 * that the description leaves open.
	 */
	if (nmatch > 1 &&
	    ((pa->args.data < DT_STABILITY_EVOLVING && glob[0]) ||
	     (pa->mod.name >= DT_STABILITY_EVOLVING && glob[1]) ||
	     (pa->func.name >= DT_STABILITY_EVOLVING && glob[2]) ||
	     (pa->name.name >= DT_STABILITY_EVOLVING && glob[3])))
		return false;
	*ctx = pa;
	/* The fields it names; an open provider makes all of it Unstable. */
	const struct dt_pattr *da = glob[0] ? &dt_pattr_unstable : pa;
	struct dt_attr a = da->provider;
	if (!glob[1])
		a = dt_attr_min(a, da->mod);
	if (!glob[2])
		a = dt_attr_min(a, da->func);
	if (!glob[3])
		a = dt_attr_min(a, da->name);
	*descattr = a;
	return true;
}
