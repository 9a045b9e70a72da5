/*
 * Dead code: an instruction whose only effect is a register result that
 * no path reads (a move, arithmetic, a load, a call of a helper that only
 * returns a value) goes.  Stores, calls with effects, jumps and exits stay.
 */
#include "compiler/cg_opt.h"

bool cg_opt_dce(struct cg_opt *o)
{
	bool any = false, changed = true;

	while (changed) {
		changed = false;
		cg_opt_liveness(o);
		for (size_t i = cg_opt_next(o, 0); i < o->n; i = cg_opt_next(o, i + 1)) {
			const struct bpf_insn *in = &o->insn[i];
			uint16_t d = cg_opt_defs(in);
			/*
			 * A call's r1-r5 count as read by any later call (all five are
			 * assumed arguments), but what a helper leaves in them is
			 * garbage no verified program reads: a pure call goes when
			 * its result does.
			 */
			if (cg_opt_is_call(in))
				d = 1u << BPF_R0;
			if (d == 0 || cg_opt_has_effect(in) || (d & o->live[i]))
				continue;
			cg_opt_delete(o, i);
			changed = any = true;
		}
	}
	return any;
}
