/*
 * dtrace_disassemble(): -S (and -x verbose) list every clause as DTrace
 * does: a header naming the probe description and the clause function,
 * then per instruction its index, byte offset and fields, and its text.
 */
#include <string.h>

#include "base/object.h"
#include "bpf/disasm.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"

/* Part `part` (0: the only one or the first) of a clause too large for one function. */
static void print_func(FILE *fp, const struct bo_func *fn, const char *pdesc, uint32_t clid,
		       size_t part)
{
	struct dt_strbuf sb;

	dt_sb_init(&sb);
	if (part == 0)
		fprintf(fp, "\nDisassembly of clause %s, <dt_clause_%u>:\n", pdesc, clid);
	else
		fprintf(fp, "\nDisassembly of clause %s, <dt_clause_%u_p%zu>:\n", pdesc, clid, part);
	fprintf(fp, "%-4s %-5s  %-20s    %s\n", "INS", "OFF", "OPCODE", "INSTRUCTION");
	for (size_t i = 0; i < fn->insns.n;) {
		const char *target = NULL;
		for (size_t r = 0; r < fn->relocs.n; r++)
			if (fn->relocs.v[r].insn == i && fn->relocs.v[r].target)
				target = fn->relocs.v[r].target;
		dt_sb_reset(&sb);
		int n = bo_disasm_insn(&sb, &fn->insns.v[i], fn->insns.n - i);
		for (int k = 0; k < n; k++) {
			const struct bpf_insn *in = &fn->insns.v[i + (size_t)k];
			fprintf(fp, "%04zu %05zu: %02x %01x %01x %04hx %08x    ", i + (size_t)k,
				(i + (size_t)k) * 8, in->code, in->dst_reg, in->src_reg,
				(unsigned short)in->off, (unsigned)in->imm);
			if (k == 0)
				fprintf(fp, "%s%s%s", sb.s ? sb.s : "", target ? "  ! " : "",
					target ? target : "");
			fputc('\n', fp);
		}
		i += (size_t)n;
	}
	dt_sb_free(&sb);
}

int dtrace_disassemble(dtrace_hdl_t *dtp, FILE *fp)
{
	for (size_t p = 0; p < dtp->cc->progs.n; p++) {
		dtrace_prog_t *pgp = dtp->cc->progs.v[p];
		for (size_t i = 0; i < pgp->stmts.n; i++) {
			const struct dt_stmt *st = pgp->stmts.v[i];
			if (st->func == NULL)
				continue;
			/* DTrace compiles a clause once per probe description it lists. */
			for (int k = 0; k < st->npdescs; k++) {
				const struct dt_pdesc *pd = st->clause->clause.pdescs[k];
				char name[1024];
				snprintf(name, sizeof(name), "%s:%s:%s:%s", pd->prov, pd->mod, pd->func,
					 pd->name);
				for (size_t p = 0; p < st->nparts; p++)
					print_func(fp, st->parts[p], name, st->id + (uint32_t)k, p);
			}
		}
	}
	return 0;
}
