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

#include "compiler/kdebug.h"
#include "compiler/ksym.h"
#include "compiler/parser.h"
#include "compiler/sema.h"
#include "compiler/types.h"
#include "lib/dt_impl.h"

/* What /proc/kallsyms says about a name, _text and __per_cpu_offset (vmlinux only). */
struct kallsyms_find {
	const char *name;
	uint64_t addr, text, pcpu;
	bool found;
};

static void kallsyms_scan(struct kallsyms_find *f)
{
	FILE *fp = fopen("/proc/kallsyms", "re");
	char line[512];

	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		char type, sym[256], mod[64];
		unsigned long long addr;
		int n = sscanf(line, "%llx %c %255s %63s", &addr, &type, sym, mod);
		/* Modules' symbols have a 4th column; zero addresses are hidden ones. */
		if (n != 3 || addr == 0)
			continue;
		if (strcmp(sym, "_text") == 0)
			f->text = addr;
		else if (strchr("dDbBrRaA", type) == NULL)	/* A: per-CPU offsets */
			continue;
		if (strcmp(sym, f->name) == 0) {
			f->addr = addr;
			f->found = true;
		} else if (strcmp(sym, "__per_cpu_offset") == 0) {
			f->pcpu = addr;
		}
	}
	fclose(fp);
}

static struct dt_kdebug *kdebug(struct dtrace_hdl *dtp)
{
	if (!dtp->kdebug_tried) {
		dtp->kdebug_tried = true;
		dtp->kdebug = dt_kdebug_open();
	}
	return dtp->kdebug;
}

/* The kernel BTF's variable `name`: its type, and whether it is per-CPU. */
static struct dt_type *kernel_btf_var(struct dtrace_hdl *dtp, const char *name, bool *percpu)
{
	struct btf *btf = dt_kernel_btf(&dtp->types);
	int id = btf != NULL ? btf__find_by_name_kind(btf, name, BTF_KIND_VAR) : -1;

	if (id <= 0)
		return NULL;
	*percpu = false;
	for (uint32_t i = 1; i < btf__type_cnt(btf); i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		if (!btf_is_datasec(t))
			continue;
		const struct btf_var_secinfo *vs = btf_var_secinfos(t);
		for (uint16_t j = 0; j < btf_vlen(t); j++)
			if (vs[j].type == (uint32_t)id)
				*percpu = strcmp(btf__name_by_offset(btf, t->name_off),
						 ".data..percpu") == 0;
	}
	return dt_type_from_btf(&dtp->types, btf, btf__type_by_id(btf, id)->type);
}

/* A data symbol's run-time address from the debuginfo, moved as _text was. */
static bool kdebug_addr(struct dt_kdebug *kd, const struct kallsyms_find *f, const char *name,
			uint64_t *addr, bool *percpu)
{
	uint64_t text;

	if (kd == NULL || !dt_kdebug_symbol(kd, name, addr, percpu))
		return false;
	if (*percpu)
		return true;	/* an offset into each CPU's area: not relocated */
	if (f->text == 0 || !dt_kdebug_symaddr(kd, "_text", &text))
		return false;
	*addr += f->text - text;
	return true;
}

struct ksym {
	struct dt_type *type;
	uint64_t addr;		/* the variable, or its offset in each CPU's area */
	bool percpu;
	uint64_t pcpu_offsets;	/* &__per_cpu_offset[0] */
};

static void resolve(struct dt_pcb *pcb, int line, const char *scoped, struct ksym *ks)
{
	struct dtrace_hdl *dtp = pcb->hdl;
	const char *bt = strrchr(scoped, '`');
	const char *name = bt + 1;
	size_t modlen = (size_t)(bt - scoped);

	if (modlen != 0 && strncmp(scoped, "vmlinux", modlen) != 0)
		dt_cerror(pcb, "D_IDENT_UNDEF", line,
			  "failed to resolve %s: only the kernel's own (vmlinux) data symbols can be "
			  "read, not a module's", scoped);

	struct kallsyms_find f = { .name = name };
	kallsyms_scan(&f);
	bool btf_percpu = false, dbg_percpu = false;
	struct dt_type *type = kernel_btf_var(dtp, name, &btf_percpu);
	uint64_t addr = f.addr;
	bool have = f.found;
	if (!have && (have = kdebug_addr(kdebug(dtp), &f, name, &addr, &dbg_percpu)) == false)
		dt_cerror(pcb, "D_IDENT_UNDEF", line,
			  "failed to resolve %s: the kernel lists no such data symbol in /proc/kallsyms "
			  "(data symbols need CONFIG_KALLSYMS_ALL or the kernel's debuginfo)", scoped);
	if (type == NULL && kdebug(dtp) != NULL) {
		type = dt_kdebug_vartype(dtp->kdebug, &dtp->types, name);
		uint64_t a;
		if (!dt_kdebug_symbol(dtp->kdebug, name, &a, &dbg_percpu))
			dbg_percpu = false;
	}
	if (type == NULL)
		dt_cerror(pcb, "D_SYM_NOTYPES", line,
			  "no symbolic type information is available for vmlinux`%s: %s", name,
			  dtp->kdebug != NULL ?
			  "the kernel's debuginfo has no usable type for it" :
			  "the kernel's BTF types only per-CPU variables, and no debuginfo for this "
			  "kernel is installed (the linux-image-<release>-dbg package or equivalent)");
	ks->type = type;
	ks->addr = addr;
	ks->percpu = btf_percpu || dbg_percpu;
	if (ks->percpu) {
		ks->pcpu_offsets = f.pcpu;
		bool p;
		if (ks->pcpu_offsets == 0 &&
		    !kdebug_addr(kdebug(dtp), &f, "__per_cpu_offset", &ks->pcpu_offsets, &p))
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
	struct dt_typetab *tt = &pcb->hdl->types;
	struct ksym ks;
	int line = n->line;

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
}
