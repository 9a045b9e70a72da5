/*
 * Speculation bookkeeping (see src/bpf/spec_abi.h for the design): claim
 * an ID, admit a speculative record, commit or discard.  `area` is the
 * address of the dt_specs area in .bss; nspec, sizes and states are
 * immediates of the generated code.
 */
#include "runtime.h"

#include "bpf/spec_abi.h"

static __always_inline struct dt_spec *spec_of(u64 area, u64 id)
{
	return (struct dt_spec *)(area + sizeof(struct dt_spec_area) + id * sizeof(struct dt_spec));
}

/* speculation(): a free ID, or 0 (counted as a failed speculation). */
DT_RT u64 dt_rt_speculation(u64 area, u64 nspec)
{
	struct dt_spec_area *a = (struct dt_spec_area *)area;
	int busy = 0;

	for (u64 id = 1; id <= DT_SPEC_MAX; id++) {
		if (id > nspec)
			break;
		struct dt_spec *s = spec_of(area, id);
		u64 old = __sync_val_compare_and_swap(&s->ctl, 0, DT_SPEC_CTL(DT_SPEC_ACTIVE, 0));
		if (old == 0) {
			s->size = 0;
			return id;
		}
		u64 st = old >> DT_SPEC_STATE_SHIFT;
		if (st == DT_SPEC_COMMITTING || st == DT_SPEC_DISCARDING)
			busy = 1;
	}
	if (busy)
		__sync_fetch_and_add(&a->busy, 1);
	else
		__sync_fetch_and_add(&a->unavail, 1);
	return 0;
}

/*
 * speculate(id) for a record of `size` bytes.  0: the clause must stop (no
 * such active speculation; or the record alone is larger than specsize, a
 * speculative drop).  id: the record goes to speculation `id`.
 * id | DT_SPEC_CTLONLY: it does not fit in what is left of specsize, so it
 * is dropped (and counted) but the clause runs on, as in DTrace.
 */
DT_RT u64 dt_rt_speculate(u64 area, u64 id, u64 nspec, u64 size, u64 specsize)
{
	struct dt_spec_area *a = (struct dt_spec_area *)area;

	if (id == 0 || id > nspec || id > DT_SPEC_MAX)
		return 0;
	struct dt_spec *s = spec_of(area, id);
	u64 old = __sync_fetch_and_add(&s->ctl, 1);
	if ((old >> DT_SPEC_STATE_SHIFT) != DT_SPEC_ACTIVE) {
		__sync_fetch_and_add(&s->ctl, (u64)-1);
		return 0;
	}
	if (size > specsize) {
		__sync_fetch_and_add(&s->ctl, (u64)-1);
		__sync_fetch_and_add(&a->drops, 1);
		return 0;
	}
	u64 cur = *(volatile u64 *)&s->size;
	for (int i = 0; i < 16; i++) {
		if (cur + size > specsize)
			break;
		u64 prev = __sync_val_compare_and_swap(&s->size, cur, cur + size);
		if (prev == cur)
			return id;
		cur = prev;
	}
	__sync_fetch_and_add(&a->drops, 1);
	return id | DT_SPEC_CTLONLY;
}

/*
 * commit(id) (state DT_SPEC_COMMITTING) or discard(id) (DT_SPEC_DISCARDING):
 * id if the speculation was active and now drains; 0 if there was nothing
 * to do (ID 0, or not active: ignored as DTrace ignores it); -1 for an ID
 * beyond nspec (an illegal operation).
 */
DT_RT u64 dt_rt_spec_drain(u64 area, u64 id, u64 nspec, u64 state)
{
	if (id == 0)
		return 0;
	if (id > nspec || id > DT_SPEC_MAX)
		return (u64)-1;
	struct dt_spec *s = spec_of(area, id);
	u64 old = *(volatile u64 *)&s->ctl;
	for (int i = 0; i < 16; i++) {
		if ((old >> DT_SPEC_STATE_SHIFT) != DT_SPEC_ACTIVE)
			return 0;
		u64 want = DT_SPEC_CTL(state, old & DT_SPEC_COUNT_MASK);
		u64 prev = __sync_val_compare_and_swap(&s->ctl, old, want);
		if (prev == old)
			return id;
		old = prev;
	}
	return 0;
}
