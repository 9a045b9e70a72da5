/*
 * The pid provider: pid<PID>:<module>:<function>:entry, :return and
 * :<offset> (hexadecimal, an instruction in the function), for the
 * functions of the ELF symbol tables of every object the process has
 * mapped.  Modules are named by their basename; "a.out" names the main
 * executable and a versionless name ("libc.so") its versioned file
 * ("libc.so.6").  Probes are created when a description names a process,
 * never listed otherwise.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elf.h>

#include "base/core.h"
#include "base/pattr.h"
#include "base/probe.h"
#include "base/provider.h"
#include "compiler/ast.h"
#include "providers/elf_syms.h"
#include "providers/providers.h"
#include "providers/uprobe.h"
#include "providers/uproc.h"
#include "providers/x86_insn.h"

/* Functions larger than this get no offset probes past it. */
#define MAX_DECODE (1u << 20)

struct pid_ctx {
	struct dt_registry *reg;
	struct dt_uproc *up;
	const char *mod, *func, *name;
	char prov[32];
};

static bool prov_match(const char *pat)
{
	size_t plen;
	long pid = dt_uprobe_pid(pat, &plen);
	char prefix[64];

	if (pid == 0 || plen >= sizeof(prefix))
		return false;
	memcpy(prefix, pat, plen);
	prefix[plen] = '\0';
	/* Digits alone are for the pid provider to refuse (not a valid provider). */
	return plen == 0 || dt_gmatch("pid", prefix);
}

static bool is_hex(const char *s)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
			return false;
	return true;
}

static bool executable(const struct dt_elf *e, uint64_t addr)
{
	for (size_t i = 0; i < e->nsegs; i++) {
		const struct dt_elf_seg *s = &e->segs[i];
		if (addr >= s->vaddr && addr < s->vaddr + s->memsz)
			return (s->flags & PF_X) != 0;
	}
	return false;
}

/*
 * Whether uprobes can take the instruction at a file offset: the kernel
 * refuses lock and segment-override prefixes (and int3).
 */
static bool probeable(struct dt_uobj *o, uint64_t foff)
{
	unsigned char b[4];

	if (!dt_uobj_read(o, foff, b, sizeof(b)))
		return false;
	for (size_t i = 0; i < sizeof(b); i++) {
		switch (b[i]) {
		case 0xf0: case 0x26: case 0x2e: case 0x36: case 0x3e: case 0xcc:
			return false;
		case 0x66: case 0x67: case 0xf2: case 0xf3: case 0x64: case 0x65:
			continue;
		default:
			return true;
		}
	}
	return true;
}

static int add_probe(struct pid_ctx *c, struct dt_uobj *o, const struct dt_elf_sym *sym,
		     size_t nalias, enum dt_uprobe_kind kind, uint64_t off, const char *name)
{
	struct dt_registry *reg = c->reg;
	struct dt_elf *e = o->elf;
	uint64_t foff;

	uint64_t entry;

	if (!dt_elf_file_offset(e, sym->addr + off, &foff) ||
	    !dt_elf_file_offset(e, sym->addr, &entry))
		return 0;
	/* Return probes are set at the function's entry. */
	if (!probeable(o, foff) || (kind == DT_UPROBE_RETURN && !probeable(o, entry))) {
		/* A probe named exactly (no glob) that cannot be made is an error, as in DTrace. */
		if (dt_has_glob(c->func) || dt_has_glob(c->name))
			return 0;
		const char *why = "uprobes cannot be placed on this instruction";
		if (kind == DT_UPROBE_OFFSET)
			return dt_probe_error(reg, EINVAL, "D_PROC_CREATEFAIL",
					      "failed to create probes at '%s+0x%llx': %s", sym->name,
					      (unsigned long long)off, why);
		return dt_probe_error(reg, EINVAL, "D_PROC_CREATEFAIL",
				      "failed to create %s probe for '%s': %s",
				      kind == DT_UPROBE_RETURN ? "return" : "entry", sym->name, why);
	}
	if (dt_probe_lookup(reg, c->prov, o->name, sym->name, name) != NULL)
		return 0;
	struct dt_uprobe *up = dt_arena_zalloc(&reg->core->arena, sizeof(*up));
	struct dt_usite *s = dt_arena_zalloc(&reg->core->arena, sizeof(*s));
	if (up == NULL || s == NULL)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	up->pid = c->up->pid;
	up->kind = kind;
	up->obj = o;
	up->sym = sym;
	up->nalias = nalias;
	up->sites = s;
	s->off = foff;
	s->entry = kind != DT_UPROBE_RETURN && off == 0;
	if (dt_probe_add_named(reg, &dt_prov_pid, c->prov, o->name, sym->name, name, 0, up) == NULL)
		return dt_set_error(reg->core, -ENOMEM, "out of memory");
	return 0;
}

