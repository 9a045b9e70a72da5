/* Building BPF instructions: struct bpf_insn constructors. */
#ifndef DT_BPF_INSN_H
#define DT_BPF_INSN_H

#include <linux/bpf.h>
#include <stdint.h>

#define BPF_R0 0
#define BPF_R1 1
#define BPF_R2 2
#define BPF_R3 3
#define BPF_R4 4
#define BPF_R5 5
#define BPF_R6 6
#define BPF_R7 7
#define BPF_R8 8
#define BPF_R9 9
#define BPF_FP 10

static inline struct bpf_insn bpf_insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
				       int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off, .imm = imm };
	return i;
}

/* ALU64 and ALU32, register and immediate forms; op is BPF_ADD etc. */
#define I_ALU64_REG(op, dst, src) bpf_insn(BPF_ALU64 | BPF_OP(op) | BPF_X, dst, src, 0, 0)
#define I_ALU64_IMM(op, dst, imm) bpf_insn(BPF_ALU64 | BPF_OP(op) | BPF_K, dst, 0, 0, imm)
#define I_ALU32_REG(op, dst, src) bpf_insn(BPF_ALU | BPF_OP(op) | BPF_X, dst, src, 0, 0)
#define I_ALU32_IMM(op, dst, imm) bpf_insn(BPF_ALU | BPF_OP(op) | BPF_K, dst, 0, 0, imm)
/* Signed division/modulo (cpu v4): off = 1. */
#define I_SDIV64_REG(dst, src) bpf_insn(BPF_ALU64 | BPF_DIV | BPF_X, dst, src, 1, 0)
#define I_SMOD64_REG(dst, src) bpf_insn(BPF_ALU64 | BPF_MOD | BPF_X, dst, src, 1, 0)
#define I_MOV64_REG(dst, src) I_ALU64_REG(BPF_MOV, dst, src)
#define I_MOV64_IMM(dst, imm) I_ALU64_IMM(BPF_MOV, dst, imm)
#define I_MOV32_REG(dst, src) I_ALU32_REG(BPF_MOV, dst, src)
#define I_MOV32_IMM(dst, imm) I_ALU32_IMM(BPF_MOV, dst, imm)
#define I_NEG64(dst) bpf_insn(BPF_ALU64 | BPF_NEG, dst, 0, 0, 0)
/* Byte swap: BPF_TO_BE with imm 16/32/64. */
#define I_ENDIAN_BE(dst, bits) bpf_insn(BPF_ALU | BPF_END | BPF_TO_BE, dst, 0, 0, bits)
#define I_ENDIAN_LE(dst, bits) bpf_insn(BPF_ALU | BPF_END | BPF_TO_LE, dst, 0, 0, bits)

/* Memory: size is BPF_B/H/W/DW. */
#define I_LDX(size, dst, src, off) bpf_insn(BPF_LDX | BPF_MEM | (size), dst, src, off, 0)
#define I_STX(size, dst, src, off) bpf_insn(BPF_STX | BPF_MEM | (size), dst, src, off, 0)
#define I_ST(size, dst, off, imm) bpf_insn(BPF_ST | BPF_MEM | (size), dst, 0, off, imm)
/* Atomic add (lock xadd): *(size *)(dst + off) += src. */
#define I_XADD(size, dst, src, off) bpf_insn(BPF_STX | BPF_ATOMIC | (size), dst, src, off, BPF_ADD)

/* 64-bit immediate load: two instructions. */
#define I_LD_IMM64_LO(dst, src, imm64) \
	bpf_insn(BPF_LD | BPF_DW | BPF_IMM, dst, src, 0, (int32_t)(uint32_t)(uint64_t)(imm64))
#define I_LD_IMM64_HI(imm64) bpf_insn(0, 0, 0, 0, (int32_t)(uint32_t)((uint64_t)(imm64) >> 32))

/* Jumps: op is BPF_JEQ etc.; off is relative to the next instruction. */
#define I_JMP_REG(op, dst, src, off) bpf_insn(BPF_JMP | BPF_OP(op) | BPF_X, dst, src, off, 0)
#define I_JMP_IMM(op, dst, imm, off) bpf_insn(BPF_JMP | BPF_OP(op) | BPF_K, dst, 0, off, imm)
#define I_JA(off) bpf_insn(BPF_JMP | BPF_JA, 0, 0, off, 0)
#define I_CALL_HELPER(id) bpf_insn(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define I_CALL_PSEUDO() bpf_insn(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, -1)
#define I_EXIT() bpf_insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

#endif
