/*
 * How a probe's clauses are spread over programs chained by tail calls,
 * when they do not fit in one (cg_chain.c builds the chain).
 */
#ifndef DT_CHAIN_PLAN_H
#define DT_CHAIN_PLAN_H

#include <stddef.h>

/* The kernel's limits on one BPF program and on a chain of them. */
#define DT_BPF_MAX_SUBPROGS	256	/* functions in one program (the verifier's) */
#define DT_BPF_MAX_TAIL_CALLS	33	/* tail calls one firing may make (MAX_TAIL_CALL_CNT) */
/*
 * Functions of a program that are not clauses: the program itself,
 * dt_fault and dt_error, and the run-time library's functions the clauses
 * call (bpf/: 35 today, all counted, with room to grow).
 */
#define DT_CHAIN_FUNCS_RESERVED	(1 + 2 + 48)
/*
 * Instructions of clause functions one program may hold.  The verifier
 * walks every path of a program up to a million instructions, and a
 * clause costs more than its length where it branches: an eighth leaves
 * room for that.
 */
#define DT_CHAIN_MAX_INSNS	(1000000 / 8)

struct dt_clause_cost {
	size_t funcs;	/* BPF functions the clause adds to a program */
	size_t insns;	/* its instructions */
};

struct dt_chain_limits {
	size_t max_funcs;	/* clause functions one program may call */
	size_t max_insns;	/* their instructions in one program */
	size_t max_progs;	/* programs in one chain */
};

/* The limits for a probe whose programs also carry `error_funcs` ERROR clauses. */
void dt_chain_limits_default(struct dt_chain_limits *lim, size_t error_funcs);

/*
 * Split n clauses, in order, into as few consecutive segments as fit the
 * limits (a clause larger than a program's budget alone gets a program of
 * its own: the verifier then decides).  ends[k] is one past the last
 * clause of segment k; ends holds n entries at most.  Returns the number
 * of segments, or -E2BIG if more than lim->max_progs are needed.
 */
int dt_chain_plan(const struct dt_clause_cost *cost, size_t n, const struct dt_chain_limits *lim,
		  size_t *ends);

/*
 * Names in the object: program k (1 ..) of the chain that starts with the
 * program `head`, and the program array the chain's tail calls go through.
 */
void dt_chain_prog_name(const char *head, unsigned k, char *buf, size_t size);
void dt_chain_map_name(const char *head, char *buf, size_t size);

#endif
