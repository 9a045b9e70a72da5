/* The probe registry and description matching. */
#include "providers/probe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ast.h"
#include "lib/dt_impl.h"
#include "providers/provider.h"
#include "providers/uproc.h"

/*
 * Providers in listing order; their probe ids follow this order.  pid and
 * usdt list nothing until a description names a process, so they come
 * after the providers that list everything; fbt, the expensive one to
 * list, is last so that no other provider's ids depend on it (then rawfbt,
 * which lists from kallsyms what fbt lists from BTF, and more).
 */
static const struct dt_provider *const providers[] = {
	&dt_prov_dtrace, &dt_prov_syscall, &dt_prov_profile, &dt_prov_sdt,
	&dt_prov_proc, &dt_prov_sched, &dt_prov_io, &dt_prov_lockstat, &dt_prov_rawtp,
	&dt_prov_cpc, &dt_prov_pid, &dt_prov_usdt, &dt_prov_fbt, &dt_prov_rawfbt,
};

int dt_probes_init(dtrace_hdl_t *dtp)
{
	dtp->providers = providers;
	dtp->nproviders = ARRAY_SIZE(providers);
	return 0;
}

void dt_probes_fini(dtrace_hdl_t *dtp)
{
	dt_uprocs_free(dtp);
	for (size_t i = 0; i < dtp->nproviders; i++)
		if (dtp->providers[i]->fini != NULL)
			dtp->providers[i]->fini(dtp);
	dt_vec_free(&dtp->probes);
	dt_htab_free(&dtp->probe_names);
}

const char *dt_probe_fullname(const struct dt_probe *prp, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%s:%s:%s", prp->desc[0], prp->desc[1], prp->desc[2], prp->desc[3]);
	return buf;
}

struct dt_probe *dt_probe_add(dtrace_hdl_t *dtp, const struct dt_provider *prov,
			      const char *mod, const char *func, const char *name,
			      uint64_t data, const void *priv)
{
	return dt_probe_add_named(dtp, prov, prov->name, mod, func, name, data, priv);
}

struct dt_probe *dt_probe_lookup(dtrace_hdl_t *dtp, const char *prov, const char *mod,
				 const char *func, const char *name)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%s:%s:%s", prov, mod, func, name);
	return dt_htab_get(&dtp->probe_names, buf);
}

int dt_probe_error(dtrace_hdl_t *dtp, int err, const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (err > 0)
		err = -err;
	dtp->err = err;
	snprintf(dtp->errtag, sizeof(dtp->errtag), "%s", tag);
	va_start(ap, fmt);
	vsnprintf(dtp->errmsg, sizeof(dtp->errmsg), fmt, ap);
	va_end(ap);
	return err;
}

struct dt_probe *dt_probe_add_named(dtrace_hdl_t *dtp, const struct dt_provider *prov,
				    const char *provname, const char *mod, const char *func,
				    const char *name, uint64_t data, const void *priv)
{
	char buf[512];

	/* Known already (providers that make probes on demand ask again). */
	snprintf(buf, sizeof(buf), "%s:%s:%s:%s", provname, mod, func, name);
	struct dt_probe *old = dt_htab_get(&dtp->probe_names, buf);
	if (old != NULL)
		return old;
	struct dt_probe *prp = dt_arena_zalloc(&dtp->arena, sizeof(*prp));
	if (prp == NULL)
		return NULL;
	prp->prov = prov;
	prp->desc[0] = provname == prov->name ? prov->name : dt_arena_strdup(&dtp->arena, provname);
	prp->desc[1] = dt_arena_strdup(&dtp->arena, mod);
	prp->desc[2] = dt_arena_strdup(&dtp->arena, func);
	prp->desc[3] = dt_arena_strdup(&dtp->arena, name);
	prp->data = data;
	prp->priv = priv;
	char *key = dt_arena_strdup(&dtp->arena, buf);
	if (key == NULL || dt_vec_push(&dtp->probes, prp) < 0 ||
	    dt_htab_put(&dtp->probe_names, key, prp) < 0)
		return NULL;
	prp->id = (uint32_t)dtp->probes.n;
	return prp;
}

struct dt_probe *dt_probe_by_id(dtrace_hdl_t *dtp, uint32_t id)
{
	if (id == 0 || id > dtp->probes.n)
		return NULL;
	return dtp->probes.v[id - 1];
}

const struct dt_provider *dt_provider_lookup(dtrace_hdl_t *dtp, const char *name)
{
	for (size_t i = 0; i < dtp->nproviders; i++) {
		if (strcmp(dtp->providers[i]->name, name) == 0)
			return dtp->providers[i];
	}
	return NULL;
}

static int populate(dtrace_hdl_t *dtp, size_t i)
{
	if (dtp->populated & (1u << i))
		return 0;
	/*
	 * Providers populate in a fixed order, each after those before it, so
	 * that a probe has the same id whatever was matched first (BEGIN, END
	 * and ERROR are 1, 2 and 3).
	 */
	if (i != 0) {
		int rc = populate(dtp, i - 1);
		if (rc < 0)
			return rc;
	}
	dtp->populated |= 1u << i;
	return dtp->providers[i]->populate ? dtp->providers[i]->populate(dtp) : 0;
}

int dt_probes_populate_all(dtrace_hdl_t *dtp)
{
	for (size_t i = 0; i < dtp->nproviders; i++) {
		int rc = populate(dtp, i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool field_match(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

int dt_probe_match(dtrace_hdl_t *dtp, const struct dt_pdesc *pd, dt_probe_match_f *f, void *arg)
{
	int n = 0;

	if (pd->id != 0) {
		if (dt_probes_populate_all(dtp) < 0)
			return -EIO;
		struct dt_probe *prp = dt_probe_by_id(dtp, (uint32_t)pd->id);
		if (prp == NULL)
			return 0;
		int rc = f ? f(dtp, prp, arg) : 0;
		return rc < 0 ? rc : 1;
	}
	for (size_t i = 0; i < dtp->nproviders; i++) {
		const struct dt_provider *pv = dtp->providers[i];
		if (pv->prov_match ? !pv->prov_match(pd->prov) : !field_match(pv->name, pd->prov))
			continue;
		/* A lazy provider's earlier neighbours are listed, not itself nor other lazy ones. */
		size_t before = i;
		while (pv->lazy && before > 0 && dtp->providers[before - 1]->lazy)
			before--;
		int rc = !pv->lazy ? populate(dtp, i) : before > 0 ? populate(dtp, before - 1) : 0;
		if (rc == 0 && pv->provide != NULL)
			rc = pv->provide(dtp, pd);
		if (rc < 0)
			return rc;
	}
	for (size_t i = 0; i < dtp->probes.n; i++) {
		struct dt_probe *prp = dtp->probes.v[i];
		if (prp->prov->match != NULL) {
			if (!prp->prov->match(dtp, prp, pd))
				continue;
		} else if (!field_match(prp->desc[0], pd->prov) || !field_match(prp->desc[1], pd->mod) ||
			   !field_match(prp->desc[2], pd->func) || !field_match(prp->desc[3], pd->name)) {
			continue;
		}
		n++;
		if (f != NULL) {
			int rc = f(dtp, prp, arg);
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
