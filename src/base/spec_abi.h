/*
 * Speculations: what the BPF side (bpf/spec.bpf.c, the code cg_spec.c
 * generates) and the consumer (consumer/spec.c) agree on.
 *
 * The design.  A speculative clause writes its one record to the ring
 * buffer like any clause, with the speculation's tag (below) in
 * dt_rec_hdr.spec; the consumer keeps such records aside per use of a
 * speculation, in arrival order, and prints them (through the normal
 * record printer) when the commit of that use arrives in the stream, or
 * frees them on a discard.  commit() and discard() change the
 * speculation's state in BPF memory at once (so that later speculate()
 * calls fail, as in DTrace) and record the use they ended in their
 * clause's record when the change took effect, which tells the consumer
 * where in the output the committed records go.  So committed output keeps
 * DTrace's order, costs one ring record per speculative clause (no copy
 * in BPF, no per-speculation map), and specsize is enforced in BPF when
 * speculate() runs.
 *
 * The hard part is reuse.  DTrace frees a committed or discarded buffer
 * at once when its data is all on the CPU that commits or discards it (or,
 * for commit(), when there is none), and otherwise at the next clean, at
 * cleanrate.  Here the data is already in the ring, so freeing early only
 * must never let a record be taken for another use of the same ID: each
 * use has a generation, and records carry the ID and the generation (a
 * tag), which the consumer sorts them by.  Each speculation has one
 * 64-bit control word, its state, generation and the number of records
 * speculate() let into the current use (each of which reaches the ring: a
 * clause that faults or fails after speculate() still submits its record,
 * flagged DT_SPEC_CTLONLY).  speculate() adds 1 to an ACTIVE word, taking
 * it back if the state it replaced was not ACTIVE; commit() and discard()
 * swap ACTIVE for INACTIVE of the next generation (freed) or for
 * COMMITTING / DISCARDING keeping the count, and record the tag and the
 * count, which tells the consumer where in the output the committed
 * records go and how many to wait for.  The consumer frees a COMMITTING
 * or DISCARDING word, once it has read that record, with a compare-and-
 * swap on the exact value it expects (so it fails while a speculate() is
 * in between, and it tries again on its next pass).  speculation() claims
 * an INACTIVE ID with a compare-and-swap to ACTIVE.  Which CPUs a use has
 * data on is in dt_spec.where.  All of it lives in .bss ("dt_specs"),
 * which the consumer has mapped.
 */
#ifndef DT_BPF_SPEC_ABI_H
#define DT_BPF_SPEC_ABI_H

#include <linux/types.h>

/* States, in the top 2 bits of dt_spec.ctl (DTrace's DTRACESPEC_* in spirit). */
#define DT_SPEC_INACTIVE	0	/* free: speculation() may hand it out */
#define DT_SPEC_ACTIVE		1	/* handed out: speculate() writes to it */
#define DT_SPEC_COMMITTING	2	/* commit()ed with data on other CPUs: freed at the next clean */
#define DT_SPEC_DISCARDING	3	/* discard()ed likewise */

/* dt_spec.ctl: state << 62 | generation << 42 | records speculated in this use. */
#define DT_SPEC_STATE_SHIFT	62
#define DT_SPEC_GEN_SHIFT	42
#define DT_SPEC_GEN_MASK	((1ULL << 20) - 1)
#define DT_SPEC_COUNT_MASK	((1ULL << DT_SPEC_GEN_SHIFT) - 1)
#define DT_SPEC_CTL(state, gen, count) (((__u64)(state) << DT_SPEC_STATE_SHIFT) | \
					(((__u64)(gen) & DT_SPEC_GEN_MASK) << DT_SPEC_GEN_SHIFT) | \
					(count))
#define DT_SPEC_STATE(ctl)	((__u64)(ctl) >> DT_SPEC_STATE_SHIFT)
#define DT_SPEC_GEN(ctl)	(((__u64)(ctl) >> DT_SPEC_GEN_SHIFT) & DT_SPEC_GEN_MASK)

/*
 * A use of a speculation as records name it (dt_rec_hdr.spec, and what
 * commit() and discard() record): its ID in the low 11 bits, its
 * generation above them.
 */
#define DT_SPEC_ID_BITS		11
#define DT_SPEC_TAG(id, gen)	((__u32)((((__u64)(gen) & DT_SPEC_GEN_MASK) << DT_SPEC_ID_BITS) | (id)))
#define DT_SPEC_TAG_ID(tag)	((__u32)(tag) & ((1U << DT_SPEC_ID_BITS) - 1))
#define DT_SPEC_TAG_GEN(tag)	(((__u32)(tag) >> DT_SPEC_ID_BITS) & DT_SPEC_GEN_MASK)

/* dt_spec.where: nothing speculated yet, the CPU + 1 of all of it, or several CPUs. */
#define DT_SPEC_NOWHERE		0
#define DT_SPEC_MANY		(~0ULL)

/* One speculation. */
struct dt_spec {
	__u64 ctl;		/* state, generation, records speculated in this use */
	__u64 size;		/* bytes speculated in this use (against specsize) */
	__u64 where;		/* the CPUs this use has data on */
	__u64 pad;
};

/* The area in .bss: counters, then dt_spec[0 .. nspec] (entry 0 unused). */
struct dt_spec_area {
	__u64 unavail;		/* speculation() failed: every buffer in use */
	__u64 busy;		/* speculation() failed: some still being drained */
	__u64 drops;		/* speculate() refused: specsize would be exceeded */
	__u64 pad;
	struct dt_spec spec[];
};

#define DT_SPEC_AREA_SIZE(nspec) (sizeof(struct dt_spec_area) + \
				  ((__u64)(nspec) + 1) * sizeof(struct dt_spec))

/*
 * In dt_rec_hdr.spec: the record only carries commit()/discard() results;
 * its clause faulted or its speculate() failed, so nothing else in it
 * counts.  The low bits still tag the use the record was counted against
 * (0 if none).
 */
#define DT_SPEC_CTLONLY		(1U << 31)

/*
 * What commit() and discard() record (8 bytes): the tag of the use they
 * ended and the records speculated into it (its count, cut to 32 bits),
 * as count << 32 | tag; 0 if they did nothing.
 */
#define DT_SPEC_ENDED(tag, count) (((__u64)(count) << 32) | (tag))

/*
 * DTrace counts a speculative record as its data and a 16-byte header;
 * ours also has the timestamp, which specsize does not count.
 */
#define DT_SPEC_REC_HDR		16

/*
 * speculation() tries at most this many IDs: the BPF verifier walks the
 * search once per ID, so nspec is limited to this (and IDs fit in a tag).
 */
#define DT_SPEC_MAX		1024

#endif
