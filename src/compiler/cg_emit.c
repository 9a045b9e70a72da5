/* Instruction emission: labels, jumps, relocated loads, line info. */
#include <string.h>

#include "base/core.h"
#include "compiler/cg.h"
#include "compiler/cg_opt.h"
#include "compiler/compiler.h"

static _Noreturn void oom(struct dt_cg *cg)
{
	dt_cnomem(cg->pcb);
}

void cg_init(struct dt_cg *cg, struct dt_pcb *pcb, struct bo_object *obj, struct bo_func *fn)
{
	memset(cg, 0, sizeof(*cg));
	cg->pcb = pcb;
	cg->cc = pcb->cc;
	cg->obj = obj;
	cg->fn = fn;
	cg->fault_label = -1;
	cg->exit_label = -1;
	cg->pred_fault_label = -1;
	cg->drop_label = -1;
	cg->reg_reserved[BPF_FP] = true;
	pcb->cg = cg;
	pcb->cg_cleanup = cg_fini;
	if (fn != NULL && bo_func_own(obj, fn) < 0)
		oom(cg);
}

void cg_fini(struct dt_cg *cg)
{
	dt_vec_free(&cg->labels);
	dt_vec_free(&cg->fixups);
	dt_vec_free(&cg->regions);
	dt_vec_free(&cg->spills);
	dt_vec_free(&cg->stores);
	dt_vec_free(&cg->slot_log);
	if (cg->pcb != NULL && cg->pcb->cg == cg)
		cg->pcb->cg = NULL;
}

void cg_set_line(struct dt_cg *cg, int line)
{
	cg->line = line;
}

/*
 * The most instructions the kernel verifies in one program.  A clause is
 * cut into parts between its statements long before (cg_clause.c), so
 * only one statement reaches this: inline definitions that name each
 * other twice (each doubling the code) stop here rather than after
 * astronomical time.
 */
#define CG_INSNS_MAX 1000000

void cg_emit(struct dt_cg *cg, struct bpf_insn insn)
{
	struct bo_func *fn = cg->fn;

	if (fn->insns.n >= CG_INSNS_MAX)
		dt_cerror(cg->pcb, "D_UNKNOWN", cg->line,
			  "statement too large: more than %d BPF instructions (a clause is cut "
			  "into parts between its statements, never within one: split this "
			  "statement into several)", CG_INSNS_MAX);

	if (cg->line > 0 && (fn->lines.n == 0 || fn->lines.v[fn->lines.n - 1].line != (uint32_t)cg->line)) {
		struct bo_line l = { .insn = (uint32_t)fn->insns.n, .line = (uint32_t)cg->line };
		if (dt_vec_push(&fn->lines, l) < 0)
			oom(cg);
	}
	if (dt_vec_push(&fn->insns, insn) < 0)
		oom(cg);
	cg_reg_note_insn(cg, &insn);
}

uint32_t cg_pos(struct dt_cg *cg)
{
	return (uint32_t)cg->fn->insns.n;
}

int cg_label_new(struct dt_cg *cg)
{
	struct cg_label l = { .pos = -1 };

	if (dt_vec_push(&cg->labels, l) < 0)
		oom(cg);
	return (int)cg->labels.n - 1;
}

void cg_label_place(struct dt_cg *cg, int label)
{
	cg->labels.v[label].pos = (int)cg_pos(cg);
	cg->label_pos = cg_pos(cg);
}

bool cg_known_imm(struct dt_cg *cg, int reg, int64_t *v)
{
	uint32_t pos = cg_pos(cg);

	/* Only straight-line code: no label between the move and here. */
	if (pos == 0 || cg->label_pos == pos)
		return false;
	const struct bpf_insn *in = &cg->fn->insns.v[pos - 1];
	if (in->dst_reg != reg || BPF_SRC(in->code) != BPF_K || BPF_OP(in->code) != BPF_MOV)
		return false;
	if (in->code == (BPF_ALU64 | BPF_MOV | BPF_K))
		*v = in->imm;
	else if (in->code == (BPF_ALU | BPF_MOV | BPF_K))
		*v = (int64_t)(uint32_t)in->imm;
	else
		return false;
	return true;
}

/* Does jump op with these operands go? -1 if it cannot be known. */
static int static_jump(int op, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return ua > ub;
	case BPF_JGE: return ua >= ub;
	case BPF_JLT: return ua < ub;
	case BPF_JLE: return ua <= ub;
	case BPF_JSGT: return a > b;
	case BPF_JSGE: return a >= b;
	case BPF_JSLT: return a < b;
	case BPF_JSLE: return a <= b;
	default: return -1;
	}
}