/*
 * Instruction starts of a function, from its bytes in the file: calls f
 * with each offset until the function ends or an instruction is not
 * understood.  Returns what f returned if not 0.
 */
static int each_insn(struct dt_uobj *o, const struct dt_elf_sym *sym,
		     int (*f)(uint64_t off, void *arg), void *arg)
{
	uint64_t foff, size = sym->size < MAX_DECODE ? sym->size : MAX_DECODE;
	unsigned char *buf = malloc(size ? size : 1);
	int rc = 0;

	if (buf == NULL)
		return -ENOMEM;
	if (!dt_elf_file_offset(o->elf, sym->addr, &foff) || !dt_uobj_read(o, foff, buf, size)) {
		free(buf);
		return 0;
	}
	for (uint64_t off = 0; off < size && rc == 0;) {
		rc = f(off, arg);
		int len = dt_x86_insn_len(buf + off, size - off);
		if (len <= 0)
			break;
		off += (uint64_t)len;
	}
	free(buf);
	return rc;
}

/*
 * Whether a return probe may go on a function.  A uretprobe takes the
 * word at the stack pointer on entry for the return address and replaces
 * it; a function that never returns (no ret, no jump out of it) need not
 * have been called at all, and the word is then the program's own data:
 * argc for _start, the ELF entry point.  Such functions have no return
 * probe, as in DTrace, whose return probes are a function's ret
 * instructions, so that tracing never changes what the program does.
 */
static bool has_return(struct dt_uobj *o, const struct dt_elf_sym *sym)
{
	const struct dt_elf *e = o->elf;
	uint64_t foff, size = sym->size < MAX_DECODE ? sym->size : MAX_DECODE;
	bool ret = false;

	if (e->entry != 0 && e->entry >= sym->addr && e->entry - sym->addr < sym->size)
		return false;
	unsigned char *buf = malloc(size ? size : 1);
	if (buf != NULL && dt_elf_file_offset(e, sym->addr, &foff) &&
	    dt_uobj_read(o, foff, buf, size))
		ret = dt_x86_func_returns(buf, size);
	free(buf);
	return ret;
}

struct offset_ctx {
	struct pid_ctx *c;
	struct dt_uobj *o;
	const struct dt_elf_sym *sym;
	size_t nalias;
	uint64_t want;		/* explicit offset: found when f returns 1 */
};

static int is_want(uint64_t off, void *arg)
{
	const struct offset_ctx *oc = arg;

	return off == oc->want ? 1 : off > oc->want ? 2 : 0;
}

static int add_glob_offset(uint64_t off, void *arg)
{
	struct offset_ctx *oc = arg;
	char name[32];

	snprintf(name, sizeof(name), "%llx", (unsigned long long)off);
	if (!dt_gmatch(name, oc->c->name))
		return 0;
	return add_probe(oc->c, oc->o, oc->sym, oc->nalias, DT_UPROBE_OFFSET, off, name);
}

/* The probes of one function the description names. */
static int per_func(struct pid_ctx *c, struct dt_uobj *o, const struct dt_elf_sym *sym,
		    size_t nalias)
{
	struct offset_ctx oc = { c, o, sym, nalias, 0 };
	int rc = 0;
	char name[32];

	if (!executable(o->elf, sym->addr))
		return 0;
	if (dt_gmatch("entry", c->name))
		rc = add_probe(c, o, sym, nalias, DT_UPROBE_ENTRY, 0, "entry");
	if (rc == 0 && dt_gmatch("return", c->name) && has_return(o, sym))
		rc = add_probe(c, o, sym, nalias, DT_UPROBE_RETURN, 0, "return");
	if (rc < 0 || strcmp(c->name, "entry") == 0 || strcmp(c->name, "return") == 0)
		return rc;
	/* A glob names every instruction whose offset it matches. */
	if (dt_has_glob(c->name))
		return each_insn(o, sym, add_glob_offset, &oc);
	/* As DTrace: the name is checked once a function matched (strtoull's hex). */
	char *end;
	oc.want = strtoull(c->name, &end, 16);
	if (*end != '\0')
		return dt_probe_error(c->reg, EINVAL, "D_PROC_NAME", "'%s' is an invalid probe name",
				      c->name);
	if (oc.want >= sym->size)
		return dt_probe_error(c->reg, EINVAL, "D_PROC_OFF", "offset 0x%llx outside of function '%s'",
				      (unsigned long long)oc.want, sym->name);
	rc = each_insn(o, sym, is_want, &oc);
	if (rc < 0)
		return rc;
	if (rc != 1)
		return dt_probe_error(c->reg, EINVAL, "D_PROC_ALIGN",
				      "offset 0x%llx is not aligned on an instruction",
				      (unsigned long long)oc.want);
	snprintf(name, sizeof(name), "%llx", (unsigned long long)oc.want);
	return add_probe(c, o, sym, nalias, DT_UPROBE_OFFSET, oc.want, name);
}

