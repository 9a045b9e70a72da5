/*
 * The compile context (pcb.h): setting it up, allocating in the compile
 * arena, and compile errors, which abandon the compile.
 */
#include "compiler/pcb.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"
#include "compiler/compiler.h"
#include "compiler/nest.h"

void dt_cerror(struct dt_pcb *pcb, const char *tag, int line, const char *fmt, ...)
{
	struct dt_compiler *cc = pcb->cc;
	char msg[sizeof(cc->core->errmsg)];
	va_list ap;
	int n = 0;

	msg[0] = '\0';
	if (tag != NULL && cc->core->opts.errtags)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "[%s] ", tag);
	/* Scripts report lines; -n and friends name the part of the clause. */
	/* A header cpp included names itself; otherwise a library names its file. */
	const char *ftag = pcb->linetag != NULL ? pcb->linetag : pcb->filetag;
	if (line > 0 && ftag != NULL)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "\"%s\", line %d: ", ftag, line);
	else if (line > 0 && pcb->show_lines)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "line %d: ", line);
	else if (pcb->region != NULL && !pcb->show_lines)
		n += snprintf(msg + n, sizeof(msg) - (size_t)n, "in %s: ", pcb->region);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	char *nl = strrchr(msg, '\n');
	if (nl != NULL && nl[1] == '\0')
		*nl = '\0';
	memcpy(cc->core->errmsg, msg, sizeof(msg));
	snprintf(cc->core->errtag, sizeof(cc->core->errtag), "%s", tag ? tag : "");
	cc->core->err = -EINVAL;
	/* Code generation in progress: its frame is still live here, not after the jump. */
	if (pcb->cg != NULL)
		pcb->cg_cleanup(pcb->cg);
	longjmp(pcb->jb, 1);
}

void dt_cnomem(struct dt_pcb *pcb)
{
	/* As DTrace: EDT_NOMEM's message, and no error tag. */
	dt_cerror(pcb, NULL, 0, "Memory allocation failure");
}

void *dt_palloc(struct dt_pcb *pcb, size_t size)
{
	void *p = dt_arena_zalloc(pcb->arena, size ? size : 1);

	if (p == NULL)
		dt_cnomem(pcb);
	return p;
}

char *dt_pstrndup(struct dt_pcb *pcb, const char *s, size_t n)
{
	char *p = dt_arena_strndup(pcb->arena, s, n);

	if (p == NULL)
		dt_cnomem(pcb);
	return p;
}

char *dt_pstrdup(struct dt_pcb *pcb, const char *s)
{
	return dt_pstrndup(pcb, s, strlen(s));
}

const char *const *dt_pcb_lines(struct dt_pcb *pcb, size_t *nlines)
{
	size_t n = 1;

	for (size_t i = 0; i < pcb->srclen; i++)
		if (pcb->src[i] == '\n')
			n++;
	const char **lines = dt_palloc(pcb, sizeof(char *) * n);
	const char *s = pcb->src;
	for (size_t i = 0; i < n; i++) {
		const char *e = memchr(s, '\n', (size_t)(pcb->src + pcb->srclen - s));
		if (e == NULL)
			e = pcb->src + pcb->srclen;
		lines[i] = dt_pstrndup(pcb, s, (size_t)(e - s));
		s = e + 1;
	}
	*nlines = n;
	return lines;
}

int dt_pcb_init(struct dt_pcb *pcb, struct dt_compiler *cc, const char *src, size_t len,
		const char *name, unsigned flags, enum dtrace_pspec kind, int argc,
		char *const argv[])
{
	memset(pcb, 0, sizeof(*pcb));
	pcb->cc = cc;
	pcb->arena = &cc->core->arena;
	pcb->filename = (flags & DTRACE_C_FILE) ? name : NULL;
	pcb->show_lines = (flags & (DTRACE_C_FILE | DTRACE_C_CPP)) != 0;
	pcb->cflags = flags;
	pcb->pspec_kind = (flags & DTRACE_C_PSPEC) ? (int)kind : DTRACE_PSPEC_NAME;
	pcb->argc = argc;
	pcb->argv = argv;
	pcb->program = cc->program = ++cc->nprograms;
	dt_nest_init(pcb);
	pcb->src = dt_arena_strndup(&cc->core->arena, src, len);
	pcb->srclen = len;
	pcb->argref = calloc((size_t)argc + 1, sizeof(bool));
	if (pcb->src == NULL || pcb->argref == NULL) {
		free(pcb->argref);
		pcb->argref = NULL;
		return dt_set_error(cc->core, -ENOMEM, "out of memory");
	}
	return 0;
}