static void fixup(struct dt_cg *cg, int label)
{
	/* The island behind may be out of reach; every exit does the same. */
	if (cg->labels.v[label].old_exit)
		label = cg->exit_label;
	struct cg_fixup f = { .insn = cg_pos(cg), .label = label };

	if (dt_vec_push(&cg->fixups, f) < 0)
		oom(cg);
}

void cg_jmp_reg(struct dt_cg *cg, int op, int dst, int src, int label)
{
	fixup(cg, label);
	cg_emit(cg, I_JMP_REG(op, dst, src, 0));
}

void cg_jmp_imm(struct dt_cg *cg, int op, int dst, int32_t imm, int label)
{
	int64_t v;

	/* A test of a constant just loaded: jump always, or never. */
	if (cg_known_imm(cg, dst, &v)) {
		int go = static_jump(op, v, imm);
		if (go == 0)
			return;
		if (go == 1) {
			cg_ja(cg, label);
			return;
		}
	}
	fixup(cg, label);
	cg_emit(cg, I_JMP_IMM(op, dst, imm, 0));
}

void cg_ja(struct dt_cg *cg, int label)
{
	fixup(cg, label);
	cg_emit(cg, I_JA(0));
}

void cg_resolve(struct dt_cg *cg)
{
	cg_reg_place_stores(cg);
	cg_drop_unreachable(cg);
	cg_optimize(cg);
	for (size_t i = 0; i < cg->fixups.n; i++) {
		struct cg_fixup *f = &cg->fixups.v[i];
		int target = cg->labels.v[f->label].pos;
		if (target < 0)
			dt_cerror(cg->pcb, "D_UNKNOWN", 0, "internal error: unplaced label");
		int off = target - (int)f->insn - 1;
		if (off < INT16_MIN || off > INT16_MAX)
			dt_cerror(cg->pcb, "D_UNKNOWN", 0, "clause too large: jump out of range");
		cg->fn->insns.v[f->insn].off = (int16_t)off;
	}
	cg->fixups.n = 0;
}

void cg_mov_imm64(struct dt_cg *cg, int reg, uint64_t v)
{
	if ((int64_t)v >= INT32_MIN && (int64_t)v <= INT32_MAX) {
		cg_emit(cg, I_MOV64_IMM(reg, (int32_t)v));
		return;
	}
	if (v <= UINT32_MAX) {
		/* A 32-bit move zero-extends. */
		cg_emit(cg, I_MOV32_IMM(reg, (int32_t)(uint32_t)v));
		return;
	}
	cg_emit(cg, I_LD_IMM64_LO(reg, 0, v));
	cg_emit(cg, I_LD_IMM64_HI(v));
}

static void reloc(struct dt_cg *cg, enum bo_reloc_kind kind, const char *target)
{
	struct bo_reloc r = { .insn = cg_pos(cg), .kind = kind, .target = target };

	if (dt_vec_push(&cg->fn->relocs, r) < 0)
		oom(cg);
}

void cg_ld_map_fd(struct dt_cg *cg, int reg, const char *map)
{
	reloc(cg, BO_RELOC_MAP_FD, map);
	cg_emit(cg, I_LD_IMM64_LO(reg, BPF_PSEUDO_MAP_FD, 0));
	cg_emit(cg, I_LD_IMM64_HI(0));
}

void cg_ld_bss(struct dt_cg *cg, int reg, uint32_t off)
{
	reloc(cg, BO_RELOC_BSS, NULL);
	cg_emit(cg, I_LD_IMM64_LO(reg, BPF_PSEUDO_MAP_VALUE, off));
	cg_emit(cg, I_LD_IMM64_HI(0));
}

void cg_ld_rodata(struct dt_cg *cg, int reg, uint32_t off)
{
	reloc(cg, BO_RELOC_RODATA, NULL);
	cg_emit(cg, I_LD_IMM64_LO(reg, BPF_PSEUDO_MAP_VALUE, off));
	cg_emit(cg, I_LD_IMM64_HI(0));
}

uint32_t cg_rodata(struct dt_cg *cg, const void *data, size_t len)
{
	struct bo_object *o = cg->obj;

	/* Reuse an identical earlier constant. */
	for (size_t off = 0; off + len <= o->rodata.n; off += 8) {
		if (memcmp(o->rodata.v + off, data, len) == 0)
			return (uint32_t)off;
	}
	size_t off = DT_ALIGN(o->rodata.n, 8);
	if (dt_vec_reserve(&o->rodata, off + len) < 0)
		oom(cg);
	memset(o->rodata.v + o->rodata.n, 0, off - o->rodata.n);
	memcpy(o->rodata.v + off, data, len);
	o->rodata.n = off + len;
	return (uint32_t)off;
}
