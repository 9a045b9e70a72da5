/*
 * The optimisation passes as a filter, for optfuzz.py: struct bpf_insn
 * records on stdin (one function, jumps with their offsets), the
 * function the passes leave on stdout (jumps renumbered).
 */
#include <stdio.h>
#include <stdlib.h>

#include "compiler/cg_opt.h"

#define MAX_INSNS 65536

int main(void)
{
	struct bpf_insn *v = malloc(MAX_INSNS * sizeof(*v));
	int *target = malloc((MAX_INSNS + 1) * sizeof(*target));
	unsigned *newpos = malloc((MAX_INSNS + 1) * sizeof(*newpos));
	struct cg_opt o;

	if (v == NULL || target == NULL || newpos == NULL)
		return 1;
	size_t n = fread(v, sizeof(v[0]), MAX_INSNS, stdin);
	for (size_t i = 0; i < n; i++)
		target[i] = cg_opt_is_jump(&v[i]) ? (int)i + 1 + v[i].off : -1;
	if (cg_opt_init(&o, v, n, target) != 0)
		return 1;
	cg_opt_run(&o);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		newpos[i] = (unsigned)k;
		if (!o.del[i])
			k++;
	}
	newpos[n] = (unsigned)k;
	for (size_t i = 0; i < n; i++) {
		if (o.del[i])
			continue;
		struct bpf_insn x = v[i];
		if (o.target[i] >= 0)
			x.off = (int16_t)((int)newpos[o.target[i]] - (int)newpos[i] - 1);
		fwrite(&x, sizeof(x), 1, stdout);
	}
	cg_opt_free(&o);
	free(v), free(target), free(newpos);
	return 0;
}
