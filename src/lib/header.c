/*
 * dtrace -h: the C header for the providers a script defines, in DTrace's
 * shape (PROVIDER_PROBE(args) and PROVIDER_PROBE_ENABLED() macros).  The
 * macros need nothing else: each probe site is a nop with a stapsdt note
 * (the format of <sys/sdt.h>, which the usdt provider reads) saying where
 * its arguments are, and each probe has a semaphore the kernel counts
 * while the probe is enabled, which PROVIDER_PROBE_ENABLED() reads; and
 * each probe's argument types are a note of their own (usdt_note.h).  So
 * there is nothing for dtrace -G to add.
 */
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "compiler/ast.h"
#include "compiler/program.h"
#include "lib/dt_impl.h"
#include "lib/usdt_note.h"

/* The note and the base section, written once per header. */
static const char sdt_macros[] =
	"#ifndef __DTRACE_SDT_PROBE\n"
	"/*\n"
	" * A probe site: a nop, and a stapsdt note (type 3) giving its address,\n"
	" * the .stapsdt.base address, the semaphore, the provider and probe\n"
	" * names and the arguments as \"8@operand\".\n"
	" */\n"
	"#define\t__DTRACE_SDT_ARG(x) \"nor\" ((long)(x))\n"
	"#define\t__DTRACE_SDT_ASM(prov, name, sema, args) \\\n"
	"\t    \"990:\\tnop\\n\" \\\n"
	"\t    \"\\t.pushsection .note.stapsdt,\\\"?\\\",\\\"note\\\"\\n\" \\\n"
	"\t    \"\\t.balign 4\\n\" \\\n"
	"\t    \"\\t.4byte 992f-991f, 994f-993f, 3\\n\" \\\n"
	"\t    \"991:\\t.asciz \\\"stapsdt\\\"\\n\" \\\n"
	"\t    \"992:\\t.balign 4\\n\" \\\n"
	"\t    \"993:\\t.8byte 990b\\n\" \\\n"
	"\t    \"\\t.8byte _.stapsdt.base\\n\" \\\n"
	"\t    \"\\t.8byte \" #sema \"\\n\" \\\n"
	"\t    \"\\t.asciz \\\"\" #prov \"\\\"\\n\" \\\n"
	"\t    \"\\t.asciz \\\"\" #name \"\\\"\\n\" \\\n"
	"\t    \"\\t.asciz \\\"\" args \"\\\"\\n\" \\\n"
	"\t    \"994:\\t.balign 4\\n\" \\\n"
	"\t    \"\\t.popsection\\n\" \\\n"
	"\t    \"\\t.ifndef _.stapsdt.base\\n\" \\\n"
	"\t    \"\\t.pushsection .stapsdt.base,\\\"aG\\\",\\\"progbits\\\",.stapsdt.base,comdat\\n\" \\\n"
	"\t    \"\\t.weak _.stapsdt.base\\n\" \\\n"
	"\t    \"\\t.hidden _.stapsdt.base\\n\" \\\n"
	"\t    \"_.stapsdt.base:\\t.space 1\\n\" \\\n"
	"\t    \"\\t.size _.stapsdt.base, 1\\n\" \\\n"
	"\t    \"\\t.popsection\\n\" \\\n"
	"\t    \"\\t.endif\\n\"\n"
	"#define\t__DTRACE_SDT_PROBE0(prov, name, sema) \\\n"
	"\t__asm__ __volatile__(__DTRACE_SDT_ASM(prov, name, sema, \"\") ::)\n"
	"#define\t__DTRACE_SDT_PROBE(prov, name, sema, args, ...) \\\n"
	"\t__asm__ __volatile__(__DTRACE_SDT_ASM(prov, name, sema, args) :: __VA_ARGS__)\n"
	"#define\t__DTRACE_SDT_SEMAPHORE(sema) \\\n"
	"\t__extension__ volatile unsigned short sema \\\n"
	"\t__attribute__((__weak__, __visibility__(\"hidden\"), __section__(\".probes\"))) = 0\n"
	"#endif\n\n";

/* A macro name part: upper case; in probe names "__" (DTrace's "-") is "_". */
static void upper(FILE *fp, const char *s, bool probe)
{
	for (; *s; s++) {
		if (probe && s[0] == '_' && s[1] == '_') {
			fputc('_', fp);
			s++;
			continue;
		}
		fputc(isalnum((unsigned char)*s) ? toupper((unsigned char)*s) : '_', fp);
	}
}

