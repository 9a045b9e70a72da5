/*
 * Register liveness: which registers some path still reads after each
 * instruction.  A path that leaves the function (exit) reads r0 only;
 * each function has its own r6-r9 (the verifier gives a callee a frame
 * of its own), so nothing else survives an exit.
 */
#include <stdlib.h>

#include "compiler/cg_opt.h"

#define ALL ((uint16_t)0x7ff)

static uint16_t live_in(const struct cg_opt *o, const uint16_t *in, size_t i)
{
	i = cg_opt_next(o, i);
	return i < o->n ? in[i] : 0;
}

void cg_opt_liveness(struct cg_opt *o)
{
	uint16_t *in = calloc(o->n + 1, sizeof(*in));
	bool changed = true;

	if (in == NULL) {
		/* No room to compute: everything is live, so nothing is removed. */
		for (size_t i = 0; i < o->n; i++)
			o->live[i] = ALL;
		return;
	}
	while (changed) {
		changed = false;
		for (size_t k = o->n; k-- > 0;) {
			if (o->del[k] || o->hi[k])
				continue;
			const struct bpf_insn *ins = &o->insn[k];
			size_t after = cg_opt_is_ldimm64(ins) ? k + 2 : k + 1;
			uint16_t out = 0;
			if (cg_opt_is_exit(ins)) {
				out = 0;
			} else if (cg_opt_is_jump(ins)) {
				int t = o->target[k];
				out = t < 0 ? ALL : live_in(o, in, (size_t)t);
				if (BPF_OP(ins->code) != BPF_JA)
					out |= live_in(o, in, after);
			} else {
				out = live_in(o, in, after);
			}
			uint16_t li = cg_opt_uses(ins) | (out & (uint16_t)~cg_opt_defs(ins));
			if (out != o->live[k] || li != in[k]) {
				o->live[k] = out;
				in[k] = li;
				changed = true;
			}
		}
	}
	free(in);
}
