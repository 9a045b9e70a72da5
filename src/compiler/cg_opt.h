/*
 * Optimisation passes over one function's BPF instructions, run by
 * cg_resolve() before jumps are resolved.  The passes see the function
 * as a view: the instructions, each jump's target index, which
 * instructions a jump may reach (basic block leaders), and a deletion
 * mark; cg_opt_apply() (cg_opt.c) writes the result back, renumbering
 * labels, jumps, relocations and line info.  Every pass keeps what the
 * function computes on every path, and leaves alone what it cannot see
 * through (a label in between, a stack slot whose address was taken, a
 * call).
 */
#ifndef DT_CG_OPT_H
#define DT_CG_OPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/insn.h"

/* Newer encodings the system's linux/bpf.h may not name. */
#ifndef BPF_JCOND
#define BPF_JCOND 0xe0
#endif
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

struct dt_cg;

/* How far a pass looks from one instruction for what it needs: past it, it assumes nothing (keeps compiling linear). */
#define CG_OPT_WINDOW 256

struct cg_opt {
	struct bpf_insn *insn;		/* the function's instructions, changed in place */
	size_t n;
	int *target;			/* a jump's target index (0..n), else -1 */
	bool *leader;			/* a jump may go to it (index 0..n) */
	bool *del;			/* deleted */
	bool *hi;			/* the second slot of an ld_imm64 */
	uint16_t *live;			/* registers live after each instruction (cg_opt_live.c) */
};

/* Set the view up over insns[0..n) with the given jump targets; -ENOMEM. */
int cg_opt_init(struct cg_opt *o, struct bpf_insn *insns, size_t n, const int *target);
void cg_opt_free(struct cg_opt *o);
/* Run every pass until none changes anything. */
void cg_opt_run(struct cg_opt *o);
/* Optimise cg's function in place (cg_resolve). */
void cg_optimize(struct dt_cg *cg);
/* Optimise a finished function (its jumps resolved) again, after a rewrite left no-ops in it. */
struct dt_pcb;
struct bo_func;
void cg_opt_compact(struct dt_pcb *pcb, struct bo_func *fn);

/* ---- instruction facts (cg_opt_insn.c) ---- */
bool cg_opt_is_jump(const struct bpf_insn *in);		/* conditional or goto */
bool cg_opt_is_call(const struct bpf_insn *in);
bool cg_opt_is_exit(const struct bpf_insn *in);
bool cg_opt_is_ldimm64(const struct bpf_insn *in);
/* Registers the instruction reads and writes (bit r: register r). */
uint16_t cg_opt_uses(const struct bpf_insn *in);
uint16_t cg_opt_defs(const struct bpf_insn *in);
/* Writes memory or has an effect beyond its register results. */
bool cg_opt_has_effect(const struct bpf_insn *in);
/* The next kept instruction at or after i (n if none). */
size_t cg_opt_next(const struct cg_opt *o, size_t i);
/* Delete instruction i (both slots of an ld_imm64). */
void cg_opt_delete(struct cg_opt *o, size_t i);

/* ---- liveness (cg_opt_live.c) ---- */
void cg_opt_liveness(struct cg_opt *o);

/* ---- passes: each returns whether it changed anything ---- */
/* Constants and frame addresses known in a block: folded into their users (cg_opt_constprop.c). */
bool cg_opt_constprop(struct cg_opt *o);
/* Stack slots: loads of a value just stored, stores overwritten unread (cg_opt_deadstore.c). */
bool cg_opt_deadstore(struct cg_opt *o);
/* A move whose source was computed just for it: computed in the destination (cg_opt_copyprop.c). */
bool cg_opt_copyprop(struct cg_opt *o);
/* Results nothing reads (cg_opt_dce.c). */
bool cg_opt_dce(struct cg_opt *o);
/* Jumps through tests whose outcome is known, inverted tests over gotos, 32-bit tests of sign extensions, unreachable code (cg_opt_jump.c). */
bool cg_opt_jump(struct cg_opt *o);
/* A thread-identity helper called again while r0 holds its result (cg_opt_purecall.c). */
bool cg_opt_purecall(struct cg_opt *o);
/* A move into a register that holds the same value already (cg_opt_samemove.c). */
bool cg_opt_samemove(struct cg_opt *o);
/* A zero-extension only narrow stores read (cg_opt_zext.c). */
bool cg_opt_zext(struct cg_opt *o);
/* Jumps to the next instruction, moves of a register to itself (cg_opt_peephole.c). */
bool cg_opt_peephole(struct cg_opt *o);

#endif
