/*
 * The usdt provider: the stapsdt notes (<sys/sdt.h>, and the headers
 * `dtrace -h` writes) of the objects a process has mapped, as
 * <provider><PID>:<module>:<function>:<name>.  The module is the object's
 * basename, the function the one containing the probe, the name the
 * note's with "__" written "-" as DTrace does.  A probe placed several
 * times in a function is one probe with several sites, each reading its
 * arguments as its note says.  A semaphore (is-enabled probes) is counted
 * by the kernel while the probe is enabled.  Arguments are typed as
 * usdt_types.h says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/ast.h"
#include "providers/elf_syms.h"
#include "providers/providers.h"
#include "providers/uprobe.h"
#include "providers/uproc.h"

static bool prov_match(const char *pat)
{
	size_t plen;
	long pid = dt_uprobe_pid(pat, &plen);

	/* The pid provider's own name is not a usdt provider. */
	return pid != 0 && plen > 0 && !(plen == 3 && strncmp(pat, "pid", 3) == 0);
}

static bool field(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

/* DTrace's probe name of a note's: "__" becomes "-". */
static void probe_name(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	while (*s != '\0' && n + 1 < len) {
		if (s[0] == '_' && s[1] == '_') {
			buf[n++] = '-';
			s += 2;
		} else {
			buf[n++] = *s++;
		}
	}
	buf[n] = '\0';
}

static int add_site(struct dt_registry *reg, struct dt_uproc *up, struct dt_uobj *o,
		    const struct dt_sdt_note *n, const char *prov, const char *func,
		    const char *name)
{
	struct dt_elf *e = o->elf;
	uint64_t pc = n->pc, sema = n->sema, off, ref = 0;

	/* Notes record addresses before any prelinking moved the object. */
	if (e->has_sdt_base && n->base != 0) {
		pc += e->sdt_base - n->base;
		if (sema != 0)
			sema += e->sdt_base - n->base;
	}
	if (!dt_elf_file_offset(e, pc, &off) || (sema != 0 && !dt_elf_file_offset(e, sema, &ref)))
		return 0;
	struct dt_probe *prp = dt_probe_lookup(reg, prov, o->name, func, name);
	struct dt_uprobe *u;
	if (prp == NULL) {
		u = dt_arena_zalloc(&reg->core->arena, sizeof(*u));
		if (u == NULL)
			return dt_set_error(reg->core, -ENOMEM, "out of memory");
		u->pid = up->pid;
		u->kind = DT_UPROBE_USDT;
		u->obj = o;
		u->types = dt_elf_usdt_types(e, n->provider, n->name);
		prp = dt_probe_add_named(reg, &dt_prov_usdt, prov, o->name, func, name, 0, u);
		if (prp == NULL)
			return dt_set_error(reg->core, -ENOMEM, "out of memory");
	}
	u = (struct dt_uprobe *)prp->priv;
	struct dt_usite **tail = &u->sites;
	for (; *tail != NULL; tail = &(*tail)->next)
		if ((*tail)->off == off)
			return 0;	/* seen for an earlier description */
	struct dt_usite *s = dt_arena_zalloc(&reg->core->arena, sizeof(*s));
	if (s == NULL)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	s->off = off;
	s->ref_ctr = ref;
	s->args = n->args;
	*tail = s;
	return 0;
}

static int per_obj(struct dt_registry *reg, struct dt_uproc *up, struct dt_uobj *o,
		   const struct dt_pdesc *pd)
{
	struct dt_elf *e = dt_uobj_elf(o);
	char prov[128], name[128];

	if (e == NULL)
		return 0;
	for (size_t i = 0; i < e->nnotes; i++) {
		const struct dt_sdt_note *n = &e->notes[i];
		snprintf(prov, sizeof(prov), "%s%d", n->provider, (int)up->pid);
		probe_name(n->name, name, sizeof(name));
		if (!field(prov, pd->prov) || !field(name, pd->name))
			continue;
		uint64_t pc = n->pc;
		if (e->has_sdt_base && n->base != 0)
			pc += e->sdt_base - n->base;
		const struct dt_elf_sym *f = dt_elf_func_at(e, pc);
		const char *func = f ? f->name : "";
		if (!field(func, pd->func))
			continue;
		int rc = add_site(reg, up, o, n, prov, func, name);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	size_t plen;
	long pid = dt_uprobe_pid(pd->prov, &plen);
	struct dt_uproc *up;

	if (pid < 0)
		return dt_probe_error(reg, EINVAL, "D_PROC_BADPID", "'%s' does not contain a valid pid",
				      pd->prov);
	int rc = dt_uproc_get(reg, (pid_t)pid, &up);
	if (rc < 0 && rc != -ENOMEM)
		return dt_probe_error(reg, -rc, "D_PROC_GRAB", "failed to grab process %ld", pid);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < up->objs.n; i++) {
		struct dt_uobj *o = &up->objs.v[i];
		if (dt_uobj_match(o, pd->mod) && (rc = per_obj(reg, up, o, pd)) < 0)
			return rc;
	}
	return 0;
}

static bool match(struct dt_registry *reg, const struct dt_probe *prp, const struct dt_pdesc *pd)
{
	const struct dt_uprobe *up = prp->priv;

	(void)reg;
	return field(prp->desc[0], pd->prov) && dt_uobj_match(up->obj, pd->mod) &&
	       field(prp->desc[2], pd->func) && field(prp->desc[3], pd->name);
}

static const char *mech_class(const struct dt_probe *prp)
{
	return dt_uprobe_class(prp->priv);
}

/*
 * args[i] as the provider definition declares it (a string: a user
 * string, copied in), else by the size and sign of the stapsdt note's
 * operand; where the sites of a probe disagree, the widest, signed if
 * any is.  The number of arguments, or -1 if they are not typed.
 */
static int note_type(const struct dt_uprobe *u, int i, const char **native, const char **xlate)
{
	struct dt_sdt_arg args[DT_SDT_MAXARGS];
	int n = -1, size = 0;
	bool sign = false;

	*xlate = NULL;
	if (u->types != NULL) {
		if (i < 0 || i >= u->types->nargs)
			return u->types->nargs;
		*native = u->types->native[i];
		*xlate = u->types->xlate[i];
		/* A string argument is the address of one in the process. */
		if (strcmp(*native, "string") == 0 || (*xlate != NULL && strcmp(*xlate, "string") == 0)) {
			*native = "userland char *";
			*xlate = "string";
		}
		return u->types->nargs;
	}
	for (const struct dt_usite *s = u->sites; s != NULL; s = s->next) {
		int k = dt_sdt_args_parse(s->args != NULL ? s->args : "", args, DT_SDT_MAXARGS);
		if (n < 0 || k < n)
			n = k;
		if (i < 0 || i >= k)
			continue;
		int sz = args[i].kind == DT_SDT_ARG_NONE ? -8 : args[i].size;
		if (abs(sz) > size)
			size = abs(sz);
		sign |= sz < 0;
	}
	*native = dt_usdt_size_type(sign ? -size : size);
	if (*native == NULL)
		*native = "int64_t";
	return n;
}

static bool arg_desc(struct dt_registry *reg, const struct dt_probe *prp, int i, const char **native,
		     const char **xlate)
{
	(void)reg;
	return i < note_type(prp->priv, i, native, xlate);
}

static int arg_count(struct dt_registry *reg, const struct dt_probe *prp)
{
	const char *native, *xlate;

	(void)reg;
	return note_type(prp->priv, -1, &native, &xlate);
}

const struct dt_provider dt_prov_usdt = {
	.name = "usdt",
	.pattr = &dt_pattr_uprobe,
	.provide = provide,
	.mech_class = mech_class,
	.choose = dt_uprobe_choose,
	.unavailable = dt_uprobe_unavailable,
	.prov_match = prov_match,
	.match = match,
	.arg_desc = arg_desc,
	.arg_count = arg_count,
};
