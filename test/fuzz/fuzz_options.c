/*
 * libFuzzer target: the option parser.  Each input line is a -x argument
 * (name[=value]) given to dtrace_setopt() as the command line splits it;
 * a line starting with '#' is a `#pragma D option` of a compiled program
 * instead.  Options are read back with dtrace_getopt(), then a small
 * program is compiled with them (strsize and friends shape its types).
 * No BPF is loaded.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"

#define MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const readback[] = {
	"bufsize", "aggsize", "dynvarsize", "strsize", "switchrate", "nspec", "specsize",
	"quiet", "flowindent",
};

static const char program[] =
	"BEGIN { self->s = execname; printf(\"%s %d\\n\", self->s, 1); @a[self->s] = count(); }\n"
	"BEGIN { s = speculation(); speculate(s); trace(probefunc); }\n"
	"END { printa(@a); exit(0); }\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int err;

	if (size > MAX_INPUT)
		return -1;
	char *text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	if (dtp == NULL)
		abort();
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			/* As a pragma of a program that sets it. */
			size_t n = strlen(line) + 64;
			char *src = malloc(n);
			if (src == NULL)
				break;
			snprintf(src, n, "#pragma D option %s\nBEGIN { }\n", line + 1);
			dtrace_compile(dtp, src, NULL, DTRACE_PSPEC_NAME, 0, 0, NULL);
			free(src);
			continue;
		}
		char *eq = strchr(line, '=');
		if (eq != NULL)
			*eq++ = '\0';
		if (dtrace_setopt(dtp, line, eq) < 0 && dtrace_errmsg(dtp)[0] == '\0')
			abort();	/* a failure must say why */
	}
	for (size_t i = 0; i < sizeof(readback) / sizeof(readback[0]); i++) {
		int64_t v;
		dtrace_getopt(dtp, readback[i], &v);
	}
	dtrace_prog_t *pgp = dtrace_compile(dtp, program, NULL, DTRACE_PSPEC_NAME, 0, 0, NULL);
	if (pgp != NULL)
		dtrace_prog_exec(dtp, pgp);
	dtrace_close(dtp);
	free(text);
	return 0;
}
