/* dtrace_disassemble(): -S prints every clause function the programs hold. */
#include <string.h>

#include "bpf/disasm.h"
#include "bpf/object.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"

static void print_func(FILE *fp, const struct bo_func *fn)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	fprintf(fp, "\nDisassembly of %s:\n", fn->name);
	for (size_t i = 0; i < fn->insns.n;) {
		const char *target = NULL;
		for (size_t r = 0; r < fn->relocs.n; r++)
			if (fn->relocs.v[r].insn == i && fn->relocs.v[r].target)
				target = fn->relocs.v[r].target;
		dt_sb_reset(&sb);
		int n = bo_disasm_insn(&sb, &fn->insns.v[i], fn->insns.n - i);
		fprintf(fp, "%04zu: %s%s%s\n", i, sb.s ? sb.s : "", target ? "  ; " : "",
			target ? target : "");
		i += (size_t)n;
	}
	dt_sb_free(&sb);
}

int dtrace_disassemble(dtrace_hdl_t *dtp, FILE *fp)
{
	for (size_t p = 0; p < dtp->progs.n; p++) {
		dtrace_prog_t *pgp = dtp->progs.v[p];
		for (size_t i = 0; i < pgp->stmts.n; i++)
			if (pgp->stmts.v[i]->func != NULL)
				print_func(fp, pgp->stmts.v[i]->func);
	}
	return 0;
}
