/*
 * Speculations: what the BPF side (bpf/spec.bpf.c, the code cg_spec.c
 * generates) and the consumer (consumer/spec.c) agree on.
 *
 * The design.  A speculative clause writes its one record to the ring
 * buffer like any clause, with the speculation ID in dt_rec_hdr.spec; the
 * consumer keeps such records aside per ID, in arrival order, and prints
 * them (through the normal record printer) when a commit for that ID
 * arrives in the stream, or frees them on a discard.  commit() and
 * discard() change the speculation's state in BPF memory at once (so that
 * later speculate() calls fail, as in DTrace) and record the ID in their
 * clause's record when the change took effect, which tells the consumer
 * where in the output the committed records go.  So committed output keeps
 * DTrace's order, costs one ring record per speculative clause (no copy
 * in BPF, no per-speculation map), and specsize is enforced in BPF when
 * speculate() runs.
 *
 * The one hard part is reuse: an ID is free again only once the consumer
 * has read every record speculated on it, so a late record can never be
 * taken for the next user's.  Each speculation has one 64-bit control word,
 * the state in its top byte and below it the number of records speculate()
 * let through (each of which reaches the ring: a clause that faults or
 * fails after speculate() still submits its record, flagged
 * DT_SPEC_CTLONLY).  speculate() adds 1 first and looks at the state it
 * replaced, taking the 1 back if the speculation was not ACTIVE; commit()
 * and discard() swap ACTIVE for COMMITTING or DISCARDING keeping the
 * count.  The consumer, after reading the ring, swaps a draining word whose
 * count equals the records it has read for 0 (INACTIVE, count 0), with a
 * compare-and-swap that fails while a speculate() is in between; it tries
 * again on its next pass.  speculation() claims an ID with a
 * compare-and-swap from 0 to ACTIVE.  All of it lives in .bss ("dt_specs"),
 * which the consumer has mapped.
 */
#ifndef DT_BPF_SPEC_ABI_H
#define DT_BPF_SPEC_ABI_H

#include <linux/types.h>

/* States, in the top byte of dt_spec.ctl (DTrace's DTRACESPEC_* in spirit). */
#define DT_SPEC_INACTIVE	0	/* free: speculation() may hand it out */
#define DT_SPEC_ACTIVE		1	/* handed out: speculate() writes to it */
#define DT_SPEC_COMMITTING	2	/* commit()ed: free once the consumer drained it */
#define DT_SPEC_DISCARDING	3	/* discard()ed: likewise */

#define DT_SPEC_STATE_SHIFT	56
#define DT_SPEC_COUNT_MASK	((1ULL << DT_SPEC_STATE_SHIFT) - 1)
#define DT_SPEC_CTL(state, count) (((__u64)(state) << DT_SPEC_STATE_SHIFT) | (count))

/* One speculation. */
struct dt_spec {
	__u64 ctl;		/* state << 56 | records speculated in this use */
	__u64 size;		/* bytes speculated in this use (against specsize) */
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
 * counts.  The low bits still name the speculation the record was counted
 * against (0 if none).
 */
#define DT_SPEC_CTLONLY		(1U << 31)

/*
 * DTrace counts a speculative record as its data and a 16-byte header;
 * ours also has the timestamp, which specsize does not count.
 */
#define DT_SPEC_REC_HDR		16

/*
 * speculation() tries at most this many IDs: the BPF verifier walks the
 * search once per ID, so nspec is limited to this.
 */
#define DT_SPEC_MAX		1024

#endif