/* Symbols sharing the address of funcs[i] (which is the canonical one). */
static size_t aliases(const struct dt_elf *e, size_t i)
{
	size_t n = 1;

	while (i + n < e->nfuncs && e->funcs[i + n].addr == e->funcs[i].addr)
		n++;
	return n;
}

static int per_obj(struct pid_ctx *c, struct dt_uobj *o)
{
	struct dt_elf *e = dt_uobj_elf(o);
	bool mod_glob = c->mod[0] == '\0' || dt_has_glob(c->mod);

	if (e == NULL)
		return 0;
	if (!dt_has_glob(c->func)) {
		const struct dt_elf_sym *s = dt_elf_lookup(e, c->func);
		const struct dt_elf_sym *f = s && s->func && s->size ? dt_elf_func_at(e, s->addr) : NULL;
		if (f == NULL || f->addr != s->addr) {
			if (!mod_glob)
				return dt_probe_error(c->reg, ENOENT, "D_PROC_FUNC",
						      "failed to lookup '%s' in module '%s'", c->func,
						      c->mod);
			return 0;
		}
		size_t i = (size_t)(f - e->funcs);
		return per_func(c, o, f, aliases(e, i));
	}
	for (size_t i = 0; i < e->nfuncs;) {
		size_t n = aliases(e, i);
		bool take = false;
		for (size_t k = 0; k < n && !take; k++) {
			const char *fn = e->funcs[i + k].name;
			/* As DTrace: _init and _fini only when named. */
			if (strcmp(fn, "_init") == 0 || strcmp(fn, "_fini") == 0)
				break;
			take = dt_gmatch(fn, c->func);
		}
		if (take) {
			int rc = per_func(c, o, &e->funcs[i], n);
			if (rc < 0)
				return rc;
		}
		i += n;
	}
	return 0;
}

/* The dynamic linker is mapped: the process is dynamically linked. */
static bool dynamic(const struct dt_uproc *up)
{
	for (size_t i = 0; i < up->objs.n; i++) {
		const char *n = up->objs.v[i].name;
		if (strncmp(n, "ld-", 3) == 0 && strstr(n, ".so") != NULL)
			return true;
	}
	return false;
}

/*
 * pid<N>:a.out:-:<address>: a probe at an absolute address of the
 * executable (DTrace's "-" function); only a.out, only one address.
 */
static int absolute(struct pid_ctx *c)
{
	struct dt_uobj *o = NULL;

	for (size_t i = 0; i < c->up->objs.n; i++)
		if (c->up->objs.v[i].is_exec)
			o = &c->up->objs.v[i];
	if ((c->mod[0] != '\0' && (dt_has_glob(c->mod) || o == NULL || !dt_uobj_match(o, c->mod))))
		return dt_probe_error(c->reg, EINVAL, "D_PROC_LIB",
				      "only the a.out module is valid with the '-' function");
	if (dt_has_glob(c->name))
		return dt_probe_error(c->reg, EINVAL, "D_PROC_NAME",
				      "only individual addresses may be specified with the '-' function");
	struct dt_elf *e = o != NULL ? dt_uobj_elf(o) : NULL;
	if (e == NULL)
		return 0;
	char *end;
	uint64_t addr = strtoull(c->name, &end, 16);
	if (*end != '\0')
		return dt_probe_error(c->reg, EINVAL, "D_PROC_NAME", "'%s' is an invalid probe name",
				      c->name);
	/* The address is the process's: the executable's link-time address is that less its bias. */
	struct dt_elf_sym *sym = dt_arena_zalloc(&c->reg->core->arena, sizeof(*sym));
	if (sym == NULL)
		return dt_set_error(c->reg->core, -ENOMEM, "out of memory");
	sym->name = "-";
	sym->addr = addr - (uint64_t)dt_uobj_bias(o);
	sym->size = 1;
	sym->func = true;
	char name[32];
	snprintf(name, sizeof(name), "%llx", (unsigned long long)addr);
	return add_probe(c, o, sym, 1, DT_UPROBE_OFFSET, 0, name);
}

