/* The handle's symbolizer (symbolize.h). */
#include "consumer/symbolize.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/descs.h"
#include "base/proc.h"
#include "consumer/consumer.h"
#include "consumer/ksyms.h"
#include "consumer/printf.h"
#include "consumer/usyms.h"

struct dt_symbolizer {
	struct dt_pf_syms cb;
	struct dt_consumer *cs;
	struct dt_ksyms *ks;
	bool ks_tried;
	struct dt_usyms *us;
	char kfile[80];		/* mapping(): the last kernel module's name */
};

static const struct dt_ksyms *ksyms(struct dt_symbolizer *sz)
{
	if (!sz->ks_tried) {
		sz->ks_tried = true;
		if (dt_ksyms_load("/proc/kallsyms", "/proc/modules", &sz->ks) < 0)
			sz->ks = NULL;
	}
	return sz->ks;
}

static void put_sym(struct dt_strbuf *out, const char *mod, const char *func, uint64_t start,
		    uint64_t addr)
{
	if (addr > start)
		dt_sb_printf(out, "%s`%s+0x%llx", mod, func, (unsigned long long)(addr - start));
	else
		dt_sb_printf(out, "%s`%s", mod, func);
}

static int kaddr(void *ctx, uint64_t addr, struct dt_strbuf *out)
{
	const struct dt_ksyms *ks = ksyms(ctx);
	const struct dt_ksym *s = ks != NULL ? dt_ksyms_lookup(ks, addr) : NULL;

	if (s != NULL) {
		put_sym(out, s->mod, s->name, s->addr, addr);
		return 0;
	}
	const struct dt_kmod *m = ks != NULL ? dt_ksyms_module(ks, addr) : NULL;
	if (m == NULL)
		return -1;
	dt_sb_printf(out, "%s`0x%llx", m->name, (unsigned long long)addr);
	return 0;
}

static int kmod(void *ctx, uint64_t addr, struct dt_strbuf *out)
{
	const struct dt_ksyms *ks = ksyms(ctx);
	const struct dt_kmod *m = ks != NULL ? dt_ksyms_module(ks, addr) : NULL;

	if (m == NULL)
		return -1;
	dt_sb_puts(out, m->name);
	return 0;
}

/* pid 0: nothing was recorded; DTrace then takes $target. */
static bool ulookup(struct dt_symbolizer *sz, uint64_t pid, uint64_t addr, struct dt_usym *u)
{
	if (pid == 0)
		pid = (uint64_t)sz->cs->procs->target_pid;
	if (pid == 0 || pid > INT32_MAX || sz->us == NULL)
		return false;
	return dt_usyms_lookup(sz->us, (pid_t)pid, addr, u) == 0 && u->obj != NULL;
}

static int uaddr(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out)
{
	struct dt_symbolizer *sz = ctx;
	struct dt_usym u;

	if (!ulookup(sz, pid, addr, &u))
		return -1;
	/* noresolve: DTrace's "object:0xoffset", from the start of the mapping holding addr. */
	if (sz->cs->core->opts.noresolve) {
		dt_sb_printf(out, "%s:0x%llx", u.obj, (unsigned long long)(addr - u.map_start));
		return 0;
	}
	if (u.func != NULL)
		put_sym(out, u.obj, u.func, u.start, addr);
	else
		dt_sb_printf(out, "%s`0x%llx", u.obj, (unsigned long long)addr);
	return 0;
}

static bool ustart(void *ctx, uint64_t pid, uint64_t addr, uint64_t *start)
{
	struct dt_usym u;

	if (!ulookup(ctx, pid, addr, &u) || u.func == NULL)
		return false;
	*start = u.start;
	return true;
}

static int umod(void *ctx, uint64_t pid, uint64_t addr, struct dt_strbuf *out)
{
	struct dt_usym u;

	if (!ulookup(ctx, pid, addr, &u))
		return -1;
	dt_sb_puts(out, u.obj);
	return 0;
}

static int mapping(void *ctx, bool user, uint64_t pid, uint64_t addr, struct dt_pf_mapping *m)
{
	struct dt_symbolizer *sz = ctx;
	struct dt_usym u;

	if (user) {
		if (!ulookup(sz, pid, addr, &u) || u.path == NULL)
			return -1;
		*m = (struct dt_pf_mapping){ u.path, u.map_start, u.map_end, u.map_off, u.exe };
		return 0;
	}
	const struct dt_ksyms *ks = ksyms(sz);
	const struct dt_kmod *km = ks != NULL ? dt_ksyms_module(ks, addr) : NULL;
	if (km == NULL)
		return -1;
	/* perf's name for the kernel, [module] for a module */
	snprintf(sz->kfile, sizeof(sz->kfile), "[%s]",
		 strcmp(km->name, "vmlinux") == 0 ? "kernel.kallsyms" : km->name);
	*m = (struct dt_pf_mapping){ sz->kfile, km->lo, km->hi, 0 };
	return 0;
}

