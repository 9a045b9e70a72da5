/*
 * Record descriptions: what the compiler tells the consumer about each
 * record a clause writes (the data items after struct dt_rec_hdr, their
 * offsets, types and how to print them).
 */
#ifndef DT_RDESC_H
#define DT_RDESC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/util.h"

struct dt_probe;
struct dt_type;
struct dt_pf_format;

enum dt_rkind {
	RK_TRACE,	/* trace(): value at off, size, type */
	RK_PRINTF,	/* printf(): format; its arguments are the next nargs items */
	RK_SYSTEM,	/* system(): like printf, then run by the shell */
	RK_PFARG,	/* a printf argument */
	RK_EXIT,	/* exit(): int status at off */
	RK_PRINTA,	/* printa(): aggregations (agg ids), optional format */
	RK_CLEAR, RK_TRUNC, RK_NORMALIZE, RK_DENORMALIZE,
	RK_SETOPT,
	RK_STACK, RK_USTACK,
	RK_SYM, RK_MOD, RK_USYM, RK_UMOD, RK_UADDR,
	RK_TRACEMEM,
	RK_PRINT,
	RK_FREOPEN, RK_FTRUNCATE,
	RK_RAISE, RK_STOP,
	RK_COMMIT, RK_DISCARD,	/* u64 DT_SPEC_ENDED(tag, records) at off if it took effect, else 0 */
	RK_ERROR,	/* a run-time fault: see struct dt_rec_error */
};

struct dt_ritem {
	enum dt_rkind kind;
	uint32_t off;		/* offset of the data from the record start */
	uint32_t size;		/* bytes of data (0 for constants) */
	struct dt_type *type;
	bool is_string;		/* NUL-terminated within size */
	bool is_const;		/* value known at compile time: cstr / cval */
	const char *cstr;
	int64_t cval;
	/* RK_PRINTF/RK_SYSTEM/RK_PRINTA */
	struct dt_pf_format *fmt;
	const char *fmtstr;
	int nargs;
	/* RK_PRINTA and aggregation actions */
	uint32_t *aggids;
	int naggs;
	/* RK_SETOPT: constants, or NULL when recorded (the name at off/size,
	 * the value at optval_off/optval_size when optval_rec). */
	const char *optname, *optval;
	uint32_t optval_off, optval_size;
	bool optval_rec;
};

struct dt_rdesc {
	uint32_t id;
	bool internal;		/* written by the run time (errors), not by a clause */
	uint32_t clause;	/* else the number of the clause that writes it */
	uint32_t size;		/* total record size including the header */
	DT_VEC(struct dt_ritem) items;
	bool has_exit;
	bool spec_ctl;		/* has RK_COMMIT/RK_DISCARD items */
	/*
	 * A clause cut into parts writes a record per part: those of its
	 * earlier parts are held by the consumer until its last part's
	 * (part_last) comes, and dropped if the clause faults first
	 * (consumer/parts.h).  A part's record with no items prints nothing.
	 */
	bool part_held, part_last;
};

/*
 * A clause as errors name it: DTrace numbers a clause once per probe
 * description (dt_clause_N, N + 1, ...), so a fault in a clause names the
 * number of the description that enabled the probe that fired.
 */
struct dt_cdesc {
	uint32_t clause;			/* the number of its first description */
	size_t nprobes;
	struct dt_probe *const *probes;		/* the probes it enables ... */
	const int *pdesc;			/* ... and the description each came from */
};

/* The number a fault in clause `clause` names when probe `prp` fired. */
uint32_t dt_cdesc_number(const struct dt_cdesc *const *cdescs, size_t n, uint32_t clause,
			 const struct dt_probe *prp);

/* Layout of an error record's data (after the header). */
struct dt_rec_error {
	uint32_t stmt;		/* clause id that faulted */
	uint32_t fault;		/* DT_FLT_* */
	uint64_t addr;		/* faulting address or value */
	uint32_t action;	/* action index in the clause */
	uint32_t pc;		/* instruction offset */
};

#endif