/*
 * DTrace's order (dt_pid.c): the provider's pid, the process, whether it
 * may be traced, then its modules, functions and names.
 */
static int provide(struct dt_registry *reg, const struct dt_pdesc *pd)
{
	struct pid_ctx c = { .reg = reg };
	const char *prov = pd->prov, *last = NULL;

	if (strcmp(prov, "pid0") == 0)
		return dt_probe_error(reg, EINVAL, "D_PROC_BADPID", "pid0 does not contain a valid pid");
	for (const char *p = prov; *p != '\0'; p++)
		if (!isdigit((unsigned char)*p))
			last = p;
	if (last == NULL || last[1] == '\0')
		return dt_probe_error(reg, EINVAL, "D_PROC_BADPROV", "'%s' is not a valid provider",
				      prov);
	char *end;
	errno = 0;
	long lpid = strtol(last + 1, &end, 10);
	/* DTrace keeps the pid in a pid_t. */
	pid_t pid = (pid_t)lpid;
	if (errno != 0 || *end != '\0' || pid <= 0)
		return dt_probe_error(reg, EINVAL, "D_PROC_BADPID", "'%s' does not contain a valid pid",
				      prov);
	snprintf(c.prov, sizeof(c.prov), "pid%d", (int)pid);
	if (!dt_gmatch(c.prov, prov))
		return 0;
	int rc = pid == getpid() ? -ESRCH : dt_uproc_get(reg, pid, &c.up);
	if (pid == getpid())
		return dt_probe_error(reg, EINVAL, "D_PROC_DYN", "process %s is dtrace itself",
				      prov + 3);
	/* Whatever kept the process from being read (gone, not ours), as DTrace says it. */
	if (rc < 0 && rc != -ENOMEM)
		return dt_probe_error(reg, -rc, "D_PROC_GRAB", "failed to grab process %d",
				      (int)pid);
	if (rc < 0)
		return rc;
	if (!dynamic(c.up))
		return dt_probe_error(reg, EINVAL, "D_PROC_DYN",
				      "process %s is not a dynamically-linked executable", prov + 3);
	c.mod = pd->mod ? pd->mod : "";
	c.func = pd->func && pd->func[0] ? pd->func : "*";
	c.name = pd->name && pd->name[0] ? pd->name : "*";
	if (strcmp(c.func, "-") == 0)
		return absolute(&c);
	for (size_t i = 0; i < c.up->objs.n; i++) {
		struct dt_uobj *o = &c.up->objs.v[i];
		if (!dt_uobj_match(o, c.mod))
			continue;
		rc = per_obj(&c, o);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static bool field(const char *s, const char *pat)
{
	return pat == NULL || pat[0] == '\0' || dt_gmatch(s, pat);
}

static bool match(struct dt_registry *reg, const struct dt_probe *prp, const struct dt_pdesc *pd)
{
	const struct dt_uprobe *up = prp->priv;

	(void)reg;
	if (!field(prp->desc[0], pd->prov) || !dt_uobj_match(up->obj, pd->mod))
		return false;
	if (!field(prp->desc[3], pd->name)) {
		/* Offsets compare as numbers: "0x1a", "01a" and "1a" alike. */
		if (up->kind != DT_UPROBE_OFFSET || dt_has_glob(pd->name))
			return false;
		if (!is_hex(pd->name) || strtoull(pd->name, NULL, 16) != strtoull(prp->desc[3], NULL, 16))
			return false;
	}
	if (field(prp->desc[2], pd->func))
		return true;
	for (size_t i = 1; i < up->nalias; i++)
		if (dt_gmatch(up->sym[i].name, pd->func))
			return true;
	return false;
}

static const char *mech_class(const struct dt_probe *prp)
{
	return dt_uprobe_class(prp->priv);
}

const struct dt_provider dt_prov_pid = {
	.name = "pid",
	.pattr = &dt_pattr_uprobe,
	.provide = provide,
	.mech_class = mech_class,
	.choose = dt_uprobe_choose,
	.unavailable = dt_uprobe_unavailable,
	.prov_match = prov_match,
	.match = match,
};
