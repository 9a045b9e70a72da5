/*
 * libFuzzer target: the compiler front end and code generator.  The input
 * is D source, compiled as `dtrace -e -s` would (errors are D's compile
 * errors, never a crash), then exec'ed and disassembled; no BPF is loaded.
 * An input starting with a 0x01 byte is a probe specifier (-n) instead.
 * A fresh handle per input, so that every crash reproduces alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtrace.h"

#define MAX_INPUT (64 * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *devnull;
	char *const argv[] = { "fuzz.d", "1", "hello", NULL };
	unsigned flags = DTRACE_C_ZDEFS;
	int err;

	if (size > MAX_INPUT)
		return -1;
	if (devnull == NULL && (devnull = fopen("/dev/null", "w")) == NULL)
		abort();
	if (size > 0 && data[0] == 0x01) {
		flags |= DTRACE_C_PSPEC;
		data++, size--;
	}
	char *src = malloc(size + 1);
	if (src == NULL)
		return 0;
	memcpy(src, data, size);
	src[size] = '\0';

	dtrace_hdl_t *dtp = dtrace_open(0, &err);
	if (dtp == NULL)
		abort();
	dtrace_setopt(dtp, "errtags", NULL);
	dtrace_prog_t *pgp = dtrace_compile(dtp, src, (flags & DTRACE_C_PSPEC) ? NULL : "fuzz.d",
					    DTRACE_PSPEC_NAME, flags, 3, argv);
	if (pgp != NULL && dtrace_prog_exec(dtp, pgp) == 0)
		dtrace_disassemble(dtp, devnull);
	else if (pgp == NULL && dtrace_errmsg(dtp)[0] == '\0')
		abort();	/* a failure must say why */
	dtrace_close(dtp);
	free(src);
	return 0;
}
