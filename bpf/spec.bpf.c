/*
 * Speculation bookkeeping (see src/base/spec_abi.h for the design): claim
 * an ID, admit a speculative record, commit or discard.  `area` is the
 * address of the dt_specs area in .bss; nspec, sizes and states are
 * immediates of the generated code.
 */
#include "runtime.h"

#include "base/spec_abi.h"

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
		u64 old = *(volatile u64 *)&s->ctl;
		u64 st = DT_SPEC_STATE(old);
		if (st == DT_SPEC_COMMITTING || st == DT_SPEC_DISCARDING)
			busy = 1;
		/* A count on a free ID is a stray speculate() about to take it back. */
		if (st != DT_SPEC_INACTIVE || (old & DT_SPEC_COUNT_MASK) != 0)
			continue;
		u64 want = DT_SPEC_CTL(DT_SPEC_ACTIVE, DT_SPEC_GEN(old), 0);
		if (__sync_val_compare_and_swap(&s->ctl, old, want) == old) {
			s->size = 0;
			s->where = DT_SPEC_NOWHERE;
			return id;
		}
	}
	if (busy)
		__sync_fetch_and_add(&a->busy, 1);
	else
		__sync_fetch_and_add(&a->unavail, 1);
	return 0;
}

/* This CPU has data in the speculation's current use. */
static __always_inline void note_cpu(struct dt_spec *s)
{
	u64 me = (u64)bpf_get_smp_processor_id() + 1;
	u64 w = *(volatile u64 *)&s->where;

	if (w == me || w == DT_SPEC_MANY)
		return;
	if (w == DT_SPEC_NOWHERE) {
		w = __sync_val_compare_and_swap(&s->where, DT_SPEC_NOWHERE, me);
		if (w == DT_SPEC_NOWHERE || w == me)
			return;
	}
	*(volatile u64 *)&s->where = DT_SPEC_MANY;
}

/*
 * speculate(id) for a record of `size` bytes.  0: the clause must stop (no
 * such active speculation; or the record alone is larger than specsize, a
 * speculative drop).  The tag of the use: the record goes to it.  The tag
 * | DT_SPEC_CTLONLY: it does not fit in what is left of specsize, so it is
 * dropped (and counted) but the clause runs on, as in DTrace.
 */
DT_RT u64 dt_rt_speculate(u64 area, u64 id, u64 nspec, u64 size, u64 specsize)
{
	struct dt_spec_area *a = (struct dt_spec_area *)area;

	if (id == 0 || id > nspec || id > DT_SPEC_MAX)
		return 0;
	struct dt_spec *s = spec_of(area, id);
	/* Not active: no need to touch the word (and make speculation() skip it). */
	if (DT_SPEC_STATE(*(volatile u64 *)&s->ctl) != DT_SPEC_ACTIVE)
		return 0;
	u64 old = __sync_fetch_and_add(&s->ctl, 1);
	if (DT_SPEC_STATE(old) != DT_SPEC_ACTIVE) {
		__sync_fetch_and_add(&s->ctl, (u64)-1);
		return 0;
	}
	u64 tag = DT_SPEC_TAG(id, DT_SPEC_GEN(old));
	if (size > specsize) {
		__sync_fetch_and_add(&s->ctl, (u64)-1);
		__sync_fetch_and_add(&a->drops, 1);
		return 0;
	}
	note_cpu(s);
	u64 cur = *(volatile u64 *)&s->size;
	for (int i = 0; i < 16; i++) {
		if (cur + size > specsize)
			break;
		u64 prev = __sync_val_compare_and_swap(&s->size, cur, cur + size);
		if (prev == cur)
			return tag;
		cur = prev;
	}
	__sync_fetch_and_add(&a->drops, 1);
	return tag | DT_SPEC_CTLONLY;
}

/*
 * commit(id) (state DT_SPEC_COMMITTING) or discard(id) (DT_SPEC_DISCARDING)
 * of an active speculation: freed at once, as DTrace frees it, when all
 * its data is on this CPU (or, for commit(), when it has none), else left
 * in that state for the consumer to free.  Returns DT_SPEC_ENDED(tag,
 * records) of the use it ended; 0 if there was nothing to do (ID 0, or
 * not active: ignored as DTrace ignores it); -1 for an ID beyond nspec
 * (an illegal operation).
 */
DT_RT u64 dt_rt_spec_drain(u64 area, u64 id, u64 nspec, u64 state)
{
	if (id == 0)
		return 0;
	if (id > nspec || id > DT_SPEC_MAX)
		return (u64)-1;
	struct dt_spec *s = spec_of(area, id);
	u64 me = (u64)bpf_get_smp_processor_id() + 1;
	u64 old = *(volatile u64 *)&s->ctl;
	for (int i = 0; i < 16; i++) {
		if (DT_SPEC_STATE(old) != DT_SPEC_ACTIVE)
			return 0;
		u64 where = *(volatile u64 *)&s->where;
		u64 gen = DT_SPEC_GEN(old), count = old & DT_SPEC_COUNT_MASK;
		int now = where == me || (state == DT_SPEC_COMMITTING && where == DT_SPEC_NOWHERE);
		u64 want = now ? DT_SPEC_CTL(DT_SPEC_INACTIVE, gen + 1, 0)
			       : DT_SPEC_CTL(state, gen, count);
		u64 prev = __sync_val_compare_and_swap(&s->ctl, old, want);
		if (prev == old)
			return DT_SPEC_ENDED(DT_SPEC_TAG(id, gen), count & 0xffffffffULL);
		old = prev;
	}
	return 0;
}
