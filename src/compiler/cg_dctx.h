/* Which probe-context (dctx) fields code reads, and a prologue trimmed to them (cg_dctx.c). */
#ifndef DT_CG_DCTX_H
#define DT_CG_DCTX_H

#include <stddef.h>
#include <stdint.h>

#include "base/insn.h"

struct dt_cg;

/*
 * The 8-byte words of the dctx (bit i: bytes 8i .. 8i + 7) a function
 * that gets the dctx pointer in r2 may read; every bit when it cannot tell.
 */
uint32_t cg_dctx_reads(const struct bpf_insn *insns, size_t n);
/* The same for fn of obj, with the BPF functions it calls with the pointer in r2 (found by name in obj). */
struct bo_object;
struct bo_func;
uint32_t cg_dctx_reads_calls(const struct bo_object *obj, const struct bo_func *fn);
/* The argument registers (bit r: r1 .. r5) a function reads before setting them; all when it cannot tell. */
uint16_t cg_func_entry_reads(const struct bpf_insn *insns, size_t n);
/*
 * In the program being built (cg, dctx at fp + dctx), make the stores
 * into dctx words that neither it nor the clauses it calls read no-ops.
 */
void cg_dctx_trim(struct dt_cg *cg, int dctx);

#endif
