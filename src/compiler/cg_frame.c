/*
 * The BPF stack frame of the function being generated: 8-byte slots at
 * fp-8, fp-16, ..., handed out first-fit.  Temporaries (cg_stack_alloc)
 * are freed together back to a mark; a spilled register's slot is taken
 * and given back alone.  Every slot taken is noted as touched in the
 * innermost evaluation region (cg_reg.c), which places spill stores at
 * region entries and must not pick a slot used since then.
 */
#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/compiler.h"

#define NSLOTS 64	/* BPF's 512 bytes */

static uint64_t run_mask(int first, int n)
{
	return (n >= 64 ? ~0ULL : ((1ULL << n) - 1)) << first;
}

/* The first run of n free slots none of which is in `avoid`; -1 if none fits the budget. */
static int take(struct dt_cg *cg, int n, uint64_t avoid)
{
	uint64_t busy = cg->slot_used | avoid;

	for (int first = 0; first + n <= NSLOTS && 8 * (first + n) <= CG_FRAME_MAX; first++) {
		uint64_t m = run_mask(first, n);
		if (busy & m)
			continue;
		cg->slot_used |= m;
		if (cg->regions.n > 0)
			cg->regions.v[cg->regions.n - 1].touched |= m;
		if (8 * (first + n) > cg->frame_size)
			cg->frame_size = 8 * (first + n);
		return first;
	}
	return -1;
}

static _Noreturn void too_big(struct dt_cg *cg, int want)
{
	int used = __builtin_popcountll(cg->slot_used) * 8;

	dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
		  "expression too complex: its temporaries need more than the %d bytes of BPF stack "
		  "a clause may use (%d in use, %d more wanted)", CG_FRAME_MAX, used, want);
}

int cg_stack_alloc(struct dt_cg *cg, int size)
{
	int n = (int)(DT_ALIGN((unsigned)size, 8u) / 8);

	if (n == 0)
		n = 1;
	int first = n > NSLOTS ? -1 : take(cg, n, 0);
	if (first < 0)
		too_big(cg, 8 * n);
	struct cg_slots s = { first, n };
	if (dt_vec_push(&cg->slot_log, s) < 0)
		dt_cnomem(cg->pcb);
	return -8 * (first + n);
}

int cg_stack_mark(struct dt_cg *cg)
{
	return (int)cg->slot_log.n;
}

void cg_stack_release(struct dt_cg *cg, int mark)
{
	while (cg->slot_log.n > (size_t)mark) {
		struct cg_slots *s = &cg->slot_log.v[--cg->slot_log.n];
		cg->slot_used &= ~run_mask(s->first, s->n);
	}
}

int cg_frame_take(struct dt_cg *cg, uint64_t avoid)
{
	int slot = take(cg, 1, avoid);

	if (slot < 0)
		too_big(cg, 8);
	return slot;
}

void cg_frame_give(struct dt_cg *cg, int slot)
{
	cg->slot_used &= ~run_mask(slot, 1);
}