/* Number of parameters of a probe declaration ("(void)" has none). */
static int nparams(const struct dt_node *probe)
{
	const struct dt_declarator *d = probe->decl.decl;

	while (d != NULL && d->kind != DK_FUNC)
		d = d->outer;
	if (d == NULL)
		return 0;
	const struct dt_node *p = d->params;
	if (p != NULL && p->next == NULL && p->decl.spec && p->decl.spec->ts == TS_VOID &&
	    p->decl.decl && p->decl.decl->kind == DK_NAME && p->decl.decl->outer == NULL)
		return 0;
	return dt_node_list_len(p);
}

static void probe_macros(FILE *fp, const char *prov, const struct dt_node *probe)
{
	const char *name = probe->decl.decl->name;
	int n = nparams(probe);
	int map[DT_USDT_TYPES_MAX];
	int nout = dt_usdt_decl_argmap(probe, map);

	/* The note lists the probe's arguments: its translated ones, each a native operand. */
	if (nout < 0)
		for (nout = 0; nout < n; nout++)
			map[nout] = nout;
	fprintf(fp, "#define\t");
	upper(fp, prov, false);
	fputc('_', fp);
	upper(fp, name, true);
	fputc('(', fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%sarg%d", i ? ", " : "", i);
	fprintf(fp, ") \\\n\t__DTRACE_SDT_PROBE%s(%s, %s, __dtrace_%s___%s_semaphore", n ? "" : "0",
		prov, name, prov, name);
	if (n > 0)
		fprintf(fp, ", \"");
	for (int i = 0; n > 0 && i < nout; i++)
		fprintf(fp, "%s8@%%%d", i ? " " : "", map[i]);
	if (n > 0)
		fputc('"', fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, ", \\\n\t    __DTRACE_SDT_ARG(arg%d)", i);
	fprintf(fp, ")\n#define\t");
	upper(fp, prov, false);
	fputc('_', fp);
	upper(fp, name, true);
	fprintf(fp, "_ENABLED() \\\n\t__builtin_expect(__dtrace_%s___%s_semaphore != 0, 0)\n", prov,
		name);
	fprintf(fp, "__DTRACE_SDT_SEMAPHORE(__dtrace_%s___%s_semaphore);\n", prov, name);
}

static void probe_stubs(FILE *fp, const char *prov, const struct dt_node *probe)
{
	const char *name = probe->decl.decl->name;
	int n = nparams(probe);

	fprintf(fp, "#define\t");
	upper(fp, prov, false);
	fputc('_', fp);
	upper(fp, name, true);
	fputc('(', fp);
	for (int i = 0; i < n; i++)
		fprintf(fp, "%sarg%d", i ? ", " : "", i);
	fprintf(fp, ")\n#define\t");
	upper(fp, prov, false);
	fputc('_', fp);
	upper(fp, name, true);
	fprintf(fp, "_ENABLED() (0)\n");
}

int dtrace_program_header(dtrace_hdl_t *dtp, FILE *fp, const char *fname)
{
	char guard[256];
	const char *base = strrchr(fname, '/');
	size_t k = 0;

	base = base ? base + 1 : fname;
	guard[k++] = '_';
	for (; *base && k < sizeof(guard) - 1; base++)
		guard[k++] = isalnum((unsigned char)*base) ? (char)toupper((unsigned char)*base) : '_';
	guard[k] = '\0';
	fprintf(fp, "/*\n * Generated by dtrace(1M).\n */\n\n#ifndef\t%s\n#define\t%s\n\n", guard, guard);
	fprintf(fp, "#include <unistd.h>\n\n#ifdef\t__cplusplus\nextern \"C\" {\n#endif\n\n");
	fprintf(fp, "#ifndef _DTRACE_VERSION\n#define\t_DTRACE_VERSION 1\n#endif\n\n");
	fprintf(fp, "#if _DTRACE_VERSION\n\n%s", sdt_macros);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < dtp->cc->progs.n; i++) {
			const dtrace_prog_t *pgp = dtp->cc->progs.v[i];
			for (size_t j = 0; j < pgp->nproviders; j++) {
				const struct dt_node *pv = pgp->providers[j];
				fprintf(fp, "/* provider %s */\n\n", pv->provider.name);
				for (const struct dt_node *pr = pv->provider.probes; pr; pr = pr->next) {
					if (pass == 0) {
						probe_macros(fp, pv->provider.name, pr);
						dt_usdt_note_asm(fp, dtp, pv->provider.name, pr);
					} else
						probe_stubs(fp, pv->provider.name, pr);
				}
				fputc('\n', fp);
			}
		}
		if (pass == 0)
			fprintf(fp, "#else\n\n");
	}
	fprintf(fp, "#endif\n\n#ifdef\t__cplusplus\n}\n#endif\n\n#endif\t/* %s */\n", guard);
	if (ferror(fp))
		return dt_set_error(dtp->core, -EIO, "failed to write header file %s", fname);
	return 0;
}