static struct dt_symbolizer *get(struct dt_consumer *cs)
{
	struct dt_symbolizer *sz = cs->symbolizer;

	if (sz != NULL)
		return sz;
	sz = calloc(1, sizeof(*sz));
	if (sz == NULL)
		return NULL;
	sz->us = dt_usyms_new();
	if (sz->us == NULL) {
		free(sz);
		return NULL;
	}
	sz->cs = cs;
	sz->cb = (struct dt_pf_syms){ .ctx = sz, .kaddr = kaddr, .kmod = kmod, .uaddr = uaddr,
				      .umod = umod, .ustart = ustart, .mapping = mapping };
	cs->symbolizer = sz;
	return sz;
}

const struct dt_pf_syms *dt_syms(struct dt_consumer *cs)
{
	struct dt_symbolizer *sz = get(cs);

	return sz != NULL ? &sz->cb : NULL;
}

void dt_syms_free(struct dt_consumer *cs)
{
	struct dt_symbolizer *sz = cs->symbolizer;

	if (sz == NULL)
		return;
	dt_ksyms_free(sz->ks);
	dt_usyms_free(sz->us);
	free(sz);
	cs->symbolizer = NULL;
}

void dt_syms_track_targets(struct dt_consumer *cs, unsigned min_ms)
{
	struct dt_symbolizer *sz;

	/* Only what needs symbols: a program that records user addresses. */
	if (!cs->descs->uses_usyms || (sz = get(cs)) == NULL)
		return;
	/* A child still stopped at its exec has only its program and dynamic linker mapped. */
	for (size_t i = 0; i < cs->procs->children.n; i++) {
		const struct dt_child *c = &cs->procs->children.v[i];
		if (!c->exited && (!c->stopped || c->at_entry))
			dt_usyms_refresh(sz->us, c->pid, min_ms, true);
	}
	for (size_t i = 0; i < cs->procs->grabbed.n; i++)
		if (cs->procs->grabbed.v[i] > 0)
			dt_usyms_refresh(sz->us, cs->procs->grabbed.v[i], min_ms, true);
}

void dt_syms_note_proc(struct dt_consumer *cs, pid_t pid)
{
	struct dt_symbolizer *sz = get(cs);

	if (sz != NULL && pid > 0)
		dt_usyms_refresh(sz->us, pid, 0, false);
}

void dt_syms_kstack_trim(struct dt_consumer *cs, uint64_t *pcs, size_t n)
{
	struct dt_symbolizer *sz = get(cs);
	const struct dt_ksyms *ks = sz != NULL ? ksyms(sz) : NULL;
	const struct dt_ksym *s = ks != NULL && n > 0 ? dt_ksyms_lookup(ks, pcs[0]) : NULL;

	if (n == 0)
		return;
	if (s != NULL && strncmp(s->name, "__traceiter_", 12) == 0)
		memmove(pcs, pcs + 1, (n - 1) * sizeof(*pcs));
	pcs[n - 1] = 0;
}

bool dt_syms_kstart(struct dt_consumer *cs, uint64_t addr, bool mod, uint64_t *start)
{
	struct dt_symbolizer *sz = get(cs);
	const struct dt_ksyms *ks = sz != NULL ? ksyms(sz) : NULL;

	if (ks == NULL)
		return false;
	if (mod) {
		const struct dt_kmod *m = dt_ksyms_module(ks, addr);
		if (m != NULL)
			*start = m->lo;
		return m != NULL;
	}
	const struct dt_ksym *s = dt_ksyms_lookup(ks, addr);
	if (s != NULL)
		*start = s->addr;
	return s != NULL;
}

bool dt_syms_ustart(struct dt_consumer *cs, pid_t pid, uint64_t addr, bool mod, uint64_t *start)
{
	struct dt_symbolizer *sz = get(cs);
	struct dt_usym u;

	if (sz == NULL || !ulookup(sz, (uint64_t)pid, addr, &u))
		return false;
	if (mod) {
		*start = u.obj_base;
		return true;
	}
	if (u.func != NULL)
		*start = u.start;
	return u.func != NULL;
}
