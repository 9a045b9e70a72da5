/*
 * Kernel data symbols named with D's scoping operator (`jiffies,
 * vmlinux`max_pfn).  D reads a kernel variable through its address and its
 * type.  The address comes from /proc/kallsyms (data symbols are listed
 * only with CONFIG_KALLSYMS_ALL) or from the kernel's debuginfo moved by
 * the KASLR offset; the type from the kernel's BTF (stock kernels describe
 * only per-CPU variables there) or from the debuginfo's DWARF.  A symbol
 * becomes *(T *)address, so members, arrays, & and sizeof work as for any
 * kernel pointer; a per-CPU variable is this CPU's copy, at its offset
 * past __per_cpu_offset[cpu].
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "base/core.h"
#include "base/kallsyms.h"
#include "base/types.h"
#include "compiler/compiler.h"
#include "compiler/kdebug.h"
#include "compiler/ksym.h"
#include "compiler/parser.h"
#include "compiler/sema.h"
#include "compiler/sema_attr.h"

/* What /proc/kallsyms says about a data symbol and __per_cpu_offset (vmlinux's). */
struct kallsyms_find {
	const char *name;
	uint64_t addr, pcpu;
	bool found;
};

/* Data symbol types (A: per-CPU offsets); zero addresses are hidden ones. */
#define DATA_TYPES "dDbBrRaA"

static int on_data_symbol(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct kallsyms_find *f = arg;

	if (addr == 0 || strcmp(mod, "vmlinux") != 0)
		return 0;
	if (strcmp(name, f->name) == 0) {
		f->addr = addr;
		f->found = true;
	} else if (strcmp(name, "__per_cpu_offset") == 0) {
		f->pcpu = addr;
	}
	return 0;
}

static int on_text_symbol(void *arg, const char *mod, const char *name, uint64_t addr)
{
	if (strcmp(name, "_text") != 0 || strcmp(mod, "vmlinux") != 0)
		return 0;
	*(uint64_t *)arg = addr;
	return -1;	/* found: stop */
}

static struct dt_kdebug *kdebug(struct dt_compiler *cc)
{
	if (!cc->kdebug_tried) {
		cc->kdebug_tried = true;
		cc->kdebug = dt_kdebug_open();
	}
	return cc->kdebug;
}

/* The kernel BTF's variable `name`: its type, and whether it is per-CPU. */
static struct dt_type *kernel_btf_var(struct dt_compiler *cc, const char *name, bool *percpu)
{
	struct btf *btf = dt_kernel_btf(&cc->core->types);
	int id = btf != NULL ? btf__find_by_name_kind(btf, name, BTF_KIND_VAR) : -1;

	if (id <= 0)
		return NULL;
	*percpu = false;
	int sec = btf__find_by_name_kind(btf, ".data..percpu", BTF_KIND_DATASEC);
	const struct btf_type *t = sec > 0 ? btf__type_by_id(btf, (uint32_t)sec) : NULL;
	for (uint16_t j = 0; t != NULL && j < btf_vlen(t); j++)
		if (btf_var_secinfos(t)[j].type == (uint32_t)id)
			*percpu = true;
	return dt_type_from_btf(&cc->core->types, btf, btf__type_by_id(btf, id)->type);
}

/* A debuginfo address at run time: moved as _text was (per-CPU offsets stay). */
static bool relocate(struct dt_kdebug *kd, uint64_t *addr, bool percpu)
{
	uint64_t text = 0, linked;

	if (percpu)
		return true;
	dt_kallsyms_walk(on_text_symbol, &text);
	if (text == 0 || !dt_kdebug_symaddr(kd, "_text", &linked))
		return false;
	*addr += text - linked;
	return true;
}

struct ksym {
	struct dt_type *type;
	uint64_t addr;		/* the variable, or its offset in each CPU's area */
	bool percpu;
	uint64_t pcpu_offsets;	/* &__per_cpu_offset[0] */
};

struct modsym {
	const char *mod, *name;
	bool found;
};

static int on_module_symbol(void *arg, const char *mod, const char *name, uint64_t addr)
{
	struct modsym *m = arg;

	(void)addr;
	if (strcmp(mod, m->mod) != 0 || strcmp(name, m->name) != 0)
		return 0;
	m->found = true;
	return -1;	/* found: stop */
}

/*
 * mod``sym names a user symbol: DTrace refuses a kernel module's symbol
 * named so (D_SYM_BADREF); a symbol the kernel does not list is unknown.
 */
static void user_reference(struct dt_pcb *pcb, int line, const char *scoped, const char *bt)
{
	char mod[128];
	size_t modlen = (size_t)(bt - 1 - scoped);

	if (modlen > 0 && modlen < sizeof(mod)) {
		memcpy(mod, scoped, modlen);
		mod[modlen] = '\0';
		struct modsym m = { .mod = mod, .name = bt + 1 };
		dt_kallsyms_walk(on_module_symbol, &m);
		if (m.found)
			dt_cerror(pcb, "D_SYM_BADREF", line,
				  "kernel module '%s' symbol '%s' may not be referenced as a user symbol",
				  mod, bt + 1);
	}
	dt_cerror(pcb, "D_IDENT_UNDEF", line, "failed to resolve %s: Unknown symbol name", scoped);
}

