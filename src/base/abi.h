/*
 * What the BPF side and the consumer agree on: record headers, state
 * values, record kinds.  Included by user space and by the BPF run-time
 * library in bpf/ (clang -target bpf), so it uses only fixed-width types.
 */
#ifndef DT_BPF_ABI_H
#define DT_BPF_ABI_H

#include <linux/types.h>

/* The state gate (a .bss word, dt_state). */
#define DT_STATE_INACTIVE 0	/* before BEGIN has run: no clause runs */
#define DT_STATE_ACTIVE   1	/* BEGIN done: clauses run */
#define DT_STATE_DRAINING 2	/* exit() called or stopping: only END runs */

/*
 * Every ring-buffer record starts with this header.  `desc` selects the
 * record description the compiler produced (what data follows, how to
 * print it); `prid` is the probe that fired; `timestamp` is D's
 * `timestamp` of the firing (bpf_ktime_get_ns, read once per firing, so
 * a clause that traces `timestamp` records the same value).
 */
struct dt_rec_hdr {
	__u32 desc;
	__u32 prid;
	__u32 cpu;
	__u32 spec;		/* speculation ID, 0 if none */
	__u64 timestamp;	/* ns since boot (CLOCK_MONOTONIC) */
};

#define DT_REC_TS_OFF 16	/* offsetof(struct dt_rec_hdr, timestamp) */

/*
 * A record (`desc`) that only says: user addresses of process `tgid` (a
 * u64 after the header) were recorded for the first time in a while.  The
 * consumer reads the process's mappings at once, while it likely lives.
 */
#define DT_REC_PROC_SEEN 0xffffffffu
#define DT_REC_DATA_OFF 24	/* sizeof(struct dt_rec_hdr): data starts 8-aligned */

/*
 * Fault codes, as DTrace numbers them (DTRACEFLT_*), for ERROR and the
 * consumer's error messages.
 */
#define DT_FLT_BADADDR   1
#define DT_FLT_BADALIGN  2
#define DT_FLT_ILLOP     3
#define DT_FLT_DIVZERO   4
#define DT_FLT_NOSCRATCH 5
#define DT_FLT_KPRIV     6
#define DT_FLT_UPRIV     7
#define DT_FLT_TUPOFLOW  8
#define DT_FLT_BADSTACK  9
#define DT_FLT_BADSIZE   10
#define DT_FLT_BADINDEX  11	/* an array index out of its bounds (the index) */

/*
 * The work area a string run-time function gets in scratch: three string
 * buffers of DT_STR_BUF(nb) bytes and DT_STR_WORDS 64-bit words, where nb
 * is the bytes of a string (strsize + 1).  The result is in the first.
 */
#define DT_STR_BUF(nb)		(((nb) + 7) & ~7U)
#define DT_STR_WORDS		16
#define DT_STR_WORK(nb)		(3 * DT_STR_BUF(nb) + DT_STR_WORDS * 8)

#endif
