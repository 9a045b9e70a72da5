/* Programs chained by tail calls for a probe's many clauses (cg_chain.c). */
#ifndef DT_CG_CHAIN_H
#define DT_CG_CHAIN_H

#include <stddef.h>
#include <stdint.h>

struct dt_cg;
struct dt_compiler;
struct dt_group;

/*
 * Spread g's clauses over programs (g->nsegs, g->seg_ends) so that each
 * keeps within the kernel's limits on functions, verifier work and maps;
 * error if the chain is too long.  Every program also carries the ERROR
 * clauses: error_funcs functions that use error_maps maps.
 */
int cg_chain_plan(struct dt_compiler *cc, struct dt_group *g, size_t error_funcs,
		  size_t error_maps);
/* How many distinct maps the ERROR clauses (group eg, or NULL) use. */
size_t cg_chain_error_maps(struct dt_compiler *cc, const struct dt_group *eg);
/* Where the probe context travels in the scratch area (DCTX_SIZE bytes). */
uint32_t cg_chain_carry_off(struct dt_compiler *cc);
/* Save the probe context and tail-call program k of the chain of `head`; R6 the context. */
void cg_chain_next(struct dt_cg *cg, const char *head, unsigned k, int dctx);
/*
 * In a chained program: find the scratch level the first took and the
 * probe context it saved, into the dctx at fp + dctx (and the CPU's
 * info into the slot at fp + pctx, if not 0), the level's mask into the
 * slot at fp + lvl (for scratch_release).  Jumps to `release` (give the
 * level back) or `skip` if one is missing (neither can be).
 */
void cg_chain_resume(struct dt_cg *cg, int dctx, int pctx, int lvl, int release, int skip);
/* At the end of a chain, before its level is given back: the level is no longer its. */
void cg_chain_unmark(struct dt_cg *cg, int dctx);

#endif