static void resolve(struct dt_pcb *pcb, int line, const char *scoped, struct ksym *ks)
{
	struct dt_compiler *cc = pcb->cc;
	const char *bt = strrchr(scoped, '`');
	const char *name = bt + 1;
	size_t modlen = (size_t)(bt - scoped);

	if (bt > scoped && bt[-1] == '`')
		user_reference(pcb, line, scoped, bt);

	if (modlen != 0 && strncmp(scoped, "vmlinux", modlen) != 0)
		dt_cerror(pcb, "D_IDENT_UNDEF", line,
			  "failed to resolve %s: only the kernel's own (vmlinux) data symbols can be "
			  "read, not a module's", scoped);

	struct kallsyms_find f = { .name = name };
	dt_kallsyms_walk_types(DATA_TYPES, on_data_symbol, &f);
	bool percpu = false;
	struct dt_type *type = kernel_btf_var(cc, name, &percpu);
	/* The debuginfo, for what kallsyms or BTF do not give. */
	struct dt_kdebug *kd = type == NULL || !f.found ? kdebug(cc) : NULL;
	uint64_t dbg_addr = 0;
	bool dbg_percpu = false;
	bool in_dbg = kd != NULL && dt_kdebug_symbol(kd, name, &dbg_addr, &dbg_percpu);
	if (!f.found && !(in_dbg && relocate(kd, &dbg_addr, dbg_percpu)))
		dt_cerror(pcb, "D_IDENT_UNDEF", line,
			  "failed to resolve %s: the kernel lists no such data symbol in /proc/kallsyms "
			  "(data symbols need CONFIG_KALLSYMS_ALL or the kernel's debuginfo)", scoped);
	if (type == NULL && kd != NULL) {
		type = dt_kdebug_vartype(kd, &cc->core->types, name);
		percpu = dbg_percpu;
	}
	if (type == NULL)
		dt_cerror(pcb, "D_SYM_NOTYPES", line,
			  "no symbolic type information is available for vmlinux`%s: %s", name,
			  kd != NULL ?
			  "the kernel's debuginfo has no usable type for it" :
			  "the kernel's BTF types only per-CPU variables, and no debuginfo for this "
			  "kernel is installed (the linux-image-<release>-dbg package or equivalent)");
	ks->type = type;
	ks->addr = f.found ? f.addr : dbg_addr;
	ks->percpu = percpu;
	if (percpu) {
		ks->pcpu_offsets = f.pcpu;
		kd = kdebug(cc);
		bool p;
		if (ks->pcpu_offsets == 0 &&
		    !(kd != NULL && dt_kdebug_symbol(kd, "__per_cpu_offset", &ks->pcpu_offsets, &p) &&
		      relocate(kd, &ks->pcpu_offsets, false)))
			dt_cerror(pcb, "D_IDENT_UNDEF", line,
				  "failed to resolve %s: a per-CPU variable is found through "
				  "__per_cpu_offset, which the kernel does not list", scoped);
	}
}

static struct dt_node *const_node(struct dt_pcb *pcb, int line, uint64_t v, struct dt_type *t)
{
	struct dt_node *c = dt_node_new(pcb, N_INT, line);

	c->i.value = v;
	c->cval = (int64_t)v;
	c->flags = DN_CONST;
	c->type = t;
	return c;
}

static struct dt_node *op_node(struct dt_pcb *pcb, int line, enum dt_nkind kind, enum dt_tok op,
			       struct dt_node *l, struct dt_node *r, struct dt_type *t)
{
	struct dt_node *o = dt_node_new(pcb, kind, line);

	o->op = op;
	o->l = l;
	o->r = r;
	o->type = t;
	return o;
}

void dt_ksym_cook(struct dt_pcb *pcb, struct dt_node *n)
{
	struct dt_typetab *tt = &pcb->cc->core->types;
	struct ksym ks;
	int line = n->line;

	const char *bt = strrchr(n->ident.name, '`');
	char what[300];

	snprintf(what, sizeof(what), "symbol vmlinux`%s", bt != NULL ? bt + 1 : n->ident.name);
	resolve(pcb, line, n->ident.name, &ks);
	struct dt_type *ptr = dt_type_ptr(tt, ks.type);
	struct dt_node *addr;
	if (!ks.percpu) {
		addr = const_node(pcb, line, ks.addr, ptr);
	} else {
		/* (T *)(offset + *(&__per_cpu_offset[0] + cpu)) */
		struct dt_node *cpu = dt_node_new(pcb, N_IDENT, line);
		cpu->ident.name = "cpu";
		dt_sema_expr(pcb, cpu);
		struct dt_type *ulp = dt_type_ptr(tt, tt->t_ulong);
		struct dt_node *slot = op_node(pcb, line, N_OP2, T_ADD,
					       const_node(pcb, line, ks.pcpu_offsets, ulp), cpu, ulp);
		struct dt_node *base = op_node(pcb, line, N_OP1, T_DEREF, slot, NULL, tt->t_ulong);
		base->flags = DN_LVALUE;
		addr = op_node(pcb, line, N_OP2, T_ADD, const_node(pcb, line, ks.addr, tt->t_ulong),
			       base, ptr);
	}
	/* An lvalue, as in DTrace, but kernel memory is not written. */
	n->kind = N_OP1;
	n->op = T_DEREF;
	n->l = addr;
	n->r = NULL;
	n->type = ks.type;
	n->flags = DN_LVALUE;
	n->id = NULL;
	/* DTrace's attributes of a symbol reference (_dtrace_symattr). */
	dt_attr_fixed(pcb, n, dt_attr_private, what);
}
