/*
 * Kernel lock subroutines, as DTrace for Linux defines them on the
 * kernel's own lock words (offsets from BTF, read with fault checks):
 *   mutex_owned(m)   the owner word (struct mutex.owner) without its flag
 *                    bits is not zero; mutex_owner(m) is that task;
 *   mutex_type_adaptive(m) is 1 and mutex_type_spin(m) 0 (Linux mutexes
 *                    sleep after spinning: adaptive);
 *   rw_read_held(rw) readers hold the qrwlock (its count above the writer
 *                    byte and waiting bit), rw_write_held(rw) a writer
 *                    holds it (the writer byte is 0xff), rw_iswriter(rw)
 *                    a writer holds it or waits for it.
 */
#include "base/core.h"
#include "base/types.h"
#include "compiler/cg.h"
#include "compiler/cg_impl.h"
#include "compiler/compiler.h"
#include "compiler/ident.h"

#define MUTEX_FLAGS 0x07	/* the low bits of mutex.owner */
#define QW_LOCKED 0xff		/* qrwlock: a writer holds it */
#define QW_WMASK 0x1ff		/* qrwlock: writer byte and waiting bit */

/* The word at addr + off (size bytes), faulting on a bad address. */
static int load_word(struct dt_cg *cg, int addr, uint32_t off, uint32_t size)
{
	if (off != 0)
		cg_emit(cg, I_ALU64_IMM(BPF_ADD, addr, (int32_t)off));
	cg_load_bytes(cg, addr, size, false);
	return addr;
}

static int mutex_word(struct dt_cg *cg, struct dt_node *n, const char *fn)
{
	uint32_t off = cg_kmember(cg, "struct mutex", "owner", fn);

	return load_word(cg, cg_expr(cg, n->call.args), off, 8);
}

static int rwlock_word(struct dt_cg *cg, struct dt_node *n, const char *fn)
{
	uint32_t off = cg_kmember(cg, "rwlock_t", "raw_lock", fn) +
		       cg_kmember(cg, "arch_rwlock_t", "cnts", fn);

	return load_word(cg, cg_expr(cg, n->call.args), off, 4);
}

/* r = (r != 0) */
static void to_bool(struct dt_cg *cg, int r)
{
	int done = cg_label_new(cg);

	cg_jmp_imm(cg, BPF_JEQ, r, 0, done);
	cg_emit(cg, I_MOV64_IMM(r, 1));
	cg_label_place(cg, done);
}

int cg_klock_subr(struct dt_cg *cg, struct dt_node *n)
{
	struct dt_ident *id = n->id;
	int r;

	switch (id->code) {
	case SUB_MUTEX_OWNED:
	case SUB_MUTEX_OWNER:
		r = mutex_word(cg, n, id->name);
		cg_emit(cg, I_ALU64_IMM(BPF_AND, r, ~MUTEX_FLAGS));
		if (id->code == SUB_MUTEX_OWNED)
			to_bool(cg, r);
		return r;
	case SUB_MUTEX_TYPE_ADAPTIVE:
	case SUB_MUTEX_TYPE_SPIN:
		/* Still evaluated: a bad pointer faults as in DTrace. */
		r = mutex_word(cg, n, id->name);
		cg_emit(cg, I_MOV64_IMM(r, id->code == SUB_MUTEX_TYPE_ADAPTIVE ? 1 : 0));
		return r;
	case SUB_RW_READ_HELD:
		r = rwlock_word(cg, n, id->name);
		cg_emit(cg, I_ALU64_IMM(BPF_RSH, r, 9));
		to_bool(cg, r);
		return r;
	case SUB_RW_WRITE_HELD: {
		r = rwlock_word(cg, n, id->name);
		cg_emit(cg, I_ALU64_IMM(BPF_AND, r, QW_LOCKED));
		int no = cg_label_new(cg), done = cg_label_new(cg);
		cg_jmp_imm(cg, BPF_JNE, r, QW_LOCKED, no);
		cg_emit(cg, I_MOV64_IMM(r, 1));
		cg_ja(cg, done);
		cg_label_place(cg, no);
		cg_emit(cg, I_MOV64_IMM(r, 0));
		cg_label_place(cg, done);
		return r;
	}
	case SUB_RW_ISWRITER:
		r = rwlock_word(cg, n, id->name);
		cg_emit(cg, I_ALU64_IMM(BPF_AND, r, QW_WMASK));
		to_bool(cg, r);
		return r;
	default:
		return -1;
	}
}
