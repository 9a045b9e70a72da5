/*
 * Kernel data symbols (`jiffies, vmlinux`max_pfn): why one cannot be used.
 * D reads a kernel variable through its address and its type; the address
 * comes from /proc/kallsyms (data symbols are listed only with
 * CONFIG_KALLSYMS_ALL) and the type would come from the kernel's BTF,
 * which on stock kernels describes per-CPU variables only.
 */
#include <bpf/btf.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ksym.h"
#include "compiler/types.h"
#include "lib/dt_impl.h"

/* Whether /proc/kallsyms lists `name` as a data symbol (d, b, r: any case). */
static bool kallsyms_has_data(const char *name)
{
	FILE *fp = fopen("/proc/kallsyms", "re");
	char line[512];
	bool found = false;

	if (fp == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		char type, sym[256];
		unsigned long long addr;
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (strchr("dDbBrR", type) != NULL && strcmp(sym, name) == 0)
			found = true;
	}
	fclose(fp);
	return found;
}

const char *dt_ksym_problem(struct dtrace_hdl *dtp, const char *scoped)
{
	const char *name = strrchr(scoped, '`');

	name = name != NULL ? name + 1 : scoped;
	if (!kallsyms_has_data(name))
		return "the kernel lists no such data symbol in /proc/kallsyms (data symbols need "
		       "CONFIG_KALLSYMS_ALL)";
	struct btf *btf = dt_kernel_btf(&dtp->types);
	if (btf == NULL || btf__find_by_name_kind(btf, name, BTF_KIND_VAR) < 0)
		return "the kernel's BTF has no type for it (BTF describes per-CPU variables only)";
	return "per-CPU kernel variables are not supported";
}
