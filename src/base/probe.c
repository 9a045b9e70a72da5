/* The probe registry and description matching. */
#include "base/probe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/provider.h"

int dt_probes_init(struct dt_registry *reg, const struct dt_provider *const *providers, size_t n)
{
	reg->providers = providers;
	reg->nproviders = n;
	return 0;
}

void dt_probes_fini(struct dt_registry *reg)
{
	for (size_t i = 0; i < reg->nproviders; i++)
		if (reg->providers[i]->fini != NULL)
			reg->providers[i]->fini(reg);
	dt_vec_free(&reg->probes);
	dt_htab_free(&reg->probe_names);
}

const char *dt_probe_fullname(const struct dt_probe *prp, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s:%s:%s", prp->desc[0], prp->desc[1], prp->desc[2], prp->desc[3]);
	return buf;
}

struct dt_probe *dt_probe_add(struct dt_registry *reg, const struct dt_provider *prov,
			      const char *mod, const char *func, const char *name,
			      uint64_t data, const void *priv)
{
	return dt_probe_add_named(reg, prov, prov->name, mod, func, name, data, priv);
}

struct dt_probe *dt_probe_lookup(struct dt_registry *reg, const char *prov, const char *mod,
				 const char *func, const char *name)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%s:%s:%s", prov, mod, func, name);
	return dt_htab_get(&reg->probe_names, buf);
}

int dt_probe_error(struct dt_registry *reg, int err, const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (err > 0)
		err = -err;
	reg->core->err = err;
	snprintf(reg->core->errtag, sizeof(reg->core->errtag), "%s", tag);
	va_start(ap, fmt);
	vsnprintf(reg->core->errmsg, sizeof(reg->core->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

struct dt_probe *dt_probe_add_named(struct dt_registry *reg, const struct dt_provider *prov,
				    const char *provname, const char *mod, const char *func,
				    const char *name, uint64_t data, const void *priv)
{
	char buf[512];

	/* Known already (providers that make probes on demand ask again). */
	snprintf(buf, sizeof(buf), "%s:%s:%s:%s", provname, mod, func, name);
	struct dt_probe *old = dt_htab_get(&reg->probe_names, buf);
	if (old != NULL)
		return old;
	struct dt_probe *prp = dt_arena_zalloc(&reg->core->arena, sizeof(*prp));
	if (prp == NULL)
		return NULL;
	prp->prov = prov;
	prp->desc[0] = provname == prov->name ? prov->name : dt_arena_strdup(&reg->core->arena, provname);
	prp->desc[1] = dt_arena_strdup(&reg->core->arena, mod);
	prp->desc[2] = dt_arena_strdup(&reg->core->arena, func);
	prp->desc[3] = dt_arena_strdup(&reg->core->arena, name);
	prp->data = data;
	prp->priv = priv;
	char *key = dt_arena_strdup(&reg->core->arena, buf);
	if (key == NULL || dt_vec_push(&reg->probes, prp) < 0 ||
	    dt_htab_put(&reg->probe_names, key, prp) < 0)
		return NULL;
	prp->id = (uint32_t)reg->probes.n;
	return prp;
}

struct dt_probe *dt_probe_by_id(struct dt_registry *reg, uint32_t id)
{
	if (id == 0 || id > reg->probes.n)
		return NULL;
	return reg->probes.v[id - 1];
}

const struct dt_provider *dt_provider_lookup(struct dt_registry *reg, const char *name)
{
	for (size_t i = 0; i < reg->nproviders; i++) {
		if (strcmp(reg->providers[i]->name, name) == 0)
			return reg->providers[i];
	}
	return NULL;
}

static int populate(struct dt_registry *reg, size_t i)
{
	if (reg->populated & (1u << i))
		return 0;
	/*
	 * Providers populate in a fixed order, each after those before it, so
	 * that a probe has the same id whatever was matched first (BEGIN, END
	 * and ERROR are 1, 2 and 3).
	 */
	if (i != 0) {
		int rc = populate(reg, i - 1);
		if (rc < 0)
			return rc;
	}
	reg->populated |= 1u << i;
	return reg->providers[i]->populate ? reg->providers[i]->populate(reg) : 0;
}

int dt_probes_populate_all(struct dt_registry *reg)
{
	for (size_t i = 0; i < reg->nproviders; i++) {
		int rc = populate(reg, i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool field_match(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

int dt_probe_match(struct dt_registry *reg, const struct dt_pdesc *pd, dt_probe_match_f *f, void *arg)
{
	int n = 0;

	if (pd->id != 0) {
		if (dt_probes_populate_all(reg) < 0)
			return -EIO;
		struct dt_probe *prp = dt_probe_by_id(reg, (uint32_t)pd->id);
		if (prp == NULL)
			return 0;
		int rc = f ? f(reg, prp, arg) : 0;
		return rc < 0 ? rc : 1;
	}
	for (size_t i = 0; i < reg->nproviders; i++) {
		const struct dt_provider *pv = reg->providers[i];
		if (pv->prov_match ? !pv->prov_match(pd->prov) : !field_match(pv->name, pd->prov))
			continue;
		/* A lazy provider's earlier neighbours are listed, not itself nor other lazy ones. */
		size_t before = i;
		while (pv->lazy && before > 0 && reg->providers[before - 1]->lazy)
			before--;
		int rc = !pv->lazy ? populate(reg, i) : before > 0 ? populate(reg, before - 1) : 0;
		if (rc == 0 && pv->provide != NULL)
			rc = pv->provide(reg, pd);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < reg->probes.n; i++) {
		struct dt_probe *prp = reg->probes.v[i];
		if (prp->prov->match != NULL) {
			if (!prp->prov->match(reg, prp, pd))
				continue;
		} else if (!field_match(prp->desc[0], pd->prov) || !field_match(prp->desc[1], pd->mod) ||
			   !field_match(prp->desc[2], pd->func) || !field_match(prp->desc[3], pd->name)) {
			continue;
		}
		n++;
		if (f != NULL) {
			int rc = f(reg, prp, arg);
			if (rc < 0)
				return rc;
		}
	}
	return n;
}

const char *dt_probe_field(const struct dt_probe *prp, int which)
{
	return prp->desc[which];
}

uint32_t dt_probe_field_offset(int which)
{
	static const uint32_t off[4] = { 0, 64, 128, 256 };

	return off[which];
}
