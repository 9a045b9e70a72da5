/* A readable BPF disassembler for -S: "r1 = *(u32 *)(r10 - 8)" style. */
#include "bpf/disasm.h"

#include <stdio.h>

static const char *alu_op(int op)
{
	switch (op) {
	case BPF_ADD: return "+=";
	case BPF_SUB: return "-=";
	case BPF_MUL: return "*=";
	case BPF_DIV: return "/=";
	case BPF_OR: return "|=";
	case BPF_AND: return "&=";
	case BPF_LSH: return "<<=";
	case BPF_RSH: return ">>=";
	case BPF_MOD: return "%=";
	case BPF_XOR: return "^=";
	case BPF_MOV: return "=";
	case BPF_ARSH: return "s>>=";
	default: return "?=";
	}
}

static const char *jmp_op(int op)
{
	switch (op) {
	case BPF_JEQ: return "==";
	case BPF_JGT: return ">";
	case BPF_JGE: return ">=";
	case BPF_JSET: return "&";
	case BPF_JNE: return "!=";
	case BPF_JSGT: return "s>";
	case BPF_JSGE: return "s>=";
	case BPF_JLT: return "<";
	case BPF_JLE: return "<=";
	case BPF_JSLT: return "s<";
	case BPF_JSLE: return "s<=";
	default: return "?";
	}
}

static const char *size_name(int size)
{
	switch (size) {
	case BPF_B: return "u8";
	case BPF_H: return "u16";
	case BPF_W: return "u32";
	default: return "u64";
	}
}

static void mem(struct dt_strbuf *sb, int reg, int off)
{
	if (off < 0)
		dt_sb_printf(sb, "(r%d - %d)", reg, -off);
	else
		dt_sb_printf(sb, "(r%d + %d)", reg, off);
}

int bo_disasm_insn(struct dt_strbuf *sb, const struct bpf_insn *in, size_t left)
{
	int cls = BPF_CLASS(in->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64: {
		const char *w = cls == BPF_ALU64 ? "r" : "w";
		int op = BPF_OP(in->code);
		if (op == BPF_NEG) {
			dt_sb_printf(sb, "%s%d = -%s%d", w, in->dst_reg, w, in->dst_reg);
		} else if (op == BPF_END) {
			dt_sb_printf(sb, "r%d = %s%d r%d", in->dst_reg,
				     BPF_SRC(in->code) == BPF_TO_BE ? "be" : "le", in->imm, in->dst_reg);
		} else if (BPF_SRC(in->code) == BPF_X) {
			dt_sb_printf(sb, "%s%d %s %s%d", w, in->dst_reg, alu_op(op), w, in->src_reg);
		} else {
			dt_sb_printf(sb, "%s%d %s %d", w, in->dst_reg, alu_op(op), in->imm);
		}
		return 1;
	}
	case BPF_LDX:
		dt_sb_printf(sb, "r%d = *(%s *)", in->dst_reg, size_name(BPF_SIZE(in->code)));
		mem(sb, in->src_reg, in->off);
		return 1;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			dt_sb_printf(sb, "lock *(%s *)", size_name(BPF_SIZE(in->code)));
			mem(sb, in->dst_reg, in->off);
			dt_sb_printf(sb, " += r%d%s", in->src_reg, (in->imm & BPF_FETCH) ? " (fetch)" : "");
			return 1;
		}
		dt_sb_printf(sb, "*(%s *)", size_name(BPF_SIZE(in->code)));
		mem(sb, in->dst_reg, in->off);
		dt_sb_printf(sb, " = r%d", in->src_reg);
		return 1;
	case BPF_ST:
		dt_sb_printf(sb, "*(%s *)", size_name(BPF_SIZE(in->code)));
		mem(sb, in->dst_reg, in->off);
		dt_sb_printf(sb, " = %d", in->imm);
		return 1;
	case BPF_LD:
		if (in->code == (BPF_LD | BPF_DW | BPF_IMM) && left >= 2) {
			uint64_t v = (uint32_t)in[0].imm | ((uint64_t)(uint32_t)in[1].imm << 32);
			if (in->src_reg == BPF_PSEUDO_MAP_FD)
				dt_sb_printf(sb, "r%d = map[fd %d] ll", in->dst_reg, in->imm);
			else if (in->src_reg == BPF_PSEUDO_MAP_VALUE)
				dt_sb_printf(sb, "r%d = map[value] + %u ll", in->dst_reg,
					     (uint32_t)in[1].imm);
			else
				dt_sb_printf(sb, "r%d = 0x%llx ll", in->dst_reg, (unsigned long long)v);
			return 2;
		}
		dt_sb_printf(sb, "ld 0x%02x", in->code);
		return 1;
	case BPF_JMP:
	case BPF_JMP32: {
		int op = BPF_OP(in->code);
		if (op == BPF_EXIT) {
			dt_sb_puts(sb, "exit");
		} else if (op == BPF_CALL) {
			if (in->src_reg == BPF_PSEUDO_CALL)
				dt_sb_printf(sb, "call pc%+d", in->imm);
			else
				dt_sb_printf(sb, "call helper#%d", in->imm);
		} else if (op == BPF_JA) {
			dt_sb_printf(sb, "goto %+d", in->off);
		} else if (BPF_SRC(in->code) == BPF_X) {
			dt_sb_printf(sb, "if r%d %s r%d goto %+d", in->dst_reg, jmp_op(op), in->src_reg,
				     in->off);
		} else {
			dt_sb_printf(sb, "if r%d %s %d goto %+d", in->dst_reg, jmp_op(op), in->imm,
				     in->off);
		}
		return 1;
	}
	default:
		dt_sb_printf(sb, "unknown 0x%02x", in->code);
		return 1;
	}
}
